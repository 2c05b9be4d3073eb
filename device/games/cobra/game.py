"""Cobra as a game of the box (core/games.py): started from the home menu's Cobra row, saved in
the one game slot. Its screens (the rest of games/cobra/) load when first needed."""
from __future__ import annotations

from typing import Any

from cobi_companion.cards import CardBook
from cobi_companion.device.core.app import App, Played, Screen
from cobi_companion.device.core.games import Game, Row


def _type() -> type:
    from cobi_companion.device.games.cobra.session import CobraSession

    return CobraSession


def _resume(data: dict[str, Any], book: CardBook) -> Played:
    from cobi_companion.device.games.cobra.session import CobraSession

    return CobraSession.from_dict(data)


def _play(app: App) -> Screen:
    from cobi_companion.device.games.cobra.hub import hub

    return hub(app)


def _new_game(app: App) -> Screen:
    from cobi_companion.device.games.cobra.hub import new_game

    return new_game(app, lambda: app.games.start(app))


def _home_rows(app: App) -> list[Row]:
    return [Row("cobra", lambda: _new_game(app), ask="new_cobra_ask")]


def _resume_row(app: App) -> Row | None:
    from cobi_companion.device.games.cobra.session import CobraSession

    game = app.game
    if isinstance(game, CobraSession) and not game.game.over:
        return Row("resume_cobra", lambda: _play(app))
    return None


COBRA = Game(id="cobra", title="cobra", state_type=_type, resume=_resume, play=_play,
             home_rows=_home_rows, resume_row=_resume_row,
             warm_up=("rules.cobra.refusals", "rules.cobra.tables", "rules.cobra.supply",
                      "rules.cobra.movement",
                      "rules.cobra.weather",
                      "rules.cobra.naval", "rules.cobra.combat", "rules.cobra.exits",
                      "rules.cobra.command",
                      "rules.cobra.scoresheet", "rules.cobra.replacement_step",
                      "rules.cobra.replacements", "rules.cobra.landing", "rules.cobra.campaign",
                      "rules.cobra.turns",
                      "rules.cobra.overrun", "device.games.cobra.session",
                      "device.games.cobra.dialled", "device.games.cobra.command",
                      "device.games.cobra.naval", "rules.cobra.bookkeeping",
                      "device.games.cobra.attacks", "device.games.cobra.weather",
                      "device.games.cobra.supply", "device.games.cobra.movement",
                      "device.games.cobra.replacements", "rules.cobra.victory_points",
                      "rules.cobra.special_rolls", "device.games.cobra.victory",
                      "device.games.cobra.landing", "device.games.cobra.bookkeeping",
                      "device.games.cobra.hub"),
             commands=("cobra",))
