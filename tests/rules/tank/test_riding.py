"""Tank Game: figures riding on vehicles (rules 7 and 14), getting on and off, and how riders
are attacked with their vehicle."""
from __future__ import annotations

from dataclasses import replace

import pytest
from cobi_companion.rules.battle import Battle, Ride, Seat
from cobi_companion.rules.card import Kind
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.errors import Refusal, RulesError
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank import overrun, soft_fire, turns
from cobi_companion.rules.tank.refusals import TankRefusal
from cobi_companion.rules.tank.soft_fire import Covered, SoftPlan, he_weapon
from cobi_companion.rules.tank.soft_table import Entry
from cobi_companion.rules.tank.turns import Action, Turn

TRUCK = validated_card({"id": "truck", "name": "Truck", "kind": "soft", "crew": 1,
                        "armour_front": 0, "armour_side": 0, "armour_rear": 0, "armour_top": 0,
                        "destroy": 2, "destroy_gun": "-", "weaken": "-", "immobilize": 1})
HALFTRACK = validated_card({"id": "halftrack", "name": "Half-track", "kind": "open_top",
                            "crew": 2})


@pytest.fixture
def field(book) -> Battle:
    """Axis: Tiger 1, Rifle 1 (3), Truck 1, Half-track 1, Bofors 1, MG 1 (1);
    Allies: Sherman 1, Rifle 2 (2), MG 2 (1)."""
    battle = Battle("tank")
    for key, side, figures in (("2477", Side.AXIS, None), ("rifleman", Side.AXIS, 3),
                               (TRUCK, Side.AXIS, None), (HALFTRACK, Side.AXIS, None),
                               ("bofors-37mm", Side.AXIS, None), ("mg-gunner", Side.AXIS, 1),
                               ("2464", Side.ALLIES, None), ("rifleman", Side.ALLIES, 2),
                               ("mg-gunner", Side.ALLIES, 1)):
        card = book.get(key) if isinstance(key, str) else key
        battle = battle.add(card, side, figures)
    return battle


def axis() -> Turn:
    return turns.first_turn(Side.AXIS)


def aboard(battle: Battle, vehicle: str, label: str = "Rifle 1") -> tuple[Turn, Battle]:
    """The squad gets on the vehicle in an activation of its own, which then ends."""
    turn, battle = turns.get_on(turns.activate(axis(), battle, [label]), battle, label, vehicle)
    return turns.end_activation(turn), battle


def refusal(call) -> Refusal:
    with pytest.raises(RulesError) as raised:
        call()
    return raised.value.code


# ---- getting on, riding along, getting off ----


def test_an_active_squad_gets_on_a_friendly_vehicle_as_its_move(field):
    """Rule 14: vehicles "may be loaded with infantry ... or have infantry riding on top"; the
    box reads getting on as the squad's move."""
    turn, battle = turns.get_on(turns.activate(axis(), field, ["Rifle 1"]), field, "Rifle 1",
                                "Tiger 1")
    assert battle.get("Rifle 1").riding == Ride("Tiger 1", Kind.HARD)
    assert battle.riders("Tiger 1") == [battle.get("Rifle 1")]
    assert turn.current is not None and turn.current.did("Rifle 1", Action.MOVE)
    with pytest.raises(RulesError, match="has already moved"):
        turns.get_off(turn, battle, "Rifle 1")


def test_riders_ride_along_inactive_when_the_vehicle_moves(field):
    """Rule 7: "Figures riding on vehicles can be inactive and still ride along, but they may
    take no other action.\""""
    turn, battle = aboard(field, "Tiger 1")
    turn, battle = turns.end_turn(*turns.end_turn(turn, battle))
    turn = turns.activate(turn, battle, ["Tiger 1"])
    turn, battle = turns.move(turn, battle, "Tiger 1")
    assert battle.get("Rifle 1").riding == Ride("Tiger 1", Kind.HARD)
    assert turn.current is not None and turn.current.labels == ("Tiger 1",)
    assert refusal(lambda: turns.fire(turn, battle, "Rifle 1")) is TankRefusal.NOT_IN_ACTIVATION


def test_where_riders_sit_is_the_vehicles_kind(field):
    """Rule 14 "loaded with infantry ... or ... riding on top"; rule 11: a closed vehicle has
    "all their crew inside", so figures ride on top of it; a truck or an open-top is loaded."""
    seats = {}
    for vehicle in ("Tiger 1", "Truck 1", "Half-track 1"):
        _, battle = aboard(field, vehicle)
        ride = battle.get("Rifle 1").riding
        assert ride is not None
        seats[vehicle] = (ride.seat, ride.situation)
    assert seats == {"Tiger 1": (Seat.ON_TOP, None),
                     "Truck 1": (Seat.INSIDE, "soft_vehicle"),
                     "Half-track 1": (Seat.INSIDE, "hard_cover")}


