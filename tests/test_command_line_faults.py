"""The command line never prints a traceback (issue 31), run as a person runs it: real
processes, their standard output or input closed by a real shell (`>&-`, `<&-`), a value of
5,000 digits, a card whose name holds terminal escape codes, a file saved with a BOM.

Every command of the parser is tried with its output closed: the commands are enumerated from
`build_parser()` itself, so that a new one fails `test_every_command_is_tried_with_a_closed_stdout`
until it has a row here or in tests/test_entry_points.py's REAL_RUNS (whose real run of each
command, its output open, is followed there by the same command with its output closed)."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "cobi_companion.device.cli"]
DIGITS = "9" * 5000
SIGPIPE_EXIT = 141


def _entry_points() -> Any:
    spec = importlib.util.spec_from_file_location(
        "entry_points_runs", Path(__file__).with_name("test_entry_points.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ENTRY_POINTS = _entry_points()


# The commands test_entry_points runs elsewhere: `run` is the daemon (it writes to its
# journal, never to standard output: its refusal of a settings file that is not there is
# what it says), `range` has no sensor here (its refusal), `speech render` renders into a
# cache of its own.
OTHER_RUNS = {
    "run": ["run", "--config", "{tmp}/none.toml"],
    "sim": ["sim", "--keys", "ok"],
    "play": ["play"],
    "range": ["range", "--model", "a02yyuw", "--port", "{tmp}/no-such-port"],
    "speech render": ["speech", "render", "--cache", "{tmp}/voice", "--language", "en"],
}
# The commands tried here with their output open and closed; test_entry_points tries REAL_RUNS'.
RUNS = {**ENTRY_POINTS.REAL_RUNS, **OTHER_RUNS}


def parser_commands() -> set[str]:
    """Every command of the real parser, a command of subcommands by its subcommands."""
    import argparse

    from cobi_companion.device.cli import build_parser

    def commands(parser: argparse.ArgumentParser, prefix: str) -> set[str]:
        found: set[str] = set()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    built = sub.built() if hasattr(sub, "built") else sub
                    below = commands(built, f"{prefix}{name} ")
                    found |= below or {f"{prefix}{name}"}
        return found
    return commands(build_parser(), "")


# Puts the card snapshots of a first run in a cache folder (tests/conftest.py `checked_cards`):
# every home here starts with them, and its commands read the shipped cards from them instead
# of each checking them again.
SEED: list[Callable[[Path], None]] = []


@pytest.fixture(autouse=True)
def _first_run_snapshots(checked_cards: Callable[[Path], None]) -> None:
    SEED[:] = [checked_cards]


def shell(script: str, argv: list[str], tmp: Path,
          stdin: str = "") -> subprocess.CompletedProcess[str]:
    """`CLI argv` inside a real shell `script` ("$@" is the command, $0 the folder `tmp`/cards),
    in `tmp`'s home (its cache holding the card snapshots of a first run)."""
    SEED[0](tmp / "cache")
    env = {**os.environ, "HOME": str(tmp), "XDG_DATA_HOME": str(tmp / "data"),
           "XDG_CACHE_HOME": str(tmp / "cache"), "XDG_CONFIG_HOME": str(tmp / "config")}
    return subprocess.run(["bash", "-c", script, str(tmp / "cards"), *CLI, *argv], input=stdin,
                          capture_output=True, text=True, timeout=180, cwd=tmp, env=env)


def filled(argv: list[str], tmp: Path) -> list[str]:
    return [word.replace("{tmp}", str(tmp)) for word in argv]


def test_every_command_is_tried_with_a_closed_stdout() -> None:
    named = {name for name in RUNS if name != "a refusal"}
    assert parser_commands() <= named


@pytest.mark.long
@pytest.mark.parametrize("name", OTHER_RUNS)
def test_a_command_with_its_output_closed_ends_quietly(name: str, tmp_path: Path) -> None:
    argv = filled(OTHER_RUNS[name], tmp_path)
    (tmp_path / "open").mkdir()
    (tmp_path / "closed").mkdir()
    open_ = shell('exec "$@"', argv, tmp_path / "open", stdin="ok\n")
    done = shell('exec "$@" >&-', argv, tmp_path / "closed", stdin="ok\n")
    # nowhere to write: ended at its first write, saying nothing more; or, for a command that
    # writes to standard error only (a refusal), as it was
    ENTRY_POINTS.assert_ended_quietly(open_.returncode, open_.stdout, open_.stderr, done)


def test_a_reader_that_takes_nothing_ends_the_command_quietly(tmp_path: Path) -> None:
    done = shell('set -o pipefail; "$@" | head -c0', ["cards", "list"], tmp_path)
    assert (done.returncode, done.stderr) == (SIGPIPE_EXIT, "")


def test_a_refusal_with_standard_error_closed_ends_quietly(tmp_path: Path) -> None:
    done = shell('exec "$@" 2>&-', ["cards", "show", "99999"], tmp_path)
    assert (done.returncode, done.stdout) == (2, "")         # refused; nowhere to say why


