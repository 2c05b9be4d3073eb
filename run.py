#!/usr/bin/env python3
"""Set up the project in ./.venv (once, and again when pyproject.toml changes), then run it.

    python3 run.py [ARGS...]   run the companion (`cobi-companion ARGS...`)
    python3 run.py test        lint (ruff), type-check rules/ (mypy), run every test (pytest)
    python3 run.py bench       run the benchmarks in bench/ (installs icepool for the comparison)

Needs only Python 3.11 or newer with its standard `venv` module.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


def venv_python() -> Path:
    return BIN / ("python.exe" if os.name == "nt" else "python")


def ensure_venv(extras: str) -> None:
    """Create .venv and install the project (editable) with the given extras, if not current."""
    stamp = VENV / f".installed-{extras or 'base'}"
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == wanted and venv_python().exists():
        return
    if not venv_python().exists():
        print("Creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    target = f".[{extras}]" if extras else "."
    print(f"Installing cobi-companion{f'[{extras}]' if extras else ''} into .venv ...", flush=True)
    subprocess.run(
        [str(venv_python()), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "-e", target],
        cwd=ROOT, check=True,
    )
    stamp.write_text(wanted)


def run_tests() -> int:
    ensure_venv("dev")
    steps = [
        ("ruff", [str(BIN / "ruff"), "check", "."]),
        ("mypy", [str(BIN / "mypy"), "rules"]),
        ("pytest", [str(venv_python()), "-m", "pytest"]),
    ]
    for name, cmd in steps:
        print(f"== {name}: {' '.join(Path(c).name if i == 0 else c for i, c in enumerate(cmd))}",
              flush=True)
        code = subprocess.run(cmd, cwd=ROOT).returncode
        if code == 5 and name == "pytest":
            print("pytest collected no tests: that is a failure here", file=sys.stderr)
            return 1
        if code != 0:
            return code
    return 0


def run_bench(args: list[str]) -> int:
    ensure_venv("bench")
    return subprocess.run([str(venv_python()), str(ROOT / "bench" / "run.py"), *args],
                          cwd=ROOT).returncode


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):  # noqa: UP036 - say so clearly on an older Python
        sys.exit(f"cobi-companion needs Python 3.11 or newer (this is {sys.version.split()[0]})")
    if argv[:1] == ["test"]:
        return run_tests()
    if argv[:1] == ["bench"]:
        return run_bench(argv[1:])
    ensure_venv("")
    exe = BIN / ("cobi-companion.exe" if os.name == "nt" else "cobi-companion")
    try:
        return subprocess.run([str(exe), *argv], cwd=ROOT).returncode
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
