"""Shared fixtures: the shipped cards, and a way to run the real `cobi-companion` command."""
from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _pytest.nodeid import coerce_node_id
from cobi_companion.cards import CardBook, load_cards
from hypothesis import HealthCheck, settings

# Hypothesis the same on every machine and every run: no deadline per example (a Pi, an
# emulated arm64 or a busy laptop is slower, not wrong), no "too slow" health check for the
# same reason, examples drawn from a fixed seed (a run never finds what the last one did not)
# and no example database (a fresh clone and CI see the same examples).
settings.register_profile("box", deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("box")

@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked `long` first, in their order (xdist hands the tests out in the order
    they are collected: a test of many seconds handed out last would end the run on one
    worker alone, the other cores idle). And the tests of one xdist_group on one worker
    (`python3 run.py test` gives pytest `--dist loadgroup`). pytest-xdist marks a test's group
    as a suffix of its node id, which a worker reports and the scheduler groups by, but it
    writes it where pytest 9 no longer keeps the id (Node._nodeid; now Node._id): without
    this, a group's tests are spread over the workers as any others are."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
    if not getattr(config.option, "loadgroup", False):          # set in xdist's workers
        return
    for item in items:
        groups = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                         for mark in item.iter_markers("xdist_group")})
        suffix = "@" + "_".join(groups)
        if groups and not item.nodeid.endswith(suffix):
            item._id = coerce_node_id(item.nodeid + suffix)


CLI = shutil.which("cobi-companion", path=str(Path(sys.executable).parent)) or "cobi-companion"


