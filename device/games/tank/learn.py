"""The Soft Targets Table learned at the table: a value the box's table lacks is asked for, never
invented, and never blocks the shot.

The players dial the modifier their printed table shows (−6 to +6); OK uses it for this shot,
a long press goes back to the choice before. Then the box offers to remember it: a range value
for a band of cm the players dial (it must hold the shot's range and overlap no band the weapon
has), a template or situation value for good. A remembered value is written to the learned
file in the box's state folder (`cards.learned`) and is in the card book's table at once; when
it cannot be written the box says so in one line and the shot goes on with the value.
"""
from __future__ import annotations

import errno
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING

from cobi_companion.cards import CardFileError, read_learned, write_learned
from cobi_companion.cards.learned import SOURCE
from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import LogEntry, entry
from cobi_companion.device.core.views import BigWord, View
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ui.measure import CM_LIMIT
from cobi_companion.device.ui.widgets import Choose, notice
from cobi_companion.device.ui.wording import weapon_words
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.tank.soft_fire import SoftPlan
from cobi_companion.rules.tank.soft_table import BandOverlap, Lack, Wanted
from cobi_companion.words.grammar import number

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

log = logging.getLogger("cobi-companion")

LIMIT = 6                               # the dial: −6 to +6, a D6's worth either way
FOR_THIS_SHOT = "dialled at the table for one shot"
Go = Callable[[SoftPlan], Screen]       # the fire goes on with the plan holding the value
Band = tuple[float, float]


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def shown(wanted: Wanted, value: int) -> str:
    """A dialled value as the table prints it: a modifier signed, a To hit as its faces."""
    return f"{value}-6" if wanted.lack is Lack.TO_HIT and value < 6 else \
        str(value) if wanted.lack is Lack.TO_HIT else signed(value)


def asked(app: App, wanted: Wanted) -> str:
    """What the value is for, as the screen says it."""
    weapon = weapon_words(app, wanted.weapon)            # "rifle" is "karabin" in Polish
    if wanted.lack is Lack.RANGE:
        assert wanted.cm is not None                       # a range value is for a range
        return app.t("ask_range", weapon=weapon, cm=number(wanted.cm, app.settings.language,
                                                             "g"))
    if wanted.lack is Lack.TEMPLATE:
        return app.t("ask_template", weapon=weapon)
    if wanted.lack is Lack.TO_HIT:
        return app.t("ask_to_hit", weapon=weapon)
    return app.t("ask_situation", where=app.t(f"sit_{wanted.situation}"))


def ask(app: App, plan: SoftPlan, wanted: Wanted, go: Go, back: Next) -> Screen:
    """The value dialled, then the offer to remember it; `back` is the choice before."""
    to_hit = wanted.lack is Lack.TO_HIT      # the lowest face that hits, 1 to 6, from 4
    dial = ValueDial(wanted, lambda value: offer(app, plan, wanted, value, go, dial), back,
                     value=4 if to_hit else 0, low=1 if to_hit else -LIMIT)
    return dial


@dataclass
class ValueDial(Screen):
    """The modifier the players' printed table shows, −6 to +6 from 0 (a grenade's To hit:
    the lowest face that hits, 1 to 6, shown "4-6"); OK uses it."""

    wanted: Wanted
    then: Callable[[int], Screen]
    back: Next
    value: int = 0
    low: int = -LIMIT

    def view(self, app: App) -> View:
        return BigWord(app.header(app.t("table_says")), shown(self.wanted, self.value),
                       asked(app, self.wanted))

    def on(self, app: App, key: Key) -> Screen:
        if key in (Key.CW, Key.CCW):
            step = 1 if key is Key.CW else -1
            self.value = min(max(self.value + step, self.low), LIMIT)
        elif key is Key.OK:
            return self.then(self.value)
        elif key is Key.BACK:
            return self.back()
        return self


def offer(app: App, plan: SoftPlan, wanted: Wanted, value: int, go: Go,
          dial: Screen) -> Screen:
    """Remember it? No: for this shot only. Yes: a range value for a band, else for good."""
    def once() -> Screen:
        return go(replace(plan, table=plan.table.answered(wanted, value, FOR_THIS_SHOT)))
    if app.book.learned_file is None:        # nowhere to keep it
        return once()

    def chosen(index: int) -> Screen:
        if index == 0:
            return once()
        if wanted.lack is Lack.RANGE:
            assert wanted.cm is not None
            return BandDial(wanted, value, wanted.cm, lambda band, again: remember(
                app, plan, wanted, value, band, go, once, again), lambda: question)
        return remember(app, plan, wanted, value, None, go, once, lambda: question)
    keep = "remember_band" if wanted.lack is Lack.RANGE else "remember_always"
    question = Choose(app.t("remember_q", value=shown(wanted, value)),
                      [app.t("remember_no"), app.t(keep)], chosen, back=lambda: dial)
    return question