def test_an_active_rider_gets_off_as_its_move(field):
    """Getting off is the rider's move: "Active pieces that have not moved may fire" (rule 10),
    so it does not fire after it."""
    turn, battle = aboard(field, "Truck 1")
    turn, battle = turns.end_turn(*turns.end_turn(turn, battle))
    turn = turns.activate(turn, battle, ["Rifle 1"])
    turn, battle = turns.get_off(turn, battle, "Rifle 1")
    assert battle.get("Rifle 1").riding is None and battle.riders("Truck 1") == []
    assert refusal(lambda: turns.fire(turn, battle, "Rifle 1")) is TankRefusal.MOVED_NO_FIRE


def test_an_active_rider_that_has_not_moved_fires_from_the_vehicle_then_may_get_off(field):
    """Rule 7 forbids other actions only to inactive riders ("can be inactive and still ride
    along, but they may take no other action"): an active rider may fire, and a piece that
    fired may still move."""
    turn, battle = aboard(field, "Tiger 1")
    turn, battle = turns.end_turn(*turns.end_turn(turn, battle))
    turn = turns.activate(turn, battle, ["Rifle 1"])
    turn, battle = turns.fire(turn, battle, "Rifle 1")
    turn, battle = turns.get_off(turn, battle, "Rifle 1")
    assert battle.get("Rifle 1").riding is None


def test_a_rider_carried_by_its_vehicles_move_may_not_fire(field):
    """Rule 10: "Active pieces that have not moved may fire": riding along is moving."""
    turn, battle = aboard(field, "Tiger 1")
    turn, battle = turns.end_turn(*turns.end_turn(turn, battle))
    turn = turns.activate(turn, battle, ["Tiger 1", "Rifle 1"])
    turn, battle = turns.move(turn, battle, "Tiger 1")
    with pytest.raises(RulesError, match="rode along as Tiger 1 moved"):
        turns.fire(turn, battle, "Rifle 1")
    turn, battle = turns.get_off(turn, battle, "Rifle 1")     # it may still get off
    assert battle.get("Rifle 1").riding is None


def test_a_rider_that_fired_then_rode_along_fires_no_more(field):
    """Rule 10: "Active pieces that have not moved may fire": the squad's first figure fired,
    then the tank moved and carried it; the others may not fire after the ride."""
    turn, battle = aboard(field, "Tiger 1")
    turn, battle = turns.end_turn(*turns.end_turn(turn, battle))
    turn = turns.activate(turn, battle, ["Tiger 1", "Rifle 1"])
    turn = turns.shoot(turn, battle, "Rifle 1", "rifle")
    turn, battle = turns.fire(turn, battle, "Rifle 1")
    turns.check_shot(turn, battle, "Rifle 1", "rifle")       # a second figure: allowed
    turn, battle = turns.move(turn, battle, "Tiger 1")
    assert refusal(lambda: turns.check_shot(turn, battle, "Rifle 1", "rifle")) is \
        TankRefusal.CARRIED_NO_FIRE


def test_a_rider_neither_hides_nor_takes_cover(field):
    """Rule 8: hidden figures are laid down in cover; rule 12: cover is "behind walls, vehicles
    or anything that can stop a bullet" — not on top of one. A rider gets off first."""
    turn, battle = aboard(field, "Tiger 1")
    turn, battle = turns.end_turn(*turns.end_turn(turn, battle))
    turn = turns.activate(turn, battle, ["Rifle 1"])
    assert refusal(lambda: turns.take_cover(turn, battle, "Rifle 1")) is \
        TankRefusal.RIDER_NO_HIDE_OR_COVER
    assert refusal(lambda: turns.hide(turn, battle, "Rifle 1", cover=True,
                                      enemy_near=False)) is TankRefusal.RIDER_NO_HIDE_OR_COVER


@pytest.mark.parametrize(("who", "vehicle", "code"), [
    ("Bofors 1", "Truck 1", TankRefusal.RIDE_ONLY_FIGURES),
    ("Rifle 1", "Sherman 1", TankRefusal.NOT_A_RIDE),         # an enemy vehicle
    ("Rifle 1", "Bofors 1", TankRefusal.NOT_A_RIDE),          # a gun is no vehicle
    ("Rifle 1", "MG 1", TankRefusal.NOT_A_RIDE),
])
def test_getting_on_is_refused(field, who, vehicle, code):
    turn = turns.activate(axis(), field, [who])
    assert refusal(lambda: turns.get_on(turn, field, who, vehicle)) is code


@pytest.mark.parametrize("mark", ["destroyed", "off_map"])
def test_no_getting_on_a_vehicle_destroyed_or_off_the_map(field, mark):
    truck = field.get("Truck 1")
    battle = field.replace_piece(replace(truck, status=replace(truck.status, **{mark: True})))
    turn = turns.activate(axis(), battle, ["Rifle 1"])
    assert refusal(lambda: turns.get_on(turn, battle, "Rifle 1", "Truck 1")) is \
        TankRefusal.NOT_A_RIDE


