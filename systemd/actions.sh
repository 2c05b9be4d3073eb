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

# The options both scripts take: --dry-run, --root DIR (or --root=DIR), -h/--help; anything
# else stops with one line. USED is set to the number of words taken.
# shellcheck disable=SC2034  # USED is read by the caller's loop
common_option() {
    local script=$1
    shift
    USED=1
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --root)
            (($# >= 2)) || { echo "$script: --root needs a folder" >&2; exit 2; }
            ROOT=$2
            USED=2
            ;;
        --root=*) ROOT=${1#--root=} ;;
        -h | --help) usage; exit 0 ;;
        *) echo "$script: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
}
