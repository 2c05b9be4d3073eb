"""The screens the menus of every game open: the status board, the log, the dice statistics and
the quick dice."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cobi_companion.device.core import paired_dice
from cobi_companion.device.core.app import App, Screen
from cobi_companion.device.core.views import Lines, Roll, View
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.house import house_row, house_value
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ui.scroll import scrolled
from cobi_companion.rules.battle import Piece, Seat
from cobi_companion.rules.card import Kind
from cobi_companion.rules.dice import Aim, Need, Roller
from cobi_companion.rules.easy import fire as easy


@dataclass
class Scroll(Screen):
    """Lines to read, wrapped to the panel: the knob scrolls their rows, OK or a long press
    goes back."""

    title: str
    lines: list[str]
    back: Screen
    index: int = 0
    details: Callable[[Scroll], Screen] | None = None   # OK: the figures behind the words

    def view(self, app: App) -> View:
        hint = app.t("ok_more") if self.details is not None else ""
        return Lines(app.header(self.title), tuple(self.lines), self.index, hint)

    def on(self, app: App, key: Key) -> Screen:
        if key in (Key.CW, Key.CCW):
            self.index = scrolled(self.view(app), self.index, key)
        elif key is Key.OK and self.details is not None:
            return self.details(self)
        elif key in (Key.OK, Key.BACK):
            return self.back
        return self


def status_words(app: App, vehicle: Piece) -> str:
    words = [app.t(w) for w in vehicle.status.words()]
    if vehicle.crew_only:        # the gun is destroyed, its crew fight on: "crew 2, gun lost"
        return joined(", ", app.t("crew_n", n=vehicle.figures), app.t("gun_destroyed"))
    if vehicle.kind is Kind.FIGURE and not vehicle.status.destroyed:
        words.insert(0, app.t("figures_n", n=vehicle.figures or 0))
    elif vehicle.kind in (Kind.GUN, Kind.OPEN_TOP) and vehicle.figures is not None \
            and not vehicle.status.destroyed:
        words.insert(0, app.t("crew_n", n=vehicle.figures))
    if (ride := ride_words(app, vehicle)) and not vehicle.gone:
        words.append(ride)
    return joined(", ", *words) if words else app.t("ready")


def ride_words(app: App, piece: Piece) -> str:
    """"on Tiger 1" for a squad riding on top of a vehicle, "in Truck 1" for one loaded in
    it; "" for a piece that rides nothing."""
    ride = piece.riding
    if ride is None:
        return ""
    return app.t("riding_on" if ride.seat is Seat.ON_TOP else "riding_in", vehicle=ride.vehicle)


def with_ride(app: App, text: str, piece: Piece) -> str:
    """A piece's text in a list, with the vehicle it rides: "Rifle 1 (3) · on Tiger 1"."""
    ride = ride_words(app, piece)
    return joined(" · ", text, ride) if ride else text


def status_board(app: App, back: Screen) -> Screen:
    """Every piece and its marks, then the battle's house rules that are not the rules notes'
    readings, if any, then each paired smart die's battery ("Red (Axis): 80%")."""
    state = app.playing
    lines = [joined(" ", v.label, joined(": ", app.side_name(v.side), status_words(app, v)))
             for v in state.battle.pieces]
    changed = state.house.changed(state.level)
    if changed:                     # as the rules notes read the rules: nothing to say
        lines.append(house_row(app, state.house, state.level))
        # joined, not formatted: a language switch says the line again in the new language
        lines += [joined(" ", "·", house_value(app, state.house, name)) for name in changed]
    dice = paired_dice.board_lines(app)         # each smart die's battery, if any is paired
    if dice:
        lines += [app.t("smart_dice"), *dice]
    return Scroll(app.t("status_board"), lines, back)


def battle_log(app: App, back: Screen) -> Screen:
    """The log, the newest line first, in the app's language as it is now."""
    lines = [app.log_words(line) for line in reversed(app.playing.log)]
    return Scroll(app.t("battle_log"), lines or ["-"], back)


# A test of the dice against fair ones (Pearson's chi-squared, 5 degrees of freedom): over
# this, fair dice would show counts so uneven less than once in a hundred times. Fewer than
# FAIR_MIN rolls tell nothing (at least 5 expected of each face).
UNEVEN = 15.086
FAIR_MIN = 30


def fairness_key(counts: dict[int, int]) -> str:
    """The dice's counts in plain words: too few rolls, fair, or uneven."""
    total = sum(counts.values())
    if total < FAIR_MIN:
        return "dice_too_few"
    expected = total / 6
    spread = sum((counts.get(face, 0) - expected) ** 2 / expected for face in range(1, 7))
    return "dice_unfair" if spread > UNEVEN else "dice_fair"


def faces_line(counts: dict[int, int]) -> str:
    return "  ".join(f"{face}:{counts.get(face, 0)}" for face in range(1, 7))


def dice_stats(app: App, back: Screen) -> Screen:
    """How many dice were rolled and whether they look fair, in plain words, overall and for
    each smart die; OK: each face's count."""
    lines, counted = [], []
    sources: list[tuple[str, str | None]] = [(app.t("overall"), None)]
    if app.state is not None:
        sources.insert(0, (app.t("this_battle"), app.state.id))
    for title, battle_id in sources:
        counts = app.store.face_counts(battle_id)
        total = sum(counts.values())
        lines.append(joined(" · ", app.t("rolls_counted", title=title, n=total),
                            app.t(fairness_key(counts))))
        counted.append(app.t("rolls_counted", title=title, n=total))
        counted.append(faces_line(counts))
    for die, counts in app.store.die_counts().items():   # each smart die's own
        title = paired_dice.of_side(app, die)
        total = sum(counts.values())
        lines.append(joined(" · ", app.t("rolls_counted", title=title, n=total),
                            app.t(fairness_key(counts))))
        counted.append(app.t("rolls_counted", title=title, n=total))
        counted.append(faces_line(counts))
    return Scroll(app.t("dice_stats"), lines, back,
                  details=lambda scroll: Scroll(app.t("details"), counted, scroll))


QUICK_D6 = Need(Roller.EITHER, Aim.QUICK, "quick D6")


@dataclass
class QuickDice(Screen):
    """A dice button rolls a big D6; held down, a D6+."""

    back: Screen | None = None
    shown: tuple[int, ...] = ()
    value: str = ""

    @property
    def uses_holds(self) -> bool:
        return True

    def view(self, app: App) -> View:
        return Roll(app.header(app.t("quick_dice")), self.shown, app.t("quick_hint"),
                    total=self.value)

    def on(self, app: App, key: Key) -> Screen:
        side = "axis" if key in (Key.AXIS, Key.AXIS_LONG) else "allies"
        if key in (Key.AXIS, Key.ALLIES):
            face = app.roll(QUICK_D6, side)
            self.shown, self.value = (face,), str(face)
            app.cue("roll")
        elif key in (Key.AXIS_LONG, Key.ALLIES_LONG):
            self.shown, value = easy.roll_d6_plus(app.dice_for(side), "quick")
            self.value = str(value)
            app.cue("roll")
        if key in (Key.AXIS, Key.ALLIES, Key.AXIS_LONG, Key.ALLIES_LONG):
            app.commit()                      # the rolls count in the dice statistics
        elif key in (Key.OK, Key.BACK):
            return self.back or app.games.start(app)
        return self

