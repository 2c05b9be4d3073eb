"""run.py's decisions on a Raspberry Pi and off it: how .venv is made (over the system's packages
on a Pi, for apt's python3-lgpio), switching an existing .venv, and refusing to start the box
without a working lgpio; and the progress shown while pip installs (real pip on wheels made
here, and a stand-in venv Python that fails as pip does). A fake device-tree model file stands
for the Pi; nothing is downloaded.
"""
from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import importlib.util
import io
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import termios
import threading
import venv
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import venv_has_pip

REPO = Path(__file__).resolve().parents[1]
PI_MODEL = b"Raspberry Pi 4 Model B Rev 1.4\x00"      # as /proc/device-tree/model reads
REAL_LGPIO = "LGPIO_PY_VERSION = 0x00020200\n\ndef gpio_claim_input(handle, gpio, flags=0):\n" \
             "    return 0\n"
VENV_CFG = "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n"


def load_run_py(name: str = "run_py_under_test") -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, REPO / "run.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """run.py with its .venv in tmp_path, the root's pyproject.toml, and off a Pi."""
    module = load_run_py()
    folder = tmp_path / ".venv"
    monkeypatch.setattr(module, "VENV", folder)
    monkeypatch.setattr(module, "BIN", folder / "bin")
    monkeypatch.setattr(module, "DEVICE_MODEL", tmp_path / "no-such-model")
    yield module


def on_a_pi(run: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
            model: bytes = PI_MODEL) -> None:
    (tmp_path / "model").write_bytes(model)
    monkeypatch.setattr(run, "DEVICE_MODEL", tmp_path / "model")


def fake_venv(run: ModuleType, cfg: str = VENV_CFG, current: bool = True) -> Path:
    """A .venv folder with a python file and pyvenv.cfg, its install stamp current or not."""
    run.BIN.mkdir(parents=True)
    run.venv_python().write_text("#!/bin/sh\n")
    (run.VENV / "pyvenv.cfg").write_text(cfg)
    if current:
        (run.VENV / ".installed-base").write_text(run.install_key())
    return run.VENV / "pyvenv.cfg"


