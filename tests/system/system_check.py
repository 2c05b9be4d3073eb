"""The system test: the box installed by systemd/install.sh on a booted Debian 12 under a real
systemd, in QEMU, and watched as systemd runs it.

    sudo python3 run.py system-test

Builds (once; cached in ~/.cache/cobi-companion/system/) a Debian 12 amd64 image with
debootstrap, boots it with its own kernel on a serial console without network (KVM if it
works, else TCG), installs the committed tree (`git archive HEAD`, what a fresh clone has) with
the real install.sh from wheels fetched on the host, and proves, one line each: READY=1 and the
watchdog's pings; a SIGSTOP and a SIGKILL restart the box with its battle; a reboot brings it
back; every journal line has a priority; a USB stick labelled COBI is mounted read only and
its settings used, and unplugging it brings the old ones back; Power off in the box's menu
powers the guest off through the polkit rule, and nothing else is allowed to the user cobi;
uninstall.sh --purge leaves nothing of the box. The box is played through its test input
(`[test]` in its settings file: keys into a FIFO, each frame as text).

Standard library only (not collected by pytest: no test_ name). Needs root, debootstrap,
qemu-system-x86_64, mkfs.ext4, mkfs.vfat, mcopy and git; the first run fetches Debian's
packages and the wheels from PyPI.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
AGENT_SOURCE = Path(__file__).with_name("guest_agent.py")
SUITE, MIRROR = "bookworm", "http://deb.debian.org/debian"
# The image: a booted Debian with logind (polkitd asks it), udev (the stick), a kernel and its
# initrd, and the apt packages install.sh asks for (all but python3-lgpio, which Debian has
# not), so that its apt-get install finds them installed with no network. sqlite3: the test
# reads the saved battle.
PACKAGES = ("systemd", "systemd-sysv", "libpam-systemd", "udev", "dbus", "linux-image-amd64",
            "polkitd", "python3-venv", "dosfstools", "python3-gpiozero", "python3-smbus2",
            "i2c-tools", "python3-pil", "alsa-utils", "kmod", "sqlite3", "procps",
            "python3-cbor2")
BASE_VERSION = "1"          # the image's own settings below; a change makes a new base.img
UNIT = "cobi-companion.service"
RUN_DIR = Path("/run/cobi-companion")
KEYS, SCREEN = RUN_DIR / "keys", RUN_DIR / "screen.txt"
DB = Path("/var/lib/cobi-companion/battles.db")
SRC_IN_GUEST = "/root/cobi-companion"
PAYLOAD = "/mnt/payload"
# The box's settings file, as a tester would write it before the install (install.sh never
# overwrites it): no panel, no GPIO, the test input, and a screen that never dims or goes dark.
BOX_CONFIG = f"""\
[display]
driver = "dummy"
dim_after_min = 0
off_after_min = 0

[game]
language = "en"

[pins]
factory = "mock"

[test]
keys_fifo = "{KEYS}"
screen_file = "{SCREEN}"
"""
STICK_CONFIG = '[game]\nlanguage = "pl"\n'
RELOADED = {"en": "Settings read again", "pl": "Ustawienia wczytane"}
AGENT_UNIT = """\
[Unit]
Description=The system test's agent (commands from the host over virtio-serial)

[Service]
ExecStart=/usr/bin/python3 /usr/local/sbin/cobi-test-agent
Restart=always
RestartSec=1

[Install]
WantedBy=multi-user.target
"""


def cache_dir() -> Path:
    given = os.environ.get("COBI_SYSTEM_CACHE")
    return Path(given) if given else Path.home() / ".cache" / "cobi-companion" / "system"


def say(text: str) -> None:
    print(text, flush=True)


def run(*args: str | Path, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], check=True, text=True, **kwargs)


class StepFailed(Exception):
    """A step's check did not hold: its message says what was seen."""


# ---- the image -------------------------------------------------------------------------------


def digest(*parts: str | bytes) -> str:
    hashed = hashlib.sha256()
    for part in parts:
        hashed.update(part.encode() if isinstance(part, str) else part)
        hashed.update(b"\0")
    return hashed.hexdigest()[:16]


def rootfs(cache: Path) -> Path:
    """Debian 12 by debootstrap, kept while the package list is the same (a few minutes)."""
    root, stamp = cache / "rootfs", cache / "rootfs.stamp"
    wanted = digest(SUITE, MIRROR, *PACKAGES)
    if root.is_dir() and stamp.exists() and stamp.read_text() == wanted:
        return root
    partial = cache / "rootfs.partial"
    shutil.rmtree(root, ignore_errors=True)
    shutil.rmtree(partial, ignore_errors=True)
    say(f"building Debian 12 with debootstrap into {root} (a few minutes, once)")
    started = time.monotonic()
    run("debootstrap", "--variant=minbase", "--arch=amd64", f"--include={','.join(PACKAGES)}",
        SUITE, partial, MIRROR, stdout=subprocess.DEVNULL)
    partial.rename(root)
    stamp.write_text(wanted)
    say(f"  debootstrap: {time.monotonic() - started:.0f} s")
    return root


