"""Offer only what can be done (issue 29): a piece's menu leaves out (Tank Game) or dims, last
and with the rules' reason (Easy), what the rules would refuse it now; a target no weapon of
the firer can reach and a weapon it cannot fire now are not offered; the target fired at last
is lit, a squad's next figure too; a refusal names the piece by its label. Real app, store,
screens and inputs on gpiozero's mock pins; battles saved as if played up to there."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from cobi_companion.cards import load_cards
from cobi_companion.device.config import Config, Paths
from cobi_companion.device.core.battle_state import EasyBattle, TankBattle
from cobi_companion.device.core.views import Lines, Menu
from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore
from cobi_companion.rules.battle import Battle
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank import turns

from tests.device.conftest import EASY
from tests.device.games.test_tank_game_box import AXIS_FIRST, new_battle

# A tank whose card gives each kind of machine gun (no shipped card prints one).
PANZER = """id = "panzer"
name = "Panzer"
label = "Panzer"
kind = "hard"
crew = 5
gun_to_hit = "3-6"
reload = "4-6"
damage = 6
he_modifier = "+1"
weapons = [{ name = "coax MG", template = "mg", shots = 2, mount = "coaxial" },
           { name = "hull MG", template = "mg", shots = 2, mount = "hull" },
           { name = "roof MG", template = "mg", shots = 2, mount = "external" }]
