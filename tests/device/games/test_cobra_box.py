"""Cobra on the box: the scenario from the start screen, the phase indicator through the
sequence of play, the weather phase (the rules' game turns 21 and 22), an attack dialled unit
by unit with modifiers and shifts, the tracks, a pulled plug and Polish. Real app, store,
screens and inputs on gpiozero's mock pins, with scripted dice."""
from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

from cobi_companion.device.config import Config, Game, Paths
from cobi_companion.device.core import app as app_module
from cobi_companion.device.core.battle_log import english, loaded
from cobi_companion.device.core.views import BigWord, Lines, Menu
from cobi_companion.device.games.cobra.session import CobraSession, tables, tables_read
from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore
from cobi_companion.device.ui.renderer import render
from cobi_companion.rules.cobra.tables import COLUMNS, Weather
from cobi_companion.rules.cobra.turns import CobraGame, sequence

C, OV, S = Weather.CLEAR, Weather.OVERCAST, Weather.STORM


def saved(table) -> dict:
    return table.box.store.load_battle()


def seed_game(state_dir: Path, game: CobraGame) -> None:
    """A Cobra game saved as the box saves it, as if it had been played up to here."""
    state_dir.mkdir(parents=True, exist_ok=True)
    store = SqliteStore(state_dir / DATABASE_NAME)
    store.save_battle(CobraSession(game).to_dict(), [])
    store.close()


def owners_tables(folder: Path) -> Config:
    """A cards folder with an owner's tables file: the 2:1 column reads 1/2 on a 4."""
    (folder / "cobra").mkdir(parents=True)
    crt = "\n".join(f'"{c}" = ["", "", "", "{"1/2" if c == "2:1" else ""}", "", ""]'
                    for c in COLUMNS)
    (folder / "cobra" / "tables.toml").write_text(
        f'[crt]\n{crt}\n[weather.C]\n"1" = "storm"\n"4" = "clear"\n[terrain]\ntown = -1\n')
    return Config(paths=Paths(cards_dir=folder))


def at_weather(turn: int, history: list[Weather]) -> CobraGame:
    game = CobraGame.start("cobra")
    return CobraGame(game.scenario, turn, 0, tuple(history), game.tracks, game.last)


def to_phase(table, name: str) -> None:
    """OK on "Next phase" (or the phase's own step) until the phase indicator shows `name`."""
    for _ in range(20):
        if name in table.view.header.title:
            return
        if table.view.items[0].startswith("Supply points"):
            # US 0, British 0, the command levels (11.3) US 0 and British 0, the notice
            table.press("ok", "ok", "ok", "ok", "ok", "ok")
        elif "Next phase" in table.view.items:     # past the phase's attacks and rolls
            table.choose("Next phase")
        else:
            table.press("ok")
    raise AssertionError(f"never reached {name}: {table.view}")


def test_cobra_starts_from_the_start_screen(table_at, snapshot):
    table = table_at([])
    table.choose("Cobra")
    assert table.view.items == ("Cobra: 13 turns", "Alternate Cobra: 13 turns",
                                "Build-Up: 14 turns", "Campaign: 27 turns")
    table.press("ok")
    view = table.view
    assert isinstance(view, Menu) and view.header.title == "1/5 Weather"
    assert view.header.side_label == "GT15 Ger" and view.items[0] == "Roll the weather"
    state = saved(table)
    assert state["game"] == "cobra" and state["cobra"]["tracks"] == {
        "us": 3, "british": 4, "german": 4, "german_vp": 0, "allied_vp": 0}
    snapshot("cobra_hub_en", render(view))


def test_the_weather_of_game_turns_21_and_22(table_at, tmp_path, snapshot):
    state = tmp_path / "state"
    seed_game(state, at_weather(21, [OV, S, OV, C, C, C]))   # turns 18, 19 and 20 clear
    table = table_at([5, 2], state_dir=state)
    table.choose("Resume Cobra")
    table.press("ok")                                        # Roll the weather
    assert table.view.lines[0] == "Column C, DRM -1"
    table.press("axis")
    view = table.view
    assert isinstance(view, BigWord) and (view.word, view.detail) == ("CLEAR", "C: 5-1 = 4")
    snapshot("cobra_weather_en", render(view))
    table.press("ok")
    assert table.view.lines[1:] == ("German MA: -2/3", "Allied air: 6 AP", "German SP +1: 5")
    table.press("ok")
    assert table.view.header.title == "2/5 Refit"
    to_phase(table, "End of turn")
    table.press("ok")                                        # next game turn
    assert table.view.header.side_label == "GT22 Ger"
    table.press("ok", "axis")
    view = table.view
    assert (view.word, view.detail) == ("STORMS", "C: 2-2 = 0")     # below row 1: row 1
    assert saved(table)["cobra"]["weather"][-2:] == ["clear", "storm"]


def test_without_the_owners_row_the_player_reads_their_table(table_at, tmp_path):
    state = tmp_path / "state"
    seed_game(state, at_weather(16, [C]))
    table = table_at([3], state_dir=state)
    table.press("ok", "ok", "axis")
    assert table.view.header.title == "Weather A3?"
    table.choose("Overcast")
    assert table.view.word == "OVERCAST"
    assert saved(table)["cobra"]["tracks"]["german"] == 6       # +2 in overcast


