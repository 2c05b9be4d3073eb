"""Tank Game turns (rules 6-9 and 11-15): activations, the actions of active pieces, the extra
activation, off-map placement, squads getting on and off vehicles, and a vehicle that lost its
commander.

The defender plays first; the sides alternate turns. In its turn a side activates 1 to 5
pieces, at most one of them a model (vehicle or gun); each active piece may move, fire, hide,
take cover or reload, each at most once. If none of them fired, the side gets one extra
activation whose pieces may not fire. Placing pieces that wait off the map costs no activation.

A squad is the box's bookkeeping of figures with the same card: an activation takes some or all
of its figures (up to 5 in all), and the figures of a squad not yet activated this turn may go
in the turn's extra activation (docs/rules-notes.md, "Big squads").

Everything here is bookkeeping over immutable records: a function either refuses with a
`RulesError` or returns the new `Turn` (and the `Battle`, where a mark changes). The dice of a
shot or a reload are rolled by `hard_fire`, after the turn has allowed the action.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from cobi_companion.rules.tank.refusals import TankRefusal

from ..battle import Battle, Piece, Ride
from ..card import Kind, Mount, Template
from ..distance import Measurement
from ..english import Word
from ..errors import RulesError
from ..house import DEFAULT, HouseRules
from ..saved import Data, saved
from ..status import Side
from .hiding import can_hide, conceal, reveal

MAX_PIECES = 5            # figures and models in one activation: a squad counts its figures
MAX_MODELS = 1            # vehicles and guns in one activation
MAX_PLACED_VEHICLES = 2   # vehicles a side may place from off the map in one turn
COMMANDER_AWAY_TURNS = 2  # a vehicle that left to replace its commander: the next friendly turn
GUN = "gun"               # the main gun in the record of an activation's shots (AP and HE)


class Action(StrEnum):
    MOVE = "move"
    FIRE = "fire"
    HIDE = "hide"
    TAKE_COVER = "take_cover"
    RELOAD = "reload"
    LEAVE = "leave"        # drive off a friendly edge (a vehicle that lost its commander)

    @property
    def past(self) -> str:
        return _PAST[self]

    @property
    def done(self) -> str:
        """'has already ...'"""
        return _DONE.get(self, _PAST[self])


_PAST = {Action.MOVE: "moved", Action.FIRE: "fired", Action.HIDE: "hid",
         Action.TAKE_COVER: "took cover", Action.RELOAD: "reloaded",
         Action.LEAVE: "left the map"}
_DONE = {Action.HIDE: "hidden", Action.TAKE_COVER: "taken cover"}


@dataclass(frozen=True)
class Done(Data):
    """One action of one active piece."""

    label: str = field(metadata=saved(key="piece"))
    action: Action
    note: str = ""           # what the device wants to keep with it, like "at Sherman 1: hit"
    vehicle: str = ""        # a move that got on a vehicle: that vehicle


@dataclass(frozen=True)
class Shot(Data):
    """One weapon fired once by an active piece (a squad: by one of its figures)."""

    label: str = field(metadata=saved(key="piece"))
    weapon: str              # a weapon of its card, or GUN: the main gun (AP or HE)


@dataclass(frozen=True)
class Member(Data):
    """A piece in an activation and what it counts towards the 5."""

    label: str = field(metadata=saved(key="piece"))
    count: int               # a squad: its figures activated; a vehicle or gun: 1
    model: bool
    of: int = 0              # part of a squad: the squad's figures then (0: all of it went)

    @property
    def shown(self) -> str:
        """'Tiger 1', 'Rifle 1 (3)', part of a squad 'Rifle 1 (5/8)'."""
        if self.model:
            return self.label
        return f"{self.label} ({self.count}/{self.of})" if self.of else \
            f"{self.label} ({self.count})"


@dataclass(frozen=True)
class Activation:
    """The pieces acting together in one activation, and what each has done in it."""

    members: tuple[Member, ...]
    extra: bool = False      # the extra activation after one without fire: no firing
    done: tuple[Done, ...] = ()
    closed: bool = False
    shots: tuple[Shot, ...] = ()   # each weapon fired, once a figure (rule 10; grenades)
    # the house rules that changed it (extra_activation = same_pieces: a piece again)
    house_rules: tuple[tuple[str, str], ...] = ()

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(m.label for m in self.members)

    @property
    def size(self) -> int:
        return sum(m.count for m in self.members)

    @property
    def fired(self) -> bool:
        return any(d.action is Action.FIRE for d in self.done)

    def did(self, label: str, action: Action) -> bool:
        return any(d.label == label and d.action is action for d in self.done)

    def moved(self, label: str) -> bool:
        return self.did(label, Action.MOVE) or self.did(label, Action.LEAVE)

    def member(self, label: str) -> Member | None:
        return next((m for m in self.members if m.label == label), None)

    def fired_by(self, label: str, weapon: str | None = None) -> int:
        """How many shots the piece fired in this activation (of one weapon, if named)."""
        return sum(1 for s in self.shots if s.label == label
                   and (weapon is None or s.weapon.lower() == weapon.lower()))

    def text(self) -> str:
        """'activated: Tiger 1, Rifle 1 (3) — moved: Tiger 1 — fired: Rifle 1'."""
        head = "extra activation" if self.extra else "activated"
        parts = [f"{head}: " + ", ".join(m.shown for m in self.members)]
        parts += [f"house rule {name} = {value}" for name, value in self.house_rules]
        for action in Action:
            who = [d.label for d in self.done if d.action is action]
            if who:
                parts.append(f"{action.past}: " + ", ".join(who))
        return " — ".join(parts)

    # Saved by hand, not by its types (rules/saved.py): its text is written too.
    def to_dict(self) -> dict[str, Any]:
        return {"pieces": [m.to_dict() for m in self.members], "extra": self.extra,
                "done": [d.to_dict() for d in self.done], "closed": self.closed,
                "shots": [s.to_dict() for s in self.shots], "text": self.text(),
                **({"house_rules": dict(self.house_rules)} if self.house_rules else {})}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Activation:
        # a battle saved before shots were kept has none: its open activation fired nothing
        # that is counted (its fire action is still recorded in `done`)
        return cls(tuple(Member.from_dict(m) for m in data["pieces"]), bool(data["extra"]),
                   tuple(Done.from_dict(d) for d in data["done"]), bool(data["closed"]),
                   tuple(Shot.from_dict(s) for s in data.get("shots", [])),
                   tuple((str(k), str(v)) for k, v in (data.get("house_rules") or {}).items()))


@dataclass(frozen=True)
class Placed(Data):
    """A piece placed at its side's edge from off the map this turn."""

    label: str = field(metadata=saved(key="piece"))
    vehicle: bool                    # counts towards the 2 vehicles a turn
    riding_with: str | None = None   # figures riding or loaded, a gun towed: free


