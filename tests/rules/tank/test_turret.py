"""Tank Game: a vehicle's machine guns by their mount (rules 10 and 11), each weapon fired once
in an activation (rule 10), and hand grenades one a figure per activation.

No shipped card prints a vehicle's machine gun: the cards here are made in the test."""
from __future__ import annotations

import json

import pytest
from cobi_companion.rules.battle import Battle, Piece
from cobi_companion.rules.card import Kind, Mount, Template
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.status import Side, Status
from cobi_companion.rules.tank import soft_fire, turns
from cobi_companion.rules.tank.refusals import TankRefusal
from cobi_companion.rules.tank.soft_fire import Covered, SoftPlan
from cobi_companion.rules.tank.soft_table_schema import validated_table
from cobi_companion.rules.tank.turns import GUN
from pydantic import ValidationError

# A tank whose card gives each kind of machine gun, and a figure with a rifle and grenades.
PANZER = validated_card({
    "id": "panzer", "name": "Panzer", "kind": "hard", "crew": 5, "gun_to_hit": "3-6",
    "reload": "4-6", "damage": 6, "he_modifier": "+1",
    "weapons": [{"name": "coax MG", "template": "mg", "shots": 2, "mount": "coaxial"},
                {"name": "hull MG", "template": "mg", "shots": 2, "mount": "hull"},
                {"name": "roof MG", "template": "mg", "shots": 2, "mount": "external"}]})
GRENADIER = validated_card({
    "id": "grenadier", "name": "Grenadier", "kind": "figure", "crew": 1,
    "weapons": [{"name": "rifle"}, {"name": "grenade", "template": "grenade"}]})
RIFLE = validated_card({"id": "rifleman", "name": "Rifleman", "kind": "figure", "crew": 1,
                        "weapons": [{"name": "rifle"}]})
TABLE = validated_table({"weapons": {
    name: {"template": {"modifier": 2}} for name in ("coax mg", "hull mg", "roof mg")}})


def panzer(**marks: bool) -> Piece:
    return Piece("Panzer 1", Side.AXIS, PANZER, Status(**marks), 5)


def battle(*pieces: Piece) -> Battle:
    return Battle("tank", (*pieces, Piece("Rifle 9", Side.ALLIES, RIFLE, Status(), 3)))


def mg_plan(firer: Piece, name: str, rifle: Piece) -> SoftPlan:
    return SoftPlan(firer, firer.card.weapon(name), (Covered(rifle, 1),), TABLE)


# ---- the card: a weapon's mount ----


def test_a_weapon_entry_takes_a_mount_and_keeps_it_in_its_plain_form():
    assert [w.mount for w in PANZER.weapons] == [Mount.COAXIAL, Mount.HULL, Mount.EXTERNAL]
    assert PANZER.weapons[0].to_plain()["mount"] == "coaxial"
    again = type(PANZER).from_plain(json.loads(json.dumps(PANZER.to_plain())))
    assert again.weapons == PANZER.weapons
    assert GRENADIER.weapons[0].mount is None and "mount" not in GRENADIER.weapons[0].to_plain()


def test_a_mount_the_schema_does_not_know_is_refused():
    with pytest.raises(ValidationError, match="mount"):
        validated_card({"id": "x", "name": "X", "weapons": [{"name": "mg", "mount": "wing"}]})


# ---- Destroy Gun: the coaxial MG is lost, a hull MG is not ----


def test_destroy_gun_takes_the_coaxial_machine_gun_with_the_main_gun():
    """Rule 10: "Destroy Gun (major hit): ... disables the main gun and the turret machine gun
    (coaxial) if any"."""
    lost = panzer(gun_destroyed=True)
    with pytest.raises(RulesError) as raised:
        soft_fire.check_plan(mg_plan(lost, "coax MG", battle().get("Rifle 9")))
    assert raised.value.code is TankRefusal.COAXIAL_LOST
    assert str(raised.value) == ("Panzer 1 has lost its gun, and its turret machine gun "
                                 "(coax MG, coaxial) with it")
    with pytest.raises(RulesError, match="has lost its gun"):
        soft_fire.check_soft_firer(lost, soft_fire.he_weapon(PANZER))


