"""Settings → Smart dice: the dice paired on the box (by colour and side, their battery), finding
new ones (each listed as a scan sees it), pairing one to a side, and a paired die's own rows:
flash it, change its side, forget it."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest

from cobi_companion.device.core import paired_dice
from cobi_companion.device.core.app import App, Next, Screen
from cobi_companion.device.core.paired_dice import SIDES
from cobi_companion.device.core.views import Lines, Menu, View
from cobi_companion.device.core.worded import joined
from cobi_companion.device.ports.die_readings import KINDS, Colour
from cobi_companion.device.ports.events import DieFound, DieLink, DieSaid, Key, ScanDone
from cobi_companion.device.ports.smart_dice import NoSmartDice
from cobi_companion.device.ui.trouble import notice
from cobi_companion.device.ui.widgets import Choose, confirm, said_item

# How long a scan looks for dice: a GoDice or a Pixel awake advertises every second or so,
# and a child shaking a sleeping one needs a few seconds more.
SCAN_S = 10.0
# How long after the scan should have ended the screen waits for its end: a Bluetooth stack
# that never answers never keeps the players here (the loop ticks about once a second).
SCAN_GRACE_S = 10.0

Rows = tuple[list[str], list[str], list[int]]       # the items, their hints, those dimmed


@dataclass
class LiveChoose(Choose):
    """A menu of dice whose rows follow what the dice say (a colour heard, a battery, a die
    asleep) in place: the lit row is not said again for it."""

    rows: Callable[[], Rows] | None = None
    named: Sequence[str] = ()           # the paired dice it names (the rows kept without one)

    def __post_init__(self) -> None:
        self._said()

    def _said(self) -> None:
        """Each row as the voice reads it, with its hint: "Red, Axis, asleep" (a dimmed row
        would be said "not now", which a die asleep is not)."""
        self.spoken = [said_item(joined(" · ", item, hint) if hint else item)
                       for item, hint in zip_longest(self.items, self.hints[:len(self.items)],
                                                     fillvalue="")]

    def on_die(self, app: App, event: DieFound | ScanDone | DieSaid | DieLink) -> Screen:
        if isinstance(event, DieSaid):
            heard_colour(app, event)
        if self.rows is not None and all(die in app.settings.smart_dice for die in self.named):
            self.items, self.hints, self.dimmed = self.rows()
            self._said()
        return self


def smart_dice_menu(app: App, back: Next, index: int = 0) -> Screen:
    """The paired dice ("Red · Axis", the battery under the lit one, dimmed while asleep),
    then Find dice."""
    paired = list(app.settings.smart_dice)

    def rows() -> Rows:
        items = [paired_dice.label(app, die) for die in paired] + [app.t("find_dice")]
        hints = [paired_dice.battery(app, die) for die in paired]
        return items, hints, [i for i, die in enumerate(paired)
                              if not app.dice_board.online(die)]

    def chosen(i: int) -> Screen:
        if i >= len(paired):
            return finding(app, lambda: smart_dice_menu(app, back, len(app.settings.smart_dice)))
        return die_menu(app, paired[i], lambda: smart_dice_menu(app, back, i))
    items, hints, dimmed = rows()
    return LiveChoose(app.t("smart_dice"), items, chosen, back=back,
                      index=min(index, len(items) - 1), hints=hints, dimmed=dimmed, rows=rows,
                      named=paired)


def die_menu(app: App, die: str, back: Next, index: int = 0) -> Screen:
    """A paired die: flash it (to see which one it is), its side (OK changes it), forget it."""
    def rows() -> Rows:
        side = app.settings.smart_dice[die]["side"]
        return ([app.t("flash_die"), app.t("die_side", side=app.t(side)), app.t("forget")],
                [], [])

    def chosen(i: int) -> Screen:
        if die not in app.settings.smart_dice:     # forgotten meanwhile (settings read again)
            return back()
        if i == 0:
            app.smart.flash(die)
            return die_menu(app, die, back, 0)
        if i == 1:
            row = app.settings.smart_dice[die]
            old = row["side"]
            row["side"] = SIDES[(SIDES.index(old) + 1) % len(SIDES)]
            paired_dice.keep(app, gained=row["side"], lost=old)
            return die_menu(app, die, back, 1)
        return confirm(app, paired_dice.forget_question(app, die), lambda: forget(app, die, back),
                       lambda: die_menu(app, die, back, 2), lost="forget_lost",
                       kept="forget_kept")
    items, _, _ = rows()
    return LiveChoose(paired_dice.label(app, die), items, chosen, back=back, index=index,
                      rows=rows, named=[die])


def forget(app: App, die: str, back: Next) -> Screen:
    """The die is no longer paired: its row goes, the port lets it go."""
    row = app.settings.smart_dice.pop(die, None)
    paired_dice.keep(app, lost=row.get("side") if row else None)
    return back()


def finding(app: App, back: Next) -> Screen:
    """A scan begins; its screen lists the dice as they are found. A box without smart dice
    (no Bluetooth library, or switched off in its settings file) says why at once."""
    if isinstance(app.smart, NoSmartDice):
        return notice(app, app.t("no_bluetooth"),
                      [app.smart.problem or SWITCHED_OFF, app.t("no_bluetooth_play")], back)
    app.smart.scan(SCAN_S)
    return Finding(back)


# Why a box has no smart dice when its settings file switched them off (the adapter's own
# problems are in the same plain words: ports/ble_dice.py).
SWITCHED_OFF = "smart dice are switched off in the settings file ([smart_dice] enabled)"


@dataclass
class Finding(Screen):
    """The dice a scan finds, listed as each is seen (those not paired yet), by colour where
    known, else by maker ("GoDice 3F"); OK on one pairs it (it flashes, then: whose?). The
    scan's end leaves the list, or says that nothing was found (and what to do), or why it
    could not look. A long press goes back at any time."""

    back: Next
    found: dict[str, DieFound] = field(default_factory=dict)
    done: bool = False
    problem: str = ""
    index: int = 0
    started: float | None = None        # the first tick's time, for SCAN_GRACE_S

    def unpaired(self, app: App) -> list[DieFound]:
        return [found for die, found in self.found.items()
                if die not in app.settings.smart_dice]

    def view(self, app: App) -> View:
        title = app.t("dice_found" if self.done else "finding_dice")
        dice = self.unpaired(app)
        if not dice:
            return Lines(app.header(title), (app.t("finding_wake"),))
        self.index = min(self.index, len(dice) - 1)
        return Menu(app.header(title), tuple(paired_dice.name(app, found.die, found.kind)
                                             for found in dice), self.index, app.t("ok_choose"))

    def note(self, event: DieFound | ScanDone | DieSaid | DieLink) -> None:
        """What the scan says, wherever the players are in pairing."""
        if isinstance(event, DieFound) and event.kind in KINDS:
            self.found.setdefault(event.die, event)
        elif isinstance(event, ScanDone):
            self.done, self.problem = True, event.problem

    def on_die(self, app: App, event: DieFound | ScanDone | DieSaid | DieLink) -> Screen:
        self.note(event)
        return self.ended(app) if isinstance(event, ScanDone) else self

    def ended(self, app: App) -> Screen:
        """The scan is over: the dice found and not paired stay listed; all paired, the
        paired dice; else why there are none."""
        if self.problem:
            return notice(app, app.t("no_bluetooth"), [self.problem, app.t("no_bluetooth_play")],
                          self.back)
        if not self.found:
            return notice(app, app.t("no_dice_found"), [app.t("no_dice_found_wake")], self.back)
        return self if self.unpaired(app) else self.back()

    def tick(self, app: App, now: float) -> Screen:
        if self.started is None:
            self.started = now
        elif not self.done and now - self.started > SCAN_S + SCAN_GRACE_S:
            self.done = True            # no end heard: what was found is what there is
            return self.ended(app)
        return self

    def on(self, app: App, key: Key) -> Screen:
        dice = self.unpaired(app)
        if key is Key.BACK:
            return self.back()
        if key in (Key.CW, Key.CCW) and dice:
            self.index = (self.index + (1 if key is Key.CW else -1)) % len(dice)
        elif key is Key.OK and dice:
            return ask_side(app, dice[min(self.index, len(dice) - 1)], self)
        return self

    def after_pairing(self, app: App) -> Screen:
        """Back from pairing a die: the others found, or the paired dice once none is left."""
        self.index = 0
        return self.back() if self.done and not self.unpaired(app) else self


@dataclass
class AskSide(Choose):
    """Whose die is it? Axis, Allies, or back. The die asked about is connected for the
    question, and blinks as soon as it is (the port keeps a blink asked for before); the
    scan's news is still noted meanwhile."""

    finding: Finding | None = None
    die: str = ""

    def on_die(self, app: App, event: DieFound | ScanDone | DieSaid | DieLink) -> Screen:
        if self.finding is not None:
            self.finding.note(event)
        return self


