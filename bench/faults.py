"""Fault benchmark: what a family's media can do to the box, tried on the real box, counted.

    python3 run.py faults [--quick]

Four parts, each on the real code, and most as the real process systemd starts:

1. **Plugs pulled**: tests/device/kill_campaign.py kills a box playing a Tank Game at random
   moments (SIGKILL, as a pulled plug) and opens the database as the next start would; `lost`
   counts actions reported done that the restart did not find.
2. **Bad files**: settings files (on the boot partition, where every key is allowed), card
   files and database rows, each one in the folders of a fresh box started as the unit starts
   it (`cobi-companion run`: the unit's Environment=, $NOTIFY_SOCKET, $WATCHDOG_USEC, mock
   pins, the dummy panel). Handled: the box told systemd it is up, kept pinging the watchdog,
   named the file in its journal where it read one, wrote no traceback and stopped cleanly on
   SIGTERM. Otherwise it `hung` (no READY=1 within the limit), `crashed` (ended before it) or
   was `unclean` (a traceback, a file not named, a saved battle gone).
3. **Stick attacks**: every setting a USB stick must not change, put on a stick; refused when
   the box's config keeps the value of the files before it and the problem names the key.
4. **Saves failed**: a battle played on a store whose disk fills up mid-battle and then has room
   again: each failed save is seen, and after recovery the whole battle is on the disk.

Figures are counts, printed as a table; the exit code is 1 if anything was not handled.
"""
from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import shlex
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "cobi-companion.service"
CAMPAIGN = ROOT / "tests" / "device" / "kill_campaign.py"
CLI = Path(sys.executable).with_name("cobi-companion")
WATCHDOG_USEC = 2_000_000
READY_LIMIT_S = 120.0        # a box that is not up by then is counted as hung

Make = Callable[[Path], object]   # writes a case's files into a box's folder


@dataclass
class Outcome:
    """What one start of the box made of one bad file."""

    name: str
    result: str                   # handled, hung, crashed, unclean
    detail: str = ""


@dataclass
class Case:
    """A bad file: its name, how to make it in a box's folder (boot/, boot/cards/, state/),
    the text the journal must hold (the file's name, say), and a check of the folder after."""

    name: str
    make: Make
    named: str | None = None
    absent: str | None = None     # text the journal must not hold
    after: Callable[[Path], str | None] = lambda folder: None


# --- the box as the unit starts it ---

def unit_environment() -> dict[str, str]:
    env: dict[str, str] = {}
    section = ""
    for raw in UNIT.read_text().splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and line.startswith("Environment="):
            for item in shlex.split(line.split("=", 1)[1]):
                name, _, value = item.partition("=")
                env[name] = value
    return env


@dataclass
class Started:
    proc: subprocess.Popen[bytes]
    sock: socket.socket
    journal_fd: int
    messages: list[str] = field(default_factory=list)

    def until(self, wanted: str, limit_s: float) -> bool:
        end = time.monotonic() + limit_s
        while time.monotonic() < end:
            try:
                message = self.sock.recv(4096).decode(errors="replace")
            except TimeoutError:
                if self.proc.poll() is not None:
                    return False
                continue
            self.messages.append(message)
            if wanted in message:
                return True
        return False

    def journal(self) -> str:
        chunks = []
        while chunk := os.read(self.journal_fd, 65536):
            chunks.append(chunk)
        return b"".join(chunks).decode(errors="replace")


def start_box(folder: Path) -> Started:
    """`cobi-companion run` in `folder` (boot/ is its boot-partition folder, stick/ its USB
    stick, state/ its state folder), as systemd starts it."""
    for name in ("boot", "stick", "state", "run"):
        (folder / name).mkdir(exist_ok=True)
    boot = folder / "boot" / "config.toml"
    if not boot.exists():
        boot.write_text('[display]\ndriver = "dummy"\n')
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(folder / "notify.sock"))
    sock.settimeout(0.1)
    env = {key: value for key, value in os.environ.items() if key != "NOTIFY_SOCKET"}
    env |= unit_environment() | {
        "GPIOZERO_PIN_FACTORY": "mock", "LG_WD": str(folder / "run"),
        "NOTIFY_SOCKET": str(folder / "notify.sock"), "WATCHDOG_USEC": str(WATCHDOG_USEC),
        "STATE_DIRECTORY": str(folder / "state"),
        "COBI_COMPANION_OVERLAYS": os.pathsep.join((str(folder / "boot"),
                                                    str(folder / "stick"))),
        "COBI_COMPANION_STICK": str(folder / "stick"),
    }
    read_end, write_end = os.pipe()
    st = os.fstat(write_end)
    env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
    proc = subprocess.Popen([str(CLI), "run"], env=env, cwd=folder / "run",
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=write_end)
    os.close(write_end)
    return Started(proc, sock, read_end)


