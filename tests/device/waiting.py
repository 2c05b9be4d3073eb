"""Waiting in a test for something another thread does (the main loop run in a thread, a
sensor on its own): `until(condition)` polls it, and says whether it came in time;
`run_beside(loop, finger)` runs the real main loop here while a finger acts from another
thread, and stops the loop when the finger is done."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from cobi_companion.device.ports.events import Stop

# How long a test waits for another thread or process before it calls it hung. Only a guard:
# every wait ends as soon as its condition holds, so a slow or busy machine (a Pi, emulation,
# both cores taken by another load) only makes the test slower, never fails it. No test
# asserts how fast anything happens: the benchmarks in bench/ measure that.
HANG_S = 120.0


def until(condition: Callable[[], object], timeout: float = HANG_S) -> bool:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.005)
    return True


def run_beside(loop: Any, finger: Callable[[], None]) -> None:
    """`loop.run()` in this thread (the one that made the box) while `finger` runs in another;
    the loop is stopped when the finger returns or fails."""
    def then_stop() -> None:
        try:
            finger()
        finally:
            loop.put(Stop("test"))
    thread = threading.Thread(target=then_stop)
    thread.start()
    loop.run()
    thread.join(HANG_S)
