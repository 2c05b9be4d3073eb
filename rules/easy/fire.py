"""COBI Historical Battle Game, Easy level (seed 002, Polish original 003)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..battle import Battle
from ..card import DieRange, Facing, facing_armour
from ..dice import TO_HIT, Aim, Dice, Need, Roller
from ..dice_maths import d6_plus_difference, d6_plus_difference_at_least
from ..errors import RulesError
from ..house import DEFAULT, HouseRules
from ..odds import Odds, combine, effects_given_hit
from ..shot import ShotPlan, check_can_fire, easy_bands, effect_of
from ..status import Effect, Side
from ..trace import ArmourRoll, DamageRoll, DieCheck, Shot, Tally
from .refusals import EasyRefusal

LEVEL = "easy"
# The armour a shot can hit at this level: the Polish original names three, "przodem, bokiem,
# tyłem" (front, side, rear), and so does the English copy (points (10), (11), (12)); the
# top armour is the Tank Game's.
FACINGS = (Facing.FRONT, Facing.SIDE, Facing.REAR)


# Whose D6+ it is: the firer's damage, the target's armour, or a quick D6+ for anyone.
D6_PLUS = {"firer": (Roller.FIRER, Aim.DAMAGE), "target": (Roller.TARGET, Aim.ARMOUR)}


def d6_plus(tally: Tally, who: str) -> tuple[tuple[int, ...], int]:
    """D6+: 1-5 count as rolled; a 6 rolls again and each further 6 adds 1 (6,6,5 = 7)."""
    roller, aim = D6_PLUS.get(who, (Roller.EITHER, Aim.QUICK))
    faces = [tally.roll(Need(roller, aim, f"{who} D6+"))]
    while faces[-1] == 6:
        faces.append(tally.roll(Need(roller, Aim.EXTRA, f"{who} D6+ after a 6")))
    value = faces[0] if len(faces) == 1 else 6 + len(faces) - 2
    return tuple(faces), value


def roll_d6_plus(dice: Dice, who: str) -> tuple[tuple[int, ...], int]:
    """One D6+ on its own (the box's quick dice): the faces rolled and the value."""
    return d6_plus(Tally(dice), who)


@dataclass(frozen=True)
class Initiative:
    """The roll-off for the initiative: each pair of rolls, and who won it."""

    rolls: tuple[tuple[int, int], ...]  # (axis, allies) per roll-off; ties roll again
    winner: Side


def initiative(dice: Dice) -> Initiative:
    """Each side rolls a D6 (Axis first); the higher has the initiative, a tie rolls again."""
    rolls: list[tuple[int, int]] = []
    while True:
        axis, allies = dice.roll(INITIATIVE[Side.AXIS]), dice.roll(INITIATIVE[Side.ALLIES])
        rolls.append((axis, allies))
        winner = roll_off(axis, allies)
        if winner is not None:
            return Initiative(tuple(rolls), winner)


INITIATIVE = {Side.AXIS: Need(Roller.AXIS, Aim.INITIATIVE, "Axis initiative"),
              Side.ALLIES: Need(Roller.ALLIES, Aim.INITIATIVE, "Allies initiative")}


def roll_off(axis: int, allies: int) -> Side | None:
    """One roll-off for the initiative: the higher die wins; None on a tie, which rolls
    again."""
    if axis == allies:
        return None
    return Side.AXIS if axis > allies else Side.ALLIES


def round_over(passes: Sequence[bool], house: HouseRules = DEFAULT) -> bool:
    """Whether the round is over after this round's actions so far (`passes`: one for each
    action in order, True where the side passed; the sides alternate).

    English: "When both players have had a chance to take an action, the round is over"; the
    Polish original: "Jeśli obaj gracze jeden po drugim oddadzą swą Inicjatywę, to cała Runda
    się kończy" (if both players give up their initiative one after the other, the round
    ends). By the notes' reading (easy_round = one_each) after one action each; by the Polish
    one (both_pass) only when the last two actions were both passes.
    """
    if house.easy_round == "both_pass":
        return len(passes) >= 2 and passes[-1] and passes[-2]
    return len(passes) >= 2


def check_plan(plan: ShotPlan) -> None:
    if plan.hull_down or plan.range_cm is not None or plan.over_range \
            or plan.crew_below_half:
        raise RulesError(EasyRefusal.EASY_NO_MODIFIERS)
    if plan.facing not in FACINGS:
        raise RulesError(EasyRefusal.EASY_NO_TOP)
    # Any hit destroys a damaged vehicle: its armour is not needed.
    check_can_fire(plan, needs_loaded=False, needs_armour=not plan.target_status.damaged)


def fire(plan: ShotPlan, dice: Dice) -> Shot:
    """To hit (inside the card's range), then the firer's D6+ and the target's D6+."""
    check_plan(plan)
    tally = Tally(dice)
    attacker, target, before = plan.attacker, plan.target, plan.target_status
    needed: DieRange = tally.card(attacker, "gun_to_hit")
    roll = tally.roll(TO_HIT)
    to_hit = DieCheck(roll, (), roll, needed, roll in needed)

    def done(effect: Effect, reason: str, damage: DamageRoll | None = None,
             armour: ArmourRoll | None = None, net: int | None = None,
             house: tuple[tuple[str, str], ...] = ()) -> Shot:
        return Shot(LEVEL, attacker, target, plan.facing, to_hit, None, damage, armour, net,
                    effect, reason, plan.attacker_status, plan.attacker_status, before,
                    before.hit_by(effect), tuple(tally.used), tuple(tally.faces), house)

    if not to_hit.success:
        return done(Effect.MISS, f"rolled {roll}, needed {needed}: miss")
    if before.damaged:
        return done(Effect.DESTROYED, "already damaged: any further hit destroys it")

    base: int = tally.card(attacker, "damage")
    rolls, rolled = d6_plus(tally, "firer")
    damage = DamageRoll(rolls, base, 0, 0, rolled, base + rolled)
    armour_value = facing_armour(target, plan.facing, tally.card)
    a_rolls, a_rolled = d6_plus(tally, "target")
    armour = ArmourRoll(plan.facing, armour_value, a_rolls, a_rolled, armour_value + a_rolled)
    net = damage.total - armour.total
    effect, reason = effect_of(target, net, before, tally.card, easy_bands(plan.house))
    return done(effect, f"{damage.total} − {armour.total} = {reason}", damage, armour, net,
                fields_house(plan.house, (effect,)))


# The effects that the reading of the field numbers (house rule easy_fields) swaps: a second
# major hit destroys by either reading.
SWAPPED = (Effect.WEAKENED, Effect.GUN_DESTROYED)


def fields_house(house: HouseRules, effects: tuple[Effect, ...]) -> tuple[tuple[str, str], ...]:
    """The house rules an Easy shot played by, for its trace: easy_fields by number, where an
    effect it could have had is one the numbers swap."""
    if house.easy_fields == "number" and any(e in SWAPPED for e in effects):
        return (("easy_fields", "number"),)
    return ()


def winner(battle: Battle) -> Side | None:
    """The side that destroyed or immobilized every enemy vehicle (Polish: "zniszczy lub
    unieruchomi")."""
    for side in (Side.AXIS, Side.ALLIES):
        enemies = battle.side(side.enemy)
        if enemies and all(v.status.destroyed or v.status.immobilized for v in enemies):
            return side
    return None


def odds(plan: ShotPlan) -> Odds:
    """Exact chances of a hit and of each effect: net = damage - armour + (D6+ - D6+)."""
    check_plan(plan)
    attacker, target, before = plan.attacker, plan.target, plan.target_status
    needed: DieRange = attacker.need("gun_to_hit")
    hit = Fraction(sum(1 for face in range(1, 7) if face in needed), 6)
    if before.damaged:
        return Odds(hit, None, combine(hit, {Effect.DESTROYED: Fraction(1)}), needed, ())
    delta = attacker.need("damage") - facing_armour(target, plan.facing)
    destroy: int = target.need("destroy")
    given = effects_given_hit(target, before, lambda net: d6_plus_difference(net - delta),
                              d6_plus_difference_at_least(destroy - delta),
                              easy_bands(plan.house))
    possible = tuple(effect for effect, p in given.items() if p)
    return Odds(hit, None, combine(hit, given), needed, (),
                fields_house(plan.house, possible if hit else ()))
