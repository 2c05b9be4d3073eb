"""systemd/install.sh and systemd/uninstall.sh, run by bash into a temporary root.

The commands that would change the running system (apt-get, useradd, systemctl, ...) are stubs
on PATH that only record a call: under --root and --dry-run the scripts must print them, never
run them.
"""
from __future__ import annotations

import errno
import hashlib
import os
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "systemd" / "install.sh"
UNINSTALL = REPO / "systemd" / "uninstall.sh"
ACTIONS = REPO / "systemd" / "actions.sh"
UNIT = REPO / "systemd" / "cobi-companion.service"
STICK_UNITS = ("media-cobi.mount", "cobi-companion-usb.service")
POLKIT_RULE = REPO / "systemd" / "50-cobi-companion.rules"
CONFIG = REPO / "hardware" / "config.toml"
VENV_COMMAND = "/opt/cobi-companion/venv/bin/cobi-companion"
I2C_LINES = ["dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000"]
SYSTEM_COMMANDS = ["apt-get", "apt-cache", "systemctl", "useradd", "usermod", "userdel",
                   "groupadd", "modprobe", "python3", "pip", "pip3"]
NOBODY = 65534

CONFIG_TXT = """\
# For more options and information see config.txt documentation
#dtparam=i2c_arm=on
#dtparam=spi=on
dtparam=audio=on
camera_auto_detect=1

[cm4]
otg_mode=1

[pi4]
arm_boost=1"""  # a last line without a newline, as editors leave it
CMDLINE_TXT = ("console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
               "fsck.repair=yes rootwait quiet\n")

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


