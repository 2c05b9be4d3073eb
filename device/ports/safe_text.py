"""Text from a file written where a terminal shows it: a card's name, a file's problem.

A card file can hold any character, and a terminal acts on some of them instead of showing
them: ESC starts a command (ESC[2J clears the screen, others set the window's title or the
colours), the other C0 and C1 controls and DEL move the cursor or ring, and the bidi overrides
turn the rest of the line around. `printable` shows each of them as its escape (\\x1b, \\u202e),
in one pass over the text; a new line and a tab are kept. `json_printable` does the same in a
JSON text, where the escape is JSON's own (\\u001b): the data a script reads is unchanged.

This module imports only the standard library: the command line and the terminal simulator
both use it.
"""
from __future__ import annotations

import re

# C0 but the tab and the new line, DEL, C1; the Arabic letter mark, the left-to-right and
# right-to-left marks, the bidi embeddings and overrides (U+202A-U+202E) and isolates.
_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_CONTROL = re.compile(f"[{_CONTROLS}]")


def printable(text: str) -> str:
    """`text` with every character a terminal would act on written as its escape."""
    return _CONTROL.sub(_escaped, text)


def json_printable(text: str) -> str:
    """A JSON text with those characters written as JSON escapes (\\u001b), which a JSON
    reader reads back as the same characters. (They are only ever inside its strings.)"""
    return _CONTROL.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