def configure_base(root: Path) -> None:
    """The test machine's own settings (not the box's): no network and so no package sources,
    pip from the wheels on the payload disk, a persistent journal, the agent."""
    (root / "etc/hostname").write_text("cobi-test\n")
    (root / "etc/hosts").write_text("127.0.0.1 localhost\n127.0.1.1 cobi-test\n")
    (root / "etc/fstab").write_text(
        "/dev/vda / ext4 rw,errors=remount-ro 0 1\n"
        f"LABEL=cobipayload {PAYLOAD} ext4 ro,nofail 0 0\n")
    (root / PAYLOAD.lstrip("/")).mkdir(parents=True, exist_ok=True)
    (root / "etc/machine-id").write_text(secrets.token_hex(16) + "\n")
    # Offline: apt has no sources (every package install.sh asks for is installed), pip takes
    # the wheels fetched on the host.
    (root / "etc/apt/sources.list").write_text(
        "# The system test's guest has no network: every package it needs is installed.\n")
    (root / "etc/pip.conf").write_text(
        f"[global]\nno-index = true\nfind-links = {PAYLOAD}/wheels\n")
    (root / "var/log/journal").mkdir(exist_ok=True)
    for deb in (root / "var/cache/apt/archives").glob("*.deb"):
        deb.unlink()
    agent = root / "usr/local/sbin/cobi-test-agent"
    agent.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(AGENT_SOURCE, agent)
    agent.chmod(0o755)
    (root / "etc/systemd/system/cobi-test-agent.service").write_text(AGENT_UNIT)
    wants = root / "etc/systemd/system/multi-user.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    link = wants / "cobi-test-agent.service"
    if not link.is_symlink():
        link.symlink_to("/etc/systemd/system/cobi-test-agent.service")


def make_ext4(image: Path, label: str, tree: Path, mib: int) -> None:
    """An ext4 disk image of `tree` (owners and modes kept), sparse, `mib` MiB."""
    image.unlink(missing_ok=True)
    with image.open("wb") as file:
        file.truncate(mib * 1024 * 1024)
    run("mkfs.ext4", "-q", "-L", label, "-d", tree, image)


def base_image(cache: Path) -> tuple[Path, Path, Path]:
    """The disk (ext4 made by mkfs.ext4 -d), and the image's own kernel and initrd."""
    root = rootfs(cache)
    image, stamp = cache / "base.img", cache / "base.stamp"
    wanted = digest((cache / "rootfs.stamp").read_text(), BASE_VERSION,
                    AGENT_SOURCE.read_bytes(), AGENT_UNIT)
    kernels = sorted((root / "boot").glob("vmlinuz-*"))
    initrds = sorted((root / "boot").glob("initrd.img-*"))
    if not kernels or not initrds:
        raise StepFailed(f"no kernel or initrd in {root}/boot")
    if not (image.exists() and stamp.exists() and stamp.read_text() == wanted):
        configure_base(root)
        make_ext4(image, "cobiroot", root, 4096)
        stamp.write_text(wanted)
    return image, kernels[-1], initrds[-1]


def project_deps(src: Path) -> list[str]:
    project = tomllib.loads((src / "pyproject.toml").read_text(encoding="utf-8"))
    build = project.get("build-system", {}).get("requires", [])
    return [*project["project"]["dependencies"], *build, "wheel"]


def wheels(cache: Path, src: Path) -> Path:
    """The project's wheels for the guest (CPython 3.11, x86_64, glibc 2.36), from PyPI."""
    folder = cache / "wheels"
    folder.mkdir(parents=True, exist_ok=True)
    pip_venv = cache / "pip-venv"
    if not (pip_venv / "bin" / "pip").exists():
        run(sys.executable, "-m", "venv", pip_venv)
    platforms = ["manylinux2014_x86_64", *(f"manylinux_2_{n}_x86_64" for n in range(17, 37)),
                 "linux_x86_64"]
    args: list[str] = ["download", "-qq", "--disable-pip-version-check",
                       "--only-binary=:all:", "--python-version", "3.11",
                       "--implementation", "cp", "-d", str(folder)]
    for platform in platforms:
        args += ["--platform", platform]
    constraints = src / "constraints.txt"
    if constraints.exists():
        args += ["-c", str(constraints)]
    run(pip_venv / "bin" / "pip", *args, *project_deps(src))
    return folder


