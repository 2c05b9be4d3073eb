"""The cards in play: the card book, the folders it is read from, and its snapshot.

The folders, in order: the shipped cards; $COBI_COMPANION_CARDS, else the system folder
(/etc/cobi-companion/cards) and the user folder (or the config's paths.cards_dir, or --cards,
in its place); then `cards/` in each overlay folder that has one ($COBI_COMPANION_OVERLAYS, else
/boot/firmware/cobi then /media/cobi, as for the config file). `loader.py` reads and checks
them (with pydantic); `card_book` and `cobra_in_play` give what it made of them from a snapshot
while none of their files has changed (`snapshot.py`), without importing pydantic.

This module imports no pydantic: the box and the command line start with it.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cobi_companion import rules
from cobi_companion.rules.card import InfoCard
from cobi_companion.rules.errors import Refusal, RulesError
from cobi_companion.rules.numbers import digits

from . import tomlfile
from .snapshot import Fingerprint, cached, checking_code

if TYPE_CHECKING:
    from cobi_companion.rules.cobra.tables import CobraTables
    from cobi_companion.rules.tank.soft_table import SoftTable

SYSTEM_FOLDER = Path("/etc/cobi-companion/cards")
SOFT_TABLE = Path("tables") / "soft-targets.toml"   # inside a cards folder
# The companion's estimate of the table ("our table"): read from the shipped folder only
SOFT_ESTIMATE = Path("tables") / "soft-targets-estimate.toml"
COBRA_TABLES = Path("cobra") / "tables.toml"         # inside a cards folder
ENV_FOLDERS = "COBI_COMPANION_CARDS"
# The problems of one file kept, and so shown and snapshotted (tomlfile.MOST_PROBLEMS).
MOST_PROBLEMS = tomlfile.MOST_PROBLEMS
CARD_FILES = "*.toml"                                # the card files of a folder

# The code that decides what a card or table file becomes: a change to any of these files
# (an upgrade, an edit) makes every snapshot of checked cards stale.
CARDS_PACKAGE = Path(__file__).parent
RULES_PACKAGE = Path(str(rules.__file__)).parent
CHECKING_CODE = (
    *(RULES_PACKAGE / name for name in ("card.py", "card_schema.py", "tank/soft_table.py",
                                        "tank/soft_table_schema.py", "tank/situations.py",
                                        "modifier.py",
                                        "errors.py", "numbers.py", "cobra/tables.py",
                                        "cobra/tables_schema.py")),
    *(CARDS_PACKAGE / name for name in ("book.py", "loader.py", "learned.py", "tomlfile.py",
                                        "snapshot.py")),
)


@dataclass(frozen=True)
class CardProblem:
    """Why a card or table file (or one field of it) was not used."""

    path: str
    field: str | None
    message: str
    more: int = 0          # this line stands for `more` problems of the file not kept

    def __str__(self) -> str:
        where = f"{self.path}: {self.field}: " if self.field else f"{self.path}: "
        return where + self.message


def more_problems(path: str, count: int) -> list[CardProblem]:
    """The line that stands for `count` problems of the file at `path` not kept, if any."""
    if count <= 0:
        return []
    return [CardProblem(path, None, tomlfile.more_said(count), more=count)]


def problem_count(problems: list[CardProblem]) -> int:
    """How many problems `problems` stand for, those not kept too."""
    return sum(problem.more or 1 for problem in problems)


class CardFileError(Exception):
    def __init__(self, problems: list[CardProblem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


@dataclass
class CardBook:
    """The cards in play, by set number, and every problem met while loading them."""

    cards: dict[str, InfoCard] = field(default_factory=dict)   # by InfoCard.key
    problems: list[CardProblem] = field(default_factory=list)
    learned_file: Path | None = None   # where values learned at the table are kept, if anywhere
    # What makes the Soft Targets Table when `table` is first read (from a snapshot's data):
    # only fire at soft targets reads it, and `odds` at a tank then imports no table (its five
    # dataclasses cost ~5 ms to create at import here, ~70 ms on a Pi Zero 2 W).
    make_table: Callable[[], SoftTable] | None = field(default=None, repr=False,
                                                       compare=False)

    def __post_init__(self) -> None:
        self._table: SoftTable | None = None

    @property
    def table(self) -> SoftTable:
        """The Soft Targets Table (an empty one until the loader or `make_table` gives it)."""
        if self._table is None:
            self._table = self.make_table() if self.make_table is not None else _empty_table()
        return self._table

    @table.setter
    def table(self, table: SoftTable) -> None:
        self._table = table

    def get(self, key: int | str) -> InfoCard:
        """A card by set number, or by id for a card without one."""
        wanted = str(key).strip().lower()
        if digits(wanted):
            wanted = wanted.lstrip("0") or "0"
        if wanted in self.cards:
            return self.cards[wanted]
        known = ", ".join(c.key for c in self.sorted())
        raise RulesError(f"unknown card {str(key).strip()!r}: the known cards are {known}",
                         Refusal.UNKNOWN_CARD, card=str(key).strip(),
                         choices=tuple(c.key for c in self.sorted()))

    def sorted(self) -> list[InfoCard]:
        """Models by set number, then the cards without one by id."""
        return sorted(self.cards.values(), key=lambda c: (
            c.set_number is None, c.set_number or 0, c.key))


def shipped_folder() -> Path:
    # The package's own folder: the cards are installed beside its modules as plain files
    # (importlib.resources would say the same, at the cost of importing it).
    return CARDS_PACKAGE


def user_folder() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "cobi-companion" / "cards"


def default_folders(user: Path | None = None) -> list[Path]:
    """Folders read after the shipped cards: $COBI_COMPANION_CARDS, or system then user;
    `user` (from --cards or the config) takes the place of the user folder; then the overlay
    folders' cards/ subfolders (the boot partition, then the USB stick)."""
    env = os.environ.get(ENV_FOLDERS)
    folders = [Path(p) for p in env.split(os.pathsep) if p] if env is not None \
        else [SYSTEM_FOLDER, user_folder()]
    if user is not None:
        folders = [f for f in folders if f != user_folder()] + [user]
    # The overlay folders are the box's (its config is read from them too); `boot` is the part
    # of the box that imports nothing heavy.
    from cobi_companion.device.boot import overlay_card_folders

    return folders + overlay_card_folders()


def is_table(path: Path) -> bool:
    return path.name == SOFT_TABLE.name or path.parent.name == SOFT_TABLE.parent.name


# ---- the snapshot ----

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


def _empty_table() -> SoftTable:
    from cobi_companion.rules.tank.soft_table import SoftTable

    return SoftTable()


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
