#!/usr/bin/env bash
# Install the COBI Battle Companion as a systemd service on Raspberry Pi OS (Bookworm or later),
# or upgrade it in place: run it again after `git pull`. See systemd/README.md.
set -euo pipefail

readonly NAME=cobi-companion
readonly SERVICE_USER=cobi
# bluetooth: D-Bus lets this group talk to bluetoothd (org.bluez), which reads the smart dice.
readonly DEVICE_GROUPS=(gpio i2c dialout audio bluetooth)
# polkitd: logind asks it whether cobi may power off and reboot (the settings menu). python3-pil:
# on every system, see "32-bit Raspberry Pi OS" in systemd/README.md. alsa-utils: aplay, which
# plays the box's voice. bluez: bluetoothd, through which the box reads the smart dice (Raspberry
# Pi OS has it already; uninstall.sh leaves it, a system package others may use).
readonly APT_PACKAGES=(python3-venv python3-gpiozero python3-lgpio python3-smbus2 i2c-tools
    polkitd python3-pil alsa-utils bluez)
# The voice's phrase cache (the unit's CacheDirectory=), rendered at the install.
readonly CACHE_DIR=/var/cache/cobi-companion
# Loaded at boot so that the service's DeviceAllow= rules find their device classes: i2c-dev
# gives /dev/i2c-*, usbserial and cdc_acm register ttyUSB and ttyACM before any adapter is in.
readonly MODULES=(i2c-dev usbserial cdc_acm)
readonly PREFIX=/opt/cobi-companion
readonly VENV=$PREFIX/venv
readonly CONF_DIR=/etc/cobi-companion
readonly UNIT_DIR=/etc/systemd/system
readonly UNIT_FILE=$UNIT_DIR/$NAME.service
# A growing delay between restarts (systemd/restart-back-off.conf), where systemd has it: 254 or
# later. Debian 12 (Bookworm) has 252, which restarts every RestartSec= without one.
readonly BACK_OFF=$UNIT_FILE.d/restart-back-off.conf
readonly BACK_OFF_SYSTEMD=254
# The USB settings stick: mounted while it is in (the file name is systemd-escape --path of its
# Where=, /media/cobi), and a oneshot that asks the box to reload as it comes and goes.
readonly STICK_UNITS=(media-cobi.mount "$NAME-usb.service")
readonly MODULES_FILE=/etc/modules-load.d/$NAME.conf
readonly POLKIT_RULE=/etc/polkit-1/rules.d/50-$NAME.rules
readonly LINK=/usr/local/bin/$NAME
# The parents' folder on the FAT boot partition (only where /boot/firmware is: Bookworm or later).
readonly BOOT_FIRMWARE=/boot/firmware
readonly PARENTS_DIR=$BOOT_FIRMWARE/cobi
# Where config.txt and cmdline.txt are: the first of these that has a config.txt.
readonly BOOT_DIRS=("$BOOT_FIRMWARE" /boot)
readonly PIWHEELS=https://www.piwheels.org/simple
readonly I2C_LINES=(dtparam=i2c_arm=on dtparam=i2c_arm_baudrate=400000)
readonly UART_LINES=(enable_uart=1 dtparam=uart0=on)  # uart0: the header UART on a Pi 5
readonly MARK="# Added by cobi-companion (systemd/install.sh)"

usage() {
    cat <<'EOF'
Usage: sudo systemd/install.sh [--uart] [--root DIR] [--dry-run]

Installs or upgrades the COBI Battle Companion as the systemd service cobi-companion:
apt packages (bluez among them, with bluetooth.service enabled and started), a venv in
/opt/cobi-companion/venv with the companion from this repository, the command
/usr/local/bin/cobi-companion, the system user cobi (groups gpio, i2c, dialout, audio, bluetooth),
I2C at 400 kHz in config.txt, /etc/cobi-companion/config.toml (only if there is none) and
cards/, the parents' folder /boot/firmware/cobi, the USB settings stick (label COBI), the
polkit rule that lets the box power off and restart the Pi, and the unit, enabled and started
(restarted on an upgrade). A second run upgrades and changes nothing else.

  --uart       also turn on the header UART (enable_uart=1, dtparam=uart0=on) and take
               the serial console off it (cmdline.txt), for a range sensor on GPIO 14/15
  --root DIR   install into DIR instead of /; commands that cannot run there (apt-get,
               useradd, python -m venv, pip, systemctl) and the check of the venv's lgpio
               are printed, not run
  --dry-run    print every action, change nothing
  -h, --help   this help
EOF
}

