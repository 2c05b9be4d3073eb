"""Where battles survive a pulled plug: the current battle, every die rolled, a few settings,
and the box's dice secret with its count of dice drawn (device/core/draws.py: saved with each
battle and roll, in the same transaction, so that a die shown before a pulled plug comes out
the same after it).

SqliteStore keeps them in one SQLite file in WAL mode with synchronous=FULL: each save is one
transaction, wholly on the card or not at all. It never stops a game: a file it cannot read is
moved aside and a fresh one started, and when nothing can be written it plays on in memory
(as a MemoryStore does), trying the file again at later writes: once the file takes one, all
that memory holds (the battle, the rolls made meanwhile, the settings, the dice's count) is
written to it in one transaction and `can_save` is True again. Either way `problem` says what
happened, in one line, and `problems` says it typed, for the screen to put in the box's words.
A row it reads that the box never wrote (not JSON, nested too deep) is refused as a `BadRow`:
a battle row stays where it is, a settings row is left out and listed in `bad_rows`.

A smart die's face is thrown, not drawn from the secret: each one a rule takes is kept with its
draw number (`keep_thrown`, written just after its frame) until the action it belongs to is
saved, so that after a pulled plug the box takes that face again for that number (`thrown`).

Kept quick on a Pi Zero: the dice statistics are counts updated by a trigger in the same
transaction as each roll (reading them costs the same at any number of rolls); the file gets
an integrity check at open only when the last run did not close it (a marker set by a clean
close, removed at open); and the write-ahead log is copied into the file every WAL_PAGES
pages and emptied at a clean close, so it stays small.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from cobi_companion.device.ports import grown

# (side or "", purpose, face 1-6[, die]): the die "" (or left out) is the box's own, "dial" a
# real die dialled on the box, else the smart die's id (its Bluetooth address).
Roll = tuple[str, str, int] | tuple[str, str, int, str]
FACES = range(1, 7)
SCHEMA_VERSION = "3"
BOX_DIE, DIAL_DIE = "", "dial"      # the rolls' `die` that is no smart die
DATABASE_NAME = "battles.db"  # the usual file name inside the state directory
log = logging.getLogger("cobi-companion")

# Every table of the current schema, each statement on its own (a trigger holds semicolons).
# The dice statistics are counts kept by a trigger, in the very transaction that inserts the
# roll: they can never disagree with the rolls, and reading them costs the same at 100 rolls
# as at 100,000 (a scan of every roll took ~0.1 s at 100,000 here, seconds on a Pi Zero).
_TABLES = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS battle (
        slot INTEGER PRIMARY KEY CHECK (slot = 1), battle_id TEXT NOT NULL,
        state TEXT NOT NULL, saved_at TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS rolls (
        n INTEGER PRIMARY KEY, battle_id TEXT NOT NULL, side TEXT NOT NULL,
        purpose TEXT NOT NULL, face INTEGER NOT NULL CHECK (face BETWEEN 1 AND 6),
        rolled_at TEXT NOT NULL, die TEXT NOT NULL DEFAULT '')""",
    "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS face_counts (
        battle_id TEXT NOT NULL, face INTEGER NOT NULL, n INTEGER NOT NULL,
        PRIMARY KEY (battle_id, face)) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS face_totals (
        face INTEGER PRIMARY KEY, n INTEGER NOT NULL)""",
    # Each smart die's faces, for its fairness: counted like the totals, by its trigger.
    """CREATE TABLE IF NOT EXISTS die_counts (
        die TEXT NOT NULL, face INTEGER NOT NULL, n INTEGER NOT NULL,
        PRIMARY KEY (die, face)) WITHOUT ROWID""",
    # The items of a saved game's lists that only grow (its log, its weather so far, ...),
    # one row each, appended as the game goes on (device/ports/grown.py): the battle row holds
    # the rest.
    # In the order written: every save appends to the table's last page, whichever lists it
    # adds to (a table ordered by list would be written in the middle, a page for each list).
    """CREATE TABLE IF NOT EXISTS grown (
        n INTEGER PRIMARY KEY, battle_id TEXT NOT NULL, path TEXT NOT NULL,
        i INTEGER NOT NULL, item TEXT NOT NULL)""",
    # The faces smart dice gave rules, by the box's draw number (device/core/draws.py), kept
    # until an action saved with a count above the number covers them. A table of its own,
    # made by this list at every open, so a file of an earlier version gets it as it loads
    # (the schema version stays: a box of that version reads this file as it did).
    """CREATE TABLE IF NOT EXISTS thrown (
        n INTEGER PRIMARY KEY, die TEXT NOT NULL,
        face INTEGER NOT NULL CHECK (face BETWEEN 1 AND 6))""",
    """CREATE TRIGGER IF NOT EXISTS count_the_roll AFTER INSERT ON rolls BEGIN
        INSERT INTO face_counts VALUES (NEW.battle_id, NEW.face, 1)
            ON CONFLICT DO UPDATE SET n = n + 1;
        INSERT INTO face_totals VALUES (NEW.face, 1) ON CONFLICT DO UPDATE SET n = n + 1;
    END""",
    """CREATE TRIGGER IF NOT EXISTS count_the_die AFTER INSERT ON rolls
        WHEN NEW.die NOT IN ('', 'dial') BEGIN
        INSERT INTO die_counts VALUES (NEW.die, NEW.face, 1)
            ON CONFLICT DO UPDATE SET n = n + 1;
    END""",
)
# Schemas 1 and 2 had no die: each of their rolls was the box's own or dialled, which they
# did not tell apart; they count as the box's (''). Added before the tables of the schema
# (its trigger reads the column).
_ADD_DIE = "ALTER TABLE rolls ADD COLUMN die TEXT NOT NULL DEFAULT ''"
# Schema 1 had no counts: they are built from its rolls once, in the transaction that marks
# the file as schema 2. Its index on (battle_id, face) only served the scan, and goes.
_FROM_VERSION_1 = (
    "DROP INDEX IF EXISTS rolls_by_battle",
    "DELETE FROM face_counts",
    "DELETE FROM face_totals",
    "INSERT INTO face_counts SELECT battle_id, face, COUNT(*) FROM rolls GROUP BY 1, 2",
    "INSERT INTO face_totals SELECT face, COUNT(*) FROM rolls GROUP BY 1",
)
# Set by a clean close, removed by the next open: when it is missing at open, the last run
# ended without closing (killed, power cut) and the file gets an integrity check first. One
# box uses a state folder at a time: a second process closing the file cleanly would mark it
# clean while the first still writes.
CLOSED_CLEANLY = "closed_cleanly"
# The write-ahead log is copied into the file once it holds this many pages (4 KiB each; the
# default is 1000), and cut back to WAL_LIMIT_BYTES after each copy: it stays a few hundred
# KiB instead of megabytes, so it takes little of a card and little time to replay after a
# pulled plug. A clean close empties it (checkpoint TRUNCATE).
WAL_PAGES = 128
# The box's dice (device/core/draws.py): the secret each face is drawn from, made once with
# the file, and the count of dice drawn, saved with every battle and roll (the face of a
# die is the same after a pulled plug, as the count goes back with the battle).
SECRET = "dice_secret"
DRAWN = "dice_drawn"
WAL_LIMIT_BYTES = 1 << 20

T = TypeVar("T")

# What is wrong with a folder, in words SQLite does not give (the journal's English).
FOLDER_WHY = {"read_only": "the folder is read-only", "disk_full": "the disk is full"}


@dataclass(frozen=True)
class StoreProblem:
    """One thing that went wrong: the saved battle could not be read and was `moved` aside to
    `path`, or the store `cannot_save` to `path`. `folder` is what is wrong with the folder
    ("read_only", "disk_full"), or "" and `detail` is the system's own words."""

    kind: str
    path: Path
    folder: str = ""
    detail: str = ""