def test_a_pi_is_told_by_its_device_tree_model(run: ModuleType, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    assert not run.on_raspberry_pi()                       # no model file: a laptop, CI
    on_a_pi(run, tmp_path, monkeypatch)
    assert run.on_raspberry_pi()
    on_a_pi(run, tmp_path, monkeypatch, b"Pine64 RockPro64 v2.1\x00")
    assert not run.on_raspberry_pi()


def test_the_model_file_can_be_named_in_the_environment(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "model").write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\x00")
    monkeypatch.setenv("COBI_DEVICE_MODEL", str(tmp_path / "model"))
    module = load_run_py("run_py_with_env")
    assert tmp_path / "model" == module.DEVICE_MODEL
    assert module.on_raspberry_pi()


def test_the_venv_sees_the_system_packages_only_on_a_pi(run: ModuleType) -> None:
    on_pi, off_pi = run.venv_builder(True), run.venv_builder(False)
    assert on_pi.system_site_packages and on_pi.with_pip
    assert not off_pi.system_site_packages and off_pi.with_pip


class Recorder:
    """Stands in for venv.EnvBuilder, pip and subprocess.run: records, creates a python file."""

    def __init__(self, run: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
        self.builders: list[dict[str, Any]] = []
        self.commands: list[list[str]] = []
        self.installs: list[list[str]] = []
        recorder = self

        class Builder:
            def __init__(self, **options: Any) -> None:
                recorder.builders.append(options)

            def create(self, folder: Path) -> None:
                run.BIN.mkdir(parents=True)
                run.venv_python().write_text("#!/bin/sh\n")

        def fake_run(cmd: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
            self.commands.append([str(c) for c in cmd])
            return subprocess.CompletedProcess(cmd, 0, "", "")

        def fake_pip(python: Path, args: list[str], what: str) -> None:
            self.installs.append([str(python), *args])

        monkeypatch.setattr(run.venv, "EnvBuilder", Builder)
        monkeypatch.setattr(run.subprocess, "run", fake_run)
        monkeypatch.setattr(run, "pip_install", fake_pip)


@pytest.mark.parametrize("pi", [True, False], ids=["pi", "laptop"])
def test_a_new_venv(run: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                    pi: bool) -> None:
    if pi:
        on_a_pi(run, tmp_path, monkeypatch)
    recorder = Recorder(run, monkeypatch)
    monkeypatch.setattr(run, "sixty_four_bit", lambda: True)
    run.ensure_venv("")
    assert recorder.builders == [{"with_pip": True, "system_site_packages": pi}]
    assert recorder.installs == [[str(run.venv_python()), "-e", ".[voice,smart]", "-c",
                                  str(REPO / "constraints.txt"), "--compile"]]


@pytest.mark.parametrize(("extras", "compiling"), [
    ("", "--compile"), ("bench", "--compile"), ("dev", "--no-compile")])
def test_only_the_tests_install_leaves_the_compiling_to_the_tests(
        run: ModuleType, monkeypatch: pytest.MonkeyPatch, extras: str, compiling: str) -> None:
    recorder = Recorder(run, monkeypatch)
    run.ensure_venv(extras)
    [[*_, last]] = recorder.installs
    assert last == compiling


# ---- the voice's wheel by the Python's own word size, and the versions of constraints.txt ----

def pins(path: Path) -> dict[str, str]:
    """The pinned versions in a constraints file, by pip's name."""
    found = {}
    for line in path.read_text().splitlines():
        name, _, rest = line.partition("==")
        if rest:
            found[re.sub(r"[-_.]+", "-", name).lower()] = rest.split()[0]
    return found


@pytest.mark.parametrize(("extras", "wide", "target"), [
    ("", True, ".[voice,smart]"), ("dev", True, ".[dev,voice,smart]"),
    ("bench", True, ".[bench,voice,smart]"),
    ("", False, "."), ("dev", False, ".[dev]"),
], ids=["64", "64-dev", "64-bench", "32", "32-dev"])
def test_the_voices_wheel_only_for_a_64_bit_python(run: ModuleType,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    extras: str, wide: bool,
                                                    target: str) -> None:
    """A 32-bit Python (32-bit Raspberry Pi OS, on a 32- or a 64-bit kernel: platform_machine
    says aarch64 on the latter) asks for no espeakng-loader, and its constraints leave out the
    pins of what it takes from Debian (cbor2, Pillow); a 64-bit one takes constraints.txt."""
    recorder = Recorder(run, monkeypatch)
    monkeypatch.setattr(run, "sixty_four_bit", lambda: wide)
    run.ensure_venv(extras)
    [[_, *args]] = recorder.installs
    assert args[:3] == ["-e", target, "-c"]
    used = Path(args[3])
    everything = pins(REPO / "constraints.txt")
    if wide:
        assert used == REPO / "constraints.txt"
    else:
        assert used == run.VENV / "constraints-32-bit.txt"
        assert pins(used) == {name: version for name, version in everything.items()
                              if name not in ("cbor2", "pillow")}
    assert {"cbor2", "pillow", "espeakng-loader", "pydantic-core"} <= set(everything)


def test_this_python_says_its_own_word_size(run: ModuleType) -> None:
    assert run.sixty_four_bit() == (struct.calcsize("P") == 8)


def test_a_new_lock_or_pyproject_installs_again(run: ModuleType,
                                                monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    fake_venv(run)
    recorder = Recorder(run, monkeypatch)
    run.ensure_venv("")
    assert recorder.installs == []                          # current
    locked = tmp_path / "constraints.txt"
    locked.write_text((REPO / "constraints.txt").read_text() + "extra-package==1.0\n")
    monkeypatch.setattr(run, "CONSTRAINTS", locked)
    run.ensure_venv("")
    assert len(recorder.installs) == 1


def test_the_lock_keeps_what_pip_froze_but_the_project(run: ModuleType) -> None:
    frozen = ("annotated-types==0.8.0\ncbor2==6.3.0\n-e git+https://example/x#egg=x\npip==25.0\n"
              "cobi-companion @ file:///src\nluma.core==2.6.0\nPillow==13.0.0\n")
    text = run.lock_text(frozen, "Python 3.11.7 (cpython), linux x86_64")
    body = [line for line in text.splitlines() if not line.startswith("#")]
    assert body == [
        "annotated-types==0.8.0",
        "cbor2==6.3.0  # not on 32-bit: Debian's python3-cbor2 (cbor2 6 has no armv7 wheel, "
        "its source needs Rust)",
        "luma.core==2.6.0",
        "Pillow==13.0.0  # not on 32-bit: Debian's python3-pil (Trixie) or piwheels' Pillow "
        "(Bookworm)"]
    header = text.splitlines()[:7]
    assert all(line.startswith("# ") for line in header)
    assert "`python3 run.py lock`" in text and "on Python 3.11.7 (cpython), linux x86_64." in text


def test_an_old_venv_is_switched_on_a_pi(run: ModuleType, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    cfg = fake_venv(run)
    on_a_pi(run, tmp_path, monkeypatch)
    recorder = Recorder(run, monkeypatch)
    run.ensure_venv("")
    assert cfg.read_text() == VENV_CFG.replace("= false", "= true")
    assert "include-system-site-packages = true" in capsys.readouterr().out
    assert recorder.builders == recorder.commands == recorder.installs == []  # all done
    run.ensure_venv("")                                          # and said once
    assert capsys.readouterr().out == ""


def test_a_venv_without_the_key_gets_it(run: ModuleType, tmp_path: Path) -> None:
    cfg = fake_venv(run, cfg="home = /usr/bin")
    assert run.see_system_packages(run.VENV)
    assert cfg.read_text() == "home = /usr/bin\ninclude-system-site-packages = true\n"
    assert not run.see_system_packages(run.VENV)


def test_off_a_pi_the_venv_is_left_as_it_is(run: ModuleType, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    cfg = fake_venv(run)
    recorder = Recorder(run, monkeypatch)
    run.ensure_venv("")
    assert cfg.read_text() == VENV_CFG
    assert capsys.readouterr().out == ""
    assert recorder.commands == recorder.installs == []


@pytest.mark.parametrize(("argv", "pi", "box"), [
    ([], True, True), ([], False, False), (["run"], False, True), (["sim"], True, False),
    (["--cards", "run"], True, True), (["--cards", "cards", "odds"], True, False),
    (["--help"], True, False), (["run", "--help"], True, False),
])
def test_which_commands_drive_the_pins(run: ModuleType, argv: list[str], pi: bool,
                                       box: bool) -> None:
    assert run.runs_the_box(argv, on_pi=pi) is box


class RealVenv:
    """A real venv in run.py's .venv (no pip of its own: the base Python's is seen through
    the system site-packages), and a folder standing in for the system's dist-packages."""

    def __init__(self, run: ModuleType, base: Path,
                 write_placeholder: Callable[[Path], None]) -> None:
        self.write_placeholder = write_placeholder
        venv.EnvBuilder(system_site_packages=True, with_pip=False, symlinks=True).create(run.VENV)
        self.python = run.venv_python()
        site = subprocess.run([str(self.python), "-c",
                               "import site; print(site.getsitepackages()[0])"],
                              capture_output=True, text=True, check=True).stdout.strip()
        self.site = Path(site).resolve()
        self.system = base.resolve() / "dist-packages"
        self.system.mkdir()
        (self.site / "zz-system.pth").write_text(f"{self.system}\n")

    def placeholder(self) -> None:
        self.write_placeholder(self.site)

    def has_pip(self) -> bool:
        return venv_has_pip(self.python)


@pytest.fixture
def real_venv(run: ModuleType, tmp_path: Path, lgpio_placeholder: Any) -> RealVenv:
    return RealVenv(run, tmp_path, lgpio_placeholder)


ADVICE = "sudo apt install python3-lgpio python3-gpiozero (Raspberry Pi OS), then python3 " \
         "run.py again"


def test_without_lgpio_the_box_is_not_started(run: ModuleType, real_venv: RealVenv) -> None:
    assert run.lgpio_problem() == ("run.py: .venv has no working lgpio (lgpio missing), so the "
                                   f"box cannot read its pins: {ADVICE}")


def test_the_placeholder_is_removed_and_apts_lgpio_used(
        run: ModuleType, real_venv: RealVenv, capsys: pytest.CaptureFixture[str]) -> None:
    if not real_venv.has_pip():
        pytest.skip(f"no pip for {sys.version.split()[0]} to uninstall with")
    real_venv.placeholder()
    (real_venv.system / "lgpio.py").write_text(REAL_LGPIO)
    assert run.lgpio_state()[:2] == ("placeholder", "venv")
    assert run.lgpio_problem() is None
    assert "Removing PyPI's empty lgpio 0.0.0.2 from .venv" in capsys.readouterr().out
    assert not (real_venv.site / "lgpio.py").exists()
    assert run.lgpio_state() == ("real", "system", str(real_venv.system / "lgpio.py"))


def test_a_placeholder_alone_is_no_lgpio(run: ModuleType, real_venv: RealVenv) -> None:
    if not real_venv.has_pip():
        pytest.skip(f"no pip for {sys.version.split()[0]} to uninstall with")
    real_venv.placeholder()
    problem = run.lgpio_problem()
    assert problem and problem.endswith(ADVICE) and "(lgpio missing)" in problem


def test_a_working_lgpio_in_the_venv_is_used(run: ModuleType, real_venv: RealVenv) -> None:
    (real_venv.site / "lgpio.py").write_text(REAL_LGPIO)
    assert run.lgpio_problem() is None


def test_main_on_a_pi_stops_with_one_line(run: ModuleType, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    on_a_pi(run, tmp_path, monkeypatch)
    monkeypatch.setattr(run, "ensure_venv", lambda extras: None)
    monkeypatch.setattr(run, "lgpio_state", lambda: ("placeholder", "system", "/usr/lib/x.py"))
    started: list[list[str]] = []
    monkeypatch.setattr(run.subprocess, "run", lambda cmd, **_: started.append(cmd))
    assert run.main([]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.rstrip().endswith(ADVICE)
    assert started == []                                  # the box never started
    # The simulator and the rules' commands need no pins.
    monkeypatch.setattr(run.subprocess, "run",
                        lambda cmd, **_: subprocess.CompletedProcess(cmd, 0))
    assert run.main(["sim", "--keys", "ok"]) == 0


def test_main_off_a_pi_never_looks_for_lgpio(run: ModuleType,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "ensure_venv", lambda extras: None)

    def no_probe() -> None:
        raise AssertionError("lgpio looked for off a Pi")

    monkeypatch.setattr(run, "lgpio_state", no_probe)
    started: list[list[str]] = []

    def fake_run(cmd: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        started.append(cmd)
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(run.subprocess, "run", fake_run)
    assert run.main(["run"]) == 0
    assert [Path(cmd[0]).name for cmd in started] == ["cobi-companion"]


def test_mypy_sees_the_folders_under_the_names_the_code_imports(run: ModuleType,
                                                                tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    monkeypatch.setattr(run, "TYPECHECK", tmp_path / ".venv" / "typecheck")
    tree = run.typecheck_tree()
    package = tree / "cobi_companion"
    assert {p.name for p in package.iterdir()} == {"rules", "words", "cards", "device"}
    assert (package / "device" / "core" / "app.py").resolve() == REPO / "device/core/app.py"
    (package / "rules").unlink()                       # a stale link is made again
    (package / "rules").symlink_to(tmp_path, target_is_directory=True)
    assert run.typecheck_tree() == tree
    assert (package / "rules").resolve() == REPO / "rules"


# ---- the progress while pip installs ----

SECONDS = re.compile(r"^ +\d+ s  ", re.M)


def plain(text: str) -> list[str]:
    """Progress lines without their seconds."""
    return SECONDS.sub("", text).splitlines()


def make_wheel(folder: Path, name: str, *requires: str) -> None:
    """A wheel of an empty package `name` 1.0 that needs `requires`, for pip to install
    from `folder` without an index."""
    dist = name.replace("-", "_")
    info = f"{dist}-1.0.dist-info"
    files = {f"{dist}/__init__.py": "",
             f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n"
                                 + "".join(f"Requires-Dist: {r}\n" for r in requires),
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\n"
                              "Tag: py3-none-any\n"}

    def digest(text: str) -> str:
        raw = hashlib.sha256(text.encode()).digest()
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    files[f"{info}/RECORD"] = "".join(f"{path},sha256={digest(text)},{len(text.encode())}\n"
                                      for path, text in files.items()) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(folder / f"{dist}-1.0-py3-none-any.whl", "w") as wheel:
        for path, text in files.items():
            wheel.writestr(path, text)


@pytest.fixture
def wheels(tmp_path: Path) -> list[str]:
    """pip's arguments to install from two local wheels (pkg-a needs pkg-b) into a folder of
    tmp_path, with no index: no network, and the test's own environment left alone."""
    folder = tmp_path / "wheels"
    folder.mkdir()
    make_wheel(folder, "pkg-a", "pkg-b")
    make_wheel(folder, "pkg-b")
    return ["--no-index", "--find-links", str(folder), "--target", str(tmp_path / "target")]


def test_off_a_terminal_pip_gets_a_line_a_package(run: ModuleType, tmp_path: Path,
                                                  wheels: list[str],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    run.pip_install(Path(sys.executable), [*wheels, "pkg-a"], "pkg-a")
    assert plain(capsys.readouterr().out) == ["collecting pkg_a", "collecting pkg_b",
                                              "installing 2 packages", "done: 2 packages"]
    assert (tmp_path / "target" / "pkg_a" / "__init__.py").is_file()


def test_a_failing_pip_ends_run_py_under_pips_own_error(run: ModuleType, wheels: list[str],
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    with pytest.raises(SystemExit) as stop:
        run.pip_install(Path(sys.executable), [*wheels, "pkg-c"], "pkg-c")
    assert stop.value.code == ("run.py: pip could not install pkg-c into .venv (exit 1): see "
                               "its error above (no network?), then python3 run.py again")
    err = capsys.readouterr().err
    assert "ERROR: No matching distribution found for pkg-c" in err
    assert "Traceback" not in err


def read_all(fd: int, into: list[bytes]) -> threading.Thread:
    """Read a pseudo-terminal on a thread until its other end is closed."""
    def read() -> None:
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return
            if not data:
                return
            into.append(data)
    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def test_on_a_terminal_the_progress_is_one_line_written_over(run: ModuleType,
                                                             wheels: list[str]) -> None:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 40, 0, 0))
    seen: list[bytes] = []
    reader = read_all(master, seen)
    with open(slave, "w", encoding="utf-8") as terminal, contextlib.redirect_stdout(terminal):
        run.pip_install(Path(sys.executable), [*wheels, "pkg-a"], "pkg-a")
    reader.join(timeout=10)
    os.close(master)
    *live, last = b"".join(seen).decode().split("\r\x1b[K")
    assert plain(last) == ["done: 2 packages"]
    written = [SECONDS.sub("", line) for line in live if line]
    assert all("\n" not in line for line in written)
    # Cut to the terminal's 40 columns (less one), so it never wraps; written again each
    # second while pip says nothing new (pip may take more than one to start).
    distinct = [line for n, line in enumerate(written) if line not in written[:n]]
    assert distinct[-3:] == ["1 package  collecting pkg_a", "2 packages  collecting pkg_b",
                             "2 packages  installing 2 pack"]
    assert set(distinct[:-3]) <= {"0 packages  starting pip"}


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


# What pip 23 writes installing the companion (its own lines, cut short).
PIP_SAYS = """\
Obtaining file:///home/pi/cobi-companion
  Installing build dependencies: started
  Installing build dependencies: finished with status 'done'
Collecting pydantic<3,>=2.7 (from cobi-companion==0.1.0)
  Downloading pydantic-2.14.4-py3-none-any.whl (494 kB)
Processing /opt/pypi/files/pyserial-3.5-py2.py3-none-any.whl (from cobi-companion==0.1.0)
Requirement already satisfied: setuptools in /x/site-packages (from colorzero->gpiozero) (65.5)
Building wheels for collected packages: cobi-companion
  Building editable for cobi-companion (pyproject.toml): started
Installing collected packages: pyserial, pydantic, cobi-companion
Successfully installed cobi-companion-0.1.0 pydantic-2.14.4 pyserial-3.5
"""


def test_pips_lines_said_plainly(run: ModuleType) -> None:
    out = io.StringIO()
    progress = run.PipProgress(out)
    for line in PIP_SAYS.splitlines(keepends=True):
        progress.pip_said(line)
    progress.done()
    assert plain(out.getvalue()) == [
        "installing build dependencies", "collecting pydantic", "collecting pyserial",
        "already there: setuptools", "building editable for cobi-companion (pyproject.toml)",
        "installing 3 packages", "done: 3 packages"]


def test_the_live_line_counts_the_seconds_while_pip_is_quiet(run: ModuleType) -> None:
    now = [100.0]
    out = Terminal()
    progress = run.PipProgress(out, clock=lambda: now[0])
    progress.pip_said(PIP_SAYS.splitlines(keepends=True)[3])
    now[0] += 12.5
    progress.tick()
    progress.aside("WARNING: a warning of pip's\n", out)
    assert out.getvalue().split("\r\x1b[K") == [
        "", "     0 s  1 package  collecting pydantic",
        "    12 s  1 package  collecting pydantic",
        "WARNING: a warning of pip's\n",          # on a line of its own, the live line after
        "    12 s  1 package  collecting pydantic"]


def stand_in_python(run: ModuleType, script: str) -> None:
    """A venv whose Python is a shell script standing in for `python -m pip install`."""
    fake_venv(run, current=False)
    run.venv_python().write_text("#!/bin/sh\n" + script)
    run.venv_python().chmod(0o755)


def test_a_new_install_shows_its_progress_and_is_marked_done(
        run: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    stand_in_python(run, "echo 'Collecting pydantic<3,>=2.7'\n"
                         "echo 'Installing collected packages: pydantic, cobi-companion'\n")
    run.ensure_venv("")
    assert plain(capsys.readouterr().out) == [
        "Installing cobi-companion into .venv (the first time takes a few minutes) ...",
        "collecting pydantic", "installing 2 packages", "done: 1 package"]
    assert (run.VENV / ".installed-base").is_file()


def test_a_failed_install_is_not_marked_done(run: ModuleType,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    stand_in_python(run, "echo 'Collecting pydantic<3,>=2.7'\n"
                         "echo 'ERROR: Could not find a version that satisfies the requirement "
                         "pydantic' >&2\nexit 1\n")
    with pytest.raises(SystemExit) as stop:
        run.ensure_venv("dev")
    assert str(stop.value.code).startswith("run.py: pip could not install cobi-companion[dev] "
                                           "into .venv (exit 1)")
    err = capsys.readouterr().err
    assert err == ("ERROR: Could not find a version that satisfies the requirement pydantic\n"
                   "pip's last lines:\n  Collecting pydantic<3,>=2.7\n")
    assert not list(run.VENV.glob(".installed-*"))


@pytest.mark.parametrize("argv", [["os-check"], ["os-check", "jessie-i386"]],
                         ids=["none", "unknown"])
def test_os_check_names_its_variants(argv: list[str]) -> None:
    """`python3 run.py os-check` without a variant it knows says which it knows, before it
    asks for root or touches anything (the checks themselves: systemd/README.md)."""
    result = subprocess.run([sys.executable, str(REPO / "run.py"), *argv], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == ("usage: sudo python3 run.py os-check "
                             "bookworm-arm64|trixie-arm64|bookworm-armhf\n")
    assert result.stdout == ""


def test_a_32_bit_pi_is_told_to_take_cbor2_from_apt(run: ModuleType, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """On a 32-bit Raspberry Pi OS without python3-cbor2, pip would build cbor2 6 from its
    source (Rust): run.py says what to install instead, before any venv or pip."""
    on_a_pi(run, tmp_path, monkeypatch)
    recorder = Recorder(run, monkeypatch)
    monkeypatch.setattr(run, "sixty_four_bit", lambda: False)
    found = run.importlib.util.find_spec
    monkeypatch.setattr(run.importlib.util, "find_spec",
                        lambda name: None if name == "cbor2" else found(name))
    with pytest.raises(SystemExit) as stop:
        run.ensure_venv("")
    assert stop.value.code == ("run.py: a 32-bit Python takes python3-cbor2 from Debian (PyPI's "
                               "has no armv7 wheel): sudo apt install python3-cbor2 libespeak-ng1 "
                               "(the voice), then python3 run.py again")
    assert recorder.builders == recorder.installs == []
    monkeypatch.setattr(run.importlib.util, "find_spec", lambda name: object())   # apt's there
    run.ensure_venv("")
    [[_, *args]] = recorder.installs
    assert args[:2] == ["-e", "."]


# ---- python3 run.py test: the tests' helpers type-checked, mypy beside pytest on every core ----

def test_the_tests_helpers_are_found_under_the_names_the_tests_import(run: ModuleType) -> None:
    helpers = run.helper_modules()
    assert helpers["tour"] == REPO / "tests/device/tour.py"
    assert helpers["journeys"] == REPO / "tests/device/journeys"          # a package
    assert helpers["tests_conftest"] == REPO / "tests/conftest.py"
    assert helpers["device_conftest"] == REPO / "tests/device/conftest.py"
    # every module of those folders that is no test file, and no test file
    for folder in run.HELPER_FOLDERS:
        for path in (REPO / folder).glob("*.py"):
            assert (path in helpers.values()) == (not path.name.startswith("test_")), path


def test_mypy_sees_the_helpers_beside_the_package(run: ModuleType, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "TYPECHECK", tmp_path / ".venv" / "typecheck")
    (run.TYPECHECK / "gone.py").parent.mkdir(parents=True)
    (run.TYPECHECK / "gone.py").symlink_to(tmp_path)          # a helper since removed
    tree = run.typecheck_tree()
    assert (tree / "tour.py").resolve() == REPO / "tests/device/tour.py"
    assert (tree / "journeys" / "__init__.py").resolve() == \
        REPO / "tests/device/journeys/__init__.py"
    assert (tree / "device_conftest.py").resolve() == REPO / "tests/device/conftest.py"
    assert not (tree / "gone.py").is_symlink()
    command = run.mypy_command()
    assert command[command.index("-p") + 1] == "cobi_companion"
    assert {command[i + 1] for i, arg in enumerate(command) if arg == "-m"} == \
        set(run.helper_modules())


@pytest.mark.parametrize(("workers", "spread"), [
    (2, ["-n", "2", "--dist", "loadgroup"]), (8, ["-n", "8", "--dist", "loadgroup"]), (1, [])])
def test_pytest_runs_on_every_core(run: ModuleType, workers: int, spread: list[str]) -> None:
    assert run.pytest_command(workers)[1:] == ["-m", "pytest", *spread]


def test_pytest_is_given_the_cores_this_process_may_use(run: ModuleType) -> None:
    assert run.usable_cores() == len(os.sched_getaffinity(0))


@pytest.mark.parametrize(("cores", "memory", "workers"), [
    (2, 24 << 30, 3), (4, 8 << 30, 5), (1, 8 << 30, 1),
    (4, 2 << 30, 2), (4, 512 << 20, 1), (4, 0, 1)])
def test_pytest_takes_a_worker_more_than_the_cores_as_memory_allows(
        run: ModuleType, cores: int, memory: int, workers: int) -> None:
    # A Pi 4 of 2 GB: 2 workers; a Pi Zero 2 W (512 MB): pytest alone.
    assert run.workers_for(cores, memory) == workers


def test_the_free_memory_is_read_from_meminfo(run: ModuleType, tmp_path: Path) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:  2048000 kB\nMemFree: 100 kB\nMemAvailable:  1024000 kB\n")
    assert run.available_memory(meminfo) == 1024000 * 1024
    meminfo.write_text("MemTotal:  2048000 kB\n")
    assert run.available_memory(meminfo) is None
    assert run.available_memory(tmp_path / "none") is None
    assert run.workers_for(2, None) == 3             # not known: the cores decide


# Stand-ins for ruff, mypy and the venv's python: each writes down that it ran and with what,
# and ends with the exit code its file in `codes` holds. mypy waits for pytest to start and
# pytest for mypy (a marker file each; a minute is only the guard against a hang): run one
# after the other, the first gives up waiting for the second, and the run fails.
TOOL = """#!/bin/sh
echo "$(basename "$0") $*" >> {log}
case "$(basename "$0")" in
  mypy) touch {marks}/mypy; i=0
        while [ ! -e {marks}/pytest ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
        [ -e {marks}/pytest ] || exit 3
        echo "mypy found nothing wrong";;
  python) echo "${{PYTHONDONTWRITEBYTECODE-unset}} ${{PYTHONPYCACHEPREFIX-unset}}" > {marks}/env
        touch {marks}/pytest; i=0
        while [ ! -e {marks}/mypy ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
        [ -e {marks}/mypy ] || exit 3;;
esac
exit $(cat {codes}/$(basename "$0"))
"""


@pytest.fixture
def tools(run: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
          ) -> Callable[..., tuple[int, list[str], str]]:
    """`tools(ruff=0, mypy=0, python=0)`: run_tests with stand-in tools ending with those
    codes; its result, the tools' command lines in the order they started, and its output."""
    for folder in ("marks", "codes"):
        (tmp_path / folder).mkdir()
    log = tmp_path / "log"
    run.BIN.mkdir(parents=True)
    for name in ("ruff", "mypy", "python"):
        tool = run.BIN / name
        tool.write_text(TOOL.format(log=log, marks=tmp_path / "marks", codes=tmp_path / "codes"))
        tool.chmod(0o755)
    monkeypatch.setattr(run, "ensure_venv", lambda extras: None)
    monkeypatch.setattr(run, "TYPECHECK", tmp_path / "typecheck")
    monkeypatch.setattr(run, "pytest_workers", lambda: 2)
    monkeypatch.setattr(run, "precompile", lambda env: None)     # tested on its own, below

    def tested(ruff: int = 0, mypy: int = 0, python: int = 0) -> tuple[int, list[str], str]:
        for name, code in (("ruff", ruff), ("mypy", mypy), ("python", python)):
            (tmp_path / "codes" / name).write_text(f"{code}\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = run.run_tests()
        return code, log.read_text().splitlines() if log.exists() else [], out.getvalue()
    return tested


def test_mypy_runs_beside_pytest_on_every_core(tools: Callable[..., tuple[int, list[str], str]]
                                               ) -> None:
    code, started, out = tools()
    assert code == 0
    assert started[0] == "ruff check ."
    assert sorted(line.split()[0] for line in started[1:]) == ["mypy", "python"]
    [pytest_line] = [line for line in started if line.startswith("python")]
    assert pytest_line == "python -m pytest -n 2 --dist loadgroup"
    [mypy_line] = [line for line in started if line.startswith("mypy")]
    assert "-p cobi_companion" in mypy_line and "-m tour" in mypy_line
    assert out.index("== pytest") < out.index("== mypy") < out.index("mypy found nothing wrong")


@pytest.mark.parametrize(("codes", "result"), [
    ({"mypy": 1}, 1), ({"python": 1}, 1), ({"python": 2, "mypy": 1}, 2)])
def test_a_failing_mypy_or_pytest_fails_the_run(tools: Callable[..., tuple[int, list[str], str]],
                                                codes: dict[str, int], result: int) -> None:
    code, started, _ = tools(**codes)
    assert code == result
    assert len(started) == 3                          # each ran to its end


def test_a_failing_ruff_stops_the_run_before_the_rest(
        tools: Callable[..., tuple[int, list[str], str]]) -> None:
    code, started, out = tools(ruff=1)
    assert (code, started) == (1, ["ruff check ."])
    assert "== pytest" not in out


def test_pytest_collecting_no_tests_fails_the_run(
        tools: Callable[..., tuple[int, list[str], str]],
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = tools(python=5)
    assert code == 1
    assert capsys.readouterr().err == "pytest collected no tests: that is a failure here\n"


def test_the_tests_processes_write_their_compiled_modules_outside_the_tree(
        run: ModuleType, tools: Callable[..., tuple[int, list[str], str]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where PYTHONDONTWRITEBYTECODE is set, every process the tests start would compile the
    package again: pytest's are given a pycache in .venv instead (a prefix of the user's own
    is kept)."""
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.delenv("PYTHONPYCACHEPREFIX", raising=False)
    assert tools()[0] == 0
    assert (tmp_path / "marks" / "env").read_text().split() == [
        "unset", str(run.VENV / "pycache")]
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", "/somewhere")
    assert run.tools_environment(dict(os.environ))["PYTHONPYCACHEPREFIX"] == "/somewhere"


def test_the_modules_are_compiled_before_the_tests_the_packages_once_an_install(
        run: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "root"
    for part in ("rules", "cards", "device", "tests"):
        (root / part).mkdir(parents=True)
        (root / part / f"{part}_mod.py").write_text("X = 1\n")
    for name in ("pyproject.toml", "constraints.txt"):      # what an install is current with
        shutil.copy(REPO / name, root / name)
    monkeypatch.setattr(run, "ROOT", root)
    monkeypatch.setattr(run, "CONSTRAINTS", root / "constraints.txt")
    run.BIN.mkdir(parents=True)
    run.venv_python().symlink_to(sys.executable)
    packages = run.site_packages()
    packages.mkdir(parents=True)
    (packages / "first.py").write_text("Y = 2\n")
    prefix = tmp_path / "pycache"
    run.precompile({**os.environ, "PYTHONPYCACHEPREFIX": str(prefix)})

    def compiled(name: str) -> bool:
        return any(prefix.rglob(f"{name}.*.pyc"))
    assert all(compiled(f"{part}_mod") for part in ("rules", "cards", "device", "tests"))
    assert compiled("first") and (run.VENV / ".compiled").read_text() == run.install_key()
    (packages / "later.py").write_text("Z = 3\n")      # installed packages: once an install
    (root / "device" / "new.py").write_text("W = 4\n")  # the project's: every time
    run.precompile({**os.environ, "PYTHONPYCACHEPREFIX": str(prefix)})
    assert compiled("new") and not compiled("later")