def payload(work: Path, cache: Path) -> tuple[Path, str]:
    """A second disk: the committed tree (git archive HEAD) and the wheels."""
    tree = work / "payload"
    shutil.rmtree(tree, ignore_errors=True)
    (tree / "src").mkdir(parents=True)
    commit = run("git", "-C", REPO, "rev-parse", "--short", "HEAD",
                 capture_output=True).stdout.strip()
    archive = subprocess.Popen(["git", "-C", str(REPO), "archive", "HEAD"],
                               stdout=subprocess.PIPE)
    run("tar", "-x", "-C", tree / "src", stdin=archive.stdout)
    if archive.wait() != 0:
        raise StepFailed("git archive HEAD failed")
    shutil.copytree(wheels(cache, tree / "src"), tree / "wheels")
    image = work / "payload.img"
    make_ext4(image, "cobipayload", tree, 1024)
    return image, commit


def stick_image(work: Path) -> Path:
    """A FAT stick labelled COBI whose config.toml makes the box speak Polish."""
    image = work / "stick.img"
    image.unlink(missing_ok=True)
    with image.open("wb") as file:
        file.truncate(32 * 1024 * 1024)
    run("mkfs.vfat", "-n", "COBI", image, stdout=subprocess.DEVNULL)
    config = work / "stick-config.toml"
    config.write_text(STICK_CONFIG)
    run("mcopy", "-i", image, config, "::/config.toml")
    return image


# ---- QEMU ------------------------------------------------------------------------------------


def kvm_works(kernel: Path) -> tuple[bool, str]:
    """A short boot of the kernel alone under KVM: it must reach its panic (no root) at once.
    Where KVM is listed but its guests hang, nothing comes out."""
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return False, "no /dev/kvm"
    command = ["qemu-system-x86_64", "-accel", "kvm", "-m", "256", "-kernel", str(kernel),
               "-append", "console=ttyS0 panic=-1", "-no-reboot", "-display", "none",
               "-serial", "stdio", "-nic", "none"]
    try:
        done = subprocess.run(command, capture_output=True, timeout=15, check=False)
    except subprocess.TimeoutExpired:
        return False, "a KVM guest printed nothing in 15 s (it hangs)"
    if b"Kernel panic" in done.stdout:
        return True, "a KVM guest booted its kernel"
    return False, f"a KVM guest ended without booting (exit {done.returncode})"


class Lines:
    """A unix socket read as lines of JSON."""

    def __init__(self, path: Path, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(str(path))
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > end:
                    raise
                time.sleep(0.2)
        self.pending = b""

    def send(self, message: dict[str, Any]) -> None:
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def read(self, timeout: float) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("nothing came")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                raise ConnectionError("the socket closed")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        message: dict[str, Any] = json.loads(line)
        return message


@dataclass
class Guest:
    """One QEMU run of the disk, with the agent's and QMP's sockets."""

    work: Path
    disk: Path
    payload: Path
    kernel: Path
    initrd: Path
    accel: str
    name: str
    process: subprocess.Popen[bytes] | None = None
    agent: Lines | None = None
    qmp: Lines | None = None
    boot_id: str = ""
    next_id: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)

    def start(self) -> None:
        agent_sock, qmp_sock = self.work / "agent.sock", self.work / "qmp.sock"
        for sock in (agent_sock, qmp_sock):
            sock.unlink(missing_ok=True)
        accel = "tcg,thread=multi" if self.accel == "tcg" else "kvm"
        command = [
            "qemu-system-x86_64", "-accel", accel, "-smp", "2", "-m", "2048",
            "-kernel", str(self.kernel), "-initrd", str(self.initrd),
            "-append", "root=/dev/vda rw console=ttyS0 panic=-1",
            "-drive", f"file={self.disk},format=raw,if=virtio",
            "-drive", f"file={self.payload},format=raw,if=virtio,readonly=on",
            "-device", "qemu-xhci,id=xhci",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=agent,path={agent_sock},server=on,wait=off",
            "-device", "virtserialport,chardev=agent,name=cobi.agent",
            "-qmp", f"unix:{qmp_sock},server=on,wait=off",
            "-serial", f"file:{self.work / (self.name + '-console.log')}",
            "-display", "none", "-nic", "none", "-monitor", "none"]
        with (self.work / (self.name + "-qemu.log")).open("wb") as log:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log,
                                            stderr=subprocess.STDOUT)
        self.agent = Lines(agent_sock)
        self.qmp = Lines(qmp_sock)
        self.qmp.read(30)                                     # the greeting
        self.qmp_do("qmp_capabilities")

    def wait_hello(self, timeout: float = 600) -> float:
        """Until the agent of a new boot says hello; the seconds it took."""
        assert self.agent is not None
        started = time.monotonic()
        while True:
            left = timeout - (time.monotonic() - started)
            message = self.agent.read(max(left, 0.1))
            if "hello" in message and message["hello"] != self.boot_id:
                self.boot_id = str(message["hello"])
                return time.monotonic() - started

    def sh(self, command: str, timeout: float = 120) -> tuple[int, str]:
        assert self.agent is not None
        self.next_id += 1
        self.agent.send({"id": self.next_id, "cmd": command, "timeout": timeout})
        while True:
            message = self.agent.read(timeout + 30)
            if message.get("id") == self.next_id:
                return int(message["rc"]), str(message["out"])

    def ok(self, command: str, timeout: float = 120) -> str:
        rc, out = self.sh(command, timeout)
        if rc != 0:
            raise StepFailed(f"`{command}` ended with {rc}: {out.strip()[-2000:]}")
        return out

    def qmp_do(self, command: str, **arguments: Any) -> Any:
        assert self.qmp is not None
        self.qmp.send({"execute": command, **({"arguments": arguments} if arguments else {})})
        while True:
            message = self.qmp.read(60)
            if "event" in message:
                self.events.append(message)
            elif "error" in message:
                raise StepFailed(f"QMP {command}: {message['error']}")
            elif "return" in message:
                return message["return"]

    def qmp_event(self, name: str, timeout: float) -> dict[str, Any]:
        assert self.qmp is not None
        end = time.monotonic() + timeout
        while True:
            for event in self.events:
                if event["event"] == name:
                    self.events.remove(event)
                    return event
            self.events.append(self.qmp.read(max(end - time.monotonic(), 0.1)))

    def wait_exit(self, timeout: float) -> int:
        assert self.process is not None
        return self.process.wait(timeout)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