class BadRow(ValueError):
    """A row of the database that is not what the box writes (text that is not JSON, JSON
    nested deeper than the box ever saves, the wrong type): `table` and `key` say which."""

    def __init__(self, table: str, key: str, why: str) -> None:
        super().__init__(f"{table} row {key!r}: {why}")
        self.table, self.key, self.why = table, key, why


# Deeper than any battle the box saves (a few levels): deeper JSON is refused before it is
# parsed, as json.loads would raise RecursionError some thousands of levels down.
MAX_DEPTH = 64


def _json_row(table: str, key: str, text: object) -> Any:
    """A row's JSON value, or BadRow; never anything else (a RecursionError included)."""
    if not isinstance(text, str):
        raise BadRow(table, key, f"not text but {type(text).__name__}")
    # No deeper than its opening brackets, strings' included: counted at C speed, a row of
    # fewer (all the box writes) needs no walk.
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        raise BadRow(table, key, f"nested deeper than {MAX_DEPTH}")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise BadRow(table, key, f"not JSON ({exc})") from None


def _depth(text: str) -> int:
    """How deep the brackets of JSON `text` nest, outside its strings: one pass."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


class Store(Protocol):
    """What the game needs from wherever battles are kept."""

    problem: str | None  # one line saying what went wrong, for the log and the screen
    can_save: bool  # False: the battle goes on, but a pulled plug would lose it
    def load_battle(self) -> dict[str, Any] | None: ...
    def save_battle(self, state: dict[str, Any], rolls: list[Roll],
                    drawn: int | None = None, grows: tuple[str, ...] = ()) -> None: ...
    def save_rolls(self, rolls: list[Roll], drawn: int | None = None) -> None: ...
    def clear_battle(self, drawn: int | None = None) -> None: ...
    def keep_thrown(self, number: int, die: str, face: int) -> None: ...
    def thrown(self) -> dict[int, tuple[str, int]]: ...
    def dice(self) -> tuple[bytes, int]: ...
    def face_counts(self, battle_id: str | None = None) -> dict[int, int]: ...
    def die_counts(self) -> dict[str, dict[int, int]]: ...
    def settings(self) -> dict[str, Any]: ...
    def save_settings(self, values: dict[str, Any]) -> None: ...
    def close(self) -> None: ...


NO_BATTLE = ""  # the battle id of rolls made outside a battle (quick dice at the table)


def _checked(state: dict[str, Any], rolls: list[Roll]) -> str:
    """The battle id; refuses what could not be read back."""
    battle_id = state.get("id")
    if not isinstance(battle_id, str) or not battle_id:
        raise ValueError(f"state['id'] must be a non-empty str, not {battle_id!r}")
    _checked_rolls(rolls)
    return battle_id


def _checked_rolls(rolls: list[Roll]) -> None:
    for roll in rolls:
        side, purpose, face, die = _with_die(roll)
        if not (isinstance(side, str) and isinstance(purpose, str)
                and type(face) is int and face in FACES and isinstance(die, str)):
            raise ValueError(f"a roll is (side, purpose, face 1-6[, die]), not {roll!r}")


def _with_die(roll: Roll) -> tuple[str, str, int, str]:
    """A roll with its die (the box's own where it names none)."""
    return (*roll, BOX_DIE) if len(roll) == 3 else roll


def _count_drawn(conn: sqlite3.Connection, drawn: int | None) -> None:
    """The count of dice drawn, saved; the thrown faces it covers (numbered below it) go: a
    restart counts on from it, so no rule asks for them again."""
    if drawn is not None:
        conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (DRAWN, str(drawn)))
        conn.execute("DELETE FROM thrown WHERE n < ?", (drawn,))


