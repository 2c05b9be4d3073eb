"""systemd/cobi-companion.service and the USB settings stick's units: systemd-analyze accepts
them without a word, the service's hardening scores OK or better, and they agree with the daemon
and the installer."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from cobi_companion.device.boot import SYSTEM_CONFIG
from cobi_companion.device.ports.notify import Notifier

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "cobi-companion.service"
MOUNT = REPO / "systemd" / "media-cobi.mount"
USB = REPO / "systemd" / "cobi-companion-usb.service"
BACK_OFF = REPO / "systemd" / "restart-back-off.conf"
UNITS = (UNIT, MOUNT, USB)
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
# The host's own units: verify loads the targets the service is ordered against.
SYSTEM_UNITS = next((p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system"))
                     if (p / "multi-user.target").exists()), None)


def settings(unit: Path = UNIT) -> dict[str, list[str]]:
    """Every Key=Value of the unit, values in order (keys may repeat)."""
    found: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def one(key: str, unit: Path = UNIT) -> str:
    values = settings(unit)[key]
    assert len(values) == 1, f"{key} is set {len(values)} times"
    return values[0]


def exec_start() -> Path:
    return Path(one("ExecStart").split()[0])


def programs() -> set[Path]:
    """Every program the units run (ExecStart=, ExecReload=, ExecStop=)."""
    return {Path(value.split()[0]) for unit in UNITS
            for key, values in settings(unit).items() if key.startswith("Exec")
            for value in values}


def fake_root(tmp_path: Path, with_executable: bool = True) -> Path:
    """A root holding the host's units, the units as installed and, in place of the venv's
    console script (and of kill and systemctl), executable stubs at the programs' paths."""
    assert SYSTEM_UNITS is not None
    root = tmp_path / "root"
    shutil.copytree(SYSTEM_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    for unit in UNITS:
        shutil.copy(unit, root / "etc/systemd/system" / unit.name)
    for program in programs():
        if program == exec_start() and not with_executable:
            continue
        stub = root / program.relative_to("/")
        stub.parent.mkdir(parents=True, exist_ok=True)
        stub.write_text("#!/bin/sh\nexit 0\n")
        stub.chmod(0o755)
    return root


def verify(root: Path, unit: Path = UNIT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ANALYZE), "verify", f"--root={root}", unit.name],
                          capture_output=True, text=True, timeout=120)


@needs_analyze
@pytest.mark.skipif(SYSTEM_UNITS is None, reason="no systemd unit folder on this machine")
@pytest.mark.parametrize("unit", UNITS, ids=[unit.name for unit in UNITS])
def test_verify_prints_nothing(tmp_path: Path, unit: Path) -> None:
    result = verify(fake_root(tmp_path), unit)
    assert (result.stdout + result.stderr) == "", result.stdout + result.stderr
    assert result.returncode == 0


@needs_analyze
@pytest.mark.skipif(SYSTEM_UNITS is None, reason="no systemd unit folder on this machine")
def test_verify_checks_the_executable(tmp_path: Path) -> None:
    # The same check without the ExecStart file complains: verify did read this unit.
    result = verify(fake_root(tmp_path, with_executable=False))
    assert result.returncode != 0
    assert f"{exec_start()} is not executable" in result.stdout + result.stderr


def exposure(unit: Path) -> tuple[float, str]:
    """systemd-analyze security's overall exposure of the unit, and its rating."""
    result = subprocess.run([str(ANALYZE), "security", "--offline=yes", str(unit)],
                            capture_output=True, text=True, timeout=120)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+) (\w+)", result.stdout)
    assert match, result.stdout + result.stderr
    return float(match[1]), match[2]


@needs_analyze
def test_security_exposure_is_safe() -> None:
    # Issue 36: reaching BlueZ for the smart dice may not loosen the sandbox (kept <= 1.0).
    score, rating = exposure(UNIT)
    assert score <= 1.0, f"exposure {score} {rating}"
    assert rating == "SAFE"


def test_bluez_over_the_system_bus_and_nothing_more_of_bluetooth() -> None:
    # bleak asks bluetoothd over D-Bus; Debian's bluetooth.conf lets group bluetooth talk to
    # org.bluez. The controller is bluetoothd's: no Bluetooth socket, device or capability here.
    assert "bluetooth" in one("SupplementaryGroups").split()
    assert one("RestrictAddressFamilies").split() == ["AF_UNIX"]
    assert one("CapabilityBoundingSet") == "" and one("AmbientCapabilities") == ""
    assert one("PrivateNetwork") == "yes"
    assert not any("bluetooth" in value or "hci" in value or "vhci" in value
                   for value in settings()["DeviceAllow"])
    # /run/dbus/system_bus_socket stays where bleak looks for it.
    for hidden in ("InaccessiblePaths", "TemporaryFileSystem", "BindPaths", "RootDirectory"):
        assert hidden not in settings()


