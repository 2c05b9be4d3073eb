"""Read and check info cards, the Soft Targets Table and the Cobra tables (with pydantic).

The folders are those of `book.py`, read in order: the shipped cards, then the system and user
card folders, then the overlay folders' `cards/`. The Soft Targets Table's values learned at the
table (`learned.py`, in the box's state folder) are read last and put under the table in play:
they fill only what it lacks.

Every problem becomes one line naming the file, the field and what is allowed; a broken file
is skipped and the other cards still load. A later folder overrides an earlier one by set
number (the USB stick over the boot partition over user over system over shipped): the last
valid file wins, and a broken one leaves the card before it in play.

The box and the command line read the cards in play through `in_play.card_book`, which uses what
this module made of the files last time while none of them has changed: this module, and
pydantic, are imported only when a file has changed (and by `cards check`).
"""
from __future__ import annotations

import difflib
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from cobi_companion.rules.card import InfoCard
from cobi_companion.rules.card_schema import (
    CardLanguages,
    CardSchema,
    NamesSchema,
    WeaponSchema,
    card_schema,
    speech_schema,
    validated_card,
)
from cobi_companion.rules.tank.soft_table import SoftTable
from cobi_companion.rules.tank.soft_table_schema import (
    RangeBandSchema,
    SoftTableSchema,
    WeaponRowSchema,
    validated_table,
)
from cobi_companion.words import languages
from pydantic import ValidationError

from .book import CARD_FILES, MOST_PROBLEMS, more_problems
from .book import COBRA_TABLES as COBRA_TABLES
from .book import SOFT_ESTIMATE as SOFT_ESTIMATE
from .book import SOFT_TABLE as SOFT_TABLE
from .book import CardBook as CardBook
from .book import CardFileError as CardFileError
from .book import CardProblem as CardProblem
from .book import default_folders as default_folders
from .book import is_table as is_table
from .book import shipped_folder as shipped_folder
from .tomlfile import FileProblem, count_values, place_shown, plain, read_toml, shortened

if TYPE_CHECKING:
    from cobi_companion.rules.cobra.tables import CobraTables

Table = TypeVar("Table", "SoftTable", "CobraTables")   # one or the other, as asked


# The table of a card file that a card is played without when it is broken, besides its
# tables of names by language (`spared`).
SPOKEN = "speech"
# The values a card file may hold, every key, table and list item counted: the largest shipped
# card has 34. A file of more is refused before it is checked: pydantic checks every value and
# lists every problem (30,000 misspelt keys made 30,000, tripling the box's memory at start).
MOST_CARD_VALUES = 500
# And its size: the largest shipped card is under 1 KB. Any file may be 256 KiB (tomlfile.py), but
# parsing that much TOML costs more than the rest of a start's checks together (0.5 s here).
MOST_CARD_BYTES = 32 * 1024


def card_languages() -> CardLanguages:
    """The languages a card file may name, from the box's registry: its `speech` table says
    the card in any of them, its tables of names are in any but the cards' own (English)."""
    codes = languages.codes()
    return CardLanguages(said=codes, shown=tuple(code for code in codes
                                                 if code != languages.SOURCE))


def _schema() -> type[CardSchema]:
    return card_schema(card_languages())


def spared(name: str, value: Any) -> bool:
    """Whether a card is played without its top-level `name` when that is broken: its speech,
    its names in a language, or a table of names in a language the box does not speak (how a
    name is said or shown is never worth a card)."""
    return name == SPOKEN or name in card_languages().shown or (
        isinstance(value, dict) and name not in _schema().model_fields)


def _card_fields(loc: tuple[Any, ...]) -> dict[str, Any]:
    """The fields allowed where an error is: the card's, a weapon entry's, its speech's or its
    names' in a language."""
    schema = _schema()
    if loc[:1] == (SPOKEN,) and len(loc) > 1:
        return speech_schema(card_languages()).model_fields
    if loc[:1] and loc[0] in card_languages().shown and len(loc) > 1:
        return NamesSchema.model_fields
    return WeaponSchema.model_fields if loc[:1] == ("weapons",) and len(loc) > 2 else \
        schema.model_fields


def _table_fields(loc: tuple[Any, ...]) -> dict[str, Any]:
    """The fields allowed where an error is in the Soft Targets Table."""
    if len(loc) <= 1:
        return SoftTableSchema.model_fields
    if loc[0] == "situations" or "template" in loc:
        return RangeBandSchema.model_fields if "ranges" in loc else {
            k: v for k, v in RangeBandSchema.model_fields.items() if k in ("modifier", "source")}
    if "ranges" in loc and len(loc) > 3:
        return RangeBandSchema.model_fields
    return WeaponRowSchema.model_fields


def _cobra_fields(loc: tuple[Any, ...]) -> dict[str, Any]:
    from cobi_companion.rules.cobra.tables_schema import TablesSchema

    return TablesSchema.model_fields