def _insert_rolls(conn: sqlite3.Connection, battle_id: str, rolls: list[Roll], now: str) -> None:
    conn.executemany("INSERT INTO rolls (battle_id, side, purpose, face, die, rolled_at) "
                     "VALUES (?, ?, ?, ?, ?, ?)",
                     [(battle_id, *_with_die(roll), now) for roll in rolls])


class _Unreadable(sqlite3.DatabaseError):
    """The database file is there but its content cannot be used."""

    def __init__(self, reason: str, conn: sqlite3.Connection | None = None) -> None:
        super().__init__(reason)
        self.conn = conn  # still open: see SqliteStore._open


def _in_transaction(conn: sqlite3.Connection, work: Callable[[], T]) -> T:
    """`work` in one write transaction: all of it is on the card, or none of it."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = work()
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise
    return result


def _schema_version(conn: sqlite3.Connection) -> str | None:
    """The file's schema version; None for a new file (no tables of ours yet)."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone() is None:
        return None
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return None if row is None else str(row[0])


def _current_schema(conn: sqlite3.Connection) -> None:
    """Bring the database to the current schema (inside the caller's transaction): new tables
    for a new file, the dice counts built from a schema 1 file's rolls; refuse any other."""
    version = _schema_version(conn)
    if version not in (None, "1", "2", SCHEMA_VERSION):
        raise _Unreadable(f"schema version {version}, not {SCHEMA_VERSION}")
    if version in ("1", "2"):
        conn.execute(_ADD_DIE)
    for statement in _TABLES:
        conn.execute(statement)
    if version == "1":
        for statement in _FROM_VERSION_1:
            conn.execute(statement)
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (SCHEMA_VERSION,))
    conn.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", (SECRET, secrets.token_hex(32)))


