"""Benchmark: a smart die settling → its face on the panel, the box's part of it.

    .venv/bin/python bench/smart_dice.py [--battles N]

The real box (app, screens, the SQLite store on disk) with luma's real ssd1306 driver over a
recording bus, as bench/device.py times a press: its smart dice are the virtual dice of
ports/fake_dice.py, two paired to each side. Each battle is an Easy battle played by throws
alone (the roll-off, then the Tiger's shot: to hit, its D6+, the Sherman's armour); each
die's settling is timed from the moment the die's event is put on the main loop's queue
(where the Bluetooth adapter's thread puts it) to the end of the last bus write of the frame
that shows its face. What comes before the queue (the die's radio, BlueZ, bleak, the
protocol's decoder) is the booted-system test's figure (tests/system/: a virtual die's
notification to bleak, in the box's sandbox). Prints the median, p99 and largest, in ms, with
an estimate for a Pi Zero 2 W (×15). Timings never fail the run: the exit code is non-zero only
when a battle goes off script.
"""
from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

from cobi_companion.device.box import build
from cobi_companion.device.config import Config
from cobi_companion.device.core.paired_dice import kept
from cobi_companion.device.games.battle import RollOff
from cobi_companion.device.games.throw import Throw
from cobi_companion.device.ports.die_readings import Rolling, Settled
from cobi_companion.device.ports.events import DieSaid
from cobi_companion.device.ports.fake_dice import SIM_DICE
from cobi_companion.device.ui.widgets import Choose
from cobi_companion.rules.dice import ScriptedDice
from gpiozero.pins.mock import MockFactory, MockPWMPin

sys.path.insert(0, str(Path(__file__).parent))
from device import ZERO_2W, BusDisplay, Finger, p99, warmed_up

CONFIG = {"smart_dice": {"adapter": "fake"}}
# Easy: a Tiger (Axis) against a Sherman (Allies), as the simulator's test sets it up.
SET_UP = ("ok", "cw", "allies", "cw", "cw", "axis", "ok")
AXIS, ALLIES = (SIM_DICE[0], SIM_DICE[2]), (SIM_DICE[1], SIM_DICE[3])
# The dice as thrown: who goes first (Axis 5, Allies 2); then the Tiger's button fires, and
# its to hit (5), its D6+ (3), the Sherman's armour (1): DESTROYED, the Axis wins.
ROLL_OFF = ((AXIS[0], 5), (ALLIES[0], 2))
SHOT = ((AXIS[0], 5), (AXIS[1], 3), (ALLIES[1], 1))


def paired() -> dict[str, dict[str, str]]:
    return {die.die: {"kind": die.kind, "name": die.name, "colour": die.colour,
                      "side": "axis" if die in AXIS else "allies"} for die in (*AXIS, *ALLIES)}


def throw(finger: Finger, die: str, face: int) -> float:
    """A die tumbles, then settles on `face`: the time (ms) from its settling put on the queue
    to the end of the frame that shows it."""
    assert finger.box is not None
    for _ in range(20):                  # the steps shown before the throw: OK goes on
        if isinstance(finger.box.app.screen, Throw | RollOff):
            break
        finger.act("ok")
    finger.box.loop.put(DieSaid(die, Rolling()))
    finger.serve(0.0)
    shown = len(finger.latencies)
    finger.box.loop.put(DieSaid(die, Settled(face)))
    finger.serve(0.0)
    if len(finger.latencies) == shown:
        raise RuntimeError(f"the settled die {die} drew no frame: {finger.box.app.view()}")
    return finger.latencies[shown]


def battle() -> list[float]:
    """One Easy battle on a fresh box, played by throws: each settling's time, in ms."""
    gc.collect()
    with tempfile.TemporaryDirectory() as state:
        config = Config.model_validate(CONFIG)
        display = BusDisplay()
        factory = MockFactory(pin_class=MockPWMPin)
        box = build(config, display, pin_factory=factory, dice=ScriptedDice([]),
                    state_dir=Path(state))
        finger = Finger(factory, config, box=box, display=display)
        try:
            box.app.settings.dice = {"axis": "smart", "allies": "smart"}
            box.app.settings.smart_dice = paired()
            box.app.smart.keep(kept(box.app.settings.smart_dice))
            box.loop.draw()
            while not warmed_up(box):
                box.loop.wait(0.01)
            finger.serve(0.0)                          # the dice connected
            for word in SET_UP:
                finger.act(word)
            times = [throw(finger, die.die, face) for die, face in ROLL_OFF]
            for _ in range(3):                         # who goes first, shown: OK on
                if isinstance(box.app.screen, Choose):
                    break
                finger.act("ok")
            for word in ("ok", "ok", "axis"):          # Tiger 1, Fire at the Sherman: fire
                finger.act(word)
            times += [throw(finger, die.die, face) for die, face in SHOT]
            if box.app.state is None or box.app.state.winner is None:
                raise RuntimeError(f"the battle went off script at {box.app.view()}")
            return times
        finally:
            box.close()
            factory.reset()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--battles", type=int, default=20, help="battles played (default 20)")
    battles = parser.parse_args(argv).battles
    started = time.perf_counter()
    times = [t for _ in range(battles) for t in battle()]
    median, high, most = statistics.median(times), p99(times), max(times)
    print(f"smart die settled → its face on the panel ({len(times)} dice, {battles} battles, "
          f"{time.perf_counter() - started:.1f} s)")
    print(f"  median {median:.2f} ms, p99 {high:.2f} ms, largest {most:.2f} ms")
    print(f"  Pi Zero 2 W (×{ZERO_2W}, an estimate): median {median * ZERO_2W:.0f} ms, "
          f"p99 {high * ZERO_2W:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
