"""Saved battles on real SQLite files: they survive reopening and a killed process; a file that
cannot be read is moved aside, and a folder that cannot be written leaves the game playing."""
from __future__ import annotations

import contextlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from cobi_companion.device.ports.store import (
    WAL_LIMIT_BYTES,
    WAL_PAGES,
    MemoryStore,
    SqliteStore,
    Store,
    _memory_db,
)

ZERO = dict.fromkeys(range(1, 7), 0)


def battle(battle_id: str = "b1", turn: int = 1) -> dict[str, object]:
    return {"id": battle_id, "turn": turn, "units": [{"set": 2477, "status": ["unloaded"]}]}


@pytest.fixture(params=["sqlite", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    made: Store = (SqliteStore(tmp_path / "battles.db") if request.param == "sqlite"
                   else MemoryStore())
    yield made
    made.close()


# --- the same behaviour from both stores ---

def test_a_new_store_is_empty_and_fine(store: Store) -> None:
    assert store.load_battle() is None
    assert store.face_counts(None) == ZERO and store.settings() == {}
    assert store.problem is None and store.can_save


def test_save_load_clear(store: Store) -> None:
    store.save_battle(battle(turn=1), [("axis", "to hit", 4)])
    store.save_battle(battle(turn=2), [("allies", "reload", 6), ("", "initiative", 1)])
    assert store.load_battle() == battle(turn=2)
    store.clear_battle()
    assert store.load_battle() is None
    assert store.face_counts("b1") == {**ZERO, 1: 1, 4: 1, 6: 1}  # the dice statistics stay


def test_face_counts_per_battle_and_overall(store: Store) -> None:
    store.save_battle(battle("b1"), [("axis", "to hit", 6), ("axis", "reload", 6)])
    store.save_battle(battle("b2"), [("allies", "to hit", 2), ("axis", "damage", 6)])
    assert store.face_counts("b1") == {**ZERO, 6: 2}
    assert store.face_counts("b2") == {**ZERO, 2: 1, 6: 1}
    assert store.face_counts(None) == {**ZERO, 2: 1, 6: 3}
    assert store.face_counts("never played") == ZERO


def test_settings_are_replaced_as_a_whole(store: Store) -> None:
    store.save_settings({"language": "pl", "brightness": 128, "sound": False})
    store.save_settings({"language": "en", "sound": True})
    assert store.settings() == {"language": "en", "sound": True}


@pytest.mark.parametrize("state, rolls", [
    ({"turn": 1}, []),                                  # no battle id
    ({"id": 7}, []),                                    # an id that is not text
    (battle(), [("axis", "to hit", 7)]),                # not a face of a D6
    (battle(), [("axis", "to hit", True)]),
    (battle(), [("axis", 4)]),                          # not (side, purpose, face)
])
def test_a_wrong_save_is_refused_and_nothing_is_written(store: Store, state: dict[str, object],
                                                         rolls: list[tuple[str, str, int]]) -> None:
    with pytest.raises(ValueError):
        store.save_battle(state, rolls)
    assert store.load_battle() is None and store.face_counts(None) == ZERO


# --- the file on disk ---

def test_everything_is_there_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "state" / "deeper" / "battles.db"  # the folders are made as needed
    first = SqliteStore(path)
    first.save_battle(battle(turn=3), [("axis", "to hit", 5), ("allies", "reload", 2)])
    first.save_settings({"language": "pl"})
    first.close()
    again = SqliteStore(path)
    assert again.load_battle() == battle(turn=3)
    assert again.face_counts("b1") == {**ZERO, 2: 1, 5: 1}
    assert again.settings() == {"language": "pl"}
    assert again.problem is None and again.can_save
    again.close()


def test_wal_and_full_sync_are_set(tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    store = SqliteStore(path)
    conn = store._conn  # synchronous is per connection: ask the store's own
    assert conn is not None
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert conn.execute("PRAGMA synchronous").fetchone() == (2,)  # 2 = FULL
    with contextlib.closing(sqlite3.connect(path)) as other:
        assert other.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # kept in the file
        assert other.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() \
            == ("3",)
    store.close()


SAVER = """
import os, signal, sys
from pathlib import Path
from cobi_companion.device.ports.store import SqliteStore
store = SqliteStore(Path(sys.argv[1]))
for turn in range(1, int(sys.argv[2]) + 1):
    store.save_battle({"id": "b1", "turn": turn}, [("axis", "to hit", turn % 6 + 1)])
    print("saved", turn, flush=True)
if sys.argv[3] == "kill-self":
    os.kill(os.getpid(), signal.SIGKILL)  # no close, no checkpoint, no atexit
"""


def counts_up_to(turn: int) -> dict[int, int]:
    counts = dict(ZERO)
    for n in range(1, turn + 1):
        counts[n % 6 + 1] += 1
    return counts


def test_a_killed_process_loses_nothing_it_reported_saved(tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    run = subprocess.run([sys.executable, "-c", SAVER, str(path), "3", "kill-self"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == -signal.SIGKILL, run.stderr
    assert run.stdout.splitlines()[-1] == "saved 3"
    assert Path(f"{path}-wal").exists()  # the saves are still only in the write-ahead log
    store = SqliteStore(path)
    assert store.load_battle() == {"id": "b1", "turn": 3}
    assert store.face_counts("b1") == counts_up_to(3)
    assert store.problem is None
    store.close()


def test_killed_in_the_middle_of_saving(tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    with subprocess.Popen([sys.executable, "-c", SAVER, str(path), "100000", "run"],
                          stdout=subprocess.PIPE, text=True) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.strip() == "saved 50":
                os.kill(proc.pid, signal.SIGKILL)  # while it is busy with later saves
                break
        proc.wait(timeout=60)
    store = SqliteStore(path)
    state = store.load_battle()
    assert state is not None and state["turn"] >= 50
    # Snapshot and rolls are one transaction: whichever save was last, they agree.
    assert store.face_counts("b1") == counts_up_to(state["turn"])
    store.close()


def a_real_database(path: Path, turns: int = 200) -> None:
    store = SqliteStore(path)
    for turn in range(1, turns + 1):
        store.save_battle(battle(turn=turn), [("axis", "to hit" * 50, turn % 6 + 1)])
    store.close()


@pytest.mark.parametrize("damage", ["random bytes", "truncated", "a folder"])
def test_a_file_that_cannot_be_read_is_moved_aside(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "battles.db"
    if damage == "random bytes":
        path.write_bytes(os.urandom(8192))
    elif damage == "truncated":
        a_real_database(path)
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    else:
        path.mkdir()
    store = SqliteStore(path)
    asides = list(tmp_path.glob("battles.db.corrupt-*Z"))
    assert len(asides) == 1
    assert store.problem is not None and "\n" not in store.problem
    assert store.problem.startswith(
        f"the saved battle could not be read and was moved to {asides[0]}: ")
    assert store.load_battle() is None and store.can_save
    store.save_battle(battle(), [("axis", "to hit", 3)])  # and the new file works
    store.close()
    assert SqliteStore(path).load_battle() == battle()


def test_the_write_ahead_log_moves_aside_with_its_file(tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    path.write_bytes(os.urandom(4096))
    Path(f"{path}-wal").write_bytes(b"old log")
    Path(f"{path}-shm").write_bytes(b"old index")
    store = SqliteStore(path)
    (aside,) = tmp_path.glob("battles.db.corrupt-*[0-9Z]")
    assert Path(f"{aside}-wal").read_bytes() == b"old log"
    assert Path(f"{aside}-shm").exists()  # only an index: SQLite may rewrite it
    store.close()
    assert not Path(f"{path}-wal").exists()  # no stale log left to replay into the new file


def test_a_folder_that_cannot_be_written_leaves_the_game_playing(tmp_path: Path) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("not a folder")  # (tests run as root: chmod would not stop writes)
    store = SqliteStore(blocker / "state" / "battles.db")
    assert not store.can_save
    assert store.problem == (f"cannot save: Not a directory ({blocker / 'state' / 'battles.db'});"
                             " the battle goes on without saving")
    store.save_battle(battle(turn=1), [("axis", "to hit", 6)])
    store.save_battle(battle(turn=2), [("allies", "to hit", 6)])
    store.save_settings({"sound": False})
    assert store.load_battle() == battle(turn=2)
    assert store.face_counts(None) == {**ZERO, 6: 2} and store.settings() == {"sound": False}
    store.close()


def test_a_full_disk_mid_game_plays_on_in_memory(tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    store = SqliteStore(path)
    store.save_battle(battle(turn=1), [("axis", "to hit", 1)])
    store.save_settings({"language": "pl"})
    conn = store._conn
    assert conn is not None
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")  # the card is full from here on
    big = {**battle(turn=2), "log": ["a long line of the battle log"] * 2000}
    store.save_battle(big, [("allies", "damage", 2)])  # does not raise
    assert not store.can_save
    assert store.problem == (f"cannot save: database or disk is full ({path}); "
                             "the battle goes on without saving")
    assert store.load_battle() == big  # everything so far, and on in memory
    assert store.face_counts("b1") == {**ZERO, 1: 1, 2: 1}
    assert store.settings() == {"language": "pl"}
    store.close()
    again = SqliteStore(path)  # the file keeps the last save that fitted, whole
    assert again.load_battle() == battle(turn=1)
    assert again.face_counts("b1") == {**ZERO, 1: 1}
    again.close()


def test_rolls_outside_a_battle_count_only_overall(store: Store) -> None:
    store.save_battle({"id": "b1"}, [("axis", "to hit", 4)])
    store.save_rolls([("allies", "quick D6", 6), ("allies", "quick D6", 4)])
    assert store.face_counts()[4] == 2 and store.face_counts()[6] == 1
    assert store.face_counts("b1") == {1: 0, 2: 0, 3: 0, 4: 1, 5: 0, 6: 0}
    with pytest.raises(ValueError, match="a roll is"):
        store.save_rolls([("allies", "quick D6", 7)])
    assert sum(store.face_counts().values()) == 3


# --- the dice statistics: counts kept with each roll ---

def scanned(path: Path) -> dict[str | None, dict[int, int]]:
    """Every battle's face counts and the overall ones, counted from the rolls themselves."""
    counts: dict[str | None, dict[int, int]] = {None: dict(ZERO)}
    with contextlib.closing(sqlite3.connect(path)) as conn:
        for battle_id, face, n in conn.execute(
                "SELECT battle_id, face, COUNT(*) FROM rolls GROUP BY 1, 2"):
            counts.setdefault(battle_id, dict(ZERO))[face] = n
            counts[None][face] += n
    return counts


def kept(store: Store, battle_ids: Iterable[str | None]) -> dict[str | None, dict[int, int]]:
    return {battle_id: store.face_counts(battle_id) for battle_id in battle_ids}


def random_play(store: Store, rng: random.Random, saves: int) -> None:
    """Saves of a few battles and quick dice between them, each with 0-12 random faces."""
    for _ in range(saves):
        rolls = [(rng.choice(["axis", "allies", ""]), "to hit", rng.randint(1, 6))
                 for _ in range(rng.randint(0, 12))]
        if rng.random() < 0.2:
            store.save_rolls(rolls)
        else:
            store.save_battle(battle(rng.choice(["b1", "b2", "b3"])), rolls)


def test_the_counts_are_a_full_scan_of_the_rolls_after_random_play_and_a_reopen(
        tmp_path: Path) -> None:
    path, rng = tmp_path / "battles.db", random.Random(17)
    store = SqliteStore(path)
    random_play(store, rng, 300)
    expected = scanned(path)
    assert sum(expected[None].values()) > 1000                # the play rolled plenty
    assert set(expected) == {None, "", "b1", "b2", "b3"}
    assert kept(store, expected) == expected
    store.close()
    again = SqliteStore(path)
    assert kept(again, expected) == expected
    random_play(again, rng, 100)
    assert kept(again, scanned(path)) == scanned(path)
    again.close()


ROLLER = """
import random, sys
from pathlib import Path
from cobi_companion.device.ports.store import SqliteStore
store, rng = SqliteStore(Path(sys.argv[1])), random.Random(int(sys.argv[2]))
for save in range(1, 100001):
    rolls = [("axis", "damage", rng.randint(1, 6)) for _ in range(rng.randint(1, 30))]
    if save % 5 == 0:
        store.save_rolls(rolls)
    else:
        store.save_battle({"id": f"b{save % 3}", "turn": save}, rolls)
    print("saved", save, flush=True)
"""


def run_until_killed(script: str, *args: str, after: str = "saved 50") -> None:
    """Run `script` in a real process and SIGKILL it once it has printed `after`, while it is
    busy with what follows."""
    with subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE,
                          text=True) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.strip() == after:
                os.kill(proc.pid, signal.SIGKILL)
                break
        assert proc.wait(timeout=60) == -signal.SIGKILL


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_counts_are_a_full_scan_after_a_process_is_killed_mid_write(
        tmp_path: Path, seed: int) -> None:
    path = tmp_path / "battles.db"
    run_until_killed(ROLLER, str(path), str(seed))
    store = SqliteStore(path)
    expected = scanned(path)
    assert sum(expected[None].values()) >= 50                 # at least the saves it reported
    assert kept(store, [*expected, "b9"]) == {**expected, "b9": ZERO}
    store.close()


SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta (key, value) VALUES ('schema_version', '1');
CREATE TABLE battle (
    slot INTEGER PRIMARY KEY CHECK (slot = 1), battle_id TEXT NOT NULL,
    state TEXT NOT NULL, saved_at TEXT NOT NULL);
CREATE TABLE rolls (
    n INTEGER PRIMARY KEY, battle_id TEXT NOT NULL, side TEXT NOT NULL, purpose TEXT NOT NULL,
    face INTEGER NOT NULL CHECK (face BETWEEN 1 AND 6), rolled_at TEXT NOT NULL);
CREATE INDEX rolls_by_battle ON rolls (battle_id, face);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def a_schema_1_file(path: Path, rolls: list[tuple[str, int]]) -> None:
    """A file as the box wrote it before it kept counts: its rolls only."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.executescript(SCHEMA_1)
        with conn:
            conn.executemany("INSERT INTO rolls (battle_id, side, purpose, face, rolled_at) "
                             "VALUES (?, 'axis', 'to hit', ?, '2024-01-01T00:00:00Z')", rolls)
            conn.execute("INSERT INTO battle VALUES (1, 'b2', '{\"id\": \"b2\"}', 'then')")
            conn.execute("INSERT INTO settings VALUES ('language', '\"pl\"')")


def test_a_file_from_before_the_counts_gets_them_from_its_rolls_once(tmp_path: Path) -> None:
    path, rng = tmp_path / "battles.db", random.Random(5)
    a_schema_1_file(path, [(rng.choice(["b1", "b2", ""]), rng.randint(1, 6))
                           for _ in range(2000)])
    expected = scanned(path)
    store = SqliteStore(path)
    assert store.problem is None and store.checked
    assert kept(store, expected) == expected
    assert store.load_battle() == {"id": "b2"} and store.settings() == {"language": "pl"}
    store.save_battle(battle("b2"), [("axis", "to hit", 6)])   # counted from now on
    assert kept(store, expected) == scanned(path)
    store.close()
    with contextlib.closing(sqlite3.connect(path)) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() \
            == ("3",)
        assert conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' "
                            "AND name = 'rolls_by_battle'").fetchone() is None
        conn.execute("UPDATE face_totals SET n = n + 1000 WHERE face = 1")  # built only once:
        conn.commit()
    again = SqliteStore(path)
    assert again.face_counts()[1] == scanned(path)[None][1] + 1000
    again.close()


def test_a_file_of_a_newer_schema_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute("INSERT INTO meta VALUES ('schema_version', '4')")
    store = SqliteStore(path)
    assert store.problem is not None and store.problem.endswith("schema version 4, not 3")
    assert store.face_counts() == ZERO and store.can_save
    store.close()


def test_a_copy_in_memory_of_a_schema_1_file_has_its_counts(tmp_path: Path) -> None:
    """What the store plays on with when a schema 1 file can only be read (a card mounted
    read-only: tests run as root, whom a read-only mode does not stop)."""
    path = tmp_path / "battles.db"
    a_schema_1_file(path, [("b1", 3), ("b1", 3), ("", 5)])
    with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as source:
        store = MemoryStore()
        store._conn = _memory_db(source)
    assert store.face_counts("b1") == {**ZERO, 3: 2}
    assert store.face_counts() == {**ZERO, 3: 2, 5: 1}
    assert store.load_battle() == {"id": "b2"} and store.settings() == {"language": "pl"}
    store.save_rolls([("axis", "quick D6", 5)])
    assert store.face_counts() == {**ZERO, 3: 2, 5: 2}
    store.close()


# --- the integrity check: only after a run that did not close the file ---

OPENER = """
import os, signal, sys
from pathlib import Path
from cobi_companion.device.ports.store import SqliteStore
store = SqliteStore(Path(sys.argv[1]))
for turn in range(1, 201):
    store.save_battle({"id": "b1", "turn": turn}, [("axis", "to hit" * 50, turn % 6 + 1)])
store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # its saves are all in the file
print("saved", flush=True)
if sys.argv[2] == "close":
    store.close()
    print("closed", flush=True)
    signal.pause()                      # still running: killed after a clean close
signal.pause()
"""


def damage_the_last_rolls_page(path: Path) -> None:
    """Make the page new rolls go to unreadable (a b-tree page type no page has), as a card
    that lost a write would; opening the file reads no rolls, so only a check finds it."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        (page,) = conn.execute("SELECT pageno FROM dbstat WHERE name = 'rolls' "
                               "AND pagetype = 'leaf' ORDER BY path DESC LIMIT 1").fetchone()
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    with open(path, "r+b") as file:
        file.seek((page - 1) * size)
        file.write(b"\x07")


def test_after_a_killed_run_the_next_open_checks_the_file_and_finds_damage(
        tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    run_until_killed(OPENER, str(path), "kill", after="saved")
    damage_the_last_rolls_page(path)
    store = SqliteStore(path)
    assert store.checked
    (aside,) = tmp_path.glob("battles.db.corrupt-*Z")
    assert store.problem is not None and store.problem.startswith(
        f"the saved battle could not be read and was moved to {aside}: ")
    assert store.load_battle() is None and store.can_save
    store.close()


def test_after_a_clean_close_the_next_open_does_not_check(tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    run_until_killed(OPENER, str(path), "close", after="closed")
    store = SqliteStore(path)
    assert not store.checked and store.problem is None
    assert store.load_battle() == {"id": "b1", "turn": 200}
    store.close()
    again = SqliteStore(path)                 # and again after the store's own close
    assert not again.checked
    again.close()


def test_the_open_after_a_clean_close_leaves_damage_to_the_save_that_meets_it(
        tmp_path: Path) -> None:
    """The trade-off of checking only after an unclean stop: damage that a clean close left
    is met by the first save that reads the page, and the battle plays on in memory."""
    path = tmp_path / "battles.db"
    a_real_database(path)
    damage_the_last_rolls_page(path)
    store = SqliteStore(path)
    assert not store.checked and store.problem is None
    store.save_battle(battle(turn=201), [("axis", "to hit", 2)])
    assert not store.can_save and store.problem is not None
    assert store.load_battle() == battle(turn=201)
    store.close()


def test_a_new_file_and_a_file_cut_short_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    new = SqliteStore(path)
    assert new.checked
    new.close()
    a_real_database(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 4096])   # the last page lost, the marker still there
    cut = SqliteStore(path)
    assert cut.checked and cut.problem is not None
    cut.close()


# --- the write-ahead log stays small ---

def wal_bytes(path: Path) -> int:
    wal = Path(f"{path}-wal")
    return wal.stat().st_size if wal.exists() else 0


def test_the_write_ahead_log_stays_small_and_is_emptied_by_a_clean_close(
        tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    store = SqliteStore(path)
    sizes = []
    for turn in range(400):       # ~40 pages a save: 16,000 pages written in all
        state = {**battle(turn=turn), "log": [f"turn {turn}: a line of the log"] * 4000}
        store.save_battle(state, [("axis", "to hit", turn % 6 + 1)])
        sizes.append(wal_bytes(path))
    assert max(sizes) <= WAL_LIMIT_BYTES + 64 * (4096 + 24)   # the limit, and one save's pages
    assert max(sizes) > WAL_PAGES * 4096                      # it did fill up between copies
    store.close()
    assert wal_bytes(path) == 0


# A file as schema 2 wrote it: the counts, no die in its rolls (the tables as they were).
SCHEMA_2_EXTRA = """
UPDATE meta SET value = '2' WHERE key = 'schema_version';
CREATE TABLE face_counts (
    battle_id TEXT NOT NULL, face INTEGER NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (battle_id, face)) WITHOUT ROWID;
CREATE TABLE face_totals (face INTEGER PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE grown (
    n INTEGER PRIMARY KEY, battle_id TEXT NOT NULL, path TEXT NOT NULL,
    i INTEGER NOT NULL, item TEXT NOT NULL);
DROP INDEX rolls_by_battle;
INSERT INTO face_counts SELECT battle_id, face, COUNT(*) FROM rolls GROUP BY 1, 2;
INSERT INTO face_totals SELECT face, COUNT(*) FROM rolls GROUP BY 1;
"""


def test_a_schema_2_file_gets_the_die_of_each_roll_losing_nothing(tmp_path: Path) -> None:
    """Its rolls stay, as the box's own dice; each roll saved from now on names its die, and
    each smart die's faces are counted for its fairness."""
    path = tmp_path / "battles.db"
    a_schema_1_file(path, [("b2", 3), ("b2", 3), ("", 5)])
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.executescript(SCHEMA_2_EXTRA)
    store = SqliteStore(path)
    assert store.problem is None
    assert store.face_counts() == {**ZERO, 3: 2, 5: 1} and store.die_counts() == {}
    assert store.load_battle() == {"id": "b2"} and store.settings() == {"language": "pl"}
    store.save_battle(battle("b2"), [("axis", "to hit", 6, "AA:01"), ("axis", "reload", 2, ""),
                                     ("allies", "armour", 4, "dial"),
                                     ("axis", "damage", 6, "AA:01")])
    store.save_rolls([("allies", "quick D6", 1, "BB:02")])
    assert store.die_counts() == {"AA:01": {**ZERO, 6: 2}, "BB:02": {**ZERO, 1: 1}}
    assert store.face_counts() == {**ZERO, 1: 1, 2: 1, 3: 2, 4: 1, 5: 1, 6: 2}
    store.close()
    with contextlib.closing(sqlite3.connect(path)) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() \
            == ("3",)
        assert conn.execute("SELECT face, die FROM rolls ORDER BY n").fetchall() == [
            (3, ""), (3, ""), (5, ""), (6, "AA:01"), (2, ""), (4, "dial"), (6, "AA:01"),
            (1, "BB:02")]
    again = SqliteStore(path)
    assert again.die_counts()["AA:01"][6] == 2
    again.close()


def test_a_roll_with_a_die_that_is_not_a_string_is_refused() -> None:
    store = MemoryStore()
    with pytest.raises(ValueError, match="die"):
        store.save_rolls([("axis", "quick D6", 5, 7)])  # type: ignore[list-item]
    assert store.die_counts() == {}


# --- the smart dice's faces, kept by draw number until their action is saved ---

def test_a_thrown_face_is_kept_until_a_count_saved_passes_its_number(store: Store) -> None:
    store.keep_thrown(4, "AA:01", 5)
    store.keep_thrown(5, "BB:02", 2)
    store.save_battle(battle(), [("axis", "to hit", 5, "AA:01")])      # no count: all stay
    assert store.thrown() == {4: ("AA:01", 5), 5: ("BB:02", 2)}
    store.save_battle(battle(), [], drawn=5)        # the action of die 4 saved: it goes
    assert store.thrown() == {5: ("BB:02", 2)}
    store.save_rolls([("", "quick D6", 2, "BB:02")], drawn=6)
    assert store.thrown() == {}
    store.keep_thrown(6, "AA:01", 1)
    store.keep_thrown(6, "AA:01", 6)                # the same number thrown anew: the last
    assert store.thrown() == {6: ("AA:01", 6)}
    store.clear_battle(drawn=7)
    assert store.thrown() == {}


@pytest.mark.parametrize("thrown", [(-1, "AA:01", 3), (1, "AA:01", 7), (1, "AA:01", True),
                                    (1, None, 3), ("1", "AA:01", 3)])
def test_a_thrown_face_that_is_not_one_is_refused(store: Store, thrown: tuple) -> None:
    with pytest.raises(ValueError, match="thrown face"):
        store.keep_thrown(*thrown)
    assert store.thrown() == {}


def test_a_thrown_face_survives_a_process_killed_right_after(tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    kill = ("import os, sys\nfrom pathlib import Path\n"
            "from cobi_companion.device.ports.store import SqliteStore\n"
            "store = SqliteStore(Path(sys.argv[1]))\n"
            "store.save_battle({'id': 'b1'}, [], drawn=3)\n"
            "store.keep_thrown(3, 'AA:01', 6)\n"
            "os.kill(os.getpid(), 9)\n")
    run = subprocess.run([sys.executable, "-c", kill, str(path)], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == -9, run.stderr
    again = SqliteStore(path)
    assert again.thrown() == {3: ("AA:01", 6)} and again.dice()[1] == 3
    again.close()


def test_a_file_of_schema_3_without_the_thrown_faces_gets_their_table(tmp_path: Path) -> None:
    """A file of the version before smart dice were kept loads as it was, and keeps them."""
    path = tmp_path / "battles.db"
    store = SqliteStore(path)
    store.save_battle(battle(), [("axis", "to hit", 4, "AA:01")], drawn=1)
    store.close()
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("DROP TABLE thrown")
        conn.commit()
    again = SqliteStore(path)
    assert again.problem is None and again.load_battle() == battle()
    assert again.thrown() == {} and again.die_counts()["AA:01"][4] == 1
    again.keep_thrown(1, "AA:01", 2)
    again.close()
    with contextlib.closing(sqlite3.connect(path)) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() \
            == ("3",)
        assert conn.execute("SELECT n, die, face FROM thrown").fetchall() == [(1, "AA:01", 2)]