def test_a_hull_machine_gun_fires_after_the_main_gun_is_lost():
    """Only "the main gun and the turret machine gun (coaxial)" are disabled: a hull MG is
    neither."""
    soft_fire.check_plan(mg_plan(panzer(gun_destroyed=True), "hull MG",
                                 battle().get("Rifle 9")))


def test_the_coaxial_mg_fires_while_the_main_gun_is_there():
    soft_fire.check_plan(mg_plan(panzer(), "coax MG", battle().get("Rifle 9")))


# ---- the external MG: the commander in the turret ----


def test_the_external_machine_gun_is_fired_only_by_the_commander_out_in_the_turret():
    """Rule 11: the commander "may sit in the turret and act as a figure for spotting or firing
    the external machinegun"."""
    rifle = battle().get("Rifle 9")
    with pytest.raises(RulesError) as raised:
        soft_fire.check_plan(mg_plan(panzer(), "roof MG", rifle))
    assert raised.value.code is TankRefusal.EXTERNAL_NEEDS_COMMANDER
    soft_fire.check_plan(mg_plan(panzer(commander_out=True), "roof MG", rifle))
    # and it is not lost with the main gun: it is not the turret's coaxial MG
    soft_fire.check_plan(mg_plan(panzer(commander_out=True, gun_destroyed=True), "roof MG",
                                 rifle))


def test_a_killed_commander_fires_nothing():
    """Rule 11: "If that happens the only action that the vehicle can take is to move off a
    friendly edge"."""
    with pytest.raises(RulesError) as raised:
        soft_fire.check_plan(mg_plan(panzer(commander_killed=True), "roof MG",
                                     battle().get("Rifle 9")))
    assert raised.value.code is TankRefusal.COMMANDER_LOST


def test_the_weapons_a_vehicle_could_fire_now():
    assert turns.weapons_now(panzer()) == (GUN, "coax MG", "hull MG")
    assert turns.weapons_now(panzer(commander_out=True)) == (GUN, "coax MG", "hull MG",
                                                             "roof MG")
    assert turns.weapons_now(panzer(gun_destroyed=True)) == ("hull MG",)
    assert turns.weapons_now(panzer(loaded=False, commander_out=True)) == (
        "coax MG", "hull MG", "roof MG")


# ---- rule 10: each weapon once in an activation ----


def active(b: Battle, label: str) -> turns.Turn:
    return turns.activate(turns.first_turn(Side.AXIS), b, [label])


def test_a_vehicle_fires_its_main_gun_and_each_machine_gun_once():
    """Rule 10: "Fire each weapon individually on the active unit"."""
    b = battle(panzer(commander_out=True))
    turn = active(b, "Panzer 1")
    assert turns.shots_left(turn.current, b.get("Panzer 1")) == 4
    for weapon in (GUN, "coax MG", "hull MG", "roof MG"):
        turn = turns.shoot(turn, b, "Panzer 1", weapon)
    assert turns.shots_left(turn.current, b.get("Panzer 1")) == 0
    with pytest.raises(RulesError) as gun:
        turns.check_shot(turn, b, "Panzer 1", GUN)
    assert gun.value.code is TankRefusal.GUN_FIRED
    with pytest.raises(RulesError) as mg:
        turns.check_shot(turn, b, "Panzer 1", "hull MG")
    assert mg.value.code is TankRefusal.WEAPON_FIRED and mg.value.values["weapon"] == "hull MG"


def test_a_squad_fires_each_weapon_once_a_figure():
    b = battle(Piece("Rifle 1", Side.AXIS, RIFLE, Status(), 2))
    turn = turns.shoot(turns.shoot(active(b, "Rifle 1"), b, "Rifle 1", "rifle"), b, "Rifle 1",
                       "rifle")
    with pytest.raises(RulesError, match="has fired its rifle 2 times in this activation"):
        turns.check_shot(turn, b, "Rifle 1", "rifle")


