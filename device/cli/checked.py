"""The values an option takes, each read and checked as argparse reads it: numbers (ASCII
digits, finite, in a stated range), files, folders, cards and dice. A bad one is refused before
the command runs, in one line that says what is allowed (`OneLineParser`: exit 2).

Each check is a small class, called by argparse with the text given; its `allowed` is the
words the refusal ends with, so that the allowed range is said where it is set. They are plain
classes, not dataclasses: every command's parser makes some, and creating a dataclass costs
about a millisecond at import here (fifteen on a Pi Zero 2 W). The dice are imported by the
check of --dice alone.
"""
from __future__ import annotations

import os
import stat
from argparse import ArgumentTypeError
from pathlib import Path

from cobi_companion.cards.tomlfile import MAX_BYTES, FileProblem, read_bytes
from cobi_companion.rules.numbers import decimal, echo, whole

TEXT_MOST_BYTES = MAX_BYTES   # as the box reads its files: far more than any of them needs
SET_NUMBER_MOST = 999_999     # the card schema's largest set number


def _refuse(shown: str, problem: str, allowed: str) -> ArgumentTypeError:
    return ArgumentTypeError(f"{shown} {problem}; allowed: {allowed}")


def shown_path(text: str) -> str:
    """A path as a refusal repeats it: as given, unless it holds characters that would break
    the line (a new line in a file name)."""
    return text if text.isprintable() else repr(text)


class Whole:
    """A whole number from `low` to `high` (`what`: "a whole number of figures")."""

    def __init__(self, low: int, high: int, what: str) -> None:
        self.low, self.high, self.what = low, high, what

    @property
    def allowed(self) -> str:
        return f"{self.what} from {self.low} to {self.high}"

    def __call__(self, text: str) -> int:
        value = whole(text, self.low, self.high)
        if value is None:
            raise _refuse(echo(text), "is not allowed", self.allowed)
        return value


class Decimal:
    """A number (12, 12.5) from `low` to `high`: never nan, an infinity or an exponent."""

    def __init__(self, low: float, high: float, what: str) -> None:
        self.low, self.high, self.what = low, high, what

    @property
    def allowed(self) -> str:
        return f"{self.what} from {self.low:g} to {self.high:g}"

    def __call__(self, text: str) -> float:
        value = decimal(text, self.low, self.high)
        if value is None:
            raise _refuse(echo(text), "is not allowed", self.allowed)
        return value


def _stat(path: Path) -> os.stat_result | str:
    """The file's status, or why there is none."""
    try:
        return path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return "does not exist"
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"


def _text_problem(path: Path) -> str | None:
    """Why `path` is no text file the companion can read, or None."""
    found = _stat(path)
    if isinstance(found, str):
        return found
    if stat.S_ISDIR(found.st_mode):
        return "is a folder"
    if not stat.S_ISREG(found.st_mode):     # a device or a pipe could be read for ever
        return "is not a regular file"
    if found.st_size > TEXT_MOST_BYTES:
        return f"is too big ({found.st_size} bytes)"
    try:
        # read as the box reads its files: a FIFO put there since the stat never blocks
        read_bytes(path).decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"is not UTF-8 text (byte {exc.object[exc.start]:#04x} at {exc.start})"
    except FileProblem as exc:
        return f"cannot be read ({exc.reason.removeprefix('cannot be read: ')})"
    return None


class TextFile:
    """A file to read: there, a regular file, UTF-8 text, at most TEXT_MOST_BYTES."""

    def __init__(self, what: str) -> None:
        self.what = what    # "the settings file"

    @property
    def allowed(self) -> str:
        return f"{self.what}, UTF-8 text of at most {TEXT_MOST_BYTES // 1024} KiB"

    def __call__(self, text: str) -> str:
        problem = _text_problem(Path(text).expanduser())
        if problem is not None:
            raise _refuse(shown_path(text), problem, self.allowed)
        return text