"""


def seeded(folder: Path, level: str, axis: list[tuple[str, dict[str, bool]]],
           allies: list[tuple[str, dict[str, bool]]]) -> None:
    """A battle saved in `folder` (a box's state) as if played up to there: the Axis to act,
    each piece as (card, marks)."""
    book = load_cards()
    battle = Battle(level)
    for side, pieces in ((Side.AXIS, axis), (Side.ALLIES, allies)):
        for key, marks in pieces:
            battle = battle.add(book.get(key), side, None)
            piece = battle.pieces[-1]
            battle = battle.replace_piece(replace(piece, status=replace(piece.status, **marks)))
    state = TankBattle(battle, round=2, first=Side.AXIS, active=Side.AXIS,
                       defender=Side.AXIS, turn=turns.Turn(3, Side.AXIS)) if level == "tank" \
        else EasyBattle(battle, round=2, first=Side.AXIS, active=Side.AXIS)
    folder.mkdir(parents=True, exist_ok=True)
    store = SqliteStore(folder / DATABASE_NAME)
    store.save_battle(state.to_dict(), [])
    store.close()


def test_an_immobilized_unloaded_tank_is_offered_reload_not_fire_or_move(table_at, tmp_path):
    seeded(tmp_path / "state", "tank", [("2477", {"immobilized": True, "loaded": False})],
           [("2464", {})])
    table = table_at([])
    table.press("ok", "ok")                   # Resume; Tiger 1 alone: its actions
    view = table.view
    assert isinstance(view, Menu) and view.header.title == "Tiger 1"
    assert view.items == ("Reload", "All done", "Commander out")
    assert view.items[view.index] == "Reload"       # never Fire, lit first and refused


def test_a_tank_that_fired_is_not_offered_reload(table_at):
    table = table_at([*AXIS_FIRST, 1, 1])     # a miss; the reload fails: unloaded
    new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "allies"))
    table.press("ok", "ok")                   # Tiger 1 alone: Fire
    assert table.view.items == ("Sherman 1", "shell at a group")
    table.press("ok", "ok", "ok", "axis", "ok")    # not hull down, not over 100 cm; fired
    assert table.view.hint == "fired"
    assert table.view.items == ("Move", "All done", "Commander out")


def test_the_roof_mg_is_offered_only_with_the_commander_out(table_at, tmp_path):
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "panzer.toml").write_text(PANZER)
    table = table_at(AXIS_FIRST, config=Config(paths=Paths(cards_dir=cards)))
    new_battle(table, ("Panzer", "axis"), ("Rifleman", "allies", 2))
    table.press("ok", "ok")                   # Panzer 1 alone: Fire
    assert table.view.items == ("coax MG at a group", "hull MG at a group", "shell at a group")
    table.press("back")
    table.choose("Commander out")
    table.choose("Fire")
    assert "roof MG at a group" in table.view.items


def test_a_squads_next_figure_starts_on_the_target_it_fired_at_last(table_at):
    table = table_at([*AXIS_FIRST, 1, 6])     # the first rifle misses: 1+2 v 6
    new_battle(table, ("Rifleman", "axis", 2), ("Soldier with pistol", "allies", 1),
               ("Soldier with pistol", "allies", 1))
    table.press("ok", "ok")                   # Rifle 1 alone; Fire
    assert table.view.header.title == "Shot 1 of 2"
    assert table.view.items == ("Pistol 1 (1)", "Pistol 2 (1)")
    table.choose("Pistol 2")
    table.press("ok", "ok", "axis", "allies", "ok")   # in the open; 45 cm; the dice; read
    assert table.view.header.title == "Shot 2 of 2"   # the same shot again, or a long press
    table.press("back")                               # for another target: the last one lit
    assert table.view.items == ("Pistol 1 (1)", "Pistol 2 (1)", "Done firing")
    assert table.view.items[table.view.index] == "Pistol 2 (1)"


def test_easy_dims_what_a_vehicle_cannot_do_last_with_its_label_in_the_reason(table_at,
                                                                            tmp_path):
    seeded(tmp_path / "state", "easy", [("2477", {"immobilized": True}),
                                        ("2456", {"gun_destroyed": True})], [("2464", {})])
    table = table_at([], config=EASY)
    table.press("ok")                         # Resume: which vehicle?
    table.choose("Tiger 1")
    view = table.view
    assert view.items == ("Fire → Sherman 1", "Move") and view.dimmed == (1,)
    assert view.index == 0
    table.press("cw")                         # Move, dimmed
    assert table.view.hint == "not now · OK = why"
    table.press("ok")                         # OK says the rules' reason, by the piece's label
    reason = "Tiger 1 is immobilized: it cannot move for the rest of the game"
    assert isinstance(table.view, Lines) and table.view.lines == (reason,)
    table.press("ok", "back")
    table.choose("7TP 1")
    view = table.view                         # its gun lost: Fire is last, dimmed; Move lit
    assert view.items == ("Move", "Fire") and view.dimmed == (1,) and view.index == 0
    table.press("cw", "ok")
    assert table.view.lines == ("7TP 1 has lost its gun and cannot fire",)


def test_the_easy_menu_lights_the_last_target_by_its_label_in_every_language(table_at,
                                                                              tmp_path):
    # The row lit is found by the target's label, never by the row's words: a Polish box
    # (whose "Fire at" row reads otherwise) lights the same target.
    from cobi_companion.device.core.battle_state import LastShot

    book = load_cards()
    battle = Battle("easy").add(book.get("2477"), Side.AXIS, None)
    for _ in range(2):
        battle = battle.add(book.get("2464"), Side.ALLIES, None)
    state = EasyBattle(battle, round=2, first=Side.AXIS, active=Side.AXIS,
                       last_shot={Side.AXIS: LastShot("Tiger 1", "Sherman 2")})
    for language in ("en", "pl", "de"):
        folder = tmp_path / language
        folder.mkdir()
        store = SqliteStore(folder / DATABASE_NAME)
        store.save_battle(state.to_dict(), [])
        store.close()
        table = table_at([], folder, config=replace(EASY, game=replace(EASY.game,
                                                                       language=language)))
        table.press("ok")                             # Resume: the pick of a vehicle
        view = table.view
        assert isinstance(view, Menu), view
        table.press(*["cw"] * view.items.index("Tiger 1"), "ok")    # Tiger 1: its actions
        view = table.view
        assert isinstance(view, Menu) and view.header.title == "Tiger 1"
        assert "Sherman 2" in view.items[view.index] and view.index == 1, (language, view)
