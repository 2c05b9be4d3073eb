#!/usr/bin/env bash
# The companion installed and tested in an emulated Raspberry Pi OS base, on an x86-64 Debian
# host, as root: Debian's own userland of that release and architecture (Raspberry Pi OS is
# Debian with the Raspberry Pi archive on top), run under qemu-user. It installs the way
# systemd/install.sh does (the same apt packages where Debian has them, a venv over the system's
# packages, install.sh's own choice of the voice's wheel and of the pins, from actions.sh), pip
# offline from wheels fetched on the host for that platform and Python; then prints what it
# installed, runs a few commands and the simulator, and the screen and command-line tests.
# Emulated speed is not Pi speed: time nothing with it.
#
#   sudo python3 run.py os-check bookworm-arm64|trixie-arm64|bookworm-armhf
#
# The first run of a variant builds its userland with debootstrap (25 minutes or more), kept under
# root's ~/.cache/cobi-companion/os-check/VARIANT/ for later runs. qemu-user reports the kernel
# of the emulated CPU: armv7l for armhf (a 32-bit kernel), so the 32-bit system on a Pi 4 or 5's
# 64-bit kernel is covered by the tests of the choice itself (tests/test_install_choice.py).
set -euo pipefail

usage() {
    echo "usage: sudo python3 run.py os-check bookworm-arm64|trixie-arm64|bookworm-armhf" >&2
    exit 2
}

variant=${1:-}
# suite, Debian architecture, Python, newest glibc (manylinux tags), qemu's name, wheel machine
case $variant in
    bookworm-arm64) spec=(bookworm arm64 3.11 36 aarch64 aarch64) ;;
    trixie-arm64) spec=(trixie arm64 3.13 41 aarch64 aarch64) ;;
    bookworm-armhf) spec=(bookworm armhf 3.11 36 arm armv7l) ;;
    *) usage ;;
esac
suite=${spec[0]} arch=${spec[1]} python=${spec[2]} glibc=${spec[3]} qemu=${spec[4]}
machine=${spec[5]}
((EUID == 0)) || { echo "os-check: needs root (debootstrap, chroot): sudo" >&2; exit 1; }
for tool in debootstrap "qemu-$qemu-static" git; do
    command -v "$tool" >/dev/null || {
        echo "os-check: no $tool here: sudo apt install debootstrap qemu-user-static git" >&2
        exit 1
    }
done

SRC=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
W=${XDG_CACHE_HOME:-$HOME/.cache}/cobi-companion/os-check/$variant
R=$W/root
export DEBIAN_FRONTEND=noninteractive
step() { printf '== %s: %s\n' "$variant" "$*"; }

# Without binfmt_misc every child process of the emulated Python fails: "Exec format error".
mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc none /proc/sys/fs/binfmt_misc
registered=0
if [[ ! -e /proc/sys/fs/binfmt_misc/qemu-$qemu ]]; then
    cat "/usr/lib/binfmt.d/qemu-$qemu.conf" >/proc/sys/fs/binfmt_misc/register
    registered=1
fi
cleanup() {
    for dir in dev/pts dev proc; do
        ! mountpoint -q "$R/$dir" || umount "$R/$dir" || true
    done
    if ((registered)); then echo -1 >"/proc/sys/fs/binfmt_misc/qemu-$qemu" || true; fi
}
trap cleanup EXIT

# --- the userland (cached) ----------------------------------------------------------------
if [[ ! -x $R/usr/bin/python3 ]]; then
    step "debootstrap $suite $arch into $R (once; its second stage runs emulated)"
    rm -rf "$R"
    mkdir -p "$W"
    debootstrap --foreign --arch="$arch" --variant=minbase \
        --include=python3,python3-venv,ca-certificates "$suite" "$R" http://deb.debian.org/debian
    chroot "$R" /debootstrap/debootstrap --second-stage
fi
mountpoint -q "$R/proc" || mount -t proc proc "$R/proc"
mountpoint -q "$R/dev" || mount --bind /dev "$R/dev"
mountpoint -q "$R/dev/pts" || mount --bind /dev/pts "$R/dev/pts"
cp /etc/resolv.conf "$R/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"   # no service starts in a chroot
chmod 0755 "$R/usr/sbin/policy-rc.d"
ch() {
    chroot "$R" env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root \
        LANG=C.UTF-8 TERM=xterm GPIOZERO_PIN_FACTORY=mock PIP_ROOT_USER_ACTION=ignore \
        PIP_DISABLE_PIP_VERSION_CHECK=1 "$@"
}

