"""Cobra combat: per-unit strengths, the odds column and the shifts, with the seed's examples."""
from __future__ import annotations

import pytest
from cobi_companion.rules.cobra.combat import (
    Nation,
    Shift,
    ShiftKind,
    Unit,
    base_column,
    carpet_odds,
    explain,
    odds,
    parse_shift,
    roll,
)
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.tables import COLUMNS, CobraTables, Weather, parse_cell
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.errors import RulesError
from hypothesis import given
from hypothesis import strategies as st


def units(*texts: str) -> list[Unit]:
    return [Unit.parse(t) for t in texts]


def shifts(*texts: str) -> list[Shift]:
    return [parse_shift(t) for t in texts]


def test_26_to_9_is_2_to_1():
    o = odds(units("26"), units("9"))
    assert (o.base, o.column) == ("2:1", "2:1")
    assert "rounded down to 2:1" in o.base_note and "8.4" in o.base_note


def test_12_against_1_is_10_to_1():
    assert odds(units("12"), units("1")).column == "10:1"


def test_allies_four_shifts_against_germans_two_stay_on_10_to_1():
    o = odds(units("12"), units("1"), shifts("air:+1", "naval:+2", "hq:+1", "terrain:-1",
                                             "hq:-1"))
    assert (o.net, o.column) == (2, "10:1")
    d = o.to_dict()
    assert (d["attacker_shifts"], d["defender_shifts"]) == (4, 2)
    assert o.attacker == Nation.ALLIED


def test_the_reverse_gives_8_to_1():
    o = odds(units("12"), units("1"), shifts("hq:+1", "patton:+1", "terrain:-3", "hq:-1"))
    assert (o.net, o.column) == (-2, "8:1")
    assert "from 10:1" in o.column_note


def test_a_town_turns_3_to_1_into_2_to_1():
    o = odds(units("9"), units("3"), shifts("terrain:-1"))
    assert (o.base, o.column) == ("3:1", "2:1")
    town = CobraTables(terrain={"town": -1})
    assert odds(units("9"), units("3"), [parse_shift("town", town)]).column == "2:1"


def test_a_hill_behind_a_minor_river_adds_up_to_minus_3():
    # The seed gives only the sum (-3); the split between the two is this sample's.
    tec = CobraTables(terrain={"hill": -2, "minor_river": -1})
    o = odds(units("8"), units("2"), [parse_shift("hill", tec), parse_shift("minor river", tec)])
    assert [s.columns for s in o.shifts] == [-2, -1]
    assert (o.base, o.net, o.column) == ("4:1", -3, "1:1")


def test_each_unit_is_rounded_up_before_adding():
    o = odds(units("5h", "5h"), units("7q"))
    assert o.attack is not None and o.defence is not None
    assert [u.strength for u in o.attack.units] == [3, 3] and o.attack.total == 6
    assert o.defence.total == 2 and o.defence.units[0].rounded


def test_modifiers_multiply_then_round_once():
    o = odds(units("5dm", "3u"), units("1"))
    assert o.attack is not None
    assert [u.strength for u in o.attack.units] == [5, 1]      # 5×2×½ and ¾ → 1


@pytest.mark.parametrize("text", ["5md", "5dm"])
def test_doubling_comes_first_then_the_halving_of_the_final_strength(text):
    """6.3e: units with divisional integrity "are doubled in combat strength"; 8.3.2c:
    mechanized units across the Dives "have their final combat strengths quartered"; 8.3.2:
    "calculate each unit's modified combat strength first (round all fractions up ...)
    then add". The doubling first, the halving of that final strength, one rounding: 5
    doubled is 10, halved 5, whichever order the letters are typed; never 6 (5 halved and
    rounded to 3, then doubled)."""
    o = odds(units(text), units("1"))
    assert o.attack is not None
    unit = o.attack.units[0]
    assert unit.strength == 5 and not unit.rounded
    assert [(m.letter, str(v)) for m, v in unit.steps()] == [("d", "10"), ("m", "5")]
    assert unit.to_dict()["applied"] == [{"letter": "d", "factor": "2", "value": "10"},
                                         {"letter": "m", "factor": "1/2", "value": "5"}]


def test_a_doubled_and_quartered_unit_rounds_once_at_the_end():
    """8.3.2c: "final combat strengths quartered" (the doubled strength), rounded up (2.6):
    5 doubled is 10, quartered 5/2, rounded up to 3; not 5 quartered and rounded to 2, then
    doubled to 4."""
    o = odds(units("5ud"), units("1"))
    assert o.attack is not None and o.attack.units[0].strength == 3