def test_a_rider_gets_off_before_getting_on_another_and_nobody_gets_off_twice(field):
    turn, battle = aboard(field, "Tiger 1")
    turn, battle = turns.end_turn(*turns.end_turn(turn, battle))
    again = turns.activate(turn, battle, ["Rifle 1"])
    assert refusal(lambda: turns.get_on(again, battle, "Rifle 1", "Truck 1")) is \
        TankRefusal.ALREADY_RIDING
    walker = turns.activate(turn, battle, ["MG 1"])
    assert refusal(lambda: turns.get_off(walker, battle, "MG 1")) is TankRefusal.NOT_RIDING


def test_figures_placed_with_a_vehicle_keep_riding_it(field):
    """Rule 14: "You may place 2 vehicles, they may be loaded with infantry ... or have
    infantry riding on top ... or a truck towing a gun.\""""
    battle = field
    for label in ("Truck 1", "Rifle 1", "Bofors 1", "MG 1"):
        piece = battle.get(label)
        battle = battle.replace_piece(replace(piece, status=replace(piece.status,
                                                                    off_map=True)))
    turn, battle = turns.place(axis(), battle, "Truck 1")
    turn, battle = turns.place(turn, battle, "Rifle 1", riding_with="Truck 1")
    turn, battle = turns.place(turn, battle, "Bofors 1", riding_with="Truck 1")
    turn, battle = turns.place(turn, battle, "MG 1")
    assert battle.get("Rifle 1").riding == Ride("Truck 1", Kind.SOFT)
    assert battle.get("Bofors 1").riding is None        # a towed gun is unhitched at the edge
    assert battle.get("MG 1").riding is None            # walked on by itself
    assert [p.label for p in battle.riders("Truck 1")] == ["Rifle 1"]


def test_riders_of_a_destroyed_vehicle_get_off_unharmed(field):
    """The rules say nothing of riders when their vehicle is destroyed: they get off beside
    the wreck, as figures a tank drives over are "placed just to the side of the tank"."""
    _, battle = aboard(field, "Truck 1")
    truck = battle.get("Truck 1")
    battle = battle.replace_piece(replace(truck, status=replace(truck.status, destroyed=True)))
    rider = battle.get("Rifle 1")
    assert rider.riding is None and rider.figures == 3 and not rider.gone


def test_riders_get_off_when_their_vehicle_leaves_for_a_new_commander(field):
    """Rule 11: without its commander "the only action that the vehicle can take is to move
    off a friendly edge": its riders stay on the map."""
    turn, battle = aboard(field, "Tiger 1")
    tiger = battle.get("Tiger 1")
    battle = battle.replace_piece(replace(tiger, status=replace(tiger.status,
                                                                commander_killed=True)))
    turn, battle = turns.end_turn(*turns.end_turn(turn, battle))
    turn, battle = turns.leave(turns.activate(turn, battle, ["Tiger 1"]), battle, "Tiger 1")
    assert battle.get("Rifle 1").riding is None and not battle.get("Rifle 1").status.off_map


# ---- attacked with the vehicle ----


def riding(battle: Battle, vehicle: str, label: str = "Rifle 1"):
    _, battle = aboard(battle, vehicle, label)
    return battle.get(label)


def test_a_figure_in_a_soft_vehicle_has_the_soft_vehicle_modifier(book, field):
    """The motorcycle example: "The shooters die roll will be modified by -2 for the range, and
    -1 for in Soft Vehicle.\""""
    rider = riding(field, "Truck 1")
    shooter = field.get("Rifle 2")
    plan = SoftPlan(shooter, shooter.card.weapon("rifle"), (Covered(rider, 1),), book.table,
                    range_cm=45)
    shot = soft_fire.fire(plan, ScriptedDice([4, 3]))
    attack = shot.attacks[0]
    assert [m.value for m in attack.modifiers] == [2, -1] and attack.modified == 5
    assert shot.down == 1
    assert shot.to_dict()["targets"][0]["riding"] == {"vehicle": "Truck 1", "kind": "soft",
                                                      "seat": "inside"}


def test_small_arms_do_not_reach_riders_in_an_open_top(book, field):
    """Rule 11: "Figures In open top hard vehicles are in hard cover ... They may not be
    targeted by small arms, but can be targeted buy HE or grenades.\""""
    rider = riding(field, "Half-track 1")
    shooter = field.get("Rifle 2")
    plan = SoftPlan(shooter, shooter.card.weapon("rifle"), (Covered(rider, 1),), book.table,
                    range_cm=45)
    dice = ScriptedDice([6, 1])
    assert refusal(lambda: soft_fire.fire(plan, dice)) is TankRefusal.RIDERS_IN_HARD_COVER
    assert len(dice.left) == 2
    mg = field.get("MG 2")
    template = SoftPlan(mg, mg.card.weapon("medium mg"), (Covered(rider, 3),), book.table)
    assert soft_fire.fire(template, ScriptedDice([])).attacked == 0


