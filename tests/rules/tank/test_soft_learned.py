"""Values the Soft Targets Table lacks: the refusal says which value is wanted, as data; values
read from the printed table at the table go under the owner's table and fill only its gaps;
a shot with a dialled value fires with it."""
from __future__ import annotations

import pytest
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.house import HouseRules
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank.soft_fire import (
    Covered,
    SoftPlan,
    check_pieces,
    check_plan,
    fire,
    he_weapon,
    missing,
)
from cobi_companion.rules.tank.soft_odds import odds
from cobi_companion.rules.tank.soft_table import (
    BandOverlap,
    Lack,
    MissingValue,
    SoftTable,
    Wanted,
)
from cobi_companion.rules.tank.soft_table_schema import validated_table

# "Your table": the values the players dial, asked when missing (house rule soft_table)
PRINTED = HouseRules(soft_table="printed")

OWNER = validated_table({
    "weapons": {"rifle": {"ranges": [{"from_cm": 41, "to_cm": 60, "modifier": 0,
                                      "source": "owner"}]}},
    "situations": {"soft_cover": {"modifier": -1, "source": "owner"}},
}).with_source("/etc/cobi-companion/cards/tables/soft-targets.toml")
LEARNED = validated_table({
    "weapons": {"rifle": {"ranges": [{"from_cm": 20, "to_cm": 45, "modifier": 1,
                                      "source": "learned"}]},
                "grenade": {"template": {"modifier": 2, "source": "learned"}}},
    "situations": {"soft_cover": {"modifier": -3, "source": "learned"},
                   "hard_cover": {"modifier": -2, "source": "learned"}},
})
TABLE = OWNER.with_learned(LEARNED)


def piece(book, key: str, figures: int | None = None, side: Side = Side.ALLIES) -> Piece:
    card = book.get(key)
    return Piece(f"{card.short} 1", side, card, figures=figures if figures is not None
                 else card.crew)


def rifle_at(book, cm: float, *situations: str) -> SoftPlan:
    firer = piece(book, "rifleman", 1, Side.AXIS)
    target = Covered(piece(book, "pistol-soldier", 1), 1, situations)
    return SoftPlan(firer, firer.card.weapon("rifle"), (target,), book.table, range_cm=cm,
                    house=PRINTED)


@pytest.mark.parametrize("ask, wanted", [
    (lambda t: t.range_modifier("rifle", 30), Wanted(Lack.RANGE, "rifle", 30)),
    (lambda t: t.range_modifier("SMG", 12.5), Wanted(Lack.RANGE, "SMG", 12.5)),
    (lambda t: t.template_modifier("grenade"), Wanted(Lack.TEMPLATE, "grenade")),
    (lambda t: t.template_modifier("rifle"), Wanted(Lack.TEMPLATE, "rifle")),
    (lambda t: t.situation_modifier("hard_cover"), Wanted(Lack.SITUATION,
                                                          situation="hard_cover")),
])
def test_a_missing_value_says_which_value_is_wanted(book, ask, wanted):
    with pytest.raises(MissingValue) as info:
        ask(book.table)
    assert info.value.wanted == wanted
    assert "add it from your printed table" in str(info.value)


def test_no_range_is_a_refusal_not_a_value_to_ask_for(book):
    with pytest.raises(RulesError, match="needs the range in cm") as info:
        book.table.range_modifier("smg", None)
    assert not isinstance(info.value, MissingValue)


def test_learned_values_fill_only_what_the_owners_table_lacks():
    # 41-45 cm is in both bands: the owner's 0 wins; 20-40 cm only the learned +1 holds
    assert [TABLE.range_modifier("rifle", cm).value for cm in (20, 40, 41, 45, 60)] == \
        [1, 1, 0, 0, 0]
    assert TABLE.range_modifier("rifle", 30).reason == "rifle at 30 cm (learned)"
    assert TABLE.situation_modifier("soft_cover").value == -1            # the owner's
    assert TABLE.situation_modifier("hard_cover").value == -2            # learned
    assert TABLE.template_modifier("Grenade").value == 2
    assert [b.span for b in TABLE.bands("rifle")] == ["20-45 cm", "41-60 cm"]
    with pytest.raises(MissingValue, match=r"it has 20-45 cm, 41-60 cm") as info:
        TABLE.range_modifier("rifle", 61)
    assert OWNER.source in str(info.value)


def test_learned_values_are_replaced_not_added_up():
    again = TABLE.with_learned(SoftTable())
    with pytest.raises(MissingValue):
        again.range_modifier("rifle", 30)
    assert TABLE.learned == LEARNED and OWNER.learned == SoftTable()


def test_a_value_for_one_shot_holds_for_its_range_alone():
    table = OWNER.answered(Wanted(Lack.RANGE, "rifle", 30), -1, "dialled")
    assert table.range_modifier("rifle", 30).value == -1
    assert table.range_modifier("rifle", 30).reason == "rifle at 30 cm (dialled)"
    with pytest.raises(MissingValue):
        table.range_modifier("rifle", 31)
    assert OWNER.learned == SoftTable()                 # the table asked stays as it was
    assert table.source == OWNER.source