def test_an_attack_dialled_unit_by_unit(table_at, tmp_path, snapshot):
    state = tmp_path / "state"
    seed_game(state, at_weather(16, [C]))
    table = table_at([3, 4], state_dir=state, config=owners_tables(tmp_path / "cards"))
    table.press("ok", "ok", "axis")
    table.choose("Clear")
    table.press("ok", "ok")
    to_phase(table, "Combat")
    table.choose("Attack")
    table.choose("+ Add a unit")
    table.press(*["cw"] * 4, "ok")                          # strength 8
    table.choose("- ×2 division")                           # divisional integrity: 16
    snapshot("cobra_modifiers_en", render(table.view))
    table.choose("- ½ out of supply")
    # out of supply it has no divisional integrity: 8 × ½ = 4 (6.3)
    table.choose("Keep")
    assert table.view.header.title == "Attacker 4"
    table.choose("+ Add a unit")
    table.press("cw", "ok")                                  # strength 5
    table.press("ok")
    assert table.view.header.title == "Attacker 9"
    snapshot("cobra_attackers_en", render(table.view))
    table.choose("Done")
    table.choose("+ Add a unit")
    table.press("ccw", "ok", "ok")                           # defender 3
    table.choose("Done")
    table.choose("Terrain")                                  # a town: -1
    snapshot("cobra_shifts_en", render(table.view))
    table.choose("Roll!")
    table.choose("Pay 2 SP")
    assert table.view.lines[:3] == ("9 : 3 = 3:1", "-1 → 2:1", "German: your button")
    table.press("axis")
    view = table.view
    assert isinstance(view, BigWord) and (view.word, view.detail) == ("1/2", "2:1, die 4")
    snapshot("cobra_result_en", render(view))
    table.press("ok")
    assert isinstance(table.view, Lines) and table.view.lines[0].startswith("Split result")
    snapshot("cobra_explained_en", render(table.view))
    table.press("ok")
    state_now = saved(table)
    assert state_now["cobra"]["tracks"]["german"] == 3       # 4 + 1 (clear) - 2
    assert english(loaded(state_now["log"][-1])) == "GT16 german attack 9:3 → 3:1 -1 → 2:1, " \
                                                   "die 4: 1/2; 2 SP german"


def at_combat(turn: int, history: list[Weather], step: int, key: str = "cobra") -> CobraGame:
    """Game turn `turn` at step `step` of its sequence (3: the German Combat Phase, 8: the
    Allied one, 9 on game turn 1 of the landing scenarios)."""
    game = CobraGame.start(key)
    return CobraGame(game.scenario, turn, step, tuple(history), game.tracks, game.last)


def dial_attack(table, *shifts: str) -> None:
    """An attack of 5 against 2 from the phase indicator, with each of `shifts` chosen."""
    table.choose("Attack")
    table.choose("+ Add a unit")
    table.press("cw", "ok", "ok")                             # 5
    table.choose("Done")
    table.choose("+ Add a unit")
    table.press("ccw", "ccw", "ok", "ok")                     # 2
    table.choose("Done")
    for shift in shifts:
        table.choose(shift)
    table.choose("Roll!")


def dial_one_against_one(table, *shifts: str) -> None:
    """An attack of one unit of 4 against one of 4, each of `shifts` chosen, not rolled."""
    table.choose("Attack")
    for _ in range(2):
        table.choose("+ Add a unit")
        table.press("ok", "ok")
        table.choose("Done")
    for shift in shifts:
        table.choose(shift)


def test_supply_points_are_spent_on_the_roll_not_before(table_at, tmp_path):
    """11.0: "In order to initiate any supplied combat, you must expend supply points": backing
    out of the roll screen initiates no combat, so the German track keeps its points and the
    log has no line; the roll spends them, and the log says so."""
    state = tmp_path / "state"
    seed_game(state, at_combat(16, [C, C], 3))
    table = table_at([6], state_dir=state)
    table.choose("Resume Cobra")
    dial_attack(table)
    table.choose("Pay 2 SP (of 4)")
    assert table.view.lines[-1] == "German: your button"
    table.press("back")                                       # not rolled after all
    assert table.view.header.title == "4/5 Combat"
    state_now = saved(table)
    assert state_now["cobra"]["tracks"]["german"] == 4 and state_now["log"] == []
    dial_attack(table)
    table.choose("Pay 2 SP (of 4)")
    table.press("axis")
    state_now = saved(table)
    assert state_now["cobra"]["tracks"]["german"] == 2
    assert english(loaded(state_now["log"][-1])).endswith("die 6: read your CRT; 2 SP german")


def test_no_supply_halves_and_takes_away_divisional_integrity(table_at, tmp_path):
    """6.3: "A unit must be in supply to have divisional integrity"; 10.0b: without supply
    points "the attacking units are then considered out of supply": an 8 with ×2 division
    attacks at 4, not 8."""
    state = tmp_path / "state"
    seed_game(state, at_combat(16, [C, C], 3))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Attack")
    table.choose("+ Add a unit")
    table.press(*["cw"] * 4, "ok")                            # 8
    table.choose("- ×2 division")
    table.choose("Keep")
    assert table.view.header.title == "Attacker 16"
    table.choose("Done")
    table.choose("+ Add a unit")
    table.press("ok", "ok")                                   # 4
    table.choose("Done")
    table.choose("Roll!")
    table.choose("No supply: halved")
    assert table.view.lines[:2] == ("4 : 4 = 1:1", "+0 → 1:1")


