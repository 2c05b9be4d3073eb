"""Cobra's movement allowance (5.2c, 5.3b, 5.3c, 5.3d, 10.6, 12.1b, 17.3.3b), each test
quoting the rule it rests on, through the real rules and scripted dice."""
from __future__ import annotations

import pytest
from cobi_companion.rules.cobra.movement import air_attack, allowance
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.dice import Aim, Need, Roller, ScriptedDice
from cobi_companion.rules.errors import RulesError

C, OV, S = Weather.CLEAR, Weather.OVERCAST, Weather.STORM


@pytest.mark.parametrize(("weather", "ma"), [(S, 6), (OV, 4), (C, 2)])
def test_5_3b_the_rules_example_6_is_6_4_2(weather: Weather, ma: int) -> None:
    """5.3b: "A German unit with a printed MA of 6 would have 6 MP in storm weather, 4 MP in
    overcast weather, and 2 MP in clear weather.\""""
    assert allowance(6, "german", weather=weather).ma == ma


@pytest.mark.parametrize(("printed", "overcast", "clear"), [(8, 6, 3), (7, 5, 3), (1, 1, 1),
                                                           (12, 8, 4), (5, 4, 2)])
def test_5_3b_always_round_up(printed: int, overcast: int, clear: int) -> None:
    """5.3b: "When making any of these adjustments, always round up": 8 overcast is 5⅓ → 6,
    clear 2⅔ → 3."""
    assert allowance(printed, "german", weather=OV).ma == overcast
    assert allowance(printed, "german", weather=C).ma == clear


def test_5_3b_out_of_supply_is_halved_first_then_the_weather() -> None:
    """5.3b Important: "If a unit is out of supply, the unit's MA is first halved, then the
    adjustments noted above are applied": 9 → 5 → overcast 4, where the weather first would
    give 9 → 6 → 3."""
    result = allowance(9, "german", weather=OV, out_of_supply=True)
    assert [(s.key, s.ma) for s in result.steps] == [("printed", 9), ("out_of_supply", 5),
                                                      ("weather", 4)]


def test_10_6_an_allied_unit_out_of_supply_has_its_ma_halved() -> None:
    """10.6: "Any unit not in supply has its MA and combat strength halved"; the weather never
    changes an Allied MA (5.3b is German)."""
    assert allowance(7, "us", weather=C, out_of_supply=True).ma == 4
    assert allowance(7, "us", weather=C).ma == 7


@pytest.mark.parametrize(("weather", "ma"), [(S, 6), (OV, 6), (C, 4)])
def test_5_3c_the_first_german_turn_after_an_allied_exit(weather: Weather, ma: int) -> None:
    """5.3c: "Storms and Overcast: All units may move using their full MA. Clear: All units
    reduce their MA by one third.\""""
    result = allowance(6, "german", weather=weather, after_exit=True)
    assert result.ma == ma and result.to_dict()["after_exit"] is True


def test_12_1b_a_replaced_unit_moves_half_its_current_ma() -> None:
    """12.1b: "Units that receive replacements may not move more than half their current MA";
    current: after the weather. 4.0: "halve their MA in following Initial Movement Phase"."""
    assert allowance(6, "german", weather=OV, replaced=True).ma == 2      # 6 → 4 → 2
    assert allowance(9, "british", replaced=True).ma == 5
    mech = allowance(12, "us", phase="mechanized", mechanized=True, replaced=True)
    assert mech.ma == 12 and not mech.steps[-1].applied


def test_5_2c_british_infantry_two_thirds_in_the_mechanized_phase() -> None:
    """5.2c: British and Canadian infantry "may move up to two-thirds (6 MP) of their printed
    MA during the Allied Mechanized Movement Phase"."""
    result = allowance(9, "british", phase="mechanized")
    assert result.ma == 6 and result.steps[0].rule == "5.2c"
    assert allowance(9, "british").ma == 9


def test_4_0_only_mechanized_units_move_in_the_mechanized_phase() -> None:
    """4.0 G5b/A5b: "No other units may be moved during this phase" (a US infantry division
    without a truck, 5.7d; a German infantry unit)."""
    for army in ("us", "german"):
        with pytest.raises(RulesError) as refused:
            allowance(6, army, phase="mechanized", weather=S)
        assert refused.value.code is CobraRefusal.NOT_MECHANIZED
    assert allowance(8, "us", phase="mechanized", mechanized=True).ma == 8


def test_17_3_3b_allied_ma_halved_on_game_turns_1_and_2() -> None:
    """17.3.3b: "All Allied units have their printed MA halved on GTs 1 and 2", British and
    Canadian infantry "one third during the Allied Mechanized Movement Phase"."""
    assert allowance(9, "us", turn=2).ma == 5
    assert allowance(9, "british", phase="mechanized", turn=1).ma == 3
    assert allowance(9, "us", turn=3).ma == 9


def test_5_3d_an_increase_gives_back_thirds_up_to_the_printed_ma() -> None:
    """5.3d: "This MA increase cannot exceed a unit's printed MA, however a player may opt to
    just increase a unit's MA by one third during clear weather.\""""
    assert allowance(6, "german", weather=C, increase=1).ma == 4
    two = allowance(6, "german", weather=C, increase=2)
    assert two.ma == 6 and two.risk == 4 and not two.may_overrun
    assert allowance(6, "german", weather=OV).increase_most == 1
    with pytest.raises(RulesError) as refused:
        allowance(6, "german", weather=OV, increase=2)
    assert refused.value.code is CobraRefusal.MA_INCREASE_TOO_MUCH
    assert refused.value.values == {"increase": 2, "most": 1}


