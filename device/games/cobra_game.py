"""Cobra as a game of the box (core/games.py): started from the home menu's Cobra row, saved in
the one game slot. Its screens (games/cobra*.py) load when first needed."""
from __future__ import annotations

from typing import Any

from cobi_companion.cards import CardBook
from cobi_companion.device.core.app import App, Played, Screen
from cobi_companion.device.core.games import Game, Row


def _type() -> type:
    from cobi_companion.device.games.cobra import CobraSession

    return CobraSession


def _resume(data: dict[str, Any], book: CardBook) -> Played:
    from cobi_companion.device.games.cobra import CobraSession

    return CobraSession.from_dict(data)


def _play(app: App) -> Screen:
    # through the module that puts every part on the hub
    from cobi_companion.device.games import cobra_parts

    return cobra_parts.hub(app)


def _new_game(app: App) -> Screen:
    from cobi_companion.device.games import cobra_parts

    return cobra_parts.new_game(app, lambda: app.games.start(app))


def _home_rows(app: App) -> list[Row]:
    return [Row("cobra", lambda: _new_game(app), ask="new_cobra_ask")]


def _resume_row(app: App) -> Row | None:
    from cobi_companion.device.games.cobra import CobraSession

    game = app.game
    if isinstance(game, CobraSession) and not game.game.over:
        return Row("resume_cobra", lambda: _play(app))
    return None


COBRA = Game(id="cobra", title="cobra", state_type=_type, resume=_resume, play=_play,
             home_rows=_home_rows, resume_row=_resume_row,
             warm_up=("rules.cobra.tables", "rules.cobra.movement", "rules.cobra.weather",
                      "rules.cobra.combat", "rules.cobra.exits", "rules.cobra.command",
                      "rules.cobra.scoresheet", "rules.cobra.replacements",
                      "rules.cobra.landing", "rules.cobra.turns", "rules.cobra.overrun",
                      "device.games.cobra_command", "device.games.cobra",
                      "device.games.cobra_movement", "device.games.cobra_replacements",
                      "rules.cobra.victory_points", "rules.cobra.special_rolls",
                      "device.games.cobra_victory", "device.games.cobra_landing",
                      "device.games.cobra_parts"),
             commands=("cobra",))
