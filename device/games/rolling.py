"""How the box rolls for a rule: one die at a time, by the right player's button, rolled by
the box or (with real dice) dialled by the player, recorded either way, and the rule replayed
with the faces so far. Every screen that rolls goes through here."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cobi_companion.device.core.app import App, Next, Screen
from cobi_companion.device.core.replay import Replay
from cobi_companion.device.ui.widgets import Dial
from cobi_companion.device.ui.wording import need_words
from cobi_companion.rules.dice import Aim, Need, Roller
from cobi_companion.rules.status import Side

# Rollers who are the acting side's opponent: the piece fired at, the figures attacked.
OPPONENTS = (Roller.TARGET, Roller.DEFENDER)


def button(need: Need, acting: Side) -> str:
    """Whose dice button throws `need` ("axis" or "allies") when `acting` is the side whose
    piece fires or attacks."""
    if need.roller is Roller.AXIS or need.roller is Roller.ALLIES:
        return need.roller.value
    return (acting.enemy if need.roller in OPPONENTS else acting).value


def face_for(app: App, need: Need, side: str, then: Callable[[int], Screen],
             asked: str = "") -> Screen:
    """One die for `need`, thrown for `side`: the box rolls it, or with real dice the player
    dials the face their die shows (the dial says `asked`, by default the die the need
    names).
    Either way it is recorded, then `then(face)`."""
    if app.settings.real_dice:
        def dialled(face: int) -> Screen:
            app.record(face, need, side)
            return then(face)
        return Dial(asked or need_words(app, need), dialled)
    return then(app.roll(need, side))


Wait = Callable[[str, Need], Screen]


def gather(app: App, replay: Replay[Any], acting: Side, side: str, wait: Wait, done: Next,
           one_press: frozenset[Aim] = frozenset(), first: bool = True) -> Screen:
    """Roll the dice the rule needs while they are `side`'s; when the next one is the other
    player's, or is one of `one_press` (each of those takes a press of its own), return
    `wait(button, need)`. Once the rule is resolved, `done()`."""
    if app.settings.real_dice:
        return _dialled(app, replay, acting, side, wait, done, one_press, first)
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