def test_carpet_bombing_is_an_air_mission_of_three_air_points(table_at, tmp_path):
    """14.1: "the Allied player may carpet bomb any one hex by using three AP"; 14.3g: "always
    resolved using the 6:1 column ... German units ... must take all losses in terms of steps";
    14.3f: one during GTs 5 through 14, "a total of two more" from GT 15; no attacking units
    and no supply point."""
    state = tmp_path / "state"
    seed_game(state, replace(at_combat(16, [C, C], 8), carpet_plan=16))    # planned (14.3a)
    cards = owners_tables(tmp_path / "cards")
    (tmp_path / "cards" / "cobra" / "tables.toml").write_text(
        '[crt]\n"6:1" = ["", "", "1/2", "", "", ""]\n')
    table = table_at([3], state_dir=state, config=cards)
    table.choose("Resume Cobra")
    # planned: first and lit, "prior to conducting any other attacks" (14.3d)
    assert table.view.items[:4] == ("Carpet bombing", "Attack", "Overrun", "Next phase")
    table.choose("Carpet bombing")
    assert table.view.lines[-2:] == ("3 AP of 6", "Allied: your button")
    table.press("allies")
    view = table.view
    assert isinstance(view, BigWord) and (view.word, view.detail) == ("2", "6:1, die 3")
    table.press("ok")
    assert table.view.lines[0].startswith("Defender: lose 2 steps")
    assert not any(line.startswith(("Attacker", "Split")) for line in table.view.lines)
    state_now = saved(table)
    assert state_now["cobra"]["tracks"] == CobraGame.start("cobra").tracks.to_dict()   # no SP
    assert (state_now["cobra"]["air_used"], state_now["cobra"]["carpets"]) == (3, [16])
    assert state_now["cobra"]["carpet_plan"] is None           # the plan carried out
    assert english(loaded(state_now["log"][-1])) == \
        "GT16 carpet bombing 6:1, die 3: defender 2; 3 AP"
    table.press("ok")
    # flown, the plan is spent: no second mission this turn, no row to refuse it (14.3f)
    assert table.view.items[0] == "Attack" and "Carpet bombing" not in table.view.items


def test_no_air_points_on_game_turn_1(table_at, tmp_path):
    """17.3.10: "Important: The Allied player receives no AP on GT 1."; 14.4: "GT 1: 0 NSP";
    14.3f: no carpet bombing before GT 5."""
    state = tmp_path / "state"
    seed_game(state, at_combat(1, [], 1, "campaign"))        # the German weather phase
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Roll the weather")                          # GT 1 is clear (5.3)
    table.press("ok")
    assert "Allied air: 0 AP" in table.view.lines
    session = table.box.app.game
    session.game = at_combat(1, [C], 9, "campaign")           # the Allied Combat Phase
    table.press("ok")
    dial_attack(table, "Air +0")
    assert table.view.header.title == "Not possible"
    assert table.view.lines == ("the Allied player receives no AP on GT 1 (17.3.10)",)
    table.press("ok", "back", "back")                         # the shifts, the units, the phase
    assert "Carpet bombing" not in table.view.items           # none before GT 5 (14.3f)
    session.game = replace(at_combat(5, [C] * 5, 8, "campaign"), carpet_plan=5)
    table.choose("Tracks")
    table.press("back")
    assert table.view.items[0] == "Carpet bombing"          # planned on GT 4: first (14.3d)


def test_naval_shifts_within_the_turns_naval_points(table_at, tmp_path):
    """14.4: "GT 11 through 27: 2 NSP ... NSP may not be saved from game turn to game turn":
    after naval +2 in one attack, game turn 16 has none left."""
    state = tmp_path / "state"
    seed_game(state, at_combat(16, [C, C], 8))
    table = table_at([4], state_dir=state)
    table.choose("Resume Cobra")
    dial_attack(table, "Naval +0", "Naval +1")
    table.choose("US: pay 1 SP (of 3)")
    table.press("allies", "ok", "ok")
    assert saved(table)["cobra"]["naval_used"] == 2
    assert english(loaded(saved(table)["log"][-1])).endswith("; 0 AP, 2 naval")
    dial_one_against_one(table, "Naval +0")
    assert table.view.header.title == "Not possible"     # refused as it is dialled (14.4)
    assert table.view.lines == ("0 naval support points left this game turn, this needs 1 "
                                "(14.4)",)
    table.press("ok")
    assert "Naval +0" in table.view.items


def test_an_unsupplied_attack_halves_every_attacker(table_at, tmp_path):
    state = tmp_path / "state"
    game = at_weather(16, [C])
    seed_game(state, CobraGame(game.scenario, 16, 3, (C, C), game.tracks, game.last))
    table = table_at([6], state_dir=state)
    table.choose("Resume Cobra")
    assert table.view.header.title == "4/5 Combat"
    dial_attack(table)                                        # 5 against 2, Roll!
    table.choose("No supply")
    assert table.view.lines[:2] == ("3 : 2 = 1:1", "+0 → 1:1")   # 5 halved is 3