def test_a_warning_with_standard_error_closed_leaves_the_output_whole(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "bad.toml").write_text('id = "x"\nname = 5\n')     # warned of on stderr
    done = shell('exec "$@" 2>&-', ["--cards", str(cards), "cards", "list"], tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stdout
    assert "2477" in done.stdout and "Tiger" in done.stdout


@pytest.mark.parametrize("argv", [["play"], ["sim"]], ids=["play", "sim"])
def test_the_box_in_the_terminal_with_its_input_closed_starts_and_ends(
        argv: list[str], tmp_path: Path) -> None:
    done = shell('exec "$@" <&-', argv, tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "SAFE TO UNPLUG" in done.stdout or "█" in done.stdout     # its last frame


def test_a_die_asked_for_with_input_closed_is_refused_in_one_line(tmp_path: Path) -> None:
    done = shell('exec "$@" <&-', ["reload", "--card", "2477", "--dice", "ask"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.endswith("(1-6): cobi-companion: no face given for reload\n")


DIGIT_VALUES = {
    "cobra command --limit": ["cobra", "command", "--turn", "5", "--limit", f"us={DIGITS}"],
    "cobra command --made": ["cobra", "command", "--turn", "5", "--limit", "us=4,british=3",
                             "--made", f"us=1/{DIGITS}"],
    "cobra points --flown": ["cobra", "points", "--turn", "16", "--weather", "clear",
                             "--phase", "german", "--flown", DIGITS],
    "cobra vp --exits": ["cobra", "vp", "--scenario", "campaign", "--turn", "21", "--event",
                         "exit:us:west:mech_division", "--exits", f"{DIGITS}:us:west"],
    "cobra landing --terrain": ["cobra", "landing", "attrition", "--target", "6th",
                                "--terrain", DIGITS, "--dice", "3"],
    "cobra command --turn": ["cobra", "command", "--turn", DIGITS],
}


@pytest.mark.parametrize("name", DIGIT_VALUES)
def test_a_value_of_5000_digits_is_refused_in_one_short_line(name: str,
                                                              tmp_path: Path) -> None:
    done = shell('exec "$@"', DIGIT_VALUES[name], tmp_path)
    option = name.split()[-1]
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert option in done.stderr and "9" * 50 not in done.stderr   # repeated cut short


def test_a_number_python_cannot_read_is_one_line_wherever_it_comes_from() -> None:
    # The last net: should a value ever reach int() unread by rules.numbers, Python's refusal
    # is said as the files say it, exit 2, in the same process as the commands run.
    from cobi_companion.device.cli import _refusal, _said

    with pytest.raises(ValueError) as caught:
        int(DIGITS)
    assert _refusal(caught.value)
    assert _said(caught.value) == (f"a whole number of more than {sys.get_int_max_str_digits()}"
                                   f" digits; allowed: a number of at most "
                                   f"{sys.get_int_max_str_digits()} digits")
    assert not _refusal(ValueError("something else"))


ESCAPES = "Bad\x1b[2J\x1b]0;owned\x07\u202eName\x9b\x7f"


def escape_card(folder: Path) -> Path:
    folder.mkdir(parents=True)
    path = folder / "esc.toml"
    path.write_text(f'id = "esc"\nname = {json.dumps(ESCAPES)}\nlabel = "X\\u001b[31m"\n')
    return path


def controls(text: str) -> set[str]:
    return {c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f
            or c == "\u202e"}


@pytest.mark.parametrize("argv", [["cards", "list"], ["cards", "show", "esc"],
                                  ["cards", "show", "esc", "--json"], ["cards", "check"]],
                         ids=["list", "show", "show --json", "check"])
def test_a_card_name_with_escape_codes_never_reaches_the_terminal(argv: list[str],
                                                                 tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    escape_card(cards)
    (cards / "esc2.toml").write_text(f'id = "esc"\nname = {json.dumps(ESCAPES)}\n')
    (cards / "e\x1b[2Jsc.toml").write_text('id = "esc3"\n')        # a file's name too
    done = shell('exec "$@"', ["--cards", str(cards), *argv], tmp_path)
    assert "Traceback" not in done.stderr
    assert not controls(done.stdout + done.stderr)
    if "--json" in argv:                  # the data is the same: JSON's own escapes
        assert json.loads(done.stdout)["name"] == ESCAPES
    elif argv[1] == "check":
        assert "e\\x1b[2Jsc.toml: name: is missing" in done.stdout
    else:
        assert "Bad\\x1b[2J" in done.stdout           # the list's column keeps its first letters
    if argv[1:] == ["show", "esc"]:
        assert "Bad\\x1b[2J\\x1b]0;owned\\x07\\u202eName\\x9b\\x7f" in done.stdout


def test_the_terminal_simulator_shows_a_card_s_escape_codes_as_text(tmp_path: Path) -> None:
    from cobi_companion.device.ports.terminal import wrapped

    rows = wrapped(["[ Armies ]", f"> {ESCAPES}"], 60)
    assert not controls("".join(rows)) and rows[1].startswith("> Bad\\x1b[2J")
    # the box as text (`play`), its armies' list naming the card by its label, and its log
    # on the terminal naming a card file it skipped
    cards = tmp_path / "cards"
    escape_card(cards)
    (cards / "e\x1b[2Jsc.toml").write_text('id = "esc3"\n')
    done = shell('COBI_COMPANION_CARDS="$0" exec "$@"', ["play"], tmp_path,
                 stdin="back\nok\n")                # past the card files' screen
    assert done.returncode == 0, done.stderr
    assert "X\\x1b[31m" in done.stdout and not controls(done.stdout + done.stderr)
    assert "e\\x1b[2Jsc.toml: name: is missing" in done.stderr


def test_a_card_file_saved_with_a_bom_is_read(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "bom.toml").write_bytes(b'\xef\xbb\xbfid = "bom"\nname = "Saved by Notepad"\n')
    done = shell('exec "$@"', ["cards", "check", str(cards / "bom.toml")], tmp_path)
    assert (done.returncode, done.stdout) == (0, "1 card ok, 0 problems\n"), done.stdout