# ---- the box, through its test input ---------------------------------------------------------


def poll(check: Callable[[], Any], timeout: float, what: str, step: float = 1.0) -> Any:
    """`check`'s first true answer within `timeout` s; else StepFailed naming `what`."""
    end = time.monotonic() + timeout
    while True:
        seen = check()
        if seen:
            return seen
        if time.monotonic() > end:
            raise StepFailed(f"{what}: not within {timeout:.0f} s")
        time.sleep(step)


class Box:
    """The installed box as the test sees it: its screen, its keys, its service, its battle."""

    def __init__(self, guest: Guest) -> None:
        self.guest = guest

    def screen(self) -> str:
        return self.guest.sh(f"cat {SCREEN} 2>/dev/null")[1]

    def press(self, *keys: str) -> None:
        # `timeout`: with no box reading the FIFO (restarting), the write would wait forever.
        line = " ".join(keys)
        self.guest.ok(f"timeout 20 sh -c 'printf \"%s\\n\" \"{line}\" > {KEYS}'", 60)

    def wait_screen(self, text: str, timeout: float = 60) -> str:
        found: str = poll(lambda: (lambda s: s if text in s else "")(self.screen()), timeout,
                          f"the screen showing {text!r} (last: {self.screen()!r})")
        return found

    def choose(self, item: str, timeout: float = 60) -> None:
        """Turn the knob to the menu's row starting with `item`, and press OK."""
        screen = self.wait_screen(item, timeout)
        rows = [line for line in screen.splitlines() if line[:2] in ("> ", "  ")
                and not line.startswith("  ▲") and not line.startswith("  ▼")]
        at = next(n for n, line in enumerate(rows) if line.startswith("> "))
        want = next(n for n, line in enumerate(rows) if line[2:].startswith(item))
        turn = "cw" if want > at else "ccw"
        self.press(*[turn] * abs(want - at), "ok")

    def show(self, prop: str) -> str:
        return self.guest.ok(f"systemctl show -p {prop} --value {UNIT}").strip()

    def main_pid(self) -> int:
        return int(self.show("MainPID") or 0)

    def active(self) -> bool:
        return self.guest.sh(f"systemctl is-active --quiet {UNIT}")[0] == 0

    def battle(self) -> dict[str, Any]:
        out = self.guest.ok(
            f"sqlite3 -json {DB} \"SELECT battle_id, state, (SELECT count(*) FROM rolls) "
            f"AS rolls FROM battle\"")
        rows: list[dict[str, Any]] = json.loads(out or "[]")
        if not rows:
            raise StepFailed(f"no battle saved in {DB}")
        return rows[0]

    def journal(self, args: str = "-b") -> list[dict[str, Any]]:
        out = self.guest.ok(f"journalctl -u {UNIT} {args} -o json --no-pager", 300)
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    def restarted(self, old_pid: int, timeout: float) -> int:
        def new_pid() -> int:
            pid = self.main_pid()
            return pid if pid not in (0, old_pid) and self.active() else 0
        pid: int = poll(new_pid, timeout, "a new main process, active")
        return pid

    def resumes(self, before: dict[str, Any]) -> str:
        """After a restart: the start menu offers Resume, the saved battle is the one before,
        and OK brings the battle back."""
        self.wait_screen("> Resume battle", 120)
        after = self.battle()
        if after != before:
            raise StepFailed(f"the saved battle changed: {before} -> {after}")
        self.press("ok")
        screen = poll(lambda: (lambda s: s if "Resume battle" not in s and " R" in
                               s.splitlines()[0] else "")(self.screen()), 60,
                      "the battle's screen after Resume")
        return f"battle {after['battle_id'][:8]} ({after['rolls']} rolls) resumed: " \
               f"{screen.splitlines()[0].strip()}"


