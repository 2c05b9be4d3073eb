"""A card or table file with 30,000 problems costs little (issue 31): a card file over
MOST_CARD_BYTES, or of more values than MOST_CARD_VALUES, is one problem, found before it is
parsed or checked (with pydantic); of any other file at most
MOST_PROBLEMS problems are kept, and so shown and snapshotted, then one line stands for the rest
and says how many; `cards check` counts them all. Counted here, never timed: the start's figures
are bench/bad_card.py's. Real files in a real folder, the real snapshot file."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from cobi_companion.cards import card_book, check, load_cards
from cobi_companion.cards.book import MOST_PROBLEMS, CardProblem, problem_count
from cobi_companion.cards.loader import MOST_CARD_BYTES, MOST_CARD_VALUES

MANY = 30_000
UNDER = MOST_CARD_VALUES - 100     # problems in a card file the loader still checks


def misspelt_keys(count: int) -> str:
    return 'id = "bad"\nname = "Bad"\n' + "".join(f"k{i:x}=1\n" for i in range(count))


def numbers_for_names(count: int) -> str:
    return 'id = "bad"\nname = "Bad"\nother_names = [' + ",".join(["1"] * count) + "]\n"


def nameless_weapons(count: int) -> str:
    return 'id = "bad"\nname = "Bad"\nweapons = [' + ",".join(["{}"] * count) + "]\n"


def bad_speech(count: int) -> str:
    # a spared table (speech): the card plays without it, its problems reported all the same
    return ('id = "bad"\nname = "Bad"\n[speech]\n' +
            "".join(f"s{i:x}=1\n" for i in range(count)))


def soft_table_rows(count: int) -> str:
    return "".join(f"w{i:x}=1\n" for i in range(count))


CARDS = {"misspelt keys": ("bad.toml", misspelt_keys),
         "numbers for names": ("bad.toml", numbers_for_names),
         "weapons without a name": ("bad.toml", nameless_weapons),
         "a speech table of misspelt keys": ("bad.toml", bad_speech)}
SHAPES = {**CARDS, "a Soft Targets Table": ("tables/soft-targets.toml", soft_table_rows)}


def bad_folder(folder: Path, shape: str, count: int = MANY) -> Path:
    name, make = SHAPES[shape]
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(make(count))
    return path


def of(problems: list[CardProblem], path: Path) -> list[CardProblem]:
    return [problem for problem in problems if problem.path == str(path)]


@pytest.mark.parametrize("shape", CARDS)
def test_a_card_file_of_30000_problems_is_one_problem_found_before_it_is_read(
        shape: str, tmp_path: Path) -> None:
    path = bad_folder(tmp_path / "cards", shape)
    size = path.stat().st_size
    assert [str(p) for p in of(load_cards([tmp_path / "cards"]).problems, path)] == [
        f"{path}: cannot be read: it is over 32 KiB ({size} bytes); allowed: a card file of at "
        f"most 32 KiB"]


@pytest.mark.parametrize("shape", CARDS)
def test_a_card_file_of_3000_values_is_one_problem_found_before_it_is_checked(
        shape: str, tmp_path: Path) -> None:
    path = bad_folder(tmp_path / "cards", shape, 3000)
    assert path.stat().st_size <= MOST_CARD_BYTES
    assert [str(p) for p in of(load_cards([tmp_path / "cards"]).problems, path)] == [
        f"{path}: holds more than {MOST_CARD_VALUES} values (keys, tables and list items); "
        f"allowed: a card of at most {MOST_CARD_VALUES} values (a card has 29 fields)"]


# A list of other names longer than a card may have is one problem, whatever its items are.
MANY_PROBLEMS = [shape for shape in SHAPES if shape != "numbers for names"]


def test_a_list_of_400_numbers_for_names_is_one_problem(tmp_path: Path) -> None:
    path = bad_folder(tmp_path / "cards", "numbers for names", UNDER)
    [problem] = of(load_cards([tmp_path / "cards"]).problems, path)
    assert problem.field == "other_names" and "a list of up to 20" in problem.message


@pytest.mark.parametrize("shape", MANY_PROBLEMS)
def test_a_file_of_many_problems_keeps_twenty_and_one_line_for_the_rest(
        shape: str, tmp_path: Path) -> None:
    count = UNDER if shape in CARDS else MANY
    path = bad_folder(tmp_path / "cards", shape, count)
    kept = of(load_cards([tmp_path / "cards"]).problems, path)
    assert len(kept) == MOST_PROBLEMS + 1
    assert all(problem.more == 0 for problem in kept[:-1])
    assert kept[-1].more == count - MOST_PROBLEMS
    assert str(kept[-1]) == f"{path}: and {count - MOST_PROBLEMS} more problems"
    assert problem_count(kept) == count


def test_a_file_of_twenty_problems_keeps_them_all_and_one_more_is_said_as_one(
        tmp_path: Path) -> None:
    path = bad_folder(tmp_path, "misspelt keys", MOST_PROBLEMS)
    assert [p.more for p in check(path)[1]] == [0] * MOST_PROBLEMS
    path = bad_folder(tmp_path, "misspelt keys", MOST_PROBLEMS + 1)
    assert str(check(path)[1][-1]) == f"{path}: and 1 more problem"


def test_the_snapshot_of_a_file_of_30000_problems_stays_small_and_says_the_same(
        tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    path = bad_folder(cards, "a Soft Targets Table")
    hour_ago = time.time() - 3600          # older than a change a snapshot could miss
    os.utime(path, (hour_ago, hour_ago))
    snapshot = tmp_path / "box-cards.json"
    checked = card_book([cards], snapshot=snapshot)
    # twenty problems of some 300 characters each and the shipped cards, not 30,000 problems
    assert snapshot.stat().st_size < 64 * 1024
    data = json.loads(snapshot.read_text().splitlines()[1])
    assert sum(1 for row in data["problems"] if row[0] == str(path)) == MOST_PROBLEMS + 1
    restored = card_book([cards], snapshot=snapshot)
    assert restored.problems == checked.problems
    assert of(restored.problems, path)[-1].more == MANY - MOST_PROBLEMS


def test_cards_check_shows_twenty_and_counts_them_all(cli, tmp_path: Path) -> None:
    path = bad_folder(tmp_path, "weapons without a name", UNDER)
    run = cli("cards", "check", str(path))
    lines = run.out.splitlines()
    assert run.code == 1 and len(lines) == MOST_PROBLEMS + 2
    assert lines[-2:] == [f"{path}: and {UNDER - MOST_PROBLEMS} more problems",
                          f"0 cards ok, {UNDER} problems"]
    path = bad_folder(tmp_path, "a Soft Targets Table")
    lines = cli("cards", "check", str(path)).out.splitlines()
    assert lines[-2:] == [f"{path}: and {MANY - MOST_PROBLEMS} more problems",
                          f"Soft Targets Table {MANY} problems"]
