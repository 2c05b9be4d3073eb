"""The damage dice by their integer recurrence, against the closed form it replaced, and the
odds built on it against an independent calculator, up to the largest values a card may have.

The closed form (the notes' sum of binomials) and the per-result classification (`effect_of`,
one damage result at a time) are how the odds were computed before; here they are the
reference that the recurrence and the effect table must match exactly, fraction for fraction.
"""
from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from cobi_companion.rules import dice_maths
from cobi_companion.rules.card import CardValueMissing, Facing, InfoCard
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.odds import OUTCOMES
from cobi_companion.rules.shot import ShotPlan, effect_of, effect_table
from cobi_companion.rules.status import Effect, Status
from cobi_companion.rules.tank import hard_fire
from hypothesis import given, settings
from hypothesis import strategies as st


def card(**values: object) -> InfoCard:
    """A tank card checked as a card file's table is."""
    return validated_card({"set_number": 9999, "name": "Drawn", "kind": "hard", **values})


def firer(dice: int) -> InfoCard:
    """A Tiger I with `dice` damage dice (the Tiger's to hit and reload)."""
    return card(name="Tiger I", gun_to_hit="3-6", reload="4-6", damage=dice)


def most(field: str) -> int:
    """The largest value a card file may give in a field: the schema takes it, and refuses
    one more."""
    top = 30
    card(**{field: top})
    with pytest.raises(ValueError):
        card(**{field: top + 1})
    return top


# The largest threshold a shot's odds can need: the thickest armour plus the highest Destroy.
MOST_ARMOUR = max(most(facing.armour_field) for facing in Facing)
LONGEST = MOST_ARMOUR + most("destroy")
MOST_DICE = most("damage")


def closed_form(n: int, h: int) -> int:
    """6^(n+h) P(H = h) for n damage dice, by the notes' closed form."""
    if n == 0:
        return 1 if h == 0 else 0
    return sum(comb(n, k) * comb(n + h - k - 1, h - k) * 24**k for k in range(min(n, h) + 1))


@pytest.mark.parametrize("n", range(41))
def test_the_recurrence_is_the_closed_form_for_every_threshold(n: int) -> None:
    exact = [closed_form(n, h) for h in range(LONGEST + 2)]
    assert LONGEST == 60
    for limit in range(LONGEST + 2):
        numerators, denominator = dice_maths.damage_below(n, limit)
        assert len(numerators) == limit
        if limit:
            assert denominator == 6 ** (n + limit - 1)
        assert numerators == [b * 6 ** (limit - 1 - h) for h, b in enumerate(exact[:limit])]
    for h in range(LONGEST + 2):
        assert dice_maths.damage_numerator(n, h) == exact[h]


def test_the_first_values_by_hand() -> None:
    # Three dice, one point: one die scores 1 without a 6 and the others 0 (3 · 4/6 · 1/36),
    # or one die is a 6 whose extra die scores 0, the others 0 (3 · 1/6 · 1/6 · 1/36).
    assert dice_maths.damage_dice(3, 1) == Fraction(3 * 4 * 6 + 3, 6**4) == Fraction(75, 6**4)
    # Two dice, two points: both score without a 6 (16/36); one 6 and its extra and the other
    # die score 1 between them (2 · 2 · 1/6 · 4/6 · 1/6); both 6 with extras scoring 0; one 6
    # whose extra is a 6 whose extra scores 0, the other die 0 (2 · 1/6^4).
    assert dice_maths.damage_dice(2, 2) == Fraction(576 + 96 + 1 + 2, 6**4)
    assert dice_maths.damage_below(5, 0) == ([], 1)


BANDS = ("destroy_gun", "weaken", "immobilize")


@st.composite
def target_cards(draw: st.DrawFn, partial: bool = False) -> InfoCard:
    """A tank card anywhere in the schema's range: armour and Destroy up to 30, each band
    somewhere in 0-30 or none (or, with `partial`, missing from the file)."""
    values: dict[str, object] = {"destroy": draw(st.integers(0, most("destroy")))}
    for facing in Facing:
        values[facing.armour_field] = draw(st.integers(0, MOST_ARMOUR))
    for band in BANDS:
        kind = draw(st.sampled_from(["band", "none", "missing"] if partial else ["band", "none"]))
        if kind == "band":
            low = draw(st.integers(0, 30))
            values[band] = f"{low}-{draw(st.integers(low, 30))}"
        elif kind == "none":
            values[band] = "-"
    return card(**values)


statuses = st.builds(Status, weakened=st.booleans(), gun_destroyed=st.booleans(),
                     immobilized=st.booleans())


@settings(max_examples=300, deadline=None)
@given(target=target_cards(partial=True), before=statuses)
def test_the_effect_table_is_effect_of_result_by_result(target: InfoCard,
                                                        before: Status) -> None:
    one_by_one: list[Effect] = []
    missing = None
    for net in range(target.destroy or 0):
        try:
            one_by_one.append(effect_of(target, net, before, InfoCard.need)[0])
        except CardValueMissing as exc:
            missing = exc.field
            break
    if missing is None:
        assert effect_table(target, before) == one_by_one
    else:
        with pytest.raises(CardValueMissing):
            effect_table(target, before)


def reference_effects(plan: ShotPlan) -> dict[Effect, Fraction]:
    """The shot's odds as they were computed before: the closed form for each P(H = h) and
    `effect_of` for each result, all in fractions."""
    dice: int = plan.attacker.need("damage")
    armour: int = plan.target.need(plan.facing.armour_field)
    destroy: int = plan.target.need("destroy")
    hit = Fraction(sum(1 for face in range(1, 7) if face >= plan.attacker.need("gun_to_hit").low),
                   6)
    given = dict.fromkeys(OUTCOMES[1:], Fraction(0))
    below = Fraction(0)
    for h in range(armour + destroy):
        p = Fraction(closed_form(dice, h), 6 ** (dice + h))
        below += p
        net = h - armour
        effect = effect_of(plan.target, net, plan.target_status, InfoCard.need)[0] \
            if net >= 0 else Effect.NONE
        given[effect] += p
    given[Effect.DESTROYED] += 1 - below
    return {Effect.MISS: 1 - hit} | {effect: hit * p for effect, p in given.items()}


@settings(max_examples=150, deadline=None)
@given(target=target_cards(), before=statuses, facing=st.sampled_from(list(Facing)),
       dice=st.integers(0, MOST_DICE))
def test_the_odds_are_the_old_calculation_exactly_over_the_whole_schema(
        target: InfoCard, before: Status, facing: Facing, dice: int) -> None:
    plan = ShotPlan(firer(dice), target, facing, target_status=before)
    odds = hard_fire.odds(plan)
    assert odds.effects == reference_effects(plan)
    assert list(odds.effects) == list(OUTCOMES) and sum(odds.effects.values()) == 1


@pytest.mark.parametrize("dice", [0, 1, 16, MOST_DICE])
def test_the_odds_at_the_largest_threshold_the_schema_allows(dice: int) -> None:
    """Armour 30 and Destroy 30 with every band: the threshold no card can pass."""
    thickest = card(name="Thickest", destroy=most("destroy"), destroy_gun="20-29",
                    weaken="10-25", immobilize="0-30",
                    **{facing.armour_field: MOST_ARMOUR for facing in Facing})
    plan = ShotPlan(firer(dice), thickest, Facing.FRONT)
    odds = hard_fire.odds(plan)
    assert odds.effects == reference_effects(plan)
    assert odds.effects[Effect.DESTROYED] > 0 or dice == 0
