"""The Tank Game as a game of the box (core/games.py): its battles start from the home menu's
New battle (the roster, at the settings' level), its matches from New match."""
from __future__ import annotations

from typing import Any

from cobi_companion.cards import CardBook
from cobi_companion.device.core.app import App, Played, Screen
from cobi_companion.device.core.games import Game, MenuRows, Row
from cobi_companion.device.games import battle_rows


def _type() -> type:
    from cobi_companion.device.core.battle_state import TankBattle

    return TankBattle


def _resume(data: dict[str, Any], book: CardBook) -> Played:
    from cobi_companion.device.core.battle_state import TankBattle

    return TankBattle.from_dict(data, book)


def _play(app: App) -> Screen:
    from cobi_companion.device.games.tank.rounds import play

    return play(app)


def _new_match(app: App) -> Screen:
    """A match's roster starts with the config's house rules, as a battle's does."""
    from cobi_companion.device.games.roster import Roster, configured_house

    return Roster("tank", match=True, house=configured_house(app))


def _home_rows(app: App) -> list[Row]:
    return [Row("new_match", lambda: _new_match(app), ask="new_match_ask")]


def _match_next(app: App) -> Screen:
    from cobi_companion.device.games.battle import match_next

    return match_next(app)


def _resume_row(app: App) -> Row | None:
    """A battle of a match that is won goes on with the match."""
    from cobi_companion.device.games.battle import tank_battle

    matched = app.state is not None and tank_battle(app).match is not None
    return battle_rows.resume_row(
        app, [Row("resume_match", lambda: _match_next(app))] if matched else [])


def _menu_rows(app: App, back: Screen) -> MenuRows:
    """A Tank Game battle's rows on the menu of a long press: while a side is active and
    nobody has won, the hidden pieces and giving up too."""
    from cobi_companion.device.games.battle import give_up, hidden_pieces, tank_battle

    state = tank_battle(app)
    last = []
    if state.winner is None and state.active is not None:
        last += [Row("hidden_pieces", lambda: hidden_pieces(app, back)),
                 Row("give_up", lambda: give_up(app, back))]
    ask = "end_match_ask" if state.match is not None else "end_battle_ask"
    return MenuRows(battle_rows.first_rows(app, back), [*last, battle_rows.end_row(app, ask)])


TANK = Game(id="tank", title="tank", state_type=_type, resume=_resume, play=_play,
            home_rows=_home_rows, resume_row=_resume_row, menu_rows=_menu_rows,
            warm_up=("device.games.tank.learn", "rules.tank.overrun",
                     "rules.tank.choices", "device.games.tank.fire", "device.games.tank.overrun",
                     "device.games.tank.squad", "device.games.tank.turn",
                     "device.games.tank.rounds"),
            commands=("reload", "overrun", "spot"))