def _problem(path: str, error: Any, fields_at: Any = _card_fields) -> CardProblem:
    loc = tuple(error.get("loc") or ())
    message = plain(str(error.get("msg", "")).removeprefix("Value error, "))
    if not loc:   # a rule about the whole file
        return CardProblem(path, None, message)
    name, last = place_shown(loc), str(loc[-1])
    fields = fields_at(loc)
    kind = error.get("type")
    if kind == "extra_forbidden":
        close = difflib.get_close_matches(last, list(fields), n=1)
        if not close and len(loc) == 1 and isinstance(error.get("input"), dict) \
                and fields_at is _card_fields:
            return _unknown_language(path, name)
        hint = f" (did you mean {close[0]}?)" if close else ""
        return CardProblem(path, name, f"is not {_what(fields, loc)}{hint}; allowed fields: "
                                       f"{', '.join(fields)}")
    if kind == "value_error" and fields_at in (_table_fields, _cobra_fields):
        return CardProblem(path, name, message)
    info = fields.get(last) or fields.get(str(loc[0]))
    allowed = info.description or "" if info else ""
    if kind == "missing":
        return CardProblem(path, name, f"is missing; allowed: {allowed}")
    value = error.get("input")
    return CardProblem(path, name, f"{shortened(repr(value))} is not allowed; "
                                   f"allowed: {allowed}")


def _what(fields: dict[str, Any], loc: tuple[Any, ...]) -> str:
    """What the fields where a misspelt key is are: a card's, a weapon's, ..."""
    if fields is WeaponSchema.model_fields:
        return "a weapon field"
    if fields is NamesSchema.model_fields:
        return "a names field"
    if loc[:1] == (SPOKEN,) and len(loc) > 1:
        return "a speech field"
    return "a card field" if len(loc) == 1 else "a field here"


def _unknown_language(path: str, name: str) -> CardProblem:
    """A table named by no card field nor language of the box: a card's names in a language
    the box does not speak (or a misspelt table)."""
    shown = card_languages().shown
    return CardProblem(path, name, f"is not a language of the box (the card is played without "
                                   f"it); allowed: a table of names in {', '.join(shown)}")


def _problems(path: str, errors: list[Any], fields_at: Any = _card_fields
              ) -> list[CardProblem]:
    """The first MOST_PROBLEMS of a file's errors as problems, then one line for the rest:
    only those are formatted (a misspelt key's is looked up among the allowed ones), kept,
    snapshotted and shown."""
    kept = [_problem(path, error, fields_at) for error in errors[:MOST_PROBLEMS]]
    return kept + more_problems(path, len(errors) - len(kept))


def _read_toml(path: Path) -> dict[str, Any]:
    """The file's TOML table, read as every file of the box is (tomlfile.py: a regular file
    of at most 256 KiB, UTF-8, nested and numbered within bounds), or CardFileError."""
    try:
        return read_toml(path)
    except FileProblem as exc:
        raise CardFileError([CardProblem(str(path), exc.place, exc.reason)]) from None


def _load_table(path: Path, check: Callable[[Any], Table], fields_at: Any) -> Table:
    """Read a table file and `check` it, or raise CardFileError listing every problem in it."""
    data = _read_toml(path)
    try:
        table = check(data)
    except ValidationError as exc:
        raise CardFileError(_problems(str(path), exc.errors(), fields_at)) from None
    return table.with_source(str(path))


def load_table(path: Path) -> SoftTable:
    """Read a Soft Targets Table file, or raise CardFileError listing every problem in it."""
    return _load_table(path, validated_table, _table_fields)


def load_cobra_tables(path: Path) -> CobraTables:
    """Read an owner's Cobra tables file, or raise CardFileError listing every problem."""
    from cobi_companion.rules.cobra.tables_schema import validated_tables  # only Cobra's

    return _load_table(path, validated_tables, _cobra_fields)


def _last_valid(folders: list[Path], inside: Path, load: Callable[[Path], Table],
                table: Table, problems: list[CardProblem]) -> Table:
    """The table of the last folder with a valid file at `inside`; a broken file is reported
    in `problems` and the table before it stays."""
    for folder in folders:
        # Anything at that name is read (and a FIFO, a folder or a device there reported),
        # not only a regular file: a table that is silently not used would fool the players.
        if (folder / inside).exists() or (folder / inside).is_symlink():
            try:
                table = load(folder / inside)
            except CardFileError as exc:
                problems.extend(exc.problems)
    return table


def cobra_tables(folders: list[Path] | None = None) -> tuple[CobraTables, list[CardProblem]]:
    """The Cobra tables of the last folder with a valid cobra/tables.toml (the shipped one is
    the empty template); a broken file is reported and the one before it stays."""
    from cobi_companion.rules.cobra.tables import CobraTables

    problems: list[CardProblem] = []
    every = [shipped_folder(), *(default_folders() if folders is None else folders)]
    return _last_valid(every, COBRA_TABLES, load_cobra_tables, CobraTables(), problems), \
        problems


def load_file(path: Path) -> InfoCard:
    """Read one card file, or raise CardFileError listing every problem in it."""
    card, problems = read_card(path)
    if problems:
        raise CardFileError(problems)
    return card


