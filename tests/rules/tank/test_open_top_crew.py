"""Tank Game rule 11, an open-top vehicle's crew: "Figures In open top hard vehicles are in hard
cover if manning the main gun or keeping the heads down. They may not be targeted by small arms,
but can be targeted buy HE or grenades. The other crew are protected as normal tank crew. Open
top weapons need at least one figure to fire and reload they need two to avoid -1 to the reload
die." Read with the gun-crew readings (docs/rules-notes.md, "a gun and its crew")."""
from __future__ import annotations

from dataclasses import replace

import pytest
from cobi_companion.rules.battle import Battle
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.house import HouseRules
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank import scoring, soft_fire, turns
from cobi_companion.rules.tank.refusals import TankRefusal
from cobi_companion.rules.tank.soft_fire import Covered, SoftPlan, he_weapon

# An open-top tank destroyer with a crew of six (the owner's card: none is shipped).
MARDER = validated_card({
    "id": "marder", "name": "Marder", "kind": "open_top", "crew": 6,
    "move_forward": 15, "move_backward": 10, "turn_45": "-5 cm", "rough": "-5 cm",
    "road": "+10 cm", "gun_to_hit": "3-6", "reload": "4-6", "damage": 4, "he_modifier": "+2",
    "armour_front": 2, "armour_side": 1, "armour_rear": 1, "armour_top": 0,
    "destroy": 3, "destroy_gun": 2, "weaken": "-", "immobilize": 1})


@pytest.fixture
def field(book) -> Battle:
    """Axis: Marder 1 (crew 6); Allies: Sherman 1."""
    return Battle("tank").add(MARDER, Side.AXIS).add(book.get("2464"), Side.ALLIES)


def with_crew(battle: Battle, figures: int) -> Battle:
    return battle.replace_piece(replace(battle.get("Marder 1"), figures=figures))


def test_two_figures_of_six_avoid_the_reload_minus_one(field):
    """"they need two to avoid -1 to the reload die": two figures, whatever the crew value."""
    assert not with_crew(field, 2).get("Marder 1").crew_below_half()
    assert with_crew(field, 1).get("Marder 1").crew_below_half()
    # the other reading, a house rule: also below half the crew value, as a gun's crew
    half = HouseRules(open_top_reload="half")
    assert with_crew(field, 2).get("Marder 1").crew_below_half(half)
    assert not with_crew(field, 3).get("Marder 1").crew_below_half(half)


def test_he_from_an_open_top_with_two_of_six_reloads_without_minus_one(book, field):
    battle = with_crew(field, 2)
    marder, sherman = battle.get("Marder 1"), battle.get("Sherman 1")
    plan = SoftPlan(marder, he_weapon(marder.card), (Covered(sherman, 0),), book.table,
                    range_cm=50)
    shot = soft_fire.fire(plan, ScriptedDice([6, 4, 1, 1]))  # hit; reload 4 (4-6): loaded
    assert shot.reload is not None and shot.reload.modifiers == () and shot.reload.success


def test_a_crewless_open_top_is_out_of_the_fight_and_scores_nothing(field):
    """"Open top weapons need at least one figure to fire and reload", as "Guns need to have at
    least one figure": with nobody in it the vehicle does nothing a piece may do."""
    battle = with_crew(field, 0)
    marder = battle.get("Marder 1")
    assert marder.gone
    with pytest.raises(RulesError) as refused:
        turns.activate(turns.first_turn(Side.AXIS), battle, ["Marder 1"])
    assert refused.value.code is TankRefusal.OUT_OF_FIGHT
    line = scoring.score(battle, Side.AXIS).lines[0]
    assert (line.figures, line.why) == (0, "no crew left: an open-top needs a figure")
    assert scoring.winner(battle) is Side.ALLIES


def test_he_reaches_the_two_manning_the_gun_not_the_other_crew(book, field):
    """"The other crew are protected as normal tank crew": HE reaches the figures manning the
    main gun (two: "they need two to avoid -1"), never the rest of the crew."""
    sherman, marder = field.get("Sherman 1"), field.get("Marder 1")
    plan = SoftPlan(sherman, he_weapon(sherman.card), (Covered(marder, 6, model=False),),
                    book.table, range_cm=50)
    dice = ScriptedDice([6, 6, 6, 1, 6, 1, 6, 1, 6, 1, 6, 1, 6, 1])
    with pytest.raises(RulesError) as refused:
        soft_fire.fire(plan, dice)
    assert refused.value.code is TankRefusal.OPEN_TOP_CREW_PROTECTED
    two = replace(plan, targets=(Covered(marder, 2, model=False),))
    shot = soft_fire.fire(two, ScriptedDice([6, 6, 6, 1, 6, 1]))
    assert shot.down == 2 and shot.results[0].after.figures == 4
    assert soft_fire.exposed_crew(marder) == 2


def test_he_at_an_open_tops_crew_rolls_minus_one_for_their_hard_cover(book, field):
    """"Figures In open top hard vehicles are in hard cover" and HE rolls "-1 if the target is
    in any cover": one reading of where they are (`situations_of`) gives both the attacks'
    hard cover and HE's -1. The vehicle alone (no crew attacked) is in cover only if said."""
    sherman, marder = field.get("Sherman 1"), field.get("Marder 1")
    crew = Covered(marder, 2)
    assert soft_fire.situations_of(crew) == ("hard_cover",)
    assert soft_fire.in_cover(crew) and not soft_fire.in_cover(Covered(marder, 0))
    plan = SoftPlan(sherman, he_weapon(sherman.card), (crew,), book.table, range_cm=50)
    to_hit, _ = soft_fire.he_checks(plan, ScriptedDice([3, 6]))
    assert [m.value for m in to_hit.modifiers] == [-1] and not to_hit.success
    assert [m.value for m in soft_fire.attack_modifiers(plan, crew)][1:] == [-2]
