"""Card, table and learned-table files that are not what they seem (a FIFO or a link to
/dev/zero named like a card, a file of megabytes, bytes that are not UTF-8, nesting hundreds
deep, numbers of thousands of digits): each is that file's problem, named with its reason, and
every other card and table still loads. Real files, FIFOs and links in a real folder."""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cobi_companion.cards import (
    check,
    cobra_tables,
    learned_file,
    load_cards,
    load_folder,
    shipped_folder,
)
from cobi_companion.cards.tomlfile import MAX_DEPTH

DIGITS = sys.get_int_max_str_digits()
GOOD = 'set_number = 9100\nname = "Good"\ndamage = 3\n'
REGULAR = "allowed: a regular file of at most 256 KiB"
TOO_DEEP = f"tables and arrays are nested more than {MAX_DEPTH} deep"
TOO_LONG = f"a whole number of more than {DIGITS} digits"


# name -> (how it is made, what the problem says)
ODD = {
    "9001-fifo.toml": (None, f"cannot be read: it is a pipe (FIFO); {REGULAR}"),   # make_fifo
    "9002-zero.toml": (lambda p: p.symlink_to("/dev/zero"),
                       f"cannot be read: it is a device; {REGULAR}"),
    "9003-folder.toml": (lambda p: p.mkdir(), f"cannot be read: it is a folder; {REGULAR}"),
    "9004-huge.toml": (lambda p: p.write_text(GOOD + "# " + "x" * 300_000 + "\n"),
                       "cannot be read: it is over 32 KiB"),      # a card's limit
    "9005-latin1.toml": (lambda p: p.write_bytes(b'set_number = 9005\nname = "Ty\xe9"\n'),
                         "cannot be read: not UTF-8 text (byte 0xe9"),
    "9006-deep.toml": (lambda p: p.write_text("x = " + "[" * 600 + "]" * 600 + "\n"), TOO_DEEP),
    "9007-deep-tables.toml": (lambda p: p.write_text(GOOD + "x" + ".a" * 5000 + " = 1\n"),
                              TOO_DEEP),
    "9008-digits.toml": (lambda p: p.write_text(GOOD + f"cost = {'1' * 5000}\n"), TOO_LONG),
    "9009-hex.toml": (lambda p: p.write_text(GOOD + f"cost = 0x{'f' * 5000}\n"),
                      f"cost: {TOO_LONG}"),
    "9010-long-text.toml": (lambda p: p.write_text(GOOD + f'gun_to_hit = "{"1" * 5000}-6"\n'),
                            "gun_to_hit: '1111"),
}


def odd_folder(folder: Path, make_fifo: Callable[[Path], Path]) -> Path:
    """A folder with a good card and each of the odd files."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "good.toml").write_text(GOOD)
    for name, (make, _says) in ODD.items():
        (make or make_fifo)(folder / name)
    return folder


def test_each_odd_card_file_is_named_with_its_reason_and_the_rest_load(tmp_path: Path,
                                                                        make_fifo) -> None:
    folder = odd_folder(tmp_path / "cards", make_fifo)
    book = load_cards([folder])
    assert book.get(9100).name == "Good" and book.get(2477).name == "Tiger I"
    assert len(book.cards) == len(load_folder(shipped_folder())[0]) + 1
    said = {Path(problem.path).name: str(problem) for problem in book.problems}
    assert sorted(said) == sorted(ODD)                   # one problem each, by its file
    for name, (_make, says) in ODD.items():
        assert said[name].startswith(f"{folder / name}: ") and says in said[name], said[name]
    assert all("\n" not in line and len(line) < 400 for line in said.values())


def test_cards_check_on_the_folder_and_on_each_odd_file(tmp_path: Path, make_fifo) -> None:
    folder = odd_folder(tmp_path / "cards", make_fifo)
    cards, problems = check(folder)
    assert [card.key for card in cards] == ["9100"]
    assert sorted(Path(p.path).name for p in problems) == sorted(ODD)
    for name, (_make, says) in ODD.items():
        cards, problems = check(folder / name)
        if name == "9003-folder.toml":                  # named on its own, it is a folder
            assert (cards, problems) == ([], [])
            continue
        assert cards == [] and len(problems) == 1 and says in str(problems[0])


def test_odd_tables_are_named_and_the_ones_before_them_stay(tmp_path: Path, make_fifo) -> None:
    folder = tmp_path / "cards"
    (folder / "tables").mkdir(parents=True)
    (folder / "cobra").mkdir()
    make_fifo(folder / "tables" / "soft-targets.toml")
    (folder / "cobra" / "tables.toml").symlink_to("/dev/zero")
    state = tmp_path / "state"
    learned = learned_file(state)
    learned.parent.mkdir(parents=True)
    learned.write_text("[weapons.rifle]\nranges = " + "[" * 600 + "]" * 600 + "\n")
    book = load_cards([folder], learned)
    tables, cobra_problems = cobra_tables([folder])
    assert book.table == load_cards([]).table              # the shipped table stays
    assert [str(p) for p in book.problems] == [
        f"{folder / 'tables' / 'soft-targets.toml'}: cannot be read: it is a pipe (FIFO); "
        f"{REGULAR}",
        f"{learned}: {TOO_DEEP}; allowed: at most {MAX_DEPTH} levels"]
    assert tables == cobra_tables([])[0]
    assert [str(p) for p in cobra_problems] == [
        f"{folder / 'cobra' / 'tables.toml'}: cannot be read: it is a device; {REGULAR}"]


@pytest.mark.parametrize("row", ["1" * 5000, f"1-{'2' * 5000}"])
def test_a_cobra_row_of_thousands_of_digits_is_said_in_the_boxs_words(tmp_path: Path,
                                                                      row: str) -> None:
    # Valid TOML (a key is text): the table's own check meets the number.
    path = tmp_path / "cobra" / "tables.toml"
    path.parent.mkdir()
    path.write_text(f'[weather.A]\n"{row}" = "clear"\n')
    [problem] = check(path)[1]
    assert str(problem) == f"{path}: weather: {TOO_LONG}; allowed: a number of at most " \
                           f"{DIGITS} digits"