@pytest.mark.parametrize(("role_units", "strengths"), [
    (("8ds", "5d"), [4, 10]),        # out of supply: ½ only; in supply: ×2
    (("7ds",), [4]),                 # 7 × ½ = 3½, rounded up; never 7
])
def test_out_of_supply_a_unit_has_no_divisional_integrity(role_units, strengths):
    """6.3: "Important: A unit must be in supply to have divisional integrity" - 8ds is
    8 × ½ = 4, the ×2 is not applied (and it is said why), attacking and defending."""
    for attack, defence in ((units(*role_units), units("1")), (units("1"), units(*role_units))):
        o = odds(attack, defence)
        side = o.attack if attack != units("1") else o.defence
        assert side is not None
        assert [u.strength for u in side.units] == strengths
        first = side.units[0].to_dict()
        assert [m["letter"] for m in first["not_applied"]] == ["d"]
        assert "6.3" in first["not_applied"][0]["why"]


def test_an_unsupplied_attack_drops_divisional_integrity():
    """10.0b: attacking without supply points "the attacking units are then considered out of
    supply", and out of supply a unit has no divisional integrity (6.3)."""
    from cobi_companion.rules.cobra.combat import out_of_supply

    o = odds([out_of_supply(u) for u in units("8d", "4")], units("3"))
    assert o.attack is not None and o.attack.total == 4 + 2


@pytest.mark.parametrize(("attack", "defence", "column"), [
    (1, 5, "1:5"), (1, 9, "1:5"), (4, 9, "1:3"), (5, 10, "1:2"), (6, 10, "1:2"),
    (9, 10, "1:2"), (10, 10, "1:1"), (19, 10, "1:1"), (20, 10, "2:1"), (99, 1, "10:1")])
def test_odds_round_in_the_defenders_favour(attack, defence, column):
    assert COLUMNS[base_column(attack, defence)[0]] == column


@given(st.integers(1, 200), st.integers(1, 200))
def test_the_column_never_favours_the_attacker(attack, defence):
    column = COLUMNS[base_column(attack, defence)[0]]
    a, d = (int(x) for x in column.split(":"))
    assert a / d <= attack / defence or column == "1:5"


@given(st.integers(1, 60), st.integers(1, 60), st.integers(-5, 0), st.integers(0, 2))
def test_shifts_count_from_the_clamped_column(attack, defence, terrain, naval):
    listed = [Shift(ShiftKind.TERRAIN, terrain)] + ([Shift(ShiftKind.NAVAL, naval)] if naval
                                                     else [])
    o = odds(units(str(attack)), units(str(defence)), listed)
    index = COLUMNS.index(o.base) + terrain + naval
    assert o.column == COLUMNS[min(max(index, 0), len(COLUMNS) - 1)]


@pytest.mark.parametrize(("listed", "message"), [
    (["tiger:+1", "air:+1"],
     "shift air +1 means the allied side attacks, but another shift says the german side does"),
    (["hq:+1", "hq:+1"], "hq is given twice for the same side: one hq shift per side"),
    (["terrain:+1"], "shift terrain +1: not allowed, only 0, -1, -2, -3, -4, -5 (8.3.2)"),
    (["patton:-1"], "shift patton -1: not allowed, only +1, +2 (8.3.3g)"),
    (["naval:+3"], "shift naval +3: not allowed, only +1, +2 (14.4b)"),
    (["tiger:+2"], "shift tiger +2: not allowed, only -1, +1 (8.3.1)"),
    (["air:-2"], "shift air -2: not allowed, only -1, +1 (14.2d)"),
])
def test_refused_shifts(listed, message):
    with pytest.raises(RulesError) as refused:
        odds(units("6"), units("3"), shifts(*listed))
    assert str(refused.value) == message


def test_two_hq_shifts_only_for_allied_attacks_from_turn_17():
    with pytest.raises(RulesError, match="game turn 17"):
        odds(units("6"), units("3"), shifts("hq:+2"), turn=16)
    assert odds(units("6"), units("3"), shifts("hq:+2"), turn=17).column == "4:1"
    with pytest.raises(RulesError, match="allied side attacks"):
        odds(units("6"), units("3"), shifts("hq:+2"), attacker=Nation.GERMAN)


def test_no_air_points_in_storms():
    with pytest.raises(RulesError, match="storms"):
        odds(units("6"), units("3"), shifts("air:+1"), weather=Weather.STORM)


@pytest.mark.parametrize(("text", "message"), [
    ("6z", "unknown modifier"), ("x6", "strength then"), ("6hh", "once"), ("0", "1 to 99")])
def test_refused_units(text, message):
    with pytest.raises(RulesError, match=message):
        odds([Unit.parse(text)], units("1"))


def test_modifiers_that_belong_to_one_side():
    with pytest.raises(RulesError, match="only in attack"):
        odds(units("6"), units("4b"))
    with pytest.raises(RulesError, match="only in defence"):
        odds(units("6x"), units("4"))


