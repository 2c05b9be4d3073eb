"""`cobi-companion run` started as the unit starts it: the unit file's ExecStart and Environment=
lines, a real datagram socket as $NOTIFY_SOCKET, $WATCHDOG_USEC set, gpiozero's mock pins and a
panel that needs no bus (`driver = "dummy"`, from a settings file in the boot-partition
folder). Nothing is injected: what systemd would see is what the test sees."""
from __future__ import annotations

import itertools
import os
import shlex
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "cobi-companion.service"
WATCHDOG_USEC = 1_000_000


def unit_lines(key: str) -> list[str]:
    """The values of `key=` in the unit's [Service] section, in order."""
    values, section = [], ""
    for raw in UNIT.read_text().splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and line.startswith(f"{key}="):
            values.append(line.split("=", 1)[1])
    return values


def unit_environment() -> dict[str, str]:
    env: dict[str, str] = {}
    for value in unit_lines("Environment"):
        for item in shlex.split(value):
            name, _, text = item.partition("=")
            env[name] = text
    return env


@dataclass
class Service:
    proc: subprocess.Popen[bytes]
    sock: socket.socket
    messages: list[tuple[float, str]] = field(default_factory=list)

    def receive(self, until: str, timeout: float = 60.0) -> list[tuple[float, str]]:
        """Datagrams until one holds `until` (all of them are kept in `messages`)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                if self.proc.poll() is not None:
                    break
                continue
            self.messages.append((time.monotonic(), data.decode()))
            if until in data.decode():
                return self.messages
        err = self.proc.stderr.read().decode() if self.proc.poll() is not None else ""
        raise AssertionError(f"no {until!r} (got {[m for _, m in self.messages]}) {err}")

    def watch(self, seconds: float) -> list[float]:
        """The times of the WATCHDOG=1 pings within `seconds`."""
        start = len(self.messages)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            self.messages.append((time.monotonic(), data.decode()))
        return [t for t, m in self.messages[start:] if "WATCHDOG=1" in m]


@pytest.fixture
def boot_config() -> str:
    """The settings file on the (test's) boot partition: only the panel that needs no bus."""
    return '[display]\ndriver = "dummy"\n'


@pytest.fixture
def boot_cards() -> str:
    """What the boot partition's cards/ folder holds: nothing ("odd": see odd_cards)."""
    return ""


def odd_cards(folder: Path, make_fifo: Callable[[Path], Path]) -> list[Path]:
    """A FIFO named like a card, a link to /dev/zero and a card nested 600 deep."""
    folder.mkdir()
    odd = [make_fifo(folder / "fifo.toml"), folder / "zero.toml", folder / "deep.toml"]
    odd[1].symlink_to("/dev/zero")
    odd[2].write_text("x = " + "[" * 600 + "]" * 600 + "\n")
    return odd


@pytest.fixture
def service(tmp_path: Path, cli_path: str, boot_config: str, boot_cards: str,
            make_fifo: Callable[[Path], Path]):
    exec_start = shlex.split(unit_lines("ExecStart")[0])
    assert Path(exec_start[0]).name == "cobi-companion" and exec_start[1:] == ["run"]
    boot = tmp_path / "boot" / "cobi"
    boot.mkdir(parents=True)
    (boot / "config.toml").write_text(boot_config)
    if boot_cards == "odd":
        odd_cards(boot / "cards", make_fifo)
    (tmp_path / "state").mkdir()
    (tmp_path / "run").mkdir()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify.sock"))
    sock.settimeout(0.05)
    env = {key: value for key, value in os.environ.items() if key != "NOTIFY_SOCKET"}
    env |= unit_environment()
    env |= {
        "GPIOZERO_PIN_FACTORY": "mock",          # no GPIO chip here: gpiozero's own mock pins
        "LG_WD": str(tmp_path / "run"),
        "NOTIFY_SOCKET": str(tmp_path / "notify.sock"),
        "WATCHDOG_USEC": str(WATCHDOG_USEC),
        "STATE_DIRECTORY": str(tmp_path / "state"),
        "COBI_COMPANION_OVERLAYS": str(boot),
    }
    read_end, write_end = os.pipe()
    st = os.fstat(write_end)       # systemd's stream to the journal: the priorities show
    env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
    proc = subprocess.Popen([cli_path, *exec_start[1:]], env=env, cwd=tmp_path / "run",
                            stdout=subprocess.DEVNULL, stderr=write_end)
    os.close(write_end)
    proc.stderr = os.fdopen(read_end, "rb")       # type: ignore[assignment]
    try:
        yield Service(proc, sock)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        proc.stderr.close()
        sock.close()


@pytest.mark.long
def test_the_unit_starts_the_box_and_systemd_hears_it(service: Service) -> None:
    assert unit_environment()["PYTHONFAULTHANDLER"] == "1"
    ready = service.receive("READY=1")
    assert "frame 1" in ready[-1][1] or "frame 2" in ready[-1][1]    # drawn before READY
    pings = service.watch(3.0)
    gaps = [b - a for a, b in itertools.pairwise(pings)]
    assert len(pings) >= 4 and max(gaps) <= WATCHDOG_USEC / 2e6 + 0.15, gaps
    # SIGHUP reloads the settings and the cards, SIGUSR1 is only logged: the box stays up.
    service.proc.send_signal(signal.SIGHUP)
    service.proc.send_signal(signal.SIGUSR1)
    assert len(service.watch(1.5)) >= 2 and service.proc.poll() is None
    service.proc.send_signal(signal.SIGTERM)
    service.receive("STOPPING=1", timeout=10)
    assert service.proc.wait(timeout=10) == 0
    journal = service.proc.stderr.read().decode().splitlines()
    assert journal and all(line[:3] in {"<2>", "<3>", "<4>", "<6>", "<7>"}
                           for line in journal), journal
    text = "\n".join(journal)
    assert "<6>settings read again" in text and "<6>signal SIGUSR1" in text
    assert "<6>stopped: SIGTERM" in text
    # The title's frame is logged as it is sent: its time since the kernel's start is the
    # system test's (tests/system/) first frame.
    assert sum(line.startswith("<6>first frame: the title, on the ") for line in journal) == 1


def up_and_stopped(service: Service) -> str:
    """The box told systemd it is up and keeps pinging; SIGTERM stops it cleanly: its log."""
    ready = service.receive("READY=1")
    assert service.proc.poll() is None and "READY=1" in ready[-1][1]
    assert len(service.watch(1.2)) >= 2
    service.proc.send_signal(signal.SIGTERM)
    assert service.proc.wait(timeout=10) == 0
    return str(service.proc.stderr.read().decode())


@pytest.mark.parametrize("boot_config", ['[display]\ndriver = "dummy"\n\n[buttons]\naxis = 99\n'])
def test_a_bad_settings_file_keeps_the_box_up_and_says_where(service: Service) -> None:
    # The whole file is skipped (so the panel is the usual SSD1306, with no bus here: the
    # display retries in the background) and the box comes up with the problem on its screen.
    text = up_and_stopped(service)
    assert "<3>settings file not used: config " in text
    assert "line 5: buttons.axis: 99 is not allowed; allowed: a BCM GPIO number from 0 to 27" \
        in text
    assert "Traceback" not in text


@pytest.mark.parametrize("boot_cards", ["odd"])
def test_odd_card_files_keep_the_box_up_and_each_is_named(service: Service,
                                                          tmp_path: Path) -> None:
    text = up_and_stopped(service)
    assert "Traceback" not in text
    cards = tmp_path / "boot" / "cobi" / "cards"
    for name, reason in (("fifo", "it is a pipe (FIFO)"), ("zero", "it is a device"),
                         ("deep", "nested more than 32 deep")):
        [line] = [line for line in text.splitlines()
                  if line.startswith(f"<4>card file skipped: {cards / name}.toml: ")]
        assert reason in line


@pytest.mark.long
def test_a_stick_with_a_200_kb_key_is_read_while_the_box_pings(service: Service,
                                                                 tmp_path: Path) -> None:
    # A stick plugged in while the box runs: its settings file holds one key of 200,000
    # letters. The box reads it on a thread of its own (the loop's pings go on: see
    # tests/device/test_reload_watchdog.py for the fact, held mid-read), shows the file's
    # problem with the key cut short, and stays up.
    service.receive("READY=1")
    (tmp_path / "boot" / "cobi" / "config.toml").write_text(
        '[display]\ndriver = "dummy"\n\n[game]\n' + "k" * 200_000 + " = 1\n")
    service.proc.send_signal(signal.SIGHUP)
    assert len(service.watch(3.0)) >= 2 and service.proc.poll() is None
    service.proc.send_signal(signal.SIGTERM)
    assert service.proc.wait(timeout=60) == 0
    journal = service.proc.stderr.read().decode().splitlines()
    assert "Traceback" not in "\n".join(journal)
    [problem] = [line for line in journal if "game.kkk" in line]
    assert problem.startswith("<3>settings file not used: ") and len(problem) < 1000, \
        problem[:300]