def try_case(case: Case, limit_s: float) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="cobi-fault-") as tmp:
        folder = Path(tmp)
        for name in ("boot", "stick", "state"):
            (folder / name).mkdir()
        case.make(folder)
        box = start_box(folder)
        try:
            up = box.until("READY=1", limit_s)
            ended = box.proc.poll() is not None
            pinging = up and box.until("WATCHDOG=1", 5 * WATCHDOG_USEC / 1e6)
            if box.proc.poll() is None:
                box.proc.send_signal(signal.SIGTERM)
            try:
                code = box.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                box.proc.kill()
                code = box.proc.wait()
            journal = box.journal()
        finally:
            if box.proc.poll() is None:
                box.proc.kill()
                box.proc.wait()
            box.sock.close()
            os.close(box.journal_fd)
        last = journal.strip().splitlines()[-1:] or [""]
        if not up:
            return Outcome(case.name, "crashed" if ended else "hung", last[0][:160])
        problems = []
        if not pinging:
            problems.append("no watchdog ping")
        if code != 0:
            problems.append(f"exit code {code}")
        if "Traceback" in journal:
            problems.append("a traceback")
        if case.named and case.named not in journal:
            problems.append(f"{case.named!r} not in the journal")
        if case.absent and case.absent in journal:
            problems.append(f"{case.absent!r} in the journal")
        if (lost := case.after(folder)) is not None:
            problems.append(lost)
        return Outcome(case.name, "unclean" if problems else "handled", "; ".join(problems))


# --- the bad files ---

def settings(text: str, where: str = "boot") -> Make:
    def make(folder: Path) -> None:
        head = '[display]\ndriver = "dummy"\n' if where == "boot" else ""
        (folder / where / "config.toml").write_text(head + text, encoding="utf-8")
    return make


def card(name: str, text: str | bytes) -> Make:
    def make(folder: Path) -> None:
        path = folder / "boot" / "cards" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return make


def database(sql: Callable[[sqlite3.Connection], None]) -> Make:
    """A state folder whose battles.db the box made, then changed by `sql`."""
    def make(folder: Path) -> None:
        from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore

        path = folder / "state" / DATABASE_NAME
        SqliteStore(path).close()
        conn = sqlite3.connect(path)
        with conn:
            sql(conn)
        conn.close()
    return make


def _sql(conn: sqlite3.Connection, statement: str) -> None:
    conn.execute(statement)


def battle_row(state: str) -> Callable[[sqlite3.Connection], None]:
    def sql(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT OR REPLACE INTO battle VALUES (1, 'fault', ?, '2026-11-29')",
                     (state,))
    return sql


def battle_kept(folder: Path) -> str | None:
    """A saved battle the box could not resume is still in the database after the start."""
    conn = sqlite3.connect(folder / "state" / "battles.db")
    try:
        rows = conn.execute("SELECT count(*) FROM battle").fetchone()[0]
    finally:
        conn.close()
    return None if rows else "the saved battle was deleted"


def card_text(extra: str) -> str:
    return ('id = "fault"\nname = "Fault"\nlabel = "Fault"\nkind = "figure"\ncrew = 1\n'
            'weapons = [{ name = "rifle" }]\n' + extra)


BOOT_CONFIG = "boot/config.toml"


