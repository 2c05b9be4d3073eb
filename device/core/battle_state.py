"""The battle the box remembers: roster and marks, round, whose turn, and the log.

Saved as a plain dict after every completed action, so a pulled plug resumes at the last one.
The log's lines are saved as typed entries (device/core/battle_log.py); a battle saved before
them has sentences for lines, kept as they are.
The two levels share `BattleState` and each has a type of its own, which names its level (a
class constant: a battle of one type at another level cannot be made): `EasyBattle` (its round
ends by the Easy level's rule) and `TankBattle`, which also keeps the defender, its turn (the
activations and what each active piece did), the shots a squad has left, a squad's shot, the
side that gave up, and the match it belongs to, if any. `BATTLE_TYPES` lists them, in the order
of the rules' levels (rules/levels.py `RULE_SETS`).
"""
from __future__ import annotations

import copy
import secrets
from dataclasses import KW_ONLY, dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Self

from cobi_companion.cards import CardBook
from cobi_companion.device.core.battle_log import Line, SavedLog, loaded
from cobi_companion.device.core.memo import ByIdentity
from cobi_companion.rules.battle import Battle, Piece, Ride
from cobi_companion.rules.card import Facing
from cobi_companion.rules.house import HouseRules
from cobi_companion.rules.saved import Data
from cobi_companion.rules.status import Side, Status
from cobi_companion.rules.tank import turns
from cobi_companion.rules.tank.scoring import Match

if TYPE_CHECKING:      # fire at soft targets is imported only when a battle fires at them
    from cobi_companion.rules.tank.soft_fire import SoftPlan

LOG_SAVED = 200              # the log's last lines saved with the battle


def piece_dict(piece: Piece) -> dict[str, Any]:
    data: dict[str, Any] = {"label": piece.label, "side": piece.side.value,
                            "card": piece.card.key, "figures": piece.figures,
                            "status": piece.status.words()}
    if piece.riding is not None:      # only a rider says it: with nobody riding, a save is
        data["riding"] = piece.riding.to_dict()   # as it was before riders were kept
    return data


# So are a piece and a turn: frozen, and most of them the same objects as at the last save.
_SAVED_PIECES: ByIdentity[Piece, dict[str, Any]] = ByIdentity(piece_dict)
_SAVED_TURNS: ByIdentity[turns.Turn, dict[str, Any]] = ByIdentity(turns.Turn.to_dict, size=16)


def piece_from(data: dict[str, Any], book: CardBook) -> Piece:
    card = book.get(data["card"] if "card" in data else data["set"])  # "set": older saves
    riding = data.get("riding")            # older saves: nobody rides
    return Piece(data["label"], Side(data["side"]), card, Status.from_words(data["status"]),
                 data.get("figures", card.crew),
                 None if riding is None else Ride.from_dict(riding))


@dataclass(frozen=True)
class LastShot(Data):
    """A side's last shot at one piece, as it was planned: its target is lit first in the
    side's next choice of a target; a main gun's shot is offered again ("Again"), fired with
    one press of the firer's button."""

    firer: str
    target: str
    facing: Facing = Facing.FRONT
    hull_down: bool = False
    range_cm: float | None = None
    over: bool = False                 # the players said over 100 cm, without a distance
    # The Tank Game turn it was fired in: its range and hull down answers hold until the
    # firer or the target moves (TankBattle.answers_hold). None: saved before it was kept.
    turn: int | None = None


@dataclass(frozen=True)
class SquadAim:
    """A piece's single shot at soft targets in turn `turn`, as fired (the table's values
    dialled for it too): the squad's next figures fire the same (device/games/tank/squad.py)."""

    turn: int
    plan: SoftPlan


@dataclass
class MatchState(Data):
    """A Tank Game match: two battles with the same roster, the sides swapped for the second.

    `roster` is every piece as it stood at the start (the second battle starts from it again);
    `record` holds the battles played."""

    number: int                        # the battle being played: 1 or 2
    roster: list[dict[str, Any]]
    record: Match = field(default_factory=Match)


