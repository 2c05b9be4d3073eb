"""The card book and the folders it is read from.

The folders, in order: the shipped cards; $COBI_COMPANION_CARDS, else the system folder
(/etc/cobi-companion/cards) and the user folder (or the config's paths.cards_dir, or --cards,
in its place); then `cards/` in each overlay folder that has one ($COBI_COMPANION_OVERLAYS, else
/boot/firmware/cobi then /media/cobi, as for the config file: `overlays.py`). `loader.py` reads
and checks them (with pydantic) into a `CardBook`; `in_play.py` gives what it made of them from
a snapshot while none of their files has changed (`snapshot.py`), without importing pydantic.

This module imports no pydantic, and neither the loader nor the snapshot: both build on it.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cobi_companion import rules
from cobi_companion.rules.card import InfoCard
from cobi_companion.rules.errors import Refusal, RulesError
from cobi_companion.rules.numbers import digits

from . import tomlfile
from .overlays import overlay_card_folders

if TYPE_CHECKING:
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
                                        "errors.py", "numbers.py", "saved.py",
                                        "tank/refusals.py", "cobra/refusals.py",
                                        "cobra/tables.py", "cobra/tables_schema.py")),
    *(CARDS_PACKAGE / name for name in ("book.py", "in_play.py", "loader.py", "learned.py",
                                        "tomlfile.py", "snapshot.py")),
    # the languages whose tables a card may hold
    RULES_PACKAGE.parent / "words" / "languages.py",
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
        raise RulesError(Refusal.UNKNOWN_CARD, card=str(key).strip(),
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
    return folders + overlay_card_folders()


def is_table(path: Path) -> bool:
    return path.name == SOFT_TABLE.name or path.parent.name == SOFT_TABLE.parent.name


def _empty_table() -> SoftTable:
    from cobi_companion.rules.tank.soft_table import SoftTable

    return SoftTable()
