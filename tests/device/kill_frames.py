"""Pull the plug at every frame of a scripted battle: a helper process for test_kill_frames.py.

The parent imports the command line once, then runs `cobi-companion play` in forked children
(real processes, the real command with its SQLite store in one state folder, its scripted dice
numbered from the folder's first die, --dice-from 0), each with --trace on a pipe: every frame's
view as a JSON line, and a line each time it takes the next key. It reads the trace and types
the keys; it never waits on time.

0. The set-up: one child sets the battle up (the roster: no dice) and quits, saving it; the
   reference and the chain start from copies of its state folder.
1. The reference: one child plays the battle's keys to the end, never killed. What key was
   typed on each view is the way through the battle (a view always gets the same key).
2. The chain: children one after the other in a copy of the set-up, each typing the key the
   reference typed on the view it shows (OK on an outcome shown again that went on by itself
   in the reference). Each child is SIGKILLed as soon as it draws a view no child has drawn
   before. The trace line of a frame is written as it is drawn, before the store's writes
   its event asked for: the kill lands before them, during or after them, or (on a busy
   machine) a frame or two later; the frames drawn before it landed are read after it. The
   next child starts in the same folder; the chain ends when a child reaches the reference's
   last view and is told to quit.

    python kill_frames.py WORKDIR BATTLE_JSON  → one JSON object: the reference's views, each
                                                child's views, the kills, what went wrong
BATTLE_JSON: {"args": [...play's options...], "dice": "5,2,...", "set_up": ["ok", ...],
              "keys": ["ok", ...]}
"""
from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import shutil
import signal
import sys
from pathlib import Path
from typing import Any

from cobi_companion.cards import loader  # noqa: F401  (the card schema, pydantic's)
from cobi_companion.device import box, config  # noqa: F401
from cobi_companion.device.cli import main
from cobi_companion.device.sim import TYPED_KEYS  # noqa: F401  (imports the simulator now)

# What every child would import (the box imports the rest while idle; `play` its command's
# modules, the mock pins and the voice's as it builds the box): imported once, here. Each child
# still runs the command from its start; only Python's loading of the modules is shared.
for _module in (*box.LATER_MODULES, "device.cli.box", "device.cli.common", "device.cli.options",
                "device.ports.mock_pins", "device.ports.voice"):
    importlib.import_module(f"cobi_companion.{_module}")
# The modules' objects moved out of the garbage collector's reach (Python's advice for a
# process that forks children): a child's collections no longer walk, and copy page by page,
# everything the parent loaded, which took a third of a child's time. What a child runs, and
# what it finds on disk, is the same.
gc.freeze()

START_MENU_ITEM = "Resume battle"     # the start menu of a restart: OK resumes
MOST_CHILDREN = 2000


class Child:
    """`cobi-companion play` in a forked process: keys in on a pipe, its trace out on another."""

    def __init__(self, state: Path, battle: dict[str, Any]) -> None:
        trace_r, trace_w = os.pipe()
        keys_r, keys_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:                       # the child: the command, then nothing else
            os.close(trace_r)
            os.close(keys_w)
            os.dup2(keys_r, 0)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            code = 1
            try:
                code = main(["play", "--state-dir", str(state), "--dice", battle["dice"],
                             "--dice-from", "0", "--trace", f"/dev/fd/{trace_w}",
                             *battle["args"]])
            finally:
                os._exit(code)
        os.close(trace_w)
        os.close(keys_r)
        self.trace = os.fdopen(trace_r, encoding="utf-8")
        self.keys = os.fdopen(keys_w, "w")
        self.views: list[str] = []

    def lines(self) -> Any:
        for line in self.trace:
            yield json.loads(line)

    def type(self, key: str) -> None:
        self.keys.write(key + "\n")
        self.keys.flush()

    def kill(self) -> None:
        """SIGKILL, then the frames it drew before the signal landed (written to the trace
        before each was shown): the kill came after the last of them."""
        os.kill(self.pid, signal.SIGKILL)
        self.views += [canonical(line["view"]) for line in self.lines() if "view" in line]
        self.end()

    def end(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        self.trace.close()
        with contextlib.suppress(BrokenPipeError):
            self.keys.close()
        return status


def canonical(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True, ensure_ascii=False)


def typed(child: Child, keys: list[str]) -> tuple[dict[str, str], list[str], str]:
    """Type `keys`, one on each view the child waits on, then q: the key typed on each view,
    the views on which two keys were typed, and the last view before q."""
    keys = list(keys)
    way: dict[str, str] = {}
    clashes: list[str] = []
    last = ""
    for line in child.lines():
        if "view" in line:
            last = canonical(line["view"])
            child.views.append(last)
            continue
        if not keys:
            child.type("q")
            break
        key = keys.pop(0)
        if way.setdefault(last, key) != key:
            clashes.append(f"{way[last]} and {key} on {last}")
        child.type(key)
    final = last
    for line in child.lines():             # the farewell, after q
        if "view" in line:
            child.views.append(canonical(line["view"]))
    child.end()
    return way, clashes, final


def reference(work: Path, battle: dict[str, Any]) -> dict[str, Any]:
    """The battle played once to the end from its set-up: its views, and the key typed on
    each view."""
    folder = work / "reference"
    shutil.copytree(work / "set-up", folder)
    child = Child(folder, battle)
    way, clashes, final = typed(child, battle["keys"])
    return {"views": child.views, "way": way, "final": final, "clashes": clashes}


def set_up(work: Path, battle: dict[str, Any]) -> None:
    """The battle set up (the roster, no dice) and saved by a clean quit: where the reference
    and the chain start."""
    typed(Child(work / "set-up", battle), battle["set_up"])


def chain(work: Path, battle: dict[str, Any], ref: dict[str, Any]) -> dict[str, Any]:
    """Children one after the other in one state folder, each killed after a view new to the
    chain, until one reaches the reference's last view."""
    state = work / "chain"
    shutil.copytree(work / "set-up", state)
    seen: set[str] = set()
    children: list[dict[str, Any]] = []
    for _ in range(MOST_CHILDREN):
        child = Child(state, battle)
        outcome = play_until_new(child, ref, seen)
        children.append({"views": child.views, **outcome})
        if outcome["end"] != "killed":
            break
    return {"children": children}


def play_until_new(child: Child, ref: dict[str, Any], seen: set[str]) -> dict[str, Any]:
    last = ""
    for line in child.lines():
        if "view" in line:
            last = canonical(line["view"])
            child.views.append(last)
            if last not in seen:
                child.kill()
                seen.update(child.views)
                return {"end": "killed"}
            continue
        if last == ref["final"]:
            child.type("q")
            child.views += [canonical(line["view"]) for line in child.lines() if "view" in line]
            child.end()
            return {"end": "done"}
        key = ref["way"].get(last)
        if key is None and (last in ref["shown"] or
                            START_MENU_ITEM in json.loads(last).get("items", [])):
            key = "ok"      # an outcome that went on by itself, shown again: OK goes on
        if key is None:                     # a view the reference never typed on
            child.kill()
            return {"end": "lost", "view": last}
        child.type(key)
    return {"end": "ended", "status": child.end()}


def run(work: Path, battle: dict[str, Any]) -> dict[str, Any]:
    set_up(work, battle)
    ref = reference(work, battle)
    ref["shown"] = set(ref["views"])
    chained = chain(work, battle, ref)
    del ref["shown"]
    return {"reference": ref, **chained}


if __name__ == "__main__":
    folder, spec = Path(sys.argv[1]), json.loads(Path(sys.argv[2]).read_text())
    print(json.dumps(run(folder, spec)))
