"""Our table: the companion's estimate of the Soft Targets Table the rules do not print
(cards/tables/soft-targets-estimate.toml, house rule soft_table = estimate, the default).

It agrees with every worked example, is never better at a longer range, covers every weapon of
the shipped cards at every range from 0 cm to the longest a table takes, so that no shot with
it needs a value the table lacks; the owner's table still wins where it has a value, and with
"your table" the estimate is not read at all."""
from __future__ import annotations

import contextlib
from itertools import pairwise
from pathlib import Path

import pytest
from cobi_companion.cards import load_cards, load_table, shipped_folder
from cobi_companion.cards.book import SOFT_ESTIMATE
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.card import Kind, Weapon
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.house import DEFAULT, HouseRules
from cobi_companion.rules.status import Side, Status
from cobi_companion.rules.tank.soft_fire import (
    Covered,
    SoftPlan,
    check_pieces,
    fire,
    he_weapon,
    missing,
)
from cobi_companion.rules.tank.soft_odds import odds
from cobi_companion.rules.tank.soft_table import Lack, MissingValue, SoftTable, Wanted

ESTIMATE = load_table(shipped_folder() / SOFT_ESTIMATE)
OURS = SoftTable().with_estimate(ESTIMATE)       # no owner's table: the estimate alone
PRINTED = HouseRules(soft_table="printed")
LONGEST_CM = 1000                                # a table file's and the command line's
# every whole and half cm, and the ranges either side of each band's ends
RANGES = sorted({n / 2 for n in range(2 * LONGEST_CM + 1)} | {
    end + step for row in ESTIMATE.weapons.values() for band in row.ranges
    for end in (band.from_cm, band.to_cm) for step in (-0.0006, -0.0004, 0, 0.0004, 0.0006)
    if 0 <= end + step <= LONGEST_CM})
SITUATED = [(), ("soft_cover",), ("hard_cover",), ("soft_vehicle",),
            ("soft_cover", "soft_vehicle")]


def test_the_estimate_is_the_default_and_a_house_rule_of_the_tank_game():
    assert DEFAULT.soft_table == "estimate"
    assert HouseRules.from_dict({"soft_table": "printed"}).soft_table == "printed"


def test_every_value_says_it_is_our_estimate():
    entries = [*ESTIMATE.situations.values()]
    for row in ESTIMATE.weapons.values():
        entries += [*row.ranges, *([row.template] if row.template else [])]
    assert entries and all(e.source and e.source.startswith("estimate: ") for e in entries)


@pytest.mark.parametrize(("weapon", "cm", "value"), [("pistol", 44, -2), ("rifle", 45, 2)])
def test_the_examples_ranges_are_reproduced(weapon, cm, value):
    assert OURS.reading(True).range_modifier(weapon, cm).value == value


def test_the_examples_templates_and_situations_are_reproduced():
    ours = OURS.reading(True)
    assert ours.template_modifier("he").value == 2
    assert ours.template_modifier("medium mg").value == 2
    assert ours.situation_modifier("soft_vehicle").value == -1
    assert ours.situation_modifier("soft_cover").value == -1
    # hard cover is no better than soft cover
    assert ours.situation_modifier("hard_cover").value <= -1


@pytest.mark.parametrize("weapon", sorted(w for w, row in ESTIMATE.weapons.items()
                                          if row.ranges))
def test_a_weapon_is_never_better_at_a_longer_range_and_every_range_has_a_value(weapon):
    ours = OURS.reading(True)
    values = [ours.range_modifier(weapon, cm).value for cm in RANGES]
    assert all(near >= far for near, far in pairwise(values))
    bands = ESTIMATE.bands(weapon)
    assert bands[0].from_cm == 0 and bands[-1].to_cm == LONGEST_CM


def rifle_and_pistol_examples(table: SoftTable) -> list[tuple[int, int, bool]]:
    book = load_cards([])
    # the side-car's gunner: a figure in a soft vehicle, as in the example
    gunner = Piece("Gunner 1", Side.AXIS, book.get("rifleman"), figures=1)
    shots = []
    for key, weapon, cm, dice in (("pistol-soldier", "pistol", 44, [3, 2]),
                                  ("rifleman", "rifle", 45, [4, 3])):
        firer = Piece("Shooter", Side.ALLIES, book.get(key), figures=1)
        plan = SoftPlan(firer, firer.card.weapon(weapon), (Covered(
            gunner, 1, ("soft_vehicle",)),), table, range_cm=cm)
        (attack,) = fire(plan, ScriptedDice(dice)).attacks
        shots.append((attack.modified, attack.defender, attack.hit))
    return shots


def test_the_worked_examples_play_out_the_same_with_our_table_alone():
    # the pistol's 3 - 3 = 0 against 2: a miss; the rifle's 4 + 1 = 5 against 3: a kill
    assert rifle_and_pistol_examples(OURS) == [(0, 2, False), (5, 3, True)]
    book = load_cards([])
    tank = Piece("Pz IV D 1", Side.AXIS, book.get("pz-iv-d"))
    gun = Piece("Bofors 1", Side.ALLIES, book.get("bofors-37mm"), figures=3)
    plan = SoftPlan(tank, he_weapon(tank.card), (Covered(gun, 3, ("soft_cover",)),), OURS,
                    cover=True)
    shot = fire(plan, ScriptedDice([6, 3, 4, 3, 4, 3, 1, 3, 1, 5]))
    assert [(a.modified, a.defender) for a in shot.attacks] == [(5, 3), (5, 3), (2, 3), (2, 5)]
    mg = Piece("MG 1", Side.AXIS, book.get("mg-gunner"), figures=1)
    rifles = Piece("Rifle 1", Side.ALLIES, book.get("rifleman"), figures=2)
    plan = SoftPlan(mg, mg.card.weapon("medium mg"), (Covered(rifles, 2, ("soft_cover",)),),
                    OURS)
    shot = fire(plan, ScriptedDice([4, 2, 2, 5, 2, 3]))
    assert [(a.modified, a.defender) for a in shot.attacks] == [(5, 2), (3, 5), (3, 3)]


