"""The snapshot of checked card files: the cards in play built from it are the cards the check
makes; a changed file (added, removed, edited, touched, swapped for a link) brings the check
back; problems are kept and still reported; a snapshot that is broken, of other files or other
code is ignored and written again; a full disk or a folder that cannot be written only means no
snapshot."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.cards import book as book_module
from cobi_companion.cards import card_book, cobra_in_play, load_cards, loader, shipped_folder
from cobi_companion.cards import snapshot as snapshot_module
from cobi_companion.cards.book import CardBook
from cobi_companion.cards.snapshot import cache_folder, snapshot_file
from cobi_companion.device import config as config_module
from cobi_companion.rules.card import CARD_FIELDS, InfoCard, Weapon
from cobi_companion.rules.card_schema import CardSchema, WeaponSchema
from cobi_companion.rules.tank.soft_table import SoftTable
from cobi_companion.rules.tank.soft_table_schema import SoftTableSchema

HOUR_AGO = time.time() - 3600     # files older than the racy window (snapshot.RACY_NS)

CARD = 'set_number = 9001\nname = "Mine"\nlabel = "Mine"\ngun_to_hit = "4+"\n' \
       'armour_front = 3\nother_names = ["M"]\n[[weapons]]\nname = "rifle"\n'
BROKEN = 'set_number = 9002\nname = "Broken"\narmuor_front = 3\n'
TABLE = '[weapons.rifle]\nranges = [{ from_cm = 0, to_cm = 40, modifier = 1 }]\n' \
        '[situations.soft_cover]\nmodifier = -1\nsource = "mine"\n'
LEARNED = '[weapons.pistol]\nranges = [{ from_cm = 10, to_cm = 10, modifier = -2 }]\n'


def aged(path: Path, when: float = HOUR_AGO) -> Path:
    os.utime(path, (when, when))
    return path


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return aged(path)


@pytest.fixture
def folders(tmp_path: Path) -> tuple[list[Path], Path]:
    """A card folder with a card, a broken card and a Soft Targets Table, and a learned
    file: all an hour old."""
    mine = tmp_path / "mine"
    write(mine / "mine.toml", CARD)
    write(mine / "broken.toml", BROKEN)
    write(mine / "tables" / "soft-targets.toml", TABLE)
    aged(mine / "tables")
    aged(mine)
    learned = write(tmp_path / "state" / "learned" / "soft-targets.toml", LEARNED)
    return [mine], learned


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the card files were read and checked (`loader.load_cards`)."""
    calls: list[int] = []
    real = loader.load_cards

    def counted(*args: Any, **kwargs: Any) -> CardBook:
        calls.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(loader, "load_cards", counted)
    return calls


def same_books(a: CardBook, b: CardBook) -> None:
    assert list(a.cards) == list(b.cards)
    for key, card in a.cards.items():
        other = b.cards[key]
        assert card == other and card.source == other.source and card.given == other.given
        assert [w.given for w in card.weapons] == [w.given for w in other.weapons]
    assert a.problems == b.problems
    assert a.table == b.table and a.table.learned == b.table.learned
    assert a.table.estimate is not None and a.table.estimate == b.table.estimate  # our table
    assert a.table.source == b.table.source and a.table.learned.source == b.table.learned.source
    assert a.learned_file == b.learned_file


def test_the_book_from_the_snapshot_is_the_book_the_check_makes(
        folders: tuple[list[Path], Path], checks: list[int]) -> None:
    cards, learned = folders
    snapshot = snapshot_file("test-cards")
    checked = load_cards(cards, learned)              # checked, without a snapshot
    first = card_book(cards, learned, snapshot)
    assert checks == [1] and snapshot.is_file()
    again = card_book(cards, learned, snapshot)
    assert checks == [1]                               # not checked again
    for book in (first, again):
        same_books(checked, book)
    assert again.get(9001).known("gun_to_hit") and not again.get(9001).known("reload")
    assert again.table.range_modifier("pistol", 10).value == -2        # the learned value
    ours = again.table.reading(True)                   # our table: the estimate under it
    assert (ours.range_modifier("rifle", 30).value, ours.range_modifier("rifle", 50).value) \
        == (1, 2)                                      # the owner's 0-40 cm, then ours
    (problem,) = again.problems                        # the broken card is still reported
    assert problem.path.endswith("broken.toml") and problem.field == "armuor_front"
    assert "did you mean armour_front" in problem.message


def test_a_snapshot_is_plain_json_of_the_values_the_check_gave(
        folders: tuple[list[Path], Path]) -> None:
    cards, learned = folders
    snapshot = snapshot_file("test-cards")
    card_book(cards, learned, snapshot)
    header, body = snapshot.read_bytes().split(b"\n", 1)
    data = json.loads(body)
    mine = next(plain for source, plain in data["cards"] if source.endswith("mine.toml"))
    assert mine == {"set_number": 9001, "name": "Mine", "label": "Mine",
                    "other_names": ["M"], "gun_to_hit": {"low": 4, "high": 6},
                    "armour_front": 3, "weapons": [{"name": "rifle"}]}
    assert json.loads(header)["key"][0] == snapshot_module.FORMAT


