"""How the box rolls for a rule: one die at a time, by the right player's button, rolled by
the box, dialled by the player (real dice) or thrown (smart dice, games/throw.py), recorded
every way, and the rule replayed with the faces so far. Every screen that rolls goes through
here; each side's dice come from where the settings say (`Settings.dice`)."""
from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any

from cobi_companion.device.core.app import App, Next, Screen
from cobi_companion.device.core.replay import SKETCH_FILL, Replay
from cobi_companion.device.games.throw import Throw, kept_or, online
from cobi_companion.device.ui.widgets import Dial, WaitPress
from cobi_companion.device.ui.wording import need_words
from cobi_companion.rules.dice import Aim, DiceError, DiceExhausted, Need, Roller, ScriptedDice
from cobi_companion.rules.status import Side

# Rollers who are the acting side's opponent: the piece fired at, the figures attacked.
OPPONENTS = (Roller.TARGET, Roller.DEFENDER)
DIAL = "dial"               # the die of a face dialled on the box (the rolls' `die`)


def button(need: Need, acting: Side) -> str:
    """Whose dice button throws `need` ("axis" or "allies") when `acting` is the side whose
    piece fires or attacks."""
    if need.roller is Roller.AXIS or need.roller is Roller.ALLIES:
        return need.roller.value
    return (acting.enemy if need.roller in OPPONENTS else acting).value


def awaited(app: App, side: str, press: WaitPress) -> Screen:
    """A side's dice button awaited (`press`); with smart dice, their throw instead: the
    press's roll made now gives the throw screen, as nothing is rolled without faces."""
    if app.settings.source(side) != "smart":
        return press
    thrown = press.then()
    if isinstance(thrown, Throw):
        thrown.who, thrown.back = press.who, press.back
    return thrown


def face_for(app: App, need: Need, side: str, then: Callable[[int], Screen],
             asked: str = "") -> Screen:
    """One die for `need`, thrown for `side`: the box rolls it, or with real dice the player
    dials the face their die shows (the dial says `asked`, by default the die the need
    names), or with smart dice it is thrown.
    Either way it is recorded, then `then(face)`."""
    source = app.settings.source(side)
    if source == DIAL:
        def dialled(face: int) -> Screen:
            app.record(face, need, side, DIAL)
            return then(face)
        return Dial(asked or need_words(app, need), dialled)
    if source == "smart":
        def thrown(die: str, face: int) -> Screen:
            app.thrown(face, need, side, die)
            return then(face)
        return kept_or(app, Throw(side, need, 1, thrown, lambda: then(app.roll(need, side)),
                                  asleep=not online(app, side)))
    return then(app.roll(need, side))


Wait = Callable[[str, Need], Screen]


def gather(app: App, replay: Replay[Any], acting: Side, side: str, wait: Wait, done: Next,
           one_press: frozenset[Aim] = frozenset(), first: bool = True) -> Screen:
    """Roll the dice the rule needs while they are `side`'s; when the next one is the other
    player's, or is one of `one_press` (each of those takes a press of its own), return
    `wait(button, need)`. Once the rule is resolved, `done()`."""
    source = app.settings.source(side)
    if source == DIAL:
        return _dialled(app, replay, acting, side, wait, done, one_press, first)
    if source == "smart":
        return _thrown(app, Run(replay, acting, side, wait, done, one_press), first, None, ())
    return _rolled(app, replay, acting, side, wait, done, one_press, first)


def _rolled(app: App, replay: Replay[Any], acting: Side, side: str, wait: Wait, done: Next,
            one_press: frozenset[Aim], first: bool) -> Screen:
    """`gather` with the box's dice: one run of the rule rolls them all."""
    rolls_now = first

    def take(need: Need) -> int | None:
        # the box rolls its own dice inside one run of the rule (Replay.roll_while)
        nonlocal rolls_now
        if button(need, acting) != side or (not rolls_now and need.aim in one_press):
            return None
        rolls_now = False
        return app.roll(need, side)
    need = replay.roll_while(take)
    if need is None:
        return done()
    return wait(button(need, acting), need)