@dataclass
class BattleState:
    """What a battle of each level keeps: the pieces, round, whose action, the log, saved
    after every step (a level's own type adds what it alone keeps, and names its level)."""

    level: ClassVar[str]               # the rules level (rules/levels.py), saved as "level"
    # The word-table keys of the roster's hint and of what each side needs (games/roster.py).
    roster_hint: ClassVar[str]
    roster_need: ClassVar[str]
    battle: Battle
    _: KW_ONLY                         # the rest by name: a level given first is refused
    id: str = field(default_factory=lambda: secrets.token_hex(6))
    round: int = 1
    first: Side | None = None          # who acts first this round (initiative / defender)
    active: Side | None = None         # whose action it is now
    acted: list[Side] = field(default_factory=list)
    passed: list[bool] = field(default_factory=list)   # which of `acted` were passes
    winner: Side | None = None
    log: list[Line] = field(default_factory=list)     # typed entries (old saves: strings)
    last_cm: dict[str, int] = field(default_factory=dict)      # ranges dialled (not saved)
    # Each side's last shot and the piece that acted last: where its next choice starts.
    last_shot: dict[Side, LastShot] = field(default_factory=dict)
    last_actor: dict[Side, str] = field(default_factory=dict)
    house: HouseRules = field(default_factory=HouseRules)   # chosen before the battle
    _saved_log: SavedLog = field(default_factory=lambda: SavedLog(LOG_SAVED), init=False,
                                 repr=False, compare=False)
    grows: ClassVar[tuple[str, ...]] = ("log",)      # appended by the store (ports/grown.py)

    def __post_init__(self) -> None:
        if self.battle.level != self.level:
            raise ValueError(f"a {type(self).__name__} is a battle at the {self.level!r} level, "
                             f"not {self.battle.level!r}")

    def alive(self, side: Side) -> list[Piece]:
        return [p for p in self.battle.side(side) if not p.gone]

    def snapshot(self) -> Self:
        """The battle as it stands now, for a save made data later (once the frame is on the
        panel): copies of what changes in place (the log, the sides that acted, the shots, the
        match); the rest is frozen (pieces, turn, a squad's shot) or a plain value. A pointer
        copy of the log instead of every line made data on the press."""
        copied = copy.copy(self)            # the log's SavedLog is shared: it checks its lines
        copied.acted, copied.log = list(self.acted), list(self.log)
        copied.passed = list(self.passed)
        copied.last_shot, copied.last_actor = dict(self.last_shot), dict(self.last_actor)
        return copied

    def set_status(self, label: str, status: Status) -> None:
        self.battle = self.battle.with_status(label, status)

    def fired(self, aim: LastShot) -> LastShot:
        """The shot `aim` as the side's last shot, marked with when it was fired where a
        level keeps it (the Tank Game's turn)."""
        return aim

    def answers_hold(self, aim: LastShot) -> bool:
        """Whether the last shot's answers (hull down, the range) still hold: the Easy level
        asks none."""
        return True

    def begin_round(self, first: Side) -> None:
        self.first, self.active, self.acted, self.passed = first, first, [], []

    def round_over(self) -> bool:
        """Whether the round is over after the last action (each level's own rule)."""
        raise NotImplementedError

    def end_action(self, passed: bool = False) -> bool:
        """The active side has acted (`passed`: it passed): hand over, or end the round. True
        if the round ended (`round_over`)."""
        assert self.active is not None
        self.acted.append(self.active)
        self.passed.append(passed)
        if not self.round_over():
            self.active = self.active.enemy
            return False
        self.round += 1
        self.active = None
        return True

    # Saved by hand, not by its types (rules/saved.py): a piece is saved by its card's key and
    # read back through the card book, the pieces and the log are made data through caches of
    # what the last save made, and older saves' keys ("vehicles", "set") are still read.
    def to_dict(self) -> dict[str, Any]:
        data = {
            "id": self.id, "level": self.level, "round": self.round,
            "first": _side(self.first), "active": _side(self.active),
            "acted": [s.value for s in self.acted],
            "winner": _side(self.winner),
            "log": self._saved_log(self.log),
            "pieces": [_SAVED_PIECES(p) for p in self.battle.pieces],
            "last_shot": {side.value: shot.to_dict() for side, shot in self.last_shot.items()},
            "last_actor": {side.value: label for side, label in self.last_actor.items()},
            "passed": list(self.passed),
            "house_rules": self.house.to_dict(),
        }
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], book: CardBook) -> Self:
        if data.get("level", cls.level) != cls.level:
            raise ValueError(f"a saved battle at the {data['level']!r:.40} level is no "
                             f"{cls.__name__}")
        pieces = tuple(piece_from(p, book)
                       for p in data.get("pieces", data.get("vehicles", [])))
        state = cls(
            battle=Battle(cls.level, pieces), id=data["id"], round=data["round"],
            first=_to_side(data["first"]), active=_to_side(data["active"]),
            acted=[Side(s) for s in data["acted"]],
            winner=_to_side(data["winner"]), log=[loaded(line) for line in data["log"]],
            last_shot={Side(k): LastShot.from_dict(v)
                       for k, v in (data.get("last_shot") or {}).items()},
            last_actor={Side(k): str(v) for k, v in (data.get("last_actor") or {}).items()},
            # saved before the house rules: the notes' readings, and no side has passed
            house=cls.saved_house(dict(data.get("house_rules") or {})))
        state.passed = [bool(p) for p in data.get("passed") or [False] * len(state.acted)]
        state.load_own(data)
        return state

    @classmethod
    def saved_house(cls, house: dict[str, Any]) -> HouseRules:
        """A save's house rules."""
        return HouseRules.from_dict(house)

    def load_own(self, data: dict[str, Any]) -> None:
        """What a level's own type keeps, from its save."""


