"""Read a TOML file that anyone may have put on the box: the one way every card, table and
settings file is read.

An owner edits these files on any computer, and a stick or the boot partition can hold
anything: a FIFO or a link to /dev/zero named `x.toml`, a file of megabytes, bytes that are not
UTF-8, tables nested hundreds deep or a number of thousands of digits. None of that may hang
the box or end it with a traceback: each becomes a FileProblem, one reason about that file, and
the caller skips the file and reads the others.

- Only a regular file is read, at most MAX_BYTES (256 KiB, some hundred times the largest file
  the box ships). Its type is checked before it is opened (a device is never even opened), and
  again on the open descriptor, which is opened non-blocking: a FIFO swapped in between can
  never block the read.
- The text must be UTF-8, the TOML valid, nested at most MAX_DEPTH tables and arrays deep, and
  every whole number short enough for Python to write out (sys.get_int_max_str_digits(): 4300
  digits), so that no later message or check can fail on it.

Besides: `merge`, one TOML table over another (the config's layers), and `line_of`, the line of
a text that sets a dotted key (where a problem is).

This module imports only the standard library: the box peeks at its panel settings with it
before the heavy imports (device/boot.py), and both the config and its check use it.
"""
from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

MAX_BYTES = 256 * 1024
MAX_DEPTH = 32          # tables and arrays inside each other; the box's files need 5
ALLOWED_FILE = f"a regular file of at most {MAX_BYTES // 1024} KiB"


