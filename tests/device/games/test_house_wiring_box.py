"""The box's wiring of the house rules (rules/house.py), each played through the buttons with
the config's [house_rules] and scripted dice: every test fails if the box stops passing the
battle's house rules to the rules it plays by."""
from __future__ import annotations

from dataclasses import replace

import pytest
from cobi_companion.cards import load_cards
from cobi_companion.device.config import Config
from cobi_companion.device.core.battle_state import TankBattle
from cobi_companion.device.core.views import BigWord, Menu, Roll
from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore
from cobi_companion.rules.battle import Battle
from cobi_companion.rules.house import HouseRules
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank import turns

from .test_offered import PANZER
from .test_open_top_and_house_box import own_cards
from .test_tank_game_box import ALLIES_FIRST, AXIS_FIRST, new_battle

TRUCK = ('id = "truck"\nname = "Truck"\nlabel = "Truck"\nkind = "soft"\ncrew = 1\n'
         'armour_front = 0\narmour_side = 0\narmour_rear = 0\narmour_top = 0\ndestroy = 9\n'
         'destroy_gun = "-"\nweaken = "-"\nimmobilize = 1\n')


def give_up(table, side: str) -> None:
    table.press("back")
    table.choose("Give up")
    table.choose(f"{side} give")
    table.choose("yes")


def test_a_match_counts_both_teams_by_the_configs_match_score(table_at):
    """match_score = both: "New match" starts with the config's house rules, each battle
    records the loser's figures, and the result adds them (5 + 5 each: a draw)."""
    table = table_at([*ALLIES_FIRST, *ALLIES_FIRST],
                     config=Config(house_rules={"match_score": "both"}))
    table.press("ccw", "ok")                  # New match (last on the start screen)
    assert "House rules: 1 changed" in table.view.items
    new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "allies"), start=())
    give_up(table, "Allies")                  # team 1 (Axis) wins with the Tiger's 5
    assert table.view.word == "AXIS WIN!"
    table.press("ok", "ok")                   # the figures left; battle 1 of 2
    assert table.view.lines[1] == "team 1 won, 5 left"
    table.press("ok")                         # battle 2, the sides swapped
    table.press("axis", "allies", "ok")
    give_up(table, "Axis")                    # team 2 (the Axis now) gives up: team 1 wins
    table.press("ok", "ok")
    saved = table.box.store.load_battle()
    assert [b["loser_figures"] for b in saved["match"]["record"]["battles"]] == [5, 5]
    assert (table.view.word, table.view.detail) == ("DRAW", "10 : 10")   # winner only: 10 : 0


def with_cards(tmp_path, house: dict[str, str]) -> Config:
    """The config's [house_rules], and a cards folder with the Marder (an open-top, crew 6)
    and a truck (a soft vehicle)."""
    config = own_cards(tmp_path, house)
    (tmp_path / "cards" / "truck.toml").write_text(TRUCK)
    (tmp_path / "cards" / "panzer.toml").write_text(PANZER)
    return config


@pytest.mark.parametrize("value", ["every", "one"])
def test_a_tank_that_fired_its_gun_fires_its_machine_guns_by_the_weapons_rule(
        table_at, tmp_path, value):
    """weapons: "Fire each weapon individually on the active unit" (every, the default: the
    Panzer's next shot is one of its MGs), or one weapon a piece (back to its actions, with
    no Fire)."""
    table = table_at([*AXIS_FIRST, 6, 6, 1, 1, 1, 1, 1, 1],
                     config=with_cards(tmp_path, {"weapons": value}))
    new_battle(table, ("Panzer", "axis"), ("Tiger I", "allies"))
    table.press("ok")                          # Panzer 1 alone
    table.choose("Fire")
    table.choose("Tiger 1")
    table.press("ok", "ok", "axis")            # not behind cover, not over 100 cm; fired
    assert isinstance(table.view, BigWord) and table.view.word == "NO DAMAGE"
    table.press("ok")
    assert isinstance(table.view, Menu)
    if value == "every":
        assert table.view.header.title == "Shot 2 of 3"
        assert table.view.items[:2] == ("coax MG at a group", "hull MG at a group")
    else:
        assert table.view.header.title == "Panzer 1" and "Fire" not in table.view.items


