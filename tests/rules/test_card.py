"""The info card schema: the notations printed on cards, and unknown versus none."""
from __future__ import annotations

import pytest
from cobi_companion.rules.card import Band, CardValueMissing, DieRange, InfoCard
from cobi_companion.rules.card_schema import validated_card
from pydantic import ValidationError


def make(**values) -> InfoCard:
    return validated_card({"set_number": 1, "name": "T", **values})


@pytest.mark.parametrize(("printed", "expected"), [
    ("3-6", DieRange(3, 6)), ("4-6", DieRange(4, 6)), ("4+", DieRange(4, 6)),
    ("6", DieRange(6, 6)), (5, DieRange(5, 5)), ("none", None), ("-", None), ("None", None)])
def test_die_ranges(printed, expected):
    assert make(gun_to_hit=printed).gun_to_hit == expected


@pytest.mark.parametrize(("printed", "expected"), [
    ("2-3", Band(2, 3)), (2, Band(2, 2)), ("4", Band(4, 4)), ("-", None), ("none", None)])
def test_effect_bands(printed, expected):
    assert make(weaken=printed).weaken == expected


@pytest.mark.parametrize(("printed", "expected"), [("+2", 2), ("2+", 2), (2, 2), ("-1", -1),
                                                   ("none", None)])
def test_he_modifier(printed, expected):
    assert make(he_modifier=printed).he_modifier == expected


def test_move_costs_read_by_meaning():
    card = make(turn_45="-5 cm", rough=-5, road="+10 cm", move_forward="22 cm")
    assert (card.turn_45, card.rough, card.road, card.move_forward) == (5, 5, 10, 22)
    assert card.printed("turn_45") == "-5 cm" and card.printed("road") == "+10 cm"


@pytest.mark.parametrize(("field", "value"), [
    ("gun_to_hit", "3-7"), ("gun_to_hit", "0-6"), ("gun_to_hit", "5-3"), ("reload", "often"),
    ("weaken", "3-2"), ("armour_front", -1), ("armour_front", "thick"), ("damage", 99),
    ("destroy", True), ("available", 2024)])
def test_values_out_of_range_are_refused(field, value):
    with pytest.raises(ValidationError) as info:
        make(**{field: value})
    assert info.value.errors()[0]["loc"] == (field,)


def test_unknown_differs_from_none():
    card = make(gun_to_hit="none")
    assert card.need("gun_to_hit") is None
    with pytest.raises(CardValueMissing, match="reload"):
        card.need("reload")
    assert card.printed("gun_to_hit") == "none" and card.printed("reload") == "?"


def test_unknown_fields_are_refused():
    with pytest.raises(ValidationError):
        make(armuor_front=3)


def test_die_range_membership():
    assert 3 in DieRange(3, 6) and 6 in DieRange(3, 6) and 2 not in DieRange(3, 6)
    assert str(DieRange(3, 6)) == "3-6" and str(Band(4, 4)) == "4"


def test_readiness_says_which_cards_cannot_fire_or_be_fired_at(book):
    from cobi_companion.rules.card import Facing
    from cobi_companion.rules.shot import readiness

    tiger = readiness(book.get(2477))
    assert tiger.fires and not tiger.gunless and tiger.facings == tuple(Facing)
    assert not tiger.partial
    pz1 = readiness(book.get(2474))        # its card says: no gun
    assert not pz1.fires and pz1.gunless and not pz1.partial
    pz4h = readiness(book.get(2508))       # the Easy example gives front armour and destroy
    assert not pz4h.fires and not pz4h.gunless
    assert pz4h.facings == (Facing.FRONT,) and pz4h.partial