@pytest.fixture(autouse=True)
def _no_user_cards(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Tests see only the shipped cards and no settings files unless they add their own, and
    each has a cache folder of its own."""
    monkeypatch.setenv("COBI_COMPANION_CARDS", "")
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", "")     # no boot partition, no USB stick
    monkeypatch.delenv("COBI_COMPANION_STICK", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))   # snapshots, glyph atlas
    # No test speaks through the computer's loudspeaker (nor renders the voice's cache) but
    # the voice's own, which name their player.
    monkeypatch.setenv("COBI_COMPANION_PLAYER", "none")
    for systemd in ("CACHE_DIRECTORY", "STATE_DIRECTORY"):      # else the cache would be there
        monkeypatch.delenv(systemd, raising=False)


# The snapshots a first run takes of what the checks made of the shipped cards and Cobra tables
# (cards/snapshot.py), and of the font files' digests (device/ui/reference_glyphs.py): the same
# in every test that starts a command on the shipped files, where each first run in a fresh
# cache folder checked the cards again with pydantic (two thirds of a short command's CPU).
# Taken once per test process by real commands, and copied into the cache folder of a test that
# asks for them (`checked_cards`). A command still takes the stamp of every file and uses a
# snapshot only while the files and the code are those it was taken of. The check itself and a
# first start's snapshot: tests/device/test_start_snapshot.py, and the command tests run in
# this process. (The box's settings snapshot names the test's own state folder: it is taken in
# the test, as before.)
CARD_SNAPSHOTS = ("cli-cards", "cli-cobra", "box-cards", "font-digests")
FIRST_RUNS = (["cards", "list"], ["cobra", "odds", "--attack", "12", "--defence", "1"],
              ["sim", "--keys", "ok"])
FIRST_RUNS_CODE = """
import json, sys
from cobi_companion.device.cli import main
for argv in json.loads(sys.argv[1]):
    if main(argv) != 0:
        raise SystemExit(f"{argv}: not 0")
"""


@pytest.fixture(scope="session")
def card_snapshots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The card snapshots' files by name, as real first runs wrote them (in the environment
    `_no_user_cards` gives every test)."""
    home = tmp_path_factory.mktemp("first-runs")
    env = {**os.environ, "COBI_COMPANION_CARDS": "", "COBI_COMPANION_OVERLAYS": "",
           "COBI_COMPANION_PLAYER": "none", "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache")}
    for name in ("COBI_COMPANION_STICK", "CACHE_DIRECTORY", "STATE_DIRECTORY"):
        env.pop(name, None)
    # The commands one after the other in one real process: one Python start, one import of
    # the checks.
    done = subprocess.run([sys.executable, "-c", FIRST_RUNS_CODE, json.dumps(FIRST_RUNS)],
                          env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    taken = home / "cache" / "cobi-companion" / "snapshots"
    return {path.name: path.read_bytes() for path in sorted(taken.glob("*.json"))
            if path.stem in CARD_SNAPSHOTS}


def seed_card_snapshots(cache_home: Path, snapshots: dict[str, bytes]) -> None:
    """The card snapshots in the cache folder of XDG_CACHE_HOME=`cache_home`."""
    put_card_snapshots(cache_home / "cobi-companion" / "snapshots", snapshots)


def put_card_snapshots(folder: Path, snapshots: dict[str, bytes]) -> None:
    """The card snapshots in the snapshots folder `folder` (cards/snapshot.py: that of
    $STATE_DIRECTORY is its cache/snapshots)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in snapshots.items():
        (folder / name).write_bytes(data)


@pytest.fixture
def checked_cards(_no_user_cards: None, card_snapshots: dict[str, bytes],
                  tmp_path: Path) -> Callable[[Path], None]:
    """The test's cache folder holds the card snapshots of a first run (`card_snapshots`);
    what it gives puts them in another (the folder XDG_CACHE_HOME names) too."""
    def seed(cache_home: Path) -> None:
        seed_card_snapshots(cache_home, card_snapshots)
    seed(tmp_path / "cache")
    return seed


@pytest.fixture
def make_fifo() -> Iterator[Callable[[Path], Path]]:
    """os.mkfifo, guarded: should the code under test open the FIFO blocking, a helper's write
    end lets that open return (on an empty file, which the test then fails on) instead of
    hanging the tests. Each helper waits for a reader; at the end the fixture is that reader,
    through a handle that still reaches the FIFO once the test has removed or renamed it."""
    made: list[tuple[int, threading.Thread]] = []

    def make(path: Path) -> Path:
        os.mkfifo(path)
        handle = os.open(path, os.O_PATH)        # neither a reader nor a writer
        fifo = f"/proc/self/fd/{handle}"
        helper = threading.Thread(target=lambda: os.close(os.open(fifo, os.O_WRONLY)),
                                  daemon=True)
        helper.start()
        made.append((handle, helper))
        return path
    yield make
    for handle, helper in made:
        while helper.is_alive():
            os.close(os.open(f"/proc/self/fd/{handle}", os.O_RDONLY | os.O_NONBLOCK))
            helper.join(0.01)
        os.close(handle)


@pytest.fixture(scope="session")
def book() -> CardBook:
    return load_cards([])


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)


def run_cli_process(*args: str, stdin: str | None = None,
                    env: dict[str, str] | None = None) -> Run:
    """`cobi-companion ARGS` as a person runs it: a real process, nothing injected."""
    proc = subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True,
                          timeout=60, env={**os.environ, **(env or {})})
    return Run(proc.returncode, proc.stdout, proc.stderr)


def run_cli(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> Run:
    """The same command through `main` in this process, its streams and environment swapped
    in: a Python start-up and the imports cost half a second a run, and the command tests run
    hundreds. tests/test_entry_points.py runs every command as a real process and checks that
    both ways print the same."""
    from cobi_companion.device.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                _stdin(stdin or ""):
            try:
                code = main(list(args))
            except SystemExit as exit_:       # argparse's usage errors, --help
                code = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return Run(code, out.getvalue(), err.getvalue())


@contextlib.contextmanager
def _stdin(text: str) -> Iterator[None]:
    saved = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        yield
    finally:
        sys.stdin = saved


@pytest.fixture
def cli() -> Any:
    return run_cli


@pytest.fixture
def cli_process() -> Any:
    return run_cli_process


@pytest.fixture
def cli_path() -> str:
    return CLI


def write_lgpio_placeholder(site: Path) -> None:
    """What `pip install lgpio` leaves in `site` where PyPI has no wheel: lgpio 0.0.0.2, an
    empty module that imports and does nothing (pip can uninstall it again)."""
    (site / "lgpio.py").write_text("")
    info = site / "lgpio-0.0.0.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lgpio\nVersion: 0.0.0.2\n")
    (info / "INSTALLER").write_text("pip\n")
    (info / "top_level.txt").write_text("lgpio\n")
    files = ["lgpio.py", *(f"{info.name}/{name}" for name in
                           ("METADATA", "INSTALLER", "top_level.txt", "RECORD"))]
    (info / "RECORD").write_text("".join(f"{name},,\n" for name in files))


@pytest.fixture
def lgpio_placeholder() -> Any:
    """`lgpio_placeholder(site)` writes PyPI's empty lgpio 0.0.0.2 into a venv's site folder."""
    return write_lgpio_placeholder



# Whether pip runs, by the interpreter a test's venv links to (`venv_has_pip`).
_PIP_RUNS: dict[Path, bool] = {}


def venv_has_pip(python: Path) -> bool:
    """Whether `python -m pip` runs in a venv a test made over the system's site packages with
    no pip of its own (tests/test_run_py.py, tests/systemd/test_lgpio.py): the pip it sees is
    that of the interpreter its `python` links to, so the first such venv's real probe answers
    for every other of that interpreter in this process."""
    interpreter = python.resolve()
    if interpreter not in _PIP_RUNS:
        _PIP_RUNS[interpreter] = subprocess.run([str(python), "-m", "pip", "--version"],
                                                capture_output=True).returncode == 0
    return _PIP_RUNS[interpreter]