ROOT=""
DRY_RUN=0
UART=0
# Options, the root check and printed actions (only printed with --dry-run or --root).
# shellcheck source=systemd/actions.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/actions.sh"

while (($#)); do
    case $1 in
        --uart) UART=1; shift ;;
        *) common_option install.sh "$@"; shift "$USED" ;;
    esac
done

settle_root install.sh

REPO=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
readonly REPO
[[ -f $REPO/pyproject.toml && -f $REPO/systemd/$NAME.service ]] || {
    echo "install.sh: run it from a clone of the repository ($REPO is not one)" >&2
    exit 1
}

# Under --root: every path written below, checked before anything is done, so that a symbolic
# link on the way stops the install before it changed anything (refuse_links).
written=("$PREFIX" "$CONF_DIR/cards" "$CONF_DIR/config.toml" "$PARENTS_DIR/cards"
    "$PARENTS_DIR/README.txt" "$PARENTS_DIR/config-example.toml" "$MODULES_FILE" "$POLKIT_RULE"
    "$UNIT_FILE" "$BACK_OFF" "${LINK%/*}")
for unit in "${STICK_UNITS[@]}"; do written+=("$UNIT_DIR/$unit"); done
for dir in "${BOOT_DIRS[@]}"; do written+=("$dir/config.txt" "$dir/cmdline.txt"); done
refuse_links install.sh "${written[@]/#/$ROOT}"

umask 022
REBOOT=0

# True when the group (or, with a second argument, the user's membership in it) exists.
has_group() {
    local group=$1 member=${2:-}
    if [[ -n $ROOT ]]; then
        [[ -f $ROOT/etc/group ]] || return 1
        if [[ -z $member ]]; then
            grep -q "^$group:" "$ROOT/etc/group"
        else
            grep -Eq "^$group:[^:]*:[^:]*:(.*,)?$member(,|\$)" "$ROOT/etc/group"
        fi
    elif [[ -z $member ]]; then
        getent group "$group" >/dev/null
    else
        id -nG "$member" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"
    fi
}

has_user() {
    if [[ -n $ROOT ]]; then
        [[ -f $ROOT/etc/passwd ]] && grep -q "^$1:" "$ROOT/etc/passwd"
    else
        id -u "$1" >/dev/null 2>&1
    fi
}

# config.txt is changed as a text (CONFIG_TEXT) and written once, whole (atomic_write).
has_line() {  # has_line LINE: CONFIG_TEXT has it
    grep -qxF -- "$1" <<<"$CONFIG_TEXT"
}

append_line() {  # append_line LINE: after a marker, in the [all] section of CONFIG_TEXT
    local line=$1 last_section
    [[ -z $CONFIG_TEXT || $CONFIG_TEXT == *$'\n' ]] || CONFIG_TEXT+=$'\n'
    has_line "$MARK" || CONFIG_TEXT+=$MARK$'\n'
    last_section=$(grep -E '^[[:space:]]*\[' <<<"$CONFIG_TEXT" | tail -n 1 |
        tr -d '[:space:]') || true
    if [[ -n $last_section && $last_section != "[all]" ]]; then
        CONFIG_TEXT+=$'[all]\n'
    fi
    CONFIG_TEXT+=$line$'\n'
}

ensure_line() {  # ensure_line FILE LINE: LINE in CONFIG_TEXT, FILE's text
    local file=$1 line=$2
    if has_line "$line"; then
        say "keep $line in $file"
    else
        change "add $line to $file" append_line "$line"
        REBOOT=1
    fi
}

