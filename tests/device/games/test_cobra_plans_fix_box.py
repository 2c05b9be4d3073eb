"""Cobra on the box, the review's fixes: a planned carpet bombing first and before any other
attack (14.3, 14.3d), asked before Next phase leaves it; the beach shift marker on a moving
overrun from its hex (17.3.2 step 5f, 5.4f); *All beaches lost* a row of every Allied phase of
the landing scenarios, the question at the turn's start only where the landing abandoned a
beach (17.3.13, 17.4.3). Real app, store, screens and inputs, scripted dice."""
from __future__ import annotations

from dataclasses import replace

from cobi_companion.device.core.views import BigWord
from cobi_companion.rules.cobra.combat import Nation
from cobi_companion.rules.cobra.landing import Landing, Marker, Target
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.cobra.turns import CobraGame, sequence

from .test_cobra_box import at_combat, dial_attack, saved, seed_game
from .test_cobra_plans_box import at_german_mechanized

C = Weather.CLEAR


def due(turn: int = 16) -> CobraGame:
    return replace(at_combat(turn, [C] * (turn - 14), 8), carpet_plan=turn)


def test_a_due_carpet_bombing_is_first_and_lit_none_planned_shows_no_row(table_at, tmp_path):
    """14.3d: "At the beginning of the immediately following Allied Combat Phase, prior to
    conducting any other attacks, the Allied player cancels or conducts the carpet bombing";
    a turn with none planned offers none (it would only be refused, 14.3a)."""
    state = tmp_path / "state"
    seed_game(state, due())
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    assert table.view.items[0] == "Carpet bombing" and table.view.index == 0
    plain = tmp_path / "plain"
    seed_game(plain, at_combat(16, [C, C], 8))
    other = table_at([], state_dir=plain)
    other.choose("Resume Cobra")
    assert not any(item.startswith("Carpet bombing") for item in other.view.items)
    assert other.view.items[0] == "Attack"


def test_after_an_attack_the_due_plan_can_only_be_cancelled(table_at, tmp_path):
    state = tmp_path / "state"
    seed_game(state, due())
    table = table_at([4], state_dir=state)
    table.choose("Resume Cobra")
    dial_attack(table)
    table.choose("No supply")
    table.press("allies")                                   # the attack rolled
    for _ in range(6):                                      # the result's steps, then home
        if table.view.header.title.endswith("Combat"):
            break
        table.press("ok")
    assert saved(table)["cobra"]["attacked"] == 16
    table.choose("Carpet bombing")
    assert table.view.header.title == "Not possible"
    assert "can only be cancelled" in " ".join(table.view.lines)
    table.press("ok")
    table.choose("Cancel carpet bombing")
    table.choose("yes")
    assert saved(table)["cobra"]["carpet_cancelled"] == 16


def test_next_phase_asks_before_a_due_plan_is_dropped(table_at, tmp_path):
    """Nothing discards play without a question: Next phase with the plan neither flown nor
    cancelled asks to cancel it; no stays, yes cancels it and goes on (14.3c)."""
    state = tmp_path / "state"
    seed_game(state, due())
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Next phase")
    assert table.view.header.title == "Cancel the bombing?"
    assert table.view.items == ("no", "yes") and table.view.index == 0
    assert table.view.hint == "no: stay in this phase"
    table.choose("no")
    assert table.view.header.title == "4/6 Combat" and saved(table)["cobra"]["carpet_plan"] == 16
    table.choose("Next phase")
    table.choose("yes")
    assert table.view.header.title.endswith("Mech move") or "5/6" in table.view.header.title
    assert (saved(table)["cobra"]["carpet_plan"], saved(table)["cobra"]["carpet_cancelled"]) \
        == (None, 16)
    plain = tmp_path / "plain"
    seed_game(plain, at_combat(16, [C, C], 8))
    other = table_at([], state_dir=plain)
    other.choose("Resume Cobra")
    other.choose("Next phase")                              # no plan: no question
    assert "5/6" in other.view.header.title
    german = tmp_path / "german"
    seed_game(german, replace(at_combat(16, [C, C], 3), carpet_plan=16))
    before = table_at([], state_dir=german)
    before.choose("Resume Cobra")
    before.choose("Next phase")                             # the German Combat Phase: none
    assert before.view.header.title.endswith("Mech move") or "5/5" in before.view.header.title


