"""The battle log as typed entries: each line is a key of the catalogues (words/locale:
its "log_..." keys) and the values it names, saved with the battle (or the Cobra game) as data and
put into words only when shown, in the language of the moment; switching the language re-words
the whole log. The journal keeps the English (`english`).

A value is a name (a label, a card's title: shown as it is), a word of the rules (a side, a
facing, an effect...: its name is in `WORDED`, said in the language's words as refusals say
theirs, device/core/reasons.py), a number (the language's decimal mark and plural forms), a
list of names, another entry (a line inside a line: "axis" + what it did), or a Cobra note
(said as the box says notes).

A battle saved before the log was typed has plain strings for lines: they load and show as
they were written.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeAlias

from cobi_companion.device.core import i18n, reasons
from cobi_companion.device.core.memo import ByIdentity
from cobi_companion.rules.cobra.notes import Note, Why
from cobi_companion.words import languages
from cobi_companion.words.grammar import Listed, SideName, side_is_many

# The values that are words of the rules, and the prefix of their keys in i18n: the refusals'
# words, and those only the log names.
WORDED: dict[str, str] = reasons.WORDED | {
    "winner": "", "attacker": "", "defender": "", "facing": "", "level": "",
    "effect": "effect_", "call": "call_", "phase": "phase_", "scenario": "scenario_",
    "track": "log_track_", "choice": "house_", "when": "when_",
    "hq_event": "hqevent_", "hq_state": "hqstate_", "army": "army_"}

# The values that name a side: a template's words may agree with them ({side:gives|give}).
SIDED = frozenset({"side", "winner", "attacker", "defender"})


@dataclass(frozen=True)
class LogEntry:
    """A line of the log: the key of its template and the values it names."""

    key: str
    values: Mapping[str, LogValue] = field(default_factory=dict)

    # Saved by hand, not by its types (rules/saved.py): a value may be of many kinds.
    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key,
                "values": {name: _saved(value) for name, value in self.values.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LogEntry:
        return cls(str(data["key"]), {str(name): _loaded(value)
                                      for name, value in (data.get("values") or {}).items()})


LogValue: TypeAlias = "str | int | float | LogEntry | Note | tuple[str | LogEntry, ...]"
# A line of a saved battle's log: an entry, or the sentence of a battle saved before entries.
Line: TypeAlias = "str | LogEntry"


def entry(key: str, **values: LogValue) -> LogEntry:
    """A line of the log: the template `key` of the word tables, and its values."""
    return LogEntry(key, values)


def by_side(side: str, line: LogEntry) -> LogEntry:
    """What one side did: "axis Tiger 1 moves up to 12 cm"."""
    return entry("log_side", side=side, line=line)


def won(line: LogEntry, winner: str) -> LogEntry:
    """The last action of a battle, and who won it."""
    return entry("log_won", line=line, winner=winner)


# ---- saved as data ----


def saved(line: Line) -> str | dict[str, Any]:
    """A line as the battle saves it (JSON)."""
    return line if isinstance(line, str) else line.to_dict()


def loaded(data: object) -> Line:
    """A saved line: an entry, or an old battle's sentence as it was."""
    if isinstance(data, Mapping):
        return LogEntry.from_dict(data)
    return str(data)


def _saved(value: LogValue) -> Any:
    if isinstance(value, LogEntry):
        return value.to_dict()
    if isinstance(value, Note):
        return {"why": value.why.value, "text": value.text,
                "values": {name: list(v) if isinstance(v, tuple) else v
                           for name, v in value.values.items()}}
    if isinstance(value, tuple):
        return [_saved(v) for v in value]
    return value


def _loaded(data: Any) -> LogValue:
    if isinstance(data, Mapping) and "why" in data:
        # a note is its code and values: its English is the code's own, filled again (the
        # "text" saved beside it is for a person reading the file)
        return Note(Why(data["why"]),
                    {str(name): tuple(v) if isinstance(v, list) else v
                     for name, v in (data.get("values") or {}).items()})
    if isinstance(data, Mapping):
        return LogEntry.from_dict(data)
    if isinstance(data, list):
        return tuple(LogEntry.from_dict(v) if isinstance(v, Mapping) else str(v) for v in data)
    if isinstance(data, str | int | float):
        return data
    raise ValueError(f"a log value of the wrong kind: {data!r}")


# ---- put into words ----


def said(line: Line, language: str, t: Callable[..., str],
         say: Callable[[Note], str]) -> str:
    """The line in `language`: its template and every value put into words by `t` (the word
    tables, as `app.t`) and `say` (a Cobra note, as `app.say`). An old battle's sentence is
    shown as it was written."""
    if isinstance(line, str):
        return line
    values = {name: _shown(name, value, language, t, say) for name, value in line.values.items()}
    return t(line.key, **values)


def _shown(name: str, value: LogValue, language: str, t: Callable[..., str],
           say: Callable[[Note], str]) -> object:
    if isinstance(value, LogEntry):
        return said(value, language, t, say)
    if isinstance(value, Note):
        return say(value)
    if isinstance(value, tuple):
        return Listed(tuple(said(v, language, t, say) if isinstance(v, LogEntry)
                            else reasons.word(name, v, t, WORDED) for v in value), language)
    shown = reasons.value(name, value, language, t, WORDED)
    if name in SIDED and value in ("axis", "allies"):     # its verb agrees with it
        return SideName(str(shown), side_is_many(value), value)
    return shown


def words_kept(words: Callable[[Line], str]) -> Callable[[Line], str]:
    """`words` (a line put into words, as `said` does in one language), kept for each line: a
    line never changes once logged, and the log screen puts the whole log into words each
    time it opens."""
    return ByIdentity(words, size=1024)


# The journal's English, made for every line as it is logged: the log screen's, in English.
_ENGLISH = words_kept(partial(said, language=languages.SOURCE,
                              t=partial(i18n.text, languages.SOURCE),
                              say=partial(reasons.say, languages.SOURCE)))


def english(line: Line) -> str:
    """The line in English, for the journal."""
    return _ENGLISH(line)


class SavedLog:
    """The data of a log's last `most` lines (all: None), made only for the lines added since
    the last save: a game is saved after every action, its log each time, and making every
    line data again was most of a long game's save. A line never changes once logged; the
    lines the last save made are checked, not assumed, to be still in their places (the same
    objects, or equal ones), else all are made again. The data is the same in the saves after
    (read it, never change it)."""

    def __init__(self, most: int | None) -> None:
        self.most = most
        self.count = 0                          # the log's length at the last save
        self.lines: list[Line] = []             # its last lines then
        self.data: list[Any] = []               # and their data

    def __call__(self, log: list[Line]) -> list[Any]:
        lines = list(log) if self.most is None else log[-self.most:]
        old_start, start = self.count - len(self.lines), len(log) - len(lines)
        dropped = start - old_start             # the last save's lines gone off the front
        kept = len(self.lines) - dropped
        if len(log) >= self.count and 0 <= dropped <= len(self.lines) and \
                lines[:kept] == self.lines[dropped:]:
            data = self.data[dropped:] + [saved(line) for line in lines[kept:]]
        else:
            data = [saved(line) for line in lines]
        self.count, self.lines, self.data = len(log), lines, data
        return data
