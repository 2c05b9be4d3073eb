"""The rows a COBI battle of either level (Easy, Tank Game) has on the home menu and on the menu
of a long press. Loaded with the home menu: the screens behind the rows load when chosen."""
from __future__ import annotations

from collections.abc import Sequence

from cobi_companion.device.core.app import App, Screen
from cobi_companion.device.core.games import MenuRows, Row


def resume_row(app: App, after_win: Sequence[Row] = ()) -> Row | None:
    """Resume a battle not won yet; else `after_win` (a match's next battle); else, for a
    battle won by an action whose outcome a pulled plug may have hidden, that outcome and
    then the end."""
    state = app.state
    if state is None:
        return None
    if state.winner is None:
        return Row("resume", lambda: app.games.play(app))
    if after_win:
        return after_win[0]
    if app.shown_again:
        winner = state.winner

        def won() -> Screen:
            from cobi_companion.device.games.battle import game_over

            return game_over(app, winner, said=False)    # heard as it was won
        return Row("resume", won)
    return None


def first_rows(app: App, back: Screen) -> list[Row]:
    """The battle's own rows before the box's: the status board and the log."""
    from cobi_companion.device.games.menus import battle_log, status_board

    return [Row("status_board", lambda: status_board(app, back)),
            Row("battle_log", lambda: battle_log(app, back))]


def end_row(app: App, ask: str = "end_battle_ask") -> Row:
    """End battle, which ends it: asked first."""
    def end() -> Screen:
        from cobi_companion.device.games.battle import end_battle

        return end_battle(app)
    return Row("end_battle", end, ask=ask)


def menu_rows(app: App, back: Screen) -> MenuRows:
    """An Easy level battle's rows on the menu of a long press."""
    return MenuRows(first_rows(app, back), [end_row(app)])
