"""Load info cards: the shipped ones, then the system and user card folders.

Every problem becomes one line naming the file, the field and what is allowed; a broken file
is skipped and the other cards still load. A later folder overrides an earlier one by set
number (user over system over shipped).
"""
from __future__ import annotations

import difflib
import os
import tomllib
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from cobi_companion.rules.card import InfoCard
from cobi_companion.rules.errors import RulesError
from pydantic import ValidationError

SYSTEM_FOLDER = Path("/etc/cobi-companion/cards")
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

    cards: dict[int, InfoCard] = field(default_factory=dict)
    problems: list[CardProblem] = field(default_factory=list)

    def get(self, set_number: int | str) -> InfoCard:
        key = str(set_number).strip()
        if key.isdigit() and int(key) in self.cards:
            return self.cards[int(key)]
        known = ", ".join(str(n) for n in sorted(self.cards))
        raise RulesError(f"unknown set number {key!r}: the known cards are {known}")

    def sorted(self) -> list[InfoCard]:
        return [self.cards[n] for n in sorted(self.cards)]


def shipped_folder() -> Path:
    return Path(str(files("cobi_companion.cards")))


def user_folder() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "cobi-companion" / "cards"


def default_folders(user: Path | None = None) -> list[Path]:
    """Folders read after the shipped cards: $COBI_COMPANION_CARDS, or system then user;
    `user` (from --cards or the config) takes the place of the user folder."""
    env = os.environ.get(ENV_FOLDERS)
    folders = [Path(p) for p in env.split(os.pathsep) if p] if env is not None \
        else [SYSTEM_FOLDER, user_folder()]
    if user is not None:
        folders = [f for f in folders if f != user_folder()] + [user]
    return folders


def _allowed(name: str) -> str:
    info = InfoCard.model_fields.get(name)
    return info.description or "" if info else ""


def _problem(path: str, error: Any) -> CardProblem:
    loc = error.get("loc") or ()
    name = str(loc[0]) if loc else None
    kind = error.get("type")
    if kind == "extra_forbidden" and name:
        close = difflib.get_close_matches(name, list(InfoCard.model_fields), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        return CardProblem(path, name, f"is not a card field{hint}; allowed fields: "
                                       f"{', '.join(InfoCard.model_fields)}")
    if kind == "missing" and name:
        return CardProblem(path, name, f"is missing; allowed: {_allowed(name)}")
    value = error.get("input")
    return CardProblem(path, name, f"{value!r} is not allowed; allowed: {_allowed(name or '')}")


def load_file(path: Path) -> InfoCard:
    """Read one card file, or raise CardFileError listing every problem in it."""
    shown = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CardFileError([CardProblem(shown, None, f"not valid TOML: {exc}")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise CardFileError([CardProblem(shown, None, f"cannot be read: {reason}")]) from None
    try:
        card = InfoCard.model_validate(data)
    except ValidationError as exc:
        raise CardFileError([_problem(shown, e) for e in exc.errors()]) from None
    return card.with_source(shown)


def load_folder(folder: Path) -> tuple[list[InfoCard], list[CardProblem]]:
    """Every *.toml card in a folder (sorted by name); a set number may appear only once."""
    cards: list[InfoCard] = []
    problems: list[CardProblem] = []
    seen: dict[int, str] = {}
    if not folder.is_dir():
        return cards, problems
    for path in sorted(folder.glob("*.toml")):
        try:
            card = load_file(path)
        except CardFileError as exc:
            problems.extend(exc.problems)
            continue
        if card.set_number in seen:
            problems.append(CardProblem(
                str(path), "set_number",
                f"{card.set_number} is already the card in {seen[card.set_number]}; "
                f"allowed: one file per set number in a folder (this file is skipped)"))
            continue
        seen[card.set_number] = str(path)
        cards.append(card)
    return cards, problems


def load_cards(folders: list[Path] | None = None) -> CardBook:
    """The shipped cards, then each folder in order overriding by set number."""
    book = CardBook()
    for folder in [shipped_folder(), *(default_folders() if folders is None else folders)]:
        cards, problems = load_folder(folder)
        book.problems.extend(problems)
        book.cards.update((card.set_number, card) for card in cards)
    return book


def check(path: Path) -> tuple[list[InfoCard], list[CardProblem]]:
    """Check one card file or a folder of them."""
    if path.is_dir():
        return load_folder(path)
    if not path.exists():
        return [], [CardProblem(str(path), None, "no such file or folder")]
    try:
        return [load_file(path)], []
    except CardFileError as exc:
        return [], exc.problems