def test_air_points_are_refused_in_storms(table_at, tmp_path):
    state = tmp_path / "state"
    game = at_weather(16, [C])
    seed_game(state, CobraGame(game.scenario, 16, 8, (C, S), game.tracks, game.last))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    assert table.view.header.title == "4/6 Combat" and table.view.header.side == "allies"
    dial_one_against_one(table, "Air")
    table.choose("Roll!")
    table.choose("US: pay 1 SP")
    assert "no air points in storms (14.0b)" in " ".join(table.view.lines)


def test_tracks_on_demand_and_the_victory_level(table_at, snapshot):
    table = table_at([])
    table.choose("Cobra")
    table.press("ok")
    table.choose("Tracks")
    assert table.view.items[:5] == ("US SP 3", "British SP 4", "German SP 4", "German VP 0",
                                    "Allied VP 0")
    snapshot("cobra_tracks_en", render(table.view))
    table.choose("Allied VP")
    table.press(*["cw"] * 16, "ok")
    assert saved(table)["cobra"]["tracks"]["allied_vp"] == 16
    table.choose("Victory")
    table.choose("no")                                       # no intact German front
    assert table.view.word == "ALLIES: OPERATIONAL"


def test_a_pulled_plug_resumes_the_phase_and_the_tracks(table_at, tmp_path):
    state = tmp_path / "state"
    table = table_at([4], state_dir=state)
    table.choose("Cobra")
    table.press("ok", "ok", "axis")                         # column A, row 4: the player reads
    table.choose("Storms")
    table.press("ok", "ok")
    table.choose("Next phase")                               # on to Movement
    table.close()
    again = table_at([], state_dir=state)
    assert again.view.items[0] == "Resume Cobra"
    again.press("ok")
    assert again.view.header.title == "3/5 Movement"
    assert saved(again)["cobra"]["tracks"]["german"] == 7


def test_a_plug_pulled_on_a_phase_result_resumes_after_that_phase(table_at, tmp_path):
    """The weather and the Allied supply are saved with their phase over: a box started again
    while their result is on the panel goes on from the next phase, and never asks for the
    weather or the supply points of that turn again."""
    state = tmp_path / "state"
    seed_game(state, at_weather(16, [C]))
    table = table_at([3], state_dir=state)
    table.press("ok", "ok", "axis")                          # column A, row 3: read
    table.choose("Overcast")
    assert table.view.word == "OVERCAST"                     # the plug is pulled here
    table.close()
    again = table_at([], state_dir=state)
    again.press("ok")                                        # Resume Cobra: the weather
    assert again.steps[0].word == "OVERCAST"                 # shown again, as it was,
    assert again.view.lines == again.steps[1].lines          # on to its effects
    again.press("ok")
    assert again.view.header.title == "2/5 Refit"
    assert saved(again)["cobra"]["tracks"]["german"] == 6    # +2 in overcast, once
    to_phase(again, "Supply")
    again.press("ok", "cw", "cw", "ok", "ok")                # US 2, British 0 (printed)
    again.press("ok", "ok")                                  # the command levels (11.3)
    assert isinstance(again.view, Lines)                     # the plug is pulled here
    us = saved(again)["cobra"]["tracks"]["us"]
    again.close()
    third = table_at([], state_dir=state)
    third.press("ok")
    assert third.view.header.title == "2/6 Refit"            # the Allies' next phase
    assert saved(third)["cobra"]["tracks"]["us"] == us


def test_a_game_saved_with_its_weather_but_not_past_it_goes_on(table_at, tmp_path, caplog):
    """A box before this one saved the weather phase with its weather known (and went on only
    after the result): resumed there, the phase indicator offers the next phase, not a second
    roll, which the rules refuse (a refusal the box once could not leave)."""
    state = tmp_path / "state"
    seed_game(state, at_weather(16, [C, S]))                 # game turn 16: storms, known
    table = table_at([3], state_dir=state)
    table.press("ok")                                        # Resume Cobra
    assert table.view.header.title == "1/5 Weather"
    assert table.view.items == ("Next phase", "Tracks")
    table.press("ok")
    assert table.view.header.title == "2/5 Refit"
    assert saved(table)["cobra"]["weather"] == ["clear", "storm"]
    assert "error" not in caplog.text.lower()


def test_a_weather_the_rules_refuse_is_said_and_the_phase_shown_again(table_at, tmp_path):
    """Should the game in play have this turn's weather by the time a weather is chosen (as
    the game above has), the box says why and shows the phase indicator; the choice is not
    left stuck on the panel."""
    state = tmp_path / "state"
    seed_game(state, at_weather(16, [C]))
    table = table_at([3], state_dir=state)
    table.press("ok", "ok", "axis")
    assert table.view.header.title == "Weather A3?"
    session = table.box.app.game
    session.game = replace(session.game, weather=(C, S))     # the weather known meanwhile
    table.choose("Overcast")
    assert table.view.header.title == "Not possible"
    assert table.view.lines == ("game turn 16 already has its weather",)
    table.press("ok")
    assert table.view.header.title == "1/5 Weather" and table.view.items[0] == "Next phase"