def return_turn(left_in: int) -> int:
    """A vehicle that left the map in turn `left_in` to replace its commander comes back at the
    end of the following friendly turn: this turn number."""
    return left_in + COMMANDER_AWAY_TURNS


@dataclass(frozen=True)
class Away:
    """A vehicle gone off a friendly edge to replace its killed commander."""

    label: str
    left_in: int

    @property
    def returns_in(self) -> int:
        return return_turn(self.left_in)

    # Saved by hand, not by its types (rules/saved.py): returns_in is written too.
    def to_dict(self) -> dict[str, Any]:
        return {"piece": self.label, "left_in": self.left_in, "returns_in": self.returns_in}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Away:
        return cls(str(data["piece"]), int(data["left_in"]))


@dataclass(frozen=True)
class Turn:
    """One side's turn: its activations, the pieces it placed, and vehicles away for a new
    commander (carried from turn to turn)."""

    number: int              # 1 is the defender's first turn
    side: Side
    activations: tuple[Activation, ...] = ()
    placed: tuple[Placed, ...] = ()
    away: tuple[Away, ...] = ()

    @property
    def current(self) -> Activation | None:
        """The open activation, if any."""
        if self.activations and not self.activations[-1].closed:
            return self.activations[-1]
        return None

    @property
    def activated(self) -> tuple[str, ...]:
        return tuple(label for a in self.activations for label in a.labels)

    def figures_activated(self, label: str) -> int:
        """What the piece has counted towards activations this turn: a squad the figures
        activated (part of it in one activation, more in the extra one), a model 1."""
        return sum(m.count for a in self.activations for m in a.members if m.label == label)

    @property
    def extra_due(self) -> bool:
        """The activation ended without fire: one extra activation may follow."""
        return len(self.activations) == 1 and self.activations[0].closed \
            and not self.activations[0].fired

    @property
    def can_activate(self) -> bool:
        return not self.activations or self.extra_due

    @property
    def vehicles_placed(self) -> int:
        return sum(1 for p in self.placed if p.vehicle)

    def returns(self, label: str) -> int | None:
        """The turn at whose end a vehicle away for a new commander comes back, or None."""
        for away in self.away:
            if away.label == label:
                return away.returns_in
        return None

    def text(self) -> list[str]:
        lines = [f"turn {self.number}: {self.side.value}"]
        lines += [a.text() for a in self.activations]
        if self.placed:
            lines.append("placed: " + ", ".join(
                p.label + (f" (with {p.riding_with})" if p.riding_with else "")
                for p in self.placed))
        lines += [f"away for a new commander: {a.label}, back at the end of turn "
                  f"{a.returns_in}" for a in self.away]
        return lines

    # Saved by hand, not by its types (rules/saved.py): its text is written too.
    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "side": self.side.value,
                "activations": [a.to_dict() for a in self.activations],
                "placed": [p.to_dict() for p in self.placed],
                "away": [a.to_dict() for a in self.away], "text": self.text()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Turn:
        return cls(int(data["number"]), Side(data["side"]),
                   tuple(Activation.from_dict(a) for a in data.get("activations", [])),
                   tuple(Placed.from_dict(p) for p in data.get("placed", [])),
                   tuple(Away.from_dict(a) for a in data.get("away", [])))