class Env:
    """A fake root and stubbed system commands."""

    def __init__(self, base: Path) -> None:
        self.root = base / "root"
        self.stubs = base / "stubs"
        self.log = base / "calls.log"
        self.stubs.mkdir()
        self.log.touch()
        for name in SYSTEM_COMMANDS:
            stub = self.stubs / name
            stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{self.log}"\nexit 97\n')
            stub.chmod(0o755)
        boot = self.root / "boot" / "firmware"
        boot.mkdir(parents=True)
        (boot / "config.txt").write_text(CONFIG_TXT)
        (boot / "cmdline.txt").write_text(CMDLINE_TXT)
        etc = self.root / "etc"
        etc.mkdir()
        (etc / "group").write_text("root:x:0:\ndialout:x:20:pi\ngpio:x:997:pi\ni2c:x:998:pi\n")
        (etc / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "PATH": f"{self.stubs}{os.pathsep}{os.environ.get('PATH', '')}"}

    def run(self, script: Path, *args: str, root: bool = True,
            prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
        where = ("--root", str(self.root)) if root else ()
        return subprocess.run([*prefix, "bash", str(script), *where, *args], env=self.env,
                              capture_output=True, text=True, timeout=120)

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines()

    def tree(self) -> list[tuple[str, str, str]]:
        """Every path under the root with its type, mode and content hash."""
        listing = []
        for path in sorted(self.root.rglob("*")):
            info = path.lstat()
            if stat.S_ISDIR(info.st_mode):
                content = "dir"
            elif stat.S_ISLNK(info.st_mode):
                content = "-> " + os.readlink(path)
            else:
                content = hashlib.sha256(path.read_bytes()).hexdigest()
            listing.append((str(path.relative_to(self.root)), oct(info.st_mode), content))
        return listing

    @property
    def config_txt(self) -> str:
        return (self.root / "boot/firmware/config.txt").read_text()

    @property
    def cmdline_txt(self) -> str:
        return (self.root / "boot/firmware/cmdline.txt").read_text()


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return Env(tmp_path)


def ok(result: subprocess.CompletedProcess[str]) -> list[str]:
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stderr == ""
    return result.stdout.splitlines()


def test_install_puts_every_file_in_place(env: Env) -> None:
    out = ok(env.run(INSTALL))
    r = env.root
    assert (r / "etc/systemd/system/cobi-companion.service").read_bytes() == UNIT.read_bytes()
    assert (r / "etc/cobi-companion/config.toml").read_bytes() == CONFIG.read_bytes()
    assert (r / "etc/cobi-companion/cards").is_dir()
    assert (r / "opt/cobi-companion").is_dir()
    modules = (r / "etc/modules-load.d/cobi-companion.conf").read_text().split()
    assert {"i2c-dev", "usbserial", "cdc_acm"} <= set(modules)
    for line in I2C_LINES:
        assert env.config_txt.splitlines().count(line) == 1
    # Appended after the last conditional section ([pi4]), so under [all]: for every board.
    tail = env.config_txt.splitlines()[-3:]
    assert tail == ["[all]", *I2C_LINES]
    assert "arm_boost=1\n" in env.config_txt
    assert env.cmdline_txt == CMDLINE_TXT                  # no --uart: the console stays
    assert "enable_uart=1" not in env.config_txt
    assert env.calls() == []                               # nothing ran on this machine
    assert "would run: apt-get install -y --no-install-recommends python3-venv " \
           "python3-gpiozero python3-lgpio python3-smbus2 i2c-tools polkitd python3-pil " \
           "alsa-utils bluez" in out
    assert any(line.startswith("would run: useradd --system") and line.endswith(" cobi")
               and "--groups gpio,i2c,dialout,audio,bluetooth" in line for line in out)
    venv = r / "opt/cobi-companion/venv"
    assert f"would run: python3 -m venv --system-site-packages {venv}" in out
    assert any(line.startswith(f"would run: {venv}/bin/python -m pip install") for line in out)
    assert not any("--extra-index-url" in line for line in out)    # no armhf here
    assert f"would check lgpio in {venv}: remove PyPI's empty lgpio 0.0.0.2 if pip put it " \
           "there, and stop unless python3-lgpio is importable" in out
    units = r / "etc/systemd/system"
    for name in STICK_UNITS:
        assert (units / name).read_bytes() == (REPO / "systemd" / name).read_bytes()
    rule = r / "etc/polkit-1/rules.d/50-cobi-companion.rules"
    assert rule.read_bytes() == POLKIT_RULE.read_bytes()
    assert oct(rule.stat().st_mode & 0o777) == "0o644"
    link = r / "usr/local/bin/cobi-companion"
    assert link.is_symlink() and os.readlink(link) == VENV_COMMAND
    parents = r / "boot/firmware/cobi"
    assert (parents / "cards").is_dir()
    assert (parents / "config-example.toml").read_bytes() == CONFIG.read_bytes()
    readme = (parents / "README.txt").read_bytes()
    assert readme.endswith(b"\r\n") and readme.count(b"\n") == readme.count(b"\r\n")
    text = readme.decode("ascii")
    order = ["/etc/cobi-companion/config.toml", "this folder", "USB stick named COBI"]
    assert [text.index(where) for where in order] == sorted(text.index(w) for w in order)
    assert "config-example.toml" in text
    assert out[-5:] == ["would run: systemctl daemon-reload",
                        "would run: systemctl enable media-cobi.mount cobi-companion-usb.service",
                        "would run: systemctl enable --now cobi-companion.service",
                        "reboot to apply the boot settings: sudo reboot",
                        "the box's log: journalctl -u cobi-companion -f"]


def test_second_run_changes_nothing_and_keeps_an_edited_config(env: Env) -> None:
    ok(env.run(INSTALL, "--uart"))
    config = env.root / "etc/cobi-companion/config.toml"
    config.write_text('[game]\nlanguage = "pl"\n')
    before = env.tree()
    out = ok(env.run(INSTALL, "--uart"))
    assert env.tree() == before
    assert config.read_text() == '[game]\nlanguage = "pl"\n'
    assert f"keep {config} (never overwritten)" in out
    for line in [*I2C_LINES, "enable_uart=1", "dtparam=uart0=on", "[all]",
                 "# Added by cobi-companion (systemd/install.sh)"]:
        assert env.config_txt.splitlines().count(line) == 1, line
    assert not any(line.startswith(("add ", "copy ", "install ", "write ", "remove "))
                   for line in out)
    assert env.calls() == []


def test_uart_takes_the_serial_console_off(env: Env) -> None:
    out = ok(env.run(INSTALL, "--uart"))
    assert env.config_txt.splitlines().count("enable_uart=1") == 1
    assert env.config_txt.splitlines().count("dtparam=uart0=on") == 1
    assert env.cmdline_txt == ("console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
                               "fsck.repair=yes rootwait quiet\n")
    cmdline = env.root / "boot/firmware/cmdline.txt"
    assert f"remove the serial console from {cmdline}" in out


def test_older_images_keep_config_txt_in_boot(env: Env) -> None:
    firmware = env.root / "boot" / "firmware"
    for name in ("config.txt", "cmdline.txt"):
        (firmware / name).rename(env.root / "boot" / name)
    firmware.rmdir()
    ok(env.run(INSTALL, "--uart"))
    text = (env.root / "boot/config.txt").read_text().splitlines()
    assert all(text.count(line) == 1 for line in [*I2C_LINES, "enable_uart=1"])
    assert "console=serial0" not in (env.root / "boot/cmdline.txt").read_text()
    assert not firmware.exists()                     # nor the parents' folder in it


def test_missing_boot_files_are_reported_not_fatal(env: Env) -> None:
    shutil.rmtree(env.root / "boot")
    out = ok(env.run(INSTALL))
    assert any(line.startswith("skip I2C: no config.txt") for line in out)
    assert (env.root / "etc/systemd/system/cobi-companion.service").exists()


def test_an_existing_user_is_kept(env: Env) -> None:
    with (env.root / "etc/passwd").open("a") as passwd:
        passwd.write("cobi:x:990:990::/nonexistent:/usr/sbin/nologin\n")
    out = ok(env.run(INSTALL))
    assert not any("useradd" in line for line in out)
    assert "would run: usermod --append --groups gpio,i2c,dialout,audio,bluetooth cobi" in out
    group = (env.root / "etc/group").read_text()
    (env.root / "etc/group").write_text(group.replace(":pi\n", ":pi,cobi\n")
                                        + "audio:x:29:cobi\nbluetooth:x:112:cobi\n")
    out = ok(env.run(INSTALL))
    assert "keep user cobi (groups gpio i2c dialout audio bluetooth)" in out


def test_bluez_is_installed_and_its_group_made_where_missing(env: Env) -> None:
    # A system without bluez (a plain Debian): apt brings it and its group bluetooth; under
    # --root nothing ran, so the installer makes the group itself before cobi joins it.
    out = ok(env.run(INSTALL))
    install = next(line for line in out if "apt-get install" in line)
    assert install.split()[-1] == "bluez"
    assert "would run: groupadd --system bluetooth" in out
    assert "would run: systemctl enable --now bluetooth.service" in out
    # bluez's own group is used as it is.
    with (env.root / "etc/group").open("a") as group:
        group.write("bluetooth:x:112:\n")
    out = ok(env.run(INSTALL))
    assert not any("groupadd" in line and "bluetooth" in line for line in out)


def test_a_machine_without_bluetooth_still_gets_the_box(tmp_path: Path) -> None:
    # systemctl refusing to start bluetooth.service (no controller, a BlueZ that fails): said,
    # and the rest of the install goes on to the box's own unit.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "systemctl.log"
    (bin_dir / "systemctl").write_text(
        f'#!/bin/sh\necho "$*" >> "{log}"\ncase "$*" in *bluetooth*) exit 1;; esac\nexit 0\n')
    (bin_dir / "systemctl").chmod(0o755)
    script = INSTALL.read_text()
    start = script.index("# --- Bluetooth: the smart dice")
    end = script.index("# --- the units")
    snippet = (f"set -euo pipefail\nDRY_RUN=0\nROOT=''\nsource {ACTIONS}\n"
               f"{script[start:end]}\nsystemctl enable --now cobi-companion.service\n")
    done = subprocess.run(["bash", "-c", snippet], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "bluetooth.service did not start" in done.stdout
    assert log.read_text().splitlines() == ["enable --now bluetooth.service",
                                            "enable --now cobi-companion.service"]


def test_dry_run_changes_nothing(env: Env) -> None:
    before = env.tree()
    out = ok(env.run(INSTALL, "--dry-run", "--uart"))
    assert env.tree() == before
    assert env.calls() == []
    etc = env.root / "etc"
    for action in ["would run: apt-get update",
                   f"would copy hardware/config.toml to {etc}/cobi-companion/config.toml",
                   f"would install {etc}/systemd/system/cobi-companion.service",
                   "would add dtparam=i2c_arm=on to "
                   f"{env.root}/boot/firmware/config.txt",
                   "would remove the serial console from "
                   f"{env.root}/boot/firmware/cmdline.txt",
                   "would run: systemctl enable --now cobi-companion.service"]:
        assert action in out
    assert all(line.startswith(("would ", "keep ", "skip ", "the box's log")) for line in out)


def installed(env: Env) -> Path:
    ok(env.run(INSTALL))
    state = env.root / "var/lib/cobi-companion"
    state.mkdir(parents=True)
    (state / "battles.db").write_bytes(b"SQLite format 3\0")
    voice = env.root / "var/cache/cobi-companion/voice"    # what the install renders on a Pi
    voice.mkdir(parents=True)
    (voice / "en-hit.wav").write_bytes(b"RIFF")
    (env.root / "etc/cobi-companion/cards/king-tiger.toml").write_text("set_number = 9999\n")
    with (env.root / "etc/passwd").open("a") as passwd:
        passwd.write("cobi:x:990:990::/nonexistent:/usr/sbin/nologin\n")
    return state


def test_uninstall_keeps_config_cards_and_battles(env: Env) -> None:
    state = installed(env)
    out = ok(env.run(UNINSTALL))
    r = env.root
    assert not (r / "etc/systemd/system/cobi-companion.service").exists()
    assert not (r / "opt/cobi-companion").exists()
    assert not (r / "etc/modules-load.d/cobi-companion.conf").exists()
    assert (r / "etc/cobi-companion/config.toml").read_bytes() == CONFIG.read_bytes()
    assert (r / "etc/cobi-companion/cards/king-tiger.toml").exists()
    assert (state / "battles.db").exists()
    assert (r / "var/cache/cobi-companion/voice/en-hit.wav").exists()
    assert out[0] == "would run: systemctl disable --now cobi-companion.service"
    assert "would run: userdel cobi" in out        # and with it cobi's place in bluetooth
    # bluez is a system package others may use: never removed.
    assert "keep bluez and its group bluetooth: a system package others may use" in out
    assert not any("apt-get" in line or "groupdel" in line for line in out)
    assert env.calls() == []


def test_uninstall_purge_removes_config_battles_and_the_voice_cache(env: Env) -> None:
    state = installed(env)
    out = ok(env.run(UNINSTALL, "--purge"))
    assert not (env.root / "etc/cobi-companion").exists()
    assert not state.exists()
    assert f"remove {state}" in out
    cache = env.root / "var/cache/cobi-companion"
    assert not cache.exists() and f"remove {cache}" in out
    assert (env.root / "var/cache").is_dir()                 # the folder itself, never above
    assert env.calls() == []


def test_uninstall_dry_run_changes_nothing(env: Env) -> None:
    installed(env)
    before = env.tree()
    out = ok(env.run(UNINSTALL, "--dry-run", "--purge"))
    assert env.tree() == before
    assert f"would remove {env.root}/opt/cobi-companion" in out
    assert f"would remove {env.root}/var/lib/cobi-companion" in out
    assert f"would remove {env.root}/var/cache/cobi-companion" in out
    assert env.calls() == []


def test_help_and_unknown_options(env: Env) -> None:
    for script in (INSTALL, UNINSTALL):
        assert "Usage: sudo systemd/" in ok(env.run(script, "--help", root=False))[0]
        result = env.run(script, "--frobnicate")
        assert result.returncode == 2
        assert "unknown option --frobnicate" in result.stderr


@pytest.fixture
def unprivileged() -> Iterator[tuple[Env, tuple[str, ...], Path]]:
    """An Env, a command prefix that runs as a user other than root, and a copy of the
    repository's scripts that user can read."""
    if os.geteuid() != 0:
        prefix: tuple[str, ...] = ()
    elif shutil.which("setpriv"):
        prefix = ("setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups")
    else:
        pytest.skip("running as root without setpriv to drop the privileges")
    base = Path(tempfile.mkdtemp(prefix="cobi-install-"))
    try:
        base.chmod(0o755)
        repo = base / "repo"
        (repo / "systemd").mkdir(parents=True)
        (repo / "hardware").mkdir()
        for path in (*(REPO / "systemd").iterdir(), CONFIG, REPO / "pyproject.toml"):
            if path.is_file():
                shutil.copy(path, repo / path.relative_to(REPO))
        env = Env(base)
        env.log.chmod(0o666)
        if prefix:
            for path in [env.root, *env.root.rglob("*")]:
                os.chown(path, NOBODY, NOBODY)
        yield env, prefix, repo / "systemd"
    finally:
        shutil.rmtree(base)


def test_without_root_only_root_and_dry_run_are_allowed(
        unprivileged: tuple[Env, tuple[str, ...], Path]) -> None:
    env, prefix, scripts = unprivileged
    for name in ("install.sh", "uninstall.sh"):
        refused = env.run(scripts / name, root=False, prefix=prefix)
        assert refused.returncode == 1
        assert "needs root: sudo" in refused.stderr
        assert refused.stdout == ""
    assert env.calls() == []
    ok(env.run(scripts / "install.sh", root=True, prefix=prefix))
    assert (env.root / "etc/cobi-companion/config.toml").exists()
    # A dry run on this machine itself only looks (systemctl is-active at most).
    for name in ("install.sh", "uninstall.sh"):
        out = ok(env.run(scripts / name, "--dry-run", root=False, prefix=prefix))
        assert all(line.startswith(("would ", "keep ", "skip ", "the box's log"))
                   for line in out), out
    assert all(call.startswith("systemctl is-active ") for call in env.calls()), env.calls()


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_shellcheck_is_clean() -> None:
    result = subprocess.run(["shellcheck", "-x", str(INSTALL), str(UNINSTALL)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_parents_files_are_never_overwritten(env: Env) -> None:
    ok(env.run(INSTALL))
    parents = env.root / "boot/firmware/cobi"
    (parents / "config.toml").write_text('[game]\r\nlanguage = "pl"\r\n')
    (parents / "config-example.toml").write_text("# mine now\n")
    (parents / "README.txt").write_text("our notes\n")
    (parents / "cards/t-34.toml").write_text("set_number = 2542\n")
    before = env.tree()
    out = ok(env.run(INSTALL))
    assert env.tree() == before
    assert f"keep {parents}/config-example.toml (never overwritten)" in out
    assert f"keep {parents}/README.txt" in out


def test_a_dry_run_names_the_parents_folder(env: Env) -> None:
    out = ok(env.run(INSTALL, "--dry-run"))
    parents = env.root / "boot/firmware/cobi"
    assert f"would create {parents}/" in out
    assert f"would write {parents}/README.txt" in out
    assert f"would link {env.root}/usr/local/bin/cobi-companion -> {VENV_COMMAND}" in out
    assert not parents.exists()


def test_someone_elses_command_on_the_path_is_left_alone(env: Env) -> None:
    bin_dir = env.root / "usr/local/bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "cobi-companion").write_text("#!/bin/sh\necho mine\n")
    out = ok(env.run(INSTALL))
    assert (bin_dir / "cobi-companion").read_text() == "#!/bin/sh\necho mine\n"
    assert any(line.startswith(f"skip {bin_dir}/cobi-companion: something else") for line in out)
    with (env.root / "etc/passwd").open("a") as passwd:
        passwd.write("cobi:x:990:990::/nonexistent:/usr/sbin/nologin\n")
    out = ok(env.run(UNINSTALL))
    assert (bin_dir / "cobi-companion").read_text() == "#!/bin/sh\necho mine\n"
    assert f"keep {bin_dir}/cobi-companion: not the link to {VENV_COMMAND}" in out


def dpkg_status(env: Env, arch: str, systemd: str = "") -> None:
    status = env.root / "var/lib/dpkg/status"
    status.parent.mkdir(parents=True, exist_ok=True)
    status.write_text(f"Package: base-files\nStatus: install ok installed\nArchitecture: {arch}\n"
                      "\nPackage: dpkg\nStatus: install ok installed\nPriority: required\n"
                      f"Architecture: {arch}\nVersion: 1.21.22\n"
                      + (f"\nPackage: systemd\nStatus: install ok installed\n"
                         f"Architecture: {arch}\nVersion: {systemd}\n" if systemd else ""))


def pip_line(out: list[str]) -> str:
    return next(line for line in out if " -m pip install " in line)


def test_32_bit_systems_get_pillow_from_piwheels(env: Env) -> None:
    dpkg_status(env, "armhf")
    out = ok(env.run(INSTALL))
    assert "--extra-index-url https://www.piwheels.org/simple" in pip_line(out)
    # cbor2 and the voice's library from Debian, no voice's wheel, their pins left out
    assert "would run: apt-get install -y --no-install-recommends libespeak-ng1 " \
           "python3-cbor2" in out
    assert pip_line(out).endswith(f" -c {REPO}/constraints.txt {REPO}")
    assert "leave out of pip's constraints the pins tagged '# not on 32-bit:' (32-bit Python: " \
           "cbor2 pillow from apt or piwheels) and the voice's wheel (libespeak-ng1 speaks)" \
           in out
    assert any(line.startswith("use https://www.piwheels.org/simple for pip (armhf:")
               for line in out)
    assert "python3-pil" in next(line for line in out if "apt-get install" in line)
    # Raspberry Pi OS's own /etc/pip.conf already names piwheels: nothing added.
    (env.root / "etc/pip.conf").write_text(
        "[global]\nextra-index-url=https://www.piwheels.org/simple\n")
    out = ok(env.run(INSTALL))
    assert "--extra-index-url" not in pip_line(out)
    assert f"keep pip's piwheels index in {env.root}/etc/pip.conf (armhf: Pillow's wheels)" in out


def test_64_bit_systems_use_pypi(env: Env) -> None:
    dpkg_status(env, "arm64")
    out = ok(env.run(INSTALL))
    assert "--extra-index-url" not in pip_line(out)
    assert pip_line(out).endswith(f" -c {REPO}/constraints.txt '{REPO}[voice,smart]'")
    assert not any("cbor2" in line for line in out)
    assert not any("32-bit" in line or "piwheels" in line for line in out)


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL], ids=["install", "uninstall"])
@pytest.mark.parametrize("option", [("--root", ""), ("--root=",)], ids=["separate", "joined"])
def test_an_empty_root_is_refused(env: Env, script: Path, option: tuple[str, ...]) -> None:
    before = env.tree()
    result = env.run(script, *option, "--purge" if script == UNINSTALL else "--uart", root=False)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (f"{script.name}: --root is empty (for this machine itself leave "
                             "--root out)\n")
    assert env.calls() == []
    assert env.tree() == before


def test_uninstall_removes_the_stick_polkit_and_the_link(env: Env) -> None:
    installed(env)
    units = env.root / "etc/systemd/system"
    # What `systemctl --root enable` would have linked: the device's name keeps its \x2d.
    wants = units / "dev-disk-by\\x2dlabel-COBI.device.wants"
    wants.mkdir()
    (wants / "media-cobi.mount").symlink_to("/etc/systemd/system/media-cobi.mount")
    (units / "media-cobi.mount.wants").mkdir()
    (units / "media-cobi.mount.wants/cobi-companion-usb.service").symlink_to(
        "/etc/systemd/system/cobi-companion-usb.service")
    out = ok(env.run(UNINSTALL))
    assert out[:2] == ["would run: systemctl disable --now cobi-companion.service",
                       "would run: systemctl disable --now media-cobi.mount "
                       "cobi-companion-usb.service"]
    for name in STICK_UNITS:
        assert not (units / name).exists()
    assert list(wants.iterdir()) == []
    assert not (units / "media-cobi.mount.wants/cobi-companion-usb.service").is_symlink()
    assert not (env.root / "etc/polkit-1/rules.d/50-cobi-companion.rules").exists()
    assert not (env.root / "usr/local/bin/cobi-companion").is_symlink()
    assert (env.root / "boot/firmware/cobi/config-example.toml").exists()   # the parents'
    assert env.calls() == []


def test_uninstall_removes_the_sticks_empty_mount_point_only(env: Env) -> None:
    installed(env)
    media = env.root / "media/cobi"
    media.mkdir(parents=True)                # made by systemd for media-cobi.mount
    out = ok(env.run(UNINSTALL))
    assert f"remove the stick's empty mount point {media}" in out
    assert not media.exists() and (env.root / "media").is_dir()
    media.mkdir()
    (media / "notes.txt").write_text("someone's\n")
    out = ok(env.run(UNINSTALL))
    assert not [line for line in out if "mount point" in line]
    assert (media / "notes.txt").read_text() == "someone's\n"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the root, with something in it that must survive."""
    folder = tmp_path / "outside"
    (folder / "venv/bin").mkdir(parents=True)
    (folder / "precious.txt").write_text("not the box's\n")
    (folder / "venv/bin/python").write_text("#!/bin/sh\n")
    return folder


def outside_files(folder: Path) -> list[tuple[str, str]]:
    return [(str(p.relative_to(folder)), p.read_text()) for p in sorted(folder.rglob("*"))
            if p.is_file()]


def test_uninstall_removes_a_link_never_its_target(env: Env, outside: Path) -> None:
    installed(env)
    before = outside_files(outside)
    prefix = env.root / "opt/cobi-companion"
    shutil.rmtree(prefix)
    prefix.symlink_to(outside)                          # /opt/cobi-companion -> outside the root
    conf = env.root / "etc/cobi-companion"
    shutil.rmtree(conf)
    conf.symlink_to(outside, target_is_directory=True)  # /etc/cobi-companion -> the same
    out = ok(env.run(UNINSTALL, "--purge"))
    assert not prefix.is_symlink() and not prefix.exists()
    assert not conf.is_symlink() and not conf.exists()
    assert f"remove {prefix}" in out and f"remove {conf}" in out
    assert outside_files(outside) == before


def test_uninstall_never_goes_through_a_linked_folder(env: Env, outside: Path) -> None:
    state = installed(env)
    # /var and /usr/local are links to folders outside the root: what lies under them there
    # (a state folder, a command) is not the root's to remove.
    (outside / "lib/cobi-companion").mkdir(parents=True)
    (outside / "lib/cobi-companion/battles.db").write_text("someone else's battles\n")
    (outside / "bin").mkdir()
    (outside / "bin/cobi-companion").symlink_to(VENV_COMMAND)
    shutil.rmtree(state.parent.parent)
    (env.root / "var").symlink_to(outside)
    shutil.rmtree(env.root / "usr/local")
    (env.root / "usr/local").symlink_to(outside)
    before = outside_files(outside)
    out = ok(env.run(UNINSTALL, "--purge"))
    assert outside_files(outside) == before
    assert (outside / "bin/cobi-companion").is_symlink()
    for path in (env.root / "var/lib/cobi-companion", env.root / "usr/local/bin/cobi-companion"):
        assert f"skip {path}: a folder on its way is a symbolic link, not followed out of " \
               f"{env.root}" in out
    assert not (env.root / "etc/cobi-companion").exists()    # the rest is still removed


def actions(script: str, *args: str) -> str:
    """Run `script` in bash with systemd/actions.sh sourced; its output."""
    return subprocess.run(["bash", "-c", f'source "$1"; shift; {script}', "bash", str(ACTIONS),
                           *args], capture_output=True, text=True, check=True,
                          timeout=60).stdout


def test_the_choice_follows_the_pythons_own_word_size(tmp_path: Path) -> None:
    """install.sh asks the venv's Python, not uname: 32-bit Raspberry Pi OS on a Pi 4 or 5 runs
    a 64-bit kernel. This Python's answer, and the choice for each answer."""
    assert actions('python_bits "$1"', sys.executable).strip() == \
        str(8 * struct.calcsize("P"))
    assert actions("companion_extras 64") == "[voice,smart]\n"
    assert actions("companion_extras 32") == ""
    constraints = (REPO / "constraints.txt").read_text()
    for bits in ("32", "64"):
        actions('write_constraints "$1" "$2" "$3"', bits, str(REPO / "constraints.txt"),
                str(tmp_path / bits))
    assert (tmp_path / "64").read_text() == constraints
    kept = (tmp_path / "32").read_text().splitlines()
    assert kept == [line for line in constraints.splitlines()
                    if not line.startswith(("cbor2==", "pillow=="))]
    assert len(kept) == len(constraints.splitlines()) - 2


# ---- issue 31: links out of the root, the boot files written whole, the restart back-off ----


def snapshot(folder: Path) -> list[tuple[str, str, str]]:
    """Everything under folder: each path, its type and mode, and its content or target."""
    found = []
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            content = "-> " + os.readlink(path)
        elif stat.S_ISDIR(info.st_mode):
            content = "dir"
        else:
            content = hashlib.sha256(path.read_bytes()).hexdigest()
        found.append((str(path.relative_to(folder)), oct(info.st_mode), content))
    return found


def link_etc(env: Env, outside: Path) -> Path:
    """/etc a link to a folder outside, given an absolute path."""
    shutil.copytree(env.root / "etc", outside / "etc")
    shutil.rmtree(env.root / "etc")
    (env.root / "etc").symlink_to(outside / "etc")
    return env.root / "etc"


def link_cmdline(env: Env, outside: Path) -> Path:
    """/boot/firmware/cmdline.txt a link to a file outside (the file --uart rewrites)."""
    (outside / "cmdline.txt").write_text(CMDLINE_TXT)
    link = env.root / "boot/firmware/cmdline.txt"
    link.unlink()
    link.symlink_to(outside / "cmdline.txt")
    return link


def link_conf_up_and_out(env: Env, outside: Path) -> Path:
    """/etc/cobi-companion a relative link that climbs out of the root through .."""
    link = env.root / "etc/cobi-companion"
    link.symlink_to(Path("..", "..", outside.name))     # root/etc/../../outside
    assert link.resolve() == outside.resolve()
    return link


def link_boot_firmware(env: Env, outside: Path) -> Path:
    """/boot/firmware a link to a folder outside: the boot files and the parents' folder."""
    shutil.copytree(env.root / "boot/firmware", outside / "firmware")
    shutil.rmtree(env.root / "boot/firmware")
    (env.root / "boot/firmware").symlink_to(outside / "firmware")
    return env.root / "boot/firmware"


@pytest.mark.parametrize("layout", [link_etc, link_cmdline, link_conf_up_and_out,
                                    link_boot_firmware],
                         ids=["linked-folder", "linked-file", "relative-up-and-out",
                              "linked-boot-firmware"])
def test_install_never_writes_through_a_link_out_of_the_root(
        env: Env, outside: Path, layout: Callable[[Env, Path], Path]) -> None:
    link = layout(env, outside)
    before_outside, before_root = snapshot(outside), env.tree()
    for args in (("--uart",), ("--uart", "--dry-run")):
        result = env.run(INSTALL, *args)
        assert snapshot(outside) == before_outside
        assert env.tree() == before_root
        assert result.returncode == 1
        assert result.stdout == ""                          # refused before doing anything
        assert result.stderr == (f"install.sh: {link} is a symbolic link (to "
                                 f"{os.readlink(link)}); under --root nothing is written "
                                 "through one: make it a real folder or file\n")
    assert env.calls() == []


def test_a_link_that_stays_inside_the_root_is_refused_too(env: Env) -> None:
    # Even a link that stays inside the root is refused: one rule, nothing to work out.
    (env.root / "srv/units").mkdir(parents=True)
    (env.root / "etc/systemd").mkdir()
    (env.root / "etc/systemd/system").symlink_to("../../srv/units")
    result = env.run(INSTALL)
    assert result.returncode == 1
    assert f"{env.root}/etc/systemd/system is a symbolic link" in result.stderr
    assert list((env.root / "srv/units").iterdir()) == []


def test_uninstall_keeps_an_empty_folder_beyond_a_linked_media(env: Env, outside: Path) -> None:
    installed(env)
    (outside / "cobi").mkdir()                     # /media -> outside: its cobi is not the root's
    (env.root / "media").symlink_to(outside)
    out = ok(env.run(UNINSTALL))
    assert (outside / "cobi").is_dir()
    assert not [line for line in out if "mount point" in line]


def boot_files(env: Env) -> dict[str, tuple[bytes, int]]:
    boot = env.root / "boot/firmware"
    return {name: ((boot / name).read_bytes(), (boot / name).stat().st_ino)
            for name in ("config.txt", "cmdline.txt")}


def test_the_boot_files_are_replaced_whole_never_rewritten_in_place(env: Env) -> None:
    boot = env.root / "boot/firmware"
    (boot / "config.txt").chmod(0o640)
    before = boot_files(env)
    # Opened before: a file rewritten in place (truncated, appended to) would show it here; a
    # file replaced by a rename keeps its old text under the old name's inode.
    with (boot / "config.txt").open("rb") as config, (boot / "cmdline.txt").open("rb") as cmdline:
        ok(env.run(INSTALL, "--uart"))
        assert config.read() == before["config.txt"][0]
        assert cmdline.read() == before["cmdline.txt"][0]
    after = boot_files(env)
    for name in ("config.txt", "cmdline.txt"):
        assert after[name][0] != before[name][0]
        assert after[name][1] != before[name][1], f"{name} was written in place"
    assert env.config_txt.startswith(CONFIG_TXT + "\n")
    assert env.config_txt.endswith("\n".join([*I2C_LINES, "enable_uart=1",
                                              "dtparam=uart0=on"]) + "\n")
    assert "console=serial0" not in env.cmdline_txt
    assert oct((boot / "config.txt").stat().st_mode & 0o777) == "0o640"     # its mode kept
    assert sorted(p.name for p in boot.iterdir()) == ["cmdline.txt", "cobi", "config.txt"]


@pytest.fixture
def small_boot(env: Env) -> Iterator[Path]:
    """The root's boot partition a real, empty 64 KiB file system (tmpfs): root only."""
    boot = env.root / "boot/firmware"
    shutil.rmtree(boot)
    boot.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,mode=0755", "tmpfs",
                              str(boot)], capture_output=True, text=True, timeout=60)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield boot
    finally:
        subprocess.run(["umount", str(boot)], check=True, timeout=60)