def bad_files(quick: bool) -> list[Case]:
    big = 200_000 if not quick else 60_000
    problems = ", ".join(["{ a = 1, b = 1 }"] * 10_000)        # 3 problems each: 30,000
    return [
        Case("settings: a 6,000-character key", settings("[game]\n" + "k" * 6000 + " = 1\n"),
             BOOT_CONFIG),
        Case(f"settings: a {big // 1000} KB key", settings("[game]\n" + "k" * big + " = 1\n"),
             BOOT_CONFIG),
        Case('settings: cards_dir = "~nosuchuser/x"',
             settings('[paths]\ncards_dir = "~nosuchuser/x"\n'), BOOT_CONFIG),
        Case("settings: a 4,301-digit hex address",
             settings('address = "0x' + "1" * 4301 + '"\n'), BOOT_CONFIG),
        Case("settings: a state_dir name over 255 bytes",
             settings(f'[paths]\nstate_dir = "/tmp/{"a" * 300}"\n'), BOOT_CONFIG),
        Case("settings: a state_dir with a NUL",
             settings('[paths]\nstate_dir = "/tmp/a\\u0000b"\n'), BOOT_CONFIG),
        Case("settings: 4,000 mistakes on a stick", settings("[game]\n" + "".join(
            f"k{i:x} = 1\n" for i in range(4000)), where="stick"), "stick/config.toml"),
        Case("settings: tables nested 600 deep",
             settings("x = " + "[" * 600 + "]" * 600 + "\n"), BOOT_CONFIG),
        Case("settings: a file saved with a BOM",
             lambda folder: (folder / "boot" / "config.toml").write_bytes(
                 '\ufeff[display]\ndriver = "dummy"\n'.encode()), None,
             "settings file not used"),
        Case("settings: not text", lambda folder: (folder / "boot" / "config.toml")
             .write_bytes(b'[display]\ndriver = "dummy"\n\xff\xfe\x00garbage'), BOOT_CONFIG),
        Case("card: a 6,000-character key",
             card("long-key.toml", card_text("k" * 6000 + " = 1\n")), "long-key.toml"),
        Case(f"card: a {big // 1000} KB key",
             card("huge-key.toml", card_text("k" * big + " = 1\n")), "huge-key.toml"),
        Case("card: 30,000 problems (180 KB)", card("problems.toml",
                                           'id = "many"\nname = "Many"\nkind = "figure"\n'
                                           f"weapons = [{problems}]\n"), "problems.toml"),
        Case("table: 30,000 problems", card("tables/soft-targets.toml", "".join(
            f"w{i:x} = 1\n" for i in range(30_000))), "soft-targets.toml"),
        Case("card: a name with terminal codes",
             card("escape.toml", card_text("").replace('"Fault"', '"\\u001b[2JFault"', 1)),
             None, "\x1b"),
        Case("card: saved with a BOM",
             card("bom.toml", b"\xef\xbb\xbf" + card_text("").encode()), None,
             "card file skipped"),
        Case("database: a settings row that is not JSON",
             database(lambda c: _sql(c, "INSERT OR REPLACE INTO settings VALUES "
                                          "('language', '{not json')")), None),
        Case("database: a battle 5,000 deep",
             database(battle_row("[" * 5000 + "]" * 5000)), None, after=battle_kept),
        Case("database: a battle that is not JSON", database(battle_row("{oops")), None,
             after=battle_kept),
        Case("database: a battle of a card nobody has",
             database(battle_row(json.dumps({"version": 999, "game": "easy",
                                             "pieces": [{"card": "9999"}]}))),
             None, after=battle_kept),
    ]


# --- the stick ---

STICK_TABLES = ("game", "house_rules")      # what the players choose at the table
HOSTILE_PATH = "/dev/shm/cobi-stick"


def hostile(info: object) -> object:
    """A value the schema allows for a field, other than its default where one exists: an
    attack is refused for where it comes from, not for being wrong."""
    from pydantic.fields import FieldInfo

    assert isinstance(info, FieldInfo)
    default = info.get_default(call_default_factory=True)
    bounds = {type(m).__name__: m for m in info.metadata}
    if isinstance(default, bool):
        return not default
    if isinstance(default, int):        # the lowest allowed: a dark panel, pin 0
        low = getattr(bounds.get("Ge"), "ge", default - 1)
        return low if low != default else default + 1
    if isinstance(default, float):
        return getattr(bounds.get("Ge"), "ge", 0.0) or default / 2
    if default is None or isinstance(default, Path):
        text = str(info.annotation)
        return HOSTILE_PATH if "Path" in text else 26 if "int" in text else "none"
    choices = [c for c in typing.get_args(info.annotation) if c != default]
    return choices[-1] if choices else default


