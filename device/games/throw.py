"""Smart dice thrown on the table: the screen that waits for a side's dice to settle, shows
each face as its die settles and hands it to the rule (games/rolling.py), refuses what is not
a roll or not that side's die, and falls back to the side's button when a die goes quiet, so
the battle never waits forever. While it waits, the side's dice light in the side's colour
(`dice_lit`)."""
from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from cobi_companion.device.core.app import App, Next, Screen
from cobi_companion.device.core.saying import prompt
from cobi_companion.device.core.spoken import Spoken
from cobi_companion.device.core.views import Roll, View
from cobi_companion.device.ports.die_readings import NotARoll, Rolling, Settled
from cobi_companion.device.ports.events import DieFound, DieLink, DieSaid, Key, ScanDone
from cobi_companion.device.ui.widgets import DICE_KEYS
from cobi_companion.device.ui.wording import need_words
from cobi_companion.rules.dice import Need
from cobi_companion.words.grammar import SideName

# A die seen tumbling this long (by the loop's ticks) without settling has gone quiet: off the
# table, asleep mid-roll, out of reach. The side's button rolls for it instead.
QUIET_S = 10.0

Take = Callable[[str, int], Screen]         # a settled die (id) and its face: what comes next


def die_side(app: App, die: str) -> str:
    """The side a paired die is assigned to ("" for none)."""
    return app.settings.smart_dice.get(die, {}).get("side", "")


def kept_or(app: App, throw: Throw) -> Screen:
    """`throw`, or where its next die leads when a smart die gave that die's number before a
    restart (App.kept_throw): that face is taken at once and shown as thrown, no die waited
    for, as the box's own die of that number comes out the same. Asked for as it was."""
    kept = app.kept_throw()
    if kept is None:
        return throw
    after = throw._after(app, throw.take(*kept))
    if isinstance(after, Throw) and after.side == throw.side:
        after.again = throw.again
    return after


def online(app: App, side: str) -> list[str]:
    """The side's paired dice connected now."""
    return [die for die in app.settings.paired(side) if app.dice_board.online(die)]


@dataclass
class Throw(Screen):
    """Waiting for `count` dice of `side` (a button side) for `need` and the dice after it;
    `faces`: those this throw settled so far, shown. `more`: some are in already ("roll 2
    more"). `take` carries a settled face on; `press` (the side's button) has the box roll
    the rest. `who`: the side as the voice names it, where not `side` (Cobra's players)."""

    side: str
    need: Need
    count: int
    take: Take
    press: Next
    faces: tuple[int, ...] = ()
    more: bool = False
    left: int = 1                       # the dice of this throw still to settle
    again: bool = False                 # the same throw, a die of it in: asked already
    who: str = ""
    back: Next | None = None            # a long press: where the press awaited went back to
    hint: str = ""                      # "not a roll", a wrong side's die refused
    asleep: bool = False                # a die went quiet: the button rolls
    now: float | None = None            # the last tick's time
    tumbling: dict[str, float | None] = field(default_factory=dict)

    def _side(self, app: App) -> SideName:
        return app.side_word(self.who or self.side, "cobra_" if self.who else "")

    @property
    def still(self) -> int:
        """The dice asked for now: the throw's, or once some of it are in, those still to
        settle ("roll 1 more")."""
        return self.left if self.left < self.count else self.count

    def _more(self) -> bool:
        return self.more or self.left < self.count

    def asked(self, app: App) -> str:
        if self.asleep:
            return app.t("throw_die_asleep")
        return app.t("throw_more" if self._more() else "throw_dice", side=self._side(app),
                     n=self.still)

    def view(self, app: App) -> View:
        return Roll(app.header(need_words(app, self.need)), self.faces,
                    self.hint or self.asked(app), needed="", total="")

    def prompt(self, app: App) -> Spoken | None:
        """Said as a throw is asked for; not again for each die of it as it settles."""
        return None if self.again else self.reminder(app)

    def reminder(self, app: App) -> Spoken | None:
        if self.asleep:
            return prompt("say_die_asleep", side=self.who or self.side)
        return prompt("say_throw_more" if self._more() else "say_throw",
                      side=self.who or self.side, n=self.still)

    def takes_roll(self, key: Key) -> bool:
        return DICE_KEYS.get(key) == self.side

    def dice_lit(self, app: App) -> Collection[str] | None:
        return (self.side,)          # device/core/turn_lights.py lights them

    def _after(self, app: App, after: Screen) -> Screen:
        """The rule goes on: the same throw's next die keeps what this one saw."""
        if isinstance(after, Throw) and after.side == self.side:
            after.now = self.now
            # quiet still only while none of the side's dice is connected again
            after.asleep = after.asleep or (self.asleep and not online(app, self.side))
            after.tumbling = dict(self.tumbling)
            return after
        return after

    def on(self, app: App, key: Key) -> Screen:
        if DICE_KEYS.get(key) == self.side:        # the box rolls the rest, always
            return self._after(app, self.press())
        if key in DICE_KEYS or key is Key.OK:
            app.cue("error")
            return self
        if key is Key.BACK:     # the dice go dark meanwhile; lit again when it comes back
            return self._after(app, self.back() if self.back else app.menu(self))
        return self

    def tick(self, app: App, now: float) -> Screen:
        self.now = now
        for die, since in self.tumbling.items():
            if since is None:
                self.tumbling[die] = now
            elif now - since >= QUIET_S:
                self._quiet(app)
        return self

    def on_die(self, app: App, event: DieFound | ScanDone | DieSaid | DieLink) -> Screen:
        if isinstance(event, DieLink):
            if die_side(app, event.die) != self.side:
                return self
            if event.online:
                self.asleep = False        # a die of the side is back: it throws again
            elif event.die in self.tumbling or not online(app, self.side):
                self.tumbling.pop(event.die, None)
                self._quiet(app)
            return self
        if not isinstance(event, DieSaid):
            return self
        side, reading = die_side(app, event.die), event.reading
        if side != self.side:
            if side and isinstance(reading, Settled):
                self.hint = app.t("wrong_side_die", side=self._side(app))
                app.cue("error")
                app.speak(prompt("say_wrong_side_die", side=self.who or self.side))
            return self
        if isinstance(reading, Rolling):
            self.tumbling[event.die] = self.now
            self.hint = ""
        elif isinstance(reading, NotARoll):
            self.tumbling.pop(event.die, None)
            if reading.why != "handled":    # a die in a hand (a Pixel says so before every
                self.hint = app.t("not_a_roll")      # throw) is not told off: only one put
                app.speak(prompt("say_not_a_roll"))  # down tilted or moved by hand
        elif isinstance(reading, Settled):
            self.tumbling.pop(event.die, None)
            return self._after(app, self.take(event.die, reading.face))
        return self

    def _quiet(self, app: App) -> None:
        """A die went quiet: the notice, said once; the button rolls for it."""
        if not self.asleep:
            self.asleep, self.hint = True, ""
            app.speak(prompt("say_die_asleep", side=self.who or self.side))