@dataclass(kw_only=True)
class EasyBattle(BattleState):
    """A battle at the Easy level."""

    level: ClassVar[str] = "easy"
    roster_hint: ClassVar[str] = "roster_hint"
    roster_need: ClassVar[str] = "roster_need"

    def round_over(self) -> bool:
        """The Easy level's round is a rule of its own (`easy.round_over`, by the house rule
        easy_round)."""
        # Imported here: the Easy level's module brings its odds, which the roster (and a
        # first press the instant the start menu is up) does not wait for.
        from cobi_companion.rules.easy import fire as easy

        return easy.round_over(self.passed, self.house)


@dataclass(kw_only=True)
class TankBattle(BattleState):
    """A Tank Game battle: its defender, the active side's turn, the shots a squad has left,
    a squad's shot, the side that gave up and the match it belongs to."""

    level: ClassVar[str] = "tank"
    roster_hint: ClassVar[str] = "roster_hint_tank"
    roster_need: ClassVar[str] = "roster_need_piece"
    defender: Side | None = None       # the defender moves first every turn
    turn: turns.Turn | None = None     # the active side's turn
    shots: dict[str, list[int]] = field(default_factory=dict)  # a squad firing: [fired, of]
    gave_up: Side | None = None
    match: MatchState | None = None
    aims: dict[str, SquadAim] = field(default_factory=dict)    # a squad's shot (not saved)
    # Each piece that changed place in an ended turn: the last such turn's number (the turn
    # in play is read from `turn`). Saved: a pulled plug keeps what moved since a shot.
    moved: dict[str, int] = field(default_factory=dict)

    def round_over(self) -> bool:
        """A Tank Game round is each side's turn once."""
        return len(self.acted) >= 2

    def fired(self, aim: LastShot) -> LastShot:
        return aim if self.turn is None else replace(aim, turn=self.turn.number)

    def answers_hold(self, aim: LastShot) -> bool:
        """Hull down and over 100 cm hold while neither the firer nor the target changed
        place since the shot was fired (rules.tank.turns.changed_place); a shot saved before
        the box kept its turn is asked again, rather than guessed."""
        if aim.turn is None:
            return False
        return not any(self.moved_since(label, aim.turn) for label in (aim.firer, aim.target))

    def moved_since(self, label: str, number: int) -> bool:
        """Whether the piece changed place in turn `number` or later. A piece that moved in
        the turn its side fired moved after the shot (rule 10: active pieces that have not
        moved may fire); the target's side does not act in the firer's turn."""
        if self.moved.get(label, 0) >= number:
            return True
        turn = self.turn
        return turn is not None and turn.number >= number and \
            label in turns.changed_place(turn, self.battle)

    def end_turn(self) -> None:
        """The turn in play ends: who changed place in it is kept by its number."""
        if self.turn is not None:
            for label in turns.changed_place(self.turn, self.battle):
                self.moved[label] = self.turn.number

    def snapshot(self) -> Self:
        copied = super().snapshot()
        copied.moved = dict(self.moved)
        copied.shots = {label: list(shots) for label, shots in self.shots.items()}
        copied.match = copy.copy(self.match)
        return copied

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "defender": _side(self.defender),
                "turn": None if self.turn is None else _SAVED_TURNS(self.turn),
                "shots": {k: list(v) for k, v in self.shots.items()},
                "gave_up": _side(self.gave_up),
                "match": None if self.match is None else self.match.to_dict(),
                "moved": dict(self.moved)}

    @classmethod
    def saved_house(cls, house: dict[str, Any]) -> HouseRules:
        """A Tank Game saved before the house rule soft_table was played with the values the
        players dialled (your table): it goes on so, rather than switching to our estimate
        without a word (a new battle's default)."""
        house.setdefault("soft_table", "printed")
        return HouseRules.from_dict(house)

    def load_own(self, data: dict[str, Any]) -> None:
        self.defender = _to_side(data.get("defender"))
        self.shots = {str(k): [int(n) for n in v]
                      for k, v in (data.get("shots") or {}).items()}
        self.gave_up = _to_side(data.get("gave_up"))
        # saved before moves were kept: none known (a last shot of then is asked again)
        self.moved = {str(k): int(v) for k, v in (data.get("moved") or {}).items()}
        if data.get("turn"):
            self.turn = turns.Turn.from_dict(data["turn"])
        elif self.active is not None:
            # saved before the box kept turns: the active side's turn, nothing done yet
            number = 2 * (self.round - 1) + len(self.acted) + 1
            self.turn = turns.Turn(number, self.active)
        if data.get("match"):
            self.match = MatchState.from_dict(data["match"])


def _side(side: Side | None) -> str | None:
    return None if side is None else side.value


def _to_side(value: str | None) -> Side | None:
    return None if value is None else Side(value)


# Each level's battle type, in the order of the rules' levels: the roster begins a battle of its
# level with it (each game's entry, games/easy_game.py and games/tank/game.py, names its own).
BATTLE_TYPES: tuple[type[BattleState], ...] = (EasyBattle, TankBattle)


def battle_type(level: str) -> type[BattleState]:
    """The battle type of the rules level `level`."""
    for kind in BATTLE_TYPES:
        if kind.level == level:
            return kind
    raise ValueError(f"no battle at the {level!r:.40} level")
