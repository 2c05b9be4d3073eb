"""Cobra's phase hub offers the rows of its table of parts (games/cobra/hub.py PARTS), and
nothing else: a row added to the table appears on its phases, in its place, for its side and
when its conditions hold, with no edit to hub(). Real app, store and screens on mock pins."""
from __future__ import annotations

import inspect
from typing import Any

import pytest
from cobi_companion.device.core.app import App, Next, Screen
from cobi_companion.device.games.cobra import hub
from cobi_companion.device.games.cobra.session import CobraSession
from cobi_companion.rules.cobra.combat import Nation
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.cobra.turns import ALLIED_PHASES, GERMAN_PHASES, LANDING, CobraGame

LANDING_ROWS = ["Paratroops 1/9", "Beach defence", "Landing attrition", "Beach abandoned?",
                "Next phase", "Tracks"]


def with_row(monkeypatch: pytest.MonkeyPatch, row: hub.Part, before: str = "tracks") -> None:
    """The table with `row` put just before the row whose word is `before`."""
    at = next(i for i, part in enumerate(hub.PARTS) if part.label == before)
    monkeypatch.setattr(hub, "PARTS", (*hub.PARTS[:at], row, *hub.PARTS[at:]))


def test_a_row_added_to_the_table_is_offered_on_its_phases(table_at, monkeypatch):
    opened: list[str] = []

    def extra(app: App, home: Next) -> Screen:
        opened.append(hub.session(app).game.phase.name)
        return home()
    # the Landing Phase and the Supply Phase: phases whose actions the hub once chose itself
    with_row(monkeypatch, hub.Part((LANDING, "supply"), "quick_dice", extra))
    table = table_at([])
    table.choose("Cobra")
    table.choose("Campaign")
    assert table.view.header.title == "Landing"
    assert list(table.view.items) == [*LANDING_ROWS[:-1], "Quick dice", "Tracks"]
    table.choose("Quick dice")
    assert opened == ["landing"]           # its screen, given the way back to the hub
    assert list(table.view.items) == [*LANDING_ROWS[:-1], "Quick dice", "Tracks"]
    table.choose("Next phase")
    table.choose("yes")
    assert table.view.header.title == "1/5 Weather"
    assert "Quick dice" not in table.view.items        # not one of its phases
    at_phase(table, "supply")
    assert hub_items(table) == ["Supply points", "All beaches lost", "Quick dice", "Tracks"]


def at_phase(table: Any, name: str) -> None:
    """The campaign's game turn 1 begun at the phase called `name` (its weather clear)."""
    game = CobraGame.start("campaign")
    while game.phase.name != name:
        if game.phase.name == "weather":
            game, _ = game.with_weather(Weather.CLEAR)
        game = game.advance()
    table.box.app.begin(CobraSession(game))


def hub_items(table: Any) -> list[str]:
    app = table.box.app
    return list(hub.hub(app).view(app).items)


@pytest.mark.parametrize(("side", "when", "offered"), [
    (None, (), True),
    (Nation.ALLIED, (), True),                        # the landing is the Allied side's
    (Nation.GERMAN, (), False),
    (None, (lambda game: game.turn == 1,), True),
    (None, (lambda game: game.turn == 1, lambda game: game.turn > 1), False),
])
def test_a_row_is_offered_for_its_side_when_its_conditions_hold(table_at, monkeypatch, side,
                                                                when, offered):
    with_row(monkeypatch, hub.Part((LANDING,), lambda app: "Extra", lambda app, home: home(),
                                   side=side, when=when), before="beach_defence")
    table = table_at([])
    table.choose("Cobra")
    table.choose("Campaign")
    extra = ["Extra"] if offered else []
    assert hub_items(table) == [LANDING_ROWS[0], *extra, *LANDING_ROWS[1:]]


def test_hub_names_no_phase():
    """The phases' actions are the table's rows: hub() itself names no phase."""
    source = inspect.getsource(hub.hub)
    assert "LANDING" not in source
    assert [name for name in (*GERMAN_PHASES, *ALLIED_PHASES) if f'"{name}"' in source] == []
