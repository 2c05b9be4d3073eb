"""The box as a real process when saving fails mid-battle and works again, and when its
database holds rows it never wrote: started as systemd starts it (`cobi-companion run`, the
unit's environment, gpiozero's mock pins, luma's dummy panel), played through its test FIFO,
its frames read from its screen file ([test] keys_fifo, screen_file)."""
from __future__ import annotations

import json
import os
import resource
import signal
import sqlite3
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore

from .test_systemd_run import unit_environment
from .waiting import until

TIGER_VS_SHERMAN = "ok cw cw cw axis ccw ccw allies ok"


@dataclass
class Running:
    proc: subprocess.Popen[bytes]
    fifo: Path
    screen: Path
    state: Path
    journal: list[str] = field(default_factory=list)

    def press(self, keys: str) -> None:
        fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
        try:
            os.write(fd, keys.encode() + b"\n")
        finally:
            os.close(fd)

    def shown(self) -> str:
        try:
            return self.screen.read_text(encoding="utf-8")
        except FileNotFoundError:
            return ""

    def wait_for(self, condition: Callable[[str], bool]) -> str:
        assert until(lambda: condition(self.shown()) or self.proc.poll() is not None), \
            self.shown()
        assert self.proc.poll() is None, "\n".join(self.journal)
        return self.shown()

    def press_and_see(self, keys: str, condition: Callable[[str], bool]) -> str:
        """Press `keys`, then wait for their last frame: the journal's count of keys taken is
        not there, so each key waits for a frame that differs, where the test says which."""
        self.press(keys)
        return self.wait_for(condition)