def _closed_cleanly(conn: sqlite3.Connection, path: Path) -> bool:
    """The last run closed the file (the marker is there), and the file is as long as its
    own header says: a card that lost the end of it is checked too."""
    if _schema_version(conn) is None:
        return False
    marker = conn.execute("SELECT 1 FROM meta WHERE key = ?", (CLOSED_CLEANLY,)).fetchone()
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    return marker is not None and pages * size == path.stat().st_size


def _prepare(conn: sqlite3.Connection, path: Path, known_good: bool = False) -> bool:
    """Set the connection up and the file to the current schema; True if the file had to be
    checked (`PRAGMA quick_check` reads every page: ~0.1 s for 10 MB here, seconds on a Pi
    Zero, so only after a run that did not close the file)."""
    # These are per connection (they start at the compiled-in defaults): set every time.
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute(f"PRAGMA wal_autocheckpoint={WAL_PAGES}")
    conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")

    def work() -> bool:
        check = not known_good and not _closed_cleanly(conn, path)
        if check and conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise _Unreadable("the integrity check failed")
        _current_schema(conn)
        # From here until a clean close, a stop of any other kind is unclean.
        conn.execute("DELETE FROM meta WHERE key = ?", (CLOSED_CLEANLY,))
        # A battle row that is not a battle stays as it is: the app keeps it with its reason
        # (load_battle raises BadRow), rather than the whole file going aside for it.
        return check
    return _in_transaction(conn, work)


def _connect(path: Path, known_good: bool = False) -> tuple[sqlite3.Connection, bool]:
    """An open, checked connection (unchecked if `known_good`), and whether the integrity
    check ran; _Unreadable for bad content, sqlite3.Error or OSError else."""
    if path.exists() and not path.is_file():
        raise _Unreadable("it is not a file")
    conn = sqlite3.connect(path, timeout=10, isolation_level=None)  # we issue BEGIN ourselves
    try:
        checked = _prepare(conn, path, known_good)
    except Exception as exc:
        name = getattr(exc, "sqlite_errorname", "")  # these two: the content is at fault
        if isinstance(exc, _Unreadable) or name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
            raise _Unreadable(str(exc), conn) from exc
        conn.close()
        raise
    return conn, checked


def _why(folder: Path) -> str | None:
    """What is wrong with the folder (or the nearest one there is, for a folder that cannot
    be made), which SQLite does not say: "read_only" or "disk_full" (see FOLDER_WHY)."""
    for place in (folder, *folder.parents):
        try:
            stat = os.statvfs(place)
        except OSError:
            continue
        if stat.f_flag & os.ST_RDONLY:
            return "read_only"
        if stat.f_bavail == 0:
            return "disk_full"
        return None
    return None


def _read_only(path: Path) -> sqlite3.Connection | None:
    """The file opened for reading only, when it cannot be opened for writing (a card
    remounted read-only, a full disk): first as a WAL database that may still be changing,
    then as a file nobody writes (`immutable`, which needs no -shm file beside it)."""
    if not path.is_file():
        return None
    for query in ("mode=ro", "mode=ro&immutable=1"):
        try:
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True,
                                   isolation_level=None)
        except sqlite3.Error:
            continue
        try:
            conn.execute("SELECT state FROM battle").fetchall()
            return conn
        except sqlite3.Error:
            conn.close()
    return None


