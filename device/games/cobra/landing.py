"""Cobra's Allied Landing Phase on the box (17.3.2): the paratroop drops and their scatter
(the Allied button), the German beach defence rolls and landing attrition (the German button),
the beaches abandoned; and the German 3:1 attack on a unit withdrawn from a beach hex in an
EZOC (17.3.4), at the end of an Allied player turn.

The rules (rules/cobra/landing.py) do every column and die; these screens collect what the
players say of the map and show the rules' trace. Each roll is saved as soon as it is made:
a game resumed after a pulled plug never rolls a drop or an attrition twice."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import LogValue, entry
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.cobra.session import (
    Phased,
    number,
    press_for,
    refusal,
    result_screen,
    save,
    session,
    tables,
)
from cobi_companion.device.ui.widgets import confirm
from cobi_companion.rules.cobra import landing
from cobi_companion.rules.cobra.combat import MARKER_MOST, Nation
from cobi_companion.rules.cobra.landing import BEACHES, DIVISIONS, PARATROOPS, Landed, Target
from cobi_companion.rules.dice import Aim, Need, Roller, ScriptedDice
from cobi_companion.rules.errors import RulesError

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

STEPS_MAX = 60              # the steps the knob dials for a beach or a commitment
UNIT_STEPS_MAX = 9


def drop_label(app: App) -> str:
    """The first step of the Landing Phase on the hub: the next paratroop drop, or the scatter
    direction a drop waits for (17.3.2)."""
    game = session(app).game
    if game.landing.pending:
        return app.t("scatter_direction")
    return app.t("para_drop", n=min(len(game.landing.drops) + 1, PARATROOPS), most=PARATROOPS)


def paratroops(app: App, home: Next) -> Screen:
    game = session(app).game
    pending = game.landing.pending
    if pending is not None:                 # a scattered drop still to roll its direction
        return direction(app, home, pending)
    try:
        game.landing.dropped(Target.US_82, 1)      # are any units left to drop?
    except RulesError as exc:
        return refusal(app, exc, home())
    return Phased(app.t("para_drop", n=len(game.landing.drops) + 1, most=PARATROOPS),
                  [app.t("landing_" + d.value) for d in DIVISIONS],
                  lambda i: drop(app, home, DIVISIONS[i]), back=home)


def drop(app: App, home: Next, division: Target) -> Screen:
    span = "-".join(str(f) for f in sorted({landing.SCATTER_FROM[division], 6}))
    need = Need(Roller.ALLIES, Aim.SCATTER, f"scatter {division.value}")

    def rolled(face: int) -> Screen:
        s = session(app)
        s.game = replace(s.game, landing=s.game.landing.dropped(division, face))
        if landing.scatters(division, face):
            save(app, entry("log_para_scattered", landing=division.value, die=face))
            return direction(app, home, division)
        trace = landing.scatter(division, ScriptedDice([face]), tables(app))
        save(app, entry("log_para_landed", landing=division.value, die=face))
        return result_screen(app, app.t("landing_" + division.value), app.t("LANDED"),
                             joined(" ", app.t("die"), str(face)), trace.notes, home)
    return press_for(app, Nation.ALLIED, [app.t("landing_" + division.value),
                                          app.t("scatters_on", span=span)], need, rolled, home)


def direction(app: App, home: Next, division: Target) -> Screen:
    """The second die of a scattered unit: its direction on the Scatter Diagram (17.3.2
    step 2c)."""
    first = session(app).game.landing.drops[-1][1]
    need = Need(Roller.ALLIES, Aim.SCATTER, f"scatter direction {division.value}")

    def rolled(face: int) -> Screen:
        s = session(app)
        s.game = replace(s.game, landing=s.game.landing.directed(face))
        trace = landing.scatter(division, ScriptedDice([first, face]), tables(app))
        way: LogValue = entry("log_direction", direction=trace.direction.value) \
            if trace.direction else entry("log_read_diagram")
        save(app, entry("log_para_direction", landing=division.value, die=face, where=way))
        word = app.t("dir_" + trace.direction.value).upper() if trace.direction else \
            app.t("read_diagram", die=face)
        return result_screen(app, app.t("SCATTERED"), word, joined(" ", app.t("die"), str(face)),
                             trace.notes, home)
    # the first die said first: it scattered the unit, this one says where
    return press_for(app, Nation.ALLIED, [app.t("landing_" + division.value),
                                          app.t("scattered_die", die=first)], need, rolled, home)


# ---- step 4a: beach defence ----

def beach_defence(app: App, home: Next) -> Screen:
    """One German unit within two hexes of an Allied occupied beach hex: may it commit?"""
    def rolled(face: int) -> Screen:
        trace = landing.commitment(ScriptedDice([face]))
        result = entry("log_may_commit" if trace.may_commit else "log_no_commit")
        save(app, entry("log_commit", die=face, result=result))
        return result_screen(app, app.t("beach_defence"),
                             app.t("COMMIT" if trace.may_commit else "NO_COMMIT"),
                             joined(" ", app.t("die"), str(face)), (trace.note,), home)
    need = Need(Roller.AXIS, Aim.COMBAT, "beach defence")
    return press_for(app, Nation.GERMAN, [app.t("beach_defence_line")], need, rolled, home)


# ---- step 4b: landing attrition ----

def attrition(app: App, home: Next) -> Screen:
    targets = [*BEACHES, *DIVISIONS]

    def chosen(i: int) -> Screen:
        where = targets[i]
        if where.beach:
            return number(app, app.t("steps_committed"), 0, lambda n: attrition_roll(
                app, home, landing.attrition_odds(where, committed=n)), home, high=STEPS_MAX)
        return number(app, app.t("terrain_shift"), 0, lambda n: attrition_roll(
            app, home, landing.attrition_odds(where, terrain=n)), home, low=-5, high=0)
    return Phased(app.t("landing_attrition"), [app.t("landing_" + t.value) for t in targets],
                  chosen, back=home)


def attrition_roll(app: App, home: Next, planned: landing.AttritionOdds) -> Screen:
    def rolled(face: int) -> Screen:
        s = session(app)
        trace = landing.attrition(planned, ScriptedDice([face]), tables(app))
        cell = trace.result.defender.text if trace.result else ""
        done = Landed(planned.target, planned.column, face, cell, trace.steps)
        s.game = replace(s.game, landing=replace(
            s.game.landing, attritions=(*s.game.landing.attritions, done)))
        result: LogValue = cell or entry("read_crt")
        save(app, entry("log_attrition", landing=planned.target.value, start=planned.start,
                        column=planned.column, die=face, result=result))
        word = cell.upper() if cell else f"{planned.column} · {face}"
        after = home if not planned.target.beach or trace.steps == 0 else \
            (lambda: marker(app, home, planned.target, trace.steps))
        return result_screen(app, app.t("landing_attrition"), word,
                             joined(" ", f"{planned.column},", app.t("die"), str(face)),
                             trace.notes, after)
    need = Need(Roller.AXIS, Aim.COMBAT, f"landing attrition {planned.column}")
    return press_for(app, Nation.GERMAN, [app.t("landing_" + planned.target.value),
                                          f"{planned.start} {planned.shift:+d} → "
                                          f"{planned.column}"], need, rolled, home)


# ---- step 5f: the beach shift marker ----

def marker(app: App, home: Next, beach: Target, lost: int | None) -> Screen:
    """After landing losses on a beach: a beach shift marker, one column for each step lost
    in the hex (17.3.2 step 5f). Where the box does not know the steps (all of them, or a cell
    of the printed CRT) the players dial them first; none places no marker."""
    if lost is None:
        # none lit first: one OK on a result with no loss places no marker
        return number(app, app.t("marker_steps"), 0, lambda n: marker(app, home, beach, n)
                      if n else home(), home, high=MARKER_MOST)
    markers = session(app).game.landing.markers
    same = [i for i, m in enumerate(markers) if m.beach is beach]

    def chosen(i: int) -> Screen:
        s = session(app)
        onto = None if i == 0 else same[i - 1]
        s.game = replace(s.game, landing=s.game.landing.marked(beach, lost, onto))
        placed = s.game.landing.markers[len(s.game.landing.markers) - 1 if onto is None
                                        else onto]
        save(app, entry("log_marker", landing=beach.value, lost=placed.columns))
        return home()
    items = [app.t("marker_new", n=-lost)]
    items += [app.t("marker_add", n=-markers[i].columns, total=-min(
        MARKER_MOST, markers[i].columns + lost)) for i in same]
    return Phased(app.t("marker_title", beach=app.t("landing_" + beach.value)), items, chosen,
                  back=lambda: marker(app, home, beach, lost))


def marker_rows(app: App, tracks: Callable[[int], Screen]
                ) -> list[tuple[str, Callable[[int], Screen]]]:
    """The beach shift markers on the tracks, each removed, asked first, when Allied units
    advance after combat out of its hex (17.3.2 step 5f2); back to the tracks' row."""
    def removed(index: int, row: int) -> Screen:
        s = session(app)
        gone = s.game.landing.markers[index]
        s.game = replace(s.game, landing=s.game.landing.unmarked(index))
        save(app, entry("log_marker_removed", landing=gone.beach.value, lost=gone.columns))
        return tracks(row)

    def ask(index: int, row: int) -> Screen:
        return confirm(app, app.t("marker_remove_ask"), lambda: removed(index, row),
                       lambda: tracks(row), lost="marker_remove_lost")
    return [(app.t("marker_row", beach=app.t("landing_" + m.beach.value), n=-m.columns),
             partial(ask, i)) for i, m in enumerate(session(app).game.landing.markers)]


