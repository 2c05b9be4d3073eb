#!/usr/bin/env bash
# Install the COBI Battle Companion as a systemd service on Raspberry Pi OS (Bookworm or later),
# or upgrade it in place: run it again after `git pull`. See systemd/README.md.
set -euo pipefail

readonly NAME=cobi-companion
readonly SERVICE_USER=cobi
readonly DEVICE_GROUPS=(gpio i2c dialout)
readonly APT_PACKAGES=(python3-venv python3-gpiozero python3-lgpio python3-smbus2 i2c-tools)
# Loaded at boot so that the service's DeviceAllow= rules find their device classes: i2c-dev
# gives /dev/i2c-*, usbserial and cdc_acm register ttyUSB and ttyACM before any adapter is in.
readonly MODULES=(i2c-dev usbserial cdc_acm)
readonly PREFIX=/opt/cobi-companion
readonly VENV=$PREFIX/venv
readonly CONF_DIR=/etc/cobi-companion
readonly UNIT_FILE=/etc/systemd/system/$NAME.service
readonly MODULES_FILE=/etc/modules-load.d/$NAME.conf
readonly I2C_LINES=(dtparam=i2c_arm=on dtparam=i2c_arm_baudrate=400000)
readonly UART_LINES=(enable_uart=1 dtparam=uart0=on)  # uart0: the header UART on a Pi 5
readonly MARK="# Added by cobi-companion (systemd/install.sh)"

usage() {
    cat <<'EOF'
Usage: sudo systemd/install.sh [--uart] [--root DIR] [--dry-run]

Installs or upgrades the COBI Battle Companion as the systemd service cobi-companion:
apt packages, a venv in /opt/cobi-companion/venv with the companion from this repository,
the system user cobi (groups gpio, i2c, dialout), I2C at 400 kHz in config.txt,
/etc/cobi-companion/config.toml (only if there is none) and cards/, and the unit, enabled
and started (restarted on an upgrade). A second run upgrades and changes nothing else.

  --uart       also turn on the header UART (enable_uart=1, dtparam=uart0=on) and take
               the serial console off it (cmdline.txt), for a range sensor on GPIO 14/15
  --root DIR   install into DIR instead of /; commands that cannot run there (apt-get,
               useradd, python -m venv, pip, systemctl) are printed, not run
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

append_line() {  # append_line FILE LINE: after a marker, in the [all] section of config.txt
    local file=$1 line=$2 last_section
    if [[ -s $file && -n $(tail -c 1 "$file") ]]; then
        printf '\n' >>"$file"
    fi
    grep -qxF "$MARK" "$file" || printf '%s\n' "$MARK" >>"$file"
    last_section=$(grep -E '^[[:space:]]*\[' "$file" | tail -n 1 | tr -d '[:space:]') || true
    if [[ -n $last_section && $last_section != "[all]" ]]; then
        printf '[all]\n' >>"$file"
    fi
    printf '%s\n' "$line" >>"$file"
}

ensure_line() {  # ensure_line FILE LINE
    local file=$1 line=$2
    if grep -qxF "$line" "$file"; then
        say "keep $line in $file"
    else
        change "add $line to $file" append_line "$file" "$line"
        REBOOT=1
    fi
}

write_file() {  # write_file FILE TEXT (mode 0644)
    printf '%s' "$2" >"$1"
    chmod 0644 "$1"
}

# --- packages -------------------------------------------------------------------------------
if [[ -z $ROOT ]] && ((DRY_RUN == 0)); then
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || {
        echo "install.sh: needs Python 3.11 or newer as python3 (Raspberry Pi OS Bookworm)" >&2
        exit 1
    }
fi
system apt-get update
if [[ -z $ROOT ]] && ((DRY_RUN == 0)) && ! apt-cache show python3-lgpio >/dev/null 2>&1; then
    echo "install.sh: python3-lgpio is not in this system's package sources;" \
        "the companion needs Raspberry Pi OS (Bookworm or later)" >&2
    exit 1
fi
system apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

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

# --- the venv and the companion ---------------------------------------------------------------
[[ -d $ROOT$PREFIX ]] || change "create $ROOT$PREFIX" install -d -m 0755 "$ROOT$PREFIX"
if [[ ! -x $ROOT$VENV/bin/python ]]; then
    system python3 -m venv --system-site-packages "$ROOT$VENV"
elif ! grep -qx 'include-system-site-packages = true' "$ROOT$VENV/pyvenv.cfg" 2>/dev/null; then
    system python3 -m venv --clear --system-site-packages "$ROOT$VENV"
fi

# pip builds from a clean copy: a build in the clone would leave root-owned files there.
pip_args=(install --upgrade --upgrade-strategy only-if-needed --disable-pip-version-check
    --no-warn-script-location --root-user-action=ignore)
if ((DRY_RUN)) || [[ -n $ROOT ]]; then
    system "$ROOT$VENV/bin/python" -m pip "${pip_args[@]}" "$REPO"
else
    src=$(mktemp -d)
    trap 'rm -rf -- "$src"' EXIT
    tar -C "$REPO" --exclude=./.git --exclude=./.venv --exclude=./build --exclude='*.egg-info' \
        --exclude=__pycache__ -cf - . | tar -C "$src" -xf -
    say "run: $VENV/bin/python -m pip ${pip_args[*]} $REPO (from a clean copy)"
    "$VENV/bin/python" -m pip "${pip_args[@]}" --quiet "$src"
    "$VENV/bin/python" -c 'import gpiozero, lgpio' 2>/dev/null || {
        echo "install.sh: the venv cannot import gpiozero and lgpio (python3-lgpio missing?)" >&2
        exit 1
    }
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

# --- I2C (and the UART) in the boot files ---------------------------------------------------
boot=""
for dir in /boot/firmware /boot; do
    if [[ -f $ROOT$dir/config.txt ]]; then
        boot=$ROOT$dir
        break
    fi
done
if [[ -z $boot ]]; then
    say "skip I2C: no config.txt in $ROOT/boot/firmware or $ROOT/boot (turn it on by hand)"
else
    for line in "${I2C_LINES[@]}"; do
        ensure_line "$boot/config.txt" "$line"
    done
    if ((UART)); then
        for line in "${UART_LINES[@]}"; do
            ensure_line "$boot/config.txt" "$line"
        done
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
                    write_file "$boot/cmdline.txt" "${kept[*]}"$'\n'
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

# --- the unit -------------------------------------------------------------------------------
if cmp -s "$REPO/systemd/$NAME.service" "$ROOT$UNIT_FILE"; then
    say "keep $ROOT$UNIT_FILE (unchanged)"
else
    change "install $ROOT$UNIT_FILE" \
        install -D -m 0644 "$REPO/systemd/$NAME.service" "$ROOT$UNIT_FILE"
fi
system systemctl daemon-reload
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
