"""The test suite itself: nothing in it may hang on a machine's speed (issue: a busy laptop or
a Pi made the README's test command a coin toss)."""
from __future__ import annotations

from hypothesis import HealthCheck, settings
from waiting import HANG_S


def test_hypothesis_has_no_deadline_and_a_fixed_seed() -> None:
    current = settings()
    assert current.deadline is None
    assert current.derandomize is True and current.database is None
    assert HealthCheck.too_slow in current.suppress_health_check


def test_a_wait_for_another_thread_is_a_hang_guard_not_a_deadline() -> None:
    assert HANG_S >= 60.0