def first_turn(defender: Side) -> Turn:
    """The defender plays first."""
    return Turn(1, defender)


# --- activating ------------------------------------------------------------------------------


def _own_in_the_fight(turn: Turn, piece: Piece) -> None:
    """Refuse a piece of the other side, or one out of the fight."""
    if piece.side is not turn.side:
        raise RulesError(TankRefusal.NOT_YOUR_PIECE, label=piece.label, side=piece.side.value,
                         playing=turn.side.value)
    if piece.gone:
        raise RulesError(TankRefusal.OUT_OF_FIGHT, label=piece.label)


def comes_again_by_house(turn: Turn, label: str, house: HouseRules) -> bool:
    """Whether the piece may come again in the extra activation, by the house rule
    extra_activation = same_pieces: it was in the turn's first activation."""
    return house.extra_activation == "same_pieces" and turn.extra_due \
        and label in turn.activations[0].labels



def left_to_activate(turn: Turn, piece: Piece, house: HouseRules = DEFAULT) -> int:
    """What the piece may still count towards an activation this turn: a model 1 until it was
    activated, a squad (or a destroyed gun's crew) its figures not yet activated this turn.
    Rule 7 counts figures, not squads ("the five figures or four of the figures and the
    tank"): a squad is only the box's count of figures with the same card. By the house rule
    extra_activation = same_pieces a piece of the first activation may go again, whole."""
    if comes_again_by_house(turn, piece.label, house):
        return 1 if piece.model else (piece.figures or 0)
    if piece.model:
        return 0 if piece.label in turn.activated else 1
    return max(0, (piece.figures or 0) - turn.figures_activated(piece.label))


def _member(turn: Turn, piece: Piece, figures: int | None = None,
            house: HouseRules = DEFAULT) -> Member:
    """Refuse a piece that cannot be activated now; what it counts towards the 5. `figures`:
    how many of a squad's figures go (None: all those not yet activated this turn)."""
    _own_in_the_fight(turn, piece)
    if piece.status.off_map:
        raise RulesError(TankRefusal.OFF_MAP_PLACE_FIRST, label=piece.label)
    if any(p.label == piece.label for p in turn.placed):
        raise RulesError(TankRefusal.PLACED_THIS_TURN, label=piece.label)
    left = left_to_activate(turn, piece, house)
    if not left:
        raise RulesError(TankRefusal.ALREADY_ACTIVATED, label=piece.label)
    if piece.model:
        return Member(piece.label, 1, True)
    # a squad, or the crew of a destroyed gun: the figures that go
    count = left if figures is None else figures
    if not 1 <= count <= left:
        raise RulesError(TankRefusal.FIGURES_LEFT_TO_ACTIVATE, label=piece.label, left=left,
                         count=count)
    whole = piece.figures or 0
    return Member(piece.label, count, False, of=whole if count < whole else 0)


