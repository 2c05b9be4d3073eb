"""Exact odds of fire at soft targets: each attack, each covered piece, and the whole template.

An attack is hit when the defender's D6 is below the attacker's D6 + m: the difference
d = a + m - e has P(d) = #{(a, e): a - e = d - m} / 36. A figure under a machine gun with s
shots falls with 1 - (1 - p)^s. Pieces are attacked independently, so the number of pieces
down is the convolution of each one's chances, all given the HE to-hit roll.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from ..battle import Ride
from ..card import Kind, Template
from ..odds import OUTCOMES, damage_effects, faces_at_least
from ..status import Effect
from .hard_fire import reload_modifiers, reload_range
from .soft_fire import (
    Covered,
    SoftPlan,
    attack_modifiers,
    can_destroy,
    check_plan,
    figures_reached,
    fire_house,
    grenade_to_hit,
    he_to_hit_modifiers,
    main_gun,
    raw_damage,
    uses_table,
)


def differences(modifier: int) -> dict[int, Fraction]:
    """P(attacker D6 + modifier - defender D6 = d) for every d."""
    chances: dict[int, Fraction] = {}
    for attacker in range(1, 7):
        for defender in range(1, 7):
            d = attacker + modifier - defender
            chances[d] = chances.get(d, Fraction(0)) + Fraction(1, 36)
    return chances


def raw_differences(modifier: int) -> dict[int, Fraction]:
    """Of the hits (attacker D6 + modifier above the defender D6), P(attacker D6 - defender D6
    = d): a soft vehicle's damage dice by the house rule soft_damage = raw."""
    chances: dict[int, Fraction] = {}
    for attacker in range(1, 7):
        for defender in range(1, 7):
            if attacker + modifier > defender:
                d = attacker - defender
                chances[d] = chances.get(d, Fraction(0)) + Fraction(1, 36)
    return chances


def attack_hits(modifier: int) -> Fraction:
    return sum((p for d, p in differences(modifier).items() if d >= 1), Fraction(0))


@dataclass(frozen=True)
class PieceOdds:
    """One piece's exact chances under fire at soft targets."""

    label: str
    figures: int
    per_figure: Fraction | None             # a figure falls (all its shots)
    model: dict[Effect, Fraction] | None    # the gun or vehicle itself, given the template hit
    down: tuple[Fraction, ...]              # P(k of this piece's figures and model down)
    riding: Ride | None = None              # a squad riding a vehicle

    @property
    def expected_down(self) -> Fraction:
        return sum((k * p for k, p in enumerate(self.down)), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label, "figures": self.figures,
            "per_figure": None if self.per_figure is None else float(self.per_figure),
            "per_figure_exact": None if self.per_figure is None else _exact(self.per_figure),
            "model": None if self.model is None else
            {e.value: float(p) for e, p in self.model.items()},
            "expected_down": float(self.expected_down),
            "riding": None if self.riding is None else self.riding.to_dict(),
        }


@dataclass(frozen=True)
class SoftOdds:
    """The exact chances of fire at soft targets: to hit, to reload, and of k figures down."""

    hit: Fraction                 # HE and grenades: the To hit roll; others always reach
    reload: Fraction | None       # the main gun only (HE, or without HE)
    pieces: tuple[PieceOdds, ...]
    down: tuple[Fraction, ...]    # P(k down) over the whole fire, summing to 1
    house_rules: tuple[tuple[str, str], ...] = ()    # the house rules that changed the odds

    @property
    def expected_down(self) -> Fraction:
        return sum((k * p for k, p in enumerate(self.down)), Fraction(0))

    @property
    def all_down(self) -> Fraction:
        return self.down[-1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "hit": float(self.hit), "hit_exact": _exact(self.hit),
            "reload": None if self.reload is None else float(self.reload),
            "targets": [p.to_dict() for p in self.pieces],
            "down": [float(p) for p in self.down],
            "down_exact": [_exact(p) for p in self.down],
            "expected_down": float(self.expected_down),
            "all_down": float(self.all_down),
            "house_rules": dict(self.house_rules),
        }


