"""Cobra's Allied Supply Phase on the box: the supply points printed on the turn record track,
then the command levels (11.3), dialled with the knob; none on game turns 1 and 2 of the
landing scenarios (17.3, 17.3e)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import entry
from cobi_companion.device.games.cobra import command
from cobi_companion.device.games.cobra.session import number, save, session
from cobi_companion.device.ui.widgets import notice
from cobi_companion.rules.cobra.turns import CobraGame

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

SP_MAX = 20                 # Allied supply points the knob dials for one turn


def allied_supply(app: App, home: Next) -> Screen:
    def received(us: int, british: int, levelled: CobraGame) -> Screen:
        s = session(app)
        game, note = levelled.receive_allied(us, british)
        s.game = game.advance()      # saved past the phase: a resumed game receives no more
        save(app, entry("log_allied_supply", note=note))
        t = s.game.tracks
        lines = [app.say(note), app.t("sp_now", us=t.us, british=t.british)]
        if command.limited(s.game):
            us_level, british_level = s.game.command.levels
            lines.append(app.t("levels_now", us=us_level, british=british_level))
        return notice(app, app.t("phase_supply"), lines, home)
    # Game turns 1 and 2 of the landing scenarios bring no Allied supply points (17.3) and
    # have no command limits (17.3e): nothing to dial, the phase's notice at once.
    if session(app).game.allied_supply_free:
        return received(0, 0, session(app).game)
    # the supply points printed on the turn record track, then the command levels (11.3)
    return number(app, app.t("printed_us"), 0, lambda us: number(
        app, app.t("printed_british"), 0, lambda british: command.dial_levels(
            app, home, lambda levelled: received(us, british, levelled)), home, high=SP_MAX),
        home, high=SP_MAX)
