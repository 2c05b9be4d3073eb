"""The Soft Targets Table file: the shipped values come from the examples, an owner's file
replaces it, and a broken file is reported while the one before it stays in use."""
from __future__ import annotations

import pytest
from cobi_companion.cards import check, load_cards
from cobi_companion.rules.errors import RulesError


def test_shipped_table_holds_only_the_examples_values():
    table = load_cards([]).table
    assert table.source.endswith("tables/soft-targets.toml")
    values = {
        ("pistol", 44): table.range_modifier("pistol", 44).value,
        ("rifle", 45): table.range_modifier("rifle", 45).value,
        "he": table.template_modifier("he").value,
        "medium mg": table.template_modifier("Medium MG").value,
        "soft_vehicle": table.situation_modifier("soft_vehicle").value,
        "soft_cover": table.situation_modifier("soft_cover").value,
    }
    assert values == {("pistol", 44): -2, ("rifle", 45): 2, "he": 2, "medium mg": 2,
                      "soft_vehicle": -1, "soft_cover": -1}
    entries = [b for row in table.weapons.values() for b in row.ranges] + \
        [row.template for row in table.weapons.values() if row.template] + \
        list(table.situations.values())
    assert all(e.source and "example" in e.source for e in entries)
    assert set(table.weapons) == {"pistol", "rifle", "he", "medium mg"}


@pytest.mark.parametrize("ask, message", [
    (lambda t: t.range_modifier("smg", 20), "has no row for smg"),
    (lambda t: t.range_modifier("rifle", 20), "has no rifle value for 20 cm (it has 45 cm)"),
    (lambda t: t.template_modifier("grenade"), "has no row for grenade"),
    (lambda t: t.template_modifier("rifle"), "has no template modifier for rifle"),
    (lambda t: t.situation_modifier("hard_cover"), "has no value for a target in hard cover"),
])
def test_missing_entries_are_refused_naming_the_file(ask, message):
    table = load_cards([]).table
    with pytest.raises(RulesError, match=r"soft-targets\.toml") as info:
        ask(table)
    assert message in str(info.value)


def test_an_owners_table_replaces_the_shipped_one(tmp_path):
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "soft-targets.toml").write_text(
        '[weapons.rifle]\nranges = [{ from_cm = 0, to_cm = 60, modifier = "+1" }]\n'
        '[situations.hard_cover]\nmodifier = -2\nsource = "my table"\n')
    book = load_cards([tmp_path])
    assert book.problems == []
    assert book.table.range_modifier("rifle", 20).value == 1
    assert book.table.situation_modifier("hard_cover").reason == "in hard cover (my table)"
    with pytest.raises(RulesError, match="no row for pistol"):
        book.table.range_modifier("pistol", 44)


def test_a_broken_table_is_reported_and_the_shipped_one_stays(tmp_path):
    (tmp_path / "tables").mkdir()
    broken = tmp_path / "tables" / "soft-targets.toml"
    broken.write_text('[weapons.rifle]\nranges = [{ from_cm = 10, to_cm = 20, modifier = 1 },'
                      ' { from_cm = 15, to_cm = 30, modifier = 0 }]\n'
                      '[situations.wood]\nmodifier = 1\n')
    book = load_cards([tmp_path])
    assert book.table.range_modifier("rifle", 45).value == 2      # still the shipped table
    problems = [str(p) for p in book.problems]
    assert problems == [
        f"{broken}: weapons.rifle.ranges: the bands 10-20 cm and 15-30 cm overlap",
        f"{broken}: situations: 'wood' is not a situation; allowed: soft_vehicle, soft_cover, "
        f"hard_cover"]
    assert [str(p) for p in check(broken)[1]] == problems
    assert [str(p) for p in check(tmp_path)[1]] == problems


def test_a_table_file_that_is_not_toml(tmp_path):
    path = tmp_path / "soft-targets.toml"
    path.write_text("[weapons.rifle\n")
    (problem,) = check(path)[1]
    assert str(problem).startswith(f"{path}: not valid TOML")