def stick_attacks() -> list[tuple[str, str]]:
    """Every setting outside the players' tables, as a stick's config.toml would set it."""
    from cobi_companion.device.config_check import ConfigSchema

    attacks = []
    for table, info in ConfigSchema.model_fields.items():
        if table in STICK_TABLES:
            continue
        if table == "sensors":
            attacks.append(("sensors", '[[sensors]]\nname = "evil"\nport = "/dev/ttyS0"\n'
                                       'model = "a02yyuw"\noffset_cm = 90.0\n'))
            continue
        model = info.annotation
        for key, field_info in getattr(model, "model_fields", {}).items():
            value = hostile(field_info)
            shown = json.dumps(value) if not isinstance(value, bool) else str(value).lower()
            attacks.append((f"{table}.{key}", f"[{table}]\n{key} = {shown}\n"))
    return attacks


def stick_refuses(place: str, text: str, folder: Path) -> bool:
    """Whether the box's settings with `text` on the stick (and a language chosen there) are
    those of the files before it with that language, and a problem names `place`."""
    from cobi_companion.device.config import load_layers

    system = folder / "etc.toml"
    system.write_text('[display]\ndriver = "dummy"\n')
    stick = folder / "stick" / "config.toml"
    stick.parent.mkdir(exist_ok=True)
    before = {name: os.environ.get(name) for name in ("COBI_COMPANION_OVERLAYS",
                                                      "COBI_COMPANION_STICK")}
    os.environ["COBI_COMPANION_OVERLAYS"] = ""
    os.environ["COBI_COMPANION_STICK"] = str(stick.parent)
    try:
        stick.write_text('[game]\nlanguage = "pl"\n')
        plain = load_layers(system).config
        stick.write_text('[game]\nlanguage = "pl"\n\n' + text)
        loaded = load_layers(system)
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    said = [problem for error in (*loaded.skipped, *getattr(loaded, "refused", ()))
            for problem in error.problems]
    # refused for where it comes from: a problem names the place and the stick
    named = any(place in problem and "USB stick" in problem for problem in said)
    return loaded.config == plain and plain.game.language == "pl" and named


# --- saves that fail ---

FULL_DISK = 4096     # no file of the box may grow past 4 KiB: as SQLite meets a full disk


def saves_trial(folder: Path, seed: int) -> dict[str, int]:
    """One Tank Game on a real store: a few actions saved, then the disk is full for a while
    (every save fails), then it has room again: the figures of what the box did."""
    import random
    import resource

    from cobi_companion.device.box import build
    from cobi_companion.device.config import Config
    from cobi_companion.device.ports.display import MemoryDisplay
    from cobi_companion.device.ports.events import Press
    from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore
    from cobi_companion.rules.dice import RandomDice
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    sys.path.insert(0, str(CAMPAIGN.parent))     # the campaign's way of playing a battle
    campaign: Any = importlib.import_module(CAMPAIGN.stem)
    NEW_TANK_BATTLE, next_key, progress = (campaign.NEW_TANK_BATTLE, campaign.next_key,
                                           campaign.progress)

    logging.getLogger("cobi-companion").addHandler(logging.NullHandler())   # the table only
    chance = random.Random(seed)
    factory = MockFactory(pin_class=MockPWMPin)
    box = build(Config(), MemoryDisplay(), pin_factory=factory, dice=RandomDice(),
                state_dir=folder)
    figures = {"failed": 0, "shown": 0, "recovered": 0, "lost": 0}
    seen = False
    keys = list(NEW_TANK_BATTLE)
    limits = resource.getrlimit(resource.RLIMIT_FSIZE)

    def steps(count: int) -> None:
        nonlocal seen
        for _ in range(count):
            box.loop.step(Press(keys.pop(0) if keys else next_key(box.app)))
            box.loop.settle()
            if not box.store.can_save:
                figures["failed"] += 1
                seen |= "cannot save" in str(box.app.view()).lower()

    try:
        steps(len(NEW_TANK_BATTLE) + chance.randint(3, 12))
        resource.setrlimit(resource.RLIMIT_FSIZE, (FULL_DISK, limits[1]))
        try:
            steps(chance.randint(5, 40))
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, limits)
        for _ in range(200):                       # the box tries its file again, now and then
            steps(1)
            if box.store.can_save:
                break
        played = progress(box.app.state.to_dict() if box.app.state else None)
    finally:
        box.close()
        factory.reset()
    store = SqliteStore(folder / DATABASE_NAME)    # the next start: what is on the disk?
    try:
        on_disk = progress(store.load_battle())
    finally:
        store.close()
    figures["recovered" if on_disk == played else "lost"] += 1
    figures["shown"] += seen
    return figures


