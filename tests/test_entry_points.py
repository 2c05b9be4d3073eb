"""The README's own command and the command with no arguments, run as a person runs them: real
processes, nothing injected, from an empty cache as at a first start; and every command of the
table as a real process, with its output open and then closed. (`run` under systemd:
tests/device/test_systemd_run.py; every other command has its own real-process tests beside
its module's.)"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
OUT_WAV = Path(tempfile.gettempdir()) / f"cobi-companion-say-{os.getpid()}.wav"


def test_python3_run_py_runs_the_simulator_off_a_pi(tmp_path: Path) -> None:
    # Off a Pi, `python3 run.py` is the simulator; without a terminal it reads its keys from
    # standard input and prints the last frame.
    done = subprocess.run([sys.executable, str(ROOT / "run.py")], input="cw\nok\n",
                          capture_output=True, text=True, timeout=180, cwd=tmp_path,
                          env={**os.environ, "COBI_DEVICE_MODEL": str(tmp_path / "none"),
                               "XDG_DATA_HOME": str(tmp_path / "data")})
    assert done.returncode == 0, done.stderr
    frame = done.stdout.splitlines()[-32:]
    assert len(frame) == 32 and all(len(line) == 128 for line in frame)
    assert (tmp_path / "data" / "cobi-companion" / "sim" / "battles.db").is_file()


def test_the_command_with_no_arguments_is_the_simulator_off_a_pi(cli_path: str,
                                                                 tmp_path: Path) -> None:
    done = subprocess.run([cli_path], input="ok\n", capture_output=True, text=True,
                          timeout=60, env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 32


# One real run of every command of the command table, with nothing injected: the command tests
# elsewhere go through `main` in the test process (tests/conftest.py `run_cli`), and this
# shows that a real process prints exactly what they see. `run`, `sim`, `play` and `range` have
# their own real-process tests (test_systemd_run, test_daemon, test_play, test_range_reader).
REAL_RUNS = {
    "resolve": ["resolve", "--rules", "tank", "--attacker", "2464", "--target", "2477",
                "--facing", "rear", "--dice", "3,5,3,6,4,4,6,3,1,2,4,4,2"],
    "odds": ["odds", "--rules", "easy", "--attacker", "2464", "--target", "2477", "--facing",
             "side", "--json"],
    "move": ["move", "--card", "2464", "--moved", "6", "--turns", "2", "--rough"],
    "reload": ["reload", "--card", "2477", "--dice", "4"],
    "initiative": ["initiative", "--dice", "4,4,2,5"],
    "overrun": ["overrun", "--tank", "2477", "--under", "rifleman:2@wall", "--dice", "5,2"],
    "spot": ["spot", "--spotter", "2477", "--spotter-status", "commander_out", "--hidden",
             "rifleman", "--distance-cm", "35", "--binoculars", "--json"],
    "cards": ["cards", "show", "2464"],
    "cobra odds": ["cobra", "odds", "--attack", "12", "--defence", "1", "--shift",
                   "hq:+1,patton:+1,terrain:-3,hq:-1"],
    "cobra roll": ["cobra", "roll", "--attack", "26", "--defence", "9", "--dice", "4"],
    "cobra weather": ["cobra", "weather", "--turn", "21", "--history", "clear,clear,clear",
                      "--dice", "5", "--json"],
    "cobra crt": ["cobra", "crt", "check", str(ROOT / "cards" / "cobra" / "tables.toml")],
    "cobra victory": ["cobra", "victory", "--scenario", "buildup", "--objectives", "no",
                      "--german-vp", "-15", "--allied-vp", "20", "--json"],
    "cobra points": ["cobra", "points", "--turn", "16", "--weather", "clear", "--phase",
                     "german", "--air-used", "1", "--json"],
    "cobra command": ["cobra", "command", "--turn", "14", "--limit", "us=4,british=3",
                      "--made", "us=4/1", "--json"],
    "cobra vp": ["cobra", "vp", "--scenario", "campaign", "--turn", "21", "--event",
                 "exit:us:west:mech_division", "--json"],
    "cobra release": ["cobra", "release", "--turn", "23", "--first-us-exit", "21",
                      "--released", "1", "--dice", "2"],
    "cobra brest": ["cobra", "brest", "--turn", "27", "--dice", "3", "--json"],
    "cobra leclerc": ["cobra", "leclerc", "--dice", "1"],
    "cobra ma": ["cobra", "ma", "--printed", "6", "--nation", "german", "--weather", "clear",
                 "--increase", "third", "--dice", "2"],
    "cobra replacements": ["cobra", "replacements", "--turn", "16", "--side", "german",
                           "--carried", "mech=0.5", "--taken", "mech=1", "--json"],
    "cobra turn": ["cobra", "turn", "--turn", "3", "--rail", "mech", "--delays", "2,3",
                   "--json"],
    "cobra landing": ["cobra", "landing", "attrition", "--target", "juno", "--committed", "2",
                      "--dice", "3", "--json"],
    "speech say": ["speech", "say", "Tiger jeden trafia!", "--language", "pl", "--out",
                   str(OUT_WAV)],
    "speech check": ["speech", "check"],
    "a refusal": ["resolve", "--attacker", "9999", "--target", "2477", "--facing", "front"],
}
# speech render: its output has the time it took (tests/device/ports/test_voice.py runs it).
ELSEWHERE = {"run", "sim", "play", "range", "speech render"}


def test_every_command_of_the_table_has_a_real_run() -> None:
    from cobi_companion.device.cli import COBRA_COMMANDS, COMMANDS, SPEECH_COMMANDS

    names = {c.name for c in COMMANDS if c.name not in ("cobra", "speech")}
    names |= {f"cobra {c.name}" for c in COBRA_COMMANDS}
    names |= {f"speech {c.name}" for c in SPEECH_COMMANDS}
    assert names - ELSEWHERE <= set(REAL_RUNS)


SIGPIPE_EXIT = 141


def output_closed(command: list[str]) -> subprocess.CompletedProcess[str]:
    """`command` with its standard output closed by a real shell (`>&-`)."""
    return subprocess.run(["bash", "-c", 'exec "$@" >&-', "closed", *command], input="",
                          capture_output=True, text=True, timeout=180)


def assert_ended_quietly(code: int, out: str, err: str,
                         closed: subprocess.CompletedProcess[str]) -> None:
    """`closed`, a command run with its output closed, beside the same command run with it
    open (`code`, `out`, `err`): no traceback; a command that writes ended at its first write,
    saying nothing more; one that writes to standard error only (a refusal) as it was."""
    assert "Traceback" not in closed.stderr and "Traceback" not in err
    if out:
        assert closed.returncode == SIGPIPE_EXIT, closed.stderr
        assert err.startswith(closed.stderr)
    else:
        assert (closed.returncode, closed.stderr) == (code, err)


# Each run's cache folder holds the card snapshots of a first run (tests/conftest.py): the
# real processes read the shipped cards from them, as every start after the first does (the
# two runs above start as a first run does, with an empty cache folder).
@pytest.mark.usefixtures("checked_cards")
@pytest.mark.parametrize("argv", REAL_RUNS.values(), ids=REAL_RUNS.keys())
def test_a_real_process_prints_what_the_command_tests_see(argv: list[str], cli: Any,
                                                          cli_process: Any,
                                                          cli_path: str) -> None:
    real, inside = cli_process(*argv), cli(*argv)
    assert (real.code, real.out, real.err) == (inside.code, inside.out, inside.err)
    assert real.out or real.err
    assert "Traceback" not in real.err
    # The same command with its output closed (tests/test_command_line_faults.py tries every
    # command so; this run with its output open is the one it is held against).
    assert_ended_quietly(real.code, real.out, real.err, output_closed([cli_path, *argv]))
