"""The lists of a saved game that only grow (a log, the weather of each turn so far, the
units exited, ...), saved by appending: each save writes the items added since the last one
as rows of the `grown` table, and the battle row keeps the rest of the game, which stays
small. A save at turn 27 of a campaign writes about what a save at turn 1 does, where writing
the whole game each time grew with the game (quadratic over a campaign).

The battle row says, under APPENDED, which lists it left out and which rows hold them
(`path`: the keys down to the list, joined by "/"; the rows `first` to `end`), so a row and
its rows are read back as the one game they were saved as: both are written in the same
transaction. A list may also lose items from its front (a battle saves its log's last lines
only): its rows before `first` are no longer read, and are deleted every PRUNE items, so the
table holds at most PRUNE rows more than the lists. A save whose list is not the last one
saved with items added (another game, a list the last save did not have, or the store does
not know what it wrote) writes it all again, its old rows deleted first.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

# The key, in a battle row, of the lists it left out: {path: [first, end]}.
APPENDED = "appended"
SEPARATOR = "/"
# The rows a list lost from its front are deleted each time its first row passes a multiple of
# this: deleting them at every save would read the whole table (it has no index by list, which
# every save would write too), and keeping them all would let a long battle's table grow.
PRUNE = 256


@dataclass
class Written:
    """One list as the store last wrote it: its items (the objects it was given, compared by
    identity first, so that a long list costs little to compare) and the row of the first."""

    first: int
    items: list[Any]

    @property
    def end(self) -> int:
        return self.first + len(self.items)


@dataclass
class Change:
    """What a save writes of one list, now `items`: `new` from `start` on, after the rows of
    the list go if it is written `again` (it is not the last one written, items added), or
    its rows before `first` go if it `prunes`."""

    path: str
    first: int
    start: int
    new: list[Any]
    items: list[Any]
    again: bool = False
    prunes: bool = False

    @property
    def end(self) -> int:
        return self.first + len(self.items)


@dataclass
class Plan:
    """One save: the battle row without its growing lists, and what changes in each."""

    battle_id: str
    state: dict[str, Any]
    changes: list[Change]
    fresh: bool                # another game than the one written last: all rows go first


@dataclass
class Lists:
    """What the store wrote last of the game in its slot (or nothing known: all is written)."""

    battle_id: str | None = None
    written: dict[str, Written] = field(default_factory=dict)

    def plan(self, battle_id: str, state: dict[str, Any], paths: Iterable[str]) -> Plan:
        """The save of `state`, its lists at `paths` appended (a path with no list there is
        saved in the row, as it is)."""
        same = battle_id == self.battle_id
        small, changes = state, []
        for path in paths:
            items = _at(state, path)
            if not isinstance(items, list):
                continue
            small = _without(small, path)
            changes.append(_change(path, self.written.get(path) if same else None, items))
        if changes:
            small = {**small, APPENDED: {c.path: [c.first, c.end] for c in changes}}
        return Plan(battle_id, small, changes, fresh=not same)

    def keep(self, plan: Plan) -> None:
        """The plan is on the card: what it wrote is what the next save compares with (a copy:
        a game may add to the list it gave in place, and the next save must see what was
        added)."""
        self.battle_id = plan.battle_id
        self.written = {c.path: Written(c.first, list(c.items)) for c in plan.changes}


def _change(path: str, written: Written | None, items: list[Any]) -> Change:
    if written is not None:
        dropped = _dropped(written.items, items)
        if dropped is not None:
            first = written.first + dropped
            kept = len(written.items) - dropped
            return Change(path, first, written.end, items[kept:], items,
                          prunes=first // PRUNE > written.first // PRUNE)
    # All of it again, its old rows deleted first: a list changed (not added to), or one the
    # last save of this game did not have (rows of an earlier one may be there still).
    return Change(path, 0, 0, items, items, again=True)


def _dropped(old: list[Any], new: list[Any]) -> int | None:
    """How many items `new` lost from the front of `old`, all else of `old` being the start
    of `new`; None if `new` is not so. Lists compare their items by identity first: a log
    whose lines' data are the same objects as at the last save compares in a pointer walk.
    Equal items count as well as the same ones (a game state made again, or a battle read
    back after a restart, has equal data in new objects): else a full log of 200 lines, one
    dropped off its front at each save, would be written whole again at every save."""
    if new[:len(old)] == old:
        return 0
    if not new:
        return None
    head = new[0]
    for dropped in range(1, len(old)):
        item = old[dropped]
        if (item is head or item == head) and old[dropped:] == new[:len(old) - dropped]:
            return dropped
    return None


def _at(data: dict[str, Any], path: str) -> Any:
    found: Any = data
    for key in path.split(SEPARATOR):
        if not isinstance(found, dict):
            return None
        found = found.get(key)
    return found


def _without(data: dict[str, Any], path: str) -> dict[str, Any]:
    """`data` without the value at `path`: the dicts along it copied, never changed."""
    key, _, rest = path.partition(SEPARATOR)
    if not rest:
        return {k: v for k, v in data.items() if k != key}
    return {**data, key: _without(data[key], rest)}


def _put(data: dict[str, Any], path: str, items: list[Any]) -> None:
    *keys, last = path.split(SEPARATOR)
    for key in keys:
        data = data[key]
    data[last] = items


def write(conn: sqlite3.Connection, plan: Plan) -> None:
    """The plan's rows (inside the caller's transaction, with the battle row). The rows a
    list lost from its front are deleted every PRUNE items (`Change.prunes`); meanwhile the
    row of the battle says which of them are read."""
    if plan.fresh:
        conn.execute("DELETE FROM grown")
    for change in plan.changes:
        if change.again and not plan.fresh:       # rare: a list changed, not added to
            conn.execute("DELETE FROM grown WHERE path = ?", (change.path,))
        elif change.prunes:
            conn.execute("DELETE FROM grown WHERE path = ? AND i < ?",
                         (change.path, change.first))
        conn.executemany("INSERT INTO grown (battle_id, path, i, item) VALUES (?, ?, ?, ?)", [
            (plan.battle_id, change.path, change.start + i, json.dumps(item, ensure_ascii=False))
            for i, item in enumerate(change.new)])


class Missing(ValueError):
    """A battle row's list whose rows are not all there (`path`; `found` of `wanted`)."""

    def __init__(self, path: str, found: int, wanted: int) -> None:
        super().__init__(f"{path}: {found} of its {wanted} items")
        self.path, self.found, self.wanted = path, found, wanted


def joined(conn: sqlite3.Connection, battle_id: str, data: dict[str, Any],
           item: Callable[[str, object], Any]) -> tuple[dict[str, Any], dict[str, Written]]:
    """The game of a battle row `data` with its lists back in their places (a row saved
    whole, before lists were appended, is as it is), and the lists as written; `item` reads
    one row's text (ValueError for one the box never wrote), Missing for rows not there."""
    spans = data.pop(APPENDED, None)
    written: dict[str, Written] = {}
    if not isinstance(spans, dict):
        return data, written
    wanted = {path: range(*(int(n) for n in span)) for path, span in spans.items()}
    found: dict[str, list[Any]] = {path: [] for path in wanted}
    for path, i, text in conn.execute("SELECT path, i, item FROM grown WHERE battle_id = ? "
                                      "ORDER BY n", (battle_id,)):
        span = wanted.get(path)
        if span is not None and i in span and i == span.start + len(found[path]):
            found[path].append(item(f"{path} {i}", text))
    for path, span in wanted.items():
        items = found[path]
        if len(items) != len(span):
            raise Missing(path, len(items), len(span))
        _put(data, path, items)
        written[path] = Written(span.start, items)
    return data, written