# --- the apt packages, as install.sh asks for them ------------------------------------------
# install.sh's own list, and on 32-bit its line for the voice's library and cbor2. Where Debian
# has no such package (python3-lgpio: Raspberry Pi OS's archive only) it is named and skipped.
eval "$(sed -n '/^readonly APT_PACKAGES=(/,/)/p' "$SRC/systemd/install.sh" | sed 's/^readonly //')"
wanted=("${APT_PACKAGES[@]}")
case $arch in armhf | armel) wanted+=(libespeak-ng1 python3-cbor2) ;; esac
# A userland kept from a run that was stopped half-way through its install: finish dpkg's work.
ch env DEBIAN_FRONTEND=noninteractive dpkg --configure -a >/dev/null
ch apt-get update -q >/dev/null
apt_list=() missing=()
for package in "${wanted[@]}"; do
    if [[ -n $(ch apt-cache policy "$package" 2>/dev/null | grep -m1 'Candidate: [^(]') ]]; then
        apt_list+=("$package")
    else
        missing+=("$package")
    fi
done
step "apt-get install ${apt_list[*]}"
ch apt-get install -y -q --no-install-recommends "${apt_list[@]}" >/dev/null
((${#missing[@]} == 0)) || step "not in Debian $suite (Raspberry Pi OS's archive): ${missing[*]}"

# --- wheels for the target, fetched on the host ------------------------------------------------
rm -rf "$W/src" "$W/whl"
mkdir -p "$W/src" "$W/whl" "$W/built"
# The tree as it is here: tracked and new files, not ignored ones (commit or not).
(cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
    tar --null --ignore-failed-read -T - -cf -) 2>/dev/null | tar -x -C "$W/src"
bits=$(ch python3 -c 'import struct; print(8 * struct.calcsize("P"))')
# shellcheck source=systemd/actions.sh
source "$SRC/systemd/actions.sh"
extras=$(companion_extras "$bits")
write_constraints "$bits" "$SRC/constraints.txt" "$W/src/constraints-$bits-bit.txt"
pins=$W/src/constraints-$bits-bit.txt

# PyPI has no armv7 Pillow: Raspberry Pi OS's pip takes piwheels' (built from the same source),
# which this host cannot reach. So the check builds that wheel itself, in the target, from
# PyPI's source of the version constraints.txt names (once, kept in built/), with the
# libraries piwheels' wheel links against (install.sh's python3-pil brings them) and the
# compilers, removed again after the build.
if ((bits == 32)); then
    pillow=$(sed -n 's/^pillow==\([^ ]*\).*/\1/p' "$SRC/constraints.txt")
    if ! compgen -G "$W/built/pillow-$pillow-*.whl" >/dev/null; then
        step "build Pillow $pillow for $machine from its source (once: piwheels' stand-in)"
        pip download -q --no-deps --no-binary=:all: -d "$W/built" "pillow==$pillow"
        # its build's own requirements too: the target reaches no index (nor this host's CA)
        tar -xzf "$W/built/pillow-$pillow.tar.gz" -O "pillow-$pillow/pyproject.toml" |
            python3 -c 'import sys, tomllib
print("\n".join(tomllib.load(sys.stdin.buffer)["build-system"]["requires"]))' |
            xargs pip download -q --only-binary=:all: -d "$W/built/needs"
        build=(build-essential python3-dev libjpeg62-turbo-dev zlib1g-dev libfreetype-dev)
        ch apt-get install -y -q --no-install-recommends "${build[@]}" >/dev/null
        mkdir -p "$R/opt/built"
        cp -r "$W/built/pillow-$pillow.tar.gz" "$W/built/needs" "$R/opt/built/"
        ch python3 -m venv /opt/built/venv
        ch /opt/built/venv/bin/pip wheel -q --no-deps --no-index --find-links /opt/built/needs \
            -w /opt/built "/opt/built/pillow-$pillow.tar.gz"
        cp "$R"/opt/built/pillow-"$pillow"-*.whl "$W/built/"
        rm -rf "$R/opt/built"
        ch apt-get purge -y -q --autoremove "${build[@]}" >/dev/null
    fi
fi

platforms=()
for tag in manylinux2014_"$machine" $(seq -f "manylinux_2_%g_$machine" 17 "$glibc") \
    "linux_$machine"; do
    platforms+=(--platform "$tag")
done
mapfile -t deps < <(python3 -c 'import sys, tomllib
project = tomllib.load(open(sys.argv[1], "rb"))["project"]
extras = [e for e in sys.argv[2].strip("[]").split(",") if e]
for line in project["dependencies"] + sum((project["optional-dependencies"][e] for e in extras), []):
    print(line)
for line in project["optional-dependencies"]["dev"]:
    if line.startswith(("pytest", "hypothesis")):
        print(line)' "$SRC/pyproject.toml" "$extras")
# lgpio: plain Debian has no python3-lgpio; PyPI's wheel stands in for Raspberry Pi OS's
# where it has one for this Python (3.11: aarch64 and armv7l; 3.13: none, so mock pins only).
lgpio=()
if [[ $python == 3.11 ]]; then lgpio=('lgpio>=0.2'); fi
step "pip download for cp${python/./} $machine (constraints-$bits-bit.txt)"
pip download -q --disable-pip-version-check --only-binary=:all: "${platforms[@]}" \
    --python-version "$python" --implementation cp -d "$W/whl" --find-links "$W/built" \
    -c "$pins" "${deps[@]}" "${lgpio[@]}" 'setuptools>=77' wheel

# --- the install, as install.sh does it ---------------------------------------------------------
V=/opt/cobi-companion/venv
rm -rf "$R/opt/src" "$R/opt/whl" "$R/opt/cobi-companion"
mkdir -p "$R/opt/whl"
cp -a "$W/src" "$R/opt/src"
cp "$W"/whl/*.whl "$R/opt/whl/"
step "python3 -m venv --system-site-packages $V; pip install -c constraints-$bits-bit.txt" \
    "/opt/src$extras ${lgpio[*]}"
ch python3 -m venv --system-site-packages "$V"
ch "$V/bin/pip" install -q --upgrade --upgrade-strategy only-if-needed --no-index \
    --find-links /opt/whl -c "/opt/src/constraints-$bits-bit.txt" "/opt/src$extras" "${lgpio[@]}"

step "what is installed"
ch "$V/bin/python" -c '
import importlib.metadata as meta, platform, struct, sys, sysconfig
print("machine", platform.machine(), "| pointer", 8 * struct.calcsize("P"), "bits | Python",
      platform.python_version(), sysconfig.get_platform())
from cobi_companion.device.ports.espeak import find_library
print("voice engine:", find_library().path)
from PIL import ImageFont
from cobi_companion.device.ui import reference_glyphs
drawn = reference_glyphs.drawn_with()["freetype"]
print("Pillow draws with FreeType", ImageFont.core.freetype2_version, "| reference glyphs:",
      "drawn with", drawn, "| in use:", reference_glyphs.shipped() is not None)
for name in ("cbor2", "pillow", "gpiozero", "lgpio", "luma.oled", "luma.core", "pydantic",
             "pydantic_core", "espeakng-loader"):
    try:
        dist = meta.distribution(name)
    except meta.PackageNotFoundError:
        print(f"  {name}: none")
        continue
    where = "venv" if str(dist.locate_file("")).startswith(sys.prefix) else "system (apt)"
    print(f"  {name} {dist.version}: {where}")
'
ch "$V/bin/pip" freeze --all | sed 's/^/  freeze: /'
ch "$V/bin/cobi-companion" speech check || true
ch "$V/bin/cobi-companion" --help | head -2
ch "$V/bin/cobi-companion" odds --rules tank --attacker 2477 --target 2464 --facing front \
    --json | head -3
rm -rf "$R/tmp/sim"
ch "$V/bin/cobi-companion" sim --keys ok,cw,ok --snapshot-dir /tmp/sim/snap \
    --state-dir /tmp/sim/state >/dev/null
step "sim: $(find "$R/tmp/sim/snap" -name '*.png' | wc -l) frames"

ch "$V/bin/pip" install -q --no-index --find-links /opt/whl \
    -c "/opt/src/constraints-$bits-bit.txt" pytest hypothesis
# The reference glyphs' tests: on a Pillow with another FreeType (armhf) the screens must
# still need none of it.
step "pytest tests/cards tests/device/ui/test_screens.py tests/device/cli/test_cli.py" \
    "tests/device/ui/test_reference_glyphs.py"
ch sh -c "cd /opt/src && $V/bin/python -m pytest -p no:cacheprovider -rs tests/cards \
    tests/device/ui/test_screens.py tests/device/cli/test_cli.py tests/device/ui/test_reference_glyphs.py"
step "passed"
