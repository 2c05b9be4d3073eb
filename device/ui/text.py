"""View models as plain text lines: the panel's frames for a terminal or a log, where
`renderer` draws them as pixels.

The text says what the panel shows, not how: the header, then the body of the view, then the
hint. A menu lists every item (the panel shows three at a time) with a marker on the chosen
one; lines are shown in the rows the panel wraps them into, the rows the panel shows, with
marks for the rows above and below.
"""
from __future__ import annotations

from cobi_companion.device.core.views import BigWord, Header, Lines, Menu, Roll, View
from cobi_companion.device.ui.renderer import last_row, rows, rows_shown

CHOSEN, OTHER = "> ", "  "
MORE_ABOVE, MORE_BELOW = "  ▲", "  ▼"
DIMMED = " (-)"                  # an item the piece cannot take now, drawn dim


def header_text(header: Header) -> str:
    """The title in brackets, then the round and whose turn it is, as the panel's band."""
    side = header.side_label or (header.side or "").capitalize()
    info = " ".join(part for part in (f"R{header.round}" if header.round is not None else "",
                                      side) if part)
    return f"[ {header.title} ]" + (f"  {info}" if info else "")


def _menu(view: Menu) -> list[str]:
    index = min(max(view.index, 0), max(len(view.items) - 1, 0))
    return [(CHOSEN if number == index else OTHER) + item + (DIMMED if number in view.dimmed
                                                             else "")
            for number, item in enumerate(view.items)]


def _roll(view: Roll) -> list[str]:
    caption = "  ".join(part for part in (view.caption, view.needed) if part)
    dice = " ".join(f"[{face}]" for face in view.faces)
    result = "  ".join(part for part in (dice, view.total) if part)
    return [caption, *([result] if result else [])]    # no dice yet: no empty line


def _big_word(view: BigWord) -> list[str]:
    return [f"*** {view.word.strip()} ***", *([view.detail] if view.detail else [])]


def _lines(view: Lines) -> list[str]:
    wrapped = rows(view)
    first = min(max(view.index, 0), last_row(view))
    shown = list(wrapped[first:first + rows_shown(view)])
    above = [MORE_ABOVE] if first > 0 else []
    below = [MORE_BELOW] if first + len(shown) < len(wrapped) else []
    return [*above, *shown, *below]


def view_text(view: View) -> list[str]:
    """The lines of one frame: header, body, and the hint in parentheses."""
    match view:
        case Menu():
            body, hint = _menu(view), view.hint
        case Roll():
            body, hint = _roll(view), ""
        case BigWord():
            body, hint = _big_word(view), view.hint
        case Lines():
            body, hint = _lines(view), view.hint
    return [header_text(view.header), *body, *([f"({hint})"] if hint else [])]