def fill(folder: Path) -> Path:
    """Fill the file system of folder to its last byte; the filler's path."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as out:
        for size in (4096, 1):
            try:
                while True:
                    out.write(b"\0" * size)
            except OSError as error:
                assert error.errno == errno.ENOSPC
    return filler


def test_a_full_boot_partition_leaves_the_boot_files_as_they_were(
        env: Env, small_boot: Path) -> None:
    boot = small_boot
    (boot / "config.txt").write_text(CONFIG_TXT)
    (boot / "cmdline.txt").write_text(CMDLINE_TXT)
    parents = boot / "cobi"                  # the parents' folder there already: kept
    (parents / "cards").mkdir(parents=True)
    (parents / "README.txt").write_text("ours\n")
    (parents / "config-example.toml").write_text("# ours\n")
    filler = fill(boot)
    result = env.run(INSTALL, "--uart")
    assert result.returncode == 1
    assert result.stderr == (f"install.sh: cannot write {boot}/config.txt (is its disk full "
                             "or read only?); it is left as it was\n")
    assert env.config_txt == CONFIG_TXT and env.cmdline_txt == CMDLINE_TXT
    assert sorted(p.name for p in boot.iterdir()) == ["cmdline.txt", "cobi", "config.txt",
                                                      "filler"]
    filler.unlink()                          # room again: the next run does it all
    ok(env.run(INSTALL, "--uart"))
    assert env.config_txt.endswith("dtparam=uart0=on\n")
    assert "console=serial0" not in env.cmdline_txt
    assert sorted(p.name for p in boot.iterdir()) == ["cmdline.txt", "cobi", "config.txt"]


def test_the_restart_back_off_only_where_systemd_has_it(env: Env) -> None:
    dropin = env.root / "etc/systemd/system/cobi-companion.service.d/restart-back-off.conf"
    out = ok(env.run(INSTALL))                                       # no dpkg database
    assert not dropin.exists()
    assert "keep restarting every RestartSec= without a growing delay: systemd of unknown " \
           "version (no dpkg database says) (RestartSteps= needs 254 or later)" in out
    dpkg_status(env, "arm64", systemd="252.38-1~deb12u1")            # Debian 12
    out = ok(env.run(INSTALL))
    assert not dropin.exists()
    assert "keep restarting every RestartSec= without a growing delay: systemd 252 " \
           "(RestartSteps= needs 254 or later)" in out
    dpkg_status(env, "arm64", systemd="1:257.8-1~deb13u2")           # Debian 13, an epoch too
    out = ok(env.run(INSTALL))
    assert dropin.read_bytes() == (REPO / "systemd/restart-back-off.conf").read_bytes()
    assert f"install {dropin}" in out
    dpkg_status(env, "arm64", systemd="252.38-1~deb12u1")            # back to 252: taken away
    out = ok(env.run(INSTALL))
    assert not dropin.exists()
    assert f"remove {dropin} (systemd 252 has no RestartSteps=)" in out


def test_uninstall_removes_the_back_off_and_only_an_empty_folder(env: Env) -> None:
    dpkg_status(env, "arm64", systemd="254.1-1")
    installed(env)
    dropins = env.root / "etc/systemd/system/cobi-companion.service.d"
    assert (dropins / "restart-back-off.conf").exists()
    ok(env.run(UNINSTALL))
    assert not dropins.exists()
    ok(env.run(INSTALL))
    (dropins / "override.conf").write_text("[Service]\nNice=5\n")    # systemctl edit's
    ok(env.run(UNINSTALL))
    assert sorted(p.name for p in dropins.iterdir()) == ["override.conf"]
