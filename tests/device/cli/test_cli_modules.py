"""A command imports its own module and none of the other commands': its options are added by
its own module when its parser is first used, and the other commands' are never built (a real
process, its modules listed after the command has run)."""
from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from cobi_companion.device import cli

RUN = """
import contextlib, io, json, sys
from cobi_companion.device.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = main(sys.argv[1:])
    except SystemExit as exit_:
        code = exit_.code
print(json.dumps([code, sorted(sys.modules)]))
"""

TABLE = (*cli.COMMANDS, *cli.COBRA_COMMANDS, *cli.SPEECH_COMMANDS)


def modules_of(command: cli.Command) -> set[str]:
    """The modules a command's row names: where its options are added and where it runs."""
    named = {f"{cli.__name__}.{command.runs.rpartition('.')[0]}"}
    arguments: Any = command.arguments
    if isinstance(arguments, str):
        named.add(f"{cli.__name__}.{arguments.rpartition('.')[0]}")
    elif arguments.__module__ != cli.__name__:      # a function of another module
        named.add(arguments.__module__)
    return named


# One command of each command module, run for real: (its arguments, its exit code).
RUNS = {
    "fire": (["odds", "--rules", "tank", "--attacker", "2477", "--target", "2477",
              "--facing", "front"], 0),
    "moves": (["move", "--card", "2477"], 0),
    "cards": (["cards", "list"], 0),
    "box": (["play"], 0),                      # no keys: the box starts and is put away
    "cobra": (["cobra", "odds", "--attack", "12", "--defence", "4"], 0),
    "cobra_command": (["cobra", "command", "--turn", "5", "--limit", "us=4,british=3"], 0),
    "cobra_victory": (["cobra", "vp", "--scenario", "cobra", "--turn", "20", "--event",
                       "allied_hq"], 0),
    "cobra_movement": (["cobra", "ma", "--printed", "6", "--nation", "us"], 0),
    "cobra_landing": (["cobra", "landing", "scatter", "--division", "82nd", "--dice", "3"], 0),
    "cobra_turn": (["cobra", "turn", "--turn", "2"], 0),
    "speech": (["speech", "say", "--help"], 0),
}


def test_every_command_module_is_run_here() -> None:
    assert {m.rpartition(".")[2] for c in TABLE for m in modules_of(c)} == set(RUNS)


@pytest.mark.parametrize("module", sorted(RUNS))
def test_a_command_imports_none_of_the_other_commands_modules(module: str) -> None:
    argv, expected = RUNS[module]
    out = subprocess.run([sys.executable, "-c", RUN, *argv], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, check=True, timeout=120).stdout
    code, imported = json.loads(out)
    own = f"{cli.__name__}.{module}"
    others = {m for c in TABLE for m in modules_of(c)} - {own}
    assert code == expected
    assert own in imported
    assert sorted(others & set(imported)) == []
