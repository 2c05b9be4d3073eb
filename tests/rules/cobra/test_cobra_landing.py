"""Cobra's Allied Landing Phase (17.3.2), the withdrawal attack (17.3.4) and the intrinsic beach
defence (17.3.10), each test on the rule text it rests on."""
from __future__ import annotations

import pytest
from cobi_companion.rules.cobra import landing
from cobi_companion.rules.cobra.combat import Unit, odds, parse_shift
from cobi_companion.rules.cobra.landing import Landed, Landing, Target
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.tables import COLUMNS, CobraTables, Direction
from cobi_companion.rules.cobra.turns import CobraGame
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.errors import RulesError

# The owner's tables for these tests: 2:1 reads 1/1 on a 3 (the rules' Juno example), 3:1
# -/e on a 6, -/1 on a 2, e (the attacker's) on a 1; the Scatter Diagram's 4 is south.
OWNER = CobraTables(crt={"2:1": ["", "", "1/1", "", "", ""],
                         "3:1": ["e", "-/1", "-/-", "", "-/2", "-/e"],
                         "1:5": ["-/1", "", "", "", "", ""]},
                    scatter={"4": "south"})


@pytest.mark.parametrize(("division", "scatters_on"), [
    (Target.BRITISH_6, {6}), (Target.US_101, {6}), (Target.US_82, {5, 6})])
def test_who_scatters_on_what(division, scatters_on):
    """17.3.2 step 2a, 2b: "British paratroop units and units of the US 101st Airborne Division
    scatter on a roll of six. Units of the US 82nd Airborne Division scatter on a roll of five
    or six." """
    assert {die for die in range(1, 7) if landing.scatters(division, die)} == scatters_on


def test_a_unit_that_does_not_scatter_rolls_once():
    """17.3.2 step 2: "if the unit scatters, he will roll a second die": only then."""
    dice = ScriptedDice([4, 1])
    trace = landing.scatter(Target.US_82, dice, OWNER)
    assert not trace.scattered and trace.direction is None and dice.used == 1
    assert trace.to_dict()["scatters_on"] == [5, 6]


def test_the_rules_example_of_a_scatter_direction():
    """17.3.2 step 2c: "A result of 4 would require that the unit be moved one hex south"; the
    step losses of step 3 follow."""
    trace = landing.scatter(Target.US_101, ScriptedDice([6, 4]), OWNER)
    assert trace.direction is Direction.SOUTH and trace.diagram == OWNER.source
    assert [n.why.value for n in trace.notes] == ["para_scattered", "para_step_loss",
                                                 "para_german_attack"]


def test_without_the_owners_diagram_the_player_reads_map_b():
    """17.3.2 step 2c: the Scatter Diagram is "printed on map B": an empty face names the die."""
    trace = landing.scatter(Target.US_82, ScriptedDice([5, 3]), OWNER)
    assert trace.direction is None and trace.direction_die == 3
    assert trace.notes[0].text.startswith("Die 3: move the unit one hex as the Scatter Diagram")


def test_nine_paratroop_units_and_no_beach_drops():
    """17.3.2 step 1a: "The Allied player deploys his nine paratroop units"; a beach is not a
    paratroop division (step 2)."""
    with pytest.raises(RulesError) as nine:
        landing.scatter(Target.US_82, ScriptedDice([1]), dropped=9)
    assert nine.value.code is CobraRefusal.ALL_PARATROOPS_DROPPED
    with pytest.raises(RulesError) as beach:
        landing.scatter(Target.OMAHA, ScriptedDice([1]))
    assert beach.value.code is CobraRefusal.NOT_A_PARATROOP_DIVISION


@pytest.mark.parametrize(("die", "may"), [(1, False), (4, False), (5, True), (6, True)])
def test_beach_defence_commits_on_five_or_six(die, may):
    """17.3.2 step 4a: "On a result of 1 through 4, the unit cannot contribute ... On a result
    of 5 or 6, the German player must immediately ... state how many steps"."""
    assert landing.commitment(ScriptedDice([die])).may_commit is may


@pytest.mark.parametrize(("where", "start"), [
    (Target.OMAHA, "4:1"), (Target.UTAH, "1:1"), (Target.GOLD, "1:2"), (Target.JUNO, "1:2"),
    (Target.US_82, "1:2"), (Target.SWORD, "1:3"), (Target.BRITISH_6, "1:3"),
    (Target.US_101, "1:3")])
def test_landing_attrition_start_columns(where, start):
    """17.3.2 step 4b2: "4:1: ... Omaha Beach. 1:1: ... Utah Beach. 1:2: ... Gold or Juno Beach,
    or ... US 82nd Airborne Division. 1:3: ... Sword Beach, or ... British 6th or US 101st"."""
    assert landing.attrition_odds(where).column == start


def test_the_rules_juno_example():
    """17.3.2 step 4: "he starts on the 1:2 column ... since he committed 2 steps ... on the
    2:1 column. He rolls a 3, resulting in a 1/1, The British player must eliminate 1 step"; the
    German player "suffers no further affects", and the hex gets its -1 marker (step 5f)."""
    planned = landing.attrition_odds(Target.JUNO, committed=2)
    assert (planned.start, planned.shift, planned.column) == ("1:2", 2, "2:1")
    trace = landing.attrition(planned, ScriptedDice([3]), OWNER)
    assert trace.steps == 1 and trace.to_dict()["result"] == {"text": "1/1", "allied": "1"}
    assert [n.why.value for n in trace.notes] == ["attrition_steps", "beach_marker"]