def _move_aside(path: Path) -> Path:
    """Rename the file and its -wal/-shm to <name>.corrupt-<UTC time>, keeping them together."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    aside, n = path.with_name(f"{path.name}.corrupt-{stamp}"), 1
    while aside.exists():
        aside, n = path.with_name(f"{path.name}.corrupt-{stamp}-{n}"), n + 1
    # The -wal goes first: a crash half way leaves the bad file to be found again next start.
    for suffix in ("-wal", "-shm"):
        if Path(f"{path}{suffix}").exists():
            os.replace(f"{path}{suffix}", f"{aside}{suffix}")
    os.replace(path, aside)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)  # make the renames themselves survive a pulled plug
    finally:
        os.close(fd)
    return aside


# What a copy in memory takes from a file: all that the store reads back. The rolls are
# history only (the counts carry them), and each table is read on its own, so a damaged page
# loses only its own table. A schema 1 file has no counts yet: they come from its rolls.
_CARRIED = {"battle": "SELECT * FROM battle", "settings": "SELECT * FROM settings",
            "meta": f"SELECT * FROM meta WHERE key IN ('{SECRET}', '{DRAWN}')",
            "face_counts": "SELECT * FROM face_counts", "face_totals": "SELECT * FROM face_totals",
            "die_counts": "SELECT * FROM die_counts", "grown": "SELECT * FROM grown",
            "thrown": "SELECT * FROM thrown"}
_CARRIED_FROM_1 = _CARRIED | {
    "face_counts": "SELECT battle_id, face, COUNT(*) FROM rolls GROUP BY 1, 2",
    "face_totals": "SELECT face, COUNT(*) FROM rolls GROUP BY 1"}


def _memory_db(source: sqlite3.Connection | None = None) -> sqlite3.Connection:
    """A database in memory, holding what can still be read of `source`."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    _in_transaction(conn, lambda: _current_schema(conn))
    if source is None:
        return conn
    try:
        carried = _CARRIED_FROM_1 if _schema_version(source) == "1" else _CARRIED
    except sqlite3.Error:
        return conn
    for table, query in carried.items():
        with contextlib.suppress(sqlite3.Error):
            rows = source.execute(query).fetchall()
            if rows:
                _copy_rows(conn, table, rows)
    return conn


def _copy_rows(conn: sqlite3.Connection, table: str, rows: list[Any]) -> None:
    marks = ", ".join("?" * len(rows[0]))
    _in_transaction(conn, lambda: conn.executemany(
        f"INSERT OR REPLACE INTO {table} VALUES ({marks})", rows))


# A store playing on in memory tries its file again after this many writes at most.
RETRY_EVERY = 16


def _copy_memory(memory: sqlite3.Connection, conn: sqlite3.Connection) -> None:
    """What a store in `memory` holds, into the file's `conn` (inside its transaction): the
    battle slot and the settings as they are, the rolls made in memory after those the file
    has, and the counts and the dice as memory has them (they carry the file's, and count the
    rolls made meanwhile)."""
    def rows(query: str) -> list[Any]:
        return memory.execute(query).fetchall()
    for table in ("battle", "grown", "settings", "thrown"):
        conn.execute(f"DELETE FROM {table}")
        if found := rows(f"SELECT * FROM {table}"):
            conn.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(found[0]))})",
                             found)
    conn.executemany("INSERT INTO rolls (battle_id, side, purpose, face, rolled_at, die) "
                     "VALUES (?, ?, ?, ?, ?, ?)", rows(
                         "SELECT battle_id, side, purpose, face, rolled_at, die FROM rolls "
                         "ORDER BY n"))
    for table in ("face_counts", "face_totals", "die_counts"):   # after the triggers: memory's
        conn.execute(f"DELETE FROM {table}")
        if found := rows(f"SELECT * FROM {table}"):
            conn.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(found[0]))})",
                             found)
    conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", rows(_CARRIED["meta"]))