@needs_analyze
def test_the_sticks_reload_unit_is_sandboxed() -> None:
    # It runs as root (PID 1's private socket is root's alone), so all the rest is shut.
    score, rating = exposure(USB)
    assert score <= 2.0, f"exposure {score} {rating}"
    assert rating == "SAFE"


@needs_analyze
def test_the_sticks_reload_unit_can_still_ask_for_the_reload() -> None:
    # systemctl sends one message to PID 1 over /run/systemd/private, an AF_UNIX path socket:
    # nothing may hide /run, nor refuse the socket or the calls systemctl makes on its way.
    assert one("RestrictAddressFamilies", USB).split() == ["AF_UNIX"]
    for hidden in ("InaccessiblePaths", "TemporaryFileSystem", "BindPaths", "RootDirectory",
                   "User", "DynamicUser"):
        assert hidden not in settings(USB)
    allowed: set[str] = set()
    for value in settings(USB)["SystemCallFilter"]:
        if value.startswith("~"):
            allowed -= syscall_set(value[1:].split())
        else:
            allowed |= syscall_set(value.split())
    assert set(SYSTEMCTL_POWEROFF_CALLS) - allowed == set()


def test_notify_and_watchdog(monkeypatch: pytest.MonkeyPatch) -> None:
    assert one("Type") == "notify"
    assert one("NotifyAccess") == "main"
    assert one("Restart") == "always"
    watchdog_s = int(one("WatchdogSec").removesuffix("s"))
    # systemd passes WatchdogSec= as WATCHDOG_USEC; the main loop pings at half of it.
    monkeypatch.setenv("WATCHDOG_USEC", str(watchdog_s * 1_000_000))
    assert Notifier("").watchdog_s == watchdog_s / 2


def test_directories_match_the_daemon() -> None:
    assert one("StateDirectory") == "cobi-companion"          # $STATE_DIRECTORY for the battles
    assert one("CacheDirectory") == "cobi-companion"          # $CACHE_DIRECTORY: the voice
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
            "char-ttyACM", "char-alsa"} <= allowed
    assert one("DevicePolicy") == "closed"
    assert one("SupplementaryGroups").split() == ["gpio", "i2c", "dialout", "audio",
                                                  "bluetooth"]
    # PrivateDevices= would hide /dev/gpiochip*, /dev/i2c-* and the serial ports; ProcSubset=pid
    # would hide /proc/device-tree and /proc/cpuinfo, where gpiozero reads the board revision.
    assert settings().get("PrivateDevices", ["no"]) == ["no"]
    assert settings().get("ProcSubset", ["all"]) == ["all"]


def test_restart_reload_and_stack_dumps() -> None:
    # Restart=on-failure would leave the box dark after a death by SIGHUP/SIGINT/SIGTERM/SIGPIPE.
    assert one("Restart") == "always"
    assert one("ExecReload") == "/bin/kill -HUP $MAINPID"
    environment = settings()["Environment"]
    assert "PYTHONFAULTHANDLER=1" in environment
    assert all(len(value.split()) == 1 for value in environment)   # one variable a line


def test_a_crash_loop_never_leaves_the_box_dark_for_good() -> None:
    # With a start limit, ten crashes in a row (a bad file on the stick) stopped the box until a
    # power cycle. 0: no limit, so systemd restarts it every RestartSec= for as long as it takes.
    assert one("StartLimitIntervalSec") == "0"
    assert "StartLimitAction" not in settings() and "FailureAction" not in settings()
    assert one("Restart") == "always"
    # Long enough that a box that cannot start costs the Pi little, short for a waiting child.
    assert 1 <= int(one("RestartSec").removesuffix("s")) <= 10


def test_the_restart_back_off_grows_to_a_minute() -> None:
    # install.sh adds it where systemd has RestartSteps= (254 or later; Debian 12 has 252).
    assert BACK_OFF.read_text().splitlines().count("[Service]") == 1
    assert set(settings(BACK_OFF)) == {"RestartSteps", "RestartMaxDelaySec"}
    steps = int(one("RestartSteps", BACK_OFF))
    longest = int(one("RestartMaxDelaySec", BACK_OFF).removesuffix("s"))
    assert 1 <= steps <= 10
    assert int(one("RestartSec").removesuffix("s")) < longest <= 120
    script = (REPO / "systemd" / "install.sh").read_text()
    assert re.search(r"^readonly BACK_OFF=\$UNIT_FILE\.d/restart-back-off\.conf$", script, re.M)
    assert re.search(r"^readonly BACK_OFF_SYSTEMD=254$", script, re.M)


