# Shared by install.sh and uninstall.sh (sourced): how each action is printed and done.
# shellcheck shell=bash

say() { printf '%s\n' "$*"; }

# A change to the files: made and printed, or only printed with --dry-run.
change() {
    local what=$1
    shift
    if ((DRY_RUN)); then
        say "would $what"
    else
        say "$what"
        "$@"
    fi
}

# A command on the running system: run and printed, or only printed under --root or --dry-run.
system() {
    local arg line=""
    for arg in "$@"; do
        if [[ $arg =~ ^[[:alnum:]_./=:,+@%-]+$ ]]; then
            line+=" $arg"
        else
            line+=" '${arg//\'/\'\\\'\'}'"
        fi
    done
    if ((DRY_RUN)) || [[ -n $ROOT ]]; then
        say "would run:$line"
    else
        say "run:$line"
        "$@"
    fi
}

# After the options: refuse to touch the system without root (unless only printing), and
# make ROOT absolute ("" for /).
settle_root() {
    local script=$1
    if [[ -z $ROOT && $DRY_RUN -eq 0 && $EUID -ne 0 ]]; then
        echo "$script: needs root: sudo $0 (or --dry-run to only see what it would do)" >&2
        exit 1
    fi
    if [[ -n $ROOT ]]; then
        [[ -d $ROOT ]] || { echo "$script: --root $ROOT is not a folder" >&2; exit 2; }
        ROOT=$(cd -- "$ROOT" && pwd)
        [[ $ROOT != / ]] || ROOT=""
    fi
}