def test_a_moving_overrun_from_a_marked_hex_offers_its_marker(table_at, tmp_path):
    """17.3.2 step 5f1 "All Allied attacks originating from that hex", 5.4f "conduct an overrun
    from a hex": the Initial Movement Phase's overrun offers *Marker*; advancing, never."""
    game = CobraGame.start("campaign")
    step = next(i for i, p in enumerate(sequence("campaign", 3))
                if p.name == "initial_movement" and p.player is Nation.ALLIED)
    state = tmp_path / "state"
    seed_game(state, replace(CobraGame(game.scenario, 3, step, (C, C, C), game.tracks,
                                       game.last),
                             landing=Landing(markers=(Marker(Target.JUNO, 2),))))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Overrun")
    table.choose("+ Add a unit")
    table.press("cw", "ok", "ok")
    table.choose("Done")
    table.choose("+ Add a unit")
    table.press("ccw", "ccw", "ok", "ok")
    table.choose("Done")
    assert "Marker +0" in table.view.items


def at_allied_phase(key: str, name: str, landing: Landing | None = None) -> CobraGame:
    game = CobraGame.start(key)
    step = next(i for i, p in enumerate(sequence(key, 3))
                if p.name == name and p.player is Nation.ALLIED)
    return replace(CobraGame(game.scenario, 3, step, (C, C, C), game.tracks, game.last),
                   landing=landing or Landing())


def test_all_beaches_lost_is_a_row_of_the_allied_phases_asked_first(table_at, tmp_path):
    """17.3.13: "The game ends and the German player wins an automatic decisive victory if, at
    the beginning of an Allied player turn, there are no beach hexes friendly to the Allied
    player": the players tell it by a row below Next phase, asked, *no* lit."""
    state = tmp_path / "state"
    seed_game(state, at_allied_phase("campaign", "combat"))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    items = table.view.items
    assert items.index("All beaches lost") > items.index("Next phase")
    table.choose("All beaches lost")
    assert table.view.header.title == "All beaches lost?" and table.view.index == 0
    assert table.view.hint == "no: play on"
    table.choose("no")
    assert not saved(table)["cobra"]["over"]
    table.choose("All beaches lost")
    table.choose("yes")
    view = table.view
    assert isinstance(view, BigWord) and view.word == "GERMANS: DECISIVE"
    assert saved(table)["cobra"]["automatic"]
    cobra = tmp_path / "cobra"
    seed_game(cobra, at_combat(16, [C, C], 8))
    other = table_at([], state_dir=cobra)
    other.choose("Resume Cobra")
    assert "All beaches lost" not in other.view.items     # no beaches in Cobra


def test_the_turn_start_asks_only_where_the_landing_abandoned_a_beach(table_at, tmp_path):
    """The question at the Allied turn's start only where the box knows a beach was abandoned
    (17.3.2 step 5c: "The abandoned beach is now friendly to the German player")."""
    state = tmp_path / "state"
    seed_game(state, at_german_mechanized("campaign"))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Next phase")
    assert table.view.header.title.endswith("Supply")        # no question
    lost = tmp_path / "lost"
    seed_game(lost, replace(at_german_mechanized("buildup"),
                            landing=Landing(abandoned=(Target.OMAHA,))))
    asked = table_at([], state_dir=lost)
    asked.choose("Resume Cobra")
    asked.choose("Next phase")
    assert asked.view.header.title == "All beaches lost?" and asked.view.index == 0
    asked.choose("no")
    assert asked.view.header.title.endswith("Supply")