def activate(turn: Turn, battle: Battle, labels: Sequence[str],
             figures: Mapping[str, int] | None = None,
             house: HouseRules = DEFAULT) -> Turn:
    """Start an activation of 1 to 5 figures and models, at most one model. `figures`: how
    many of a squad's figures go, by its label (a squad not in it: all its figures not yet
    activated this turn). The extra activation takes pieces not yet activated this turn,
    or by the house rule extra_activation = same_pieces also those of the first."""
    if (open_ := turn.current) is not None:
        raise RulesError(TankRefusal.END_ACTIVATION_FIRST, labels=open_.labels)
    if not turn.can_activate and len(turn.activations) > 1:
        raise RulesError(TankRefusal.ACTIVATIONS_USED, side=turn.side.value)
    if not turn.can_activate:
        raise RulesError(TankRefusal.FIRED_NO_EXTRA,
                         side=turn.side.value)
    if not labels:
        raise RulesError(TankRefusal.PICK_PIECES, most=MAX_PIECES)
    pieces = [battle.get(label) for label in labels]
    names = [p.label for p in pieces]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise RulesError(TankRefusal.PICKED_TWICE, label=twice)
    sent = {battle.get(label).label: n for label, n in (figures or {}).items()}
    members = tuple(_member(turn, p, sent.get(p.label), house) for p in pieces)
    models = [m.label for m in members if m.model]
    if len(models) > MAX_MODELS:
        raise RulesError(TankRefusal.ONE_MODEL, labels=tuple(models))
    size = sum(m.count for m in members)
    if size > MAX_PIECES:
        raise RulesError(TankRefusal.TOO_MANY_PIECES, most=MAX_PIECES,
                         counted=tuple(m.shown for m in members), size=size)
    extra = len(turn.activations) == 1
    ruled = (("extra_activation", "same_pieces"),) if any(
        comes_again_by_house(turn, p.label, house) for p in pieces) else ()
    return replace(turn, activations=(*turn.activations,
                                      Activation(members, extra, house_rules=ruled)))


def end_activation(turn: Turn) -> Turn:
    """Close the open activation; if none of its pieces fired, an extra one may follow."""
    open_ = turn.current
    if open_ is None:
        raise RulesError(TankRefusal.NO_ACTIVATION)
    return replace(turn, activations=(*turn.activations[:-1], replace(open_, closed=True)))


# --- actions of active pieces ----------------------------------------------------------------


def _active(turn: Turn, battle: Battle, label: str, action: Action) -> tuple[Activation, Piece]:
    open_, piece = _in_activation(turn, battle, label)
    if piece.gone:
        raise RulesError(TankRefusal.OUT_OF_FIGHT, label=piece.label)
    if piece.status.off_map:
        raise RulesError(TankRefusal.LEFT_MAP, label=piece.label)
    if open_.did(piece.label, action):
        raise RulesError(TankRefusal.ALREADY_DONE, label=piece.label,
                         action=Word(action.value, action.done))
    if piece.status.commander_killed and action is not Action.LEAVE:
        raise RulesError(TankRefusal.COMMANDER_LOST,
                         label=piece.label)
    return open_, piece


def _record(turn: Turn, activation: Activation, done: Done) -> Turn:
    updated = replace(activation, done=(*activation.done, done))
    return replace(turn, activations=(*turn.activations[:-1], updated))


def move(turn: Turn, battle: Battle, label: str, note: str = "",
         house: HouseRules = DEFAULT) -> tuple[Turn, Battle]:
    """An active piece moves; a hidden piece that moves is revealed. A squad riding a vehicle
    that moves by itself gets off: its move is getting off (and walking on, within its move).
    Riders are carried by their vehicle's move without being activated (rule 7)."""
    act, piece = _active(turn, battle, label, Action.MOVE)
    if piece.status.immobilized:
        raise RulesError(TankRefusal.IMMOBILIZED, label=piece.label)
    if house.fire_then_move == "refused" and act.did(piece.label, Action.FIRE):
        raise RulesError(TankRefusal.FIRED_NO_MOVE, label=piece.label)
    if act.did(piece.label, Action.RELOAD):
        raise RulesError(TankRefusal.RELOADING_NO_MOVE_OR_FIRE, label=piece.label)
    turn = _record(turn, act, Done(piece.label, Action.MOVE, note))
    # a rider's move gets it off: part of a squad leaves the squad riding until all of it has
    # (every move of a squad still marked riding this turn was getting off)
    off = piece.riding is None or figures_done(turn, piece.label) >= (piece.figures or 0)
    return turn, battle.replace_piece(replace(reveal(piece), riding=None if off else
                                              piece.riding))