def test_a_value_for_a_band():
    table = OWNER.answered(Wanted(Lack.RANGE, "rifle", 30), 1, "learned", band=(25, 40))
    assert [table.range_modifier("rifle", cm).value for cm in (25, 30, 40, 41)] == [1, 1, 1, 0]
    assert [b.span for b in table.learned.weapons["rifle"].ranges] == ["25-40 cm"]


@pytest.mark.parametrize("band, overlapped", [
    ((25, 41), "41-60 cm"),          # the owner's band
    ((30, 70), "41-60 cm"),
])
def test_a_band_may_not_overlap_one_the_weapon_has(band, overlapped):
    with pytest.raises(BandOverlap) as info:
        OWNER.answered(Wanted(Lack.RANGE, "rifle", 30), 1, "learned", band=band)
    assert info.value.band.span == overlapped
    assert str(info.value) == f"rifle already has {overlapped}: a band from {band[0]} to " \
        f"{band[1]} cm would overlap it"


def test_a_band_may_not_overlap_a_learned_one():
    table = OWNER.with_learned(validated_table(
        {"weapons": {"rifle": {"ranges": [{"from_cm": 10, "to_cm": 20, "modifier": 2}]}}}))
    with pytest.raises(BandOverlap) as info:
        table.answered(Wanted(Lack.RANGE, "rifle", 30), 1, "learned", band=(20, 30))
    assert info.value.band.span == "10-20 cm"
    table = table.answered(Wanted(Lack.RANGE, "rifle", 30), 1, "learned", band=(21, 40))
    assert [b.span for b in table.bands("rifle")] == ["10-20 cm", "21-40 cm", "41-60 cm"]


def test_a_band_must_hold_the_shots_range():
    with pytest.raises(RulesError, match="does not hold the shot's 30 cm"):
        OWNER.answered(Wanted(Lack.RANGE, "rifle", 30), 1, "learned", band=(31, 40))


def test_template_and_situation_values():
    table = OWNER.answered(Wanted(Lack.TEMPLATE, "Grenade"), 1, "learned").answered(
        Wanted(Lack.SITUATION, situation="soft_vehicle"), -1, "learned")
    assert table.template_modifier("grenade").reason == "grenade template (learned)"
    assert table.situation_modifier("soft_vehicle").value == -1
    assert set(table.learned.weapons) == {"grenade"}


def test_missing_lists_each_value_the_fire_needs_once(book):
    plan = rifle_at(book, 30, "hard_cover")
    assert missing(plan) == (Wanted(Lack.RANGE, "rifle", 30),
                             Wanted(Lack.SITUATION, situation="hard_cover"))
    with pytest.raises(MissingValue):
        check_plan(plan)
    check_pieces(plan)                       # everything else is fine: nothing refused
    assert missing(rifle_at(book, 45)) == ()


def test_missing_under_a_template_asks_each_value_once(book):
    gunner = piece(book, "mg-gunner", 1, Side.AXIS)
    squads = tuple(Covered(piece(book, "rifleman", 2), 2, ("hard_cover",)) for _ in range(2))
    plan = SoftPlan(gunner, gunner.card.weapon("medium mg"), squads, book.table,
                    house=PRINTED)
    assert missing(plan) == (Wanted(Lack.SITUATION, situation="hard_cover"),)


def test_missing_leaves_out_pieces_the_table_does_not_attack(book):
    tank = piece(book, "pz-iv-d", side=Side.AXIS)
    tiger = Covered(piece(book, "2477"), 0)                # damage dice only: no table value
    rifles = Covered(piece(book, "rifleman", 2), 2, ("hard_cover",))
    assert missing(SoftPlan(tank, he_weapon(tank.card), (tiger,), book.table,
                            house=PRINTED)) == ()
    assert missing(SoftPlan(tank, he_weapon(tank.card), (tiger, rifles), book.table,
                            house=PRINTED)) == (
        Wanted(Lack.SITUATION, situation="hard_cover"),)


def test_missing_keeps_other_refusals(book):
    plan = rifle_at(book, 30)
    no_range = SoftPlan(plan.firer, plan.weapon, plan.targets, plan.table)
    with pytest.raises(RulesError, match="needs the range in cm"):
        missing(no_range)


def test_a_shot_fires_with_the_values_dialled_for_it(book):
    plan = rifle_at(book, 30, "hard_cover")
    for wanted, value in zip(missing(plan), (1, -2), strict=True):
        plan = SoftPlan(plan.firer, plan.weapon, plan.targets,
                        plan.table.answered(wanted, value, "dialled"), range_cm=30,
                        house=PRINTED)
    assert missing(plan) == ()
    shot = fire(plan, ScriptedDice([6, 3]))
    (attack,) = shot.attacks
    assert [(m.reason, m.value) for m in attack.modifiers] == [
        ("rifle at 30 cm (dialled)", 1), ("in hard cover (dialled)", -2)]
    assert (attack.modified, attack.defender, attack.hit) == (5, 3, True)
    assert odds(plan).all_down == pytest.approx(10 / 36)     # d6 - 1 > d6
