"""The system test's disks: Debian 12 by debootstrap (kept while its package list is the
same), the test machine's own settings, the payload (the committed tree and its wheels) and the
USB stick."""
from __future__ import annotations

import hashlib
import secrets
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

from host import REPO, StepFailed, run, say

AGENT_SOURCE = Path(__file__).with_name("guest_agent.py")
SUITE, MIRROR = "bookworm", "http://deb.debian.org/debian"
# The image: a booted Debian with logind (polkitd asks it), udev (the stick), a kernel and its
# initrd, and the apt packages install.sh asks for (all but python3-lgpio, which Debian has
# not), so that its apt-get install finds them installed with no network. sqlite3: the test
# reads the saved battle. bluez: bluetoothd, which the box reaches over the system bus (and which
# install.sh asks for); the kernel's hci_vhci gives the virtual dice their controller.
PACKAGES = ("systemd", "systemd-sysv", "libpam-systemd", "udev", "dbus", "linux-image-amd64",
            "polkitd", "python3-venv", "dosfstools", "python3-gpiozero", "python3-smbus2",
            "i2c-tools", "python3-pil", "alsa-utils", "kmod", "sqlite3", "procps",
            "python3-cbor2", "bluez")
BASE_VERSION = "2"          # the image's own settings below; a change makes a new base.img
PAYLOAD = "/mnt/payload"
STICK_CONFIG = '[game]\nlanguage = "pl"\n'
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
    """What install.sh's pip asks for on the guest (64-bit): the dependencies, the voice's and
    the smart dice's extras (companion_extras in systemd/actions.sh) and the build's."""
    project = tomllib.loads((src / "pyproject.toml").read_text(encoding="utf-8"))
    build = project.get("build-system", {}).get("requires", [])
    extras = project["project"].get("optional-dependencies", {})
    return [*project["project"]["dependencies"], *extras.get("voice", []),
            *extras.get("smart", []), *build, "wheel"]


def wheels(cache: Path, src: Path) -> Path:
    """The project's wheels for the guest (CPython 3.11, x86_64, glibc 2.36), from PyPI."""
    folder = cache / "wheels"
    folder.mkdir(parents=True, exist_ok=True)
    pip_download(cache, folder, project_deps(src), src / "constraints.txt")
    return folder


# The virtual dice's own venv in the guest (bumble: never in the box's venv), and bleak for the
# probe of BlueZ while the box's venv has none: as constraints.txt pins it, once it does.
BUMBLE = "bumble==0.0.236"


def dice_wheels(cache: Path, src: Path) -> Path:
    """bumble's and bleak's wheels for the guest, and the requirements file that names them."""
    folder = cache / "dice-wheels"
    folder.mkdir(parents=True, exist_ok=True)
    constraints = src / "constraints.txt"
    pins = constraints.read_text().splitlines() if constraints.exists() else []
    bleak = next((line.split(";")[0].strip() for line in pins if line.startswith("bleak==")),
                 "bleak")
    (folder / "requirements.txt").write_text(f"{BUMBLE}\n{bleak}\n")
    pip_download(cache, folder, ["-r", str(folder / "requirements.txt")])
    return folder


def pip_download(cache: Path, folder: Path, wanted: list[str],
                 constraints: Path | None = None) -> None:
    """Wheels for the guest (CPython 3.11, x86_64, glibc 2.36) from PyPI into `folder`."""
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
    if constraints is not None and constraints.exists():
        args += ["-c", str(constraints)]
    run(pip_venv / "bin" / "pip", *args, *wanted)


def payload(work: Path, cache: Path) -> tuple[Path, str]:
    """A second disk: the committed tree (git archive HEAD), its wheels and the dice's."""
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
    shutil.copytree(dice_wheels(cache, tree / "src"), tree / "dice-wheels")
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