def get_on(turn: Turn, battle: Battle, label: str, vehicle: str,
           note: str = "", house: HouseRules = DEFAULT) -> tuple[Turn, Battle]:
    """An active squad gets on a vehicle of its side on the map: its move (the players place
    the figures on or in it, as they measure any move). Where they sit is the vehicle's kind.
    The crew of a destroyed gun are figures and ride as a squad does; a gun with its gun is
    towed, never carried."""
    _active(turn, battle, label, Action.MOVE)
    piece, carrier = battle.get(label), battle.get(vehicle)
    if piece.kind is not Kind.FIGURE and not piece.crew_only:
        raise RulesError(TankRefusal.RIDE_ONLY_FIGURES, label=piece.label)
    if piece.riding is not None:
        raise RulesError(TankRefusal.ALREADY_RIDING, label=piece.label,
                         vehicle=piece.riding.vehicle)
    if not carrier.kind.vehicle or carrier.side is not piece.side or carrier.gone \
            or carrier.status.off_map:
        raise RulesError(TankRefusal.NOT_A_RIDE, label=piece.label, vehicle=carrier.label)
    turn, battle = move(turn, battle, label, note, house)
    done = turn.activations[-1].done
    turn = _record(turn, replace(turn.activations[-1], done=done[:-1]),
                   replace(done[-1], vehicle=carrier.label))
    if figures_done(turn, piece.label, carrier.label) < (piece.figures or 0):
        return turn, battle      # part of a squad got on: it rides once all of it has
    ride = Ride(carrier.label, carrier.kind)
    return turn, battle.replace_piece(replace(battle.get(label), riding=ride))


def figures_done(turn: Turn, label: str, vehicle: str | None = None,
                 action: Action = Action.MOVE) -> int:
    """The squad's figures that took the action this turn (`vehicle`: moves that got on that
    vehicle). The box keeps one mark for a squad (hidden, riding): it changes once all the
    squad's figures did what changes it, part in the activation, the rest in the extra one.
    Figures are counted, not seen: those that did it are taken to be those that had not yet
    (lying down again changes nothing). By the house rule extra_activation = same_pieces the
    same figures may do it twice, and are then counted twice (docs/rules-notes.md, "Big
    squads", states the limit; the box shows the count)."""
    return sum(m.count for a in turn.activations for m in a.members if m.label == label
               and any(d.label == label and d.action is action
                       and (vehicle is None or d.vehicle == vehicle) for d in a.done))


def get_off(turn: Turn, battle: Battle, label: str, note: str = "",
            house: HouseRules = DEFAULT) -> tuple[Turn, Battle]:
    """An active squad riding a vehicle gets off: its move."""
    piece = battle.get(label)
    if piece.riding is None:
        raise RulesError(TankRefusal.NOT_RIDING, label=piece.label)
    return move(turn, battle, label, note, house)


def fire(turn: Turn, battle: Battle, label: str, note: str = "") -> tuple[Turn, Battle]:
    """An active piece that has not moved fires; a hidden piece that fires is revealed.

    The shot itself is resolved by the level's rules after this allows it."""
    act, piece = _active(turn, battle, label, Action.FIRE)
    if act.extra:
        raise RulesError(TankRefusal.EXTRA_NO_FIRE, label=piece.label)
    _not_moved(act, piece)
    if act.did(piece.label, Action.RELOAD):
        raise RulesError(TankRefusal.RELOADING_NO_MOVE_OR_FIRE, label=piece.label)
    return _record(turn, act, Done(piece.label, Action.FIRE, note)), \
        battle.replace_piece(reveal(piece))


def _not_moved(act: Activation, piece: Piece) -> None:
    """Rule 10: "Active pieces that have not moved may fire": refused to a piece that moved
    in the activation, or rode along as its vehicle moved."""
    if act.moved(piece.label):
        raise RulesError(TankRefusal.MOVED_NO_FIRE, label=piece.label)
    if piece.riding is not None and act.moved(piece.riding.vehicle):   # carried along
        raise RulesError(TankRefusal.CARRIED_NO_FIRE, label=piece.label,
                         vehicle=piece.riding.vehicle)


