#!/usr/bin/env bash
# Remove the COBI Battle Companion service installed by systemd/install.sh. The config, the
# cards and the battles stay unless --purge. See systemd/README.md.
set -euo pipefail

readonly NAME=cobi-companion
readonly SERVICE_USER=cobi
readonly PREFIX=/opt/cobi-companion
readonly CONF_DIR=/etc/cobi-companion
readonly STATE_DIR=/var/lib/cobi-companion
readonly UNIT_FILE=/etc/systemd/system/$NAME.service
readonly MODULES_FILE=/etc/modules-load.d/$NAME.conf

usage() {
    cat <<'EOF'
Usage: sudo systemd/uninstall.sh [--purge] [--root DIR] [--dry-run]

Stops and disables the cobi-companion service and removes its unit, /opt/cobi-companion (the
venv) and the user cobi. Keeps /etc/cobi-companion (config.toml, cards/) and
/var/lib/cobi-companion (the battles), and the I2C/UART lines in config.txt.

  --purge      also remove /etc/cobi-companion and /var/lib/cobi-companion
  --root DIR   remove from DIR instead of /; commands that cannot run there (systemctl,
               userdel) are printed, not run
  --dry-run    print every action, change nothing
  -h, --help   this help
EOF
}

ROOT=""
DRY_RUN=0
PURGE=0
# Options, the root check and printed actions (only printed with --dry-run or --root).
# shellcheck source=systemd/actions.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/actions.sh"

while (($#)); do
    case $1 in
        --purge) PURGE=1; shift ;;
        *) common_option uninstall.sh "$@"; shift "$USED" ;;
    esac
done

settle_root uninstall.sh

has_user() {
    if [[ -n $ROOT ]]; then
        [[ -f $ROOT/etc/passwd ]] && grep -q "^$1:" "$ROOT/etc/passwd"
    else
        id -u "$1" >/dev/null 2>&1
    fi
}

remove() {  # remove PATH: a file or a whole folder, when it is there
    if [[ -e $1 || -L $1 ]]; then
        change "remove $1" rm -rf -- "$1"
    fi
}

if [[ -e $ROOT$UNIT_FILE ]]; then
    system systemctl disable --now "$NAME.service"
fi
remove "$ROOT$UNIT_FILE"
system systemctl daemon-reload
remove "$ROOT$PREFIX"
remove "$ROOT$MODULES_FILE"
if has_user "$SERVICE_USER"; then
    system userdel "$SERVICE_USER"
fi
if ((PURGE)); then
    remove "$ROOT$CONF_DIR"
    remove "$ROOT$STATE_DIR"
else
    say "keep $ROOT$CONF_DIR (config and cards) and $ROOT$STATE_DIR (battles): --purge removes them"
fi
say "keep the I2C and UART settings in config.txt"
