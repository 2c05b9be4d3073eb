"""What an active piece may do now, asked before a menu offers it (rules.tank.choices): each action,
each weapon, the main gun's targets. Every answer is the refusal the action would meet, or
None; nothing is recorded by asking.

No shipped card prints a vehicle's machine gun: the tank here is made in the test."""
from __future__ import annotations

import pytest
from cobi_companion.rules.battle import Battle, Piece
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.errors import Refusal, RulesError
from cobi_companion.rules.movement import allowance
from cobi_companion.rules.shot import check_firer
from cobi_companion.rules.status import Side, Status
from cobi_companion.rules.tank import choices, turns
from cobi_companion.rules.tank.hard_fire import reload_action
from cobi_companion.rules.tank.refusals import TankRefusal
from cobi_companion.rules.tank.soft_fire import he_weapon
from cobi_companion.rules.tank.turns import Action

PANZER = validated_card({
    "id": "panzer", "name": "Panzer", "kind": "hard", "crew": 5, "gun_to_hit": "3-6",
    "reload": "4-6", "damage": 6, "he_modifier": "+1", "move_forward": 20,
    "weapons": [{"name": "coax MG", "template": "mg", "shots": 2, "mount": "coaxial"},
                {"name": "hull MG", "template": "mg", "shots": 2, "mount": "hull"},
                {"name": "roof MG", "template": "mg", "shots": 2, "mount": "external"}]})
TIGER = validated_card({"id": "tiger", "name": "Tiger I", "set_number": 2477, "kind": "hard",
                        "crew": 5, "gun_to_hit": "3-6", "reload": "5-6", "damage": 16,
                        "move_forward": 22, "armour_front": 12})
GRENADIER = validated_card({
    "id": "grenadier", "name": "Grenadier", "kind": "figure", "crew": 1,
    "weapons": [{"name": "rifle"}, {"name": "grenade", "template": "grenade"}]})
RIFLE = validated_card({"id": "rifleman", "name": "Rifleman", "kind": "figure", "crew": 1,
                        "weapons": [{"name": "rifle"}]})


def field(*pieces: Piece) -> Battle:
    return Battle("tank", (*pieces, Piece("Rifle 9", Side.ALLIES, RIFLE, Status(), 3),
                           Piece("Rifle 8", Side.ALLIES, RIFLE, Status(hidden=True), 2)))


def active(b: Battle, label: str, extra: bool = False) -> turns.Turn:
    turn = turns.first_turn(Side.AXIS)
    if extra:          # an activation that did not fire, ended: the extra one may not fire
        turn = turns.end_activation(turns.activate(turn, b, ["Rifle 7"]))
    return turns.activate(turn, b, [label])


def code(no: RulesError | None) -> Refusal | None:
    return None if no is None else no.code


def test_an_immobilized_tank_may_not_move_and_an_unloaded_one_without_a_mg_not_fire():
    tiger = Piece("Tiger 1", Side.AXIS, TIGER, Status(immobilized=True, loaded=False), 5)
    b = field(tiger)
    turn = active(b, "Tiger 1")
    assert code(choices.action(turn, b, "Tiger 1", Action.MOVE)) is TankRefusal.IMMOBILIZED
    fire = choices.action(turn, b, "Tiger 1", Action.FIRE)
    assert code(fire) is Refusal.UNLOADED and fire is not None
    assert fire.values["name"] == "Tiger 1"             # the label, not "2477 Tiger I"
    assert choices.action(turn, b, "Tiger 1", Action.RELOAD) is None
    assert turn.current is not None and turn.current.done == ()     # nothing recorded


def test_an_unloaded_tank_with_a_machine_gun_may_fire_it_but_not_its_gun():
    panzer = Piece("Panzer 1", Side.AXIS, PANZER, Status(loaded=False), 5)
    b = field(panzer)
    turn = active(b, "Panzer 1")
    assert choices.action(turn, b, "Panzer 1", Action.FIRE) is None
    assert code(choices.weapon(turn, b, "Panzer 1", None)) is Refusal.UNLOADED
    assert code(choices.weapon(turn, b, "Panzer 1", he_weapon(PANZER))) is Refusal.UNLOADED
    assert choices.weapon(turn, b, "Panzer 1", PANZER.weapon("hull MG")) is None