class FileOrFolder:
    """A file as TextFile reads it, or a folder (`cards check PATH`)."""

    def __init__(self, what: str) -> None:
        self.what = what

    def __call__(self, text: str) -> str:
        if Path(text).expanduser().is_dir():
            return text
        return TextFile(f"{self.what}, or a folder of them")(text)


class Folder:
    """A folder: one that is there, or (`new`) one the command may make."""

    def __init__(self, what: str, new: bool = False) -> None:
        self.what = what    # "a folder of your own cards"
        self.new = new

    @property
    def allowed(self) -> str:
        return f"{self.what} " + ("(made if it is not there)" if self.new else "that is there")

    def __call__(self, text: str) -> str:
        problem = _folder_problem(Path(text).expanduser(), self.new)
        if problem is not None:
            raise _refuse(shown_path(text), problem, self.allowed)
        return text


def _folder_problem(path: Path, new: bool) -> str | None:
    """Why `path` is no folder (or, `new`, none that can be made there), or None."""
    if path.is_dir():
        return None
    found = _stat(path)
    if not isinstance(found, str):
        return "is a file, not a folder"
    if not new or found != "does not exist":
        return found
    # A folder to make: the nearest of its parents that is there must be a folder too.
    for parent in path.absolute().parents:
        if parent.exists():
            return None if parent.is_dir() else f"cannot be made: {parent} is a file"
    return None


class NewFile:
    """A file the command writes: not a folder, in a folder that is there (`pipes`: or a
    named pipe another program reads)."""

    def __init__(self, what: str, pipes: bool = False) -> None:
        self.what, self.pipes = what, pipes

    @property
    def allowed(self) -> str:
        return f"{self.what}, in a folder that is there" + (", or a pipe" if self.pipes else "")

    def __call__(self, text: str) -> str:
        path = Path(text).expanduser()
        problem = None
        if path.is_dir():
            problem = "is a folder"
        elif self.pipes and path.is_fifo():
            return text
        elif path.exists() and not path.is_file():
            problem = "is not a regular file"
        elif not path.absolute().parent.is_dir():
            problem = f"cannot be written: {path.absolute().parent} is not a folder"
        if problem is not None:
            raise _refuse(shown_path(text), problem, self.allowed)
        return text


CARD_ALLOWED = (f"a set number from 1 to {SET_NUMBER_MOST} in the digits 0-9, like 2477, or a "
                f"card id, like bofors-37mm")


def card(text: str) -> str:
    """A card's set number or id. A set number is ASCII digits in the card schema's range; an
    id is left to the card book (an unknown one is refused there, with the known cards)."""
    key = text.strip()
    # a key of digits of any script ('²' too) is refused here as a set number out of range
    if not key or (key.isdigit() and whole(key, 1, SET_NUMBER_MOST) is None):
        raise _refuse(echo(text), "is not a set number or card id", CARD_ALLOWED)
    return text


class Faces:
    """--dice: faces in order, like 3,5,6; with `ask`, also 'ask' (real dice)."""

    def __init__(self, ask: bool = True) -> None:
        self.ask = ask

    def __call__(self, text: str) -> str:
        from cobi_companion.rules.dice import DiceError, parse_faces

        if self.ask and text.strip().lower() == "ask":
            return text
        try:
            parse_faces(text)       # none is allowed too: for a rule that rolls none
        except DiceError as exc:
            raise ArgumentTypeError(f"{exc}{' (or ask)' if self.ask else ''}") from None
        return text


def house_rule(text: str) -> tuple[str, str]:
    """--house-rule NAME=VALUE: a house rule of rules/house.py and one of its values (the
    table is imported by this check alone: a command without the option never reads it)."""
    from cobi_companion.rules.errors import RulesError
    from cobi_companion.rules.house import BY_NAME, parse

    name, equals, value = text.partition("=")
    if not equals:
        raise _refuse(echo(text), "is not NAME=VALUE",
                      f"NAME=VALUE, NAME one of {', '.join(BY_NAME)}")
    try:
        return parse(name, value)
    except RulesError as exc:
        raise ArgumentTypeError(str(exc)) from None
