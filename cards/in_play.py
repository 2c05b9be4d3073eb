"""The cards in play from a snapshot: `card_book` and `cobra_in_play` give what `loader.py` made
of the card folders (`book.default_folders`) while none of their files has changed
(`snapshot.py`), and read and check them again when one has.

This module imports no pydantic: the box and the command line start with it. The loader (which
does) is imported only when a file has changed; it knows nothing of this module.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cobi_companion.rules.card import InfoCard

from .book import (
    CARD_FILES,
    CHECKING_CODE,
    COBRA_TABLES,
    SOFT_ESTIMATE,
    SOFT_TABLE,
    CardBook,
    CardProblem,
    shipped_folder,
)
from .snapshot import Fingerprint, cached, checking_code

if TYPE_CHECKING:
    from cobi_companion.rules.cobra.tables import CobraTables
    from cobi_companion.rules.tank.soft_table import SoftTable


def _checking_code(fingerprint: Fingerprint) -> Fingerprint:
    return fingerprint.code(checking_code(CHECKING_CODE))


def _card_files(folders: list[Path], learned: Path | None) -> Fingerprint:
    """Every file `loader.load_cards` may read from these folders (and the learned file)."""
    fingerprint = _checking_code(Fingerprint()).file(shipped_folder() / SOFT_ESTIMATE)
    for folder in folders:
        fingerprint.folder(folder, CARD_FILES).file(folder / SOFT_TABLE)
    return fingerprint.file(learned) if learned is not None else fingerprint


def _problems_data(problems: list[CardProblem]) -> list[list[str | int | None]]:
    return [[p.path, p.field, p.message, p.more] for p in problems]


def _problems(data: list[list[Any]]) -> list[CardProblem]:
    return [CardProblem(str(path), None if field is None else str(field), str(message),
                        int(more)) for path, field, message, more in data]


def _table_data(table: SoftTable) -> dict[str, Any]:
    return {"values": table.to_plain(), "source": table.source,
            "learned": None if table.under is None else _table_data(table.under),
            "estimate": None if table.estimate is None else _table_data(table.estimate)}


def _table(data: Mapping[str, Any]) -> SoftTable:
    from cobi_companion.rules.tank.soft_table import SoftTable

    table = SoftTable.from_plain(data["values"], data["source"])
    if data["estimate"] is not None:
        table = table.with_estimate(_table(data["estimate"]))
    return table if data["learned"] is None else table.with_learned(_table(data["learned"]))


def _book_data(book: CardBook) -> dict[str, Any]:
    return {"cards": [[card.source, card.to_plain()] for card in book.cards.values()],
            "problems": _problems_data(book.problems), "table": _table_data(book.table)}


def _book(data: Mapping[str, Any], build: Callable[[], CardBook]) -> CardBook:
    """The book of a snapshot's data; its table is made when first read, and should the data
    not be a table's (`cached`'s rule: a snapshot that is not what we wrote is ignored), it is
    the table of the book `build` reads and checks from the files instead."""
    def make_table() -> SoftTable:
        try:
            return _table(data["table"])
        except (KeyError, TypeError, ValueError, AttributeError):
            return build().table
    cards = (InfoCard.from_plain(plain, source) for source, plain in data["cards"])
    return CardBook({card.key: card for card in cards}, _problems(data["problems"]),
                    make_table=make_table)


def card_book(folders: list[Path], learned: Path | None = None,
              snapshot: Path | None = None) -> CardBook:
    """`loader.load_cards(folders, learned)`: the shipped cards, then each folder's, the Soft
    Targets Table and the learned values, with every problem met. From the `snapshot` file
    when none of the files has changed since it was taken, else read and checked (and the
    snapshot taken again)."""
    def build() -> CardBook:
        from .loader import load_cards

        return load_cards(folders, learned)
    book = cached(snapshot, lambda: _card_files([shipped_folder(), *folders], learned), build,
                  _book_data, lambda data: _book(data, build))
    book.learned_file = learned
    return book


def _cobra_data(result: tuple[CobraTables, list[CardProblem]]) -> dict[str, Any]:
    tables, problems = result
    return {"values": tables.to_plain(), "source": tables.file,
            "problems": _problems_data(problems)}


def _cobra(data: Mapping[str, Any]) -> tuple[CobraTables, list[CardProblem]]:
    from cobi_companion.rules.cobra.tables import CobraTables

    return CobraTables.from_plain(data["values"], data["source"]), _problems(data["problems"])


def cobra_in_play(folders: list[Path],
                  snapshot: Path | None = None) -> tuple[CobraTables, list[CardProblem]]:
    """`loader.cobra_tables(folders)`: the Cobra tables of the last folder with a valid
    cobra/tables.toml, and the problems of the others; from the `snapshot` file while none
    of them has changed."""
    def files() -> Fingerprint:
        fingerprint = _checking_code(Fingerprint())
        for folder in [shipped_folder(), *folders]:
            fingerprint.file(folder / COBRA_TABLES)
        return fingerprint

    def build() -> tuple[CobraTables, list[CardProblem]]:
        from .loader import cobra_tables

        return cobra_tables(folders)
    return cached(snapshot, files, build, _cobra_data, _cobra)
