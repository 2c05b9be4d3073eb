"""How far a vehicle may move this action (both COBI levels use the card's move fields)."""
from __future__ import annotations

from dataclasses import dataclass

from .card import InfoCard
from .dice import Need
from .errors import Refusal, RulesError
from .house import DEFAULT, HouseRules
from .status import Status
from .trace import CardValue, Modifier, Tally


class _NoDice:
    def roll(self, need: Need) -> int:
        raise RulesError(Refusal.MOVING_NEEDS_NO_DICE)


@dataclass(frozen=True)
class Allowance:
    """How far a piece may move, and the card values and steps that make it."""

    card: InfoCard
    base: int                       # forward or backward move from the card
    steps: tuple[Modifier, ...]     # turns, rough ground, road
    cm: int                         # never below 0
    moved: int                      # cm already driven; cm is then what is left
    card_values: tuple[CardValue, ...]
    house_rules: tuple[tuple[str, str], ...] = ()   # the house rules that changed it

    def to_dict(self) -> dict[str, object]:
        return {"card": {"set": self.card.set_number, "name": self.card.name},
                "base": self.base, "moved": self.moved,
                "steps": [s.to_dict() for s in self.steps], "cm": self.cm,
                "card_values": [c.to_dict() for c in self.card_values],
                "house_rules": dict(self.house_rules)}


def allowance(card: InfoCard, *, reverse: bool = False, turns: int = 0, rough: int = 0,
              road: bool = False, moved: int = 0, status: Status | None = None,
              name: str | None = None, house: HouseRules = DEFAULT) -> Allowance:
    """Forward (or backward) - turns x turn cost - rough cost (once) + road bonus.

    `moved` is the distance already driven this move: the result is then what is left.
    `rough` is the patches of rough ground crossed (True: some): the card's Move in Rough is
    paid once, or by the house rule rough = each once a patch.

    The road bonus counts only when the whole move is on road; turns that follow the road
    are free, so `turns` counts only the turns the player chose (at junctions or off road).
    By the house rule road_reverse = forward_only a move backward gets no road bonus.
    """
    status = status or Status()
    name = name or card.title          # a battle calls the piece by its label
    if status.destroyed:
        raise RulesError(Refusal.DESTROYED, name=name)
    if status.immobilized:
        raise RulesError(Refusal.IMMOBILIZED_FOR_GOOD, name=name)
    if turns < 0 or moved < 0 or rough < 0:
        raise RulesError(Refusal.NEGATIVE_MOVE)
    if rough and road:
        # "If the vehicle is travelling only on a road surface" (Easy; Tank Game: "Only on
        # Road"): a move that crosses rough ground is not all on road.
        raise RulesError(Refusal.ROAD_AND_ROUGH)
    tally = Tally(_NoDice())
    base: int = tally.card(card, "move_backward" if reverse else "move_forward")
    steps: list[Modifier] = []
    if moved:
        steps.append(Modifier(f"{moved} cm already moved", -moved))
    if turns:
        cost: int = tally.card(card, "turn_45")
        steps.append(Modifier(f"{turns} turn{'s' if turns > 1 else ''} of 45° × {cost} cm",
                              -turns * cost))
    used: list[tuple[str, str]] = []
    if rough:
        patches = int(rough) if house.rough == "each" else 1
        rough_cost: int = tally.card(card, "rough")
        steps.append(Modifier("rough ground" if patches == 1 else
                              f"{patches} patches of rough ground × {rough_cost} cm",
                              -patches * rough_cost))
        if patches > 1:
            used.append(("rough", "each"))
    if road and reverse and house.road_reverse == "forward_only":
        used.append(("road_reverse", "forward_only"))     # backward: no road bonus
    elif road:
        steps.append(Modifier("all the way on road", tally.card(card, "road")))
    cm = max(0, base + sum(s.value for s in steps))
    return Allowance(card, base, tuple(steps), cm, moved, tuple(tally.used), tuple(used))
