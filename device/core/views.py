"""View models: everything a screen shows, as plain data. `screens` turns them into images.

The app builds a view from its state after each event; a screen is a pure function of its view,
so equal views draw equal frames and an unchanged view is not drawn again.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any


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
    kind = next(name for name, cls in _KINDS.items() if isinstance(view, cls))
    return {"kind": kind, **asdict(view)}


def view_from(data: dict[str, Any]) -> View:
    """The view `view_data` made (a field this version does not know is left out)."""
    cls = _KINDS[data["kind"]]
    known = {f.name for f in fields(cls)}
    values = {name: value for name, value in data.items() if name in known}
    values["header"] = Header(**values["header"])
    values.update({name: tuple(value) for name, value in values.items()
                   if isinstance(value, list)})
    return cls(**values)