def test_cobra_in_polish(table_at, snapshot):
    table = table_at([], config=Config(game=Game(language="pl")))
    table.choose("Cobra")
    table.press("ok")
    assert table.view.header.title == "1/5 Pogoda" and table.view.header.side_label == \
        "T15 Niem"                      # a game turn is a "tura" in Polish
    snapshot("cobra_hub_pl", render(table.view))


def at_turn_end(key: str, turn: int) -> CobraGame:
    game = CobraGame.start(key)
    played = tuple([OV] * (turn - game.first_turn + 1))
    return CobraGame(game.scenario, turn, 10, played, game.tracks, game.last)


def test_the_campaign_rolls_for_game_turn_28(table_at, tmp_path):
    state = tmp_path / "state"
    seed_game(state, at_turn_end("campaign", 27))
    table = table_at([5], state_dir=state)
    table.choose("Resume Cobra")
    assert table.view.header.title == "6/6 End of turn"
    table.press("ok", "allies")
    assert table.view.word == "ONE MORE"
    table.press("ok")
    assert table.view.header.side_label == "GT28 Ger"
    assert saved(table)["cobra"]["last"] == 28


def test_after_the_last_turn_the_victory_level(table_at, tmp_path):
    state = tmp_path / "state"
    seed_game(state, at_turn_end("cobra", 27))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.press("ok")                                         # the last game turn ends
    assert table.view.header.title == "German front intact?"
    table.choose("yes")
    assert table.view.word == "GERMANS: MARGINAL"
    table.press("ok", "ok")
    assert table.view.items[0] != "Resume Cobra"              # back on the start screen


def test_the_landing_is_no_phase_of_the_allied_player_turn(table_at):
    """17.3.2: "the German player turn on GT 1 is preceded by a unique Allied Landing
    Phase": the landing is named alone, not "1/7" of an Allied player turn, and the Allied
    player turn of GT 1 counts its six phases."""
    table = table_at([])
    table.choose("Cobra")
    table.choose("Campaign")
    assert table.view.header.title == "Landing"
    assert table.view.header.side_label == "GT1 All"
    table.choose("Next phase")
    # 17.3.2 step 1a: "his nine paratroop units": none dropped yet, the players are asked
    assert (table.view.header.title, table.view.items) == ("0/9 dropped: leave?", ("no", "yes"))
    table.choose("no")
    assert table.view.header.title == "Landing"
    table.choose("Next phase")
    table.choose("yes")
    assert table.view.header.title == "1/5 Weather"
    table.press("ok", "axis", "ok", "ok")                    # GT 1 is clear: no die
    to_phase(table, "Supply")
    assert table.view.header.title == "1/6 Supply"
    assert saved(table)["cobra"]["phase"] == "supply"


def attack_modifiers(table_at, tmp_path, step: int, role: str) -> tuple[str, ...]:
    """The modifiers the box offers a unit of the attack (`role` "attack") or the defence
    in the combat phase at `step` of game turn 16 (3: German, 8: Allied)."""
    state = tmp_path / "state"
    game = at_weather(16, [C])
    seed_game(state, CobraGame(game.scenario, 16, step, (C, C), game.tracks, game.last))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Attack")
    if role == "defence":
        table.choose("+ Add a unit")
        table.press("ok", "ok")
        table.choose("Done")
    table.choose("+ Add a unit")
    table.press("ok")
    return table.view.items[2:]


def test_the_german_side_is_offered_no_british_or_us_halving(table_at, tmp_path):
    """8.3.2a: "Attacking British armored brigades not stacked with British infantry
    divisions have their combat strengths halved"; 8.8k: "If a hex containing US and British
    units is attacked, the combat strengths of all units in that hex are halved for defensive
    purposes". Allied units' halvings: a German unit is never offered them."""
    german_attack = attack_modifiers(table_at, tmp_path / "a", 3, "attack")
    assert "- ½ armour alone" not in german_attack and "- ×2 division" in german_attack
    allied_defence = attack_modifiers(table_at, tmp_path / "b", 3, "defence")
    assert "- ½ US+British" in allied_defence
    allied_attack = attack_modifiers(table_at, tmp_path / "c", 8, "attack")
    assert "- ½ armour alone" in allied_attack
    german_defence = attack_modifiers(table_at, tmp_path / "d", 8, "defence")
    assert "- ½ US+British" not in german_defence and "- ½ marsh" in german_defence


def test_a_doubled_and_halved_unit_is_doubled_first(table_at, tmp_path):
    """6.3e doubles, 8.3.2c halves the "final combat strength", rounded up once (2.6): 5
    with divisional integrity in marsh is 10 halved, 5; halving first would make it 6."""
    state = tmp_path / "state"
    game = at_weather(16, [C])
    seed_game(state, CobraGame(game.scenario, 16, 3, (C, C), game.tracks, game.last))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Attack")
    table.choose("+ Add a unit")
    table.press("cw", "ok")                                  # strength 5
    table.choose("- ½ marsh")                                # halved first, as dialled
    table.choose("- ×2 division")
    table.choose("Keep")
    assert table.view.header.title == "Attacker 5"