def hide(turn: Turn, battle: Battle, label: str, *, cover: bool,
         nearest_enemy_figure: Measurement | float | None = None, note: str = "",
         enemy_near: bool | None = None) -> tuple[Turn, Battle]:
    """An active figure that has not moved hides (lies down), in cover, more than 30 cm from
    the nearest enemy figure (`nearest_enemy_figure`: None when no enemy figure is on the map;
    or `enemy_near`, the players' yes or no, see `hiding.can_hide`).
    """
    act, piece = _active(turn, battle, label, Action.HIDE)
    if piece.model:
        raise RulesError(TankRefusal.HIDE_ONLY_FIGURES, label=piece.label)
    if act.moved(piece.label):
        raise RulesError(TankRefusal.MOVED_NO_HIDE, label=piece.label)
    _not_riding(piece)
    can_hide(piece, cover, nearest_enemy_figure=nearest_enemy_figure, enemy_near=enemy_near)
    turn = _record(turn, act, Done(piece.label, Action.HIDE, note))
    if figures_done(turn, piece.label, action=Action.HIDE) < (piece.figures or 0):
        return turn, battle        # part of a squad lies down: hidden once all of it has
    return turn, battle.replace_piece(conceal(piece))


# --- each weapon fired once (rule 10), a grenade once a figure ------------------------------


def has_gun(piece: Piece) -> bool:
    """A tank or gun whose card does not say its gun is none (an unknown value is refused with
    its reason when a shot needs it); a destroyed gun's crew have none."""
    card = piece.card
    return piece.kind in (Kind.HARD, Kind.OPEN_TOP, Kind.GUN) and not piece.crew_only and not (
        card.known("gun_to_hit") and card.gun_to_hit is None)


def weapons_now(piece: Piece) -> tuple[str, ...]:
    """The weapons the piece could fire now, by name: its main gun (GUN) while it has one,
    loaded and not lost; each weapon of its card, but a coaxial machine gun not once the main
    gun is lost, and an external one only while the commander sits out in the turret."""
    status = piece.status
    names = [GUN] if has_gun(piece) and status.loaded and not status.gun_destroyed else []
    for weapon in piece.card.weapons:
        if weapon.mount is Mount.COAXIAL and status.gun_destroyed:
            continue
        if weapon.mount is Mount.EXTERNAL and not piece.commander_outside:
            continue
        names.append(weapon.name)
    return tuple(names)


def _figures_firing(act: Activation, piece: Piece) -> int:
    """How many times each weapon of the piece fires in the activation: a squad once a figure
    (its figures when it was activated), a vehicle or gun once."""
    member = act.member(piece.label)
    if member is None or member.model:
        return 1
    return member.count


def shots_left(act: Activation, piece: Piece, house: HouseRules = DEFAULT) -> int:
    """The shots the piece may still fire in this activation with the weapons it could fire
    now: each weapon once a figure, less those fired (by the house rule weapons = one, one
    weapon a figure: its figures less its shots)."""
    each = _figures_firing(act, piece)
    if house.weapons == "one":
        return max(0, each - act.fired_by(piece.label)) if weapons_now(piece) else 0
    return sum(max(0, each - act.fired_by(piece.label, name)) for name in weapons_now(piece))


def _grenade(piece: Piece, weapon: str) -> bool:
    if weapon == GUN:
        return False
    return any(w.name.lower() == weapon.lower() and w.template is Template.GRENADE
               for w in piece.card.weapons)


def check_shot(turn: Turn, battle: Battle, label: str, weapon: str,
               house: HouseRules = DEFAULT) -> None:
    """May the active piece fire this weapon (GUN: its main gun) now? Its first shot is its
    fire action (`fire` refuses what it refuses), and a later shot is refused too once the
    piece has moved or ridden along since ("Active pieces that have not moved may fire");
    rule 10 says "Fire each weapon individually on the active unit": each weapon fires once, a
    squad's once a figure, and "Figures armed with hand grenades can throw one per
    activation". Whether the weapon itself may fire (lost,
    unloaded, its commander inside) is the fire's own check."""
    act, piece = _in_activation(turn, battle, label)
    if not act.did(piece.label, Action.FIRE):
        fire(turn, battle, piece.label)
    else:       # a piece that fired may move (rule 10), but then fires no more weapons
        _not_moved(act, piece)
    each = _figures_firing(act, piece)
    if act.fired_by(piece.label, weapon) < each:
        if house.weapons == "one" and act.fired_by(piece.label) >= each:
            if piece.model:       # a vehicle or a gun counts one: its words say no figure
                raise RulesError(TankRefusal.ONE_WEAPON_MODEL, label=piece.label)
            raise RulesError(TankRefusal.ONE_WEAPON, label=piece.label, figures=each)
        return
    if _grenade(piece, weapon):
        raise RulesError(TankRefusal.GRENADE_THROWN,
                         label=piece.label, figures=each)
    if weapon == GUN:
        raise RulesError(TankRefusal.GUN_FIRED,
                         label=piece.label)
    raise RulesError(TankRefusal.WEAPON_FIRED, label=piece.label, weapon=weapon, figures=each)