# atomic_write FILE TEXT: FILE then holds TEXT, or still its old text if anything fails (a full
# card) or the power goes: TEXT goes to a temporary file in the same folder, is synced to the
# card, and renamed over FILE, which replaces it whole or not at all (on the FAT boot partition
# too); then the folder is synced, so that the rename itself is on the card. A config.txt or
# cmdline.txt cut in half leaves a Pi that does not boot. The mode stays FILE's (none on FAT).
atomic_write() {
    local file=$1 text=$2 dir tmp
    dir=$(dirname -- "$file")
    refuse_links install.sh "$file"
    if tmp=$(mktemp -- "$dir/.${file##*/}.XXXXXX" 2>/dev/null); then
        if printf '%s' "$text" 2>/dev/null >"$tmp" && {
            [[ ! -e $file ]] || chmod --reference="$file" -- "$tmp" 2>/dev/null || true
        } && sync -- "$tmp" 2>/dev/null && mv -fT -- "$tmp" "$file" 2>/dev/null; then
            sync -- "$dir" 2>/dev/null ||
                say "could not sync $dir: $file is written, the card may still be catching up"
            return 0
        fi
        rm -f -- "$tmp"
    fi
    echo "install.sh: cannot write $file (is its disk full or read only?); it is left as" \
        "it was" >&2
    exit 1
}

# The whole text of FILE, its last newline too (a bare $(...) drops it).
text_of() {
    local text
    text=$(cat -- "$1" && printf x)
    printf '%s' "${text%x}"
}

write_file() {  # write_file FILE TEXT (mode 0644)
    refuse_links install.sh "$1"
    printf '%s' "$2" >"$1"
    chmod 0644 "$1"
}

install_file() {  # install_file FROM TO: the repository's file, when it differs (mode 0644)
    refuse_links install.sh "$2"
    if cmp -s "$1" "$2"; then
        say "keep $2 (unchanged)"
    else
        change "install $2" install -D -m 0644 "$1" "$2"
    fi
}

note() {  # note TEXT: a decision, printed as "would ..." in a dry run
    if ((DRY_RUN)); then say "would $*"; else say "$*"; fi
}

# On the FAT boot partition no chmod: FAT keeps no modes, and refuses most changes (EPERM).
write_crlf() {  # write_crlf FILE TEXT: each line ended CR LF, for Notepad and friends
    printf '%s\n' "$2" | sed 's/$/\r/' >"$1"
}

copy_plain() {  # copy_plain FROM TO
    cat -- "$1" >"$2"
}

# The target's Debian architecture (armhf on 32-bit Raspberry Pi OS, arm64 on 64-bit), or ""
# when a --root has no dpkg database to tell. Not uname -m: a 32-bit system on a Pi 4 or 5
# runs a 64-bit kernel, and uname says aarch64.
target_arch() {
    if [[ -z $ROOT ]]; then
        dpkg --print-architecture 2>/dev/null || true
    elif [[ -f $ROOT/var/lib/dpkg/status ]]; then
        awk '/^Package: / { dpkg = ($2 == "dpkg") } dpkg && /^Architecture: / { print $2; exit }' \
            "$ROOT/var/lib/dpkg/status"
    fi
}