def test_the_build_up_asks_for_its_objectives(table_at, tmp_path):
    """17.4.2: "a) Bayeux (all three hexes), Isigny and Carentan must all be Allied
    controlled. b) Cherbourg must not be connected by primary road to a south or east map
    edge. c) If the Allied player fails to accomplish that, the result is a Marginal German
    Victory (subject to VP shifts)." Not the front line of 16.3.1 and 16.3.2."""
    state = tmp_path / "state"
    seed_game(state, CobraGame.start("buildup"))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Tracks")
    table.choose("Victory")
    assert table.view.header.title == "Bayeux, Isigny, Carentan Allied, Cherbourg cut off?"
    table.choose("yes")
    assert table.view.word == "ALLIES: MARGINAL"
    table.press("ok", "ok")
    table.choose("Victory")
    table.choose("no")
    assert table.view.word == "GERMANS: MARGINAL"


def test_the_german_vp_go_below_zero_and_the_net_is_shown(table_at, tmp_path):
    """15.2b: each attempt to release the 15th Army "costs the German player one VP"; 18.0:
    the variant counters require "the German to lose the designated number of victory
    points". 16.3: "subtract the German total from the Allied total"."""
    state = tmp_path / "state"
    table = table_at([], state_dir=state)
    table.choose("Cobra")
    table.press("ok")
    table.choose("Tracks")
    assert table.view.items[5:8] == ("Net: VP even", "Victory", "Victory points")
    table.choose("German VP")
    table.press(*["ccw"] * 15, "ok")                          # the 4th Panzer: 15 VP
    assert table.view.items[3] == "German VP -15"
    assert table.view.items[5] == "Net: Allies +15 VP"
    assert saved(table)["cobra"]["tracks"]["german_vp"] == -15
    table.close()
    again = table_at([], state_dir=state)
    again.choose("Resume Cobra")
    again.choose("Tracks")
    again.choose("Net: Allies")
    again.choose("yes")                                       # the German front holds
    assert again.view.word == "DRAW"                          # Marginal German, 1 level
    assert again.view.detail == "VP -15 : 0"


def resumed_on_turn_16(table_at, tmp_path, step: int):
    """A Cobra game resumed at `step` of game turn 16 (clear), with the owner's tables and a
    die of 4 scripted."""
    state = tmp_path / "state"
    game = at_weather(16, [C])
    seed_game(state, CobraGame(game.scenario, 16, step, (C, C), game.tracks, game.last))
    table = table_at([4], state_dir=state, config=owners_tables(tmp_path / "cards"))
    table.choose("Resume Cobra")
    return table


def test_an_overrun_in_the_initial_movement_phase(table_at, tmp_path):
    # 5.4 "Overruns ... may occur during the Initial Movement Phase"; 5.4.1a printed strength,
    # not doubled; 11.0a "SP are never expended for overruns"; 14.2c no air points
    table = resumed_on_turn_16(table_at, tmp_path, 7)
    assert table.view.header.title == "3/6 Movement"
    assert table.view.items[:3] == ("Movement allowance", "Overrun", "Next phase")
    table.choose("Overrun")
    table.choose("+ Add a unit")
    table.press(*["cw"] * 4, "ok")                          # strength 8
    assert "- ×2 division" not in table.view.items           # printed strength (5.4.1a)
    assert "- ½ out of supply" not in table.view.items       # must be in supply (5.4e)
    assert "- ½ marsh" in table.view.items                   # into marsh: half (5.4.1b)
    table.choose("Keep")
    table.choose("Done")
    table.choose("+ Add a unit")
    table.press("ok")                                        # defender 4
    table.choose("- ×2 division")                            # doubled defending (6.3e)
    table.choose("Keep")
    table.choose("Done")
    assert not any(item.startswith("Air") for item in table.view.items)      # 14.2c
    assert "Naval +0" in table.view.items and "Patton +0" in table.view.items  # 5.4.1c
    assert "- Carpet bombing" not in table.view.items
    table.choose("Roll!")                                    # no supply asked: 11.0a
    assert table.view.lines[:3] == ("Overrun: moving", "8 : 8 = 1:1", "+0 → 1:1")
    table.press("allies")
    assert table.view.word == "1:1 · 4"
    table.press("ok")
    assert table.view.lines[-1].startswith("Overrun: a loss or a retreat for the overrunning")
    state_now = saved(table)
    assert state_now["cobra"]["tracks"] == {"us": 3, "british": 4, "german": 4,
                                            "german_vp": 0, "allied_vp": 0}   # nothing spent
    assert english(loaded(state_now["log"][-1])) == \
        "GT16 allied overrun (movement) 8:8 → 1:1 +0 → 1:1, die 4: read your CRT"


