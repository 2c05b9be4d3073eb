"""A planned shot, the checks every level makes before one, and the effect of a damage result."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .card import Band, Facing, InfoCard, Kind, facing_armour
from .errors import Refusal, RulesError
from .house import DEFAULT, HouseRules
from .status import Effect, Status


@dataclass(frozen=True)
class ShotPlan:
    """A shot before it is fired: firer, target, facing, and the situation that changes the
    rolls."""

    attacker: InfoCard
    target: InfoCard
    facing: Facing
    hull_down: bool = False           # Tank Game: target hull down or in hard cover
    range_cm: float | None = None     # Tank Game: over 100 cm is -1 to hit
    crew_below_half: bool = False     # Tank Game: -1 on the reload roll
    crew_by_house: bool = False       # that -1 is the house rule open_top_reload = half's
    attacker_status: Status = field(default_factory=Status)
    target_status: Status = field(default_factory=Status)
    over_range: bool = False          # the players say over 100 cm, without a distance
    house: HouseRules = DEFAULT       # the readings the players chose (rules/house.py)
    # what a refusal calls the firer and the target: their labels in a battle ("Tiger 1"),
    # else their cards' titles (with the set number)
    attacker_name: str | None = None
    target_name: str | None = None


def check_firer(attacker: InfoCard, status: Status, *, needs_loaded: bool,
                name: str | None = None) -> None:
    """Refuse a firer the rules do not let fire, with the reason in one line (`name`: what
    to call it, its label in a battle; its card's title by default)."""
    name = name or attacker.title
    if status.destroyed:
        raise RulesError(Refusal.FIRER_DESTROYED, name=name)
    if status.gun_destroyed:
        raise RulesError(Refusal.GUN_LOST, name=name)
    if attacker.need("gun_to_hit") is None or attacker.need("damage") is None:
        raise RulesError(Refusal.NO_GUN, name=name)
    if needs_loaded and not status.loaded:
        raise RulesError(Refusal.UNLOADED, name=name)


def check_can_fire(plan: ShotPlan, *, needs_loaded: bool, needs_armour: bool = True) -> None:
    """Refuse a shot before any die is rolled: a firer that cannot fire, a target that is
    gone, or a card value every hit needs (the armour hit: a hit's net is damage - armour)
    that is not known. Destroy and the bands are read after the dice, only by a result that
    reaches them (`effect_of`): a net below 0 needs neither."""
    check_firer(plan.attacker, plan.attacker_status, needs_loaded=needs_loaded,
                name=plan.attacker_name)
    if plan.target_status.destroyed:
        target = plan.target_name or plan.target.title
        raise RulesError(Refusal.TARGET_DESTROYED,
                         name=target)
    if needs_armour:
        facing_armour(plan.target, plan.facing)


@dataclass(frozen=True)
class Readiness:
    """What a card lets a model do in a main-gun shot, before any battle: whether it can fire
    (`gunless`: its card says it has no gun; otherwise a value a shot needs may be missing),
    and, for a tank, the armour facings it can be hit at (armour and destroy known)."""

    fires: bool
    gunless: bool
    facings: tuple[Facing, ...]
    armoured: bool = True            # a tank: main guns fire at its armour

    @property
    def partial(self) -> bool:
        """Some shot is refused because the card file lacks a value (not because of a rule)."""
        missing_gun = not self.fires and not self.gunless
        return missing_gun or (self.armoured and len(self.facings) < len(Facing))


def readiness(card: InfoCard) -> Readiness:
    gunless = (card.known("gun_to_hit") and card.gun_to_hit is None) or \
        (card.known("damage") and card.damage is None)
    try:
        check_firer(card, Status(), needs_loaded=False)
        fires = True
    except RulesError:
        fires = False
    facings = []
    for facing in Facing:
        try:
            facing_armour(card, facing)
            card.need("destroy")
        except RulesError:
            continue
        facings.append(facing)
    return Readiness(fires, gunless, tuple(facings), card.kind in (Kind.HARD, Kind.OPEN_TOP))


Reader = Callable[[InfoCard, str], Any]
# The card's bands in the rules' order: the field, its label and the effect of a result in it.
Bands = tuple[tuple[str, str, Effect], ...]

BY_MEANING: Bands = (("destroy_gun", "Destroy Gun", Effect.GUN_DESTROYED),
                     ("weaken", "Weaken", Effect.WEAKENED),
                     ("immobilize", "Immobilize", Effect.IMMOBILIZED))
# The Easy text by its numbers (house rule easy_fields = number): "equal to the point (15) on
# the card, the target is damaged"; "(16) ... the target loses its biggest gun". The field list
# numbers Destroy Gun (15) and Weaken (16), so the two bands' effects swap; (17) is the same.
BY_NUMBER: Bands = (("destroy_gun", "Destroy Gun (15)", Effect.WEAKENED),
                    ("weaken", "Weaken (16)", Effect.GUN_DESTROYED),
                    BY_MEANING[2])


def easy_bands(house: HouseRules) -> Bands:
    """The bands of the Easy level as the players read the field numbers."""
    return BY_NUMBER if house.easy_fields == "number" else BY_MEANING


def effect_of(card: InfoCard, net: int, before: Status, read: Reader,
              bands: Bands = BY_MEANING) -> tuple[Effect, str]:
    """The effect of a damage result on a card, in the order of the rules, with the reason.

    A second major hit (destroy gun or weaken on a target already weakened or gunless)
    destroys it. Fields are read only as far as the result needs them: a net below 0 reads
    none, since Destroy and every band hold only results of 0 or more (the card schema allows
    no less), so it has no effect whatever the card says.
    """
    if net < 0:
        return Effect.NONE, f"{net}: no effect (below 0)"
    destroy: int = read(card, "destroy")
    if net >= destroy:
        return Effect.DESTROYED, f"{net} ≥ Destroy {destroy}: destroyed"
    for name, label, effect in bands:
        band: Band | None = read(card, name)
        if band is None or net not in band:
            continue
        inside = f"{net} is {label} {band}"
        outcome = band_effect(effect, before)
        if outcome is not effect:
            return outcome, f"{inside}, a second major hit: destroyed"
        if effect is Effect.IMMOBILIZED and before.immobilized:
            return effect, f"{inside}: already immobilized, no extra effect"
        return effect, f"{inside}: {effect.value.replace('_', ' ')}"
    return Effect.NONE, f"{net}: no effect"


def band_effect(effect: Effect, before: Status) -> Effect:
    """What a result inside a band does to a target marked `before`: destroy gun and weaken
    are major hits, and a second one destroys; immobilize never does."""
    if effect is not Effect.IMMOBILIZED and before.damaged:
        return Effect.DESTROYED
    return effect


def effect_table(card: InfoCard, before: Status, bands: Bands = BY_MEANING) -> list[Effect]:
    """The effect of every result from 0 to Destroy - 1, as `effect_of` gives it, for the odds.

    The bands are taken in the rules' order and each claims the results no band before it
    holds, so a band is read exactly when `effect_of` would read it for some result (a card
    missing a band nobody reaches is no problem). The cost is linear in Destroy, and no reason
    is written.
    """
    destroy: int = card.need("destroy")
    # No band's outcome is NONE, so a result still NONE is one no band has claimed yet.
    none = Effect.NONE
    table = [none] * max(destroy, 0)
    unclaimed = len(table)
    for name, _, effect in bands:
        if not unclaimed:
            break
        band: Band | None = card.need(name)
        if band is None:
            continue
        outcome = band_effect(effect, before)
        for net in range(band.low, min(band.high + 1, destroy)):
            if table[net] is none:
                table[net] = outcome
                unclaimed -= 1
    return table