def shoot(turn: Turn, battle: Battle, label: str, weapon: str,
          house: HouseRules = DEFAULT) -> Turn:
    """Record one shot of the weapon (GUN: the main gun) by the active piece, once
    `check_shot` allows it. The fire action itself is recorded by `fire`."""
    check_shot(turn, battle, label, weapon, house)
    act, piece = _in_activation(turn, battle, label)
    name = GUN if weapon == GUN else piece.card.weapon(weapon).name
    updated = replace(act, shots=(*act.shots, Shot(piece.label, name)))
    return replace(turn, activations=(*turn.activations[:-1], updated))


def _in_activation(turn: Turn, battle: Battle, label: str) -> tuple[Activation, Piece]:
    """The open activation and the piece, which must be in it."""
    open_ = turn.current
    if open_ is None:
        raise RulesError(TankRefusal.NO_ACTIVATION_FOR, label=label)
    piece = battle.get(label)
    if piece.label not in open_.labels:
        raise RulesError(TankRefusal.NOT_IN_ACTIVATION, label=piece.label, labels=open_.labels)
    return open_, piece


def _not_riding(piece: Piece) -> None:
    """A rider neither hides nor takes cover on its vehicle: it gets off first."""
    if piece.riding is not None:
        raise RulesError(TankRefusal.RIDER_NO_HIDE_OR_COVER,
                         label=piece.label, vehicle=piece.riding.vehicle)


def take_cover(turn: Turn, battle: Battle, label: str, note: str = "") -> tuple[Turn, Battle]:
    """An active figure that has not moved takes cover behind anything that stops a bullet."""
    act, piece = _active(turn, battle, label, Action.TAKE_COVER)
    if piece.model:
        raise RulesError(TankRefusal.COVER_ONLY_FIGURES, label=piece.label,
                         kind="vehicle" if piece.kind.vehicle else "gun")
    if act.moved(piece.label):
        raise RulesError(TankRefusal.MOVED_NO_COVER, label=piece.label)
    _not_riding(piece)
    return _record(turn, act, Done(piece.label, Action.TAKE_COVER, note)), battle


def reload(turn: Turn, battle: Battle, label: str, note: str = "") -> tuple[Turn, Battle]:
    """An active vehicle or gun that has not moved or fired may reload with +2.

    The roll itself is `hard_fire.reload_action`, after this allows it."""
    act, piece = _active(turn, battle, label, Action.RELOAD)
    if piece.crew_only:
        raise RulesError(TankRefusal.NOTHING_TO_RELOAD_GUN_LOST, name=piece.label)
    if not piece.model:
        raise RulesError(TankRefusal.SQUAD_NO_RELOAD, label=piece.label)
    if act.moved(piece.label) or act.did(piece.label, Action.FIRE):
        did = Action.MOVE if act.moved(piece.label) else Action.FIRE
        raise RulesError(TankRefusal.ACTED_NO_RELOAD, label=piece.label,
                         action=Word(did.value, did.done))
    if piece.status.gun_destroyed:
        raise RulesError(TankRefusal.NOTHING_TO_RELOAD_GUN_LOST, name=piece.label)
    if piece.status.loaded:
        raise RulesError(TankRefusal.LOADED, label=piece.label)
    return _record(turn, act, Done(piece.label, Action.RELOAD, note)), battle


def commander(turn: Turn, battle: Battle, label: str, out: bool) -> Battle:
    """An active closed vehicle's commander sits out in the turret (a figure the enemy may
    fire at), or goes back inside. It is no action: the activation records nothing."""
    open_ = turn.current
    piece = battle.get(label)
    if open_ is None or piece.label not in open_.labels:
        raise RulesError(TankRefusal.COMMANDER_NOT_ACTIVE, label=piece.label)
    if piece.kind is not Kind.HARD:
        raise RulesError(TankRefusal.NO_COMMANDER_TO_PUT_OUT, label=piece.label)
    if piece.gone or piece.status.off_map or piece.status.commander_killed:
        raise RulesError(TankRefusal.NO_COMMANDER_ON_MAP, label=piece.label)
    return battle.replace_piece(replace(piece, status=replace(piece.status, commander_out=out)))