def test_an_overrun_advancing_after_combat_takes_terrain_only(table_at, tmp_path):
    # 5.4b an overrun when advancing after combat; 5.4.1d "only affected by terrain and supply
    # conditions. HQ and air or naval shifts may not be used"
    table = resumed_on_turn_16(table_at, tmp_path, 3)
    assert table.view.items[:3] == ("Attack", "Overrun", "Next phase")
    table.choose("Overrun")
    table.choose("+ Add a unit")
    table.press(*["cw"] * 8, "ok", "ok")                    # 12
    table.choose("Done")
    table.choose("+ Add a unit")
    table.press("ccw", "ok", "ok")                           # 3
    table.choose("Done")
    assert table.view.items == ("Roll!", "Terrain +0", "Tigers +0")
    table.choose("Terrain")                                  # -1
    table.choose("Terrain")                                  # -2
    table.choose("Roll!")
    assert table.view.lines[:3] == ("Overrun: advancing", "12 : 3 = 4:1", "-2 → 2:1")
    table.press("axis")
    assert table.view.word == "1/2"                          # the owner's 2:1, die 4
    table.press("ok")
    assert any(line.startswith("Overrun: a split result halts it") for line in
               table.view.lines)                             # 5.4.3a
    assert english(loaded(saved(table)["log"][-1])) == \
        "GT16 german overrun (advance) 12:3 → 4:1 -2 → 2:1, die 4: 1/2"
    assert saved(table)["cobra"]["tracks"]["german"] == 4    # no supply points (11.0a)


def test_no_overrun_is_offered_on_game_turn_1(table_at, tmp_path):
    # 17.3.3c "Neither player may conduct overruns on GT 1"
    state = tmp_path / "state"
    start = CobraGame.start("campaign")
    seed_game(state, CobraGame(start.scenario, 1, 3, (C,), start.tracks, start.last))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    # after Next phase, GT 1's reminders (17.3.3d, 13.2e: tests/device/games/
    # test_cobra_bookkeeping_box.py), and no Overrun
    assert table.view.items[:5] == ("Movement allowance", "Next phase", "Who may move",
                                    "Road: in column", "Tracks")
    table.choose("Next phase")
    assert table.view.items[:2] == ("Attack", "Next phase")


def budget_rows(table) -> tuple[str, ...]:
    return tuple(i for i in table.view.items if i.startswith(("Air:", "Naval:", "Carpet:")))


