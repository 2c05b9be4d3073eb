"""What the box imports before its start menu, and what it imports while idle after: the games'
screens (a new battle's roster, Easy, the menus, the Tank Game, Cobra) come in while nobody
presses, never before the menu."""
from __future__ import annotations

import json
import subprocess
import sys

START = """
import json, sys, tempfile
from pathlib import Path
from cobi_companion.device import box
from cobi_companion.device.config import Config
from cobi_companion.device.ports.display import MemoryDisplay
from gpiozero.pins.mock import MockFactory, MockPWMPin

later = [f"cobi_companion.device.{name}" for name in box.LATER_SCREENS]
made = box.build(Config(), MemoryDisplay(), pin_factory=MockFactory(pin_class=MockPWMPin),
                 state_dir=Path(tempfile.mkdtemp()))
made.loop.draw()
before = [name for name in later if name in sys.modules]
before += [m for m in sys.modules if m.startswith("cobi_companion.rules.cobra.combat")]
while made.loop.warm_up is not None:
    made.loop.wait(0.01)
after = [name for name in later if name in sys.modules]
made.close()
print(json.dumps([before, after, later]))
"""


def test_the_start_menu_waits_for_no_later_screen_and_the_idle_box_imports_them() -> None:
    out = subprocess.run([sys.executable, "-c", START], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    before, after, later = json.loads(out)
    assert "cobi_companion.device.games.cobra" in later
    assert before == []
    assert after == later
