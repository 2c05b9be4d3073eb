#!/usr/bin/env python3
"""Set up the project in ./.venv (once, and again when pyproject.toml changes), then run it.

    python3 run.py [ARGS...]   run the companion (`cobi-companion ARGS...`)
    python3 run.py test        lint (ruff), type-check rules/, cards/ and device/ (mypy), run
                               every test (pytest)
    python3 run.py bench       run the benchmarks in bench/ (installs icepool for the comparison)

Needs only Python 3.11 or newer with its standard `venv` module. On a Raspberry Pi the venv
also sees the system's packages, for apt's python3-lgpio (PyPI has no working lgpio for most
Pis), and the box is not started without a working lgpio.
"""
from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
# Where a Raspberry Pi names itself ("Raspberry Pi 4 Model B Rev 1.4"); another file for tests.
DEVICE_MODEL = Path(os.environ.get("COBI_DEVICE_MODEL", "/proc/device-tree/model"))
LGPIO_ADVICE = "sudo apt install python3-lgpio python3-gpiozero"
# Prints lgpio's state as the venv's Python sees it (systemd/actions.sh asks the same of the
# service's venv).
LGPIO_PROBE = ROOT / "systemd" / "lgpio_probe.py"


def venv_python() -> Path:
    return BIN / ("python.exe" if os.name == "nt" else "python")


def on_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in DEVICE_MODEL.read_bytes().decode(errors="replace").lower()
    except OSError:
        return False


def venv_builder(on_pi: bool) -> venv.EnvBuilder:
    """How .venv is made: on a Pi over the system's packages, so that apt's python3-lgpio is
    seen; elsewhere on its own."""
    return venv.EnvBuilder(with_pip=True, system_site_packages=on_pi)


def see_system_packages(folder: Path) -> bool:
    """Turn on include-system-site-packages in the venv's pyvenv.cfg; True if it was off."""
    cfg = folder / "pyvenv.cfg"
    if not cfg.is_file():
        return False
    text = cfg.read_text()
    key = re.compile(r"^(include-system-site-packages\s*=\s*)(\S*)\s*$", re.M | re.I)
    found = key.search(text)
    if found and found[2].lower() == "true":
        return False
    if found:
        text = key.sub(r"\g<1>true", text, count=1)
    else:
        text += ("" if text.endswith("\n") or not text else "\n") + \
            "include-system-site-packages = true\n"
    cfg.write_text(text)
    return True


def ensure_venv(extras: str) -> None:
    """Create .venv and install the project (editable) with the given extras, if not current."""
    on_pi = on_raspberry_pi()
    if on_pi and venv_python().exists() and see_system_packages(VENV):
        print(".venv now sees the system's packages (include-system-site-packages = true in "
              ".venv/pyvenv.cfg): on a Raspberry Pi lgpio comes from apt's python3-lgpio",
              flush=True)
    stamp = VENV / f".installed-{extras or 'base'}"
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    # The plain companion is in every install: any current stamp will do for it.
    stamps = [stamp] if extras else sorted(VENV.glob(".installed-*"))
    if venv_python().exists() and any(s.read_text() == wanted for s in stamps if s.is_file()):
        return
    if not venv_python().exists():
        print("Creating .venv ...", flush=True)
        venv_builder(on_pi).create(VENV)
    target = f".[{extras}]" if extras else "."
    print(f"Installing cobi-companion{f'[{extras}]' if extras else ''} into .venv ...", flush=True)
    subprocess.run(
        [str(venv_python()), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "-e", target],
        cwd=ROOT, check=True,
    )
    stamp.write_text(wanted)


def lgpio_state() -> tuple[str, str, str]:
    """(state, where, file) of lgpio in .venv: state real, placeholder, broken or missing."""
    words = subprocess.run([str(venv_python()), str(LGPIO_PROBE)], capture_output=True,
                           text=True).stdout.split(maxsplit=2)
    state, where, origin = [*words, "", "", ""][:3]
    return state or "missing", where, origin.strip()


def lgpio_problem() -> str | None:
    """Why the box cannot read its pins from .venv, or None when lgpio works. PyPI's empty
    placeholder in .venv is removed first, so that apt's python3-lgpio shows through."""
    state, where, origin = lgpio_state()
    if state == "placeholder" and where == "venv":
        print(f"Removing PyPI's empty lgpio 0.0.0.2 from .venv ({origin}) ...", flush=True)
        subprocess.run([str(venv_python()), "-m", "pip", "uninstall", "--yes", "--quiet",
                        "--disable-pip-version-check", "lgpio"], check=False)
        state, where, origin = lgpio_state()
    if state == "real":
        return None
    found = f"lgpio {state}" + (f": {origin}" if origin else "")
    return (f"run.py: .venv has no working lgpio ({found}), so the box cannot read its pins: "
            f"{LGPIO_ADVICE} (Raspberry Pi OS), then python3 run.py again")


def runs_the_box(argv: list[str], on_pi: bool) -> bool:
    """Whether `cobi-companion ARGV` drives the pins: `run`, or no command at all on a Pi."""
    if "-h" in argv or "--help" in argv:
        return False
    words = iter(argv)
    for word in words:
        if word == "--cards":
            next(words, None)
        elif not word.startswith("-"):
            return word == "run"
    return on_pi


# The package maps folders to names (rules/ is cobi_companion.rules, ...), which mypy cannot
# read from pyproject.toml. A tree of links inside .venv gives it the names the code imports
# itself by, so every module is checked once, under its own name.
TYPECHECK = VENV / "typecheck"
PACKAGES = ("rules", "cards", "device")


def typecheck_tree() -> Path:
    """.venv/typecheck/cobi_companion/{rules,cards,device}, linked to the folders here."""
    package = TYPECHECK / "cobi_companion"
    package.mkdir(parents=True, exist_ok=True)
    for name in PACKAGES:
        link = package / name
        if not link.is_symlink() or link.resolve() != ROOT / name:
            if link.is_symlink():
                link.unlink()
            link.symlink_to(ROOT / name, target_is_directory=True)
    return TYPECHECK


def run_tests() -> int:
    ensure_venv("dev")
    mypy_path = typecheck_tree()
    steps = [
        ("ruff", [str(BIN / "ruff"), "check", "."]),
        ("mypy", [str(BIN / "mypy"), "--config-file", str(ROOT / "pyproject.toml"),
                  "-p", "cobi_companion"]),
        ("pytest", [str(venv_python()), "-m", "pytest"]),
    ]
    for name, cmd in steps:
        print(f"== {name}: {' '.join(Path(c).name if i == 0 else c for i, c in enumerate(cmd))}",
              flush=True)
        env = {**os.environ, "MYPYPATH": str(mypy_path)} if name == "mypy" else None
        code = subprocess.run(cmd, cwd=ROOT, env=env).returncode
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
    if on_raspberry_pi() and runs_the_box(argv, on_pi=True):
        problem = lgpio_problem()
        if problem:
            print(problem, file=sys.stderr)
            return 1
    exe = BIN / ("cobi-companion.exe" if os.name == "nt" else "cobi-companion")
    try:
        return subprocess.run([str(exe), *argv], cwd=ROOT).returncode
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