def test_the_tracks_show_the_turns_air_naval_and_carpet_budgets(table_at, tmp_path):
    """14.1a: "Up to one half of the available Allied AP may be used as defensive support
    during the German Combat Phase ... AP used in this manner are expended and may not be used
    during the Allied Combat Phase"; 14.4: GT 11-27 two NSP; 14.3f: two carpet missions from
    GT 15. The tracks show what is left; the shift menu shows it on the air and naval shifts;
    a pulled plug keeps it."""
    state = tmp_path / "state"
    seed_game(state, at_combat(16, [C, C], 3))                # the German Combat Phase
    table = table_at([4], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Tracks")
    assert budget_rows(table) == ("Air: 3 of 3 AP", "Naval: 2 of 2", "Carpet: 2 of 2")
    table.choose("Air:")
    assert table.view.lines == ("Game turn 16: 6 AP (14.0)",
                                "German combat: at most 3, on defence (14.1a)",
                                "Spent 0, left 3",
                                "Unused points are lost at the end of the turn (14.1b, 14.4)")
    table.press("ok")
    table.press("back")
    dial_attack(table, "Air")                                 # the Allies' air, on defence
    table.choose("Pay 2 SP (of 4)")
    table.press("axis", "ok", "ok")
    table.choose("Tracks")
    assert budget_rows(table) == ("Air: 2 of 3 AP", "Naval: 2 of 2", "Carpet: 2 of 2")
    table.press("back")
    table.choose("Next phase")                                # German mechanized movement
    table.choose("Next phase")                                # the Allied supply
    table.choose("Supply points")
    table.press("ok", "ok", "ok", "ok", "ok")                 # none printed, no levels
    for _ in range(2):                                        # to the Allied Combat Phase
        table.choose("Next phase")
    assert table.view.header.title == "4/6 Combat"
    dial_one_against_one(table, "Air")
    assert table.view.hint == "Left: 5 AP, 2 NSP"             # 6 less the one on defence
    table.press("ccw")
    assert table.view.hint == "OK = choose"
    restarted = table_at([], state_dir=state)
    restarted.choose("Resume Cobra")
    restarted.choose("Tracks")
    assert budget_rows(restarted) == ("Air: 5 of 6 AP", "Naval: 2 of 2", "Carpet: 2 of 2")


def test_no_supply_dials_on_game_turns_1_and_2_of_the_landing(table_at, tmp_path):
    """17.3: no Allied supply points on game turns 1 and 2; 17.3e: no command limits then:
    the Allied Supply Phase has nothing to dial, its notice comes at once."""
    state = tmp_path / "state"
    game = CobraGame.start("campaign")
    step = next(i for i, p in enumerate(sequence("campaign", 2)) if p.name == "supply")
    seed_game(state, CobraGame(game.scenario, 2, step, (C, Weather.OVERCAST), game.tracks,
                               game.last))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Supply points")
    assert table.view.lines[0] == "US +0, British +0: no Allied supply points on game turns " \
        "1 and 2 (17.3)"
    table.press("ok")
    assert table.view.header.title == "2/6 Refit"


def test_the_owners_tables_are_cobras_read_once_for_each_app_and_the_core_names_no_game(
        table_at, tmp_path):
    """Cobra keeps the owner's tables itself (games/cobra/session.py), read once for each app:
    the app, which is the core's, neither holds them nor imports a type of Cobra's rules."""
    state = tmp_path / "state"
    seed_game(state, at_combat(16, [C, C], 8))
    table = table_at([3], state_dir=state, config=owners_tables(tmp_path / "cards"))
    table.choose("Resume Cobra")
    app = table.box.app
    read = tables(app)
    assert read.crt["2:1"][3] == "1/2"                       # the owner's, not the shipped
    assert tables(app) is read and tables_read(app) is read
    other = table_at([3], state_dir=tmp_path / "other").box.app
    assert tables_read(other) is None and tables(other).crt["2:1"][3] != "1/2"
    assert not any("cobra" in name.lower() for name in vars(app))
    tree = ast.parse(Path(app_module.__file__).read_text(encoding="utf-8"))
    imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert not [name for name in imported if "cobra" in name], imported


def test_14_4d_the_naval_row_steps_through_near_and_far_and_charges_two_a_far_column(
        table_at, tmp_path):
    """14.4c: "within three hexes ... each NSP assigned enables a one column shift"; 14.4d:
    "within four to six hexes ... two NSP are required to enable a one column shift"; 14.4b:
    "A maximum of two NSP may be committed to one attack". GT 16 has two NSP (14.4). The row
    steps +0, +1, +2, +1 far and +0 again, one press each, with no screen between."""
    state = tmp_path / "state"
    seed_game(state, at_combat(16, [C, C], 8))
    table = table_at([4], state_dir=state)
    table.choose("Resume Cobra")
    dial_one_against_one(table)
    assert table.view.header.title == "Shifts"
    pressed = []
    for row in ("Naval +0", "Naval +1", "Naval +2"):
        table.choose(row)
        assert table.view.header.title == "Shifts"
        pressed.append(table.view.items[table.view.index])
    assert pressed == ["Naval +1", "Naval +2", "Naval +1 far"]
    assert table.view.hint == "4 to 6 hexes: 2 points a column"
    table.choose("Naval +1 far")                   # +2 far would be four NSP: back to none
    assert table.view.items[table.view.index] == "Naval +0"
    assert table.view.hint == "Left: 6 AP, 2 NSP"
    for row in ("Naval +0", "Naval +1", "Naval +2"):
        table.choose(row)
    table.choose("Roll!")
    table.choose("US: pay 1 SP (of 3)")
    table.press("allies", "ok", "ok")
    assert saved(table)["cobra"]["naval_used"] == 2
    assert english(loaded(saved(table)["log"][-1])).endswith("; 0 AP, 2 naval")
    dial_one_against_one(table, "Naval +0")
    assert table.view.header.title == "Not possible"
    assert table.view.lines == ("0 naval support points left this game turn, this needs 1 "
                                "(14.4)",)


def test_14_4_what_the_turn_cannot_pay_is_refused_and_the_row_goes_back_to_none(
        table_at, tmp_path):
    """14.4 "They must be used on the game turn they are received": with one NSP left, +1 is
    given; +2 (and +1 far, two points too) is refused with the points left, and the row goes
    back to +0, never stuck on a value it cannot leave."""
    state = tmp_path / "state"
    seed_game(state, replace(at_combat(16, [C, C], 8), naval_used=1))
    table = table_at([4], state_dir=state)
    table.choose("Resume Cobra")
    dial_one_against_one(table, "Naval +0", "Naval +1")
    assert table.view.header.title == "Not possible"
    assert table.view.lines == ("1 naval support points left this game turn, this needs 2 "
                                "(14.4)",)
    table.press("ok")
    assert table.view.items[table.view.index] == "Naval +0"


def test_14_4_in_storms_naval_takes_plus_1_at_most(table_at, tmp_path):
    """14.4 "During storms weather conditions no more than one NSP may be used": +1 within
    three hexes, then +2 refused (a far target, two points a column, gets none): in Polish."""
    state = tmp_path / "state"
    seed_game(state, at_combat(16, [S, S], 8))
    table = table_at([4], state_dir=state, config=Config(game=Game(language="pl")))
    table.choose("Wznów Cobrę")
    table.choose("Atak")
    for _ in range(2):
        table.choose("+ Dodaj oddział")
        table.press("ok", "ok")
        table.choose("Gotowe")
    table.choose("Marynarka +0")
    assert table.view.items[table.view.index] == "Marynarka +1"
    table.choose("Marynarka +1")
    assert table.view.lines == ("w czasie burz najwyżej jeden punkt marynarki: najwyżej +1 "
                                "(14.4)",)
    table.press("ok")
    assert table.view.items[table.view.index] == "Marynarka +0"


def test_17_3_6d_no_out_of_supply_toggle_on_game_turns_1_and_2(table_at, tmp_path):
    """17.3.6d: "All Allied units are considered in supply throughout GTs 1 and 2"; 17.3.6:
    "All German units are automatically in supply during those game turns"."""
    state = tmp_path / "state"
    seed_game(state, at_combat(2, [C, OV], 8, "buildup"))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Attack")
    table.choose("+ Add a unit")
    table.press("ok")
    assert "- ×2 division" in table.view.items
    assert "- ½ out of supply" not in table.view.items
    seed_game(tmp_path / "later", at_combat(3, [C, OV, C], 8, "buildup"))
    later = table_at([], state_dir=tmp_path / "later")
    later.choose("Resume Cobra")
    later.choose("Attack")
    later.choose("+ Add a unit")
    later.press("ok")
    assert "- ½ out of supply" in later.view.items