# ---- step 5: a beach abandoned ----

def beach_check(app: App, home: Next) -> Screen:
    def chosen(i: int) -> Screen:
        beach = BEACHES[i]
        known = session(app).game.landing.lost_on(beach)
        return number(app, app.t("steps_landed"), max(known, 1), lambda landed: number(
            app, app.t("steps_lost"), min(known, landed), lambda lost: checked(
                app, home, beach, landed, lost), home, high=STEPS_MAX), home, low=1,
            high=STEPS_MAX)
    return Phased(app.t("beach_check"), [app.t("landing_" + b.value) for b in BEACHES],
                  chosen, back=home)


def checked(app: App, home: Next, beach: Target, landed: int, lost: int) -> Screen:
    s = session(app)
    try:
        check = landing.beach_check(beach, landed, lost)
        after = s.game.landing.abandon(check)
    except RulesError as exc:
        return refusal(app, exc, home())
    if check.abandoned:
        s.game = replace(s.game, landing=after).adjust("german_vp", landing.ABANDONED_VP)
    result = entry("log_abandoned" if check.abandoned else "log_held")
    save(app, entry("log_beach_check", landing=beach.value, lost=lost, landed=landed,
                    result=result))
    return result_screen(app, app.t("landing_" + beach.value),
                         app.t("ABANDONED" if check.abandoned else "HELD"),
                         app.t("lost_of", lost=lost, landed=landed), (check.note,), home)