def test_the_british_and_us_halvings_are_never_german():
    """8.3.2a: "Attacking British armored brigades not stacked with British infantry
    divisions have their combat strengths halved"; 8.8k: "If a hex containing US and
    British units is attacked, the combat strengths of all units in that hex are halved for
    defensive purposes": Allied units only, never a German attacker's or defender's."""
    with pytest.raises(RulesError, match="only for allied units"):
        odds(units("6b"), units("4"), attacker=Nation.GERMAN)
    with pytest.raises(RulesError, match="only for allied units"):
        odds(units("6"), units("4x"), attacker=Nation.ALLIED)
    assert odds(units("6b"), units("4"), attacker=Nation.ALLIED).column == "1:2"   # 3:4
    assert odds(units("6"), units("4x"), attacker=Nation.GERMAN).column == "3:1"


def test_carpet_bombing_is_6_to_1_never_shifted():
    assert carpet_odds().column == "6:1"
    with pytest.raises(RulesError, match="never shifted"):
        carpet_odds(shifts("terrain:-1"))
    combat = roll(carpet_odds(), ScriptedDice([3]), CobraTables(crt={"6:1": ["", "", "-/2",
                                                                              "", "", ""]}))
    assert combat.result is not None and "no retreats (14.3g)" in combat.explanation[-2]


def test_without_the_owners_crt_the_box_shows_the_column_and_the_die():
    combat = roll(odds(units("26"), units("9")), ScriptedDice([4]), CobraTables())
    assert combat.result is None
    assert combat.explanation == ("read column 2:1, die 4 on your printed CRT",)


def test_a_split_result_is_explained_attacker_first():
    crt = CobraTables(crt={"2:1": ["", "", "", "1/2", "", ""]})
    combat = roll(odds(units("26"), units("9")), ScriptedDice([4]), crt)
    assert combat.result is not None and combat.result.split
    text = "\n".join(combat.explanation)
    assert text.index("Split result") < text.index("Attacker") < text.index("Defender")
    assert "8.6c" in text and "8.6b5" in text and "8.6b1" in text
    assert combat.to_dict()["result"] == {"text": "1/2", "attacker": "1", "defender": "2",
                                          "split": True}


def test_results_explained():
    assert "every attacking step" in explain(parse_cell("e"))[0]
    three = "\n".join(explain(parse_cell("-/3")))
    assert "at least one must be a step loss (8.6b3)" in three
    assert "every unit loses one before any loses a second (8.6b2)" in three
    two = "\n".join(explain(parse_cell("2/1")))
    assert "drops by one (8.6b4)" in two and "Split" in two


def test_carpet_bombing_only_on_clear_turns_from_game_turn_5():
    with pytest.raises(RulesError, match="clear weather"):
        carpet_odds(weather=Weather.OVERCAST)
    with pytest.raises(RulesError, match="game turn 5"):
        carpet_odds(turn=4)
    assert carpet_odds(turn=5, weather=Weather.CLEAR).column == "6:1"


@pytest.mark.parametrize(("turn", "flown", "allowed"), [
    (5, [], True), (14, [], True), (9, [6], False),          # one during GTs 5 to 14
    (15, [6], True), (20, [6, 15], True), (21, [15, 20], False),   # two more from GT 15
    (15, [], True), (16, [15], True), (27, [16, 18], False),
    (16, [16], False),                                       # one a game turn (14.1)
])
def test_the_carpet_bombing_missions_the_rules_allow(turn, flown, allowed):
    """14.3f: "The Allied player may make one carpet bombing attack during GTs 5 through 14.
    He may make a total of two more carpet bombing attacks between GT 15 and the end of the
    game." """
    if allowed:
        assert carpet_odds(turn=turn, weather=Weather.CLEAR, flown=flown).carpet
    else:
        with pytest.raises(RulesError, match="no carpet bombing mission left") as refused:
            carpet_odds(turn=turn, weather=Weather.CLEAR, flown=flown)
        assert refused.value.code is CobraRefusal.CARPET_MISSIONS_SPENT


def test_carpet_bombing_is_an_air_mission_on_the_defender_only():
    """14.1: "carpet bomb any one hex by using three AP"; 14.3g: "German units that undergo
    carpet bombing must take all losses in terms of steps": a cell's attacker part and a
    split are not the mission's."""
    planned = carpet_odds(turn=16, weather=Weather.CLEAR)
    assert (planned.air_points, planned.naval_points) == (3, 0)
    assert planned.to_dict()["air_points"] == 3 and planned.attack is None
    crt = CobraTables(crt={"6:1": ["", "", "1/2", "", "", ""]})
    combat = roll(planned, ScriptedDice([3]), crt)
    assert len(combat.explanation) == 2 and combat.explanation[0].startswith("Defender: lose 2")
    assert "other three AP" in combat.explanation[1]          # 14.3e
    assert combat.to_dict()["applies_to"] == "defender"