# ---- the steps -------------------------------------------------------------------------------


@dataclass
class Report:
    passed: int = 0
    failed: list[str] = field(default_factory=list)
    on_fail: Callable[[str], None] | None = None     # what is kept to see why

    @contextmanager
    def step(self, name: str) -> Iterator[list[str]]:
        """A step: PASS with what it saw (the lines added to the list), or FAIL with why."""
        said: list[str] = []
        started = time.monotonic()
        try:
            yield said
        except (StepFailed, TimeoutError, ConnectionError, OSError,
                subprocess.SubprocessError) as exc:
            self.failed.append(name)
            say(f"FAIL {name}: {exc} ({time.monotonic() - started:.0f} s)")
            if self.on_fail is not None:
                self.on_fail(name)
            return
        self.passed += 1
        say(f"PASS {name}: {'; '.join(said)} ({time.monotonic() - started:.0f} s)")


def install(guest: Guest, said: list[str]) -> None:
    guest.ok(f"rm -rf {SRC_IN_GUEST} && cp -a {PAYLOAD}/src {SRC_IN_GUEST}")
    guest.ok("install -d -m 0755 /etc/cobi-companion && cat > /etc/cobi-companion/config.toml"
             f" <<'EOF'\n{BOX_CONFIG}EOF")
    rc, out = guest.sh(f"cd {SRC_IN_GUEST} && systemd/install.sh", 1800)
    (guest.work / "install.log").write_text(out)
    if rc != 0:
        raise StepFailed(f"install.sh ended with {rc}: {out.strip()[-3000:]}")
    mock = [line for line in out.splitlines() if "python3-lgpio" in line and "mock" in line]
    said.append(f"systemd/install.sh exit 0 ({len(out.splitlines())} lines, "
                f"{guest.work / 'install.log'})")
    said.extend(mock)


def ready(box: Box, said: list[str]) -> None:
    poll(box.active, 180, f"{UNIT} active")
    shown = {p: box.show(p) for p in ("Type", "NotifyAccess", "StatusText", "WatchdogUSec",
                                      "StatusErrno")}
    if shown["Type"] != "notify" or not shown["StatusText"].startswith("showing the first"):
        raise StepFailed(f"no READY=1 with its status: {shown}")
    first = int(box.show("WatchdogTimestampMonotonic"))
    later = poll(lambda: (lambda t: t if t > first else 0)(
        int(box.show("WatchdogTimestampMonotonic"))), 30, "a second watchdog ping")
    said.append(f"active (Type=notify: READY=1 received), NotifyAccess={shown['NotifyAccess']}, "
                f"StatusText={shown['StatusText']!r}, StatusErrno={shown['StatusErrno']}, "
                f"WatchdogUSec={shown['WatchdogUSec']}, watchdog pings at "
                f"{first / 1e6:.1f} s and {later / 1e6:.1f} s (monotonic)")


def start_battle(box: Box, said: list[str]) -> dict[str, Any]:
    box.choose("New battle")
    box.wait_screen("[ Armies ]")
    # Tiger (Axis) against Sherman (Allies), as tests/device/test_box.py's TIGER_VS_SHERMAN.
    box.press("cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok")
    for _ in range(5):             # a tie rolls again
        box.wait_screen("Who goes first?")
        box.press("axis", "allies")
        try:
            screen = box.wait_screen("Which vehicle?", 30)
            break
        except StepFailed:
            continue
    else:
        raise StepFailed(f"the initiative roll did not end: {box.screen()!r}")
    battle = box.battle()
    said.append(f"keys through the FIFO: New battle, Tiger v Sherman, initiative rolled; "
                f"screen {screen.splitlines()[0].strip()!r}; saved battle "
                f"{battle['battle_id'][:8]} with {battle['rolls']} rolls")
    return battle


def killed(box: Box, signal_name: str, said: list[str], battle: dict[str, Any]) -> None:
    pid = box.main_pid()
    restarts = int(box.show("NRestarts"))
    watchdog_lines = len([e for e in box.journal() if "Watchdog timeout" in str(e["MESSAGE"])])
    box.guest.ok(f"kill -{signal_name} {pid}")
    new = box.restarted(pid, 240)
    if int(box.show("NRestarts")) != restarts + 1:
        raise StepFailed(f"NRestarts {restarts} -> {box.show('NRestarts')}")
    if signal_name == "STOP":
        timeouts = [str(e["MESSAGE"]) for e in box.journal()
                    if "Watchdog timeout" in str(e["MESSAGE"])]
        if len(timeouts) <= watchdog_lines:
            raise StepFailed("no 'Watchdog timeout' from systemd in the journal")
        said.append(f"systemd: {timeouts[-1]!r}")
    said.append(f"main process {pid} -> {new} (NRestarts {restarts + 1})")
    said.append(box.resumes(battle))


