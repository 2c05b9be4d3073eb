"""A gun and its crew (Tank Game rules 11 and 16): the crew outlive a destroyed gun, and a gun
with no crew is out of the fight. Each test works from the HE example's Bofors gun."""
from __future__ import annotations

from dataclasses import replace

import pytest
from cobi_companion.rules.battle import Battle, Piece
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.errors import Refusal, RulesError
from cobi_companion.rules.status import Side, Status
from cobi_companion.rules.tank import scoring, turns
from cobi_companion.rules.tank.refusals import TankRefusal
from cobi_companion.rules.tank.soft_fire import Covered, SoftPlan, check_target, fire, he_weapon

# The HE example's dice: to hit 6, reload 3, the gun 4 v 3, Gunner 1 4 v 3, Gunner 2 1 v 3,
# the Dog 1 v 5.
HE_EXAMPLE = [6, 3, 4, 3, 4, 3, 1, 3, 1, 5]


@pytest.fixture
def after_he_example(book) -> Battle:
    """The battle after the HE example: "+2 is a kill (Mark as destroyed)" for the gun, Gunner 1
    removed, "-1 is no kill" for Gunner 2, "-3 is no kill" for the Dog."""
    tank = Piece("Pz IV D 1", Side.AXIS, book.get("pz-iv-d"))
    gun = Piece("Bofors 1", Side.ALLIES, book.get("bofors-37mm"), figures=3)
    plan = SoftPlan(tank, he_weapon(tank.card), (Covered(gun, 3, ("soft_cover",)),),
                    book.table, cover=True)
    shot = fire(plan, ScriptedDice(HE_EXAMPLE))
    battle = Battle("tank", (tank, gun))
    for result in shot.results:
        battle = battle.replace_piece(result.after)
    return battle


def test_the_crew_of_the_destroyed_bofors_are_still_figures(after_he_example):
    """The example kills the gun and Gunner 1, and leaves Gunner 2 and the Dog alive."""
    crew = after_he_example.get("Bofors 1")
    assert crew.status.destroyed and crew.figures == 2
    assert crew.crew_only and not crew.gone and not crew.model


def test_the_crew_keep_their_side_in_the_battle(after_he_example):
    """Rule 16: "When one side has no pieces left or gives up the other side has won": Gunner 2
    and the Dog are pieces left."""
    assert scoring.winner(after_he_example) is None


def test_the_crew_score_their_figures(after_he_example):
    """Rule 16: "add up the total number of figures the winner had left"."""
    score = scoring.score(after_he_example, Side.ALLIES)
    assert [(line.figures, line.why) for line in score.lines] == \
        [(2, "gun destroyed: 2 crew left")]


def test_the_crew_are_activated_as_figures_beside_a_model(after_he_example, book):
    """Rule 6: up to 5 pieces, at most one model: the crew count as their 2 figures."""
    sherman = Piece("Sherman 1", Side.ALLIES, book.get(2464), figures=5)
    battle = Battle("tank", (*after_he_example.pieces, sherman))
    turn = turns.activate(turns.first_turn(Side.ALLIES), battle, ["Sherman 1", "Bofors 1"])
    assert turn.current is not None
    members = {m.label: (m.count, m.model) for m in turn.current.members}
    assert members == {"Sherman 1": (1, True), "Bofors 1": (2, False)}


def test_the_crew_hide_take_cover_and_move_as_figures(after_he_example):
    """Rule 12: "The Active pieces that have not moved and are figures can take cover ... may
    hide if they are more than 30 cm from the nearest enemy figure"."""
    turn = turns.activate(turns.first_turn(Side.ALLIES), after_he_example, ["Bofors 1"])
    turn, battle = turns.take_cover(turn, after_he_example, "Bofors 1")
    turn, battle = turns.hide(turn, battle, "Bofors 1", cover=True, enemy_near=False)
    assert battle.get("Bofors 1").status.hidden
    turn, battle = turns.move(turn, battle, "Bofors 1")
    assert not battle.get("Bofors 1").status.hidden


def test_the_crew_neither_fire_the_destroyed_gun_nor_reload_it(after_he_example, book):
    """Rule 11: the crew "fire and reload" the gun; it is destroyed, so they do neither."""
    crew = after_he_example.get("Bofors 1")
    turn = turns.activate(turns.first_turn(Side.ALLIES), after_he_example, ["Bofors 1"])
    with pytest.raises(RulesError) as refused:
        turns.reload(turn, after_he_example, "Bofors 1")
    assert refused.value.code is TankRefusal.NOTHING_TO_RELOAD_GUN_LOST
    tank = after_he_example.get("Pz IV D 1")
    with pytest.raises(RulesError) as refused:
        fire(SoftPlan(crew, he_weapon(crew.card), (Covered(tank),), book.table),
             ScriptedDice([]))
    assert refused.value.code is Refusal.GUN_LOST


