"""Issue 35, points 4 and 5 on the box (point 3, the grenade's To hit, is played in
test_tank_game_box.py beside the other grenade throws): the 7TP, whose card says "Damage HE
Modifier none", fires its gun at one figure; the medium MG, whose damage dice its card does not
give, is refused over a tank with the reason, before any die."""
from __future__ import annotations

from cobi_companion.device.config import Config, Game
from cobi_companion.device.core.views import BigWord, Menu, Roll
from cobi_companion.device.sim import drain

from .test_tank_game_box import AXIS_FIRST, add, lines, logged, new_battle, pieces


def seven_tp_at_riflemen(table) -> None:
    new_battle(table, ("7TP", "axis"), ("Rifleman", "allies", 2))
    table.press("ok", "ok")                   # 7TP 1 (alone: it starts), Fire
    assert isinstance(table.view, Menu) and table.view.items == ("Rifle 1 (2)",)


def test_the_7tp_fires_its_gun_at_one_figure_and_reloads(table_at):
    """"First check to see if the weapon has a template (if None), then only one figure or
    soft vehicle is the target": the 7TP's gun, without HE, at one rifleman in the open at
    30 cm: our table's +2 for a main gun; 4+2 = 6 against 2."""
    table = table_at([*AXIS_FIRST, 4, 3, 2])
    seven_tp_at_riflemen(table)
    table.choose("Rifle 1")
    table.choose("in the open")
    table.press("ok")                         # 30 cm, as dialled
    assert "Axis: press to fire" in lines(table.view)
    table.press("axis")                       # the attack and the reload: one press
    view = table.view
    assert isinstance(view, Roll) and view.faces == (4,) and view.caption == "Allies: defend!"
    table.tap("allies")
    # the attack, then its reload die shown as HE's is (rolled with the attacker's), the outcome
    attack, reload, _ = table.steps
    assert isinstance(attack, Roll) and attack.faces == (4, 2)
    assert isinstance(reload, Roll) and reload.faces == (3,)
    assert (reload.caption, reload.total) == ("Reload", "UNLOADED")
    drain(table.box)
    assert isinstance(table.view, BigWord) and table.view.word == "DOWN!"
    assert "unloaded" in table.view.detail
    assert pieces(table)["Rifle 1"] == (1, [])
    assert pieces(table)["7TP 1"] == (3, ["unloaded"])
    assert logged(table)[-1] == "axis 7TP 1 fires main gun at Rifle 1 (2): 1 of 1 down"


def test_the_mg_over_a_tank_is_refused_naming_the_cards_missing_field(table_at):
    table = table_at([*AXIS_FIRST, 6, 6, 6, 6])
    new_battle(table, ("Medium MG team", "axis", 1), ("Tiger I", "allies"))
    table.press("ok", "ok")                   # MG 1, Fire: its template
    assert table.view.items == ("Tiger 1", "Fire!")
    table.press("ok", "ok")                   # the Tiger, front
    text = lines(table.view)
    assert "mg-gunner.toml" in text and "machine gun's damage" in text, text
    assert pieces(table)["Tiger 1"] == (5, [])       # no die: nothing happened to it


def test_in_polish_the_refusal_names_the_weapon_and_the_field(table_at):
    table = table_at([*AXIS_FIRST], config=Config(game=Game(language="pl", rules="tank")))
    table.press("ok")
    add(table, "Medium MG team", "axis", 1)
    add(table, "Tiger I", "allies")
    table.press("ok", "axis", "allies", "ok")
    table.press("ok", "ok", "ok", "ok")       # KM 1, Ogień, Tiger 1, przód
    text = lines(table.view)
    assert "mg-gunner.toml" in text and "„karabin maszynowy”" in text, text
    assert "„Siła Strzału / liczba kości”" in text, text


def test_the_7tp_offers_the_figures_in_polish(table_at):
    table = table_at([*AXIS_FIRST, 4, 5, 2], config=Config(game=Game(language="pl",
                                                                      rules="tank")))
    table.press("ok")
    add(table, "7TP", "axis")
    add(table, "Rifleman", "allies", 2)
    table.press("ok", "axis", "allies", "ok")
    table.press("ok", "ok")                   # 7TP 1, Ogień
    assert table.view.items == ("Strzelec 1 (2)",)
    table.press("ok", "ok", "ok", "axis")     # Strzelec 1, in the open, 30 cm; attack + reload
    table.tap("allies")
    _, reload, _ = table.steps                # its reload die, in Polish, as HE's
    assert isinstance(reload, Roll) and reload.faces == (5,)
    assert (reload.caption, reload.total) == ("Przeładowanie", "ZAŁADOWANE")
