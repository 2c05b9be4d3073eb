"""Reusable screens: a choice turned with the knob, a notice, a sequence of views, waiting for a
side's button, and dialling the face of a real die. Each returns the next screen."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cobi_companion.device.core.app import App, Next, Screen
from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll, View
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ui.scroll import scrolled

DICE_KEYS = {Key.AXIS: "axis", Key.ALLIES: "allies"}




@dataclass
class Choose(Screen):
    """Turn the knob through items, OK chooses; a long press goes back (or opens the menu)."""

    title: str
    items: Sequence[str]
    then: Callable[[int], Screen]
    back: Next | None = None
    index: int = 0
    hint: str = ""

    def view(self, app: App) -> View:
        return Menu(app.header(self.title), tuple(self.items), self.index,
                    self.hint or app.t("ok_choose"))

    def on(self, app: App, key: Key) -> Screen:
        if key in (Key.CW, Key.CCW):
            step = 1 if key is Key.CW else -1
            self.index = (self.index + step) % len(self.items)
            return self
        if key is Key.OK:
            return self.then(self.index)
        if key is Key.BACK:
            return self.back() if self.back else app.menu(self)
        return self


def yes_no(app: App, title: str, then: Callable[[bool], Screen], back: Next) -> Choose:
    return Choose(title, [app.t("no"), app.t("yes")], lambda i: then(i == 1), back)


SPIN_FRAMES = 6  # frames of tumbling dice; at the loop's animation tick this is about 0.5 s


@dataclass
class Show(Screen):
    """One or more views in turn; OK or a dice button goes on. With `animate`, dice on the first
    view tumble for a moment first; a key press stops them and counts as usual, so input is
    never held up by the animation."""

    views: list[View]
    then: Next
    index: int = 0
    animate: bool = False
    spins: int = 0
    row: int = 0                   # the first row of a Lines view shown: the knob scrolls

    @property
    def animating(self) -> bool:
        return self.animate and self.index == 0 and self.spins < SPIN_FRAMES \
            and isinstance(self.views[0], Roll)

    def view(self, app: App) -> View:
        shown = self.views[self.index]
        if self.animating and isinstance(shown, Roll):
            faces = tuple((face + self.spins * 7) % 6 + 1 for face in shown.faces)
            return replace(shown, faces=faces, rolling=True, total="")
        return replace(shown, index=self.row) if isinstance(shown, Lines) else shown

    def tick(self, app: App, now: float) -> Screen:
        if self.animating:
            self.spins += 1
        return self

    def on(self, app: App, key: Key) -> Screen:
        self.spins = SPIN_FRAMES
        self.row = scrolled(self.view(app), self.row, key)
        if key in (Key.OK, Key.AXIS, Key.ALLIES):
            self.index, self.row = self.index + 1, 0
            return self if self.index < len(self.views) else self.then()
        if key is Key.BACK:
            return app.menu(self)
        return self


def notice(app: App, title: str, lines: Sequence[str], then: Next) -> Show:
    return Show([Lines(app.header(title), tuple(lines), hint=app.t("ok_next"))], then)


@dataclass
class WaitPress(Screen):
    """Wait for one side's dice button (the knob may still cancel with a long press)."""

    side: str
    shown: View
    then: Next
    back: Next | None = None
    row: int = 0                   # the first row of a Lines view shown: the knob scrolls

    def view(self, app: App) -> View:
        return replace(self.shown, index=self.row) if isinstance(self.shown, Lines) \
            else self.shown

    def on(self, app: App, key: Key) -> Screen:
        self.row = scrolled(self.view(app), self.row, key)
        if DICE_KEYS.get(key) == self.side:
            return self.then()
        if key is Key.BACK:
            return self.back() if self.back else app.menu(self)
        return self


@dataclass
class Dial(Screen):
    """Real dice: the player dials the face their die shows, OK confirms."""

    purpose: str
    then: Callable[[int], Screen]
    face: int = 1
    faces: list[int] = field(default_factory=list)

    def view(self, app: App) -> View:
        return Roll(app.header(app.t("dial_face")), (self.face,), self.purpose,
                    needed="", total=app.t("ok_choose"))

    def on(self, app: App, key: Key) -> Screen:
        if key is Key.CW:
            self.face = self.face % 6 + 1
        elif key is Key.CCW:
            self.face = (self.face - 2) % 6 + 1
        elif key in (Key.OK, Key.AXIS, Key.ALLIES):
            return self.then(self.face)
        elif key is Key.BACK:
            return app.menu(self)
        return self


@dataclass
class Count(Screen):
    """A number dialled with the knob between `low` and `high`; OK confirms, a long press goes
    back."""

    title: str
    value: int
    low: int
    high: int
    then: Callable[[int], Screen]
    back: Next
    hint: str = ""

    def view(self, app: App) -> View:
        return BigWord(app.header(self.title), str(self.value), self.hint)

    def on(self, app: App, key: Key) -> Screen:
        if key in (Key.CW, Key.CCW):
            step = 1 if key is Key.CW else -1
            self.value = min(max(self.value + step, self.low), self.high)
        elif key is Key.OK:
            return self.then(self.value)
        elif key is Key.BACK:
            return self.back()
        return self


class PickPieces(Screen):
    """A menu of pieces and, last, the item that starts: OK on a piece sets it up (or takes
    it out again). Subclasses give `pieces`, `set_up` and `start`, and hold `index`, `under`
    (what is set, by label) and `back`."""

    index: int
    under: dict[str, Any]
    back: Next

    def pieces(self, app: App) -> list[Any]:
        raise NotImplementedError

    def set_up(self, app: App, piece: Any) -> Screen:
        raise NotImplementedError

    def start(self, app: App) -> Screen:
        raise NotImplementedError

    def on(self, app: App, key: Key) -> Screen:
        pieces = self.pieces(app)
        if key in (Key.CW, Key.CCW):
            self.index = (self.index + (1 if key is Key.CW else -1)) % (len(pieces) + 1)
        elif key is Key.OK:
            if self.index >= len(pieces):
                return self.start(app)
            piece = pieces[self.index]
            if self.under.pop(piece.label, None) is None:
                return self.set_up(app, piece)
        elif key is Key.BACK:
            return self.back()
        return self

    def set(self, app: App, label: str, value: Any) -> Screen:
        """A piece is set: the knob goes to the item that starts."""
        self.under[label] = value
        self.index = len(self.pieces(app))
        return self