def test_the_crew_are_attacked_as_figures_and_the_gun_not_again(after_he_example, book):
    """The HE example attacks the crew "individually": with the gun gone, only they are left."""
    tank = after_he_example.get("Pz IV D 1")
    crew = after_he_example.get("Bofors 1")
    plan = SoftPlan(tank, he_weapon(tank.card), (Covered(crew, 2, model=False),), book.table)
    shot = fire(plan, ScriptedDice([6, 6, 6, 1, 6, 1]))     # to hit, reload, two kills
    after = shot.results[0].after
    assert after.figures == 0 and after.gone and not after.crew_only
    assert shot.to_dict()["targets"][0]["out"] is True
    with pytest.raises(RulesError) as refused:
        check_target(plan, Covered(crew, 2))                 # the gun itself again
    assert refused.value.code is Refusal.TARGET_DESTROYED


def test_a_gun_with_no_crew_is_not_a_fighting_piece(book):
    """Rule 11: "Guns need to have at least one figure to fire and reload": a gun with no crew
    is out of the fight, so it neither keeps its side in the battle nor scores."""
    empty = Piece("Bofors 1", Side.ALLIES, book.get("bofors-37mm"), figures=3).lose_figures(3)
    assert empty.gone and not empty.status.destroyed
    tank = Piece("Pz IV D 1", Side.AXIS, book.get("pz-iv-d"))
    battle = Battle("tank", (tank, empty))
    assert scoring.winner(battle) is Side.AXIS
    line = scoring.score(battle, Side.ALLIES).lines[0]
    assert (line.figures, line.why) == (0, "no crew left: a gun needs a figure to fire")
    with pytest.raises(RulesError) as refused:
        turns.activate(turns.first_turn(Side.ALLIES), battle, ["Bofors 1"])
    assert refused.value.code is TankRefusal.OUT_OF_FIGHT


def test_a_gun_with_its_crew_is_still_one_model(book):
    """Rule 6: "at most one of them a model": a gun with its crew counts 1."""
    gun = Piece("Bofors 1", Side.ALLIES, book.get("bofors-37mm"), figures=3)
    assert gun.model and not gun.crew_only and not gun.gone
    destroyed_unknown_crew = Piece("Bofors 1", Side.ALLIES, book.get("bofors-37mm"),
                                   Status(destroyed=True), None)
    assert destroyed_unknown_crew.gone


def test_the_crew_of_a_destroyed_gun_spot_as_figures(book):
    """Rule 8: a hidden piece is revealed when "an enemy figure (not vehicles) moves within
    30 cm": a destroyed gun's crew are figures, so they spot; a gun with its gun does not."""
    from cobi_companion.rules.tank import hiding

    battle = Battle("tank").add(book.get("bofors-37mm"), Side.ALLIES) \
        .add(book.get("rifleman"), Side.AXIS, 2)
    crew, rifles = battle.get("Bofors 1"), battle.get("Rifle 1")
    rifles = replace(rifles, status=replace(rifles.status, hidden=True))
    assert not hiding.spots(crew, rifles, 20.0, False).spotted
    crew = replace(crew, status=replace(crew.status, destroyed=True))
    assert crew.crew_only and hiding.spots(crew, rifles, 20.0, False).spotted


def test_a_gun_whose_card_gives_no_crew_asks_the_card_before_it_fires():
    """Rule 11: "Guns need to have at least one figure to fire and reload". A card file
    without the crew cannot say whether one is left: the fire asks the card (the refusal names
    the card and the field) instead of saying the gun has no figure left."""
    from cobi_companion.rules.card import CardValueMissing
    from cobi_companion.rules.card_schema import validated_card
    from cobi_companion.rules.tank.soft_fire import check_soft_firer

    card = validated_card({"id": "pak", "name": "Pak", "kind": "gun", "gun_to_hit": "3-6",
                           "reload": "4-6", "he_modifier": "+1"})
    gun = Battle("tank").add(card, Side.AXIS).get("Pak 1")
    assert gun.figures is None
    with pytest.raises(CardValueMissing) as raised:
        check_soft_firer(gun, he_weapon(card))
    assert raised.value.code is Refusal.NO_CARD_VALUE and "crew" in str(raised.value)
    nobody = validated_card({"id": "pak", "name": "Pak", "kind": "gun", "crew": "none",
                             "gun_to_hit": "3-6", "reload": "4-6", "he_modifier": "+1"})
    with pytest.raises(RulesError) as none_left:
        check_soft_firer(Battle("tank").add(nobody, Side.AXIS).get("Pak 1"), he_weapon(nobody))
    assert none_left.value.code is TankRefusal.NO_FIGURE_TO_FIRE