def saves(trials: int) -> dict[str, int]:
    totals = {"trials": trials, "failed": 0, "shown": 0, "recovered": 0, "lost": 0}
    for seed in range(trials):
        with tempfile.TemporaryDirectory(prefix="cobi-saves-") as tmp:
            for name, value in saves_trial(Path(tmp), seed).items():
                totals[name] += value
    return totals


# --- the parts ---

def plugs(runs: int) -> dict[str, int]:
    with tempfile.TemporaryDirectory(prefix="cobi-plugs-") as tmp:
        done = subprocess.run([sys.executable, str(CAMPAIGN), str(Path(tmp) / "state"),
                               str(runs), "31"], capture_output=True, text=True, timeout=3600,
                              check=False)
    if done.returncode != 0:
        return {"kills": 0, "lost": -1}
    figures: dict[str, int] = json.loads(done.stdout)
    return figures


def table(rows: list[tuple[str, str]]) -> None:
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}", flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python3 run.py faults", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="20 pulled plugs instead of 200, smaller huge files")
    args = parser.parse_args(argv)
    failed = False

    print("1. plugs pulled (SIGKILL while playing, then a restart)", flush=True)
    kills = plugs(20 if args.quick else 200)
    table([("pulled", str(kills.get("kills", 0))), ("actions lost", str(kills.get("lost"))),
           ("unreadable after", str(kills.get("unreadable"))),
           ("battles vanished", str(kills.get("vanished")))])
    failed |= kills.get("lost") != 0 or bool(kills.get("unreadable")) \
        or bool(kills.get("vanished"))

    print("\n2. bad files (the box started as the unit starts it, one file each)", flush=True)
    outcomes = []
    for case in bad_files(args.quick):
        outcome = try_case(case, READY_LIMIT_S)
        outcomes.append(outcome)
        print(f"  {outcome.result:<8} {outcome.name}"
              + (f": {outcome.detail}" if outcome.detail else ""), flush=True)
    counts = {kind: sum(o.result == kind for o in outcomes)
              for kind in ("handled", "hung", "crashed", "unclean")}
    table([("tried", str(len(outcomes))), *((k, str(v)) for k, v in counts.items())])
    failed |= counts["handled"] != len(outcomes)

    print("\n3. stick attacks (each setting a USB stick may not change, on a stick)", flush=True)
    attacks = stick_attacks()
    refused = 0
    with tempfile.TemporaryDirectory(prefix="cobi-stick-") as tmp:
        for place, text in attacks:
            if stick_refuses(place, text, Path(tmp)):
                refused += 1
            else:
                print(f"  used     {place}", flush=True)
    table([("tried", str(len(attacks))), ("refused", str(refused))])
    failed |= refused != len(attacks)

    print("\n4. saves failed (the disk full mid-battle, then room again)", flush=True)
    saved = saves(5 if args.quick else 40)
    table([("battles", str(saved["trials"])),
           ("actions played, not saved", str(saved["failed"])),
           ("battles told 'cannot save'", str(saved["shown"])),
           ("battles whole on the disk after", str(saved["recovered"])),
           ("battles with something lost", str(saved["lost"]))])
    failed |= saved["recovered"] != saved["trials"] or saved["shown"] != saved["trials"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