# The major version of the target's systemd (252 on Debian 12), from its dpkg database; 0 when
# it cannot tell. Not systemctl --version: under --root that is this machine's, not the target's.
systemd_version() {
    local version
    [[ -f $ROOT/var/lib/dpkg/status ]] || { say 0; return; }
    version=$(awk '/^Package: / { it = ($2 == "systemd") } it && /^Version: / { print $2; exit }' \
        "$ROOT/var/lib/dpkg/status")
    version=${version#*:}        # an epoch
    version=${version%%[^0-9]*}
    say "${version:-0}"
}

# Each line ends CR LF (write_crlf): parents open it with Notepad as well as anything else.
readonly PARENTS_README="\
COBI Battle Companion: settings and cards from any computer

This folder is on the SD card's boot partition, which Windows, macOS and
Linux can all open. Power the box off first (settings menu: Power off),
put the SD card into your computer, change what you like here, eject the
card safely and put it back into the box.

What goes here:
  config.toml   the box's settings. Start from config-example.toml: copy
                it to config.toml and keep only the lines you change; a
                setting left out keeps its value from before.
  cards         a folder for your own card files (.toml), as described
                in the companion's README.

Where the box looks, in this order. Each one is read over the one
before it, so the last one that sets something wins:
  1. the box's built-in defaults
  2. /etc/cobi-companion/config.toml and /etc/cobi-companion/cards
     (on the box itself)
  3. this folder: config.toml and cards
  4. a USB stick named COBI (FAT32): config.toml and cards on it

The USB stick needs no SD card and no restart: put it in and the box
reads its settings again; take it out and the box goes back to the
settings above. The box only reads the stick, it never writes to it.
Anyone at the table can plug a stick in, so from the stick the box
takes only what the players choose: its cards and the [game] and
[house_rules] tables. Pins, the screen ([display]), sensors, folders
and the rest are set only here or in /etc/cobi-companion/config.toml;
the box shows any other setting on a stick as not used.

This folder and config-example.toml were made by the installer, which
never overwrites your own files here."

# --- packages -------------------------------------------------------------------------------
if [[ -z $ROOT ]] && ((DRY_RUN == 0)); then
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || {
        echo "install.sh: needs Python 3.11 or newer as python3 (Raspberry Pi OS Bookworm)" >&2
        exit 1
    }
fi
system apt-get update
apt_packages=("${APT_PACKAGES[@]}")
MOCK_PINS=0
if [[ -z $ROOT ]] && ((DRY_RUN == 0)) && ! apt-cache show python3-lgpio >/dev/null 2>&1; then
    # Without python3-lgpio only a box on mock pins (no GPIO: the system test) goes on.
    if ! asks_for_mock_pins "$CONF_DIR/config.toml"; then
        echo "install.sh: python3-lgpio is not in this system's package sources;" \
            "the companion needs Raspberry Pi OS (Bookworm or later)" >&2
        exit 1
    fi
    MOCK_PINS=1
    say "go on without python3-lgpio: $CONF_DIR/config.toml asks for mock pins" \
        "([pins] factory = \"mock\"), no GPIO"
    apt_packages=()
    for package in "${APT_PACKAGES[@]}"; do
        [[ $package == python3-lgpio ]] || apt_packages+=("$package")
    done
fi
system apt-get install -y --no-install-recommends "${apt_packages[@]}"

# --- the service user -----------------------------------------------------------------------
for group in "${DEVICE_GROUPS[@]}"; do
    has_group "$group" || system groupadd --system "$group"
done
if has_user "$SERVICE_USER"; then
    missing=()
    for group in "${DEVICE_GROUPS[@]}"; do
        has_group "$group" "$SERVICE_USER" || missing+=("$group")
    done
    if ((${#missing[@]})); then
        system usermod --append --groups "$(IFS=,; echo "${missing[*]}")" "$SERVICE_USER"
    else
        say "keep user $SERVICE_USER (groups ${DEVICE_GROUPS[*]})"
    fi
else
    system useradd --system --user-group --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin --comment "COBI Battle Companion" \
        --groups "$(IFS=,; echo "${DEVICE_GROUPS[*]}")" "$SERVICE_USER"
fi

# --- 32-bit Raspberry Pi OS ----------------------------------------------------------------
# PyPI has no armhf (32-bit) wheel of Pillow and so of luma.oled; Raspberry Pi OS points pip at
# piwheels.org, which has them, in /etc/pip.conf. Without that line pip is told here. Nor of
# cbor2 6 (luma.core's; its source needs Rust): Debian's python3-cbor2 serves, and pip's
# constraints leave out the pins of both there (write_constraints).
pip_index=()
arch=$(target_arch)
case $arch in
    armhf | armel)
        if grep -qs piwheels "$ROOT/etc/pip.conf"; then
            say "keep pip's piwheels index in $ROOT/etc/pip.conf ($arch: Pillow's wheels)"
        else
            pip_index=(--extra-index-url "$PIWHEELS")
            note "use $PIWHEELS for pip ($arch: PyPI has no Pillow wheel for it, and" \
                "$ROOT/etc/pip.conf names no piwheels)"
        fi
        # The voice: no espeakng-loader wheel for 32-bit ARM (companion_extras), so Debian's
        # eSpeak NG library, which the box finds with ctypes.util.
        system apt-get install -y --no-install-recommends libespeak-ng1 python3-cbor2
        ;;
    "")
        [[ -z $ROOT ]] || say "skip the 32-bit check: no dpkg database in $ROOT tells its" \
            "architecture (on armhf pip needs piwheels, see systemd/README.md)"
        ;;
esac

# --- the venv and the companion ---------------------------------------------------------------
[[ -d $ROOT$PREFIX ]] || change "create $ROOT$PREFIX" install -d -m 0755 "$ROOT$PREFIX"
if [[ ! -x $ROOT$VENV/bin/python ]]; then
    system python3 -m venv --system-site-packages "$ROOT$VENV"
elif ! grep -qx 'include-system-site-packages = true' "$ROOT$VENV/pyvenv.cfg" 2>/dev/null; then
    system python3 -m venv --clear --system-site-packages "$ROOT$VENV"
fi

# The venv's Python itself says whether it is 32-bit (a 32-bit system on a 64-bit kernel too);
# under --root or --dry-run the target's architecture stands for it.
if ((DRY_RUN)) || [[ -n $ROOT ]]; then
    case $arch in armhf | armel | i386) bits=32 ;; *) bits=64 ;; esac