def read_card(path: Path) -> tuple[InfoCard, list[CardProblem]]:
    """Read one card file, with the problems of its speech and names tables: a broken
    one is reported and the card is played without it (how a name is said or shown is never
    worth a card). Any other problem raises CardFileError listing every problem in the file."""
    shown = str(path)
    _refuse_big_card(path)
    data = _read_toml(path)
    values = count_values(data, MOST_CARD_VALUES)
    if values > MOST_CARD_VALUES:
        raise CardFileError([CardProblem(
            shown, None, f"holds more than {MOST_CARD_VALUES} values (keys, tables and list "
                         f"items); allowed: a card of at most {MOST_CARD_VALUES} values (a "
                         f"card has {len(CardSchema.model_fields)} fields)")])
    try:
        return validated_card(data, card_languages()).with_source(shown), []
    except ValidationError as exc:
        errors = exc.errors()
        problems = _problems(shown, errors)
        broken = {tuple(e.get("loc") or ())[:1] for e in errors}
        if not all(len(place) == 1 and spared(str(place[0]), data.get(str(place[0])))
                   for place in broken):
            raise CardFileError(problems) from None
    unspoken = {name: value for name, value in data.items() if (name,) not in broken}
    return validated_card(unspoken, card_languages()).with_source(shown), problems


def _refuse_big_card(path: Path) -> None:
    """CardFileError for a regular file of more than MOST_CARD_BYTES; anything else is
    read_toml's to judge (what it is, and whether it grew meanwhile: up to 256 KiB)."""
    try:
        info = path.stat()
    except OSError:
        return
    if stat.S_ISREG(info.st_mode) and info.st_size > MOST_CARD_BYTES:
        raise CardFileError([CardProblem(
            str(path), None, f"cannot be read: it is over {MOST_CARD_BYTES // 1024} KiB "
                             f"({info.st_size} bytes); allowed: a card file of at most "
                             f"{MOST_CARD_BYTES // 1024} KiB")])


def load_folder(folder: Path) -> tuple[list[InfoCard], list[CardProblem]]:
    """Every *.toml card in a folder (sorted by name); a set number or id may appear only once."""
    cards: list[InfoCard] = []
    problems: list[CardProblem] = []
    seen: dict[str, str] = {}
    if not folder.is_dir():
        return cards, problems
    for path in sorted(folder.glob(CARD_FILES)):     # the files a snapshot's key stamps
        if path.name == SOFT_TABLE.name:     # a table beside the cards (the learned values')
            continue
        try:
            card, spoken = read_card(path)
        except CardFileError as exc:
            problems.extend(exc.problems)
            continue
        problems.extend(spoken)
        if card.key in seen:
            name = "set_number" if card.set_number is not None else "id"
            problems.append(CardProblem(
                str(path), name,
                f"{card.key} is already the card in {seen[card.key]}; "
                f"allowed: one file per {name.replace('_', ' ')} in a folder "
                f"(this file is skipped)"))
            continue
        seen[card.key] = str(path)
        cards.append(card)
    return cards, problems


def load_cards(folders: list[Path] | None = None, learned: Path | None = None) -> CardBook:
    """The shipped cards, then each folder in order overriding by set number; the Soft
    Targets Table from the last folder that has a valid one (a broken one is reported and
    the one before it stays), with the shipped estimate beside it (read only with "our
    table") and the values in the `learned` file under it (a broken one is reported and
    none are used)."""
    book = CardBook(learned_file=learned)
    every = [shipped_folder(), *(default_folders() if folders is None else folders)]
    for folder in every:
        cards, problems = load_folder(folder)
        book.problems.extend(problems)
        book.cards.update((card.key, card) for card in cards)
    book.table = _last_valid(every, SOFT_TABLE, load_table, book.table, book.problems)
    try:        # our table: the shipped estimate, under the owner's table for every folder's
        book.table = book.table.with_estimate(load_table(shipped_folder() / SOFT_ESTIMATE))
    except CardFileError as exc:
        book.problems.extend(exc.problems)
    if learned is not None and learned.exists():
        try:
            book.table = book.table.with_learned(load_table(learned))
        except CardFileError as exc:
            book.problems.extend(exc.problems)
    return book


def check(path: Path) -> tuple[list[InfoCard], list[CardProblem]]:
    """Check one card file, a Soft Targets Table or Cobra tables file, or a folder of cards
    (and its tables)."""
    if path.is_dir():
        cards, problems = load_folder(path)
        for table in (SOFT_TABLE, COBRA_TABLES, Path(SOFT_TABLE.name)):
            if (path / table).exists():
                problems += check(path / table)[1]
        return cards, problems
    if not path.exists():
        return [], [CardProblem(str(path), None, "no such file or folder")]
    try:
        if path.parent.name == COBRA_TABLES.parent.name:
            load_cobra_tables(path)
            return [], []
        if is_table(path):
            load_table(path)
            return [], []
        card, problems = read_card(path)
        return [card], problems
    except CardFileError as exc:
        return [], exc.problems