def test_he_reaches_riders_in_an_open_top_in_hard_cover(book, field):
    table = replace(book.table, situations={**book.table.situations,
                                            "hard_cover": Entry(modifier=-2, source="test")})
    rider = riding(field, "Half-track 1")
    sherman = field.get("Sherman 1")
    plan = SoftPlan(sherman, he_weapon(sherman.card), (Covered(rider, 1),), table, range_cm=50)
    shot = soft_fire.fire(plan, ScriptedDice([6, 6, 4, 1]))   # hit, reload, 4+2-2 against 1
    attack = shot.attacks[0]
    assert [m.value for m in attack.modifiers] == [2, -2] and shot.down == 1


def test_a_template_over_a_tank_attacks_its_riders_on_top_one_figure_at_a_time(book, field):
    """"If the weapon has a template ... use it to determine which figures and soft vehicles
    are touched and make an attack against each in the same way with each target one at a
    time": riders on top of a tank are figures in the open."""
    rider = riding(field, "Tiger 1")
    tiger = field.get("Tiger 1")
    mg = field.get("MG 2")
    # a machine gun whose card says its damage dice are none (the shipped card does not
    # say: refused, test_soft_refusals)
    none = replace(mg.card.weapon("medium mg"), given=None)
    plan = SoftPlan(mg, none, (Covered(tiger, 0), Covered(rider, 3)), book.table)
    # the tank: no damage dice; then figure 1 (4+2 against 2: down), figure 2 (1+2 against 5,
    # then 2+2 against 6), figure 3 (5+2 against 1: down)
    shot = soft_fire.fire(plan, ScriptedDice([4, 2, 1, 5, 2, 6, 5, 1]))
    assert [a.target for a in shot.attacks] == ["Tiger 1", "Rifle 1 figure 1",
                                                "Rifle 1 figure 2", "Rifle 1 figure 2",
                                                "Rifle 1 figure 3"]
    assert all([m.value for m in a.modifiers] == [2] for a in shot.attacks[1:])
    assert shot.down == 2 and shot.results[1].after.figures == 1


def test_a_tank_does_not_run_over_riders(field):
    """Rule 9: "Hard cover and other vehicles will generally block movement": the vehicle the
    riders are on blocks the tank."""
    _, battle = aboard(field, "Truck 1")
    sherman = battle.get("Sherman 1")
    assert battle.get("Rifle 1") not in overrun.candidates(battle, sherman)
    assert refusal(lambda: overrun.check(sherman, (overrun.Under(battle.get("Rifle 1")),))) \
        is TankRefusal.RIDER_BLOCKS


def test_the_crew_of_a_destroyed_gun_ride_as_figures_and_a_gun_does_not(book, field):
    """Rule 14: vehicles "may be loaded with infantry"; the HE example attacks a gun's crew
    "individually", as figures, once the gun is "destroyed": its crew left are figures, and
    get on a vehicle as a squad does (the notes: they move as figures do). A gun with its gun
    is towed (rule 14: "a truck towing a gun"), never loaded."""
    gun = field.get("Bofors 1")
    turn = turns.activate(axis(), field, ["Bofors 1"])
    assert refusal(lambda: turns.get_on(turn, field, "Bofors 1", "Truck 1")) is \
        TankRefusal.RIDE_ONLY_FIGURES
    battle = field.replace_piece(replace(gun, status=replace(gun.status, destroyed=True),
                                         figures=2))
    turn = turns.activate(axis(), battle, ["Bofors 1"])
    turn, battle = turns.get_on(turn, battle, "Bofors 1", "Truck 1")
    crew = battle.get("Bofors 1")
    assert crew.riding == Ride("Truck 1", Kind.SOFT) and crew.crew_only
    assert battle.riders("Truck 1") == [crew]
    # in the truck they have the soft vehicle's -1, as any figure loaded in it
    shooter = battle.get("Rifle 2")
    plan = SoftPlan(shooter, shooter.card.weapon("rifle"), (Covered(crew, 1, model=False),),
                    book.table, range_cm=45)
    attack = soft_fire.fire(plan, ScriptedDice([4, 3])).attacks[0]
    assert [m.value for m in attack.modifiers] == [2, -1]
    # and the truck under them blocks a tank
    sherman = battle.get("Sherman 1")
    assert crew not in overrun.candidates(battle, sherman)
    assert refusal(lambda: overrun.check(sherman, (overrun.Under(crew, 1),))) is \
        TankRefusal.RIDER_BLOCKS
