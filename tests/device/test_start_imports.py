"""What the box imports before its start menu, and what it imports while idle after: the games'
screens and the rules behind them (a new battle's roster, Easy, the menus, the Tank Game, Cobra)
come in while nobody presses, never before the menu, and one module a step."""
from __future__ import annotations

import functools
import json
import subprocess
import sys

import pytest

START = """
import json, sys, tempfile
from pathlib import Path
from cobi_companion.device import box
from cobi_companion.device.config import Config
from cobi_companion.device.ports.display import MemoryDisplay
from gpiozero.pins.mock import MockFactory, MockPWMPin

later = [f"cobi_companion.{name}" for name in box.LATER_MODULES]
made = box.build(Config(), MemoryDisplay(), pin_factory=MockFactory(pin_class=MockPWMPin),
                 state_dir=Path(tempfile.mkdtemp()))
made.loop.draw()
before = [name for name in later if name in sys.modules]
steps = []                  # the project's modules each step of the warm-up imported
while made.loop.warm_up is not None:
    known = set(sys.modules)
    if not next(made.loop.warm_up, False):
        made.loop.warm_up = None
    steps.append([m for m in sys.modules if m not in known and m.startswith("cobi_companion")])
after = [name for name in later if name in sys.modules]
made.close()
print(json.dumps([before, after, later, [step for step in steps if step]]))
"""


# Both tests read the same start, made once (and on one worker: `--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("start_imports")


@functools.cache
def started() -> tuple[list[str], list[str], list[str], list[list[str]]]:
    out = subprocess.run([sys.executable, "-c", START], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    before, after, later, steps = json.loads(out)
    return before, after, later, steps


def test_the_start_menu_waits_for_no_later_module_and_the_idle_box_imports_them() -> None:
    before, after, later, _ = started()
    assert "cobi_companion.device.games.cobra.hub" in later
    assert "cobi_companion.device.games.roster" in later
    assert before == []
    assert after == later


def test_each_step_of_the_warm_up_imports_one_module_after_those_it_imports() -> None:
    """A step is one module's own code: a module that imports another not yet loaded is listed
    after it in box.LATER_MODULES (the message says which to list before which)."""
    *_, steps = started()
    wide = [step for step in steps if len(step) > 1]
    assert wide == [], ("list these in box.LATER_MODULES before the first of each group: "
                        f"{wide}")
