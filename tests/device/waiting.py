"""Waiting in a test for something another thread does (the main loop run in a thread, a
sensor on its own): `until(condition)` polls it, and says whether it came in time."""
from __future__ import annotations

import time
from collections.abc import Callable


def until(condition: Callable[[], object], timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.005)
    return True