else
    bits=$(python_bits "$VENV/bin/python")
fi
extras=$(companion_extras "$bits")
if ((bits == 32)); then
    note "leave out of pip's constraints the pins tagged '$NOT_ON_32_BIT' (32-bit Python:" \
        "$(grep -F -- "$NOT_ON_32_BIT" "$REPO/constraints.txt" | grep -v '^#' | cut -d= -f1 |
            xargs) from" \
        "apt or piwheels) and the voice's wheel (libespeak-ng1 speaks)"
fi

# pip builds from a clean copy: a build in the clone would leave root-owned files there. The
# versions are those the tests passed with (constraints.txt, kept by python3 run.py lock).
pip_args=(install --upgrade --upgrade-strategy only-if-needed --disable-pip-version-check
    --no-warn-script-location --root-user-action=ignore "${pip_index[@]}")
if ((DRY_RUN)) || [[ -n $ROOT ]]; then
    system "$ROOT$VENV/bin/python" -m pip "${pip_args[@]}" -c "$REPO/constraints.txt" \
        "$REPO$extras"
else
    src=$(mktemp -d)
    trap 'rm -rf -- "$src"' EXIT
    tar -C "$REPO" --exclude=./.git --exclude=./.venv --exclude=./build --exclude='*.egg-info' \
        --exclude=__pycache__ -cf - . | tar -C "$src" -xf -
    write_constraints "$bits" "$REPO/constraints.txt" "$src/constraints-$bits-bit.txt"
    say "run: $VENV/bin/python -m pip ${pip_args[*]} -c constraints-$bits-bit.txt" \
        "$REPO$extras (from a clean copy)"
    "$VENV/bin/python" -m pip "${pip_args[@]}" --quiet -c "$src/constraints-$bits-bit.txt" \
        "$src$extras"
fi

# lgpio: the system's python3-lgpio, unless pip left PyPI's empty placeholder in the venv.
if ((DRY_RUN)) || [[ -n $ROOT ]]; then
    say "would check lgpio in $ROOT$VENV: remove PyPI's empty lgpio 0.0.0.2 if pip put it" \
        "there, and stop unless python3-lgpio is importable"
elif ((MOCK_PINS)); then
    say "skip the check of lgpio: mock pins"
else
    venv_lgpio "$VENV/bin/python" install.sh
fi
if ((DRY_RUN == 0)) && [[ -z $ROOT ]]; then
    "$VENV/bin/python" -c 'import gpiozero' 2>/dev/null || {
        echo "install.sh: the venv cannot import gpiozero: sudo apt install python3-gpiozero" >&2
        exit 1
    }
fi

# --- the command on the PATH ------------------------------------------------------------------
if [[ -L $ROOT$LINK && $(readlink -- "$ROOT$LINK") == "$VENV/bin/$NAME" ]]; then
    say "keep $ROOT$LINK -> $VENV/bin/$NAME"
