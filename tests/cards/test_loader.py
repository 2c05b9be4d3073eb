"""Card files: the shipped ones validate; each kind of broken file gets a message naming the
file, the field and what is allowed, and the other cards still load."""
from __future__ import annotations

from pathlib import Path

import pytest
from cobi_companion.cards import check, load_cards, load_folder, shipped_folder
from cobi_companion.rules.errors import RulesError

SHIPPED = {"2456": "7TP", "2464": "Sherman M4A1", "2474": "Pz 1b", "2477": "Tiger I",
           "2508": "Pz.Kpfw. IV Ausf. H", "rifleman": "Rifleman",
           "pistol-soldier": "Soldier with pistol", "mg-gunner": "Medium MG team",
           "bofors-37mm": "37 mm Bofors AT gun", "pz-iv-d": "Pz.Kpfw. IV Ausf. D",
           "motorcycle-sidecar": "Motorcycle with side-car"}


def test_every_shipped_card_validates():
    cards, problems = load_folder(shipped_folder())
    assert problems == []
    assert {c.key: c.name for c in cards} == SHIPPED


def test_shipped_cards_as_printed(book):
    tiger = book.get(2477)
    assert (tiger.move_forward, tiger.turn_45, tiger.road, str(tiger.gun_to_hit),
            str(tiger.reload), tiger.damage, tiger.he_modifier) == (22, 5, 10, "3-6", "5-6", 16, 2)
    assert (tiger.armour_front, tiger.armour_side, tiger.armour_rear, tiger.armour_top) == \
        (12, 8, 8, 2)
    assert (tiger.destroy, str(tiger.destroy_gun), str(tiger.weaken), str(tiger.immobilize),
            tiger.crew, tiger.cost, tiger.available) == (5, "4", "2-3", "1", 5, 176, 1943)
    sherman = book.get(2464)
    assert sherman.he_modifier == 2 and sherman.printed("he_modifier") == "+2"
    assert sherman.weaken is None and sherman.known("weaken")  # printed "-"
    assert "M1A1" in sherman.other_names
    pz1 = book.get(2474)
    assert pz1.gun_to_hit is None and pz1.damage is None and pz1.known("gun_to_hit")
    pz4 = book.get(2508)
    assert pz4.armour_front == 6 and pz4.destroy == 4
    assert not pz4.known("armour_side") and not pz4.known("gun_to_hit")


BROKEN = {
    "bad-toml.toml": ("set_number = 9001\nname = \"Broken\nx", None, "not valid TOML"),
    "unknown-field.toml": ("set_number = 9002\nname = \"X\"\narmuor_front = 3\n",
                           "armuor_front", "did you mean armour_front"),
    "out-of-range.toml": ("set_number = 9003\nname = \"X\"\narmour_front = -3\n",
                          "armour_front", "allowed: a whole number from 0 to 30"),
    "bad-range.toml": ("set_number = 9004\nname = \"X\"\ngun_to_hit = \"3-7\"\n",
                       "gun_to_hit", "allowed: a range of D6 faces like 3-6"),
    "no-name.toml": ("set_number = 9005\n", "name", "is missing"),
    "z-duplicate.toml": ("set_number = 9100\nname = \"Second\"\n", "set_number",
                         "already the card in"),
}


def write_folder(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, (text, _field, _words) in BROKEN.items():
        (folder / name).write_text(text)
    (folder / "good.toml").write_text("set_number = 9100\nname = \"First\"\ndamage = 3\n")
    (folder / "tiger-override.toml").write_text(
        "set_number = 2477\nname = \"Tiger I (house rules)\"\ndamage = 15\n")
    (folder / "notes.txt").write_text("not a card")
    return folder


def test_each_broken_file_gets_its_message_and_the_rest_load(tmp_path):
    folder = write_folder(tmp_path / "cards")
    book = load_cards([folder])
    by_file = {Path(p.path).name: p for p in book.problems}
    assert set(by_file) == set(BROKEN)
    for name, (_text, field, words) in BROKEN.items():
        problem = by_file[name]
        assert problem.field == field, name
        assert words in problem.message, (name, problem.message)
        assert str(problem).startswith(str(folder / name))
    assert book.get(9100).name == "First"
    assert book.get(2477).name == "Tiger I (house rules)"    # a user card overrides by set
    assert book.get(2464).name == "Sherman M4A1"               # the shipped cards still load
    assert "9001" not in book.cards


def test_check_a_single_file(tmp_path):
    path = tmp_path / "one.toml"
    path.write_text("set_number = 1\nname = \"X\"\nweaken = \"3-2\"\n")
    cards, problems = check(path)
    assert cards == [] and len(problems) == 1
    assert str(problems[0]) == (f"{path}: weaken: '3-2' is not allowed; allowed: a damage "
                                f"result like 2 or 2-3 (0 to 30), or - for none")
    assert check(tmp_path / "missing.toml")[1][0].message == "no such file or folder"


def test_a_card_asked_for_by_odd_digits_is_unknown_not_a_crash():
    """'²' is a digit to str.isdigit() but no number; a set number with leading zeros is the
    set number."""
    book = load_cards()
    assert book.get("02477").name == "Tiger I"
    for odd in ("²", "٣", "2477²", "9" * 5000):
        with pytest.raises(RulesError, match="unknown card"):
            book.get(odd)


def test_a_key_of_6000_letters_is_named_short(tmp_path):
    # A card's unknown key of any length: the message names the file, the key cut short and
    # the fields allowed (the key whole hung the box's first screen, which shows it).
    path = tmp_path / "long.toml"
    path.write_text('set_number = 9100\nname = "X"\n' + "k" * 6000 + " = 1\n")
    [problem] = check(path)[1]
    assert problem.field == "k" * 39 + "…"
    assert problem.message.startswith("is not a card field; allowed fields: set_number, id, ")
    assert len(str(problem)) < 1000


def test_other_names_have_a_length_and_a_count(tmp_path):
    path = tmp_path / "names.toml"
    path.write_text('set_number = 9100\nname = "X"\nother_names = ["' + "n" * 61 + '"]\n')
    [problem] = check(path)[1]
    assert problem.field == "other_names.0"
    assert problem.message.endswith("allowed: a list of up to 20 other printed names of up to "
                                    "60 letters each, like [\"M1A1\"]")
    path.write_text('set_number = 9100\nname = "X"\nother_names = [' + '"M", ' * 21 + ']\n')
    [problem] = check(path)[1]
    assert problem.field == "other_names"
    path.write_text('set_number = 9100\nname = "X"\nother_names = [' + '"M1A1", ' * 20 + ']\n')
    assert check(path)[1] == []