def test_the_roof_mg_needs_the_commander_out_and_the_coaxial_mg_and_he_the_gun():
    inside = field(Piece("Panzer 1", Side.AXIS, PANZER, Status(), 5))
    turn = active(inside, "Panzer 1")
    assert code(choices.weapon(turn, inside, "Panzer 1", PANZER.weapon("roof MG"))) is \
        TankRefusal.EXTERNAL_NEEDS_COMMANDER
    lost = field(Piece("Panzer 1", Side.AXIS, PANZER, Status(gun_destroyed=True), 5))
    turn = active(lost, "Panzer 1")
    assert code(choices.weapon(turn, lost, "Panzer 1", PANZER.weapon("coax MG"))) is \
        TankRefusal.COAXIAL_LOST
    assert code(choices.weapon(turn, lost, "Panzer 1", he_weapon(PANZER))) is \
        Refusal.GUN_LOST
    assert code(choices.weapon(turn, lost, "Panzer 1", None)) is Refusal.GUN_LOST
    assert choices.weapon(turn, lost, "Panzer 1", PANZER.weapon("hull MG")) is None


def test_a_grenade_after_the_last_throw_and_fire_in_the_extra_activation():
    gren = Piece("Gren 1", Side.AXIS, GRENADIER, Status(), 1)
    b = Battle("tank", (gren, Piece("Rifle 7", Side.AXIS, RIFLE, Status(), 1),
                        Piece("Rifle 9", Side.ALLIES, RIFLE, Status(), 3)))
    turn = turns.shoot(active(b, "Gren 1"), b, "Gren 1", "grenade")
    assert code(choices.weapon(turn, b, "Gren 1", GRENADIER.weapon("grenade"))) is \
        TankRefusal.GRENADE_THROWN
    assert choices.action(turn, b, "Gren 1", Action.FIRE) is None      # its rifle is left
    turn = turns.shoot(turn, b, "Gren 1", "rifle")
    assert code(choices.action(turn, b, "Gren 1", Action.FIRE)) is TankRefusal.WEAPON_FIRED
    extra = active(b, "Gren 1", extra=True)
    assert code(choices.action(extra, b, "Gren 1", Action.FIRE)) is TankRefusal.EXTRA_NO_FIRE


def test_reload_after_firing_and_a_move_after_moving_are_refused():
    tiger = Piece("Tiger 1", Side.AXIS, TIGER, Status(loaded=False), 5)
    b = field(tiger)
    turn, b = turns.fire(active(b, "Tiger 1"), b, "Tiger 1")
    assert code(choices.action(turn, b, "Tiger 1", Action.RELOAD)) is TankRefusal.ACTED_NO_RELOAD
    turn, b = turns.move(turn, b, "Tiger 1")
    assert code(choices.action(turn, b, "Tiger 1", Action.MOVE)) is TankRefusal.ALREADY_DONE


def test_a_main_gun_is_not_aimed_at_figures_or_a_hidden_piece():
    b = field(Piece("Tiger 1", Side.AXIS, TIGER, Status(), 5),
              Piece("Tiger 2", Side.ALLIES, TIGER, Status(hidden=True), 5),
              Piece("Tiger 3", Side.ALLIES, TIGER, Status(), 5))
    assert code(choices.main_gun_target(b.get("Rifle 9"))) is TankRefusal.AP_AT_SOFT_TARGET
    soft = choices.main_gun_target(b.get("Rifle 9"))
    assert soft is not None and soft.values["name"] == "Rifle 9"
    assert code(choices.main_gun_target(b.get("Tiger 2"))) is TankRefusal.HIDDEN_TARGET
    assert choices.main_gun_target(b.get("Tiger 3")) is None


def test_a_refusal_names_the_piece_by_its_label_where_it_has_one():
    with pytest.raises(RulesError) as raised:
        allowance(TIGER, status=Status(immobilized=True), name="Tiger 1")
    assert raised.value.values["name"] == "Tiger 1" and "2477" not in str(raised.value)
    with pytest.raises(RulesError) as card:      # no battle: the card's title, as before
        allowance(TIGER, status=Status(immobilized=True))
    assert card.value.values["name"] == "2477 Tiger I"


def test_a_reload_and_a_main_gun_refusal_name_the_label_too():
    with pytest.raises(RulesError) as loaded:
        reload_action(TIGER, Status(), ScriptedDice([6]), name="Tiger 1")
    assert str(loaded.value) == "Tiger 1 is loaded: there is nothing to reload"
    with pytest.raises(RulesError) as unloaded:
        check_firer(TIGER, Status(loaded=False), needs_loaded=True, name="Tiger 1")
    assert unloaded.value.values["name"] == "Tiger 1"
