"""Reusable screens: a choice turned with the knob, a notice, a sequence of views, waiting for a
side's button, and dialling the face of a real die. Each returns the next screen."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cobi_companion.device.core.app import App, Next, Screen
from cobi_companion.device.core.saying import said_item as said_item
from cobi_companion.device.core.spoken import Spoken, item, prompt
from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll, View
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ui.scroll import scrolled

DICE_KEYS = {Key.AXIS: "axis", Key.ALLIES: "allies"}


@dataclass
class Choose(Screen):
    """Turn the knob through items, OK chooses; a long press goes back (or opens the menu).

    `hints`: a hint for each item, shown while it is highlighted (an empty one: `hint`).
    `dice`: what a dice button does on the highlighted item (None: nothing there, which is
    said with a cue, as everywhere a dice button means nothing).
    `spoken`: each item as the voice reads it under the cursor (voice "all"), where its words
    on the panel are not what a child should hear (a piece's spoken name and side); the
    others are read from their labels (`said_item`).
    `remind`: on a side's menu, whose turn it is, said again by a reminder (and a dice button
    refused) before the item lit. `ask`: the title is a question ("Pass this turn?"), said
    with the item lit when the menu comes up (a bare "No" answers nothing); the knob's steps
    say the item alone."""

    title: str
    items: Sequence[str]
    then: Callable[[int], Screen]
    back: Next | None = None
    index: int = 0
    hint: str = ""
    hints: Sequence[str] = ()
    dice: Callable[[int, Key], Screen | None] | None = None
    dimmed: Sequence[int] = ()       # items that cannot be taken now (OK says why)
    spoken: Sequence[Spoken] | None = None
    remind: Spoken | None = None
    ask: bool = False
    asked: bool = False              # the question was said (with the item lit)

    def view(self, app: App) -> View:
        hint = self.hints[self.index] if self.index < len(self.hints) else ""
        return Menu(app.header(self.title), tuple(self.items), self.index,
                    hint or self.hint or app.t("ok_choose"), tuple(self.dimmed))

    def lit(self, app: App) -> Spoken | None:
        lit = self._lit_item()
        if lit is None or not self.ask or self.asked:
            return lit
        self.asked = True
        return item("say_item_ask", question=self._question(), item=lit)

    def _question(self) -> Spoken:
        """The title said as a question: ended as a sentence, so that its answer starts one
        ("One more go? No firing. Yes")."""
        title = self.title.strip()
        return said_item(title if title[-1:] in "?.!" else f"{title}.")

    def _lit_item(self) -> Spoken | None:
        if self.spoken is not None and self.index < len(self.spoken):
            return self.spoken[self.index]
        return said_item(self.items[self.index], self.index in self.dimmed) \
            if self.items else None

    def reminder(self, app: App) -> Spoken | None:
        if self.ask:                 # the question again, then its answer lit
            return prompt("say_item", item=self._question())
        return self.remind

    def on(self, app: App, key: Key) -> Screen:
        if key in (Key.CW, Key.CCW):
            step = 1 if key is Key.CW else -1
            self.index = (self.index + step) % len(self.items)
            return self
        if key is Key.OK:
            return self.then(self.index)
        if key is Key.BACK:
            return self.back() if self.back else app.menu(self)
        if key in DICE_KEYS:
            made = self.dice(self.index, key) if self.dice else None
            if made is not None:
                return made
            app.cue("error")
        return self


def yes_no(app: App, title: str, then: Callable[[bool], Screen], back: Next) -> Choose:
    return Choose(title, [app.t("no"), app.t("yes")], lambda i: then(i == 1), back, ask=True)


def confirm(app: App, title: str, yes: Next, back: Next, lost: str = "play_lost",
            kept: str = "keep_playing") -> Choose:
    """Asked before anything that ends, deletes or restarts play, so a slip of a child's
    fingers loses nothing: *no* is lit, and no or a long press goes `back` to where the
    players were; yes does it. The hints say what each answer does (`lost`: what yes loses,
    `kept`: what no keeps)."""
    return Choose(title, [app.t("no"), app.t("yes")], lambda i: yes() if i == 1 else back(),
                  back, hints=[app.t(kept), app.t(lost)], ask=True)


SPIN_FRAMES = 6  # frames of tumbling dice; at the loop's animation tick this is about 0.5 s
BEAT_FRAMES = 12  # frames a view stays when the views go on by themselves: about 1 s
# ... and a view that says something: long enough for a short sentence ("Tiger one hits!");
# a longer one is not cut: the next view's outcome waits for it to end (Show.follows)
SAID_BEAT_FRAMES = 20


@dataclass
class Show(Screen):
    """Views in turn. With `animate`, the dice of each view tumble for a moment the first time
    it shows; with `play`, the views go on by themselves, a beat each.

    With `steps` the views are the steps of one action and the last is its outcome, which
    stays: OK skips straight to it (and on it goes on), the knob goes back and forth through
    the steps. Without, they are pages: OK turns to the next. `go_on`: after the last view's
    beat, on to `then` without a press.

    `says`: what the voice says of each view (None: nothing), said once, when the view is
    first shown settled (its dice stopped tumbling), so that the ear never runs ahead of the
    panel: steps skipped by OK, or shown again by the knob, are not said (`said`). Each step
    said after the first `follows` it: the voice says it once the one before has ended, never
    cutting it (a slow voice or a long name outlasts the beat).

    A dice button never just dismisses a view: it goes on only to a next screen that rolls
    with that button (the press is that roll), and is otherwise refused with a cue, so a
    child's roll is never spent on a screen. A key stops the tumbling and counts as usual."""

    views: list[View]
    then: Next
    index: int = 0
    animate: bool = False
    steps: bool = False
    play: bool = False
    go_on: bool = False
    spins: int = SPIN_FRAMES
    beats: int = 0
    seen: int = -1
    after: Screen | None = None
    row: int = 0                   # the first row of a Lines view shown: the knob scrolls
    says: Sequence[Spoken | None] = ()
    # the last view said (or passed): at first the one before `index`, seen (and said) before
    heard: int = field(init=False, default=-1)
    said_so_far: list[Spoken] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._arrive(self.index)
        self.heard = self.index - 1

    def said(self, app: App) -> Spoken | None:
        """The view shown now, said once it is settled on the panel: its dice no longer
        tumble, and no view after it was said (the knob going back says nothing again)."""
        if self.tumbling or self.index <= self.heard:
            return None
        self.heard = self.index
        said = self.says[self.index] if self.index < len(self.says) else None
        if said is None or said in self.said_so_far:
            return None            # a big MISS after its die's MISS: said once
        self.said_so_far.append(said)
        return said

    def follows(self) -> bool:
        """A step said after an earlier one of this action: it waits for that one to end."""
        return len(self.said_so_far) > 1

    @property
    def beat(self) -> int:
        """The frames the view shown stays while the views go on by themselves."""
        says = self.index < len(self.says) and self.says[self.index] is not None
        return SAID_BEAT_FRAMES if says else BEAT_FRAMES

    @property
    def to_say(self) -> bool:
        """Whether a view still to come will say something (whose turn it is waits for it)."""
        return any(said is not None for said in self.says[self.heard + 1:])

    @property
    def last(self) -> int:
        return len(self.views) - 1

    @property
    def tumbling(self) -> bool:
        return self.animate and self.spins < SPIN_FRAMES and \
            isinstance(self.views[self.index], Roll)

    @property
    def animating(self) -> bool:
        return self.tumbling or (self.play and (self.index < self.last or self.go_on))

    def _arrive(self, index: int, tumble: bool = True) -> None:
        """Show view `index` from its first row; its dice tumble if it has not been shown
        before."""
        if index != self.index:
            self.row = 0
        self.index, self.beats = index, 0
        self.spins = 0 if tumble and index > self.seen else SPIN_FRAMES
        self.seen = max(self.seen, index)

    def next(self) -> Screen:
        """The screen after the views, made once (making it may save the battle)."""
        if self.after is None:
            self.after = self.then()
        return self.after

    def view(self, app: App) -> View:
        shown = self.views[self.index]
        if self.tumbling and isinstance(shown, Roll):
            faces = tuple((face + self.spins * 7) % 6 + 1 for face in shown.faces)
            return replace(shown, faces=faces, rolling=True, total="")
        return replace(shown, index=self.row) if isinstance(shown, Lines) else shown

    def tick(self, app: App, now: float) -> Screen:
        if self.tumbling:
            self.spins += 1
        elif self.play:
            self.beats += 1
            if self.beats >= self.beat:
                if self.index < self.last:
                    self._arrive(self.index + 1)
                elif self.go_on:
                    return self.next()
        return self

    def outcome(self) -> list[View] | None:
        """Views with dice or a big word are an outcome (a restart shows them again); pages
        of text (a notice, a question) are not."""
        return self.views if any(isinstance(v, Roll | BigWord) for v in self.views) else None

    def on(self, app: App, key: Key) -> Screen:
        self.spins = SPIN_FRAMES
        if key is Key.OK:
            if self.index == self.last:
                return self.next()
            self.play = self.play and not self.steps
            self._arrive(self.last if self.steps else self.index + 1, tumble=not self.steps)
        elif key in (Key.CW, Key.CCW):
            self.play = False
            row = scrolled(self.view(app), self.row, key)     # a long text scrolls first
            if row != self.row:
                self.row = row
            else:
                step = 1 if key is Key.CW else -1
                self._arrive(min(max(self.index + step, 0), self.last), tumble=False)
        elif key in DICE_KEYS:
            after = self.next()
            if after.takes_roll(key):
                return after.on(app, key)
            app.cue("error")
        elif key is Key.BACK:
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
    says: str = "say_press"        # what the voice says: whose button, for what
    who: str = ""                  # the side the voice names, if not `side` (Cobra's players)
    details: Next | None = None    # OK: the exact figures behind the words shown, if any

    def view(self, app: App) -> View:
        return replace(self.shown, index=self.row) if isinstance(self.shown, Lines) \
            else self.shown

    def prompt(self, app: App) -> Spoken | None:
        return prompt(self.says, side=self.who or self.side)

    def takes_roll(self, key: Key) -> bool:
        return DICE_KEYS.get(key) == self.side

    def on(self, app: App, key: Key) -> Screen:
        self.row = scrolled(self.view(app), self.row, key)
        if DICE_KEYS.get(key) == self.side:
            return self.then()
        if key in DICE_KEYS:
            app.cue("error")       # the other side's button: refused, and whose it is said again
            return self
        if key is Key.BACK:
            return self.back() if self.back else app.menu(self)
        if key is Key.OK and self.details is not None:
            return self.details()
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

    def lit(self, app: App) -> Spoken | None:
        return item("say_item", item=self.face)       # the face dialled, a number in words

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

    def lit(self, app: App) -> Spoken | None:
        return item("say_item", item=self.value)

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
