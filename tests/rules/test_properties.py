"""Property tests of the rules engine: exact odds, dice sources and the closed forms.

1. The exact odds of every drawn shot are a distribution (Fractions summing to exactly 1), agree
   with the to-hit and reload rules, and with what `fire` can produce; refusals are RulesErrors.
2. The exact odds agree with the frequencies of 200 000 seeded random resolutions.
3. Resolutions from scripted dice are deterministic and consume the script in order.
4. The closed forms in `dice_maths` agree with brute-force enumeration and the notes' values.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from functools import cache
from typing import Any

import pytest
from cobi_companion.cards import load_cards
from cobi_companion.rules import dice_maths
from cobi_companion.rules.card import CardValueMissing, DieRange, Facing, InfoCard
from cobi_companion.rules.dice import DiceError, DiceExhausted, ScriptedDice
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.house import HouseRules
from cobi_companion.rules.levels import RULE_SETS
from cobi_companion.rules.odds import OUTCOMES, Odds
from cobi_companion.rules.shot import ShotPlan, effect_of
from cobi_companion.rules.status import Effect, Status
from cobi_companion.rules.trace import Shot
from hypothesis import event, given, settings
from hypothesis import strategies as st

BOOK = load_cards([])  # the shipped cards only: no system or user folder
GUNS = (2456, 2464, 2477)  # 7TP, Sherman, Tiger I: the shipped cards with a gun
TARGETS = tuple(sorted(BOOK.cards))  # 2456, 2464, 2474, 2477, 2508 (partial card)

PROPERTY = settings(max_examples=250, deadline=None)


class SeededDice:
    """Pseudo-random faces from a fixed seed: reproducible, so the statistics cannot flake."""

    def __init__(self, seed: int) -> None:
        self.bits = random.Random(seed).getrandbits

    def roll(self, need: object) -> int:
        # the very faces of rng.randint(1, 6), without its layers of calls (200 000 shots
        # roll over a million): three random bits, drawn again while 6 or 7
        bits = self.bits(3)
        while bits >= 6:
            bits = self.bits(3)
        return bits + 1


def has_tank_modifiers(plan: ShotPlan) -> bool:
    return plan.hull_down or plan.range_cm is not None or plan.crew_below_half


# The house rules a shot reads (rules/house.py): the Sherman's reload (Tank Game) and the Easy
# field numbers; the odds must follow each as the resolution does.
HOUSE = st.builds(HouseRules, sherman_reload=st.sampled_from(["card", "text"]),
                  easy_fields=st.sampled_from(["meaning", "number"]))


@st.composite
def shots(draw: st.DrawFn) -> tuple[str, ShotPlan]:
    """A level and a shot plan over the shipped cards, every facing, target status and house
    rule a shot reads."""
    level = draw(st.sampled_from(sorted(RULE_SETS)))
    status = draw(st.builds(Status, weakened=st.booleans(), gun_destroyed=st.booleans(),
                            immobilized=st.booleans()))
    house = draw(HOUSE)
    plan = ShotPlan(
        attacker=BOOK.get(draw(st.sampled_from(GUNS))),
        target=BOOK.get(draw(st.sampled_from(TARGETS))),
        facing=draw(st.sampled_from(list(Facing))),
        target_status=status,
        house=house,
    )
    # The Easy level refuses tank modifiers: draw them for it only half the time, so most Easy
    # shots are valid ones.
    if level == "tank" or draw(st.booleans()):
        plan = ShotPlan(
            plan.attacker, plan.target, plan.facing,
            hull_down=draw(st.booleans()),
            range_cm=draw(st.none() | st.integers(0, 300) | st.sampled_from([100.0, 100.5])
                          | st.floats(0, 300, allow_nan=False)),
            crew_below_half=draw(st.booleans()),
            target_status=status,
            house=house,
        )
    return level, plan


def refusal(level: str, plan: ShotPlan) -> str | None:
    """Why the rules may refuse this shot, or None when it must resolve.

    "must": the Easy level has no modifiers or top armour, or a partial target card (2508)
    lacks a value that the odds need. "may": an Easy shot at a damaged target needs no target
    value (any hit destroys it), so the rules may check the card up front or not, as long as
    fire and odds agree.
    """
    if level == "easy" and has_tank_modifiers(plan):
        return "must"
    if level == "easy" and plan.facing is Facing.TOP:
        return "must"           # Easy hits "przodem, bokiem, tyłem": front, side, rear
    needed = (plan.facing.armour_field, "destroy", "destroy_gun", "weaken", "immobilize")
    if all(plan.target.known(name) for name in needed):
        return None
    return "may" if level == "easy" and plan.target_status.damaged else "must"


def hit_chance(level: str, plan: ShotPlan) -> Fraction:
    """P(hit), worked out from the rule text rather than the engine."""
    needed = plan.attacker.need("gun_to_hit")
    if level == "easy":
        return Fraction(sum(1 for face in range(1, 7) if needed.low <= face <= needed.high), 6)
    modifier = -int(plan.hull_down) - int(plan.range_cm is not None and plan.range_cm > 100)
    return Fraction(sum(1 for face in range(1, 7) if face + modifier >= needed.low), 6)


def reload_chance(plan: ShotPlan) -> Fraction:
    """P(reloaded): the card's reload range, or the Kelly's Heroes "he needs a 4-6" for the
    Sherman (2464) by the house rule sherman_reload = text."""
    needed = plan.attacker.need("reload")
    if plan.house.sherman_reload == "text" and plan.attacker.set_number == 2464:
        needed = DieRange(4)
    modifier = -int(plan.crew_below_half)
    return Fraction(sum(1 for face in range(1, 7) if face + modifier >= needed.low), 6)


def needy_net(plan: ShotPlan) -> int:
    """The first result a shot's effect would need a missing target value for: a result
    below 0 needs none (every band and Destroy are 0 or more), so dice that drive the result
    through every band must land on a result from 0 up that no known band holds."""
    target = plan.target
    if not target.known("destroy"):
        return 0
    for net in range(target.destroy or 0):
        try:
            effect_of(target, net, plan.target_status, InfoCard.need)
        except CardValueMissing:
            return net
    return 0


def d6_plus_faces(value: int) -> list[int]:
    """The faces of a D6+ that makes `value`: 1-5 as rolled, 6 and more a chain of sixes."""
    return [value] if value <= 5 else [6] * (value - 5) + [1]


def damage_faces(dice: int, points: int) -> list[int]:
    """Damage dice scoring exactly `points`: a 2 scores 1, a 1 nothing, a 6 one and an extra
    die (for more points than dice)."""
    faces = []
    pending = dice
    while pending:
        pending -= 1
        if points > pending + 1:
            faces.append(6)
            pending += 1
        else:
            faces.append(2 if points else 1)
        points -= faces[-1] != 1
    return faces


def worst_dice(level: str, plan: ShotPlan) -> ScriptedDice:
    """Dice that hit and then make the damage result the one that needs a value the target
    card lacks (`needy_net`), so that a resolution reads every target value it could."""
    target = plan.target
    armour = target.need(plan.facing.armour_field) if target.known(plan.facing.armour_field) \
        and getattr(target, plan.facing.armour_field) is not None else 0
    net = needy_net(plan)
    if level == "tank":    # hit, reload, damage dice scoring armour + net
        return ScriptedDice([6, 1, *damage_faces(plan.attacker.need("damage"), armour + net)])
    # hit, then damage + firer D6+ - (armour + target D6+) = net
    firer = max(1, armour + net + 1 - plan.attacker.need("damage"))
    own = plan.attacker.need("damage") + firer - armour - net
    return ScriptedDice([6, *d6_plus_faces(firer), *d6_plus_faces(own), 1])


def assert_refuses(call: Any, *args: Any) -> RulesError:
    with pytest.raises(RulesError) as info:
        call(*args)
    assert str(info.value).strip(), f"{type(info.value).__name__} without a message"
    return info.value


# --- 1. exact odds --------------------------------------------------------------------------


@PROPERTY
@given(shot=shots(), seed=st.integers(0, 2**32 - 1))
def test_odds_are_an_exact_distribution(shot: tuple[str, ShotPlan], seed: int) -> None:
    level, plan = shot
    rules = RULE_SETS[level]

    why = refusal(level, plan)
    try:
        odds: Odds = rules.odds(plan)
    except RulesError as error:
        assert why is not None, f"a valid shot refused: {error}"  # a bug: it must resolve
        assert str(error).strip(), f"{type(error).__name__} without a message"
        event(f"{level}: refused")
        # Dice that drive the shot through every card value make fire refuse as well.
        assert_refuses(rules.fire, plan, worst_dice(level, plan))
        # With any other dice fire either resolves or refuses with a RulesError (nothing else).
        try:
            rules.fire(plan, SeededDice(seed))
        except RulesError as error:
            assert str(error).strip()
        return
    assert why != "must", f"odds given for a shot the rules must refuse: {odds}"

    event(f"{level}: valid")
    assert list(odds.effects) == list(OUTCOMES)
    assert all(isinstance(p, Fraction) for p in odds.effects.values())
    assert sum(odds.effects.values(), Fraction(0)) == 1
    assert all(0 <= p <= 1 for p in odds.effects.values()), odds.effects
    assert isinstance(odds.hit, Fraction) and 0 <= odds.hit <= 1
    assert odds.effects[Effect.MISS] == 1 - odds.hit
    assert odds.hit == hit_chance(level, plan)
    assert odds.kill == odds.effects[Effect.DESTROYED]
    if level == "tank":
        assert isinstance(odds.reload, Fraction)
        assert odds.reload == reload_chance(plan)
    else:
        assert odds.reload is None
    if plan.target_status.damaged:
        # a second major hit destroys: nothing can weaken or take the gun of a damaged target
        assert odds.effects[Effect.WEAKENED] == odds.effects[Effect.GUN_DESTROYED] == 0

    # What fire does must be something the odds allow.
    for dice in (SeededDice(seed), worst_dice(level, plan)):
        fired: Shot = rules.fire(plan, dice)
        assert odds.effects[fired.effect] > 0, (fired.effect, fired.reason)
        assert fired.hit == (fired.effect is not Effect.MISS)
        assert fired.target_after == plan.target_status.hit_by(fired.effect)
        if level == "tank":
            assert fired.reload is not None
            assert odds.reload is not None
            assert (odds.reload > 0) if fired.reload.success else (odds.reload < 1)
        else:
            assert fired.reload is None


@pytest.mark.parametrize("level", sorted(RULE_SETS))
def test_a_gunless_attacker_is_refused(level: str) -> None:
    plan = ShotPlan(BOOK.get(2474), BOOK.get(2477), Facing.FRONT)
    assert "no gun" in str(assert_refuses(RULE_SETS[level].odds, plan))
    assert "no gun" in str(assert_refuses(RULE_SETS[level].fire, plan, SeededDice(0)))


# --- 2. exact odds against frequencies ------------------------------------------------------

WEAKENED = Status(weakened=True)
STAT_SHOTS = [
    ("tank", 2477, 2464, Facing.FRONT, {}),
    ("tank", 2477, 2464, Facing.REAR, {}),
    ("tank", 2464, 2477, Facing.REAR, {"target_status": WEAKENED}),
    ("tank", 2456, 2477, Facing.SIDE, {"hull_down": True, "range_cm": 150}),
    ("tank", 2477, 2477, Facing.FRONT,
     {"range_cm": 100, "crew_below_half": True, "target_status": Status(immobilized=True)}),
    ("easy", 2464, 2477, Facing.FRONT, {}),
    ("easy", 2456, 2464, Facing.SIDE, {}),
    ("easy", 2477, 2477, Facing.FRONT, {}),
    ("easy", 2456, 2477, Facing.SIDE, {"target_status": WEAKENED}),
    ("easy", 2464, 2456, Facing.FRONT, {"target_status": Status(immobilized=True)}),
    # the house rules: the Sherman reloads on 4-6, the Easy bands by the field numbers
    ("tank", 2464, 2477, Facing.REAR, {"house": HouseRules(sherman_reload="text")}),
    ("easy", 2477, 2477, Facing.FRONT, {"house": HouseRules(easy_fields="number")}),
]
TOTAL_RESOLUTIONS = 204_000
PER_SHOT = TOTAL_RESOLUTIONS // len(STAT_SHOTS)
SIGMAS = 5
# An absolute allowance of 3 outcomes per shot (1.5e-4 at 20 000 resolutions). The normal
# bound 5 * sqrt(p(1-p)/n) vanishes as p -> 0, but there a count is Poisson with a small mean,
# and one or two rare outcomes (say a destroyed 7TP shot at p = 2e-6) would fail a pure 5-sigma
# bound. With 3 extra counts the chance that an exact p is rejected stays below ~1e-5 per
# outcome for every p, while any real error in the odds worth catching (a wrong band, an
# off-by-one modifier: differences of 1e-3 or more) is still far outside the allowance.
FLOOR_COUNTS = 3


def tolerance(p: float, n: int) -> float:
    return SIGMAS * math.sqrt(p * (1 - p) / n) + FLOOR_COUNTS / n


@pytest.mark.parametrize(
    ("index", "level", "attacker", "target", "facing", "extra"),
    [(i, *row) for i, row in enumerate(STAT_SHOTS)],
    ids=[f"{lvl}-{a}-{t}-{f.value}" + ("-" + "-".join(x) if x else "")
         for lvl, a, t, f, x in STAT_SHOTS],
)
def test_odds_match_frequencies(index: int, level: str, attacker: int, target: int,
                                facing: Facing, extra: dict[str, Any]) -> None:
    rules = RULE_SETS[level]
    plan = ShotPlan(BOOK.get(attacker), BOOK.get(target), facing, **extra)
    odds = rules.odds(plan)
    dice = SeededDice(20_240_000 + index)
    effects: Counter[Effect] = Counter()
    reloaded = 0
    for _ in range(PER_SHOT):
        fired = rules.fire(plan, dice)
        effects[fired.effect] += 1
        reloaded += fired.reload is not None and fired.reload.success

    problems = []
    for effect in OUTCOMES:
        p = float(odds.effects[effect])
        seen = effects[effect] / PER_SHOT
        if odds.effects[effect] == 0 and effects[effect]:
            problems.append(f"{effect.value}: impossible by the odds, seen {effects[effect]}x")
        if abs(seen - p) > tolerance(p, PER_SHOT):
            problems.append(f"{effect.value}: exact {p:.6f}, seen {seen:.6f} "
                            f"(allowed ±{tolerance(p, PER_SHOT):.6f})")
    if level == "tank":
        assert odds.reload is not None
        p = float(odds.reload)
        seen = reloaded / PER_SHOT
        if abs(seen - p) > tolerance(p, PER_SHOT):
            problems.append(f"reload: exact {p:.6f}, seen {seen:.6f}")
    else:
        assert reloaded == 0
    assert not problems, "; ".join(problems)


def test_statistics_use_the_whole_budget() -> None:
    assert len(STAT_SHOTS) * PER_SHOT == TOTAL_RESOLUTIONS


# --- 3. scripted dice -----------------------------------------------------------------------


def resolve(level: str, plan: ShotPlan, faces: list[int]) -> tuple[Any, ...]:
    """The outcome of one scripted resolution, in a form two runs can be compared by."""
    dice = ScriptedDice(faces)
    try:
        fired = RULE_SETS[level].fire(plan, dice)
    except DiceExhausted as error:
        assert isinstance(error, DiceError)
        assert "too few scripted dice" in str(error)
        assert dice.used == len(faces) and dice.left == []  # it ran out: every face was used
        return ("exhausted", str(error))
    except RulesError as error:
        assert str(error).strip()
        return ("refused", type(error).__name__, str(error))
    # The trace records the dice consumed, in order: a prefix of the script.
    assert list(fired.faces) == faces[:len(fired.faces)]
    assert dice.used == len(fired.faces)
    assert dice.left == faces[len(fired.faces):]
    record = fired.to_dict()
    assert record["dice"] == list(fired.faces)
    return ("shot", record)


@PROPERTY
@given(shot=shots(), faces=st.lists(st.integers(1, 6), max_size=60)
       | st.lists(st.integers(1, 6), min_size=60, max_size=60))  # half of them full length
def test_scripted_resolutions_are_deterministic(shot: tuple[str, ShotPlan],
                                                faces: list[int]) -> None:
    level, plan = shot
    first = resolve(level, plan, faces)
    event(f"{level}: {first[0]}")
    assert resolve(level, plan, list(faces)) == first
    if first[0] == "shot":
        # Replaying exactly the recorded dice gives the same shot.
        replay = resolve(level, plan, first[1]["dice"])
        assert replay == first


@PROPERTY
@given(shot=shots(), seed=st.integers(0, 2**32 - 1))
def test_random_shots_replay_from_their_trace(shot: tuple[str, ShotPlan], seed: int) -> None:
    level, plan = shot
    try:
        fired = RULE_SETS[level].fire(plan, SeededDice(seed))
    except RulesError:
        return
    replay = RULE_SETS[level].fire(plan, ScriptedDice(fired.faces))
    assert replay.to_dict() == fired.to_dict()


def test_exhausted_script_says_too_few() -> None:
    plan = ShotPlan(BOOK.get(2477), BOOK.get(2464), Facing.FRONT)
    for level in RULE_SETS:
        with pytest.raises(DiceExhausted, match="too few scripted dice"):
            RULE_SETS[level].fire(plan, ScriptedDice([]))
    # Tank: a hit, a reload and then sixes only: the extra dice never stop.
    with pytest.raises(DiceError, match="too few scripted dice"):
        RULE_SETS["tank"].fire(plan, ScriptedDice([6, 6] + [6] * 58))


# --- 4. closed forms against brute force ----------------------------------------------------

D6_PLUS_DEPTH = 25  # chains of up to 25 sixes: the mass dropped is below 6^-25 ~ 3.5e-20


def d6_plus_rule(faces: list[int]) -> int:
    """The value of a finished D6+ chain, straight from the rule: 6,5 = 6; 6,6,5 = 7."""
    if faces[0] < 6:
        return faces[0]
    return 6 + faces.count(6) - 1


@cache
def d6_plus_truncated() -> dict[int, Fraction]:
    """P(X = v) for one D6+, by walking every chain of faces up to D6_PLUS_DEPTH sixes."""
    pmf: dict[int, Fraction] = {}

    def walk(faces: list[int], chance: Fraction) -> None:
        for face in range(1, 7):
            rolled = [*faces, face]
            if face == 6:
                if len(rolled) <= D6_PLUS_DEPTH:
                    walk(rolled, chance / 6)
            else:
                value = d6_plus_rule(rolled)
                pmf[value] = pmf.get(value, Fraction(0)) + chance / 6

    walk([], Fraction(1))
    return pmf


def z_truncated(m: int) -> Fraction:
    pmf = d6_plus_truncated()
    return sum((p * pmf.get(y + m, Fraction(0)) for y, p in pmf.items()), Fraction(0))


def test_d6_plus_brute_force_matches_the_rule() -> None:
    pmf = d6_plus_truncated()
    assert [pmf[v] for v in range(1, 8)] == [Fraction(1, 6)] * 5 + [Fraction(5, 36),
                                                                      Fraction(5, 216)]
    for v in range(1, 20):
        assert pmf[v] == dice_maths.d6_plus(v)
    assert 0 <= 1 - sum(pmf.values()) < Fraction(1, 6**D6_PLUS_DEPTH)


@pytest.mark.parametrize("m", range(-15, 16))
def test_d6_plus_difference_matches_convolution(m: int) -> None:
    exact = dice_maths.d6_plus_difference(m)
    truncated = z_truncated(m)
    assert 0 <= exact - truncated < 1e-15  # truncation only drops mass
    at_least = dice_maths.d6_plus_difference_at_least(m)
    truncated_tail = sum((z_truncated(k) for k in range(m, 60)), Fraction(0))
    assert 0 <= at_least - truncated_tail < 1e-15
    assert dice_maths.d6_plus_difference(-m) == exact  # Z is symmetric


@cache
def damage_brute(pending: int, cap: int) -> tuple[Fraction, ...]:
    """P(the `pending` dice still to roll score t) for t = 0..cap, die by die from the rule:
    a 1 scores 0, 2-5 score 1, a 6 scores 1 and earns an extra die. Every path that scores at
    most `cap` has at most `cap` sixes, so the recursion is finite and exact."""
    if cap < 0:
        return ()
    if pending == 0:
        return (Fraction(1),) + (Fraction(0),) * cap
    out = [Fraction(0)] * (cap + 1)
    one = damage_brute(pending - 1, cap)              # a 1: no point, one die fewer
    two_to_five = damage_brute(pending - 1, cap - 1)  # 2-5: one point, one die fewer
    six = damage_brute(pending, cap - 1)              # 6: one point, the die is replaced
    for t in range(cap + 1):
        out[t] += one[t] / 6
        if t >= 1:
            out[t] += two_to_five[t - 1] * 4 / 6 + six[t - 1] / 6
    return tuple(out)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_damage_dice_matches_enumeration(n: int) -> None:
    cap = 30
    brute = damage_brute(n, cap)
    for h in range(cap + 1):
        assert dice_maths.damage_dice(n, h) == brute[h], (n, h)
        assert dice_maths.damage_dice_at_least(n, h) == 1 - sum(brute[:h], Fraction(0))
    numerators, denominator = dice_maths.damage_below(n, cap)
    assert [Fraction(x, denominator) for x in numerators] == list(brute[:cap])
    assert 1 - sum(brute) < 1e-12  # the tail beyond 30 points is negligible


def test_damage_dice_one_die_by_hand() -> None:
    # one die: 0 with a 1; 1 with 2-5; a 6 scores 1 and rolls again
    assert dice_maths.damage_dice(1, 0) == Fraction(1, 6)
    assert dice_maths.damage_dice(1, 1) == Fraction(4, 6) + Fraction(1, 6) * Fraction(1, 6)
    assert sum(dice_maths.damage_dice(1, h) for h in range(80)) == pytest.approx(1, abs=1e-15)


def test_check_values_of_the_notes() -> None:
    assert dice_maths.d6_plus_difference_at_least(0) == Fraction(73, 126)
    assert dice_maths.d6_plus_difference_at_least(1) == Fraction(53, 126)
    assert dice_maths.d6_plus_difference_at_least(3) == Fraction(781, 4536)
    for c in range(5, 12):
        assert dice_maths.d6_plus_difference_at_least(c) == Fraction(5443, 21 * 6**c)
        assert dice_maths.d6_plus_difference(c) == Fraction(27215, 126 * 6**c)
        assert dice_maths.d6_plus_difference(-c) == Fraction(27215, 126 * 6**c)
    # N = 8 damage dice against armour 6: net = H - 6
    band = dice_maths.damage_dice(8, 8) + dice_maths.damage_dice(8, 9)
    assert float(band) == pytest.approx(0.4111192, abs=5e-8)
    assert float(dice_maths.damage_dice_at_least(8, 11)) == pytest.approx(0.0825100, abs=5e-8)
    # mean N and variance 2N/5 (tail beyond 200 points is far below float precision)
    for n in (1, 8, 16):
        dist = [dice_maths.damage_dice(n, h) for h in range(200)]
        mean = sum(h * p for h, p in enumerate(dist))
        variance = sum(h * h * p for h, p in enumerate(dist)) - mean**2
        assert float(mean) == pytest.approx(n, abs=1e-12)
        assert float(variance) == pytest.approx(2 * n / 5, abs=1e-10)