# What `systemctl poweroff` calls as a user other than root, up to its D-Bus call to logind
# (strace on Debian 12, x86-64), and ppoll, with which sd-bus waits for the answer.
SYSTEMCTL_POWEROFF_CALLS = (
    "access", "arch_prctl", "brk", "close", "connect", "execve", "exit_group", "faccessat2",
    "futex", "geteuid", "getpid", "getrandom", "getsockname", "getsockopt", "gettid", "ioctl",
    "mmap", "mprotect", "munmap", "newfstatat", "openat", "ppoll", "prctl", "pread64", "prlimit64",
    "read", "recvmsg", "rseq", "rt_sigaction", "sendmsg", "set_robust_list", "set_tid_address",
    "setsockopt", "socket", "statfs", "writev",
)


def syscall_set(names: list[str]) -> set[str]:
    """The system calls of the groups (@name, expanded by systemd-analyze) and names."""
    found: set[str] = set()
    for name in names:
        if not name.startswith("@"):
            found.add(name)
            continue
        listing = subprocess.run([str(ANALYZE), "syscall-filter", name], capture_output=True,
                                 text=True, check=True, timeout=60).stdout.splitlines()[1:]
        found |= syscall_set([line.strip() for line in listing
                              if line.strip() and not line.strip().startswith("#")])
    return found


@needs_analyze
def test_power_off_is_not_blocked_by_the_sandbox() -> None:
    # systemctl asks logind over the system bus, a path socket (AF_UNIX); PID 1 powers off.
    assert "AF_UNIX" in one("RestrictAddressFamilies").split()
    assert one("NoNewPrivileges") == "yes"
    allowed: set[str] = set()
    for value in settings()["SystemCallFilter"]:
        if value.startswith("~"):
            allowed -= syscall_set(value[1:].split())
        else:
            allowed |= syscall_set(value.split())
    assert set(SYSTEMCTL_POWEROFF_CALLS) - allowed == set()
    assert "reboot" not in allowed            # nothing here reboots by itself
    for hidden in ("InaccessiblePaths", "TemporaryFileSystem", "BindPaths"):
        assert hidden not in settings()       # /run/dbus stays where systemctl looks


def test_the_stick_is_mounted_read_only_when_it_appears() -> None:
    where = one("Where", MOUNT)
    assert where == "/media/cobi"
    # systemd requires a mount unit to be named after its mount point (systemd-escape --path).
    assert MOUNT.name == where.strip("/").replace("-", "\\x2d").replace("/", "-") + ".mount"
    if shutil.which("systemd-escape"):
        escaped = subprocess.run(["systemd-escape", "--path", "--suffix=mount", where],
                                 capture_output=True, text=True, check=True).stdout.strip()
        assert escaped == MOUNT.name
    assert one("What", MOUNT) == "/dev/disk/by-label/COBI"
    assert one("Type", MOUNT) == "vfat"
    options = one("Options", MOUNT).split(",")
    assert {"ro", "nosuid", "nodev", "noexec", "nofail"} <= set(options)
    assert "fmask=0133" in options and "dmask=0022" in options        # readable by cobi
    device = "dev-disk-by\\x2dlabel-COBI.device"
    assert one("WantedBy", MOUNT) == device
    assert one("BindsTo", MOUNT) == device


def test_the_box_reloads_when_the_stick_comes_and_goes() -> None:
    reload = "/usr/bin/systemctl --no-block try-reload-or-restart cobi-companion.service"
    assert one("ExecStart", USB) == reload
    assert one("ExecStop", USB) == reload
    assert one("Type", USB) == "oneshot"
    assert one("RemainAfterExit", USB) == "yes"
    assert one("BindsTo", USB) == one("After", USB) == MOUNT.name
    assert one("Before", USB) == UNIT.name     # at a shutdown the box is stopped first
    assert one("WantedBy", USB) == MOUNT.name
    # The reload queued as the stick goes waits for the unmount: the box is ordered after it.
    assert MOUNT.name in one("After").split()
    assert "Requires" not in settings() and "BindsTo" not in settings()  # it runs without one