def usb_stick(guest: Guest, box: Box, stick: Path, said: list[str]) -> None:
    if guest.sh("findmnt /media/cobi")[0] == 0:
        raise StepFailed("/media/cobi is mounted before the stick is in")
    guest.qmp_do("blockdev-add", **{"node-name": "stick", "driver": "raw",
                                    "file": {"driver": "file", "filename": str(stick)}})
    guest.qmp_do("device_add", driver="usb-storage", id="cobistick", drive="stick",
                 bus="xhci.0", removable=True)
    mount = poll(lambda: guest.sh("findmnt -n -o SOURCE,FSTYPE,OPTIONS /media/cobi")[1].strip(),
                 120, "the stick mounted at /media/cobi")
    if "vfat" not in mount or not mount.split()[2].startswith("ro,"):
        raise StepFailed(f"not a read-only FAT mount: {mount}")
    said.append(f"media-cobi.mount: {mount.split()[0]} vfat {mount.split()[2].split(',')[0]}")
    box.wait_screen(RELOADED["pl"], 120)
    read = [str(e["MESSAGE"]) for e in box.journal() if "settings read again" in
            str(e["MESSAGE"])]
    if not read or "/media/cobi/config.toml" not in read[-1]:
        raise StepFailed(f"the box did not read the stick's file: {read[-1:]}")
    said.append(f"box: {read[-1]!r}, screen {RELOADED['pl']!r} (language pl from the stick)")
    box.press("ok")
    guest.qmp_do("device_del", id="cobistick")
    guest.qmp_event("DEVICE_DELETED", 60)
    guest.qmp_do("blockdev-del", **{"node-name": "stick"})
    poll(lambda: guest.sh("findmnt /media/cobi")[0] != 0, 120, "/media/cobi unmounted")
    box.wait_screen(RELOADED["en"], 120)
    read = [str(e["MESSAGE"]) for e in box.journal() if "settings read again" in
            str(e["MESSAGE"])]
    if "/media/cobi" in read[-1]:
        raise StepFailed(f"the stick's file still read: {read[-1]!r}")
    said.append(f"unplugged: unmounted, box: {read[-1]!r}, screen {RELOADED['en']!r} (en)")
    box.press("ok")


def boot_times(box: Box) -> tuple[float, float]:
    """Seconds from the kernel's start to the box's first frame and to READY=1: the journal's
    and systemd's monotonic clocks count from the kernel's start."""
    first = [e for e in box.journal() if str(e["MESSAGE"]).startswith("first frame")]
    if not first:
        raise StepFailed("no 'first frame' line in this boot's journal")
    ready = int(box.show("ActiveEnterTimestampMonotonic"))
    return int(first[0]["__MONOTONIC_TIMESTAMP"]) / 1e6, ready / 1e6


def reboot(guest: Guest, box: Box, said: list[str], battle: dict[str, Any]) -> tuple[float,
                                                                                     float]:
    guest.ok("systemctl --no-block reboot")
    took = guest.wait_hello(900)
    poll(box.active, 300, f"{UNIT} active after the reboot")
    said.append(f"guest back in {took:.0f} s, enabled unit started at boot")
    said.append(box.resumes(battle))
    return boot_times(box)


def priorities(box: Box, said: list[str]) -> None:
    # A garbage line on the test input: refused with a warning, the box goes on.
    box.press("hello", "world")
    poll(lambda: [e for e in box.journal() if str(e["MESSAGE"]).startswith(
        "test keys: 'hello'")], 60, "the refused test line in the journal")
    entries = box.journal("")            # every boot
    mine = [e for e in entries if e.get("_SYSTEMD_UNIT") == UNIT]
    missing = [e.get("MESSAGE") for e in entries if not str(e.get("PRIORITY", "")).isdigit()
               or not 0 <= int(e["PRIORITY"]) <= 7]
    if missing:
        raise StepFailed(f"{len(missing)} lines without a priority: {missing[:3]}")
    wrong = []
    for entry in mine:
        message, level = str(entry.get("MESSAGE", "")), int(entry["PRIORITY"])
        if re.match(r"<\d>", message):
            wrong.append(f"prefix left in the text: {message!r}")
        if message.startswith(("first frame", "settings read again")) and level != 6:
            wrong.append(f"info at {level}: {message!r}")
        if message.startswith("test keys: 'hello' is not a key") and level != 4:
            wrong.append(f"warning at {level}: {message!r}")
        if ("Traceback" in message or message.startswith("Error")) and level > 3:
            wrong.append(f"error at {level}: {message!r}")
    if not any(str(e.get("MESSAGE", "")).startswith("test keys: 'hello'") for e in mine):
        wrong.append("the refused test line was not logged")
    if wrong:
        raise StepFailed("; ".join(wrong[:5]))
    counts: dict[int, int] = {}
    for entry in entries:
        counts[int(entry["PRIORITY"])] = counts.get(int(entry["PRIORITY"]), 0) + 1
    said.append(f"{len(entries)} lines of {UNIT} over {len({e['_BOOT_ID'] for e in entries})} "
                f"boots, each with PRIORITY (by priority: "
                f"{', '.join(f'{p}: {n}' for p, n in sorted(counts.items()))}); the box's own "
                f"{len(mine)}: infos at 6, the refused test line a warning (4), no <N> left")


