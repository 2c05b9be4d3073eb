"""The naval shift in the attack dial (14.4): dialled from none, it asks how far the target
hex is from the sea (within three hexes: one point a column, 14.4c; four to six: two, +1 at
most, 14.4b, 14.4d), and refuses, with the reason, what the game turn cannot pay. The box
does not see the map: the players say the range."""
from __future__ import annotations

from typing import TYPE_CHECKING

from cobi_companion.device.games.cobra.dialled import Dialled
from cobi_companion.device.games.cobra.session import Phased, refusal, session
from cobi_companion.rules.cobra.naval import (
    COST,
    NavalRange,
    check_naval,
    check_naval_left,
    naval_columns,
    naval_cost,
)
from cobi_companion.rules.errors import RulesError

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App, Next, Screen

KEY = "naval"               # the naval shift's key in the attack dial (ShiftChoice.key)
RANGES = (NavalRange.NEAR, NavalRange.FAR)


def step_naval(app: App, attack: Dialled, back: Next) -> Screen:
    """The naval shift's next value: +1 from none asks the range first; then +2 within three
    hexes, and none again (a far target takes +1 at most, 14.4b)."""
    now = attack.shifts.get(KEY, 0)
    if now == 0:
        return ask_range(app, attack, back)
    values = naval_columns(attack.naval_range)
    after = values[(values.index(now) + 1) % len(values)] if now in values else 0
    return give(app, attack, after, attack.naval_range, back)


def ask_range(app: App, attack: Dialled, back: Next) -> Screen:
    """How far is the target hex from the sea? Each answer with what a column costs there."""
    def chosen(i: int) -> Screen:
        return give(app, attack, 1, RANGES[i], back)
    items = [app.t("naval_" + r.value) for r in RANGES]
    hints = [app.t("naval_cost", n=COST[r]) for r in RANGES]
    return Phased(app.t("naval_range"), items, chosen, back=back, hints=hints)


def give(app: App, attack: Dialled, columns: int, at: NavalRange, back: Next) -> Screen:
    """The naval shift set to `columns` at range `at`, or the rules' reason, back to the
    shifts: more than one attack may take (14.4b), than storms allow, than the turn has left
    (14.4)."""
    if columns:
        game = session(app).game
        try:
            check_naval(columns, at, game.turn, game.this_weather)
            check_naval_left(naval_cost(columns, at), game.naval_left)
        except RulesError as exc:
            return refusal(app, exc, back())
    attack.shifts[KEY] = columns
    attack.naval_range = at
    return back()


def naval_label(app: App, attack: Dialled) -> str:
    """The naval shift's row: its columns, and "far" for a target four to six hexes away."""
    columns = f"{attack.shifts.get(KEY, 0):+d}"
    if attack.shifts.get(KEY, 0) and attack.naval_range is NavalRange.FAR:
        return app.t("shift_naval_far", n=columns)
    return app.t("shift_naval", n=columns)