@dataclass
class BandDial(Screen):
    """The band of cm to remember a range value for: where it starts (up to the shot's range),
    then where it ends (from the shot's range on). OK goes on; a long press goes back a step."""

    wanted: Wanted
    value: int
    cm: float                                 # the shot's range: both ends start there
    then: Callable[[Band, Next], Screen]      # the band, and how to dial it again
    back: Next
    at_end: bool = False

    def __post_init__(self) -> None:
        # whole cm around a measured range like 30.4, so that the band holds it
        self.low, self.high = math.floor(self.cm), math.ceil(self.cm)

    def view(self, app: App) -> View:
        weapon = weapon_words(app, self.wanted.weapon)
        return BigWord(app.header(app.t("band_to" if self.at_end else "band_from")),
                       f"{self.high if self.at_end else self.low} cm",
                       f"{weapon} {signed(self.value)}: {self.low}–{self.high} cm")

    def on(self, app: App, key: Key) -> Screen:
        step = {Key.CW: 1, Key.CCW: -1}.get(key, 0)
        if step and self.at_end:
            self.high = min(max(self.high + step, math.ceil(self.cm)), CM_LIMIT)
        elif step:
            self.low = min(max(self.low + step, 0), math.floor(self.cm))
        elif key is Key.OK and not self.at_end:
            self.at_end = True
        elif key is Key.OK:
            return self.then((float(self.low), float(self.high)), self.again)
        elif key is Key.BACK and self.at_end:
            self.at_end = False
        elif key is Key.BACK:
            return self.back()
        return self

    def again(self) -> Screen:
        self.at_end = False
        return self


def remember(app: App, plan: SoftPlan, wanted: Wanted, value: int, band: Band | None,
             go: Go, once: Next, again: Next) -> Screen:
    """Write the value to the learned file and put it in the card book's table; a band that
    overlaps is refused with the reason (`again` dials it anew); a file that cannot be
    written is said in one line, and the shot goes on with the value (`once`)."""
    book = app.book
    path = book.learned_file
    assert path is not None
    source = f"{SOURCE}, {date.today().isoformat()}"
    try:
        table = book.table.with_learned(read_learned(path)).answered(wanted, value, source, band)
        shot = plan.table.answered(wanted, value, source, band)
    except CardFileError as exc:
        log.error("cannot remember the %s: %s", wanted.words, exc)
        return not_remembered(app, app.t("learned_broken"), value, once, wanted)
    except BandOverlap as exc:
        app.cue("error")
        return notice(app, app.t("not_possible"), [
            app.t("band_overlaps"), exc.band.span, app.t("band_again")], again)
    except RulesError as exc:
        app.cue("error")
        return notice(app, app.t("not_possible"), [app.say(exc)], again)
    try:
        write_learned(path, table.learned)
    except OSError as exc:
        log.error("cannot remember the %s in %s: %s", wanted.words, path, exc)
        return not_remembered(app, cannot_write(app, exc), value, once, wanted)
    book.table = table
    app.log_line(remembered(wanted, value, band))
    return go(replace(plan, table=shot))


def remembered(wanted: Wanted, value: int, band: Band | None) -> LogEntry:
    """The log's line of a value remembered: a range value for its band, a template's or a
    situation's for good."""
    if wanted.lack is Lack.RANGE:
        assert wanted.cm is not None and band is not None    # a range is kept for a band
        return entry("log_learned_range", weapon=wanted.weapon, cm=wanted.cm, value=value,
                     low=band[0], high=band[1])
    if wanted.lack is Lack.TEMPLATE:
        return entry("log_learned_template", weapon=wanted.weapon, value=value)
    if wanted.lack is Lack.TO_HIT:
        return entry("log_learned_to_hit", weapon=wanted.weapon, value=value)
    return entry("log_learned_situation", situation=wanted.situation, value=value)


def cannot_write(app: App, exc: OSError) -> str:
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return app.t("learned_read_only")
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return app.t("learned_full")
    return app.t("learned_cannot_write")


def not_remembered(app: App, why: str, value: int, once: Next,
                   wanted: Wanted | None = None) -> Screen:
    app.cue("error")
    said = signed(value) if wanted is None else shown(wanted, value)
    return notice(app, app.t("not_remembered"), [why, app.t("this_shot", value=said)],
                  once)