def pkcheck(guest: Guest, said: list[str]) -> None:
    # As the box asks: a process of a service of cobi's, with no login session (runuser
    # would open one through PAM, and an active session is allowed more). A script: systemd
    # would take the $ of a command line given to systemd-run for its own.
    guest.ok("cat > /run/cobi-pkcheck.sh <<'EOF'\n"
             'pkcheck --action-id "$1" --process $$ >/dev/null 2>&1\necho "rc=$?"\nEOF\n'
             "chmod 0755 /run/cobi-pkcheck.sh")

    def check(action: str) -> int:
        out = guest.ok(f"systemd-run --quiet --wait --pipe --collect -p User=cobi "
                       f"/bin/sh /run/cobi-pkcheck.sh {action}")
        found = re.search(r"rc=(\d+)", out)
        if found is None:
            raise StepFailed(f"pkcheck {action}: {out.strip()}")
        return int(found.group(1))
    allowed = check("org.freedesktop.login1.power-off")
    # logind's own policy makes power-off (and reboot) imply set-wall-message: allowed with it.
    implied = check("org.freedesktop.login1.set-wall-message")
    others = {action: check(action) for action in (
        "org.freedesktop.login1.halt", "org.freedesktop.login1.suspend",
        "org.freedesktop.login1.chvt", "org.freedesktop.login1.set-user-linger",
        "org.freedesktop.systemd1.manage-units")}
    if allowed != 0 or implied != 0 or any(rc == 0 for rc in others.values()):
        raise StepFailed(f"pkcheck as cobi: power-off {allowed}, set-wall-message {implied}, "
                         f"others {others}")
    said.append(f"pkcheck as cobi, from a service: org.freedesktop.login1.power-off allowed (0) "
                f"and the set-wall-message it implies (0); refused: "
                f"{', '.join(f'{a} ({rc})' for a, rc in others.items())}")


def power_off(guest: Guest, box: Box, said: list[str]) -> None:
    box.press("back")               # a long press in the battle: the menu
    box.wait_screen("[ Menu ]")
    box.choose("Settings")
    box.choose("Power off")
    box.wait_screen("Power off the box?")
    box.choose("yes")
    code = guest.wait_exit(300)
    if code != 0:
        raise StepFailed(f"QEMU ended with {code}")
    said.append("Settings > Power off > yes through the FIFO: the guest powered off, QEMU "
                "exited 0")


def power_off_journal(guest: Guest, said: list[str]) -> None:
    box_said = guest.ok(f"journalctl -b -1 -u {UNIT} -o cat --no-pager")
    logind = guest.ok("journalctl -b -1 -u systemd-logind -o cat --no-pager")
    if "poweroff requested from the settings menu" not in box_said:
        raise StepFailed("no 'poweroff requested from the settings menu' in the last boot")
    if "System is powering down" not in logind:
        raise StepFailed(f"logind did not power down: {logind.strip()[-500:]}")
    said.append("last boot's journal: box 'poweroff requested from the settings menu', "
                "systemd-logind 'System is powering down.'")


# What of the box is looked for after uninstall.sh --purge.
LEFT_PATHS = ("/opt/cobi-companion", "/usr/local/bin/cobi-companion", "/etc/cobi-companion",
              "/var/lib/cobi-companion", "/var/cache/cobi-companion", "/run/cobi-companion",
              "/boot/firmware/cobi", "/media/cobi",
              "/etc/systemd/system/cobi-companion.service",
              "/etc/systemd/system/media-cobi.mount",
              "/etc/systemd/system/cobi-companion-usb.service",
              "/etc/polkit-1/rules.d/50-cobi-companion.rules",
              "/etc/modules-load.d/cobi-companion.conf", "/var/lib/systemd/linger/cobi")


