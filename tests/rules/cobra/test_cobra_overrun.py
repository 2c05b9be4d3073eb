"""Cobra's overrun (5.4): printed strength, the shifts each kind of overrun may take, the game
turn, and what its result does to the overrunning units' move; through the real rules."""
from __future__ import annotations

import pytest
from cobi_companion.rules.cobra.combat import (
    Nation,
    OverrunWhen,
    Unit,
    odds,
    parse_shift,
    roll,
)
from cobi_companion.rules.cobra.notes import Why
from cobi_companion.rules.cobra.overrun import overrun_odds, overrun_shift_choices
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.tables import COLUMNS, CobraTables
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.errors import Refusal, RulesError

MOVING, ADVANCING = OverrunWhen.MOVEMENT, OverrunWhen.ADVANCE


def units(*texts: str) -> list[Unit]:
    return [Unit.parse(t) for t in texts]


def refused(code: Refusal, *units_and_shifts: list[str], when: OverrunWhen = MOVING,
            turn: int | None = None) -> RulesError:
    attack, defence, *shifts = units_and_shifts
    with pytest.raises(RulesError) as raised:
        overrun_odds(units(*attack), units(*defence),
                     [parse_shift(s) for s in (shifts[0] if shifts else [])], when=when,
                     turn=turn)
    assert raised.value.code is code, str(raised.value)
    return raised.value


# ---- strength (5.4.1) ----


def test_an_overrun_is_at_printed_strength_never_doubled():
    # 5.4.1a "Do not double combat strength for divisional integrity"; 6.3e "They attack at
    # face value"
    exc = refused(CobraRefusal.OVERRUN_DOUBLED, ["8d", "6"], ["3"])
    assert str(exc) == "unit 8d: an overrun is at printed strength, not doubled for " \
                       "divisional integrity (5.4.1a)"
    o = overrun_odds(units("8", "6"), units("3"), when=MOVING)
    assert o.attack is not None and o.attack.total == 14 and o.base == "4:1"


def test_the_defenders_are_doubled_against_an_overrun():
    # 6.3e "doubled in combat strength ... for defense against overruns"
    o = overrun_odds(units("8"), units("3d"), when=MOVING)
    assert o.defence is not None and o.defence.total == 6 and o.column == "1:1"


def test_an_overrun_into_marsh_is_at_half_printed_strength():
    # 5.4.1b "Units performing an overrun into a marsh hex do so at half their printed combat
    # strength" (rounded up, 2.6)
    o = overrun_odds(units("7m", "4"), units("3"), when=MOVING)
    assert o.attack is not None and [u.strength for u in o.attack.units] == [4, 4]


def test_units_out_of_supply_may_not_overrun():
    # 5.4e "Units attempting an overrun must be in supply"; 10.6c "Units may not conduct
    # overruns when out of supply"
    exc = refused(CobraRefusal.OVERRUN_UNSUPPLIED, ["8s"], ["3"], when=ADVANCING)
    assert "5.4e" in str(exc) and "10.6c" in str(exc)
    # the defender out of supply is halved as in any combat (5.4.1c "supply")
    assert overrun_odds(units("8"), units("6s"), when=MOVING).column == "2:1"


@pytest.mark.parametrize("letter", ["b", "r", "u"])
def test_the_combat_phases_halvings_are_not_an_overruns(letter):
    # 5.4.1 "A unit conducts an overrun using their printed combat strength": only marsh
    # halves it (5.4.1b)
    exc = refused(CobraRefusal.OVERRUN_MODIFIER, [f"8{letter}"], ["3"])
    assert exc.values == {"unit": f"8{letter}", "modifier": letter}
    assert str(exc).endswith("printed strength, halved only into marsh (5.4.1, 5.4.1b)")


# ---- shifts (5.4.1c, 5.4.1d, 14.2c) ----


@pytest.mark.parametrize("when", list(OverrunWhen))
@pytest.mark.parametrize("air", ["air:+1", "air:-1"])
def test_air_points_may_not_aid_an_overrun(when, air):
    # 14.2c "AP may not be used to aid overruns", read over 5.4.1c's "air" (docs)
    exc = refused(CobraRefusal.OVERRUN_NO_AIR, ["8"], ["3"], [air], when=when, turn=16)
    assert str(exc) == "air points may not aid an overrun (14.2c)"
    # the same shift in an ordinary attack is allowed (14.2d)
    assert odds(units("8"), units("3"), [parse_shift(air)]).net == int(air[-2:])


def test_in_the_initial_movement_phase_terrain_hq_naval_and_patton():
    # 5.4.1c "terrain, supply, air, naval and offensive/defensive HQ combat shifts"; 5.4.1c5
    # Patton's two shifts "in addition to any shift provided by one other HQ"
    shifts = [parse_shift(s) for s in ("terrain:-1", "hq:+1", "patton:+2", "naval:+1",
                                       "hq:-1")]
    o = overrun_odds(units("6"), units("3"), shifts, when=MOVING, turn=18)
    assert (o.base, o.net, o.column, o.overrun) == ("2:1", 2, "4:1", MOVING)
    assert o.attacker is Nation.ALLIED and o.to_dict()["overrun"] == "movement"