elif [[ -e $ROOT$LINK || -L $ROOT$LINK ]]; then
    say "skip $ROOT$LINK: something else is there (remove it, and run install.sh again)"
else
    [[ -d $ROOT/usr/local/bin ]] ||
        change "create $ROOT/usr/local/bin" install -d -m 0755 "$ROOT/usr/local/bin"
    change "link $ROOT$LINK -> $VENV/bin/$NAME" ln -s -- "$VENV/bin/$NAME" "$ROOT$LINK"
fi

# --- the voice's phrases ----------------------------------------------------------------------
# Rendered once here as the service user, so that the box never waits for the engine; the box
# renders at its start only what is new since (a card added).
if ((DRY_RUN)) || [[ -n $ROOT ]]; then
    say "would render the voice's phrases into $ROOT$CACHE_DIR/voice as $SERVICE_USER" \
        "($VENV/bin/$NAME speech render)"
else
    [[ -d $CACHE_DIR ]] ||
        install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0700 "$CACHE_DIR"
    say "render the voice's phrases into $CACHE_DIR/voice as $SERVICE_USER"
    runuser -u "$SERVICE_USER" -- env CACHE_DIRECTORY="$CACHE_DIR" HOME=/nonexistent \
        "$VENV/bin/$NAME" speech render ||
        note "the voice's phrases were not rendered now: the box renders them as it starts"
fi

# --- configuration ----------------------------------------------------------------------------
[[ -d $ROOT$CONF_DIR ]] || change "create $ROOT$CONF_DIR" install -d -m 0755 "$ROOT$CONF_DIR"
if [[ -d $ROOT$CONF_DIR/cards ]]; then
    say "keep $ROOT$CONF_DIR/cards/"
else
    change "create $ROOT$CONF_DIR/cards/" install -d -m 0755 "$ROOT$CONF_DIR/cards"
fi
if [[ -e $ROOT$CONF_DIR/config.toml ]]; then
    say "keep $ROOT$CONF_DIR/config.toml (never overwritten)"
else
    change "copy hardware/config.toml to $ROOT$CONF_DIR/config.toml" \
        install -m 0644 "$REPO/hardware/config.toml" "$ROOT$CONF_DIR/config.toml"
fi

# The parents' folder on the boot partition: read over /etc/cobi-companion, never overwritten.
if [[ -d $ROOT$BOOT_FIRMWARE ]]; then
    parents=$ROOT$PARENTS_DIR
    for dir in "$parents" "$parents/cards"; do
        if [[ -d $dir ]]; then
            say "keep $dir/"
        else
            change "create $dir/" mkdir -- "$dir"
        fi
    done
    if [[ -e $parents/README.txt ]]; then
        say "keep $parents/README.txt"
    else
        change "write $parents/README.txt" write_crlf "$parents/README.txt" "$PARENTS_README"
    fi
    if [[ -e $parents/config-example.toml ]]; then
        say "keep $parents/config-example.toml (never overwritten)"
    else
        change "copy hardware/config.toml to $parents/config-example.toml" \
            copy_plain "$REPO/hardware/config.toml" "$parents/config-example.toml"
    fi
else
    say "skip $ROOT$PARENTS_DIR: no $ROOT$BOOT_FIRMWARE (a Raspberry Pi OS older than Bookworm?)"
fi

# --- I2C (and the UART) in the boot files ---------------------------------------------------
boot=""
for dir in "${BOOT_DIRS[@]}"; do
    if [[ -f $ROOT$dir/config.txt ]]; then
        boot=$ROOT$dir
        break
    fi
done
if [[ -z $boot ]]; then
    say "skip I2C: no config.txt in $ROOT/boot/firmware or $ROOT/boot (turn it on by hand)"
