"""Cobra on the box: carpet bombing planned a game turn ahead (14.3a, c, d, e, f), the beach
shift marker after landing losses (17.3.2 step 5f) and the automatic German victory when no
beach hex is Allied (17.3.13, 17.4.3): real app, store, screens and inputs, scripted dice."""
from __future__ import annotations

from dataclasses import replace

from cobi_companion.device.core.views import BigWord
from cobi_companion.rules.cobra.combat import Nation
from cobi_companion.rules.cobra.landing import Landing, Marker, Target
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.cobra.turns import CobraGame, sequence

from .test_cobra_box import at_combat, dial_attack, saved, seed_game
from .test_cobra_landing_box import at_landing, landing_tables, log_line

C = Weather.CLEAR


def test_a_carpet_bombing_not_planned_is_refused_and_one_planned_is_flown(table_at, tmp_path):
    """14.3a: "The Allied player must write down the target hex of a carpet bombing at the
    start of the Allied Combat Phase one game turn before"; 14.3d: the next Allied Combat
    Phase "cancels or conducts the carpet bombing mission as planned"."""
    state = tmp_path / "state"
    seed_game(state, at_combat(15, [C], 8))                  # the scenario's first turn
    table = table_at([3], state_dir=state)
    table.choose("Resume Cobra")
    # none planned on the scenario's first turn: no row to refuse it (14.3a)
    assert not any(item.startswith("Carpet bombing") for item in table.view.items)
    table.choose("Plan carpet bombing")
    assert table.view.header.title == "Carpet plan: GT 16"
    assert table.view.lines[0] == "Write down its target hex for game turn 16 (14.3a)"
    assert saved(table)["cobra"]["carpet_plan"] == 16
    assert log_line(table) == "GT15 carpet bombing planned for GT 16"
    table.press("ok")
    assert "Carpet plan: GT 16" in table.view.items          # planned: the row says so
    table.choose("Tracks")
    assert "Carpet plan: GT 16" in table.view.items
    session = table.box.app.game
    session.game = replace(at_combat(16, [C, C], 8), carpet_plan=16)
    table.press("back")
    table.choose("Carpet bombing")
    table.press("allies", "ok", "ok")
    assert saved(table)["cobra"]["carpets"] == [16]
    table.choose("Tracks")
    assert "Carpet: 1 of 2" in table.view.items               # one still to come (14.3f)
    table.choose("3 AP: other front")                         # 14.3e beside the track
    assert "other three AP" in " ".join(table.view.lines)


def test_a_planned_mission_is_cancelled_asked_first(table_at, tmp_path):
    """14.3c: "He may cancel the mission ... the Allied player must wait until the next Allied
    Combat Phase prior to planning another"."""
    state = tmp_path / "state"
    seed_game(state, replace(at_combat(16, [C, C], 8), carpet_plan=16))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Cancel carpet bombing")
    assert table.view.items == ("no", "yes") and table.view.index == 0
    table.choose("yes")
    assert (saved(table)["cobra"]["carpet_plan"], saved(table)["cobra"]["carpet_cancelled"]) \
        == (None, 16)
    table.choose("Plan carpet bombing")
    assert "cancelled this turn" in " ".join(table.view.lines)


def test_landing_losses_place_a_beach_shift_marker_dialled_on_allied_attacks(table_at,
                                                                             tmp_path):
    """17.3.2 step 5f: "Place a beach shift marker on the affected hex equal to the number of
    step losses suffered in the beach hex. 1) All Allied attacks originating from that hex must
    suffer the number of shifts to the left ... 2) As soon as Allied units advance after combat
    out of such a hex, the beach shift markers are removed"."""
    table = table_at([4], state_dir=at_landing(tmp_path),
                     config=landing_tables(tmp_path / "cards"))
    table.choose("Resume Cobra")
    table.choose("Landing attrition")
    table.choose("Juno")
    table.press("cw", "cw", "ok", "axis")                     # 2:1, die 4: two steps lost
    table.press("ok", "ok")
    assert table.view.header.title == "Juno marker"
    assert table.view.items == ("New hex: -2",)
    table.choose("New hex: -2")
    assert saved(table)["cobra"]["landing"]["markers"] == [{"beach": "juno", "columns": 2}]
    assert log_line(table) == "GT1 beach shift marker juno: -2"
    session = table.box.app.game
    session.game = replace(at_combat(2, [C, Weather.OVERCAST], 8, "campaign"),
                           landing=session.game.landing)
    table.choose("Tracks")
    table.press("back")
    dial_attack(table, "Marker +0")
    assert table.view.lines[:2] == ("5 : 2 = 2:1", "-2 → 1:2")
    table.press("back")
    table.choose("Tracks")
    table.choose("Marker Juno -2")
    table.choose("yes")                                       # advanced out of the hex
    assert saved(table)["cobra"]["landing"]["markers"] == []


def test_a_second_loss_in_the_same_hex_adds_to_its_marker(table_at, tmp_path):
    landing = Landing(markers=(Marker(Target.JUNO, 1),))
    table = table_at([4], state_dir=at_landing(tmp_path, landing),
                     config=landing_tables(tmp_path / "cards"))
    table.choose("Resume Cobra")
    table.choose("Landing attrition")
    table.choose("Juno")
    table.press("cw", "cw", "ok", "axis", "ok", "ok")
    assert table.view.items == ("New hex: -2", "Same hex as -1: -3")
    table.choose("Same hex as -1: -3")
    assert saved(table)["cobra"]["landing"]["markers"] == [{"beach": "juno", "columns": 3}]


def at_german_mechanized(key: str, turn: int = 3) -> CobraGame:
    game = CobraGame.start(key)
    step = next(i for i, p in enumerate(sequence(key, turn))
                if p.name == "mechanized_movement" and p.player is Nation.GERMAN)
    return CobraGame(game.scenario, turn, step, tuple([C] * (turn - game.first_turn + 1)),
                     game.tracks, game.last)


def test_no_beach_hex_allied_at_the_allied_turn_ends_the_game(table_at, tmp_path):
    """17.4.3: "The game ends and the German player wins an automatic decisive victory if, at
    the beginning of any Allied player turn, there are no beach hexes friendly to the Allied
    player": asked at that moment where the landing abandoned a beach, *no* lit; *yes* ends
    the game."""
    state = tmp_path / "state"
    seed_game(state, replace(at_german_mechanized("buildup"),
                             landing=Landing(abandoned=(Target.UTAH,))))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Next phase")
    assert table.view.header.title == "All beaches lost?"
    assert table.view.items == ("no", "yes") and table.view.index == 0
    table.choose("yes")
    view = table.view
    assert isinstance(view, BigWord) and view.word == "GERMANS: DECISIVE"
    table.press("ok")
    assert "automatic decisive German victory (17.3.13, 17.4.3)" in " ".join(table.view.lines)
    assert saved(table)["cobra"]["automatic"] and saved(table)["cobra"]["over"]


def test_no_keeps_playing_and_cobra_asks_nothing(table_at, tmp_path):
    state = tmp_path / "state"
    seed_game(state, replace(at_german_mechanized("campaign"),
                             landing=Landing(abandoned=(Target.UTAH,))))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Next phase")
    table.choose("no")
    assert table.view.header.title.endswith("Supply")
    assert not saved(table)["cobra"]["over"]
    other = tmp_path / "other"
    seed_game(other, at_german_mechanized("cobra", 15))
    cobra = table_at([], state_dir=other)
    cobra.choose("Resume Cobra")
    cobra.choose("Next phase")
    assert cobra.view.header.title.endswith("Supply")
