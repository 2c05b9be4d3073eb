# Shared by install.sh and uninstall.sh (sourced): how each action is printed and done, the
# options and the root, the check of the venv's lgpio. The tests source it too.
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
    # An empty --root would mean this machine's own /: say --root / for that, or leave it out.
    if [[ $1 == --root* && -z $ROOT ]]; then
        echo "$script: --root is empty (for this machine itself leave --root out)" >&2
        exit 2
    fi
}

# True when PATH (under ROOT) is reached without following a symbolic link: no folder between
# ROOT and PATH is one, so removing PATH (a link itself at most) stays inside ROOT. Always true
# without --root, where /bin and the like are links on purpose.
inside_root() {
    local rest=${1#"$ROOT"} here=$ROOT part
    [[ -n $ROOT ]] || return 0
    [[ $1 == "$ROOT"/* ]] || return 1
    rest=${rest#/}
    while [[ $rest == */* ]]; do
        part=${rest%%/*}
        rest=${rest#*/}
        here+=/$part
        [[ -L $here ]] && return 1
    done
    return 0
}

# link_on_way PATH: print the first symbolic link between ROOT and PATH, PATH itself included,
# and be true when there is one.
link_on_way() {
    local rest=${1#"$ROOT"} here=$ROOT part
    rest=${rest#/}
    while [[ -n $rest ]]; do
        part=${rest%%/*}
        if [[ $rest == */* ]]; then rest=${rest#*/}; else rest=""; fi
        here+=/$part
        if [[ -L $here ]]; then
            say "$here"
            return 0
        fi
    done
    return 1
}

# refuse_links SCRIPT PATH...: under --root, stop with one line when a PATH the script writes, or
# a folder on the way to it, is a symbolic link. Such a link may point anywhere (an absolute
# path, or out through ..): the scripts never write through one, so nothing outside the root is
# ever changed. Nothing without --root, where /bin and the like are links on purpose.
refuse_links() {
    local script=$1 path link
    shift
    [[ -n $ROOT ]] || return 0
    for path in "$@"; do
        if link=$(link_on_way "$path"); then
            echo "$script: $link is a symbolic link (to $(readlink -- "$link")); under --root" \
                "nothing is written through one: make it a real folder or file" >&2
            exit 1
        fi
    done
}

# The word size of PYTHON's own build: 32 or 64. Not uname -m, nor pip's platform_machine
# marker: a 32-bit Raspberry Pi OS on a Pi 4 or 5 runs a 64-bit kernel, and both say aarch64.
python_bits() {
    "$1" -c 'import struct; print(8 * struct.calcsize("P"))'
}

# companion_extras BITS: the extras pip installs the companion with. The voice's eSpeak NG wheel
# (espeakng-loader) has no 32-bit build: a 32-bit Python uses Debian's libespeak-ng1 instead.
# Nor has the smart dice's D-Bus library (dbus-fast, under bleak): a 32-bit system has no smart
# dice, and the box says so on Settings > Smart dice.
companion_extras() {
    if (($1 == 64)); then say "[voice,smart]"; fi
}

# The tag of constraints.txt's lines that a 32-bit Python leaves out (run.py's NOT_ON_32_BIT):
# PyPI has no armv7 wheel of those, and they come from apt (or piwheels) there.
readonly NOT_ON_32_BIT="# not on 32-bit:"

# write_constraints BITS FROM TO: the constraints pip uses, FROM as it is on 64-bit, without the
# lines tagged NOT_ON_32_BIT on 32-bit.
write_constraints() {
    if (($1 == 64)); then
        cat -- "$2" >"$3"
    else
        grep -vF -- "$NOT_ON_32_BIT" "$2" >"$3" || true
    fi
}

# lgpio as the venv's Python sees it (systemd/lgpio_probe.py, which run.py uses too).
LGPIO_PROBE=$(dirname -- "${BASH_SOURCE[0]}")/lgpio_probe.py
readonly LGPIO_PROBE

# venv_lgpio PYTHON SCRIPT: make the venv of PYTHON use a working lgpio. PyPI's placeholder in
# the venv is uninstalled, so that the system's python3-lgpio (seen through
# --system-site-packages) shows through; with no working lgpio left, stop with what to install.
venv_lgpio() {
    local python=$1 script=$2 state where origin
    read -r state where origin < <("$python" "$LGPIO_PROBE") || state=missing
    if [[ $state == placeholder && $where == venv ]]; then
        say "remove PyPI's empty lgpio 0.0.0.2 from the venv ($origin)"
        PIP_ROOT_USER_ACTION=ignore "$python" -m pip uninstall --yes --quiet \
            --disable-pip-version-check lgpio >/dev/null
        read -r state where origin < <("$python" "$LGPIO_PROBE") || state=missing
    fi
    if [[ $state == real ]]; then
        say "keep lgpio from $origin (the $where's)"
        return 0
    fi
    echo "$script: no working lgpio for the venv (lgpio $state${origin:+: $origin}):" \
        "sudo apt install python3-lgpio (Raspberry Pi OS repository; plain Debian has no" \
        "python3-lgpio, and its python3-gpiozero 1.6 is too old), then run $script again" >&2
    exit 1
}

# asks_for_mock_pins FILE: true when the settings file FILE says `[pins] factory = "mock"`
# (gpiozero's mock pins: a box that touches no GPIO, like the system test's); false when it
# does not, or is missing, or is no TOML.
asks_for_mock_pins() {
    [[ -f $1 ]] || return 1
    python3 -c 'import sys, tomllib
with open(sys.argv[1], "rb") as file:
    pins = tomllib.load(file).get("pins")
sys.exit(0 if isinstance(pins, dict) and pins.get("factory") == "mock" else 1)' "$1" 2>/dev/null
}