@pytest.mark.parametrize("change", ["touch", "edit", "add", "remove", "link", "learned",
                                    "table", "rename"])
def test_a_changed_file_is_checked_again(folders: tuple[list[Path], Path],
                                         checks: list[int], change: str) -> None:
    cards, learned = folders
    mine = cards[0]
    snapshot = snapshot_file("test-cards")
    card_book(cards, learned, snapshot)
    assert checks == [1]
    if change == "touch":                    # the same bytes, another time
        aged(mine / "mine.toml", HOUR_AGO + 60)
    elif change == "edit":                   # the same size and time
        stat = (mine / "mine.toml").stat()
        (mine / "mine.toml").write_text(CARD.replace("Mine", "Ours"))
        os.utime(mine / "mine.toml", ns=(stat.st_atime_ns, stat.st_mtime_ns))
    elif change == "add":
        write(mine / "extra.toml", 'id = "extra"\nname = "Extra"\n')
    elif change == "remove":
        (mine / "broken.toml").unlink()
    elif change == "link":                   # a link to another card, in the card's place
        write(mine.parent / "other.toml", CARD.replace("Mine", "Ours"))
        (mine / "mine.toml").unlink()
        (mine / "mine.toml").symlink_to(mine.parent / "other.toml")
    elif change == "learned":
        learned.write_text(LEARNED.replace("-2", "-1"))
    elif change == "table":
        (mine / "tables" / "soft-targets.toml").unlink()
    elif change == "rename":
        (mine / "broken.toml").rename(mine / "broken.toml.old")
    book = card_book(cards, learned, snapshot)
    assert checks == [1, 1]
    same_books(load_cards(cards, learned), book)


def test_the_snapshot_is_taken_again_once_the_files_are_old_enough(
        folders: tuple[list[Path], Path], checks: list[int]) -> None:
    # A file changed within the racy window may change again unseen (FAT keeps times to 2 s):
    # no snapshot is taken from it, and each start checks the files until it is older.
    cards, learned = folders
    snapshot = snapshot_file("test-cards")
    (cards[0] / "mine.toml").write_text(CARD.replace("Mine", "Ours"))
    card_book(cards, learned, snapshot)
    card_book(cards, learned, snapshot)
    assert checks == [1, 1] and not snapshot.exists()
    aged(cards[0] / "mine.toml")
    card_book(cards, learned, snapshot)
    book = card_book(cards, learned, snapshot)
    assert checks == [1, 1, 1] and book.get(9001).name == "Ours"