@pytest.mark.parametrize(("value", "asked"), [("allowed", True), ("forward_only", False)])
def test_a_move_backward_asks_the_road_by_the_road_reverse_rule(table_at, tmp_path, value,
                                                                asked):
    table = table_at([*AXIS_FIRST], config=with_cards(tmp_path, {"road_reverse": value}))
    new_battle(table, ("Tiger I", "axis"), ("Truck", "allies"))
    table.press("ok")                          # Tiger 1 alone
    table.choose("Move")
    for answer in ("yes", "0", "no"):          # backward, no turn, no rough ground
        table.choose(answer)
    if asked:
        assert table.view.header.title == "All on road?"
    else:
        assert isinstance(table.view, BigWord) and table.view.word == "10 cm"   # no bonus


@pytest.mark.parametrize(("value", "detail"), [("modified", "→ Truck 1 · 2 − 0 = 2"),
                                               ("raw", "→ Truck 1 · 0 − 0 = 0")])
def test_a_soft_vehicle_takes_damage_dice_by_the_soft_damage_rule(table_at, tmp_path, value,
                                                                  detail):
    """A rifle at 45 cm (+2) rolls 5 against the truck's 3: 4 damage dice from the modified
    7, or 2 from the 5 as rolled (soft_damage = raw); the dice 1 1 2 2 score 2 or 0."""
    table = table_at([*AXIS_FIRST, 5, 3, 1, 1, 2, 2],
                     config=with_cards(tmp_path, {"soft_damage": value}))
    new_battle(table, ("Rifleman", "axis", 1), ("Truck", "allies"))
    table.press("ok", "ok", "ok", "ok", "ok", "ok")   # Rifle 1: Fire at Truck 1, in the open,
    table.press("axis", "allies", "axis")             # front, 45 cm; attack, defend, damage
    assert isinstance(table.view, BigWord) and table.view.detail == detail


def seed_marder(tmp_path, loaded: bool, house: dict[str, str]) -> Config:
    """A battle saved as if played up to there: the Marder with two of its six crew left (to
    act), and a Tiger. The battle keeps the house rules it was started with."""
    config = with_cards(tmp_path, house)
    book = load_cards([tmp_path / "cards"])
    battle = Battle("tank").add(book.get("marder"), Side.AXIS).add(book.get("2477"),
                                                                   Side.ALLIES)
    marder = battle.pieces[0]
    battle = battle.replace_piece(replace(marder, figures=2, status=replace(
        marder.status, loaded=loaded)))
    state = TankBattle(battle, round=2, first=Side.AXIS, active=Side.AXIS,
                       defender=Side.AXIS, turn=turns.Turn(3, Side.AXIS),
                       house=HouseRules.from_dict(house))
    (tmp_path / "state").mkdir(parents=True, exist_ok=True)
    store = SqliteStore(tmp_path / "state" / DATABASE_NAME)
    store.save_battle(state.to_dict(), [])
    store.close()
    return config


@pytest.mark.parametrize(("value", "needed", "word"), [
    ("two", "2 + 2 = 4: needs 4+", "RELOADED"), ("half", "2 + 1 = 3: needs 4+", "UNLOADED")])
def test_an_open_tops_reload_action_with_two_of_six(table_at, tmp_path, value, needed, word):
    """Rule 11: "they need two to avoid -1 to the reload die"; open_top_reload = half: also
    below half its crew."""
    table = table_at([2], config=seed_marder(tmp_path, False, {"open_top_reload": value}))
    table.press("ok", "ok")                    # Resume battle; Marder 1 alone
    table.choose("Reload")
    table.press("axis")
    assert isinstance(table.view, Roll)
    assert (table.view.needed, table.view.total) == (needed, word)


@pytest.mark.parametrize(("value", "after"), [("two", "reloaded"), ("half", "unloaded")])
def test_an_open_tops_shot_reloads_with_two_of_six(table_at, tmp_path, value, after):
    table = table_at([6, 4, 1, 1, 1, 1],
                     config=seed_marder(tmp_path, True, {"open_top_reload": value}))
    table.press("ok", "ok", "ok", "ok", "ok", "ok")   # Resume; Marder 1: Fire at Tiger 1,
    table.press("axis")                               # no cover, not over 100 cm; fire
    assert isinstance(table.view, BigWord)
    assert table.view.detail == f"→ Tiger 1 · 0 − 12 = -12 · {after}"
