"""Load info cards: the shipped ones, then the system and user card folders, then the
`cards/` folders of the overlay folders a parent edits from any computer.

The folders, in order: the shipped cards; $COBI_COMPANION_CARDS, else the system folder
(/etc/cobi-companion/cards) and the user folder (or the config's paths.cards_dir, or --cards,
in its place); then `cards/` in each overlay folder that has one ($COBI_COMPANION_OVERLAYS, else
/boot/firmware/cobi then /media/cobi, as for the config file).

The Soft Targets Table's values learned at the table (`learned.py`, in the box's state folder)
are read last and put under the table in play: they fill only what it lacks.

Every problem becomes one line naming the file, the field and what is allowed; a broken file
is skipped and the other cards still load. A later folder overrides an earlier one by set
number (the USB stick over the boot partition over user over system over shipped): the last
valid file wins, and a broken one leaves the card before it in play.
"""
from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from cobi_companion.rules.card import InfoCard, Weapon
from cobi_companion.rules.errors import Refusal, RulesError
from cobi_companion.rules.numbers import digits
from cobi_companion.rules.soft_table import RangeBand, SoftTable, WeaponRow
from pydantic import ValidationError

from .tomlfile import FileProblem, plain, read_toml, shortened

if TYPE_CHECKING:
    from cobi_companion.rules.cobra.tables import CobraTables

Table = TypeVar("Table", "SoftTable", "CobraTables")   # one or the other, as asked

SYSTEM_FOLDER = Path("/etc/cobi-companion/cards")
SOFT_TABLE = Path("tables") / "soft-targets.toml"   # inside a cards folder
COBRA_TABLES = Path("cobra") / "tables.toml"         # inside a cards folder
ENV_FOLDERS = "COBI_COMPANION_CARDS"


@dataclass(frozen=True)
class CardProblem:
    path: str
    field: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}: {self.field}: " if self.field else f"{self.path}: "
        return where + self.message


class CardFileError(Exception):
    def __init__(self, problems: list[CardProblem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


@dataclass
class CardBook:
    """The cards in play, by set number, and every problem met while loading them."""

    cards: dict[str, InfoCard] = field(default_factory=dict)   # by InfoCard.key
    problems: list[CardProblem] = field(default_factory=list)
    table: SoftTable = field(default_factory=SoftTable)       # the Soft Targets Table
    learned_file: Path | None = None   # where values learned at the table are kept, if anywhere

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
    return Path(str(files("cobi_companion.cards")))


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


def _card_fields(loc: tuple[Any, ...]) -> dict[str, Any]:
    """The fields allowed where an error is: the card's, or a weapon entry's."""
    return Weapon.model_fields if loc[:1] == ("weapons",) and len(loc) > 2 else \
        InfoCard.model_fields


def _table_fields(loc: tuple[Any, ...]) -> dict[str, Any]:
    """The fields allowed where an error is in the Soft Targets Table."""
    if len(loc) <= 1:
        return SoftTable.model_fields
    if loc[0] == "situations" or "template" in loc:
        return RangeBand.model_fields if "ranges" in loc else {
            k: v for k, v in RangeBand.model_fields.items() if k in ("modifier", "source")}
    return RangeBand.model_fields if "ranges" in loc and len(loc) > 3 else WeaponRow.model_fields


def _cobra_fields(loc: tuple[Any, ...]) -> dict[str, Any]:
    from cobi_companion.rules.cobra.tables import CobraTables

    return CobraTables.model_fields


def _problem(path: str, error: Any, fields_at: Any = _card_fields) -> CardProblem:
    loc = tuple(error.get("loc") or ())
    message = plain(str(error.get("msg", "")).removeprefix("Value error, "))
    if not loc:   # a rule about the whole file
        return CardProblem(path, None, message)
    name, last = ".".join(str(part) for part in loc), str(loc[-1])
    fields = fields_at(loc)
    kind = error.get("type")
    if kind == "extra_forbidden":
        close = difflib.get_close_matches(last, list(fields), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        what = "a card field" if fields is InfoCard.model_fields else \
            "a weapon field" if fields is Weapon.model_fields else "a field here"
        return CardProblem(path, name, f"is not {what}{hint}; allowed fields: "
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


def _read_toml(path: Path) -> dict[str, Any]:
    """The file's TOML table, read as every file of the box is (tomlfile.py: a regular file
    of at most 256 KiB, UTF-8, nested and numbered within bounds), or CardFileError."""
    try:
        return read_toml(path)
    except FileProblem as exc:
        raise CardFileError([CardProblem(str(path), exc.place, exc.reason)]) from None


def _load_table(path: Path, model: type[Table], fields_at: Any) -> Table:
    """Read a table file into `model`, or raise CardFileError listing every problem in it."""
    data = _read_toml(path)
    try:
        table = model.model_validate(data)
    except ValidationError as exc:
        raise CardFileError([_problem(str(path), e, fields_at)
                             for e in exc.errors()]) from None
    return table.with_source(str(path))


def load_table(path: Path) -> SoftTable:
    """Read a Soft Targets Table file, or raise CardFileError listing every problem in it."""
    return _load_table(path, SoftTable, _table_fields)


def load_cobra_tables(path: Path) -> CobraTables:
    """Read an owner's Cobra tables file, or raise CardFileError listing every problem."""
    from cobi_companion.rules.cobra.tables import CobraTables  # only Cobra needs it

    return _load_table(path, CobraTables, _cobra_fields)


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


def is_table(path: Path) -> bool:
    return path.name == SOFT_TABLE.name or path.parent.name == SOFT_TABLE.parent.name


def load_file(path: Path) -> InfoCard:
    """Read one card file, or raise CardFileError listing every problem in it."""
    shown = str(path)
    data = _read_toml(path)
    try:
        card = InfoCard.model_validate(data)
    except ValidationError as exc:
        raise CardFileError([_problem(shown, e) for e in exc.errors()]) from None
    return card.with_source(shown)


def load_folder(folder: Path) -> tuple[list[InfoCard], list[CardProblem]]:
    """Every *.toml card in a folder (sorted by name); a set number or id may appear only once."""
    cards: list[InfoCard] = []
    problems: list[CardProblem] = []
    seen: dict[str, str] = {}
    if not folder.is_dir():
        return cards, problems
    for path in sorted(folder.glob("*.toml")):
        if path.name == SOFT_TABLE.name:     # a table beside the cards (the learned values')
            continue
        try:
            card = load_file(path)
        except CardFileError as exc:
            problems.extend(exc.problems)
            continue
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
    the one before it stays), with the values in the `learned` file under it (a broken one
    is reported and none are used)."""
    book = CardBook(learned_file=learned)
    every = [shipped_folder(), *(default_folders() if folders is None else folders)]
    for folder in every:
        cards, problems = load_folder(folder)
        book.problems.extend(problems)
        book.cards.update((card.key, card) for card in cards)
    book.table = _last_valid(every, SOFT_TABLE, load_table, book.table, book.problems)
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
        return [load_file(path)], []
    except CardFileError as exc:
        return [], exc.problems
