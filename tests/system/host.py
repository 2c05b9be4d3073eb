"""The system test's host side: its cache folder, its commands and how a step fails."""
from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def cache_dir() -> Path:
    given = os.environ.get("COBI_SYSTEM_CACHE")
    return Path(given) if given else Path.home() / ".cache" / "cobi-companion" / "system"


def say(text: str) -> None:
    print(text, flush=True)


def run(*args: str | Path, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], check=True, text=True, **kwargs)


class StepFailed(Exception):
    """A step's check did not hold: its message says what was seen."""


class StepSkipped(Exception):
    """A step that cannot run on this tree (what it needs is not there yet): said, not failed."""


def poll(check: Callable[[], Any], timeout: float, what: str, step: float = 1.0) -> Any:
    """`check`'s first true answer within `timeout` s; else StepFailed naming `what`."""
    end = time.monotonic() + timeout
    while True:
        seen = check()
        if seen:
            return seen
        if time.monotonic() > end:
            raise StepFailed(f"{what}: not within {timeout:.0f} s")
        time.sleep(step)
