"""The state of a battle the rules need: the pieces on each side, their marks and figures."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from .card import InfoCard, Kind
from .errors import Refusal, RulesError
from .house import DEFAULT, HouseRules
from .status import Side, Status

# The most figures of one squad: the box's knob dials no more, and the command line allows no
# more (a squad, or a crew, under a template or a tank, or firing).
SQUAD_MAX = 10

# Rule 11: "Open top weapons need at least one figure to fire and reload they need two to avoid
# -1 to the reload die": two figures man an open-top's main gun. "The other crew are protected
# as normal tank crew", so HE and grenades reach at most these two.
OPEN_TOP_GUN_CREW = 2


class Seat(StrEnum):
    """Where figures ride on a vehicle (rule 14: "loaded with infantry ... or have infantry
    riding on top"): the vehicle's kind decides it. A closed vehicle has all its crew inside
    (rule 11), so figures ride on top of it, in the open; an open-top or soft vehicle is loaded
    with them."""

    ON_TOP = "on_top"
    INSIDE = "inside"


# The Soft Targets Table's situation of figures loaded in a vehicle: in a soft vehicle (the
# motorcycle example's -1), in an open-top in hard cover like its crew (rule 11).
_SEATED_IN = {Kind.SOFT: "soft_vehicle", Kind.OPEN_TOP: "hard_cover"}


@dataclass(frozen=True)
class Ride:
    """The vehicle a squad rides: its label and its kind (which says where the figures sit)."""

    vehicle: str
    kind: Kind

    @property
    def seat(self) -> Seat:
        return Seat.INSIDE if self.kind in _SEATED_IN else Seat.ON_TOP

    @property
    def situation(self) -> str | None:
        """The Soft Targets Table's situation of the riders; None: on top, in the open."""
        return _SEATED_IN.get(self.kind)

    # Saved by hand, not by its types (rules/saved.py): its seat is written too.
    def to_dict(self) -> dict[str, Any]:
        return {"vehicle": self.vehicle, "kind": self.kind.value, "seat": self.seat.value}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ride:
        return cls(str(data["vehicle"]), Kind(data["kind"]))


@dataclass(frozen=True)
class Piece:
    """A vehicle, a gun with its crew, or a squad of figures with the same card.

    `figures` counts the figures left: a squad's figures, a gun's crew, a vehicle's crew (the
    card's crew value at the start; None when the card does not give it).

    A gun is two things: the gun (its `destroyed` mark) and its crew figures. Its crew outlive
    a destroyed gun and fight on as figures (`crew_only`); a gun whose crew are all gone is out
    of the fight even though the gun itself was never destroyed (rule 11: "Guns need to have at
    least one figure to fire and reload").
    """

    label: str          # "Tiger 1": the card's short name and a number
    side: Side
    card: InfoCard
    status: Status = field(default_factory=Status)
    figures: int | None = None
    riding: Ride | None = None     # a squad on or in a friendly vehicle

    @property
    def kind(self) -> Kind:
        return self.card.kind

    @property
    def gone(self) -> bool:
        """Out of the fight: destroyed, or a squad with no figure left; a gun only when no crew
        figure is left (a destroyed gun's crew are still figures; with a crew the card does not
        count, a destroyed gun is gone as before)."""
        if self.kind is Kind.GUN:
            return self.figures == 0 or (self.status.destroyed and self.figures is None)
        if self.kind is Kind.OPEN_TOP and self.figures == 0:
            return True   # rule 11: "Open top weapons need at least one figure", as a gun's
        return self.status.destroyed or (self.kind is Kind.FIGURE and not self.figures)

    @property
    def crew_only(self) -> bool:
        """A gun destroyed whose crew figures are left: they fight on as figures."""
        return self.kind is Kind.GUN and self.status.destroyed and bool(self.figures)

    @property
    def model(self) -> bool:
        """Counts as a model (a vehicle, or a gun with its gun): at most one in an activation.
        The crew of a destroyed gun count as figures."""
        return self.kind.model and not self.crew_only

    @property
    def commander_outside(self) -> bool:
        """A closed vehicle whose commander sits out in the turret: a figure to fire at, who
        spots and fires the external machine gun (rule 11). A killed commander is not out."""
        return self.kind is Kind.HARD and self.status.commander_out \
            and not self.status.commander_killed

    def crew_below_half(self, house: HouseRules = DEFAULT) -> bool:
        """The -1 to reload: fewer figures than half the card's crew; an open-top's weapon
        fewer than two (rule 11: "they need two to avoid -1 to the reload die"), or by the
        house rule open_top_reload = half also fewer than half its crew."""
        crew = self.card.crew
        if self.figures is None or self.kind is Kind.FIGURE:
            return False
        if self.kind is Kind.OPEN_TOP:
            if self.figures < OPEN_TOP_GUN_CREW:
                return True
            if house.open_top_reload == "two":
                return False
        return crew is not None and self.figures * 2 < crew

    def open_top_reload_ruled(self, house: HouseRules) -> bool:
        """Whether the house rule open_top_reload = half gave this piece its -1 (for the
        trace): an open-top with two figures or more, below half its crew."""
        return self.kind is Kind.OPEN_TOP and house.open_top_reload == "half" \
            and self.crew_below_half(house) and not self.crew_below_half()

    def lose_figures(self, count: int) -> Piece:
        """Figures killed; a squad or a gun crew with none left is out of the fight (a squad
        is marked destroyed; a gun keeps its own mark: its gun was not hit)."""
        left = max(0, (self.figures or 0) - count)
        status = self.status
        if self.kind is Kind.FIGURE and left == 0:
            status = replace(status, destroyed=True)
        if left == self.figures and status is self.status:
            return self      # nothing lost: the same (frozen) piece, not a copy of it
        return replace(self, figures=left, status=status)


@dataclass(frozen=True)
class Battle:
    """The pieces on the table at a rules level, each with its card, side and status."""

    level: str
    pieces: tuple[Piece, ...] = ()

    def add(self, card: InfoCard, side: Side, figures: int | None = None,
            short: str | None = None) -> Battle:
        """Put one more piece on a side, labelled with its short name (the card's, or `short`:
        its label in the players' language) and the next number.

        A squad needs its number of figures; other pieces start with the card's crew."""
        if card.kind is Kind.FIGURE:
            if figures is None or figures < 1:
                raise RulesError(Refusal.SQUAD_NEEDS_FIGURE, name=card.name)
        elif figures is None:
            figures = card.crew
        taken, short = {p.label for p in self.pieces}, short or card.short
        number = 1
        while f"{short} {number}" in taken:
            number += 1
        piece = Piece(f"{short} {number}", side, card, figures=figures)
        return replace(self, pieces=(*self.pieces, piece))

    def get(self, label: str) -> Piece:
        for piece in self.pieces:
            if piece.label.lower() == label.lower():
                return piece
        raise RulesError(Refusal.NO_SUCH_PIECE, label=label)

    def side(self, side: Side) -> list[Piece]:
        return [p for p in self.pieces if p.side is side]

    def replace_piece(self, piece: Piece) -> Battle:
        """The battle with the piece as given. Riders whose vehicle is now destroyed or off the
        map get off where it was (a destroyed vehicle's riders are not harmed by it)."""
        return replace(self, pieces=tuple(
            piece if p.label == piece.label else p for p in self.pieces))._dismounted()

    def riders(self, label: str) -> list[Piece]:
        """The squads riding the vehicle, still in the fight."""
        return [p for p in self.pieces if p.riding is not None and p.riding.vehicle == label
                and not p.gone]

    def _dismounted(self) -> Battle:
        carriers = {p.label for p in self.pieces
                    if p.kind.vehicle and not p.gone and not p.status.off_map}
        if all(p.riding is None or p.riding.vehicle in carriers for p in self.pieces):
            return self
        return replace(self, pieces=tuple(
            p if p.riding is None or p.riding.vehicle in carriers else replace(p, riding=None)
            for p in self.pieces))

    def with_status(self, label: str, status: Status) -> Battle:
        return self.replace_piece(replace(self.get(label), status=status))
