"""Something the box says, as data: the key of a template of the voice's words (the
catalogues, words/locale: the keys "say_...") and the values it names, an outcome, a prompt or
a menu item.
Put into words by device/core/spoken.py; made by the games' screens and of the battle log's lines
(device/core/spoken_log.py)."""
from __future__ import annotations

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