# ---- 17.3.4: the 3:1 attack on a unit withdrawn from a beach hex in an EZOC ----

def withdrawal(app: App, home: Next) -> Screen:
    return number(app, app.t("unit_steps"), 2, lambda steps: withdrawal_roll(app, home, steps),
                  home, low=1, high=UNIT_STEPS_MAX)


def withdrawal_roll(app: App, home: Next, steps: int) -> Screen:
    def rolled(face: int) -> Screen:
        trace = landing.withdrawal(ScriptedDice([face]), tables(app), steps)
        cell = trace.result.defender.text if trace.result else ""
        result: LogValue = cell or entry("read_crt")
        save(app, entry("log_withdrawal", die=face, result=result))
        return result_screen(app, app.t("withdrawal"), outcome(app, trace.destroyed, face),
                             joined(" ", f"{landing.WITHDRAWAL_COLUMN},", app.t("die"), str(face)),
                             trace.notes, home)
    need = Need(Roller.AXIS, Aim.COMBAT, f"withdrawal attack {landing.WITHDRAWAL_COLUMN}")
    return press_for(app, Nation.GERMAN, [app.t("withdrawal_line"),
                                          app.t("unit_steps_n", n=steps)], need, rolled, home)


def outcome(app: App, destroyed: bool | None, face: int) -> str:
    if destroyed is None:
        return f"{landing.WITHDRAWAL_COLUMN} · {face}"
    return app.t("DESTROYED_UNIT" if destroyed else "WITHDRAWN")