def corrupt(snapshot: Path, how: str) -> None:
    header, body = snapshot.read_bytes().split(b"\n", 1)
    if how == "garbage":
        snapshot.write_bytes(b"\x00\xff not json at all")
    elif how == "truncated":
        snapshot.write_bytes(header + b"\n" + body[:len(body) // 2])
    elif how == "a changed value":           # still JSON, the CRC no longer matches
        changed = body.replace(b'"armour_front":3', b'"armour_front":9')
        snapshot.write_bytes(header + b"\n" + changed)
    elif how == "foreign data":              # another program's JSON with a right CRC
        data = json.dumps({"cards": "mine"}).encode()
        fields = json.loads(header)
        fields["crc"] = snapshot_module.zlib.crc32(data)
        snapshot.write_bytes(json.dumps(fields).encode() + b"\n" + data)
    elif how == "other code":                # a snapshot the code of another version took
        fields = json.loads(header)
        fields["key"][1][0][1] = "3.10.0"
        snapshot.write_bytes(json.dumps(fields).encode() + b"\n" + body)
    elif how == "empty":
        snapshot.write_bytes(b"")
    elif how == "a folder":
        snapshot.unlink()
        snapshot.mkdir()


@pytest.mark.parametrize("how", ["garbage", "truncated", "a changed value", "foreign data",
                                 "other code", "empty", "a folder"])
def test_a_broken_or_foreign_snapshot_is_ignored_and_written_again(
        folders: tuple[list[Path], Path], checks: list[int], how: str) -> None:
    cards, learned = folders
    snapshot = snapshot_file("test-cards")
    good = card_book(cards, learned, snapshot)
    corrupt(snapshot, how)
    book = card_book(cards, learned, snapshot)
    assert checks == [1, 1]
    same_books(good, book)
    if how == "a folder":                    # it cannot be replaced: checked each time
        assert snapshot.is_dir()
        return
    card_book(cards, learned, snapshot)
    assert checks == [1, 1]                  # the snapshot written again is used


def test_the_table_is_made_when_first_read_and_a_foreign_one_is_checked_again(
        folders: tuple[list[Path], Path], checks: list[int]) -> None:
    # A book from a snapshot makes its Soft Targets Table when it is first read (only fire at
    # soft targets reads it); table data that is not a table's, under a right CRC, is ignored
    # like any foreign snapshot: the table is read and checked from its files.
    cards, learned = folders
    snapshot = snapshot_file("test-cards")
    good = card_book(cards, learned, snapshot)
    again = card_book(cards, learned, snapshot)
    assert checks == [1] and again._table is None
    same_books(good, again)
    header, body = snapshot.read_bytes().split(b"\n", 1)
    data = json.loads(body)
    data["table"] = {"values": "mine"}
    body = json.dumps(data).encode()
    fields = json.loads(header)
    fields["crc"] = snapshot_module.zlib.crc32(body)
    snapshot.write_bytes(json.dumps(fields).encode() + b"\n" + body)
    foreign = card_book(cards, learned, snapshot)
    assert checks == [1]                     # the cards come from the snapshot
    same_books(good, foreign)                # the table from its files
    assert checks == [1, 1]


def test_a_full_disk_only_means_no_snapshot(folders: tuple[list[Path], Path],
                                            checks: list[int]) -> None:
    cards, learned = folders
    snapshot = snapshot_file("test-cards")
    snapshot.parent.mkdir(parents=True)
    # The temporary file the snapshot is written to is /dev/full: every write fails with
    # ENOSPC, as on a full card.
    temporary = snapshot.with_name(f".{snapshot.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    temporary.symlink_to("/dev/full")
    book = card_book(cards, learned, snapshot)
    same_books(load_cards(cards, learned), book)
    assert checks == [1] and not snapshot.exists() and not temporary.exists()
    card_book(cards, learned, snapshot)      # room again: the next start takes it
    card_book(cards, learned, snapshot)
    assert checks == [1, 1] and snapshot.is_file()


def test_a_cache_folder_that_cannot_be_made_only_means_no_snapshot(
        folders: tuple[list[Path], Path], checks: list[int], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    cards, learned = folders
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))   # a file, not a folder
    book = card_book(cards, learned, snapshot_file("test-cards"))
    book = card_book(cards, learned, snapshot_file("test-cards"))
    assert checks == [1, 1] and book.get(9001).name == "Mine"


def test_the_cache_folder_is_systemds_then_the_state_folder_then_the_users(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert cache_folder() == tmp_path / "cache" / "cobi-companion"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_folder() == tmp_path / "home" / ".cache" / "cobi-companion"
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/cobi-companion")
    assert cache_folder() == Path("/var/lib/cobi-companion/cache")
    monkeypatch.setenv("CACHE_DIRECTORY", "/var/cache/cobi-companion")
    assert cache_folder() == Path("/var/cache/cobi-companion")


def test_the_cobra_tables_come_from_their_snapshot_too(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    mine = tmp_path / "mine"
    write(mine / "cobra" / "tables.toml", '[terrain]\ntown = -1\nhill = 3\n')
    snapshot = snapshot_file("test-cobra")
    checked: list[int] = []
    real = loader.cobra_tables
    monkeypatch.setattr(loader, "cobra_tables", lambda f: checked.append(1) or real(f))
    first = cobra_in_play([mine], snapshot)
    again = cobra_in_play([mine], snapshot)
    assert checked == [1] and first == again
    tables, (problem,) = again
    assert Path(tables.source).parents[1] == shipped_folder()    # the shipped template stays
    assert "hill" in problem.message and problem.path == str(mine / "cobra" / "tables.toml")


def test_the_plain_classes_have_the_schemas_fields() -> None:
    # The schema (what a file may say) and the data (what the rules read) are two classes
    # each: they must name the same fields, with the same defaults.
    def defaults(cls: Any) -> dict[str, Any]:
        return {name: field.default for name, field in cls.__dataclass_fields__.items()
                if name not in ("given", "source", "names")}   # names: a table per language
    assert set(CardSchema.model_fields) == CARD_FIELDS
    assert set(WeaponSchema.model_fields) == set(defaults(Weapon))
    for schema, plain in ((CardSchema, InfoCard), (WeaponSchema, Weapon)):
        for name, value in defaults(plain).items():
            info = schema.model_fields[name]
            if info.is_required():
                continue
            default = info.get_default(call_default_factory=True)
            assert (tuple(default) if isinstance(default, list) else default) == value, name
    assert set(SoftTableSchema.model_fields) == {"weapons", "situations"}
    assert SoftTable().to_plain() == SoftTableSchema().model_dump(mode="json")


CHECKS = """
import json, sys
from cobi_companion.cards import book
from cobi_companion.device import config
before = set(sys.modules)
from cobi_companion.cards import loader
loader.load_cards([])
loader.cobra_tables([])
config.parse_config({})
print(json.dumps([sys.modules[name].__file__ for name in set(sys.modules) - before
                  if name.startswith("cobi_companion.")]))
"""


def test_the_key_names_the_code_that_checks_the_files() -> None:
    # Every module the checks import (in a fresh process) is in a snapshot's key: a change to
    # it makes the snapshots stale. A new schema module must be named there.
    proc = subprocess.run([sys.executable, "-c", CHECKS], capture_output=True, text=True,
                          check=True, env={**os.environ, "COBI_COMPANION_OVERLAYS": ""})
    imported = {Path(name) for name in json.loads(proc.stdout)}
    keyed = {*book_module.CHECKING_CODE, *config_module.CHECKING_CODE}
    assert any(path.name == "card_schema.py" for path in imported)
    assert {path for path in imported if path.name != "__init__.py"} <= keyed
    assert all(path.is_file() for path in keyed)