def ask_side(app: App, found: DieFound, finding: Finding) -> Screen:
    """The die picked blinks, so the players see which one it is; then whose it is. The side
    with fewer dice is lit first: two dice are paired with OK, OK each."""
    app.smart.keep({**paired_dice.kept(app.settings.smart_dice), found.die: found.kind})
    app.smart.flash(found.die)          # blinks now where it is connected already
    sides = [row["side"] for row in app.settings.smart_dice.values()]
    lit = 1 if sides.count("allies") < sides.count("axis") else 0

    def chosen(i: int) -> Screen:
        if i < len(SIDES):
            app.settings.smart_dice[found.die] = {
                "kind": found.kind, "name": found.name[:paired_dice.LONGEST], "side": SIDES[i],
                "colour": paired_dice.colour(app, found.die)}
            paired_dice.keep(app, gained=SIDES[i])      # a die paired to a side rolls for it
            return finding.after_pairing(app)
        return left()

    def left() -> Screen:
        """Not paired: let go again."""
        app.smart.keep(paired_dice.kept(app.settings.smart_dice))
        return finding.after_pairing(app)
    return AskSide(app.t("whose_die"), [app.t("axis"), app.t("allies"), app.t("go_back")],
                   chosen, back=left, index=lit, hint=app.t("die_blinks"), ask=True,
                   finding=finding, die=found.die)


def heard_colour(app: App, event: DieSaid) -> None:
    """A paired die said its colour: kept with its row (the list names it so after a
    restart too, before it connects)."""
    row = app.settings.smart_dice.get(event.die)
    if row is not None and isinstance(event.reading, Colour) and \
            row.get("colour") != event.reading.name[:paired_dice.LONGEST]:
        row["colour"] = event.reading.name[:paired_dice.LONGEST]
        app.on_settings(app.settings)