def test_no_allied_air_points_on_game_turn_1():
    """17.3.10: "Important: The Allied player receives no AP on GT 1." """
    with pytest.raises(RulesError, match="no AP on GT 1") as refused:
        odds(units("6"), units("2"), shifts("air:+1"), turn=1)
    assert refused.value.code is CobraRefusal.NO_AIR_ON_TURN_1
    assert odds(units("6"), units("2"), shifts("air:+1"), turn=2).column == "4:1"


@pytest.mark.parametrize(("turn", "most"), [(1, 0), (2, 2), (3, 2), (10, 2), (27, 2)])
def test_naval_shifts_within_the_turns_naval_points(turn, most):
    """14.4: "GT 1: 0 NSP. GT 2 and 3: 6 NSP. GT 4 through 10: 3 NSP. GT 11 through 27: 2
    NSP", and "A maximum of two NSP may be committed to one attack" (14.4b)."""
    for columns in (1, 2):
        if columns <= most:
            assert odds(units("2"), units("2"), shifts(f"naval:+{columns}"), turn=turn).net \
                == columns
        else:
            with pytest.raises(RulesError, match="naval support points") as refused:
                odds(units("2"), units("2"), shifts(f"naval:+{columns}"), turn=turn)
            assert refused.value.code is CobraRefusal.NAVAL_POINTS_TURN


def test_game_turns_are_1_to_28():
    with pytest.raises(RulesError, match="1 to 28"):
        odds(units("6"), units("3"), turn=0)


def test_the_shifts_each_side_may_take() -> None:
    from cobi_companion.rules.cobra.combat import ShiftKind, shift_choices

    german = {c.key: c.columns for c in shift_choices(Nation.GERMAN, 20)}
    assert german == {"terrain": (0, -1, -2, -3, -4, -5), "att_hq": (0, 1), "def_hq": (0, -1),
                      "tiger": (0, 1), "air": (0, -1)}
    early = {c.key: c.columns for c in shift_choices(Nation.ALLIED, 16)}
    assert early["att_hq"] == (0, 1) and early["tiger"] == (0, -1)
    assert early["air"] == (0, 1) and early["naval"] == (0, 1, 2) and early["patton"] == (0, 1, 2)
    late = {c.key: c for c in shift_choices(Nation.ALLIED, 17)}
    assert late["att_hq"].columns == (0, 1, 2)           # two HQ shifts from game turn 17
    assert late["patton"].kind is ShiftKind.PATTON
    for attacker in Nation:                              # every choice starts at "not taken"
        assert all(c.columns[0] == 0 for c in shift_choices(attacker, 1))


def test_an_unsupplied_attacker_is_halved_once() -> None:
    from cobi_companion.rules.cobra.combat import BY_LETTER, Role, out_of_supply, strength

    unit = Unit(7)
    out = out_of_supply(unit)
    assert out.modifiers == (BY_LETTER["s"],)
    assert out_of_supply(out) == out
    assert strength([out], Role.ATTACK).total == 4       # 7 halved, rounded up


def test_17_3_6d_allied_units_are_in_supply_on_game_turns_1_and_2():
    """17.3.6d: "All Allied units are considered in supply throughout GTs 1 and 2, even if they
    are surrounded by German units or EZOC"; a German attack without its supply points is
    still halved (11.0c)."""
    for attack, defence, attacker in (("6s", "3", Nation.ALLIED), ("6", "3s", Nation.GERMAN)):
        with pytest.raises(RulesError) as refused:
            odds([Unit.parse(attack)], [Unit.parse(defence)], attacker=attacker, turn=1)
        assert refused.value.code is CobraRefusal.ALWAYS_IN_SUPPLY
    assert odds([Unit.parse("6s")], [Unit(3)], attacker=Nation.GERMAN, turn=2).attack.total == 3
    assert odds([Unit.parse("6s")], [Unit(3)], attacker=Nation.ALLIED, turn=3).attack.total == 3


def test_17_3_6_a_german_defender_is_in_supply_on_game_turns_1_and_2():
    """17.3.6: "All German units are automatically in supply during those game turns"."""
    with pytest.raises(RulesError) as refused:
        odds([Unit(12)], [Unit.parse("4s")], attacker=Nation.ALLIED, turn=2)
    assert refused.value.code is CobraRefusal.ALWAYS_IN_SUPPLY
    assert odds([Unit(12)], [Unit.parse("4s")], attacker=Nation.ALLIED, turn=3).defence.total == 2
