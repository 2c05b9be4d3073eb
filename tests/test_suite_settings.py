"""The test suite itself: nothing in it may hang on a machine's speed (issue: a busy laptop or
a Pi made the README's test command a coin toss)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from waiting import HANG_S


def test_hypothesis_has_no_deadline_and_a_fixed_seed() -> None:
    current = settings()
    assert current.deadline is None
    assert current.derandomize is True and current.database is None
    assert HealthCheck.too_slow in current.suppress_health_check


def test_a_wait_for_another_thread_is_a_hang_guard_not_a_deadline() -> None:
    assert HANG_S >= 60.0


def test_the_tests_that_share_the_tour_share_a_worker_a_language() -> None:
    """The tour (tests/device/conftest.py's taken_tour) is taken once in each process that
    asks for it, a language at a time: the tests of each language's tour are in that
    language's xdist group (tour.each_language, tour.in_language), so that of the workers of
    `python3 run.py test` one takes the English tour and another the Polish; none is left in
    the one group of the whole tour that kept both on one worker. (A test reading a language
    outside its groups fails: test_a_test_reads_only_the_tour_of_its_group.)"""
    tests = Path(__file__).parent
    sharing = [path for path in tests.rglob("test_*.py")
               if re.search(r"\b(taken_tour|tour_frames)\b", path.read_text(encoding="utf-8"))
               and path.name != Path(__file__).name]
    assert len(sharing) >= 4
    ungrouped = [str(path.relative_to(tests)) for path in sharing
                 if not re.search(r"\b(each_language|in_language)\(", path.read_text())
                 or 'xdist_group("tour")' in path.read_text()]
    assert ungrouped == []


GROUPED = '''import os
import pytest

pytestmark = pytest.mark.xdist_group("tour")


@pytest.mark.parametrize("n", range(8))
def test_grouped(n):
    with open(os.environ["WORKERS_SEEN"], "a") as seen:
        seen.write(os.environ["PYTEST_XDIST_WORKER"] + "\\n")
'''


@pytest.mark.long
def test_the_tests_of_an_xdist_group_run_on_one_worker(tmp_path: Path) -> None:
    """pytest on two workers as `python3 run.py test` runs it, over this suite's conftest and
    eight tests of one group and eight of none: the group's all on one worker."""
    shutil.copy(Path(__file__).with_name("conftest.py"), tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_grouped.py").write_text(GROUPED)
    (tmp_path / "test_alone.py").write_text(
        "import pytest\n\n\n@pytest.mark.parametrize('n', range(8))\ndef test_alone(n):\n"
        "    pass\n")
    seen = tmp_path / "seen"
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup",
                           "-p", "no:cacheprovider", "-q"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=HANG_S, env={**os.environ, "WORKERS_SEEN": str(seen)})
    assert done.returncode == 0, done.stdout + done.stderr
    workers = seen.read_text().split()
    assert len(workers) == 8 and len(set(workers)) == 1


def test_the_long_tests_are_handed_out_first(request: pytest.FixtureRequest) -> None:
    # xdist hands the tests out in the order collected: the marked ones lead, in their order.
    from types import SimpleNamespace

    conftest = next(plugin for plugin in request.config.pluginmanager.get_plugins()
                    if str(getattr(plugin, "__file__", "")) == str(Path(__file__).parent /
                                                                  "conftest.py"))

    class Item:
        def __init__(self, name: str, long: bool) -> None:
            self.name, self.long = name, long

        def get_closest_marker(self, name: str) -> object | None:
            return object() if name == "long" and self.long else None
    items = [Item("a", False), Item("b", True), Item("c", False), Item("d", True)]
    conftest.pytest_collection_modifyitems(SimpleNamespace(option=SimpleNamespace()), items)
    assert [item.name for item in items] == ["b", "d", "a", "c"]
