"""Virtual smart dice: the simulator's and the tests' double of the `SmartDice` port
(ports/smart_dice.py). No Bluetooth: each die says what a real one would, as the same events
on the main loop's queue, when the simulator or a test rolls, tilts or moves it.

A virtual die is a stand-in for a die on the table, so its face is its own (`secrets`), never
one of the box's numbered dice, unless a face is given. Like a real die it is heard only while
it is paired (`keep`) and awake.
"""
from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from cobi_companion.device.ports.die_readings import (
    GODICE,
    PIXELS,
    Battery,
    Colour,
    NotARoll,
    Rolling,
    Settled,
)
from cobi_companion.device.ports.events import DieEvent, DieFound, DieLink, DieSaid, ScanDone
from cobi_companion.device.ports.smart_dice import RGB

ASLEEP = "asleep"      # the why of a virtual die put to sleep


@dataclass(frozen=True)
class VirtualDie:
    """A virtual die: its id (an address, as a real die's), maker, advertised name, colour
    (the maker's name of it) and battery."""

    die: str
    kind: str
    name: str
    colour: str
    battery: int = 90


# The simulator's dice: two of each maker, each of its own colour.
SIM_DICE = (
    VirtualDie("C0:DE:00:00:00:01", GODICE, "GoDice_C0DE01_K_v04", "red"),
    VirtualDie("C0:DE:00:00:00:02", GODICE, "GoDice_C0DE02_K_v04", "blue"),
    VirtualDie("C0:DE:00:00:00:03", PIXELS, "Pixel C0DE03", "onyx_black", 80),
    VirtualDie("C0:DE:00:00:00:04", PIXELS, "Pixel C0DE04", "aurora_sky", 70),
)


class FakeDice:
    """Virtual dice behind the port. Safe from any thread: the simulator's keyboard and a test
    drive it while the main loop lights its dice."""

    def __init__(self, put: Callable[[DieEvent], None],
                 dice: tuple[VirtualDie, ...] = SIM_DICE) -> None:
        self.put = put
        self.dice = {die.die: die for die in dice}
        self.kept: dict[str, str] = {}
        self.asleep: set[str] = set()
        self.lit: dict[str, RGB | None] = {}       # what each die was lit in last
        self.flashed: list[str] = []               # the dice flashed, in order
        self.scans: list[float] = []
        self.started = self.closed = False
        self._lock = threading.Lock()
        self._turns: dict[str, int] = {}           # the next die of each side (roll_side)

    # --- the port ---

    def start(self) -> FakeDice:
        with self._lock:
            self.started = True
            kept = dict(self.kept)
        self._link(kept)
        return self

    def close(self) -> None:
        with self._lock:
            self.closed = True

    def scan(self, seconds: float) -> None:
        self.scans.append(seconds)
        for die in self.dice.values():
            if die.die not in self.asleep:
                self.put(DieFound(die.die, die.kind, die.name))
        self.put(ScanDone())

    def keep(self, dice: Mapping[str, str]) -> None:
        with self._lock:
            before, self.kept = self.kept, dict(dice)
            started = self.started
        for die in before.keys() - dice.keys():
            self.put(DieLink(die, False, "no longer paired"))
        if started:
            self._link({die: kind for die, kind in dice.items() if before.get(die) != kind})

    def light(self, die: str, colour: RGB | None) -> None:
        if self.online(die):
            self.lit[die] = colour

    def flash(self, die: str) -> None:
        if self.online(die):
            self.flashed.append(die)

    # --- what the simulator and the tests do with a die ---

    def online(self, die: str) -> bool:
        """Whether the die is connected: paired, of its kind, and awake."""
        known = self.dice.get(die)
        return (self.started and not self.closed and known is not None
                and self.kept.get(die) == known.kind and die not in self.asleep)

    def roll(self, die: str, face: int | None = None) -> int | None:
        """A throw of the die: it tumbles, then settles on `face` (its own when None). The
        face, or None when the die is not connected (nothing is heard)."""
        if not self.online(die):
            return None
        settled = face if face is not None else secrets.randbelow(6) + 1
        self.put(DieSaid(die, Rolling()))
        self.put(DieSaid(die, Settled(settled)))
        return settled

    def tilt(self, die: str, face: int | None = None) -> None:
        """Thrown, but it came to rest against a model: not a roll."""
        if self.online(die):
            self.put(DieSaid(die, Rolling()))
            self.put(DieSaid(die, NotARoll("tilted", face)))

    def move(self, die: str) -> None:
        """Picked up or slid by hand: not a roll."""
        if self.online(die):
            self.put(DieSaid(die, NotARoll("moved")))

    def sleep(self, die: str) -> None:
        """The die goes to sleep (or leaves the table): its link is lost."""
        was = self.online(die)
        self.asleep.add(die)
        if was:
            self.put(DieLink(die, False, ASLEEP))

    def wake(self, die: str) -> None:
        """The die wakes: a paired die connects again."""
        self.asleep.discard(die)
        if self.online(die):
            self._link({die: self.dice[die].kind})

    def roll_side(self, side: str, paired: Mapping[str, Mapping[str, str]],
                  face: int | None = None) -> int | None:
        """A throw of the side's next die (`paired`: the paired dice as the settings keep
        them, id → {"side": ...}), taking the side's connected dice in turn. The face, or
        None when the side has no die connected."""
        mine = sorted(die for die, about in paired.items()
                      if about.get("side") == side and self.online(die))
        if not mine:
            return None
        with self._lock:
            turn = self._turns.get(side, 0)
            self._turns[side] = turn + 1
        return self.roll(mine[turn % len(mine)], face)

    def _link(self, dice: Mapping[str, str]) -> None:
        """Each die connected: online, then its colour and battery, as a real die says them
        on connecting."""
        for die in dice:
            if not self.online(die):
                continue
            about = self.dice[die]
            self.put(DieLink(die, True))
            self.put(DieSaid(die, Colour(about.colour)))
            self.put(DieSaid(die, Battery(about.battery)))


# The words that throw a virtual die of a side (the simulator's keys and scripts, and the test
# keys of ports/key_fifo.py while the dice are virtual): `axis_die`, or `axis_die=4` for a face.
DIE_WORDS = {"axis_die": "axis", "allies_die": "allies"}
FACES = ("1", "2", "3", "4", "5", "6")


def die_word(word: str) -> tuple[str, int] | None:
    """The side and face (0: the die's own) a die word throws; None for any other word, and
    for a face that is not 1 to 6."""
    name, equals, face = word.partition("=")
    if name not in DIE_WORDS or (equals and face not in FACES):
        return None
    return DIE_WORDS[name], int(face) if equals else 0
