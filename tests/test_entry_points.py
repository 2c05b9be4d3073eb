"""The README's own command and the command with no arguments, run as a person runs them: real
processes, nothing injected. (`run` under systemd: tests/device/test_systemd_run.py; every
other command has its own real-process tests beside its module's.)"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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
