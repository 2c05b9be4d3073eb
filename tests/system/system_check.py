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
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import smart_dice
from debian_image import PAYLOAD, base_image, payload, stick_image
from host import StepFailed, StepSkipped, cache_dir, poll, run, say
from qemu_guest import Guest, kvm_works
from smart_dice import KNOB

UNIT = "cobi-companion.service"
RUN_DIR = Path("/run/cobi-companion")
KEYS, SCREEN = RUN_DIR / "keys", RUN_DIR / "screen.txt"
DB = Path("/var/lib/cobi-companion/battles.db")
SRC_IN_GUEST = "/root/cobi-companion"
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
RELOADED = {"en": "Settings read again", "pl": "Ustawienia wczytane"}

# ---- the box, through its test input ---------------------------------------------------------


class Box:
    """The installed box as the test sees it: its screen, its keys, its service, its battle."""

    def __init__(self, guest: Guest) -> None:
        self.guest = guest
        self.knob = 0              # the knob's actions sent so far (the press counts)

    def screen(self) -> str:
        return self.guest.sh(f"cat {SCREEN} 2>/dev/null")[1]

    def press(self, *keys: str) -> None:
        # `timeout`: with no box reading the FIFO (restarting), the write would wait forever.
        line = " ".join(keys)
        self.knob += sum(key in KNOB for key in keys)
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
    skipped: list[str] = field(default_factory=list)
    on_fail: Callable[[str], None] | None = None     # what is kept to see why

    @contextmanager
    def step(self, name: str) -> Iterator[list[str]]:
        """A step: PASS with what it saw (the lines added to the list), or FAIL with why."""
        said: list[str] = []
        started = time.monotonic()
        try:
            yield said
        except StepSkipped as why:
            self.skipped.append(name)
            say(f"SKIP {name}: {why}")
            return
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


# More crashes in a row than any start limit the unit had (10 in 5 minutes until issue 31).
CRASHES = 12


def crash_loop(box: Box, said: list[str], battle: dict[str, Any]) -> None:
    """The box killed each time as soon as it is started again, CRASHES times in a row: systemd
    never gives up on it, and it comes back with its battle."""
    limit = box.show("StartLimitIntervalUSec")
    restarts = int(box.show("NRestarts"))
    pid = box.main_pid()
    for _ in range(CRASHES):
        box.guest.ok(f"kill -KILL {pid}")

        def started(old: int = pid) -> int:
            new = box.main_pid()
            return new if new not in (0, old) else 0
        pid = poll(started, 120, "a main process started again")
    poll(box.active, 240, f"{UNIT} active again")
    shown = int(box.show("NRestarts"))
    if shown != restarts + CRASHES:
        raise StepFailed(f"NRestarts {restarts} -> {shown} after {CRASHES} kills")
    said.append(f"StartLimitIntervalUSec={limit}, RestartUSec={box.show('RestartUSec')}: "
                f"{CRASHES} kills in a row, NRestarts {restarts} -> {shown}, active again as "
                f"{box.main_pid()}")
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
    # Nor power off despite a shutdown lock or over other users' sessions (issue 31).
    others = {action: check(action) for action in (
        "org.freedesktop.login1.halt", "org.freedesktop.login1.suspend",
        "org.freedesktop.login1.chvt", "org.freedesktop.login1.set-user-linger",
        "org.freedesktop.systemd1.manage-units", "org.freedesktop.login1.power-off-ignore-inhibit",
        "org.freedesktop.login1.reboot-ignore-inhibit",
        "org.freedesktop.login1.power-off-multiple-sessions",
        "org.freedesktop.login1.reboot-multiple-sessions")}
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
    # bluez stays (a system package others may use); userdel took cobi out of its group.
    bluez = guest.sh("dpkg-query -W -f '${Status} ${Version}' bluez")[1].strip()
    group = guest.sh("getent group bluetooth")[1].strip()
    if not bluez.startswith("install ok installed") or "cobi" in group.split(":")[-1].split(","):
        raise StepFailed(f"bluez {bluez!r}, group {group!r}")
    said.append(f"bluez kept ({bluez.split()[-1]}), group bluetooth without cobi ({group})")


def smart_dice_steps(report: Report, guest: Guest, box: Box) -> None:
    """BlueZ with the virtual dice, reached from the box's sandbox; then the box plays with
    them: pairs them, an Easy battle in English, a Tank Game turn in Polish, a die leaving."""
    dice: list[dict[str, Any]] = []
    with report.step("virtual-dice") as said:
        dice = smart_dice.start_dice(guest, said)
    if not dice:
        return
    with report.step("smart-dice-link") as said:
        smart_dice.link(guest, said, dice)
    with report.step("smart-dice-new-box") as said:
        smart_dice.fresh_box(guest, box, said)
    with report.step("smart-dice-pair") as said:
        smart_dice.pair(box, guest, said, dice)
    with report.step("smart-dice-easy-battle-en") as said:
        smart_dice.easy_battle(box, guest, said, dice)
    with report.step("smart-dice-tank-game-pl") as said:
        smart_dice.tank_turn(box, guest, said, dice)
    with report.step("smart-dice-leave") as said:
        smart_dice.leave_and_return(box, guest, said, dice[0])
    with report.step("smart-dice-english-again") as said:
        smart_dice.english_again(box, said)


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
        with report.step("crash-loop") as said:
            crash_loop(box, said, battle)
        with report.step("reboot") as said:
            times = reboot(guest, box, said, battle)
        with report.step("journal-priorities") as said:
            priorities(box, said)
        with report.step("pkcheck") as said:
            pkcheck(guest, said)
        smart_dice_steps(report, guest, box)
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
    failed = f" ({', '.join(report.failed)})" if report.failed else ""
    skipped = f" ({', '.join(report.skipped)})" if report.skipped else ""
    say(f"system test: {report.passed} passed, {len(report.failed)} failed{failed}, "
        f"{len(report.skipped)} skipped{skipped}; "
        f"{time.monotonic() - started:.0f} s in all")
    if not report.failed and not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