def weapons_of(piece: Piece) -> list[Weapon]:
    weapons = list(piece.card.weapons)
    with contextlib.suppress(RulesError):     # no HE on its card
        weapons.append(he_weapon(piece.card))
    return weapons


def pieces(side: Side) -> list[Piece]:
    """A piece of every shipped card, each with the crew it may have."""
    book = load_cards([])
    made = []
    for card in book.sorted():
        crew = card.crew if card.crew is not None else (
            1 if card.kind in (Kind.FIGURE, Kind.GUN, Kind.OPEN_TOP) else None)
        made.append(Piece(f"{card.label} 1", side, card, Status(), crew))
    return made


def targets(piece: Piece) -> list[Covered]:
    """Every way a single shot or a template may attack the piece."""
    ways = []
    for situations in SITUATED:
        for figures in range(0, (piece.figures or 0) + 1):
            for model in (True, False):
                ways.append(Covered(piece, figures, situations, model=model))
    return ways


def test_no_shot_of_a_shipped_card_asks_for_a_value_with_our_table():
    """Every shipped card's every weapon (and HE) at every piece of every shipped card, in
    every situation, every figure count, at ranges from 0 to 1000 cm: whatever the rules
    allow needs nothing the table lacks, and its odds are worked out."""
    table = load_cards([]).table                 # the shipped table, with our estimate
    walked = 0
    for firer in pieces(Side.AXIS):
        for weapon in weapons_of(firer):
            for target in pieces(Side.ALLIES):
                for covered in targets(target):
                    cms = (None,) if weapon.template else (
                        0, 0.5, 44, 45, 99.9996, 100, 100.0004, 100.0006, 100.001, 250, 1000)
                    for cm in cms:
                        plan = SoftPlan(firer, weapon, (covered,), table, range_cm=cm)
                        try:
                            check_pieces(plan)
                        except RulesError as exc:
                            assert not isinstance(exc, MissingValue)
                            continue
                        assert missing(plan) == (), (firer.label, weapon.name, covered, cm)
                        try:
                            odds(plan)               # a partial card may still refuse them
                        except RulesError as exc:
                            assert not isinstance(exc, MissingValue)
                        walked += 1
    assert walked > 500
    ours = table.reading(True)
    for name in {w.name for f in pieces(Side.AXIS) for w in weapons_of(f)
                 if w.template is None}:
        for cm in RANGES:                         # every range, not only the ones above
            ours.range_modifier(name, cm)


def test_the_same_shot_with_your_table_asks_and_the_owners_table_wins_over_ours(
        tmp_path: Path):
    book = load_cards([])
    firer = Piece("Rifle 1", Side.AXIS, book.get("rifleman"), figures=1)
    target = Covered(Piece("Rifle 2", Side.ALLIES, book.get("rifleman"), figures=1), 1)
    plan = SoftPlan(firer, firer.card.weapon("rifle"), (target,), book.table, range_cm=30)
    assert missing(plan) == ()
    assert missing(SoftPlan(firer, firer.card.weapon("rifle"), (target,), book.table,
                            range_cm=30, house=PRINTED)) == (Wanted(Lack.RANGE, "rifle", 30),)
    mine = tmp_path / "mine"
    (mine / "tables").mkdir(parents=True)
    (mine / "tables" / "soft-targets.toml").write_text(
        "[weapons.rifle]\nranges = [{ from_cm = 0, to_cm = 40, modifier = -1 }]\n"
        "[situations.hard_cover]\nmodifier = -3\n")
    learned = tmp_path / "learned.toml"
    learned.write_text(
        "[weapons.rifle]\nranges = [{ from_cm = 41, to_cm = 60, modifier = 0 }]\n"
        "[weapons.smg]\nranges = [{ from_cm = 0, to_cm = 50, modifier = 1 }]\n")
    table = load_cards([mine], learned).table
    ours, yours = table.reading(True), table.reading(False)
    # our table: the owner's values, then the estimate, then the learned values (only for a
    # weapon the estimate does not name)
    assert [ours.range_modifier("rifle", cm).value for cm in (30, 50, 150)] == [-1, 2, 1]
    assert ours.situation_modifier("hard_cover").value == -3
    assert ours.range_modifier("smg", 20).value == 1
    # your table: the owner's values, then the learned ones; never the estimate
    assert [yours.range_modifier("rifle", cm).value for cm in (30, 50)] == [-1, 0]
    with pytest.raises(MissingValue):
        yours.range_modifier("rifle", 150)
    with pytest.raises(MissingValue):
        yours.situation_modifier("soft_vehicle")


def test_a_fire_with_your_table_says_so_in_its_trace():
    book = load_cards([])
    firer = Piece("Rifle 1", Side.AXIS, book.get("rifleman"), figures=1)
    target = Covered(Piece("Rifle 2", Side.ALLIES, book.get("rifleman"), figures=1), 1)
    ours = SoftPlan(firer, firer.card.weapon("rifle"), (target,), book.table, range_cm=45)
    yours = SoftPlan(firer, firer.card.weapon("rifle"), (target,), book.table, range_cm=45,
                     house=PRINTED)
    assert fire(ours, ScriptedDice([4, 3])).house_rules == ()
    assert fire(yours, ScriptedDice([4, 3])).house_rules == (("soft_table", "printed"),)
    assert odds(yours).house_rules == (("soft_table", "printed"),)