def leave(turn: Turn, battle: Battle, label: str, note: str = "") -> tuple[Turn, Battle]:
    """A vehicle that lost its commander drives off a friendly edge to replace him."""
    act, piece = _active(turn, battle, label, Action.LEAVE)
    if not piece.status.commander_killed:
        raise RulesError(TankRefusal.HAS_COMMANDER, label=piece.label)
    if piece.status.immobilized:
        raise RulesError(TankRefusal.IMMOBILIZED_CANNOT_LEAVE, label=piece.label)
    gone = replace(piece, status=replace(piece.status, off_map=True, hidden=False))
    away = (*(a for a in turn.away if a.label != piece.label), Away(piece.label, turn.number))
    turn = replace(_record(turn, act, Done(piece.label, Action.LEAVE, note)), away=away)
    return turn, battle.replace_piece(gone)


# --- off-map placement -----------------------------------------------------------------------


def may_come_back(turn: Turn, label: str) -> bool:
    """May a vehicle away for a new commander be placed again in this turn?"""
    back = turn.returns(label)
    return back is not None and turn.number >= back


def place(turn: Turn, battle: Battle, label: str,
          riding_with: str | None = None) -> tuple[Turn, Battle]:
    """Place an off-map piece at its side's edge: up to 2 vehicles a turn; figures riding on or
    in them, or a gun towed, come free. Costs no activation; placed pieces are not active or
    hidden this turn."""
    piece = battle.get(label)
    _own_in_the_fight(turn, piece)
    if not piece.status.off_map:
        raise RulesError(TankRefusal.NOT_OFF_MAP, label=piece.label)
    away = turn.returns(piece.label)
    if piece.status.commander_killed and not may_come_back(turn, piece.label):
        if away is None:
            raise RulesError(TankRefusal.COMMANDER_LEAVES_FIRST,
                             label=piece.label)
        raise RulesError(TankRefusal.COMMANDER_COMES_BACK, label=piece.label,
                         turn=away)
    if piece.kind.vehicle:
        if riding_with is not None:
            raise RulesError(TankRefusal.VEHICLE_PLACED_ALONE, label=piece.label)
        if turn.vehicles_placed >= MAX_PLACED_VEHICLES:
            raise RulesError(TankRefusal.VEHICLES_PLACED, side=turn.side.value,
                             most=MAX_PLACED_VEHICLES)
        carrier = None
    elif riding_with is None:
        if piece.kind is Kind.GUN:
            raise RulesError(TankRefusal.GUN_TOWED, label=piece.label)
        carrier = None
    else:
        carrier = battle.get(riding_with).label
        if not any(p.label == carrier and p.vehicle for p in turn.placed):
            raise RulesError(TankRefusal.NOT_A_CARRIER, label=carrier)
    status = replace(piece.status, off_map=False, hidden=False, commander_killed=False)
    turn = replace(turn, placed=(*turn.placed, Placed(piece.label, piece.kind.vehicle, carrier)),
                   away=tuple(a for a in turn.away if a.label != piece.label))
    # figures placed with a vehicle keep riding it; a towed gun is unhitched at the edge
    ride = None if carrier is None or piece.kind is not Kind.FIGURE else \
        Ride(carrier, battle.get(carrier).kind)
    return turn, battle.replace_piece(replace(piece, status=status, riding=ride))


# --- next turn -------------------------------------------------------------------------------


def end_turn(turn: Turn, battle: Battle) -> tuple[Turn, Battle]:
    """Close the turn and give the next one to the other side.

    A vehicle away for a new commander gets him at the end of the following friendly turn:
    it then waits off the map like any other piece and may be placed in a later turn."""
    still: list[Away] = []
    for away in turn.away:
        if turn.number >= away.returns_in:
            piece = battle.get(away.label)
            battle = battle.replace_piece(
                replace(piece, status=replace(piece.status, commander_killed=False)))
        else:
            still.append(away)
    return Turn(turn.number + 1, turn.side.enemy, away=tuple(still)), battle


# --- who changed place -----------------------------------------------------------------------


def changed_place(turn: Turn, battle: Battle) -> frozenset[str]:
    """The pieces that changed place in the turn: each that moved (getting on or off is its
    move), drove off the map or was placed from off it, and the riders of a vehicle that
    moved or drove off (carried along, rule 7). A fact for what depends on where pieces stand,
    like a shot's range and hull down (the box's Again asks them again after a move)."""
    moved = {d.label for a in turn.activations for d in a.done
             if d.action in (Action.MOVE, Action.LEAVE)}
    moved |= {p.label for p in turn.placed}
    riders = {p.label for p in battle.pieces
              if p.riding is not None and p.riding.vehicle in moved}
    return frozenset(moved | riders)
