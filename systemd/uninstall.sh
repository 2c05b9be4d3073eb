#!/usr/bin/env bash
# Remove the COBI Battle Companion service installed by systemd/install.sh. The config, the
# cards and the battles stay unless --purge. Under --root nothing is removed through a symbolic
# link: a link is removed itself, never what it points to. See systemd/README.md.
set -euo pipefail

readonly NAME=cobi-companion
readonly SERVICE_USER=cobi
readonly PREFIX=/opt/cobi-companion
readonly CONF_DIR=/etc/cobi-companion
readonly STATE_DIR=/var/lib/cobi-companion
readonly CACHE_DIR=/var/cache/cobi-companion     # the voice's phrases: the unit's CacheDirectory=
readonly UNIT_DIR=/etc/systemd/system
readonly UNIT_FILE=$UNIT_DIR/$NAME.service
readonly BACK_OFF=$UNIT_FILE.d/restart-back-off.conf   # written where systemd is 254 or later
readonly STICK_UNITS=(media-cobi.mount "$NAME-usb.service")
# The links `systemctl enable` makes for those (left behind where it was only printed, --root).
readonly STICK_LINKS=('dev-disk-by\x2dlabel-COBI.device.wants/media-cobi.mount'
    "media-cobi.mount.wants/$NAME-usb.service")
readonly MODULES_FILE=/etc/modules-load.d/$NAME.conf
readonly POLKIT_RULE=/etc/polkit-1/rules.d/50-$NAME.rules
readonly LINK=/usr/local/bin/$NAME
readonly LINK_TARGET=$PREFIX/venv/bin/$NAME
readonly PARENTS_DIR=/boot/firmware/cobi

usage() {
    cat <<'EOF'
Usage: sudo systemd/uninstall.sh [--purge] [--root DIR] [--dry-run]

Stops and disables the cobi-companion service and removes its units (the service, the USB
settings stick's mount and its helper), the polkit rule, /opt/cobi-companion (the venv), the
link /usr/local/bin/cobi-companion and the user cobi (and with it its place in the groups it
was added to, bluetooth too). Keeps /etc/cobi-companion (config.toml, cards/),
/boot/firmware/cobi (the parents' folder), /var/lib/cobi-companion (the battles),
/var/cache/cobi-companion (the voice's phrases), the I2C/UART lines in config.txt and bluez
(a system package others may use).

  --purge      also remove /etc/cobi-companion, /boot/firmware/cobi, /var/lib/cobi-companion
               and /var/cache/cobi-companion
  --root DIR   remove from DIR instead of /; commands that cannot run there (systemctl,
               userdel) are printed, not run; symbolic links are never followed
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

# remove PATH: a file or a whole folder, when it is there. A symbolic link is removed itself (rm
# never follows it); under a link to a folder (outside the root, say) nothing is touched.
remove() {
    if ! inside_root "$1"; then
        say "skip $1: a folder on its way is a symbolic link, not followed out of $ROOT"
    elif [[ -e $1 || -L $1 ]]; then
        change "remove $1" rm -rf -- "$1"
    fi
}

if [[ -e $ROOT$UNIT_FILE ]]; then
    system systemctl disable --now "$NAME.service"
fi
enabled=()
for unit in "${STICK_UNITS[@]}"; do
    [[ ! -e $ROOT$UNIT_DIR/$unit ]] || enabled+=("$unit")
done
if ((${#enabled[@]})); then
    system systemctl disable --now "${enabled[@]}"
fi
for link in "${STICK_LINKS[@]}"; do
    remove "$ROOT$UNIT_DIR/$link"
done
for unit in "${STICK_UNITS[@]}"; do
    remove "$ROOT$UNIT_DIR/$unit"
done
# The stick's mount point, which systemd made for media-cobi.mount: only while it is empty (the
# stick is unmounted by now; anything someone put there stays).
if [[ -d $ROOT/media/cobi && ! -L $ROOT/media/cobi && -z $(ls -A -- "$ROOT/media/cobi") ]] &&
    inside_root "$ROOT/media/cobi"; then
    change "remove the stick's empty mount point $ROOT/media/cobi" rmdir -- "$ROOT/media/cobi"
fi
remove "$ROOT$UNIT_FILE"
remove "$ROOT$BACK_OFF"
# Its folder only when nothing else is in it (`systemctl edit` puts an override.conf there).
if [[ -d $ROOT$UNIT_FILE.d && ! -L $ROOT$UNIT_FILE.d && -z $(ls -A -- "$ROOT$UNIT_FILE.d") ]] &&
    inside_root "$ROOT$UNIT_FILE.d"; then
    change "remove the empty $ROOT$UNIT_FILE.d" rmdir -- "$ROOT$UNIT_FILE.d"
fi
system systemctl daemon-reload
remove "$ROOT$POLKIT_RULE"
if [[ -L $ROOT$LINK && $(readlink -- "$ROOT$LINK") == "$LINK_TARGET" ]]; then
    remove "$ROOT$LINK"
elif [[ -e $ROOT$LINK || -L $ROOT$LINK ]]; then
    say "keep $ROOT$LINK: not the link to $LINK_TARGET"
fi
remove "$ROOT$PREFIX"
remove "$ROOT$MODULES_FILE"
if has_user "$SERVICE_USER"; then
    # userdel also takes cobi out of every group it was added to (gpio, ..., bluetooth).
    system userdel "$SERVICE_USER"
fi
say "keep bluez and its group bluetooth: a system package others may use"
if ((PURGE)); then
    remove "$ROOT$CONF_DIR"
    remove "$ROOT$PARENTS_DIR"
    remove "$ROOT$STATE_DIR"
    remove "$ROOT$CACHE_DIR"
else
    say "keep $ROOT$CONF_DIR and $ROOT$PARENTS_DIR (config and cards), $ROOT$STATE_DIR" \
        "(battles) and $ROOT$CACHE_DIR (the voice's phrases): --purge removes them"
fi
say "keep the I2C and UART settings in config.txt"