else
    boot_lines=("${I2C_LINES[@]}")
    ((UART == 0)) || boot_lines+=("${UART_LINES[@]}")
    CONFIG_TEXT=$(text_of "$boot/config.txt" && printf x)
    CONFIG_TEXT=${CONFIG_TEXT%x}
    old_config=$CONFIG_TEXT
    for line in "${boot_lines[@]}"; do
        ensure_line "$boot/config.txt" "$line"
    done
    # Only changed outside a dry run (change ran append_line).
    [[ $CONFIG_TEXT == "$old_config" ]] || atomic_write "$boot/config.txt" "$CONFIG_TEXT"
    if ((UART)); then
        if [[ ! -f $boot/cmdline.txt ]]; then
            say "skip the serial console: no $boot/cmdline.txt"
        else
            read -r -a words <"$boot/cmdline.txt" || true
            kept=()
            for word in "${words[@]}"; do
                [[ $word =~ ^console=(serial[01]|ttyAMA[0-9]+|ttyS[0-9]+)(,.*)?$ ]] || kept+=("$word")
            done
            if ((${#kept[@]} == ${#words[@]})); then
                say "keep $boot/cmdline.txt (no serial console on it)"
            else
                change "remove the serial console from $boot/cmdline.txt" \
                    atomic_write "$boot/cmdline.txt" "${kept[*]}"$'\n'
                REBOOT=1
            fi
        fi
    fi
fi

modules_text="# cobi-companion: I2C devices, USB serial adapters (systemd/install.sh)"$'\n'
modules_text+=$(printf '%s\n' "${MODULES[@]}")$'\n'
if [[ -f $ROOT$MODULES_FILE ]] && [[ $(<"$ROOT$MODULES_FILE")$'\n' == "$modules_text" ]]; then
    say "keep $ROOT$MODULES_FILE"
else
    [[ -d $ROOT/etc/modules-load.d ]] ||
        change "create $ROOT/etc/modules-load.d" install -d -m 0755 "$ROOT/etc/modules-load.d"
    change "write $ROOT$MODULES_FILE (${MODULES[*]})" \
        write_file "$ROOT$MODULES_FILE" "$modules_text"
    system modprobe --all "${MODULES[@]}"
fi

# --- power off and restart from the settings menu ------------------------------------------
install_file "$REPO/systemd/${POLKIT_RULE##*/}" "$ROOT$POLKIT_RULE"

# --- Bluetooth: the smart dice -----------------------------------------------------------------
# bluetoothd owns the controller; the box only asks it over the system bus. Without Bluetooth
# hardware its unit's own condition (/sys/class/bluetooth) skips the start, and a start that
# fails all the same stops nothing here: the box rolls with its buttons until the dice are seen.
if ! system systemctl enable --now bluetooth.service; then
    say "bluetooth.service did not start (see: systemctl status bluetooth): the box goes on" \
        "without smart dice until it runs"
fi

# --- the units --------------------------------------------------------------------------------
for unit in "${STICK_UNITS[@]}"; do
    install_file "$REPO/systemd/$unit" "$ROOT$UNIT_DIR/$unit"
done
install_file "$REPO/systemd/$NAME.service" "$ROOT$UNIT_FILE"
systemd_major=$(systemd_version)
if ((systemd_major >= BACK_OFF_SYSTEMD)); then
    install_file "$REPO/systemd/${BACK_OFF##*/}" "$ROOT$BACK_OFF"
else
    systemd_name="systemd $systemd_major"
    ((systemd_major)) || systemd_name="systemd of unknown version (no dpkg database says)"
    if [[ -e $ROOT$BACK_OFF || -L $ROOT$BACK_OFF ]]; then
        change "remove $ROOT$BACK_OFF ($systemd_name has no RestartSteps=)" \
            rm -f -- "$ROOT$BACK_OFF"
    fi
    say "keep restarting every RestartSec= without a growing delay: $systemd_name" \
        "(RestartSteps= needs $BACK_OFF_SYSTEMD or later)"
fi
system systemctl daemon-reload
# Not --now: the mount waits for its stick; enabled, it is mounted each time the stick is put in.
system systemctl enable "${STICK_UNITS[@]}"
if [[ -z $ROOT ]] && systemctl is-active --quiet "$NAME.service" 2>/dev/null; then
    system systemctl enable "$NAME.service"
    system systemctl restart "$NAME.service"
else
    system systemctl enable --now "$NAME.service"
fi

if ((REBOOT && !DRY_RUN)); then
    say "reboot to apply the boot settings: sudo reboot"
fi
say "the box's log: journalctl -u $NAME -f"