def _exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _convolve(a: tuple[Fraction, ...], b: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, p in enumerate(a):
        for j, q in enumerate(b):
            out[i + j] += p * q
    return tuple(out)


def _falls(p: Fraction) -> tuple[Fraction, ...]:
    return (1 - p, p)


def _binomial(n: int, p: Fraction) -> tuple[Fraction, ...]:
    """P(k of n figures fall), each with chance p: integers over one denominator."""
    a, b = p.numerator, p.denominator
    return tuple(Fraction(comb(n, k) * a**k * (b - a) ** (n - k), b**n) for k in range(n + 1))


def _model_effects(plan: SoftPlan, covered: Covered, modifier: int) -> dict[Effect, Fraction]:
    """The gun or vehicle itself: a soft attack (gun, soft vehicle) or damage dice (hard)."""
    piece, weapon = covered.piece, plan.weapon
    effects = {e: Fraction(0) for e in OUTCOMES}
    if piece.kind is Kind.GUN:
        effects[Effect.DESTROYED] = attack_hits(modifier)
        effects[Effect.MISS] = 1 - effects[Effect.DESTROYED]
        return effects
    if piece.kind is Kind.SOFT:
        effects[Effect.MISS] = 1 - attack_hits(modifier)
        hits = raw_differences(modifier) if plan.house.soft_damage == "raw" \
            else {d: p for d, p in differences(modifier).items() if d >= 1}
        dice_chances = {d: p for d, p in hits.items() if d >= 1}
        effects[Effect.NONE] = sum((p for d, p in hits.items() if d < 1), Fraction(0))
    else:
        he = weapon.template is Template.HE
        count = plan.firer.card.need("he_modifier") if he else weapon.damage
        if not count or count < 1:
            effects[Effect.NONE] = Fraction(1)
            return effects
        dice_chances = {count: Fraction(1)}
    for count, p in dice_chances.items():
        for effect, q in damage_effects(piece.card, piece.status, covered.facing, count).items():
            # asked only of a result that destroys, as the fire asks it
            if effect is Effect.DESTROYED and q and not can_destroy(plan):
                effect = Effect.IMMOBILIZED
            effects[effect] += p * q
    return effects


def piece_odds(plan: SoftPlan, covered: Covered) -> PieceOdds:
    piece = covered.piece
    figures = figures_reached(plan, covered)
    modifier = sum(m.value for m in attack_modifiers(plan, covered)) \
        if uses_table(plan, covered) else 0
    down: tuple[Fraction, ...] = (Fraction(1),)
    model = None
    if piece.kind is not Kind.FIGURE and covered.model:
        model = _model_effects(plan, covered, modifier)
        down = _falls(model[Effect.DESTROYED])
    per_figure = None
    if figures:
        per_figure = 1 - (1 - attack_hits(modifier)) ** plan.weapon.shots
        down = _convolve(down, _binomial(figures, per_figure))
    return PieceOdds(piece.label, figures, per_figure, model, down, piece.riding)


def odds(plan: SoftPlan) -> SoftOdds:
    check_plan(plan)
    hit, reload = Fraction(1), None
    card = plan.firer.card
    if plan.weapon.template is Template.HE:
        hit = faces_at_least(card.need("gun_to_hit").low,
                             sum(m.value for m in he_to_hit_modifiers(plan)))
    elif plan.weapon.template is Template.GRENADE:
        hit = faces_at_least(grenade_to_hit(plan).needs, 0)
    if main_gun(plan.weapon):
        reloading = reload_range(card, plan.house)
        assert reloading is not None      # check_plan refused a gun without one
        reload = faces_at_least(reloading.low, sum(
            m.value for m in reload_modifiers(plan.firer.crew_below_half(plan.house))))
    pieces = tuple(piece_odds(plan, covered) for covered in plan.targets)
    down: tuple[Fraction, ...] = (Fraction(1),)
    for piece in pieces:
        down = _convolve(down, piece.down)
    missed = (1 - hit,) + (Fraction(0),) * (len(down) - 1)
    return SoftOdds(hit, reload, pieces, tuple(m + hit * p for m, p in zip(missed, down,
                                                                              strict=True)),
                    fire_house(plan, attacks=True, raw=raw_damage(plan)))
