"""View models: everything a screen shows, as plain data. `screens` turns them into images.

The app builds a view from its state after each event; a screen is a pure function of its view,
so equal views draw equal frames and an unchanged view is not drawn again.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields, is_dataclass
from typing import Any

from cobi_companion.device.core.worded import kept, read


@dataclass(frozen=True)
class Header:
    """The top line, always visible: what this screen is, the round and whose turn it is."""

    title: str
    round: int | None = None
    side: str | None = None        # "axis" / "allies", shown as the side's short name
    side_label: str = ""           # the side's name in the current language, e.g. "Oś"
    # A title (or hint) too long for its one row is shown in turns: `page` picks the turn. The
    # main loop turns it while the view stays; the screens leave it at 0.
    page: int = 0


@dataclass(frozen=True)
class Menu:
    """A list to turn the knob through; `index` is the highlighted item."""

    header: Header
    items: tuple[str, ...]
    index: int
    hint: str = ""                 # bottom line, e.g. "OK = choose"
    dimmed: tuple[int, ...] = ()   # items the piece cannot take now: drawn dim, never lit first


@dataclass(frozen=True)
class Roll:
    """Dice on the table: the faces, what was needed and the sum, big enough to read."""

    header: Header
    faces: tuple[int, ...]
    caption: str                   # "To hit", "Damage", ...
    needed: str = ""               # "needs 3+"
    total: str = ""                # "= 10"
    rolling: bool = False          # faces are still tumbling (animation frame)


@dataclass(frozen=True)
class BigWord:
    """One big outcome word (HIT, MISS, DESTROYED, ...) and one line of detail."""

    header: Header
    word: str
    detail: str = ""
    hint: str = ""                 # bottom line: an outcome that waits says "OK = next"


@dataclass(frozen=True)
class Lines:
    """Text lines to scroll through: the status board, the log, a reason, a question."""

    header: Header
    lines: tuple[str, ...]         # each wrapped to the panel's width (renderer.rows)
    index: int = 0                 # first row shown
    hint: str = ""


View = Menu | Roll | BigWord | Lines


# A view as plain data and back: the last outcome is saved with the battle (core/app.py), so
# that a restart shows it again as it was.
_KINDS: dict[str, type[Menu | Roll | BigWord | Lines]] = {
    "menu": Menu, "roll": Roll, "big_word": BigWord, "lines": Lines}


def view_data(view: View) -> dict[str, Any]:
    """The view as data, its texts as shown (the simulator's trace)."""
    return {"kind": _kind(view), **asdict(view)}


def view_saved(view: View) -> dict[str, Any]:
    """The view as data to save, each of its words in every language (worded.kept):
    `view_from` reads both."""
    return {"kind": _kind(view), **_data(view)}


def _kind(view: View) -> str:
    return next(name for name, cls in _KINDS.items() if isinstance(view, cls))


def _data(view: object) -> dict[str, Any]:
    data: dict[str, Any] = {}
    assert is_dataclass(view) and not isinstance(view, type)
    for field in fields(view):
        value = getattr(view, field.name)
        if isinstance(value, Header):
            data[field.name] = _data(value)
        elif isinstance(value, tuple):
            data[field.name] = [kept(item) if isinstance(item, str) else item
                                for item in value]
        else:
            data[field.name] = kept(value) if isinstance(value, str) else value
    return data


def view_from(data: dict[str, Any]) -> View:
    """The view `view_data` made (a field this version does not know is left out), its words
    as the language of the moment says them (the box's `again`)."""
    cls = _KINDS[data["kind"]]
    known = {f.name for f in fields(cls)}
    values: dict[str, Any] = {name: read(value) for name, value in data.items()
                              if name in known}
    values["header"] = Header(**{name: read(value) for name, value in data["header"].items()})
    values.update({name: tuple(read(item) for item in value)
                   for name, value in values.items() if isinstance(value, list)})
    return cls(**values)
