"""Figures riding on vehicles on the box: a squad gets on a vehicle (its move), rides along
inactive while the vehicle moves, is shown with its vehicle in the pick list, the status board
and the targets, is fired at where its vehicle puts it, and gets off. Real app, store and
screens on mock pins, with scripted dice; the battle is read back from its save."""
from __future__ import annotations

from cobi_companion.cards import CardBook
from cobi_companion.device.core.battle_state import TankBattle
from cobi_companion.rules.battle import Battle, Ride
from cobi_companion.rules.card import Kind
from cobi_companion.rules.status import Side

from .test_tank_game_box import AXIS_FIRST, logged, new_battle, pieces, saved


def riding(table) -> dict:
    return {p["label"]: p.get("riding") for p in saved(table)["pieces"]}


def get_on(table, squad: str, vehicle: str) -> None:
    """The squad alone in an activation: Get on, the vehicle."""
    table.choose(squad)
    table.choose("Go!")
    table.choose("Get on")
    assert table.view.header.title == "Get on which?"
    table.choose(vehicle)


def test_a_squad_gets_on_rides_along_is_fired_at_on_top_and_gets_off(table_at, tmp_path):
    """Rule 7: "Figures riding on vehicles can be inactive and still ride along, but they may
    take no other action"; rule 14: "have infantry riding on top"."""
    # the Allies' rifle at 45 cm at a rider on top, in the open: 4+2 = 6 v 3, down
    table = table_at([*AXIS_FIRST, 4, 3])
    new_battle(table, ("Rifleman", "axis", 3), ("Sherman M4A1", "axis"),
               ("Rifleman", "allies", 1))
    get_on(table, "Rifle 1", "Sherman 1")
    assert riding(table)["Rifle 1"] == {"vehicle": "Sherman 1", "kind": "hard",
                                        "seat": "on_top"}
    assert table.view.items == ("All done",)   # getting on was its move: no fire
    assert table.view.hint == "moved"
    assert logged(table)[-1] == "axis Rifle 1 gets on Sherman 1"
    table.choose("All done")
    table.press("ok")                         # the extra activation: the Sherman moves
    table.choose("Sherman 1")
    table.choose("Move")
    table.press("ok", "ok", "ok", "ok", "ok")  # forward, no turn, no rough, not all on road
    assert riding(table)["Rifle 1"]["vehicle"] == "Sherman 1"   # carried, not activated
    activations = saved(table)["turn"]["activations"]
    assert [m["piece"] for m in activations[-1]["pieces"]] == ["Sherman 1"]
    table.choose("All done")
    assert table.view.header.side == "allies"
    table.press("back")
    table.choose("All pieces")
    assert "Rifle 1 Axis: 3 figures, on Sherman 1" in table.view.lines
    table.press("ok")                         # back to the battle
    table.choose("Rifle 2")                   # the Allies' rifleman, alone: Fire
    table.press("ok")
    assert "Rifle 1 (3) · on Sherman 1" in table.view.items
    table.choose("Rifle 1 (3) · on Sherman 1")
    assert table.view.word == "45 cm"         # on top, in the open: no situation asked
    table.press("ok", "allies", "axis")
    assert table.steps[-2].needed == "6 to 3" and table.view.word == "DOWN!"
    table.press("ok")
    assert pieces(table)["Rifle 1"] == (2, []) and riding(table)["Rifle 1"] is not None
    table.close()
    table = table_at([], tmp_path / "state")  # a restart: the rider still rides
    table.press("ok")                         # Resume: the last shot's outcome again
    assert table.view.word == "DOWN!"
    table.press("ok")
    table.choose("All done")                  # it fired: the Axis turn
    assert table.view.items[:2] == ("Rifle 1 (2) · on Sherman 1", "Sherman 1")
    table.choose("Rifle 1")
    table.choose("Go!")
    table.choose("Get off")
    assert table.view.word == "MOVED"
    table.press("ok")
    assert riding(table)["Rifle 1"] is None
    assert logged(table)[-1] == "axis Rifle 1 gets off Sherman 1"
    assert "Fire" not in table.view.items     # getting off was its move: no fire


def test_a_rider_in_a_soft_vehicle_is_fired_at_with_its_modifier(table_at):
    """The motorcycle example: "-1 for in Soft Vehicle"; the situation is not asked."""
    table = table_at([*AXIS_FIRST, 4, 3])
    new_battle(table, ("Rifleman", "axis", 2), ("Motorcycle with side-car", "axis"),
               ("Rifleman", "allies", 1))
    get_on(table, "Rifle 1", "Motorbike 1")
    table.choose("All done")
    table.press("cw", "ok")                   # no extra activation: the Allies' turn
    table.choose("Rifle 2")
    table.press("ok")                         # alone: Fire
    table.choose("Rifle 1 (2) · in Motorbike 1")
    table.press("ok", "allies")               # 45 cm: +2, in a soft vehicle -1
    assert table.view.needed == "4+1 = 5"
    table.press("axis")
    assert table.steps[-2].needed == "5 to 3" and table.view.word == "DOWN!"


def test_a_template_over_a_vehicle_attacks_its_riders_too(table_at):
    """"If the weapon has a template ... make an attack against each ... one at a time": the
    riders on top are listed with their vehicle and set under it without a situation."""
    # figure 1: 4+2 = 6 v 2, down; figure 2: 1+2 = 3 v 5, then 2+2 = 4 v 6
    table = table_at([*AXIS_FIRST, 4, 2, 1, 5, 2, 6])
    new_battle(table, ("Rifleman", "axis", 2), ("Sherman M4A1", "axis"),
               ("Medium MG team", "allies", 1))
    get_on(table, "Rifle 1", "Sherman 1")
    table.choose("All done")
    table.press("cw", "ok")
    table.press("ok", "ok")                   # MG 1 alone, Fire: its template
    assert table.view.items == ("Rifle 1 (2) · on Sherman 1", "Sherman 1", "Fire!")
    table.press("ok", "ok")                   # both figures under it: no situation asked
    assert table.view.items[0] == "• Rifle 1: 2"
    table.choose("Fire!")
    table.press("allies", "axis")
    assert table.view.needed == "6 to 2" and table.view.total == "DOWN!"
    table.press("allies", "axis", "allies", "axis")
    assert table.view.word == "1 of 2 down"
    assert pieces(table)["Rifle 1"] == (1, []) and riding(table)["Rifle 1"] is not None


def test_riders_survive_a_save_and_an_old_save_has_nobody_riding(book: CardBook):
    battle = Battle("tank").add(book.get("2464"), Side.AXIS).add(book.get("rifleman"),
                                                                 Side.AXIS, 3)
    rider = battle.get("Rifle 1")
    battle = battle.replace_piece(type(rider)(rider.label, rider.side, rider.card,
                                              figures=3, riding=Ride("Sherman 1", Kind.HARD)))
    data = TankBattle(battle, active=Side.AXIS).to_dict()
    assert data["pieces"][1]["riding"] == {"vehicle": "Sherman 1", "kind": "hard",
                                           "seat": "on_top"}
    assert "riding" not in data["pieces"][0]
    again = TankBattle.from_dict(data, book)
    assert again.battle.get("Rifle 1").riding == Ride("Sherman 1", Kind.HARD)
    del data["pieces"][1]["riding"]           # a battle saved before riders were kept
    assert TankBattle.from_dict(data, book).battle.get("Rifle 1").riding is None