def test_a_paratroop_units_terrain_shifts_right_but_bocage_not():
    """17.3.2 step 4b3: "Shift the number of columns to the right equal to the normal shifts
    left for the terrain ... Exception: Do not shift for Bocage terrain." """
    assert landing.attrition_odds(Target.US_101, terrain=-1, terrain_name="town").column == "1:2"
    bocage = landing.attrition_odds(Target.US_101, terrain=0, terrain_name="bocage")
    assert bocage.column == "1:3" and "no shift for bocage" in bocage.notes[-1]


def test_shifts_belong_to_their_target():
    """17.3.2 step 4b3: committed steps shift a beach hex, terrain a paratroop unit."""
    for where, given in ((Target.OMAHA, {"terrain": -1}), (Target.US_82, {"committed": 1})):
        with pytest.raises(RulesError) as wrong:
            landing.attrition_odds(where, **given)
        assert wrong.value.code is CobraRefusal.LANDING_SHIFT_WRONG_TARGET


def test_attrition_ends_at_the_table_edge():
    """8.3.2c: shifts are counted from the extreme columns; 4:1 with 9 steps is 10:1."""
    assert landing.attrition_odds(Target.OMAHA, committed=9).column == COLUMNS[-1]


def test_a_lone_e_is_the_german_attackers_and_does_not_touch_the_allies():
    """17.3.2 step 4b4: "German units are not affected by the result": a lone e (the
    attacker's, 8.6a) is no Allied loss."""
    trace = landing.attrition(landing.attrition_odds(Target.OMAHA, committed=1),
                              ScriptedDice([1]), OWNER)       # 4:1 +1 = 5:1: not filled in
    assert trace.result is None
    withdrawn = landing.withdrawal(ScriptedDice([1]), OWNER, 2)
    assert withdrawn.lost == 0 and withdrawn.destroyed is False


@pytest.mark.parametrize(("landed", "lost", "abandoned"), [(6, 3, False), (6, 4, True),
                                                           (1, 1, True), (5, 2, False)])
def test_a_beach_is_abandoned_past_half(landed, lost, abandoned):
    """17.3.2 step 5a: "If more than half the number of steps committed to a beach have been
    eliminated, that beach is abandoned"; 5e: 10 VP each."""
    check = landing.beach_check(Target.SWORD, landed, lost)
    assert check.abandoned is abandoned
    assert check.to_dict()["german_vp"] == (10 if abandoned else 0)


@pytest.mark.parametrize(("die", "steps", "lost", "destroyed"), [
    (6, 2, None, True), (2, 2, 1, False), (2, 1, 1, True), (5, 2, 2, True), (3, 2, 0, False),
    (2, None, 1, None)])
def test_the_withdrawal_attack(die, steps, lost, destroyed):
    """17.3.4: "an unmodified 3:1 attack"; a) losses "as step losses, not retreats"; b)
    destroyed, it "counts for VP instead of being withdrawn"; c) survived, "no further
    effect"."""
    trace = landing.withdrawal(ScriptedDice([die]), OWNER, steps)
    assert trace.lost == lost and trace.destroyed is destroyed
    assert trace.to_dict()["column"] == "3:1" and trace.to_dict()["unmodified"]


def test_the_intrinsic_beach_defence():
    """17.3.10: "the Allied player receives an automatic two column shifts to the left" against
    a German attack on a beach hex; they need no NSP, and an Allied attack takes none."""
    planned = odds([Unit(6)], [Unit(2)], [landing.beach_shift()])
    assert (planned.base, planned.column, planned.naval_points) == ("3:1", "1:1", 0)
    assert planned.attacker is not None and planned.attacker.value == "german"
    with pytest.raises(RulesError) as one:
        odds([Unit(6)], [Unit(2)], [parse_shift("beach:-1")])
    assert one.value.code is CobraRefusal.SHIFT_NOT_ALLOWED
    with pytest.raises(RulesError) as allied:
        odds([Unit(6)], [Unit(2)], [parse_shift("beach:-2"), parse_shift("naval:+1")])
    assert allied.value.code is CobraRefusal.SHIFTS_DISAGREE


def test_the_landing_is_saved_with_the_game_and_old_saves_load():
    """17.3.2: what the phase has done is kept (drops, attritions, beaches abandoned); a game
    saved before the landing was kept loads with none of it done."""
    done = Landing(drops=((Target.US_82, 5, 2), (Target.US_101, 6, None)),
                   attritions=(Landed(Target.OMAHA, "4:1", 3, "2", 2),),
                   abandoned=(Target.OMAHA,))
    game = CobraGame.start("campaign")
    from dataclasses import replace
    data = replace(game, landing=done).to_dict()
    assert CobraGame.from_dict(data).landing == done
    assert done.pending is Target.US_101 and done.lost_on(Target.OMAHA) == 2
    del data["landing"]
    assert CobraGame.from_dict(data).landing == Landing()


def test_the_beach_shift_in_an_overrun():
    """17.3.10 against 5.4.1d ("only affected by terrain and supply"): a scenario rule takes
    precedence over a standard one (17.3.1b: "the scenario rule takes precedence")."""
    from cobi_companion.rules.cobra.combat import OverrunWhen
    from cobi_companion.rules.cobra.overrun import overrun_odds

    for when in OverrunWhen:
        planned = overrun_odds([Unit(6)], [Unit(2)], [landing.beach_shift()], when=when,
                               turn=2)
        assert planned.column == "1:1"