def read_battle(conn: sqlite3.Connection) -> tuple[dict[str, Any], grown.Lists] | None:
    """The battle saved in `conn`'s database, its growing lists back in it, and those lists
    as written (None for no battle); BadRow for a row the box never wrote."""
    row = conn.execute("SELECT battle_id, state FROM battle").fetchone()
    if row is None:
        return None
    battle_id = str(row[0])
    data = _json_row("battle", battle_id, row[1])
    if not isinstance(data, dict):
        raise BadRow("battle", battle_id, f"not an object but {type(data).__name__}")
    try:
        data, written = grown.joined(conn, battle_id, data,
                                     lambda key, text: _json_row("grown", key, text))
    except BadRow:
        raise
    except (ValueError, TypeError, KeyError) as exc:
        raise BadRow("battle", battle_id, f"its lists cannot be read: {exc}") from None
    return data, grown.Lists(battle_id, written)


class _SqlStore:
    """The Store's queries, on whichever database holds the battle: one file or memory."""

    def __init__(self, conn: sqlite3.Connection | None) -> None:
        self._conn = conn
        self.problem: str | None = None
        self.problems: list[StoreProblem] = []
        self.can_save = True
        self.bad_rows: list[BadRow] = []  # rows not used, each with its reason
        # The game's growing lists as last written, to append what a save adds to them.
        self._lists = grown.Lists()

    def _failed(self, exc: sqlite3.Error | OSError) -> None:
        raise exc  # in memory there is nowhere else to go

    def _run(self, work: Callable[[sqlite3.Connection], T], write: bool = False) -> T:
        """Run `work` (in one transaction if it writes); after a failure, where _failed says."""
        conn = self._conn
        if conn is None:
            raise ValueError("the store is closed")
        try:
            if not write:
                return work(conn)
            conn.execute("BEGIN IMMEDIATE")
            result = work(conn)
            conn.execute("COMMIT")
        except (sqlite3.Error, OSError) as exc:
            if conn.in_transaction:  # a half-done save must not be copied anywhere
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.ProgrammingError | sqlite3.InterfaceError):
                raise  # a bug (a closed store, another thread), not the disk
            self._failed(exc)
            return self._run(work, write)
        self._written()
        return result

    def _written(self) -> None:
        """After each write: a store playing on in memory tries its file again."""

    def load_battle(self) -> dict[str, Any] | None:
        """The saved battle, its growing lists back in it; BadRow for a row that is not one
        (it stays in the database)."""
        found = self._run(read_battle)
        if found is None:
            return None
        data, self._lists = found
        return data

    def save_battle(self, state: dict[str, Any], rolls: list[Roll],
                    drawn: int | None = None, grows: tuple[str, ...] = ()) -> None:
        """The battle as it is now and the rolls it made since the last save; `drawn`: the
        box's count of dice drawn (device/core/draws.py), in the same transaction. The lists
        at `grows` (see device/ports/grown.py) only grow: what was added to them is appended."""
        battle_id = _checked(state, rolls)
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

        def work(conn: sqlite3.Connection) -> grown.Plan:
            # planned here: after a failed write the store starts again from what it holds
            plan = self._lists.plan(battle_id, state, grows)
            conn.execute("INSERT OR REPLACE INTO battle VALUES (1, ?, ?, ?)",
                         (battle_id, json.dumps(plan.state, ensure_ascii=False), now))
            grown.write(conn, plan)
            _insert_rolls(conn, battle_id, rolls, now)
            _count_drawn(conn, drawn)
            return plan
        self._lists.keep(self._run(work, write=True))

    def save_rolls(self, rolls: list[Roll], drawn: int | None = None) -> None:
        """Rolls made outside a battle: they count in the overall dice statistics."""
        _checked_rolls(rolls)
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

        def work(conn: sqlite3.Connection) -> None:
            _insert_rolls(conn, NO_BATTLE, rolls, now)
            _count_drawn(conn, drawn)
        self._run(work, write=True)

    def clear_battle(self, drawn: int | None = None) -> None:
        # The rolls stay: they are the box's dice statistics.
        def work(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM battle").close()
            conn.execute("DELETE FROM grown").close()
            _count_drawn(conn, drawn)
        self._run(work, write=True)
        self._lists = grown.Lists()

    def keep_thrown(self, number: int, die: str, face: int) -> None:
        """A smart die's face a rule took as the box's draw `number`: kept until the count
        saved with an action passes it."""
        if not (type(number) is int and number >= 0 and isinstance(die, str)
                and type(face) is int and face in FACES):
            raise ValueError(f"a thrown face is (number, die, face 1-6), not "
                             f"{(number, die, face)!r}")
        self._run(lambda conn: conn.execute("INSERT OR REPLACE INTO thrown VALUES (?, ?, ?)",
                                            (number, die, face)), write=True)

    def thrown(self) -> dict[int, tuple[str, int]]:
        """The smart dice's faces kept by draw number (a die and its face); a row the box
        never wrote is left out and listed in `bad_rows`."""
        kept: dict[int, tuple[str, int]] = {}
        for number, die, face in self._run(lambda conn: conn.execute(
                "SELECT n, die, face FROM thrown ORDER BY n").fetchall()):
            if isinstance(die, str) and type(face) is int and face in FACES:
                kept[int(number)] = (die, face)
            else:
                self.bad_row(BadRow("thrown", str(number), "not a die and its face"))
        return kept

    def dice(self) -> tuple[bytes, int]:
        """The box's dice secret and its count of dice drawn, as last saved."""
        rows = dict(self._run(lambda conn: conn.execute(
            "SELECT key, value FROM meta WHERE key IN (?, ?)", (SECRET, DRAWN)).fetchall()))
        try:
            secret = bytes.fromhex(str(rows[SECRET]))
        except (KeyError, ValueError):
            self.bad_row(BadRow("meta", SECRET, "not a secret in hex: a new one is made"))
            secret = secrets.token_bytes(32)
            self._run(lambda conn: conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                                (SECRET, secret.hex())), write=True)
        drawn = str(rows.get(DRAWN, 0))
        # isdigit alone takes "²" and "٣", which int() refuses
        if not (drawn.isascii() and drawn.isdigit()) or len(drawn) > 18:
            self.bad_row(BadRow("meta", DRAWN, "not a count: counted from 0"))
            drawn = "0"
        return secret, int(drawn)

    def face_counts(self, battle_id: str | None = None) -> dict[int, int]:
        """How often each face came up: in one battle, or overall (None), from the counts the
        store keeps as it saves each roll."""
        query, args = ("SELECT face, n FROM face_totals", ()) if battle_id is None else \
            ("SELECT face, n FROM face_counts WHERE battle_id = ?", (battle_id,))
        rows = self._run(lambda conn: conn.execute(query, args).fetchall())
        return {face: 0 for face in FACES} | dict(rows)

    def die_counts(self) -> dict[str, dict[int, int]]:
        """How often each face came up on each smart die (by id), from the counts the store
        keeps as it saves each roll."""
        rows = self._run(lambda conn: conn.execute(
            "SELECT die, face, n FROM die_counts ORDER BY die, face").fetchall())
        counts: dict[str, dict[int, int]] = {}
        for die, face, n in rows:
            counts.setdefault(str(die), {f: 0 for f in FACES})[int(face)] = int(n)
        return counts

    def settings(self) -> dict[str, Any]:
        """The settings saved; a row that is not JSON is left out and listed in `bad_rows`
        (once each), so that its setting comes from the files."""
        rows = self._run(lambda conn: conn.execute("SELECT key, value FROM settings").fetchall())
        values: dict[str, Any] = {}
        for key, value in rows:
            try:
                values[str(key)] = _json_row("settings", str(key), value)
            except BadRow as bad:
                self.bad_row(bad)
        return values

    def bad_row(self, bad: BadRow) -> None:
        """A row not used: listed once (the journal and the files in use say it)."""
        if all(str(seen) != str(bad) for seen in self.bad_rows):
            self.bad_rows.append(bad)
            log.error("database: %s; not used", bad)

    def save_settings(self, values: dict[str, Any]) -> None:
        """Replace all settings with `values` (str keys, values anything JSON can hold)."""
        rows = [(str(k), json.dumps(v, ensure_ascii=False)) for k, v in values.items()]

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM settings")
            conn.executemany("INSERT INTO settings (key, value) VALUES (?, ?)", rows)
        self._run(work, write=True)

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
        self._conn = None