def purge(guest: Guest, said: list[str]) -> None:
    out = guest.ok(f"cd {SRC_IN_GUEST} && systemd/uninstall.sh --purge", 600)
    (guest.work / "uninstall.log").write_text(out)
    left = [p for p in LEFT_PATHS if guest.sh(f"test -e {p} -o -L {p}")[0] == 0]
    links = guest.sh("find /etc/systemd /usr/local -name '*cobi-companion*' -o "
                     "-name 'media-cobi*'")[1].split()
    users = [f"{db} {name}" for db in ("passwd", "group") for name in ("cobi",)
             if guest.sh(f"getent {db} {name}")[0] == 0]
    units = guest.sh("systemctl list-unit-files --no-legend 'cobi-companion*' 'media-cobi*'; "
                     "systemctl list-units --all --no-legend 'cobi-companion*' "
                     "'media-cobi*'")[1].split("\n")
    units = [line for line in units if line.strip()]
    others = guest.sh("find / -xdev \\( -path /root/cobi-companion -o -path /proc -o "
                      f"-path {PAYLOAD} -o -path /var/log/journal -o -path "
                      "/usr/local/sbin/cobi-test-agent -o -path "
                      "'/etc/systemd/system/*cobi-test-agent*' \\) -prune -o "
                      "\\( -iname '*cobi*' -print \\)")[1].split()
    said.append(f"checked: {', '.join(LEFT_PATHS)}; units cobi-companion*, media-cobi*; user "
                f"and group cobi; every other file named *cobi* outside the clone")
    left_over = [*left, *links, *users, *units, *(p for p in others if p not in left)]
    if left_over:
        raise StepFailed(f"left after --purge: {', '.join(dict.fromkeys(left_over))}")


# ---- the run ---------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true",
                        help="keep the run's disks and logs (always kept on a failure)")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        say("system-test: needs root (debootstrap, mkfs -d with owners): sudo python3 run.py "
            "system-test")
        return 2
    tools = ("debootstrap", "qemu-system-x86_64", "mkfs.ext4", "mkfs.vfat", "mcopy", "git")
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        say(f"system-test: missing {', '.join(missing)} (apt install debootstrap "
            "qemu-system-x86 e2fsprogs dosfstools mtools git)")
        return 2
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="run-", dir=cache))
    started = time.monotonic()
    base, kernel, initrd = base_image(cache)
    payload_img, commit = payload(work, cache)
    stick = stick_image(work)
    disk = work / "disk.img"
    run("cp", "--sparse=always", base, disk)
    works, why = kvm_works(kernel)
    accel = "kvm" if works else "tcg"
    say(f"system test of commit {commit} on Debian 12 amd64 ({kernel.name}); accel {accel}: "
        f"{why}; prepared in {time.monotonic() - started:.0f} s; work folder {work}")
    report = Report()
    times: tuple[float, float] | None = None
    guest = Guest(work, disk, payload_img, kernel, initrd, accel, "boot1")
    box = Box(guest)
    second = Guest(work, disk, payload_img, kernel, initrd, accel, "boot2")

    def keep_journal(step: str) -> None:
        """The running boot's whole journal, and the screen, beside the run's disks."""
        running = [g for g in (guest, second) if g.process is not None and
                   g.process.poll() is None]
        if not running:
            return
        try:
            journal = running[-1].sh("journalctl -b --no-pager -o short-monotonic", 300)[1]
            screen = running[-1].sh(f"cat {SCREEN} 2>/dev/null")[1]
        except (OSError, TimeoutError, ConnectionError):
            return
        kept = work / f"{step}-journal.txt"
        kept.write_text(f"{journal}\n--- the screen ---\n{screen}")
        say(f"     this boot's journal and the screen: {kept}")
    report.on_fail = keep_journal
    try:
        guest.start()
        say(f"guest up in {guest.wait_hello():.0f} s (the agent answers)")
        with report.step("install") as said:
            install(guest, said)
        if report.failed:
            return 1
        with report.step("ready") as said:
            ready(box, said)
        # Before the battle: New battle saves every setting on the box (the armies are
        # remembered with the rest), and saved settings are kept over the files' ones.
        with report.step("usb-stick") as said:
            usb_stick(guest, box, stick, said)
        battle: dict[str, Any] = {}
        with report.step("battle") as said:
            battle = start_battle(box, said)
        with report.step("sigstop-watchdog") as said:
            killed(box, "STOP", said, battle)
        with report.step("sigkill") as said:
            killed(box, "KILL", said, battle)
        with report.step("reboot") as said:
            times = reboot(guest, box, said, battle)
        with report.step("journal-priorities") as said:
            priorities(box, said)
        with report.step("pkcheck") as said:
            pkcheck(guest, said)
        with report.step("power-off") as said:
            power_off(guest, box, said)
    finally:
        guest.stop()
    try:
        second.start()
        second.wait_hello()
        with report.step("power-off-journal") as said:
            power_off_journal(second, said)
        with report.step("uninstall-purge") as said:
            purge(second, said)
        second.sh("systemctl --no-block poweroff")
        second.wait_exit(300)
    finally:
        second.stop()
    if times is not None:
        say(f"time from the guest's kernel start to the box's first frame: {times[0]:.1f} s; "
            f"to READY=1: {times[1]:.1f} s (emulated with {accel}: a figure for comparing "
            "changes, not a Pi's)")
    say(f"system test: {report.passed} passed, {len(report.failed)} failed"
        f"{' (' + ', '.join(report.failed) + ')' if report.failed else ''}; "
        f"{time.monotonic() - started:.0f} s in all")
    if not report.failed and not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
