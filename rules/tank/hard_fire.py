"""Cobi WWII Tank Game (seed 000): fire at hard targets, reload, damage dice and effects.

The dice and the trace of a resolution are imported by the functions that roll: the odds
(`cobi-companion odds`, the box's preview of a shot) roll nothing, and those two modules
define a dozen dataclasses, each about a millisecond to create here (fifteen on a Pi Zero 2 W).
They are imported by their absolute names: a relative import in a function works out its
package at every call, and a statistics run makes half a million of them.
"""
from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from cobi_companion.rules.tank.refusals import TankRefusal

from ..card import DieRange, InfoCard, Kind, facing_armour
from ..errors import Refusal, RulesError
from ..house import DEFAULT, HouseRules
from ..modifier import Modifier
from ..odds import Odds, combine_weights, damage_weights, faces_at_least
from ..shot import Reader, ShotPlan, check_can_fire, effect_of
from ..status import Effect, Status

if TYPE_CHECKING:
    from ..dice import Dice, Need
    from ..trace import DamageRoll, DieCheck, ReloadAction, Shot, Tally

LEVEL = "tank"
RANGE_LIMIT_CM = 100  # over 100 cm is -1 to hit; exactly 100 cm has no penalty
RELOAD_ACTION_BONUS = 2
SHERMAN = 2464
# "The Sherman rolls a 4 to reload, he has reloaded (he needs a 4-6)" (Kelly's Heroes); its
# card says 5-6. The card wins, unless the players choose the example (sherman_reload = text).
EXAMPLE_RELOAD = DieRange(4)


def example_reload(card: InfoCard, house: HouseRules) -> bool:
    """Whether the Sherman's reload is the Kelly's Heroes example's 4-6 for this card."""
    return house.sherman_reload == "text" and card.set_number == SHERMAN


def reload_range(card: InfoCard, house: HouseRules,
                 read: Reader = InfoCard.need) -> DieRange | None:
    """The reload range a card's gun needs: its card's (None: it has none), or the example's
    4-6 for the Sherman under the house rule. The card's value is read either way: a card
    file without it refuses as before."""
    needed: DieRange | None = read(card, "reload")
    if needed is not None and example_reload(card, house):
        return EXAMPLE_RELOAD
    return needed


def reload_house(card: InfoCard, house: HouseRules,
                 crew_by_house: bool = False) -> tuple[tuple[str, str], ...]:
    """The house rules a reload roll of this card plays by, for its trace (`crew_by_house`:
    its -1 for the crew is the house rule open_top_reload = half's)."""
    used = (("sherman_reload", "text"),) if example_reload(card, house) else ()
    return (*used, ("open_top_reload", "half")) if crew_by_house else used


def to_hit_modifiers(plan: ShotPlan) -> tuple[Modifier, ...]:
    mods = []
    if plan.hull_down:
        mods.append(Modifier("target hull down or in hard cover", -1))
    if plan.range_cm is not None and plan.range_cm < 0:
        raise RulesError(TankRefusal.IMPOSSIBLE_CM, quantity="range", cm=plan.range_cm)
    return (*mods, *range_modifiers(plan.range_cm, plan.over_range))


def range_modifiers(range_cm: float | None, over_range: bool) -> tuple[Modifier, ...]:
    """-1 to hit over 100 cm: by the distance when there is one, else by the players' call."""
    if range_cm is not None:
        if range_cm > RANGE_LIMIT_CM:
            return (Modifier(f"range {range_cm:g} cm is over {RANGE_LIMIT_CM} cm", -1),)
        return ()
    if over_range:
        return (Modifier(f"range over {RANGE_LIMIT_CM} cm (the players' call)", -1),)
    return ()


def reload_modifiers(crew_below_half: bool, action: bool = False) -> tuple[Modifier, ...]:
    mods = []
    if action:
        mods.append(Modifier("reload action: did not move or fire", RELOAD_ACTION_BONUS))
    if crew_below_half:
        mods.append(Modifier("crew below half", -1))
    return tuple(mods)


def check_die(tally: Tally, need: Need, needed: DieRange,
           mods: tuple[Modifier, ...]) -> DieCheck:
    """One D6 plus modifiers, at or above the low end of the card's range."""
    from cobi_companion.rules.trace import DieCheck

    roll = tally.roll(need)
    modified = roll + sum(m.value for m in mods)
    return DieCheck(roll, mods, modified, needed, modified >= needed.low)


@cache     # one frozen Need a number: every shot that hits rolls damage dice
def damage_die(number: int) -> Need:
    """The firer's damage die `number`, counting the extra dice earned by sixes."""
    from cobi_companion.rules.dice import Aim, Need, Roller

    return Need(Roller.FIRER, Aim.DAMAGE, f"damage die {number}", number=number)


def damage_dice(tally: Tally, count: int) -> DamageRoll:
    """1 scores 0, 2-5 score 1, 6 scores 1 and earns an extra die (extras can earn more).

    Dice are rolled as the seed's examples do: the card's dice, then the extras they earned,
    then the extras those earned.
    """
    from cobi_companion.rules.trace import DamageRoll

    rolls: list[int] = []
    pending = count
    while pending:
        batch = [tally.roll(damage_die(len(rolls) + i + 1)) for i in range(pending)]
        rolls.extend(batch)
        pending = batch.count(6)
    points = sum(1 for face in rolls if face >= 2)
    return DamageRoll(tuple(rolls), 0, count, len(rolls) - count, points, points)