def _dialled(app: App, replay: Replay[Any], acting: Side, side: str, wait: Wait, done: Next,
             one_press: frozenset[Aim], first: bool) -> Screen:
    """`gather` with real dice: each face is dialled on a screen of its own, so the rule is
    run again with the faces so far after each one."""
    need = replay.need()
    if need is None:
        return done()
    roller = button(need, acting)
    if roller != side or (not first and need.aim in one_press):
        return wait(roller, need)

    def rolled(face: int) -> Screen:
        replay.add(face, need)
        return _dialled(app, replay, acting, side, wait, done, one_press, first=False)
    return face_for(app, need, roller, rolled)


class Run:
    """What a press of `side`'s button rolls in the rule `replay` runs: its dice, up to the
    other player's or the next of `one_press`."""

    def __init__(self, replay: Replay[Any], acting: Side, side: str, wait: Wait, done: Next,
                 one_press: frozenset[Aim]) -> None:
        self.replay, self.acting, self.side = replay, acting, side
        self.wait, self.done, self.one_press = wait, done, one_press

    def takes(self, need: Need, first: bool) -> bool:
        """Whether `need` is this press's die (`first`: no die of the press rolled yet)."""
        return button(need, self.acting) == self.side and \
            (first or need.aim not in self.one_press)

    def certain(self, first: bool) -> int:
        """How many dice this press needs whatever the faces still to come show: the rule run
        dry with each face in turn for the dice to come, the fewest of its needs in a row
        that are this press's (a 6 asks for a D6+ extra, a hit for damage dice: those are
        asked for once they are certain, as "roll 1 more")."""
        fewest = SKETCH_FILL
        for filler in range(1, 7):
            dry = _Dry(self.replay.faces, filler)
            with suppress(DiceError):   # the dice ran out: the needs so far count
                self.replay.run(dry)
            count, start = 0, first
            for need in dry.needs:
                if not self.takes(need, start):
                    break
                count, start = count + 1, False
            fewest = min(fewest, count)
        return max(fewest, 1)


class _Dry(ScriptedDice):
    """The faces so far, then `filler` for every die to come, each need noted."""

    def __init__(self, faces: list[int], filler: int) -> None:
        super().__init__(faces)
        self.filler, self.needs = filler, list[Need]()

    def roll(self, need: Need) -> int:
        if self.used < len(self.faces):
            return super().roll(need)
        if len(self.needs) >= SKETCH_FILL:
            raise DiceExhausted("a dry run asks no more", need)
        self.needs.append(need)
        return self.filler


def _thrown(app: App, run: Run, first: bool, thrown: tuple[str, int] | None,
            shown: tuple[int, ...], asked: Throw | None = None) -> Screen:
    """`gather` with smart dice: the face `thrown` (a die and its face, as it settled) is the
    press's next die, recorded at once; while the press needs more of the side's dice, the
    throw screen waits for them, showing the faces so far (`shown`). The dice are asked for a
    throw at a time (`asked`: the last throw screen): as many as are certain, at most as many
    as the side has; the screen says so again ("roll 2 more") once that throw's are all in."""
    side, pending = run.side, [thrown] if thrown is not None else []

    def take(need: Need) -> int | None:
        nonlocal first
        if not pending or not run.takes(need, first):
            return None
        die, face = pending.pop()
        first = False
        app.thrown(face, need, side, die)
        return face
    need = run.replay.roll_while(take)
    if need is None:
        return run.done()
    if not run.takes(need, first):
        return run.wait(button(need, run.acting), need)
    dice = online(app, side)
    if asked is not None and asked.left > 1:      # this throw's other dice still to settle
        count, more, left = asked.count, asked.more, asked.left - 1
    else:
        count = min(run.certain(first), len(dice)) if dice else run.certain(first)
        more, left = bool(shown), count
    throw = Throw(side, need, count,
                  lambda die, face: _thrown(app, run, first, (die, face), (*shown, face),
                                            throw),
                  lambda: _rolled(app, run.replay, run.acting, side, run.wait, run.done,
                                  run.one_press, first),
                  faces=shown, more=more, left=left, again=left < count,
                  asleep=not dice)
    return kept_or(app, throw)
