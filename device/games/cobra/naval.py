"""The naval shift in the attack dial (14.4): its row steps, one press each, through +0, +1
and +2 within three hexes of the sea (one point a column, 14.4c), +1 at four to six hexes (two
points a column, +1 at most, 14.4b, 14.4d), and +0 again; it refuses, with the reason, what the
game turn cannot pay, and the row goes back to +0. The box does not see the map: the players
say the range by the row they stop on, and its hint says what a far column costs."""
from __future__ import annotations

from typing import TYPE_CHECKING

from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.cobra.dialled import Dialled
from cobi_companion.device.games.cobra.session import refusal, session
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
NONE = (0, NavalRange.NEAR)
# The row's steps in turn: none, then each range's columns one attack may take (14.4b), the
# near ones first (the cheaper, and the rows a family meets most).
STEPS = (NONE, *((n, at) for at in RANGES for n in naval_columns(at) if n))


def now(attack: Dialled) -> tuple[int, NavalRange]:
    """The naval shift dialled: its columns and range (none is always near)."""
    columns = attack.shifts.get(KEY, 0)
    return (columns, attack.naval_range) if columns else NONE


def step_naval(app: App, attack: Dialled, back: Next) -> Screen:
    """The row's next step: +1, +2, +1 far, then none again."""
    at = STEPS.index(now(attack)) if now(attack) in STEPS else 0
    columns, naval_range = STEPS[(at + 1) % len(STEPS)]
    return give(app, attack, columns, naval_range, back)


def give(app: App, attack: Dialled, columns: int, at: NavalRange, back: Next) -> Screen:
    """The naval shift set to `columns` at range `at`, or the rules' reason and the row back at
    none (the steps after a refused one cost as much or more: nothing is left stuck): more than
    one attack may take (14.4b), than storms allow, than the turn has left (14.4)."""
    if columns:
        game = session(app).game
        try:
            check_naval(columns, at, game.turn, game.this_weather)
            check_naval_left(naval_cost(columns, at), game.naval_left)
        except RulesError as exc:
            attack.shifts[KEY], attack.naval_range = NONE
            return refusal(app, exc, back())
    attack.shifts[KEY] = columns
    attack.naval_range = at
    return back()


def naval_label(app: App, attack: Dialled) -> str:
    """The naval shift's row: its columns, and "far" for a target four to six hexes away."""
    columns, at = now(attack)
    if at is NavalRange.FAR:
        return app.t("shift_naval_far", n=f"{columns:+d}")
    return app.t("shift_naval", n=f"{columns:+d}")


def naval_hint(app: App, attack: Dialled, left: str) -> str:
    """The naval row's hint: on a far target what a column costs there (14.4d); a near shift
    says its range first (14.4c: within three hexes), then `left`, the points the turn has
    left; no shift, `left` alone."""
    columns, at = now(attack)
    if at is NavalRange.FAR:
        return app.t("naval_far_hint", n=COST[NavalRange.FAR])
    if columns:
        return joined(" · ", app.t("naval_near_hint", n=COST[NavalRange.NEAR]), left)
    return left
