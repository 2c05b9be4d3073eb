"""The campaign's bookkeeping on the box, in the phase it belongs to (issue 35, point 15): the
German delay unit of GT 2-7 (17.3.11) and the rail capacity of GT 2-4 (17.3.12) counted for the
turn and refused beyond it with the reason, Cherbourg's one supplied German attack a turn
(17.3.5g) asked in the attack's supply, and the reminders of the phase (17.3.3a, 17.3.3d,
17.3.9, 13.2e), in English and Polish; saved, and an older save resumes. Real app, store,
screens and inputs, with scripted dice."""
from __future__ import annotations

from pathlib import Path

from cobi_companion.device.config import Config, Game
from cobi_companion.device.core.battle_log import english, loaded
from cobi_companion.device.games.cobra.session import CobraSession
from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore
from cobi_companion.rules.cobra.combat import Nation

from tests.device.games.test_cobra_box import dial_attack, saved, seed_game
from tests.rules.cobra.test_cobra_campaign import at

G, A = Nation.GERMAN, Nation.ALLIED


def resumed(table_at, tmp_path: Path, game, dice: list[int] | None = None,
            language: str = "en"):
    state = tmp_path / "state"
    seed_game(state, game)
    table = table_at(dice or [], state_dir=state,
                     config=Config(game=Game(language=language)))
    table.choose("Resume Cobra" if language == "en" else "Wznów")
    return table


def last_log(table) -> str:
    return english(loaded(saved(table)["log"][-1]))


def test_17_3_11_the_turns_delay_unit_is_counted_and_a_second_refused(table_at, tmp_path):
    table = resumed(table_at, tmp_path, at(2, G, "initial_movement"))
    assert list(table.view.items) == ["Movement allowance", "Overrun", "Next phase",
                                      "Delay unit 1/6", "Rail: 4 of 4 left", "Road: in column",
                                      "Tracks", "HQs"]
    table.choose("Delay unit 1/6")
    table.choose("Rule")
    assert table.view.lines[0].startswith("One delay unit appears (0 of 6 so far): in supply")
    table.press("ok")
    table.choose("Placed it")
    assert table.view.items[3] == "Delay placed 1/6"           # back on the hub
    assert saved(table)["cobra"]["ledger"]["delays"] == [2]
    assert last_log(table) == "GT2 German delay unit 1 of 6 placed"
    table.choose("Delay placed")
    assert table.view.header.title == "Not possible"
    assert table.view.lines == ("game turn 2's delay unit is placed already (1 of 6): one a "
                                "game turn (17.3.11a)",)
    table.press("ok")
    assert table.view.items[3] == "Delay placed 1/6"


def test_17_3_12_rail_capacity_counted_a_mechanized_unit_as_two(table_at, tmp_path):
    table = resumed(table_at, tmp_path, at(2, G, "mechanized_movement"))
    assert "Delay unit 1/6" not in table.view.items        # the Initial Movement Phase's
    table.choose("Rail: 4 of 4 left")
    assert list(table.view.items) == ["Mech unit +2", "Rule"]       # 4.0 G5b: no foot unit
    table.choose("Mech unit +2")
    assert table.view.header.title == "Rail: 2 of 4 left"
    table.choose("Mech unit +2")
    assert table.view.header.title == "Rail: 0 of 4 left"
    table = resumed(table_at, tmp_path / "initial", at(2, G, "initial_movement"))
    table.choose("Rail: 4 of 4 left")
    table.choose("Mech unit +2")
    table.choose("Foot unit +1")
    table.choose("Mech unit +2")
    assert table.view.header.title == "Not possible"
    assert table.view.lines == ("1 of 4 left to rail on game turn 2, this needs 2: a "
                                "mechanized unit counts as two (17.3.12a, 17.3.12b)",)
    table.press("ok")
    assert table.view.header.title == "Rail: 1 of 4 left"      # back to the choice
    table.choose("Take one back")
    assert table.view.header.title == "Rail: 2 of 4 left"
    assert saved(table)["cobra"]["ledger"]["railed"] == [{"turn": 2, "mechanized": True}]
    assert last_log(table) == "GT2 a railed unit taken back: 2 of 4 left"
    table.press("back")
    assert "Rail: 2 of 4 left" in table.view.items


