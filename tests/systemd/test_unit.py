"""systemd/cobi-companion.service: systemd-analyze accepts it without a word, its hardening
scores OK or better, and it agrees with the daemon and the installer."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from cobi_companion.device.boot import SYSTEM_CONFIG
from cobi_companion.device.notify import Notifier

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "cobi-companion.service"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
# The host's own units: verify loads the targets the service is ordered against.
SYSTEM_UNITS = next((p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system"))
                     if (p / "multi-user.target").exists()), None)


def settings() -> dict[str, list[str]]:
    """Every Key=Value of the unit, values in order (keys may repeat)."""
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def one(key: str) -> str:
    values = settings()[key]
    assert len(values) == 1, f"{key} is set {len(values)} times"
    return values[0]


def exec_start() -> Path:
    return Path(one("ExecStart").split()[0])


def fake_root(tmp_path: Path, with_executable: bool = True) -> Path:
    """A root holding the host's units, the unit as installed and, in place of the venv's
    console script, an executable stub at the ExecStart path."""
    assert SYSTEM_UNITS is not None
    root = tmp_path / "root"
    shutil.copytree(SYSTEM_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(UNIT, root / "etc/systemd/system" / UNIT.name)
    if with_executable:
        stub = root / exec_start().relative_to("/")
        stub.parent.mkdir(parents=True)
        stub.write_text("#!/bin/sh\nexit 0\n")
        stub.chmod(0o755)
    return root


def verify(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ANALYZE), "verify", f"--root={root}", UNIT.name],
                          capture_output=True, text=True, timeout=120)


@needs_analyze
@pytest.mark.skipif(SYSTEM_UNITS is None, reason="no systemd unit folder on this machine")
def test_verify_prints_nothing(tmp_path: Path) -> None:
    result = verify(fake_root(tmp_path))
    assert (result.stdout + result.stderr) == "", result.stdout + result.stderr
    assert result.returncode == 0


@needs_analyze
@pytest.mark.skipif(SYSTEM_UNITS is None, reason="no systemd unit folder on this machine")
def test_verify_checks_the_executable(tmp_path: Path) -> None:
    # The same check without the ExecStart file complains: verify did read this unit.
    result = verify(fake_root(tmp_path, with_executable=False))
    assert result.returncode != 0
    assert f"{exec_start()} is not executable" in result.stdout + result.stderr


@needs_analyze
def test_security_exposure_is_ok_or_better() -> None:
    result = subprocess.run([str(ANALYZE), "security", "--offline=yes", str(UNIT)],
                            capture_output=True, text=True, timeout=120)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+) (\w+)", result.stdout)
    assert match, result.stdout + result.stderr
    score, rating = float(match[1]), match[2]
    assert score <= 4.0, f"exposure {score} {rating}"
    assert rating in ("SAFE", "OK")


def test_notify_and_watchdog(monkeypatch: pytest.MonkeyPatch) -> None:
    assert one("Type") == "notify"
    assert one("NotifyAccess") == "main"
    assert one("Restart") == "on-failure"
    watchdog_s = int(one("WatchdogSec").removesuffix("s"))
    # systemd passes WatchdogSec= as WATCHDOG_USEC; the main loop pings at half of it.
    monkeypatch.setenv("WATCHDOG_USEC", str(watchdog_s * 1_000_000))
    assert Notifier("").watchdog_s == watchdog_s / 2


def test_directories_match_the_daemon() -> None:
    assert one("StateDirectory") == "cobi-companion"          # $STATE_DIRECTORY for the battles
    assert Path("/etc", one("ConfigurationDirectory")) == SYSTEM_CONFIG.parent
    assert one("WorkingDirectory") == f"/run/{one('RuntimeDirectory')}"  # lgpio's FIFOs
    assert "GPIOZERO_PIN_FACTORY=lgpio" in settings()["Environment"]
    assert one("ExecStart").split()[1:] == ["run"]


def test_installer_puts_the_executable_where_the_unit_runs_it() -> None:
    script = (REPO / "systemd" / "install.sh").read_text()
    prefix = re.search(r"^readonly PREFIX=(\S+)$", script, re.M)
    venv = re.search(r"^readonly VENV=\$PREFIX(\S+)$", script, re.M)
    assert prefix and venv
    assert exec_start() == Path(prefix[1] + venv[1]) / "bin" / "cobi-companion"


def test_hardware_stays_reachable() -> None:
    allowed = {value.split()[0] for value in settings()["DeviceAllow"]}
    assert {"char-gpiochip", "char-i2c", "char-ttyS", "char-ttyAMA", "char-ttyUSB",
            "char-ttyACM"} <= allowed
    assert one("DevicePolicy") == "closed"
    assert one("SupplementaryGroups").split() == ["gpio", "i2c", "dialout"]
    # PrivateDevices= would hide /dev/gpiochip*, /dev/i2c-* and the serial ports; ProcSubset=pid
    # would hide /proc/device-tree and /proc/cpuinfo, where gpiozero reads the board revision.
    assert settings().get("PrivateDevices", ["no"]) == ["no"]
    assert settings().get("ProcSubset", ["all"]) == ["all"]
