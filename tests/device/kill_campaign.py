"""Pull the plug on the box, again and again: a helper process for test_fault_tolerance.py.

The parent imports the box once, then for each run forks a child that builds the real box
(SQLite store in one state folder, mock pins, luma's dummy display), resumes the saved battle
and plays on (both sides pass, round after round), writing its progress to a pipe after every
committed action. The parent SIGKILLs the child at a random moment, then opens the database as
a restarting box would and checks that it loads and holds every action reported done.

    python kill_campaign.py STATE_DIR RUNS SEED     → one JSON line with the figures
"""
from __future__ import annotations

import gc
import importlib
import json
import os
import random
import select
import signal
import sys
import time
from pathlib import Path
from typing import Any

from cobi_companion.device.box import LATER_MODULES, build, card_book
from cobi_companion.device.config import Config
from cobi_companion.device.core.app import App
from cobi_companion.device.core.views import Menu, Roll
from cobi_companion.device.games.registry import BOX_GAMES
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.events import Key, Press
from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore
from cobi_companion.rules.dice import RandomDice
from gpiozero.pins.mock import MockFactory, MockPWMPin

# What every child would import while it plays (the box imports the screens late, and its
# voice's modules as it builds it): imported once, here, so that the children's time goes to
# play, writes and kills. Each child still builds its box from the start (box.build: the
# store opened, the battle resumed, the voice and panel made); only Python's loading of the
# modules is shared, as a fork shares it.
for _module in (*LATER_MODULES, "device.ports.voice"):
    importlib.import_module(f"cobi_companion.{_module}")
# The modules' objects moved out of the garbage collector's reach (Python's advice for a
# process that forks children): a child's collections no longer walk, and copy page by page,
# everything the parent loaded, which took a third of a child's time. What a child runs, and
# what it finds on disk, is the same.
gc.freeze()

NEW_TANK_BATTLE = [Key.OK, Key.CW, Key.CW, Key.CW, Key.AXIS, Key.CCW, Key.CCW, Key.ALLIES,
                   Key.OK]


def progress(state: dict[str, Any] | None) -> int:
    """Completed actions, counted from the round and who has acted: it only grows."""
    if state is None:
        return -1
    return counted(state["round"], len(state["acted"]), bool(state["active"]))


def counted(round_: int, acted: int, active: bool) -> int:
    return 3 * round_ + acted if active else 3 * (round_ - 1) + acted


def shown(app: App) -> int:
    """The progress of the battle in the app's memory: what the store holds is never ahead
    of it (it saves what the app had)."""
    state = app.state
    if state is None:
        return -1
    return counted(state.round, len(state.acted), state.active is not None)


def play(state_dir: Path, report: int) -> None:
    """In the child: resume (or start) the battle and pass, reporting each commit."""
    factory = MockFactory(pin_class=MockPWMPin)
    box = build(Config(), MemoryDisplay(), pin_factory=factory, dice=RandomDice(),
                state_dir=state_dir)
    app = box.app
    keys = [Key.OK] if app.state is not None else list(NEW_TANK_BATTLE)
    reported = progress(app.state.to_dict()) if app.state else -1
    while True:
        key = keys.pop(0) if keys else next_key(app)
        box.loop.step(Press(key))
        box.loop.settle()
        # Only what the store holds is reported; it is read back (which costs more as the
        # battle grows) only once the app's memory is past the last report, since the store
        # cannot be ahead of the app.
        if shown(app) <= reported:
            continue
        now = progress(app.store.load_battle())
        if now > reported:
            os.write(report, f"{now}\n".encode())
            reported = now


def next_key(app: App) -> Key:
    view = app.view()
    if isinstance(view, Menu) and "Pass" in view.items:
        return Key.CW if view.items[view.index] != "Pass" else Key.OK
    if isinstance(view, Menu) and view.items == ("no", "yes"):     # Pass this turn? yes
        return Key.CW if view.index == 0 else Key.OK
    if isinstance(view, Roll) and not view.total and view.needed.count("?"):
        return Key.AXIS if view.needed.startswith("?") else Key.ALLIES
    return Key.OK


def _read_until(read: int, wanted: int, deadline: float) -> bytes:
    """What the child reported, once it has reported `wanted` actions (or by the deadline)."""
    buffer = b""
    while buffer.count(b"\n") < wanted and (left := deadline - time.monotonic()) > 0:
        if not select.select([read], [], [], left)[0]:
            break
        chunk = os.read(read, 4096)
        if not chunk:
            break
        buffer += chunk
    return buffer


def campaign(state_dir: Path, runs: int, seed: int) -> dict[str, int]:
    chance = random.Random(seed)
    book = card_book(Config())
    figures = {"runs": runs, "kills": 0, "lost": 0, "vanished": 0, "unreadable": 0,
               "reported": 0, "max_progress": -1, "restarts_resumed": 0}
    for _ in range(runs):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:                                  # the child: the box, until killed
            os.close(read)
            try:
                play(state_dir, write)
            finally:
                os._exit(1)
        os.close(write)
        # Kill after a chosen number of reported actions plus a little, so the kill lands in
        # the middle of play however fast or loaded the machine is (and some at start-up).
        wanted, extra = chance.randint(0, 12), chance.uniform(0, 0.01)
        buffer = _read_until(read, wanted, time.monotonic() + 10)
        time.sleep(extra)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        buffer += os.read(read, 65536) if select.select([read], [], [], 0)[0] else b""
        os.close(read)
        figures["kills"] += 1
        lines = [int(x) for x in buffer.decode().split()]
        reported = max(lines, default=-1)
        figures["reported"] += len(lines)
        store = SqliteStore(state_dir / DATABASE_NAME)   # the restart: what does it find?
        try:
            data = store.load_battle()
            if store.problem:
                figures["unreadable"] += 1
            if data is not None:
                BOX_GAMES.resume(data, book)     # as the box resumes it
                figures["restarts_resumed"] += 1
            elif figures["restarts_resumed"]:     # there was a battle, and now there is none
                figures["vanished"] += 1
            if progress(data) < reported:
                figures["lost"] += 1
            figures["max_progress"] = max(figures["max_progress"], progress(data))
        finally:
            store.close()
    return figures


if __name__ == "__main__":
    folder, count, seed = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    print(json.dumps(campaign(folder, count, seed)))