def check_plan(plan: ShotPlan) -> None:
    check_hard_target(plan.target, plan.target_name)   # a gun has no armour to read
    check_can_fire(plan, needs_loaded=True)


def check_hard_target(target: InfoCard, name: str | None = None) -> None:
    """Fire at hard targets (AP) is for tanks only: refuse a gun or a soft target (`name`:
    what to call it, its label in a battle; its card's title by default)."""
    kind = target.kind
    name = name or target.title
    if kind is Kind.GUN:
        raise RulesError(TankRefusal.AP_AT_GUN)
    if kind in (Kind.FIGURE, Kind.SOFT):
        raise RulesError(TankRefusal.AP_AT_SOFT_TARGET, name=name)


def fire(plan: ShotPlan, dice: Dice) -> Shot:
    """To hit, then reload (hit or miss), then on a hit the damage dice against the armour."""
    from cobi_companion.rules.dice import RELOAD, TO_HIT
    from cobi_companion.rules.trace import ArmourRoll, Shot, Tally

    check_plan(plan)
    tally = Tally(dice)
    attacker, target, before = plan.attacker, plan.target, plan.target_status
    needed: DieRange = tally.card(attacker, "gun_to_hit")
    reloading = reload_range(attacker, plan.house, tally.card)
    if reloading is None:
        name = plan.attacker_name or attacker.title
        raise RulesError(TankRefusal.NO_RELOAD_ROLL,
                         name=name)
    to_hit = check_die(tally, TO_HIT, needed, to_hit_modifiers(plan))
    reload = check_die(tally, RELOAD, reloading, reload_modifiers(plan.crew_below_half))
    attacker_after = plan.attacker_status.marked("loaded", reload.success)

    def done(effect: Effect, reason: str, damage: DamageRoll | None = None,
             armour: ArmourRoll | None = None, net: int | None = None) -> Shot:
        return Shot(LEVEL, attacker, target, plan.facing, to_hit, reload, damage, armour, net,
                    effect, reason, plan.attacker_status, attacker_after, before,
                    before.hit_by(effect), tuple(tally.used), tuple(tally.faces),
                    reload_house(attacker, plan.house, plan.crew_by_house))

    if not to_hit.success:
        return done(Effect.MISS, f"{to_hit.modified} is below {needed.low}: miss")
    damage = damage_dice(tally, tally.card(attacker, "damage"))
    value = facing_armour(target, plan.facing, tally.card)
    armour = ArmourRoll(plan.facing, value, (), 0, value)
    net = damage.total - armour.total
    effect, reason = effect_of(target, net, before, tally.card)
    return done(effect, f"{damage.total} − {armour.total} = {reason}", damage, armour, net)


def reload_action(card: InfoCard, status: Status, dice: Dice,
                  crew_below_half: bool = False, house: HouseRules = DEFAULT,
                  name: str | None = None, crew_by_house: bool = False) -> ReloadAction:
    """A vehicle that neither moves nor fires rolls to reload with +2 (`name`: what a refusal
    calls it, its label in a battle; its card's title by default)."""
    from cobi_companion.rules.dice import RELOAD
    from cobi_companion.rules.trace import ReloadAction, Tally

    name = name or card.title
    if status.destroyed:
        raise RulesError(Refusal.DESTROYED, name=name)
    if status.gun_destroyed:
        raise RulesError(TankRefusal.NOTHING_TO_RELOAD_GUN_LOST, name=name)
    # Rule 13 reloads an unloaded gun: a loaded one has nothing to reload (the box's turn
    # refuses it with the same words, rules.tank.turns.reload).
    if status.loaded:
        raise RulesError(TankRefusal.LOADED,
                         label=name)
    tally = Tally(dice)
    needed = reload_range(card, house, tally.card)
    if needed is None:
        raise RulesError(TankRefusal.NO_GUN_TO_RELOAD, name=name)
    check = check_die(tally, RELOAD, needed, reload_modifiers(crew_below_half, action=True))
    after = replace(status, loaded=status.loaded or check.success)
    return ReloadAction(card, check, status, after, tuple(tally.used),
                        reload_house(card, house, crew_by_house))


def odds(plan: ShotPlan) -> Odds:
    """Exact chances of a hit, a reload and each effect for this shot."""
    check_plan(plan)
    attacker, target = plan.attacker, plan.target
    needed: DieRange = attacker.need("gun_to_hit")
    reloading = reload_range(attacker, plan.house)
    if reloading is None:
        name = plan.attacker_name or attacker.title
        raise RulesError(TankRefusal.NO_RELOAD_ROLL,
                         name=name)
    mods = to_hit_modifiers(plan)
    hit = faces_at_least(needed.low, sum(m.value for m in mods))
    reload = faces_at_least(reloading.low,
                            sum(m.value for m in reload_modifiers(plan.crew_below_half)))
    dice: int = attacker.need("damage")
    weight, denominator = damage_weights(target, plan.target_status, plan.facing, dice)
    return Odds(hit, reload, combine_weights(hit, weight, denominator), needed, mods,
                reload_house(attacker, plan.house, plan.crew_by_house))