def test_17_3_5g_cherbourg_supplies_one_german_attack_a_turn(table_at, tmp_path):
    table = resumed(table_at, tmp_path, at(5, G, "combat"), dice=[6, 6])
    german = saved(table)["cobra"]["tracks"]["german"]
    dial_attack(table)
    assert table.view.items[-2:] == ("From Cherbourg", "No supply: halved")
    while table.view.items[table.view.index] != "From Cherbourg":
        table.press("cw")
    assert table.view.hint == "One a turn, no SP"
    table.choose("From Cherbourg")
    table.press("axis", "ok", "ok")
    state = saved(table)
    assert state["cobra"]["ledger"]["cherbourg"] == [5]
    assert state["cobra"]["tracks"]["german"] == german       # no supply points spent
    assert last_log(table).endswith("; supplied by Cherbourg")
    assert "(unsupplied)" not in last_log(table)
    dial_attack(table)
    table.choose("Cherbourg: used")
    assert table.view.lines == ("Cherbourg has supplied a German attack on game turn 5 "
                                "already: one a game turn (17.3.5g)",)
    table.press("ok")
    assert table.view.items[-2:] == ("Cherbourg: used", "No supply: halved")


def test_the_cobra_scenario_has_no_cherbourg_supply(table_at, tmp_path):
    table = resumed(table_at, tmp_path, at(16, G, "combat", "cobra"))
    dial_attack(table)
    assert not any(item.startswith("From Cherbourg") for item in table.view.items)


def test_17_3_3_the_first_turns_reminders_in_their_phases(table_at, tmp_path):
    table = resumed(table_at, tmp_path, at(1, A, "initial_movement"))
    assert list(table.view.items) == ["Movement allowance", "Next phase", "Leclerc (15.1)",
                                      "Paratroops stay",
                                      "Landing: half MA", "All beaches lost", "Tracks", "HQs"]
    table.choose("Paratroops stay")
    assert table.view.header.title == "Paratroops stay"
    assert table.view.lines == ("Game turn 1: paratroop units may not move; they may retreat "
                                "and advance in combat (17.3.3a)",)
    table.press("ok")
    assert table.view.items[0] == "Movement allowance"
    # 17.3.3a's one hex is the turn's; paratroops never move in the Mechanized Movement Phase
    table = resumed(table_at, tmp_path / "mech", at(2, A, "mechanized_movement"))
    assert not any(item.startswith("Paratroops") for item in table.view.items)
    table = resumed(table_at, tmp_path / "german", at(1, G, "mechanized_movement"))
    assert "Who may move" in table.view.items
    table.choose("Who may move")
    assert "up to 7 other units" in table.view.lines[0]
    assert "7 for the whole turn" in " ".join(table.view.lines)


def test_in_polish(table_at, tmp_path):
    table = resumed(table_at, tmp_path, at(2, A, "initial_movement"), language="pl")
    assert "Desant: 1 heks" in table.view.items and "Lądują: pół PR" in table.view.items
    table.choose("Desant: 1 heks")
    assert table.view.lines[0].startswith("Tura 2: oddziały spadochronowe ruszają się w tej "
                                          "turze najwyżej o 1 heks; po walce mogą się wycofać "
                                          "albo zająć zwolniony heks")
    table = resumed(table_at, tmp_path / "rail", at(3, G, "initial_movement"), language="pl")
    assert "Opóźniający 1/6" in table.view.items
    table.choose("Kolej: zostało 2/2")
    table.choose("Zmechaniz. +2")
    table.choose("Pieszy +1")
    assert table.view.lines[0].startswith("koleją w turze 3 zostało 0 z 2, a to wymaga 1")


def test_an_older_save_resumes_with_nothing_counted(table_at, tmp_path):
    game = at(3, G, "initial_movement")
    data = CobraSession(game).to_dict()
    del data["cobra"]["ledger"]
    state = tmp_path / "state"
    state.mkdir(parents=True)
    store = SqliteStore(state / DATABASE_NAME)
    store.save_battle(data, [])
    store.close()
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    assert "Delay unit 1/6" in table.view.items and "Rail: 2 of 2 left" in table.view.items
