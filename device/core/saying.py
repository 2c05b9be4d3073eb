"""Something the box says, as data: the key of a template of the voice's words (the
catalogues, words/locale: the keys "say_...") and the values it names, an outcome, a prompt or
a menu item.
Put into words by device/core/spoken.py; made by the games' screens and of the battle log's lines
(device/core/spoken_log.py)."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from cobi_companion.device.ports.speech import Kind

SpokenValue: TypeAlias = "str | int | Spoken"


@dataclass(frozen=True)
class Spoken:
    """Something to say: the template `key` and its values; an outcome or a prompt."""

    key: str
    values: Mapping[str, SpokenValue] = field(default_factory=dict)
    kind: Kind = "outcome"


def outcome(key: str, **values: SpokenValue) -> Spoken:
    return Spoken(key, values, "outcome")


def prompt(key: str, **values: SpokenValue) -> Spoken:
    return Spoken(key, values, "prompt")


def item(key: str, **values: SpokenValue) -> Spoken:
    """A menu item under the cursor, read aloud for a child who cannot read yet."""
    return Spoken(key, values, "item")


# The panel's marks between a row's words (→ · ▸ ✓), never said: the voice pauses there.
_MARKS = re.compile(r"\s*(?:,\s*)+")


# A count of the panel's, "1/9": said "one of nine".
_COUNT = re.compile(r"^(.*?)\s*(\d+)\s*/\s*(\d+)$")
# A squad's figures on the panel, "Rifle 1 (2)": said "Rifleman one: two figures".
_FIGURES = re.compile(r"^(.*?\S)\s*\((\d+)\)$")


def said_item(label: str, dimmed: bool = False) -> Spoken:
    """A menu row as the voice reads it: its words, a piece's label as a child says it
    ("Tiger 1": "Tiger one"), each of the panel's marks a pause ("Fire → Sherman 1": "Fire,
    Sherman one"), a count in words ("Paratroops 1/9": "Paratroops: one of nine"), a squad's
    figures too ("Rifle 1 (2)": "Rifle one: two figures"); a row the rules refuse now
    (`dimmed`) with "not now"."""
    words = "".join(", " if unicodedata.category(c)[0] == "S" or c in "·•" else c
                    for c in str(label))
    words = _MARKS.sub(", ", words).strip(" ,")
    count, figures = _COUNT.match(words), _FIGURES.match(words)
    if count and count[1]:
        said = item("say_item_count", item=count[1], n=int(count[2]), most=int(count[3]))
    elif figures:
        said = item("say_item_figures", item=figures[1], n=int(figures[2]))
    else:
        said = item("say_item", item=words)
    return item("say_item_dimmed", item=said) if dimmed else said
