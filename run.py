#!/usr/bin/env python3
"""Set up the project in ./.venv (once, and again when pyproject.toml changes), then run it.

    python3 run.py [ARGS...]   run the companion (`cobi-companion ARGS...`)
    python3 run.py test        lint (ruff), type-check rules/, cards/, device/ and the tests'
                               helpers (mypy) while every test runs on every core (pytest)
    python3 run.py bench       run the benchmarks in bench/ (installs icepool for the comparison)
    python3 run.py faults      the fault benchmark: pulled plugs, bad files, stick attacks and
                               failed saves, tried on the real box (bench/faults.py)
    python3 run.py clarity     how clearly the box speaks: a battle of each game said in the
                               simulator, scored by Debian's offline recogniser (pocketsphinx)
                               in word errors and dead air (bench/clarity.py; --voices);
                               exit 3 where pocketsphinx is not installed
    sudo python3 run.py system-test
                               install the committed tree with systemd/install.sh on a Debian 12
                               booted in QEMU and check it under systemd (tests/system/)
    python3 run.py lock        write constraints.txt anew: the newest versions pyproject.toml
                               allows, resolved in a clean venv (then run the tests)
    python3 run.py glyphs      draw the shipped reference glyphs again (after a change to how
                               glyphs are drawn, their faces or the fonts; then run the tests)
    python3 run.py sentences LANGUAGE
                               write every sentence the box shows or says in LANGUAGE, filled
                               with samples, for a native speaker (docs/sentences-pl.md)
    sudo python3 run.py os-check VARIANT
                               install and test the companion in an emulated Raspberry Pi OS
                               base: bookworm-arm64, trixie-arm64 or bookworm-armhf

Needs only Python 3.11 or newer with its standard `venv` module. On a Raspberry Pi the venv
also sees the system's packages, for apt's python3-lgpio (PyPI has no working lgpio for most
Pis), and the box is not started without a working lgpio. While pip installs, its progress is
shown: on a terminal one line, written over every second; elsewhere a line a package.
Every install takes the versions in constraints.txt (pip's -c): those the tests passed with.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
import venv
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, TextIO

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
# Where a Raspberry Pi names itself ("Raspberry Pi 4 Model B Rev 1.4"); another file for tests.
DEVICE_MODEL = Path(os.environ.get("COBI_DEVICE_MODEL", "/proc/device-tree/model"))
LGPIO_ADVICE = "sudo apt install python3-lgpio python3-gpiozero"
# Prints lgpio's state as the venv's Python sees it (systemd/actions.sh asks the same of the
# service's venv).
LGPIO_PROBE = ROOT / "systemd" / "lgpio_probe.py"
# The versions the tests passed with, kept by `python3 run.py lock`.
CONSTRAINTS = ROOT / "constraints.txt"
LOCK_EXTRAS = "dev,bench,voice,smart"
# A 32-bit Python (32-bit Raspberry Pi OS) takes these from elsewhere than PyPI, which has no
# armv7 wheel of them: their lines in constraints.txt carry this tag and are left out there.
NOT_ON_32_BIT = "# not on 32-bit:"
FROM_ELSEWHERE_ON_32_BIT = {
    "cbor2": "Debian's python3-cbor2 (cbor2 6 has no armv7 wheel, its source needs Rust)",
    "pillow": "Debian's python3-pil (Trixie) or piwheels' Pillow (Bookworm)",
}
# Of those, what pip cannot do without there (Pillow comes from piwheels, which Raspberry Pi OS's
# /etc/pip.conf names): the module and its apt package. The voice's libespeak-ng1 is advised too.
APT_ON_32_BIT = {"cbor2": "python3-cbor2"}
OS_CHECK = ROOT / "systemd" / "os-check.sh"


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


def sixty_four_bit() -> bool:
    """Whether this Python is a 64-bit build (.venv's is the same). Not platform.machine(), nor
    pip's platform_machine marker: a 32-bit Raspberry Pi OS on a Pi 4 or 5 runs a 64-bit
    kernel, and both say aarch64 there."""
    return sys.maxsize > 2**32


def install_extras(extras: str, wide: bool) -> str:
    """The extras to install for the command's `extras` ("dev", "bench" or ""): and, when the
    Python is 64-bit (`wide`), the voice's eSpeak NG wheel and the smart dice's Bluetooth
    library; a 32-bit one uses the system's libespeak-ng1, which the box finds by itself, and
    has no smart dice (dbus-fast has no 32-bit ARM wheel)."""
    return ",".join([*filter(None, extras.split(",")), *(["voice", "smart"] if wide else [])])


def constraints_for(wide: bool, folder: Path) -> Path:
    """constraints.txt as pip reads it here: whole for a 64-bit Python; for a 32-bit one
    without the lines tagged NOT_ON_32_BIT, a copy written into `folder`."""
    if wide:
        return CONSTRAINTS
    kept = [line for line in CONSTRAINTS.read_text().splitlines(keepends=True)
            if NOT_ON_32_BIT not in line]
    copy = folder / "constraints-32-bit.txt"
    copy.write_text("".join(kept))
    return copy


def apt_problem_on_32_bit() -> str | None:
    """What a 32-bit Raspberry Pi OS must take from apt before pip can install the companion
    (as install.sh does), or None: PyPI's cbor2 6 has no armv7 wheel and its source needs
    Rust. Asked of this Python, whose system packages .venv sees."""
    missing = [package for module, package in APT_ON_32_BIT.items()
               if importlib.util.find_spec(module) is None]
    if not missing:
        return None
    return (f"run.py: a 32-bit Python takes {', '.join(missing)} from Debian (PyPI's has no "
            f"armv7 wheel): sudo apt install {' '.join(missing)} libespeak-ng1 (the voice), "
            f"then python3 run.py again")


def install_key() -> str:
    """What an install is current with: pyproject.toml and constraints.txt."""
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()
                          + CONSTRAINTS.read_bytes()).hexdigest()


def ensure_venv(extras: str) -> None:
    """Create .venv and install the project (editable) with the given extras (and the voice's
    wheel on a 64-bit Python), at the versions of constraints.txt, if not current."""
    on_pi = on_raspberry_pi()
    if on_pi and venv_python().exists() and see_system_packages(VENV):
        print(".venv now sees the system's packages (include-system-site-packages = true in "
              ".venv/pyvenv.cfg): on a Raspberry Pi lgpio comes from apt's python3-lgpio",
              flush=True)
    stamp = VENV / f".installed-{extras or 'base'}"
    wanted = install_key()
    # The plain companion is in every install: any current stamp will do for it.
    stamps = [stamp] if extras else sorted(VENV.glob(".installed-*"))
    if venv_python().exists() and any(s.read_text() == wanted for s in stamps if s.is_file()):
        return
    wide = sixty_four_bit()
    if on_pi and not wide:
        problem = apt_problem_on_32_bit()
        if problem:
            sys.exit(problem)
    if not venv_python().exists():
        print("Creating .venv ...", flush=True)
        venv_builder(on_pi).create(VENV)
    chosen = install_extras(extras, wide)
    target = f".[{chosen}]" if chosen else "."
    what = f"cobi-companion{f'[{extras}]' if extras else ''}"
    print(f"Installing {what} into .venv (the first time takes a few minutes) ...", flush=True)
    # The test command's install compiles nothing: pip would compile every module of every
    # package (mypy's, hypothesis'...) on one core, while the tests compile the ones they
    # import on all of them. The box's own install compiles, for its first start.
    compiling = "--no-compile" if "dev" in extras.split(",") else "--compile"
    pip_install(venv_python(), ["-e", target, "-c", str(constraints_for(wide, VENV)),
                                compiling], what)
    stamp.write_text(wanted)


class PipStep(NamedTuple):
    """A line of pip's output that tells how far it is, and how to say it."""

    pattern: re.Pattern[str]
    say: Callable[[re.Match[str]], str]
    package: bool = False    # it names a package pip has found
    plain: bool = True       # worth a line of its own where the progress is not written over


def _wheel_name(path: str) -> str:
    return Path(path).name.split("-")[0]


PIP_STEPS = (
    PipStep(re.compile(r"Collecting ([\w.-]+)"), lambda m: f"collecting {m[1]}", package=True),
    PipStep(re.compile(r"Processing (\S+)"), lambda m: f"collecting {_wheel_name(m[1])}",
            package=True),
    PipStep(re.compile(r"Requirement already satisfied: ([\w.-]+)"),
            lambda m: f"already there: {m[1]}", package=True),
    PipStep(re.compile(r"\s*Downloading (\S+)(.*)"), lambda m: f"downloading {m[1]}{m[2]}",
            plain=False),
    PipStep(re.compile(r"Installing collected packages: (.+)"),
            lambda m: f"installing {len(m[1].split(','))} packages"),
    # pip's build steps, each said by a "started" and a "finished" line: the first will do
    PipStep(re.compile(r"\s*(\w)(.*): started$"), lambda m: f"{m[1].lower()}{m[2]}"),
)


class PipProgress:
    """What pip is doing, said as it goes with the seconds since it started. On a terminal
    one line (the seconds, the packages found, pip's latest step), written over as pip goes on
    and every second; elsewhere (a log, a pipe) a line a package and a step."""

    def __init__(self, out: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.out, self.clock, self.started = out, clock, clock()
        self.live = out.isatty()
        self.packages: set[str] = set()
        self.doing = "starting pip"
        self.shown = False           # the live line is on the screen

    def seconds(self) -> int:
        return int(self.clock() - self.started)

    def found(self) -> str:
        return f"{len(self.packages)} package{'' if len(self.packages) == 1 else 's'}"

    def pip_said(self, line: str) -> None:
        for step in PIP_STEPS:
            found = step.pattern.match(line)
            if found:
                break
        else:
            return
        self.doing = step.say(found)
        if step.package:
            self.packages.add(found[1])
        if self.live:
            self.tick()
        elif step.plain:
            self.out.write(f"  {self.seconds():>4} s  {self.doing}\n")
            self.out.flush()

    def tick(self) -> None:
        """Write the live line again: its seconds move on while pip says nothing."""
        if not self.live:
            return
        line = f"  {self.seconds():>4} s  {self.found()}  {self.doing}"
        # A line longer than the terminal would wrap, and the next one be written under it.
        self.out.write("\r\x1b[K" + line[:columns(self.out) - 1])
        self.out.flush()
        self.shown = True

    def aside(self, line: str, stream: TextIO) -> None:
        """A line of pip's own (a warning, an error), as it is, above the live line."""
        self.clear()
        stream.write(line)
        stream.flush()
        self.tick()

    def clear(self) -> None:
        if self.shown:
            self.out.write("\r\x1b[K")
            self.out.flush()
            self.shown = False

    def done(self) -> None:
        self.clear()
        self.out.write(f"  {self.seconds():>4} s  done: {self.found()}\n")
        self.out.flush()


def columns(out: TextIO) -> int:
    try:
        return os.get_terminal_size(out.fileno()).columns or 80
    except (OSError, ValueError):
        return 80


def pip_install(python: Path, args: list[str], what: str, where: str = ".venv") -> None:
    """`pip install ARGS` with `python`, its progress shown (PipProgress) and its warnings
    and errors as pip writes them. A failing pip ends run.py with one line under pip's own
    error, before anything is marked as installed."""
    cmd = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "--progress-bar",
           "off", *args]
    # Unbuffered: else pip's lines would come through the pipe in blocks of kilobytes.
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, encoding="utf-8", errors="replace",
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    progress = PipProgress(sys.stdout)
    try:
        said = follow(proc, progress)
        code = proc.wait()
    except KeyboardInterrupt:
        proc.kill()
        proc.wait()
        progress.clear()
        print(f"\nrun.py: stopped installing {what}; python3 run.py installs it again",
              file=sys.stderr)
        raise SystemExit(130) from None
    if code == 0:
        progress.done()
        return
    progress.clear()
    sys.stderr.write("pip's last lines:\n" + "".join(f"  {line}" for line in said))
    sys.exit(f"run.py: pip could not install {what} into {where} (exit {code}): see its error "
             f"above (no network?), then python3 run.py again")


Lines = queue.SimpleQueue[tuple[bool, str | None]]


def follow(proc: subprocess.Popen[str], progress: PipProgress) -> deque[str]:
    """Show what `proc` (pip) writes as it comes, until it has closed its output; the last
    lines of its standard output. Both outputs are read on threads of their own: one read
    alone could wait while pip waits for the other to be read."""
    lines: Lines = queue.SimpleQueue()
    for stream, is_err in ((proc.stdout, False), (proc.stderr, True)):
        threading.Thread(target=_read, args=(stream, is_err, lines), daemon=True).start()
    said, ended = deque[str](maxlen=10), 0
    while ended < 2:
        try:
            is_err, line = lines.get(timeout=1.0)
        except queue.Empty:
            progress.tick()
            continue
        if line is None:
            ended += 1
        elif is_err:
            progress.aside(line, sys.stderr)
        else:
            said.append(line)
            progress.pip_said(line)
    return said


def _read(stream: TextIO, is_err: bool, lines: Lines) -> None:
    for line in stream:
        lines.put((is_err, line))
    lines.put((is_err, None))


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
PACKAGES = ("rules", "words", "cards", "device")
# The folders whose helpers the tests import by their bare names (pyproject's pytest
# pythonpath; tests/system's scripts import each other so): their modules that are no tests
# (the conftests, the tour and its journeys, the panel's bus, ...) are type-checked too.
HELPER_FOLDERS = ("tests", "tests/device", "tests/system")


def _link(link: Path, target: Path) -> None:
    """`link` made (again) to point at `target`."""
    if link.is_symlink() and link.resolve() == target:
        return
    if link.is_symlink():
        link.unlink()
    link.symlink_to(target, target_is_directory=target.is_dir())


def helper_modules() -> dict[str, Path]:
    """The tests' modules that are no tests, by the names mypy checks them under: a helper
    module or package by its own name (as the tests import it), a folder's conftest.py as
    FOLDER_conftest (pytest imports each conftest by its path; they share a name)."""
    found: dict[str, Path] = {}
    for folder in HELPER_FOLDERS:
        for path in sorted((ROOT / folder).iterdir()):
            if path.name.startswith("test_"):
                continue
            if path.suffix == ".py":
                found[f"{path.parent.name}_conftest" if path.stem == "conftest"
                      else path.stem] = path
            elif (path / "__init__.py").is_file():
                found[path.name] = path
    return found


def typecheck_tree() -> Path:
    """.venv/typecheck/cobi_companion/{rules,cards,device}, linked to the folders here, and
    beside it a link to each of the tests' helpers (`helper_modules`); old links removed."""
    package = TYPECHECK / "cobi_companion"
    package.mkdir(parents=True, exist_ok=True)
    for name in PACKAGES:
        _link(package / name, ROOT / name)
    helpers = {(name if path.is_dir() else f"{name}.py"): path
               for name, path in helper_modules().items()}
    for old in TYPECHECK.iterdir():
        if old.is_symlink() and old.name not in helpers:
            old.unlink()
    for name, path in helpers.items():
        _link(TYPECHECK / name, path)
    return TYPECHECK


def mypy_command() -> list[str]:
    """mypy --strict (pyproject.toml) on the package and on the tests' helpers, in one run."""
    helpers = [arg for name in helper_modules() for arg in ("-m", name)]
    return [str(BIN / "mypy"), "--config-file", str(ROOT / "pyproject.toml"),
            "-p", "cobi_companion", *helpers]


# What one pytest worker may hold at its peak (the tour's frames, a Hypothesis run), with room.
WORKER_MEMORY = 1 << 30
MEMINFO = Path("/proc/meminfo")


def usable_cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:              # macOS, Windows
        return os.cpu_count() or 1


def available_memory(meminfo: Path = MEMINFO) -> int | None:
    """The bytes of memory free for new processes (MemAvailable), or None where not known."""
    try:
        for line in meminfo.read_text().splitlines():
            name, _, value = line.partition(":")
            if name == "MemAvailable":
                return int(value.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def pytest_workers() -> int:
    """The processes pytest runs the tests in, here (`workers_for`)."""
    return workers_for(usable_cores(), available_memory())


def workers_for(cores: int, memory: int | None) -> int:
    """One worker a core and one more, as many as the free `memory` holds (WORKER_MEMORY
    each; None: not known), at least one. The one more: hundreds of tests wait on a process
    they started (a box, a command, a pipe), and meanwhile the extra worker uses the core (on
    2 cores, 3 workers end the suite a tenth sooner than 2; 4 no sooner than 3)."""
    wanted = cores + 1 if cores > 1 else 1
    if memory is not None:
        wanted = min(wanted, memory // WORKER_MEMORY)
    return max(1, wanted)


def pytest_command(workers: int) -> list[str]:
    """pytest over every test; with more than one worker on pytest-xdist's, the tests of one
    xdist_group (those that share a language's tour, taken once a process) on one worker."""
    spread = ["-n", str(workers), "--dist", "loadgroup"] if workers > 1 else []
    return [str(venv_python()), "-m", "pytest", *spread]


def tools_environment(environ: dict[str, str]) -> dict[str, str]:
    """The environment of the tests' tools: Python's compiled modules written (to .venv's
    pycache/ unless PYTHONPYCACHEPREFIX names a place), even where PYTHONDONTWRITEBYTECODE
    is set, so that the hundreds of processes the tests start do not each compile the
    package again (a third of a command's start); nothing is written into the tree."""
    env = {key: value for key, value in environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("PYTHONPYCACHEPREFIX", str(VENV / "pycache"))
    return env


def site_packages() -> Path:
    """The folder of .venv's installed packages (.venv's Python is this Python's version)."""
    if os.name == "nt":
        return VENV / "Lib" / "site-packages"
    return VENV / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"


def precompile(env: dict[str, str]) -> None:
    """Every module the tests may import compiled before they start (into `env`'s
    PYTHONPYCACHEPREFIX), on every core: the project's folders each time (a second's look
    when nothing changed), the installed packages once an install. Left to the tests, each of
    the first processes they start (workers, boxes, commands) would compile the same hundreds
    of modules at once. A module that does not compile is left to its importer to say so."""
    folders = [ROOT / part for part in ("rules", "words", "cards", "device", "tests")]
    stamp = VENV / ".compiled"
    installed = install_key()
    fresh = not stamp.is_file() or stamp.read_text() != installed
    if fresh and site_packages().is_dir():
        folders.append(site_packages())
    subprocess.run([str(venv_python()), "-m", "compileall", "-q", "-j", "0",
                    *map(str, folders)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    stamp.write_text(installed)


def said(name: str, cmd: list[str]) -> None:
    print(f"== {name}: {' '.join(Path(c).name if i == 0 else c for i, c in enumerate(cmd))}",
          flush=True)


def run_tests() -> int:
    """ruff, then mypy beside pytest (on every core): the first failure's exit code, or 0.
    mypy's output is shown when pytest is done, under its own heading."""
    ensure_venv("dev")
    ruff = [str(BIN / "ruff"), "check", "."]
    said("ruff", ruff)
    code = subprocess.run(ruff, cwd=ROOT).returncode
    if code != 0:
        return code
    mypy = mypy_command()
    tools = tools_environment(dict(os.environ))
    env = {**tools, "MYPYPATH": str(typecheck_tree())}
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as mypy_said:
        checking = subprocess.Popen(mypy, cwd=ROOT, env=env, stdout=mypy_said,
                                    stderr=subprocess.STDOUT, text=True)
        try:
            precompile(tools)
            pytest = pytest_command(pytest_workers())
            said("pytest", pytest)
            tested = subprocess.run(pytest, cwd=ROOT, env=tools).returncode
        finally:
            checked = checking.wait()
        said("mypy", [mypy[0], "-p", "cobi_companion", f"and {len(helper_modules())} helpers"])
        mypy_said.seek(0)
        sys.stdout.write(mypy_said.read())
        sys.stdout.flush()
    if tested == 5:
        print("pytest collected no tests: that is a failure here", file=sys.stderr)
        return 1
    return tested or checked


def run_bench(args: list[str]) -> int:
    ensure_venv("bench")
    return subprocess.run([str(venv_python()), str(ROOT / "bench" / "run.py"), *args],
                          cwd=ROOT).returncode


def draw_glyphs() -> int:
    """device/ui/reference-glyphs.json drawn again with the venv's Pillow (its FreeType)."""
    ensure_venv("")
    return subprocess.run([str(venv_python()), "-m", "cobi_companion.device.ui.reference_glyphs"],
                          cwd=ROOT).returncode


def canonical(name: str) -> str:
    """A package's name as pip compares them: Pillow, pillow; luma.core, luma-core."""
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_text(frozen: str, made_with: str) -> str:
    """constraints.txt from `pip freeze` of a clean install: without the project itself, the
    lines a 32-bit Python takes elsewhere tagged, under a header that says how it was made."""
    tags = {canonical(name): why for name, why in FROM_ELSEWHERE_ON_32_BIT.items()}
    lines = []
    for line in frozen.splitlines():
        name = canonical(re.split(r"[=<>!~@ ;]", line.strip(), maxsplit=1)[0])
        if not line.strip() or line.startswith(("#", "-")) or name in ("cobi-companion", "pip"):
            continue
        lines.append(f"{line.strip()}  {NOT_ON_32_BIT} {tags[name]}" if name in tags
                     else line.strip())
    header = (
        "# The versions the tests passed with: run.py and systemd/install.sh install with\n"
        "# `pip install -c constraints.txt`. Made by `python3 run.py lock` (a clean venv,\n"
        f"# `pip install -e '.[{LOCK_EXTRAS}]'`, then `pip freeze` without the project)\n"
        f"# on {made_with}.\n"
        "# After a lock, run `python3 run.py test` before committing it.\n"
        "# A 32-bit Python leaves out the lines tagged \"not on 32-bit\": PyPI has no armv7\n"
        "# wheel of those, and 32-bit Raspberry Pi OS takes them from where the tag says.\n")
    return header + "".join(f"{line}\n" for line in lines)


def lock() -> int:
    """Write constraints.txt from a clean venv with every extra, resolved afresh (the old
    constraints not used): the newest versions pyproject.toml allows."""
    with tempfile.TemporaryDirectory(prefix="cobi-lock-") as folder:
        place = Path(folder) / "venv"
        print(f"Creating a clean venv in {place} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(place)
        python = place / BIN.name / venv_python().name
        what = f"cobi-companion[{LOCK_EXTRAS}]"
        pip_install(python, ["-e", f".[{LOCK_EXTRAS}]"], what, where="a clean venv")
        # --all: setuptools too (the dev extra asks for it); pip itself is left out below
        frozen = subprocess.run([str(python), "-m", "pip", "freeze", "--all",
                                 "--exclude-editable", "--disable-pip-version-check"],
                                cwd=ROOT, check=True, capture_output=True, text=True).stdout
    made_with = (f"Python {sys.version.split()[0]} ({sys.implementation.name}), "
                 f"{sys.platform} {os.uname().machine if hasattr(os, 'uname') else ''}".rstrip())
    CONSTRAINTS.write_text(lock_text(frozen, made_with))
    pins = sum(1 for line in CONSTRAINTS.read_text().splitlines() if "==" in line)
    print(f"Wrote {CONSTRAINTS.name}: {pins} pins. Now: python3 run.py test", flush=True)
    return 0


def os_check(args: list[str]) -> int:
    """systemd/os-check.sh: the install and tests in an emulated Raspberry Pi OS base."""
    return subprocess.run(["bash", str(OS_CHECK), *args], cwd=ROOT).returncode


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):  # noqa: UP036 - say so clearly on an older Python
        sys.exit(f"cobi-companion needs Python 3.11 or newer (this is {sys.version.split()[0]})")
    if argv[:1] == ["test"]:
        return run_tests()
    if argv[:1] == ["bench"]:
        return run_bench(argv[1:])
    if argv[:1] == ["clarity"]:          # the voice scored by pocketsphinx (bench/clarity.py)
        ensure_venv("")
        return subprocess.run([str(venv_python()), str(ROOT / "bench" / "clarity.py"),
                               *argv[1:]], cwd=ROOT).returncode
    if argv[:1] == ["faults"]:
        ensure_venv("")
        return subprocess.run([str(venv_python()), str(ROOT / "bench" / "faults.py"),
                               *argv[1:]], cwd=ROOT).returncode
    if argv[:1] == ["system-test"]:      # standard library only: no venv needed
        return subprocess.run([sys.executable, str(ROOT / "tests" / "system" / "system_check.py"),
                               *argv[1:]], cwd=ROOT).returncode
    if argv[:1] == ["lock"]:
        return lock()
    if argv[:1] == ["glyphs"]:
        return draw_glyphs()
    if argv[:1] == ["os-check"]:
        return os_check(argv[1:])
    if argv[:1] == ["sentences"]:        # every sentence of a language, for a native speaker
        ensure_venv("")
        return subprocess.run([str(venv_python()), "-m", "cobi_companion.device.core.sentences",
                               *argv[1:]], cwd=ROOT).returncode
    if argv[:1] == ["catalogues"]:       # the rules' English into the .pot, .po into .mo
        ensure_venv("")
        return subprocess.run([str(venv_python()), "-m", "cobi_companion.words.compile"],
                              cwd=ROOT).returncode
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
