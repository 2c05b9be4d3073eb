"""The learned file: the Soft Targets Table's values the box learned at the table, written whole
or not at all, read back under the owner's table, and reported like any card file when broken."""
from __future__ import annotations

import contextlib
import errno
import os
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from cobi_companion.cards import (
    CardFileError,
    check,
    learned_file,
    load_cards,
    read_learned,
    write_learned,
)
from cobi_companion.cards.learned import toml_text
from cobi_companion.rules.tank.soft_table import Lack, SoftTable, Wanted
from cobi_companion.rules.tank.soft_table_schema import validated_table
from hypothesis import given
from hypothesis import strategies as st

OWNER = '[weapons.rifle]\nranges = [{ from_cm = 41, to_cm = 60, modifier = 0 }]\n'


def learned(*answers: tuple[Wanted, int, tuple[float, float] | None]) -> SoftTable:
    table = SoftTable()
    for wanted, value, band in answers:
        table = table.answered(wanted, value, "learned at the table, 2026-11-25", band)
    return table.learned


RIFLE = (Wanted(Lack.RANGE, "rifle", 30), 1, (28.0, 40.0))
GRENADE = (Wanted(Lack.TEMPLATE, "grenade"), 2, None)
HARD_COVER = (Wanted(Lack.SITUATION, situation="hard_cover"), -2, None)


def test_the_file_is_in_the_state_folder(tmp_path):
    assert learned_file(tmp_path) == tmp_path / "learned" / "soft-targets.toml"


def test_written_and_read_back(tmp_path):
    path = learned_file(tmp_path)
    table = learned(RIFLE, GRENADE, HARD_COVER)
    write_learned(path, table)
    assert read_learned(path).to_plain() == table.to_plain()
    text = path.read_text()
    assert text.startswith("# Soft Targets Table values learned at the table.")
    assert '[weapons.rifle]\nranges = [\n  { from_cm = 28, to_cm = 40, modifier = +1, source = ' \
           '"learned at the table, 2026-11-25" },\n]\n' in text
    assert '[situations.hard_cover]\nmodifier = -2\n' in text
    assert check(path) == ([], [])
    assert os.listdir(path.parent) == ["soft-targets.toml"]     # no temporary file left


def test_a_missing_file_is_no_values(tmp_path):
    assert read_learned(learned_file(tmp_path)).to_plain() == SoftTable().to_plain()


NAMES = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12).filter(
    lambda s: s.strip() == s)


@given(names=st.lists(NAMES, min_size=1, max_size=3, unique_by=str.lower),
       source=st.text(st.characters(blacklist_categories=("Cs",)), max_size=40),
       low=st.floats(0, 500), width=st.floats(0, 500), value=st.integers(-6, 6))
def test_any_weapon_name_and_source_survive_the_file(names, source, low, width, value):
    table = SoftTable()
    for name in names:
        table = table.answered(Wanted(Lack.RANGE, name, low), value, source, (low, low + width))
    assert validated_table(tomllib.loads(toml_text(table.learned))).to_plain() == \
        table.learned.to_plain()


def test_learned_values_go_under_the_owners_table(tmp_path):
    cards = tmp_path / "cards"
    (cards / "tables").mkdir(parents=True)
    (cards / "tables" / "soft-targets.toml").write_text(OWNER)
    path = learned_file(tmp_path / "state")
    write_learned(path, learned(RIFLE, HARD_COVER))
    book = load_cards([cards], path)
    assert book.problems == [] and book.learned_file == path
    assert book.table.range_modifier("rifle", 30).value == 1
    assert book.table.range_modifier("rifle", 41).value == 0        # the owner's band
    assert book.table.situation_modifier("hard_cover").value == -2
    assert book.table.source == str(cards / "tables" / "soft-targets.toml")


def test_a_broken_learned_file_is_reported_and_the_rest_loads(tmp_path):
    path = learned_file(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text('[weapons.rifle]\nranges = [{ from_cm = 28, to_cm = 40, modifer = 1 }]\n')
    book = load_cards([], path)
    assert [str(p) for p in book.problems] == [
        f"{path}: weapons.rifle.ranges.0.modifier: is missing; allowed: a whole number from "
        f"-10 to +10, like -2",
        f"{path}: weapons.rifle.ranges.0.modifer: is not a field here (did you mean "
        f"modifier?); allowed fields: modifier, source, from_cm, to_cm"]
    assert book.table.range_modifier("rifle", 45).value == 2        # the shipped table
    assert len(book.sorted()) == 11
    assert [str(p) for p in check(path)[1]] == [str(p) for p in book.problems]
    assert [str(p) for p in check(path.parent)[1]] == [str(p) for p in book.problems]
    with pytest.raises(CardFileError):
        read_learned(path)


def test_a_folder_that_is_a_file_cannot_be_written(tmp_path):
    blocker = tmp_path / "state"          # tests run as root: chmod would not stop writes
    blocker.write_text("not a folder")
    with pytest.raises(OSError):
        write_learned(learned_file(blocker), learned(RIFLE))


@contextlib.contextmanager
def tiny_disk(folder: Path) -> Iterator[None]:
    """A 64 KiB file system mounted at `folder`."""
    folder.mkdir()
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                       check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"cannot mount a file system here: {exc}")
    try:
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_full_disk_keeps_the_file_as_it_was(tmp_path):
    state = tmp_path / "state"
    with tiny_disk(state):
        path = learned_file(state)
        write_learned(path, learned(RIFLE))
        before = path.read_text()
        with contextlib.suppress(OSError), (state / "filler").open("wb") as filler:
            while True:
                filler.write(b"\0" * 4096)
                filler.flush()
        with pytest.raises(OSError) as info:
            write_learned(path, learned(RIFLE, GRENADE, HARD_COVER))
        assert info.value.errno == errno.ENOSPC
        assert path.read_text() == before
        assert os.listdir(path.parent) == ["soft-targets.toml"]
