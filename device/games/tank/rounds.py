"""How a Tank Game battle goes on: a new battle's attacker roll-off (the defender moves first
every turn), a new round's first turn, or the active side's turn."""
from __future__ import annotations

from cobi_companion.device.core.app import App, Screen
from cobi_companion.device.core.battle_log import entry
from cobi_companion.device.core.spoken import outcome
from cobi_companion.device.games.battle import RollOff, tank_battle
from cobi_companion.device.games.tank.turn import turn_screen
from cobi_companion.device.ui.widgets import notice
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank import turns


def play(app: App) -> Screen:
    """The screen the battle in play goes on with."""
    state = tank_battle(app)
    if state.active is not None:
        return turn_screen(app)
    if state.defender is None:
        def tank_start(attacker: Side) -> Screen:
            state.defender = attacker.enemy
            state.begin_round(state.defender)
            state.turn = turns.first_turn(state.defender)
            app.commit(entry("log_attacks", attacker=attacker.value,
                             defender=state.defender.value))
            return notice(app, app.t("initiative"),
                          [app.t("defender_first", side=app.side_word(state.defender))],
                          lambda: turn_screen(app))
        return RollOff(app.t("attacker_roll"), tank_start, says=lambda attacker: outcome(
            "say_attacks_first", attacker=attacker.value,
            defender=attacker.enemy.value)).taken(app)
    state.begin_round(state.defender)
    if state.turn is None or state.turn.side is not state.defender:
        state.turn = turns.Turn(2 * state.round - 1, state.defender)
    return turn_screen(app)