@pytest.mark.parametrize("turn", [16, 17, 27])
def test_an_hq_gives_an_overrun_one_shift_even_from_game_turn_17(turn):
    # 5.4.1c3 "The maximum number of shifts that may be applied, except for Patton, is one"
    # (an attack's two from game turn 17, 8.3.3a, are not an overrun's)
    exc = refused(CobraRefusal.OVERRUN_ONE_HQ_SHIFT, ["8"], ["3"], ["hq:+2"], turn=turn)
    assert "5.4.1c3" in str(exc)
    assert odds(units("8"), units("3"), [parse_shift("hq:+2")], turn=17).net == 2


@pytest.mark.parametrize("shift", ["hq:+1", "hq:-1", "naval:+1", "patton:+2"])
def test_advancing_after_combat_no_hq_or_naval_shift(shift):
    # 5.4.1d "only affected by terrain and supply conditions. Important: HQ and air or naval
    # shifts may not be used"
    exc = refused(CobraRefusal.OVERRUN_ADVANCE_SHIFT, ["8"], ["3"], [shift], when=ADVANCING)
    assert exc.values == {"shift_kind": shift.split(":")[0]}
    overrun_odds(units("8"), units("3"), [parse_shift(shift)], when=MOVING)   # moving: allowed


def test_advancing_after_combat_terrain_and_tigers():
    # 5.4.1d terrain; 8.3.1 Tigers "attacking or defending, including overruns"
    shifts = [parse_shift(s) for s in ("terrain:-2", "tiger:+1")]
    o = overrun_odds(units("12"), units("3"), shifts, when=ADVANCING)
    assert (o.base, o.net, o.column, o.attacker) == ("4:1", -1, "3:1", Nation.GERMAN)


def test_the_shifts_offered_for_each_kind_of_overrun():
    # 5.4.1c (one HQ shift, 5.4.1c3), 5.4.1d (terrain only), 14.2c (no air), 8.3.1 (Tigers)
    moving = overrun_shift_choices(Nation.ALLIED, 17, MOVING)
    assert [(c.key, c.columns) for c in moving] == [
        ("terrain", (0, -1, -2, -3, -4, -5)), ("att_hq", (0, 1)), ("def_hq", (0, -1)),
        ("tiger", (0, -1)), ("naval", (0, 1, 2)), ("patton", (0, 1, 2))]
    assert [c.key for c in overrun_shift_choices(Nation.GERMAN, 16, MOVING)] == [
        "terrain", "att_hq", "def_hq", "tiger"]
    assert [c.key for c in overrun_shift_choices(Nation.ALLIED, 16, ADVANCING)] == [
        "terrain", "tiger"]


# ---- the game turn (17.3.3c) ----


def test_no_overruns_on_game_turn_1():
    # 17.3.3c "Neither player may conduct overruns on GT 1. Overruns are conducted in the
    # normal manner beginning on GT 2."
    exc = refused(CobraRefusal.OVERRUN_TURN_1, ["8"], ["3"], turn=1)
    assert str(exc) == "no overruns on game turn 1 (17.3.3c)"
    assert overrun_odds(units("8"), units("3"), when=MOVING, turn=2).column == "2:1"


# ---- the result (5.4.2, 5.4.3) ----


def rolled(cell: str | None) -> Why:
    """The overrun note of an overrun of 6 against 3 (2:1) rolled 4, the cell being `cell`."""
    crt = CobraTables(crt={c: ["", "", "", cell if c == "2:1" and cell else "", "", ""]
                           for c in COLUMNS})
    combat = roll(overrun_odds(units("6"), units("3"), when=MOVING), ScriptedDice([4]), crt)
    assert combat.notes[-1].text == combat.explanation[-1]
    return combat.notes[-1].why


@pytest.mark.parametrize(("cell", "why"), [
    ("1/2", Why.OVERRUN_SPLIT),        # 5.4.3a "do not move into a vacated target hex if the
                                       # combat result is a split result"
    ("1/-", Why.OVERRUN_HALTED),       # 5.4.3b "must take a loss or retreat, ... halts"
    ("e", Why.OVERRUN_HALTED),
    ("-/e", Why.OVERRUN_VACATED),      # 5.4.2 "the overrunning units must all move into the
                                       # vacated hex"
    ("-/2", Why.OVERRUN_IF_VACATED),   # the defender chooses steps or retreat (8.7)
    ("-/-", Why.OVERRUN_FAILED),       # 5.4.3 "halt all movement ... if their overrun fails"
    (None, Why.OVERRUN_READ),          # no owner's CRT: every way it may go
])
def test_what_an_overruns_result_does_to_the_move(cell, why):
    assert rolled(cell) is why


def test_an_attacks_result_has_no_overrun_note():
    crt = CobraTables(crt={"2:1": ["", "", "", "1/2", "", ""]})
    combat = roll(odds(units("6"), units("3")), ScriptedDice([4]), crt)
    assert not any(n.why.value.startswith("overrun") for n in combat.notes)
    assert combat.odds.to_dict()["overrun"] is None