class MemoryStore(_SqlStore):
    """The Store in memory (the same queries on an in-memory SQLite): the test double."""

    def __init__(self) -> None:
        super().__init__(_memory_db())


class SqliteStore(_SqlStore):
    """The Store in one SQLite file; see the module docstring for what it does on failure."""

    def __init__(self, path: Path) -> None:
        super().__init__(None)
        self.path = path
        self._waited, self._retry_every = 0, 1    # writes in memory since the file's last try
        self.checked = False  # the file got an integrity check at open (the last run was not
        # closed cleanly, or the file is new); it was opened, so found good, by this run; a
        # failed save was a fault of the file's content (not of the disk)
        self._opened = self._content_fault = False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = self._open()
            self._opened = True
        except (sqlite3.Error, OSError) as exc:
            self._conn = _read_only(path)  # what the file holds is still offered
            self._failed(exc)

    def _open(self, known_good: bool = False) -> sqlite3.Connection:
        try:
            conn, self.checked = _connect(self.path, known_good)
            return conn
        except _Unreadable as exc:
            # Move the files while the failed connection is open: closing it first would let
            # SQLite delete the -wal and -shm, which belong with the file that was not readable.
            try:
                aside = _move_aside(self.path)
            finally:
                if exc.conn is not None:
                    exc.conn.close()
            self.problem = f"the saved battle could not be read and was moved to {aside}: {exc}"
            self.problems.append(StoreProblem("moved", aside, detail=str(exc)))
            conn, self.checked = _connect(self.path)
            return conn

    def close(self) -> None:
        """Mark the file closed cleanly, so that the next open needs no integrity check, and
        empty the write-ahead log into it. Nothing here may stop the box: a disk that cannot
        take the marker only costs the next open its check."""
        if self._conn is not None and self.can_save:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                   (CLOSED_CLEANLY, datetime.now(UTC).isoformat()))
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        super().close()

    def _written(self) -> None:
        """Playing on in memory: try the file again, after 1, 2, 4, ... up to RETRY_EVERY
        writes (each try opens the file: checking it only after a fault of its content, which
        a Pi Zero feels). When the
        file takes it, all that memory holds is written to it in one transaction: the
        battle as it is now, the rolls made meanwhile, the settings and the dice's count."""
        if self.can_save or self._conn is None:
            return
        self._waited += 1
        if self._waited < self._retry_every:
            return
        self._waited, self._retry_every = 0, min(2 * self._retry_every, RETRY_EVERY)
        memory = self._conn
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # A file found damaged goes aside, as at a start. Only a fault of the content
            # asks for its check again: after a full disk the file is as this run opened it
            # (checked, or closed cleanly), and the check would cost a Pi Zero seconds at
            # every retry.
            conn = self._open(known_good=self._opened and not self._content_fault)
            self._opened = True
        except (sqlite3.Error, OSError):
            return
        try:
            _in_transaction(conn, lambda: _copy_memory(memory, conn))
        except (sqlite3.Error, OSError):
            with contextlib.suppress(sqlite3.Error):
                conn.close()
            return
        self._conn, self.can_save, self._retry_every = conn, True, 1
        # Nothing is wrong now: what went wrong before is not kept growing over a long day
        # of a card that fails now and then (a file moved aside stays listed).
        self.problem = None
        self.problems = [*[p for p in self.problems if p.kind == "moved"][-3:],
                         StoreProblem("saving_again", self.path)]
        with contextlib.suppress(sqlite3.Error):
            memory.close()

    def _failed(self, exc: sqlite3.Error | OSError) -> None:
        """Play on in memory with what the file still holds, and say why nothing is saved."""
        if not self.can_save:
            raise exc
        old, self._conn = self._conn, _memory_db(self._conn)
        self._lists = grown.Lists()   # memory may not hold all the file did: all again
        if old is not None:
            with contextlib.suppress(sqlite3.Error):
                old.close()
        folder = _why(self.path.parent) or ""
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        reason = FOLDER_WHY.get(folder, detail)
        line = f"cannot save: {reason} ({self.path}); the battle goes on without saving"
        self.problem = f"{self.problem}; {line}" if self.problem else line
        self.problems.append(StoreProblem("cannot_save", self.path, folder, detail))
        name = getattr(exc, "sqlite_errorname", "")
        self._content_fault = name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))
        self.can_save = False
        self._waited = -1        # the write that failed, done in memory, is no later write