class FileProblem(Exception):
    """Why a file cannot be used: str() is the reason, without the file's name (the caller
    names it, in its own shape); `place` is the dotted key it is about, if any."""

    def __init__(self, reason: str, place: str | None = None, missing: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.place = place
        self.missing = missing      # there is no file at all (callers may skip it silently)

    def __str__(self) -> str:
        # the place's keys cut short: a file's own key may be thousands of letters long
        shown = place_shown(self.place.split(".")) if self.place else None
        return f"{shown}: {self.reason}" if shown else self.reason


def shortened(text: str, limit: int = 60) -> str:
    """A value as a message shows it: cut to `limit` characters with "…" (a value of
    thousands of characters would fill the panel with one word)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


# The problems of one file named one by one (settings, cards, tables): the rest are one line
# saying how many more there are. A file of 30,000 problems (every key of it misspelt) once made
# the box start 25 times slower, formatting, keeping and drawing every one; and each problem of
# a settings file is found in its text, so 4,000 of them read the file 4,000 times.
MOST_PROBLEMS = 20


def more_said(count: int) -> str:
    """The line that stands for `count` problems of a file not named one by one."""
    return f"and {count} more problem{'s' if count != 1 else ''}"


# A key a message names is cut to this many characters: a file's own key may be of any
# length (one of 200,000 letters hung the box), the place in a message never is.
KEY_SHOWN = 40


def place_shown(loc: Iterable[object]) -> str:
    """A dotted place in a file as a message shows it, like game.language: each key cut to
    KEY_SHOWN characters."""
    return ".".join(shortened(str(part), KEY_SHOWN) for part in loc)


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML table in the file at `path`, or FileProblem."""
    return parse(read_text(path))


def read_text(path: Path) -> str:
    """The UTF-8 text of the regular file at `path`, or FileProblem. A byte order mark in
    front (Windows' Notepad saves one) is not part of the text: TOML would refuse it."""
    data = read_bytes(path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FileProblem(f"cannot be read: not UTF-8 text (byte 0x{data[exc.start]:02x} at "
                          f"position {exc.start}); allowed: a text file saved as UTF-8") \
            from None


def parse(text: str) -> dict[str, Any]:
    """The TOML table of `text`, checked for depth and the size of its numbers; or
    FileProblem."""
    # Imported here: the box and the command line mostly start from snapshots, parsing none.
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:     # its message ends "(at line 2, column 11)"
        raise FileProblem(f"not valid TOML: {exc}") from None
    except RecursionError:                     # arrays or inline tables hundreds deep
        raise FileProblem(_too_deep()) from None
    except ValueError as exc:                  # a decimal number of thousands of digits
        raise FileProblem(_too_long() if _is_digit_limit(str(exc)) else
                          f"not valid TOML: {exc}") from None
    except Exception as exc:                   # anything else the parser meets is the file's
        raise FileProblem(f"not valid TOML: {str(exc) or type(exc).__name__}") from None
    _check_values(data)
    return data


def read_bytes(path: Path) -> bytes:
    """The bytes of the regular file at `path`, at most MAX_BYTES; or FileProblem. Never
    blocks, whatever the path turns out to be."""
    try:
        _refuse_odd(os.stat(path))             # a device is never opened
        # Non-blocking: a FIFO put here after the stat returns at once instead of waiting
        # for a writer, and the check below refuses it.
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise FileProblem("no such file", missing=True) from None
    except OSError as exc:
        raise FileProblem(f"cannot be read: {exc.strerror or exc}") from None
    try:
        _refuse_odd(os.fstat(handle))
        return _read_at_most(handle)
    except OSError as exc:
        raise FileProblem(f"cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(handle)


def _refuse_odd(info: os.stat_result) -> None:
    """FileProblem unless `info` is a regular file of at most MAX_BYTES."""
    mode = info.st_mode
    if not stat.S_ISREG(mode):
        kind = ("a folder" if stat.S_ISDIR(mode) else "a pipe (FIFO)" if stat.S_ISFIFO(mode)
                else "a socket" if stat.S_ISSOCK(mode) else "a device")
        raise FileProblem(f"cannot be read: it is {kind}; allowed: {ALLOWED_FILE}")
    if info.st_size > MAX_BYTES:
        raise FileProblem(_too_big(info.st_size))


def _read_at_most(handle: int) -> bytes:
    # Up to one byte over the limit: a file that grows while it is read (or reports no size,
    # as files under /proc do) is still refused rather than read on without end.
    chunks: list[bytes] = []
    size = 0
    while size <= MAX_BYTES:
        chunk = os.read(handle, MAX_BYTES + 1 - size)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    raise FileProblem(_too_big(size))


def _too_big(size: int) -> str:
    return f"cannot be read: it is over {MAX_BYTES // 1024} KiB ({size} bytes); " \
           f"allowed: {ALLOWED_FILE}"


def _too_deep() -> str:
    return f"tables and arrays are nested more than {MAX_DEPTH} deep; allowed: at most " \
           f"{MAX_DEPTH} levels"


def _digit_limit() -> int:
    return sys.get_int_max_str_digits()    # 0: no limit


def _too_long() -> str:
    return f"a whole number of more than {_digit_limit()} digits; allowed: a number of at " \
           f"most {_digit_limit()} digits"


def _is_digit_limit(message: str) -> bool:
    # Python says "Exceeds the limit (4300 digits) for integer string conversion".
    return "integer string conversion" in message


def plain(message: str) -> str:
    """A validator's message, with Python's words for a number too long to convert (a
    validator that reads digits out of a text meets it) said as the box says them."""
    return _too_long() if _is_digit_limit(message) else message


def _check_values(data: dict[str, Any]) -> None:
    """FileProblem for a value nested deeper than MAX_DEPTH, or a whole number too long for
    Python to write out (hex, octal and binary numbers of any length parse; their message
    would not)."""
    limit = _digit_limit()
    largest = 10 ** limit if limit else None
    for place, depth, value in _walk(data):
        if depth > MAX_DEPTH:
            raise FileProblem(_too_deep(), place)
        if largest is not None and isinstance(value, int) and abs(value) >= largest:
            raise FileProblem(_too_long(), place)


def count_values(data: dict[str, Any], most: int) -> int:
    """How many values (keys, tables and list items, the top table not counted) `data`
    holds, counted up to one more than `most` and no further."""
    count = 0
    for count, _ in enumerate(_walk(data)):
        if count > most:
            break
    return count


def _walk(data: dict[str, Any]) -> Iterator[tuple[str, int, Any]]:
    """Every value with its dotted place and how deep it is (the top table's keys are at 1),
    without recursion: a file's nesting never reaches Python's recursion limit here."""
    stack: list[tuple[str, int, Any]] = [("", 0, data)]
    while stack:
        place, depth, value = stack.pop()
        yield place, depth, value
        if depth > MAX_DEPTH:
            continue                           # refused already: no need to go deeper
        children = value.items() if isinstance(value, dict) else \
            enumerate(value) if isinstance(value, list) else ()
        stack.extend((f"{place}.{key}" if place else str(key), depth + 1, child)
                     for key, child in children)


# ---- layers and lines: a table over another, and where in a text a key is set ----

def merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """`over` on top of `base`, table by table and key by key; anything else in `over` (a
    value, or an array of tables such as [[sensors]]) replaces what `base` has whole."""
    merged = dict(base)
    for key, value in over.items():
        below = merged.get(key)
        if isinstance(value, dict) and isinstance(below, dict):
            merged[key] = merge(below, value)
        else:
            merged[key] = value
    return merged


# Patterns, compiled when first used (the re module keeps them): only a file's problem needs
# its line, and the box reads its panel settings with this module before its title is drawn.
_BARE_OR_QUOTED = r'[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\''
_KEY = rf"^\s*((?:{_BARE_OR_QUOTED})(?:\s*\.\s*(?:{_BARE_OR_QUOTED}))*)\s*="
_HEADER = (rf"^\s*(\[\[?)\s*((?:{_BARE_OR_QUOTED})(?:\s*\.\s*(?:{_BARE_OR_QUOTED}))*)"
           rf"\s*\]")


def _dotted(text: str) -> list[str]:
    return [part.strip("\"'") for part in re.findall(_BARE_OR_QUOTED, text)]


def _places(text: str) -> Iterator[tuple[int, list[str]]]:
    """Each table header and key line of a TOML text: its line number and dotted place, with
    the position of an array of tables, like ["sensors", "1", "port"]."""
    table: list[str] = []
    counts: dict[tuple[str, ...], int] = {}
    in_string = ""
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string:                      # inside a multi-line string: no keys here
            if line.count(in_string) % 2:
                in_string = ""
            continue
        header = re.match(_HEADER, line)
        if header:
            table = _dotted(header.group(2))
            if header.group(1) == "[[":
                index = counts.get(tuple(table), 0)
                counts[tuple(table)] = index + 1
                table = [*table, str(index)]
            yield number, table
            continue
        key = re.match(_KEY, line)
        if key:
            yield number, [*table, *_dotted(key.group(1))]
            rest = line[key.end():]
            for quotes in ('"""', "'''"):
                if rest.count(quotes) % 2:
                    in_string = quotes


@lru_cache(maxsize=4)
def _places_of(text: str) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """`_places`, read once a text: a file's problems each ask for their line (up to
    config_check's cap), and a 28 KB file is otherwise read again for every one."""
    return tuple((number, tuple(found)) for number, found in _places(text))


def line_of(text: str, place: list[str]) -> int | None:
    """The line of a TOML text that sets the dotted `place`, else the line of the closest
    table or key above it (the header of a table with a missing key); None if there is none."""
    best: tuple[int, int] | None = None
    wanted = tuple(place)
    for number, found in _places_of(text):
        if found and found == wanted[:len(found)] and (best is None or len(found) > best[0]):
            best = (len(found), number)
    return best[1] if best else None