@contextmanager
def box_process(tmp_path: Path, cli_path: str, config: str = "") -> Iterator[Running]:
    boot = tmp_path / "boot"
    boot.mkdir(exist_ok=True)
    fifo, screen = tmp_path / "keys", tmp_path / "screen.txt"
    (boot / "config.toml").write_text(
        f'[display]\ndriver = "dummy"\n\n[pins]\nfactory = "mock"\n\n'
        f'[test]\nkeys_fifo = "{fifo}"\n'
        f'screen_file = "{screen}"\n{config}', encoding="utf-8")
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    (tmp_path / "run").mkdir(exist_ok=True)
    env = {key: value for key, value in os.environ.items()
           if key not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
    env |= unit_environment() | {
        "LG_WD": str(tmp_path / "run"),
        "STATE_DIRECTORY": str(state), "COBI_COMPANION_OVERLAYS": str(boot)}
    read_end, write_end = os.pipe()
    st = os.fstat(write_end)       # systemd's stream to the journal: the priorities show
    env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
    proc = subprocess.Popen([cli_path, "run"], env=env, cwd=tmp_path / "run",
                            stdout=subprocess.DEVNULL, stderr=write_end)
    os.close(write_end)
    running = Running(proc, fifo, screen, state)

    def drain() -> None:          # a journal never read would fill the pipe and stop the box
        with os.fdopen(read_end, "rb") as err:
            for line in err:
                running.journal.append(line.decode(errors="replace").rstrip("\n"))
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        running.wait_for(lambda text: "New battle" in text and fifo.exists())
        yield running
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
        reader.join(timeout=30)


def saved_battle(state: Path) -> tuple[dict, int, int]:
    """The battle in the file, its rolls and the sum of its counts (read as another reader)."""
    with closing(sqlite3.connect(state / DATABASE_NAME)) as conn:
        data = json.loads(conn.execute("SELECT state FROM battle").fetchone()[0])
        rolls = conn.execute("SELECT COUNT(*) FROM rolls").fetchone()[0]
        counted = conn.execute("SELECT COALESCE(SUM(n), 0) FROM face_totals").fetchone()[0]
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    return data, rolls, counted


def test_saving_that_fails_mid_battle_is_shown_logged_once_and_recovers(cli_path, tmp_path):
    with box_process(tmp_path, cli_path, '\n[game]\nvoice = "off"\n') as box:
        box.press(TIGER_VS_SHERMAN)
        box.wait_for(lambda text: "Who goes first?" in text)
        box.press_and_see("back", lambda text: "Quick dice" in text and "Back to battle" in text)
        box.press_and_see("cw cw cw cw cw ok", lambda text: "Quick dice" in text
                          and "New battle" not in text)
        box.press("axis")
        assert until(lambda: saved_battle(box.state)[1] == 1)
        before, _, _ = saved_battle(box.state)
        # The disk is full: no file of the box can grow past 4 KiB (its log and the
        # database's write-ahead log are past it), as SQLite meets a full disk.
        resource.prlimit(box.proc.pid, resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))
        shown = box.press_and_see("allies", lambda text: "Cannot save!" in text)
        assert "The box cannot save now: disk I/O error." in " ".join(shown.split())
        shown = box.press_and_see("ok", lambda text: "Quick dice" in text)   # back to play
        for _ in range(5):                                   # no new notice, no new error
            box.press("axis")
        box.press_and_see("back", lambda text: "Who goes first?" in text)     # all taken
        box.press_and_see("back", lambda text: "Back to battle" in text)
        box.press_and_see("cw cw cw cw cw ok", lambda text: "Quick dice" in text
                          and "Back to battle" not in text)
        errors = [line for line in box.journal if line.startswith("<3>cannot save")]
        assert len(errors) == 1, box.journal
        assert str(box.state / DATABASE_NAME) in errors[0]
        # the file as it was: still the battle of before the fault
        assert saved_battle(box.state)[0]["id"] == before["id"]
        resource.prlimit(box.proc.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY,) * 2)
        for _ in range(40):                                  # the box tries again, now and then
            box.press("axis")
            if "Saving again" in box.shown():
                break
        shown = box.wait_for(lambda text: "Saving again" in text)
        assert "Saving works again" in " ".join(shown.split())
        box.press_and_see("ok", lambda text: "Quick dice" in text)
        box.proc.send_signal(signal.SIGKILL)                 # a pulled plug right after
        box.proc.wait(timeout=30)
    data, rolls, counted = saved_battle(box.state)
    assert data["id"] == before["id"]
    assert rolls == counted and rolls >= 1 + 1 + 5 + 1     # every roll of the battle is in
    assert any(line.startswith("<4>saving works again") for line in box.journal), box.journal


def rows_no_box_writes(path: Path) -> None:
    SqliteStore(path).close()
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("INSERT INTO battle VALUES (1, 'b1', ?, 'now')",
                     ("[" * 5000 + "]" * 5000,))
        conn.executemany("INSERT INTO settings VALUES (?, ?)", [
            ("language", "not json"), ("volume", '"loud"'), ("voice", "[" * 5000),
            ("sound", "true"), ("armies", '{"easy": [1, 2]}')])


def test_the_box_starts_on_a_database_of_rows_it_never_wrote(cli_path, tmp_path):
    (tmp_path / "state").mkdir()
    rows_no_box_writes(tmp_path / "state" / DATABASE_NAME)
    with box_process(tmp_path, cli_path) as box:
        shown = box.wait_for(lambda text: "Saved battle" in text)
        assert "Resume" not in shown
        box.proc.send_signal(signal.SIGTERM)
        assert box.proc.wait(timeout=60) == 0
    journal = "\n".join(box.journal)
    assert "Traceback" not in journal
    for key in ("language", "volume", "voice", "armies"):
        assert f"<3>database: settings row '{key}'" in journal
        assert journal.count(f"settings row '{key}'") == 1
    assert "<3>the saved battle cannot be resumed now (it stays saved): BadRow: battle row " \
        "'b1': nested deeper than 64" in journal
    with closing(sqlite3.connect(tmp_path / "state" / DATABASE_NAME)) as conn:
        assert conn.execute("SELECT state FROM battle").fetchone()[0].startswith("[[[")