def test_a_shot_is_the_pieces_fire_action_and_refused_as_fire_is():
    """Rule 10: "Active pieces that have not moved may fire"."""
    b = battle(panzer())
    turn, b = turns.move(active(b, "Panzer 1"), b, "Panzer 1")
    with pytest.raises(RulesError) as raised:
        turns.check_shot(turn, b, "Panzer 1", "hull MG")
    assert raised.value.code is TankRefusal.MOVED_NO_FIRE


def test_a_piece_that_fired_and_then_moved_fires_no_further_weapon():
    """Rule 10: "Active pieces that have not moved may fire": a piece that fired may still
    move, but its weapons not yet fired stay silent after the move."""
    b = battle(panzer())
    turn = turns.shoot(active(b, "Panzer 1"), b, "Panzer 1", GUN)
    turn, b = turns.fire(turn, b, "Panzer 1")
    turns.check_shot(turn, b, "Panzer 1", "hull MG")        # not moved yet: allowed
    turn, b = turns.move(turn, b, "Panzer 1")
    with pytest.raises(RulesError) as raised:
        turns.check_shot(turn, b, "Panzer 1", "hull MG")
    assert raised.value.code is TankRefusal.MOVED_NO_FIRE


# ---- hand grenades: one a figure per activation ----


def grenadiers(figures: int) -> Battle:
    return battle(Piece("Grenadier 1", Side.AXIS, GRENADIER, Status(), figures))


@pytest.mark.parametrize("figures", [1, 3])
def test_each_figure_throws_one_grenade_per_activation(figures):
    """Rule 10, Hand Grenades: "Figures armed with hand grenades can throw one per activation.
    (They have an unlimited supply of handgrenades)"."""
    b = grenadiers(figures)
    turn = active(b, "Grenadier 1")
    for _ in range(figures):
        turn = turns.shoot(turn, b, "Grenadier 1", "grenade")
    with pytest.raises(RulesError) as raised:
        turns.shoot(turn, b, "Grenadier 1", "grenade")
    assert raised.value.code is TankRefusal.GRENADE_THROWN
    assert raised.value.values == {"label": "Grenadier 1", "figures": figures}
    assert "figures armed with hand grenades can throw one per activation" in str(raised.value)
    # the rifle is another weapon: each figure still fires it
    turn = turns.shoot(turn, b, "Grenadier 1", "rifle")
    assert turn.current is not None and turn.current.fired_by("Grenadier 1", "grenade") == figures


def test_a_new_activation_throws_again():
    """"one per activation": the next activation of the figure throws again."""
    b = grenadiers(1)
    turn = turns.shoot(active(b, "Grenadier 1"), b, "Grenadier 1", "grenade")
    turn, b = turns.end_turn(turns.end_activation(turn), b)
    turn, b = turns.end_turn(turn, b)           # the Allies' turn passes; the Axis' again
    turn = turns.activate(turn, b, ["Grenadier 1"])
    turns.check_shot(turn, b, "Grenadier 1", "grenade")


def test_the_grenades_thrown_are_saved_with_the_turn():
    b = grenadiers(2)
    turn = turns.shoot(active(b, "Grenadier 1"), b, "Grenadier 1", "grenade")
    data = json.loads(json.dumps(turn.to_dict()))
    assert data["activations"][0]["shots"] == [{"piece": "Grenadier 1", "weapon": "grenade"}]
    loaded = turns.Turn.from_dict(data)
    assert loaded == turn
    turns.check_shot(turns.shoot(loaded, b, "Grenadier 1", "grenade"), b, "Grenadier 1",
                     "rifle")
    with pytest.raises(RulesError, match="thrown 2 grenades"):
        turns.check_shot(turns.shoot(loaded, b, "Grenadier 1", "grenade"), b, "Grenadier 1",
                         "grenade")
    del data["activations"][0]["shots"]          # a battle saved before shots were kept
    assert turns.Turn.from_dict(data).current.shots == ()  # type: ignore[union-attr]


def test_grenades_are_the_figures_own_template():
    assert GRENADIER.weapon("grenade").template is Template.GRENADE
    assert GRENADIER.kind is Kind.FIGURE
