"""The virtual smart dice (ports/fake_dice.py), the port made at its first use
(ports/late_dice.py) and the die words of the simulator and the test keys."""
from __future__ import annotations

from typing import Any

import pytest
from cobi_companion.device.ports.die_readings import (
    GODICE,
    PIXELS,
    Battery,
    Colour,
    NotARoll,
    Rolling,
    Settled,
)
from cobi_companion.device.ports.events import DieFound, DieLink, DieSaid, ScanDone
from cobi_companion.device.ports.fake_dice import (
    ASLEEP,
    SIM_DICE,
    FakeDice,
    VirtualDie,
    die_word,
)
from cobi_companion.device.ports.late_dice import LateDice

RED, BLUE, BLACK, SKY = (die.die for die in SIM_DICE)


@pytest.fixture
def heard() -> list[Any]:
    return []


@pytest.fixture
def dice(heard: list[Any]) -> FakeDice:
    return FakeDice(heard.append)


def test_the_simulators_dice_are_two_of_each_maker_each_of_its_own_colour():
    assert sorted(die.kind for die in SIM_DICE) == [GODICE, GODICE, PIXELS, PIXELS]
    assert len({die.colour for die in SIM_DICE}) == len({die.die for die in SIM_DICE}) == 4


def test_a_scan_finds_every_awake_die_then_is_done(dice, heard):
    dice.sleep(SKY)
    dice.scan(5.0)
    assert heard == [*(DieFound(d.die, d.kind, d.name) for d in SIM_DICE[:3]), ScanDone()]


def test_kept_dice_connect_at_the_start_saying_their_colour_and_battery(dice, heard):
    dice.keep({RED: GODICE, SKY: PIXELS})
    assert heard == []                   # not started: nothing connects
    dice.start()
    assert heard == [DieLink(RED, True), DieSaid(RED, Colour("red")), DieSaid(RED, Battery(90)),
                     DieLink(SKY, True), DieSaid(SKY, Colour("aurora_sky")),
                     DieSaid(SKY, Battery(70))]
    heard.clear()
    dice.keep({SKY: PIXELS, BLUE: GODICE})     # RED let go, BLUE comes
    assert heard == [DieLink(RED, False, "no longer paired"), DieLink(BLUE, True),
                     DieSaid(BLUE, Colour("blue")), DieSaid(BLUE, Battery(90))]
    assert not dice.online(RED)


def test_a_roll_tumbles_then_settles_and_not_a_roll_is_said_so(dice, heard):
    dice.keep({RED: GODICE})
    dice.start()
    heard.clear()
    assert dice.roll(RED, 4) == 4
    face = dice.roll(RED)
    dice.tilt(RED, 2)
    dice.move(RED)
    assert face in range(1, 7)
    assert [event.reading for event in heard] == [
        Rolling(), Settled(4), Rolling(), Settled(face), Rolling(), NotARoll("tilted", 2),
        NotARoll("moved")]


def test_a_die_not_paired_asleep_or_of_another_kind_is_never_heard(heard):
    dice = FakeDice(heard.append, (VirtualDie("X", GODICE, "GoDice_X", "red"),))
    dice.start()
    assert dice.roll("X", 3) is None
    dice.keep({"X": PIXELS})                 # paired as the wrong maker: it never connects
    assert dice.roll("X", 3) is None and heard == []
    dice.keep({"X": GODICE})                 # paired again, rightly
    assert heard[0] == DieLink("X", True)
    dice.sleep("X")
    dice.sleep("X")                          # asleep already: said once
    assert dice.roll("X", 3) is None
    assert heard[-1] == DieLink("X", False, ASLEEP)
    assert heard.count(DieLink("X", False, ASLEEP)) == 1
    dice.wake("X")
    assert heard[-3:] == [DieLink("X", True), DieSaid("X", Colour("red")),
                          DieSaid("X", Battery(90))]
    dice.close()
    assert dice.roll("X", 3) is None


def test_lights_and_flashes_are_recorded_for_connected_dice_only(dice):
    dice.keep({RED: GODICE})
    dice.start()
    dice.light(RED, (255, 0, 0))
    dice.light(BLUE, (0, 0, 255))             # not paired
    dice.flash(RED)
    dice.flash(BLUE)
    dice.light(RED, None)
    assert dice.lit == {RED: None} and dice.flashed == [RED]


def test_a_sides_dice_are_thrown_in_turn(dice, heard):
    paired = {RED: {"kind": GODICE, "side": "axis"}, BLACK: {"kind": PIXELS, "side": "axis"},
              BLUE: {"kind": GODICE, "side": "allies"}}
    dice.keep({die: about["kind"] for die, about in paired.items()})
    dice.start()
    heard.clear()
    for face in (1, 2, 3):
        assert dice.roll_side("axis", paired, face) == face
    assert [event.die for event in heard if event.reading == Rolling()] == [RED, BLACK, RED]
    dice.sleep(BLUE)
    assert dice.roll_side("allies", paired) is None          # its only die is asleep
    assert dice.roll_side("axis", {}, 6) is None              # none paired


@pytest.mark.parametrize(("word", "thrown"), [
    ("axis_die", ("axis", 0)), ("allies_die=6", ("allies", 6)), ("axis_die=1", ("axis", 1)),
    ("axis_die=7", None), ("axis_die=", None), ("axis_die=x", None), ("axis", None),
    ("die=3", None)])
def test_die_words(word, thrown):
    assert die_word(word) == thrown


class Port:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def __getattr__(self, name: str) -> Any:
        return lambda *args: self.calls.append((name, *args))


def test_the_late_port_is_made_only_when_a_die_is_kept_or_scanned_for():
    made: list[Port] = []

    def make() -> Any:
        made.append(Port())
        return made[-1]
    late = LateDice(make)
    late.keep({})
    late.start()
    late.light("A", (1, 2, 3))
    late.flash("A")
    late.close()
    assert made == []
    late.scan(3.0)
    assert made[0].calls == [("keep", {}), ("start",), ("scan", 3.0)]
    late.flash("A")
    late.close()
    assert made[0].calls[-2:] == [("flash", "A"), ("close",)]


def test_the_late_port_keeps_the_dice_paired_at_the_start():
    made: list[Port] = []
    late = LateDice(lambda: made.append(Port()) or made[-1])
    late.keep({"A": GODICE})
    assert made == []                    # nothing until the box starts it
    late.start()
    late.keep({"A": GODICE, "B": PIXELS})
    assert made[0].calls == [("keep", {"A": GODICE}), ("start",),
                             ("keep", {"A": GODICE, "B": PIXELS})]