def test_5_3d_no_increase_in_storms_nor_for_the_allies() -> None:
    """5.3d: "During overcast or clear weather, German units may increase their MA"."""
    with pytest.raises(RulesError) as storms:
        allowance(6, "german", weather=S, increase=1)
    assert storms.value.code is CobraRefusal.MA_ALREADY_FULL
    assert str(storms.value) == "the MA is already the full printed MA: nothing to increase " \
        "(5.3d)"
    with pytest.raises(RulesError) as allied:
        allowance(6, "us", increase=1)
    assert allied.value.code is CobraRefusal.MA_INCREASE_GERMAN_ONLY


def test_5_3b_a_german_ma_needs_the_weather() -> None:
    """5.3b: "Weather affects the MA of all German units"."""
    with pytest.raises(RulesError) as refused:
        allowance(6, "german")
    assert refused.value.code is CobraRefusal.MA_NEEDS_WEATHER


@pytest.mark.parametrize(("increase", "die", "lost"), [(1, 2, True), (1, 3, False),
                                                       (2, 4, True), (2, 5, False)])
def test_5_3d_the_air_attack_die(increase: int, die: int, lost: bool) -> None:
    """5.3d2: one third, "one step if the die roll result was a 1 or 2"; 5.3d3: two thirds,
    "one step loss if the die roll result was 1 through 4"."""
    asked: list[Need] = []

    class Watched(ScriptedDice):
        def roll(self, need: Need) -> int:
            asked.append(need)
            return super().roll(need)
    result = air_attack(increase, Watched([die]))
    assert result.lost is lost and result.die == die
    assert result.to_dict()["loses_on"] == list(range(1, 2 * increase + 1))
    assert [(n.roller, n.aim) for n in asked] == [(Roller.AXIS, Aim.AIR_ATTACK)]


def test_5_3d_an_increase_is_one_or_two_thirds() -> None:
    """5.3d: "increased its MA by one third" or "by two thirds": nothing else."""
    with pytest.raises(RulesError) as refused:
        air_attack(3, ScriptedDice([1]))
    assert refused.value.code is CobraRefusal.MA_INCREASE_THIRDS


def test_a_printed_ma_and_an_army_the_rules_know() -> None:
    """5.1: a unit's "total MA"; 2.0: German, US and British (Canadian, Polish) units."""
    with pytest.raises(RulesError) as printed:
        allowance(0, "us")
    assert printed.value.code is CobraRefusal.MA_PRINTED
    with pytest.raises(RulesError) as army:
        allowance(6, "french")
    assert army.value.code is CobraRefusal.UNKNOWN_MOVEMENT


def test_5_2c_two_thirds_for_british_and_canadian_infantry_divisions_only() -> None:
    """5.2c: "British and Canadian infantry divisions are infantry units; however, they may
    move up to two-thirds (6 MP) of their printed MA during the Allied Mechanized Movement
    Phase": another British infantry unit (a brigade, commandos) does not move in it."""
    result = allowance(9, "british", phase="mechanized")
    assert "infantry divisions" in result.steps[0].text
    with pytest.raises(RulesError) as refused:
        allowance(9, "british", phase="mechanized", division=False)
    assert refused.value.code is CobraRefusal.NOT_A_DIVISION
    assert allowance(9, "british", division=False).ma == 9     # the Initial phase: as printed


def test_5_4_only_mechanized_units_may_overrun_and_none_on_game_turn_1() -> None:
    """5.4 "Important: Only armored, panzer or panzer-grenadier and US truck mechanized units
    may conduct overruns"; 17.3.3c: no overruns on GT 1."""
    assert allowance(12, "us", mechanized=True).may_overrun
    assert not allowance(6, "us").may_overrun                   # infantry
    assert not allowance(9, "british").may_overrun              # a British infantry division
    assert not allowance(12, "us", mechanized=True, turn=1).may_overrun
    assert allowance(12, "us", mechanized=True, turn=2).may_overrun


def test_17_3_6d_no_unit_is_out_of_supply_on_game_turns_1_and_2() -> None:
    """17.3.6d: "All Allied units are considered in supply throughout GTs 1 and 2"; 17.3.6:
    "All German units are automatically in supply during those game turns"."""
    for army in ("us", "german"):
        with pytest.raises(RulesError) as refused:
            allowance(6, army, out_of_supply=True, turn=2, weather=Weather.CLEAR)
        assert refused.value.code is CobraRefusal.ALWAYS_IN_SUPPLY
    assert allowance(6, "us", out_of_supply=True, turn=3).ma == 3


@pytest.mark.parametrize(("printed", "turn", "ma"), [
    (6, 1, 2), (9, 2, 3), (5, 2, 2), (1, 1, 1), (9, 3, 5), (6, 14, 3)])
def test_17_3_9_a_unit_landing_has_half_its_ma_a_quarter_on_gt_1_and_2(
        printed: int, turn: int, ma: int) -> None:
    """17.3.9: "From GT 1 through 14, Allied units land with only half of their MA available
    for use that turn"; on GT 1 and 2 that MA is half the printed MA already (17.3.3b): a
    quarter of it, rounded up (each half rounded up is the quarter rounded up once)."""
    result = allowance(printed, "us", turn=turn, landed=True)
    assert result.ma == ma and result.steps[-1].key == "landed"
    assert result.steps[-1].rule == "17.3.9" and result.to_dict()["landed"] is True


def test_17_3_9_only_allied_units_land_and_only_on_gt_1_to_14() -> None:
    for args in ((6, "us", 15), (6, "german", 3)):
        with pytest.raises(RulesError) as caught:
            allowance(args[0], args[1], turn=args[2], landed=True, weather=C)
        assert caught.value.code is CobraRefusal.LANDED_TURNS
        assert str(caught.value) == ("only Allied units land with half their MA, on game turns "
                                     "1 to 14 of the campaign and the Build-Up (17.3.9)")
