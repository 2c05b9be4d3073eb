"""The state of a battle the rules need: which vehicles are on which side, and their marks."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .card import InfoCard
from .errors import RulesError
from .status import Side, Status


@dataclass(frozen=True)
class Vehicle:
    label: str          # "Tiger 1": the card's short name and a number
    side: Side
    card: InfoCard
    status: Status = field(default_factory=Status)


@dataclass(frozen=True)
class Battle:
    level: str
    vehicles: tuple[Vehicle, ...] = ()

    def add(self, card: InfoCard, side: Side) -> Battle:
        """Put one more model on a side, labelled with its short name and the next number."""
        taken = {v.label for v in self.vehicles}
        number = 1
        while f"{card.short} {number}" in taken:
            number += 1
        vehicle = Vehicle(f"{card.short} {number}", side, card)
        return replace(self, vehicles=(*self.vehicles, vehicle))

    def get(self, label: str) -> Vehicle:
        for vehicle in self.vehicles:
            if vehicle.label.lower() == label.lower():
                return vehicle
        raise RulesError(f"no vehicle called {label!r} in this battle")

    def side(self, side: Side) -> list[Vehicle]:
        return [v for v in self.vehicles if v.side is side]

    def with_status(self, label: str, status: Status) -> Battle:
        target = self.get(label)
        return replace(self, vehicles=tuple(
            replace(v, status=status) if v is target else v for v in self.vehicles))
