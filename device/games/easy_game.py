"""The Easy level as a game of the box (core/games.py). Its battles start from the home menu's
New battle (the roster, at the settings' level)."""
from __future__ import annotations

from typing import Any

from cobi_companion.cards import CardBook
from cobi_companion.device.core.app import App, Played, Screen
from cobi_companion.device.core.games import Game
from cobi_companion.device.games import battle_rows


def _type() -> type:
    from cobi_companion.device.core.battle_state import EasyBattle

    return EasyBattle


def _resume(data: dict[str, Any], book: CardBook) -> Played:
    from cobi_companion.device.core.battle_state import EasyBattle

    return EasyBattle.from_dict(data, book)


def _play(app: App) -> Screen:
    from cobi_companion.device.games.easy import play

    return play(app)


EASY = Game(id="easy", title="easy", state_type=_type, resume=_resume, play=_play,
            resume_row=battle_rows.resume_row, menu_rows=battle_rows.menu_rows,
            warm_up=("device.games.easy",), commands=("initiative",))
