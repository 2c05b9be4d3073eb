"""Cobra's HQs and the Allied command limits on the box (8.3.3, 9.1, 11.3): the command levels
dialled in the Allied Supply Phase, each Allied attack counted and the one beyond the limit
refused, the HQ of a shift asked (an inactive one refused), the HQs flipped on their screen,
and all of it surviving a pulled plug. Real app, store, screens and inputs."""
from __future__ import annotations

from dataclasses import replace

from cobi_companion.device.core.views import BigWord, Lines
from cobi_companion.rules.cobra.command import Command, HQEvent, hq
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.cobra.turns import CobraGame

from tests.device.games.test_cobra_box import at_weather, dial_attack, saved, seed_game

C = Weather.CLEAR


def at_step(turn: int, step: int, command: Command | None = None) -> CobraGame:
    game = at_weather(turn, [C] * (turn - 14))
    return replace(game, step=step, command=command or Command())


def test_11_3_the_levels_are_dialled_with_the_supply_and_shown_on_the_tracks(table_at,
                                                                           tmp_path):
    """11.3: the command levels are on the turn record track with the supply points (11.1a):
    dialled in the Allied Supply Phase, the knob starting at last turn's."""
    state = tmp_path / "state"
    seed_game(state, at_step(16, 5, Command(levels=(3, 2))))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.press("ok", "ok", "ok")                   # Supply points: US 0, British 0
    assert table.view.header.title == "US command level" and table.view.word == "3"
    table.press("cw", "ok", "ok")                   # US 4, British 2
    assert isinstance(table.view, Lines)
    assert table.view.lines[-1] == "Command: US 4 · British 2"
    assert saved(table)["cobra"]["command"]["levels"] == [4, 2]
    table.press("ok")
    table.choose("Tracks")
    assert "US attacks 0/4" in table.view.items and "British overruns 0/2" in table.view.items


def test_11_3_the_attack_beyond_the_limit_is_refused(table_at, tmp_path):
    """11.3 "Each game turn the Allied player may not conduct more attacks ... than are
    allowed by the command limits": the US track paid tells whose attack it is (11.2)."""
    state = tmp_path / "state"
    seed_game(state, at_step(16, 8, Command().with_levels(16, 1, 3)))
    table = table_at([4, 4], state_dir=state)
    table.choose("Resume Cobra")
    dial_attack(table)
    table.choose("US: pay")
    table.press("allies")
    assert saved(table)["cobra"]["command"]["made"][0] == [1, 0]
    while getattr(table.view, "items", ("",))[0] != "Attack":
        table.press("ok")                               # the result, its reading
    dial_attack(table)
    table.choose("US: pay")
    assert table.view.header.title == "Not possible"
    assert table.view.lines[0].startswith("US attacks: 1 of 1 made this game turn")
    assert "A level dialled wrong: Tracks, its attacks row" in table.view.lines   # 11.3
    table.press("ok")
    assert table.view.header.title == "Supply"           # back to the choice
    table.choose("No supply")                           # 11.3b: unsupplied counts too
    assert table.view.header.title == "Whose units?"
    table.choose("British")
    table.press("allies")
    assert saved(table)["cobra"]["command"]["made"][1] == [1, 0]


def test_9_1i_an_inactive_hq_is_refused_and_the_used_one_flips(table_at, tmp_path):
    """9.1i "Inactive HQs may not contribute shifts to a combat": refused, back to the HQ
    choice; the HQ that gave the shift is flipped when the die is rolled (8.3.3 Important),
    and a restart keeps it so."""
    state = tmp_path / "state"
    moved, _ = Command().flip(hq("VII"), HQEvent.MOVED, 15, 9)
    seed_game(state, at_step(16, 8, moved))
    table = table_at([4], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Attack")
    table.choose("+ Add a unit")
    table.press("ok", "ok")                                  # 4
    table.choose("Done")
    table.choose("+ Add a unit")
    table.press("ok", "ok")
    table.choose("Done")
    table.choose("Attacker HQ")
    assert table.view.header.title == "Which HQ?"
    assert "VII: inactive" in table.view.items and "V: active" in table.view.items
    table.choose("VII")
    assert table.view.lines[0] == "VII is inactive: inactive HQs may not contribute shifts " \
        "to a combat (9.1i)"
    table.press("ok")
    assert table.view.header.title == "Which HQ?"
    table.choose("V:")
    assert "Attacker HQ +1" in table.view.items
    table.choose("Roll!")
    table.choose("US: pay")
    table.press("allies")
    assert saved(table)["cobra"]["command"]["hqs"]["v"]["state"] == "inactive"
    table.close()
    again = table_at([], state_dir=state)
    again.choose("Resume Cobra")
    assert again.steps                       # the last roll's outcome again first
    again.press("ok")
    again.choose("HQs")
    assert "V: inactive" in again.view.items and "VII: inactive" in again.view.items


def test_9_1a_9_1b_moved_and_displaced_on_the_hqs_screen(table_at, tmp_path):
    """9.1a: an HQ moved in its Mechanized Movement Phase is flipped inactive; 9.1b: displaced
    twice in one phase, it is eliminated."""
    state = tmp_path / "state"
    seed_game(state, at_step(16, 9))                        # Allied Mechanized Movement
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("HQs")
    assert table.view.items[0] == "VII: active"              # the phasing player's first
    table.choose("XIX")
    table.choose("Moved")
    assert isinstance(table.view, BigWord) and table.view.word == "INACTIVE"
    table.press("ok")
    table.choose("LXXXIV")
    assert "Moved (mech.)" not in table.view.items          # not the German's phase
    table.choose("Displaced")
    table.press("ok")
    table.choose("LXXXIV")
    table.choose("Displaced")
    assert table.view.word == "ELIMINATED" and table.view.detail == "Displaced (9.1b)"
    status = saved(table)["cobra"]["command"]["hqs"]
    assert status["xix"]["state"] == "inactive" and status["lxxxiv"]["state"] == "eliminated"


def test_8_3_3_the_allied_replacement_phase_flips_them_back(table_at, tmp_path):
    """8.3.3 Important: "During each friendly Replacement Phase, flip the HQ back to its
    active side"."""
    state = tmp_path / "state"
    moved, _ = Command().flip(hq("VII"), HQEvent.MOVED, 16, 9)
    seed_game(state, at_step(16, 5, moved.with_levels(16, 4, 4)))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.press("ok", "ok", "ok", "ok", "ok", "ok")          # the supply, the levels
    assert table.view.header.title == "2/6 Refit"
    assert saved(table)["cobra"]["command"]["hqs"]["vii"]["state"] == "active"
