"""Exact odds of a planned shot, as fractions that sum to exactly 1."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .card import DieRange, Facing, InfoCard, facing_armour
from .dice_maths import damage_below
from .modifier import Modifier
from .shot import BY_MEANING, Bands, effect_of, effect_table
from .status import Effect, Status

OUTCOMES = (Effect.MISS, Effect.NONE, Effect.IMMOBILIZED, Effect.WEAKENED,
            Effect.GUN_DESTROYED, Effect.DESTROYED)


@dataclass(frozen=True)
class Odds:
    """A shot's exact chances: to hit, to reload, and of every outcome."""

    hit: Fraction
    reload: Fraction | None              # Tank Game only
    effects: dict[Effect, Fraction]      # every outcome of OUTCOMES, summing to 1
    needed: DieRange
    modifiers: tuple[Modifier, ...]
    house_rules: tuple[tuple[str, str], ...] = ()    # the house rules that changed the odds

    @property
    def kill(self) -> Fraction:
        return self.effects[Effect.DESTROYED]

    def to_dict(self) -> dict[str, Any]:
        return {
            "hit": float(self.hit),
            "reload": None if self.reload is None else float(self.reload),
            "effects": {e.value: float(p) for e, p in self.effects.items()},
            "exact": {e.value: f"{p.numerator}/{p.denominator}" for e, p in self.effects.items()},
            "hit_exact": f"{self.hit.numerator}/{self.hit.denominator}",
            "reload_exact": None if self.reload is None
            else f"{self.reload.numerator}/{self.reload.denominator}",
            "needed": self.needed.low,
            "range": str(self.needed),
            "modifiers": [m.to_dict() for m in self.modifiers],
            "house_rules": dict(self.house_rules),
        }


# P(a D6 shows one of k faces), k = 0..6: the only chances a single die can give.
_FACES = tuple(Fraction(k, 6) for k in range(7))


def faces_at_least(low: int, modifier: int) -> Fraction:
    """P(D6 + modifier >= low): the faces from max(1, low - modifier) to 6."""
    return _FACES[min(6, max(0, 7 - (low - modifier)))]


def combine(hit: Fraction, given_hit: dict[Effect, Fraction]) -> dict[Effect, Fraction]:
    effects = {Effect.MISS: 1 - hit}
    effects.update({e: hit * given_hit.get(e, Fraction(0)) for e in OUTCOMES[1:]})
    return effects


def effects_given_hit(card: InfoCard, before: Status, p_net: Callable[[int], Fraction],
                      p_destroyed: Fraction, bands: Bands = BY_MEANING) -> dict[Effect, Fraction]:
    """Spread a damage result's distribution over the effects of the card.

    Results at or above Destroy are `p_destroyed`; the bands on cards hold results from 0 up,
    so each result from 0 to Destroy - 1 is classified as a shot would be (`effect_table`),
    and everything else has no effect.
    """
    given: dict[Effect, Fraction] = {e: Fraction(0) for e in OUTCOMES[1:]}
    given[Effect.DESTROYED] = p_destroyed
    for net, effect in enumerate(effect_table(card, before, bands)):
        if effect is not Effect.NONE:
            given[effect] += p_net(net)
    given[Effect.NONE] = 1 - sum((p for e, p in given.items() if e is not Effect.NONE),
                                 Fraction(0))
    return given


def damage_weights(card: InfoCard, before: Status, facing: Facing,
                   dice: int) -> tuple[dict[Effect, int], int]:
    """The effects of `dice` Tank Game damage dice on a card, hit on `facing`, as integer
    weights over one denominator: every P(H = h) below armour + Destroy is an integer over
    6^(dice + armour + Destroy - 1) (`damage_below`), so the effects are sums of integers.

    No dice score nothing: the one result is -armour, read as a shot reads it (`effect_of`),
    so that a card value no result reaches is not asked for (a net below 0 needs none)."""
    armour = facing_armour(card, facing)
    if dice == 0:
        weight = dict.fromkeys(OUTCOMES[1:], 0)
        weight[effect_of(card, -armour, before, InfoCard.need)[0]] = 1
        return weight, 1
    table = effect_table(card, before)
    numerators, denominator = damage_below(dice, armour + len(table))
    weight = dict.fromkeys(OUTCOMES[1:], 0)
    weight[Effect.DESTROYED] = denominator - sum(numerators)    # H >= armour + Destroy
    weight[Effect.NONE] = sum(numerators[:armour])              # net below 0: no effect
    for effect, numerator in zip(table, numerators[armour:], strict=True):
        weight[effect] += numerator                             # net 0 to Destroy - 1
    return weight, denominator


def damage_effects(card: InfoCard, before: Status, facing: Facing,
                   dice: int) -> dict[Effect, Fraction]:
    """The effects of `dice` Tank Game damage dice on a card, hit on `facing`."""
    weight, denominator = damage_weights(card, before, facing, dice)
    return {effect: Fraction(w, denominator) for effect, w in weight.items()}


def combine_weights(hit: Fraction, weight: dict[Effect, int],
                    denominator: int) -> dict[Effect, Fraction]:
    """`combine` for effects given as integer weights: each chance is made a fraction once,
    hit × weight / denominator, instead of a fraction times a fraction (and a miss is the
    faces left, not 1 - hit worked out in fractions)."""
    hits, faces = hit.numerator, hit.denominator
    effects = {Effect.MISS: Fraction(faces - hits, faces)}
    below = faces * denominator
    for effect, w in weight.items():
        effects[effect] = Fraction(hits * w, below)
    return effects
