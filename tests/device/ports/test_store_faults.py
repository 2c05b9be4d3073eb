"""A save that fails mid-battle on a real SQLite file, and the file working again: the battle
plays on from memory, the store tries its file again, and once it takes a save the whole
battle and every roll made meanwhile are in it (a process killed right after loses nothing).
Rows of the database that are not what the box writes are refused, typed, and kept."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cobi_companion.device.ports.store import DRAWN, RETRY_EVERY, BadRow, SqliteStore

# A real process: a full disk as SQLite meets it (a write past the limit fails with EFBIG,
# which Python's ignored SIGXFSZ lets through), lifted later; killed without a close.
FULL_THEN_FREE = textwrap.dedent("""
    import json, os, resource, sys
    from pathlib import Path
    from cobi_companion.device.ports.store import SqliteStore

    RETRY_EVERY = int(sys.argv[2])
    store = SqliteStore(Path(sys.argv[1]))
    store.save_battle({"id": "b1", "turn": 0}, [("axis", "to hit", 1)], drawn=1)
    resource.setrlimit(resource.RLIMIT_FSIZE, (16384, resource.RLIM_INFINITY))
    turn, seen = 0, []
    while store.can_save:
        turn += 1
        store.save_battle({"id": "b1", "turn": turn, "pad": "x" * 3000},
                          [("axis", "to hit", turn % 6 + 1)], drawn=turn + 1)
    seen.append(["failed", turn, store.problem])
    for more in range(3):     # the disk still full: played on in memory, tried again
        turn += 1
        store.save_battle({"id": "b1", "turn": turn}, [("allies", "to hit", 6)], drawn=turn + 1)
        seen.append(["full", turn, store.can_save])
    resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY,) * 2)
    for _ in range(4 * RETRY_EVERY):     # the box tries again now and then: a bound
        if store.can_save:
            break
        turn += 1
        store.save_battle({"id": "b1", "turn": turn}, [("allies", "to hit", 5)], drawn=turn + 1)
        seen.append(["free", turn, store.can_save])
    print(json.dumps(seen), flush=True)
    os.kill(os.getpid(), 9)
""")


def test_a_full_disk_mid_battle_then_free_again_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    run = subprocess.run([sys.executable, "-c", FULL_THEN_FREE, str(path), str(RETRY_EVERY)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == -9, run.stderr
    seen = json.loads(run.stdout)
    failed_at, problem = seen[0][1], seen[0][2]
    assert problem.startswith("cannot save: ") and str(path) in problem
    assert [entry[2] for entry in seen[1:4]] == [False, False, False]
    assert seen[-1][2] is True and len(seen) - 4 <= RETRY_EVERY
    last = seen[-1][1]
    # killed right after the file took it: every save of the battle is in the file
    with sqlite3.connect(path) as conn:
        state = json.loads(conn.execute("SELECT state FROM battle").fetchone()[0])
        rolls = conn.execute("SELECT COUNT(*) FROM rolls").fetchone()[0]
        totals = sum(n for (n,) in conn.execute("SELECT n FROM face_totals"))
        drawn = conn.execute("SELECT value FROM meta WHERE key = 'dice_drawn'").fetchone()[0]
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert state == {"id": "b1", "turn": last}
    assert rolls == totals == last + 1     # the first roll, and one a save after it
    assert int(drawn) == last + 1
    assert failed_at >= 1


def test_a_store_that_failed_retries_at_later_saves_not_at_every_one(tmp_path: Path) -> None:
    """The first try is at the next save, then after 2, 4, ... saves: a file that stays
    broken costs a Pi Zero one open now and then, not one a press."""
    path = tmp_path / "battles.db"
    store = SqliteStore(path)
    store.save_battle({"id": "b1"}, [])
    conn = store._conn
    assert conn is not None
    page_count = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {page_count}")     # this connection is full
    store.save_battle({"id": "b1", "pad": "x" * 20000}, [("axis", "to hit", 2)])
    assert not store.can_save and store.problems[-1].kind == "cannot_save"
    # the file works again for a new connection: the next save is written to it
    store.save_battle({"id": "b1", "turn": 2}, [("axis", "to hit", 4)])
    assert store.can_save and store.problems[-1].kind == "saving_again"
    # a full disk is no fault of the file this run opened: no integrity check at the retry
    # (it reads every page: seconds on a Pi Zero, every few saves while the disk stays full)
    assert not store.checked
    store.close()
    again = SqliteStore(path)
    assert again.load_battle() == {"id": "b1", "turn": 2}
    assert again.face_counts() == {1: 0, 2: 1, 3: 0, 4: 1, 5: 0, 6: 0}
    again.close()


def test_thrown_faces_kept_while_saving_fails_reach_the_file_when_it_works(
        tmp_path: Path) -> None:
    """A smart die's face kept while the store plays on in memory is in the file once the
    file takes a save again, with those the file held before."""
    path = tmp_path / "battles.db"
    store = SqliteStore(path)
    store.save_battle({"id": "b1"}, [], drawn=2)
    store.keep_thrown(2, "AA:01", 3)
    conn = store._conn
    assert conn is not None
    page_count = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {page_count}")     # this connection is full
    store.save_battle({"id": "b1", "pad": "x" * 20000}, [])
    assert not store.can_save
    store.keep_thrown(3, "BB:01", 6)                # in memory, then the file again
    assert store.can_save and store.thrown() == {2: ("AA:01", 3), 3: ("BB:01", 6)}
    store.close()
    again = SqliteStore(path)
    assert again.thrown() == {2: ("AA:01", 3), 3: ("BB:01", 6)}
    again.close()


@pytest.mark.parametrize(("text", "why"), [
    ("[" * 5000 + "]" * 5000, "nested deeper"),
    ("{\"id\": \"b1\", \"tur", "not JSON"),
    ("[1, 2]", "not an object"),
    ("\"\\ud800\"", "not an object"),
])
def test_a_battle_row_that_is_not_a_battle_is_refused_typed_and_kept(
        tmp_path: Path, text: str, why: str) -> None:
    path = tmp_path / "battles.db"
    SqliteStore(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO battle VALUES (1, 'b1', ?, 'now')", (text,))
    conn.close()
    store = SqliteStore(path)
    assert store.problems == [] and store.can_save        # not moved aside
    with pytest.raises(BadRow, match=why) as refused:
        store.load_battle()
    assert (refused.value.table, refused.value.key) == ("battle", "b1")
    store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT state FROM battle").fetchone()[0] == text
    conn.close()


def test_settings_rows_that_are_not_json_are_left_out_and_listed_once(tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    SqliteStore(path).close()
    with sqlite3.connect(path) as conn:
        conn.executemany("INSERT INTO settings VALUES (?, ?)", [
            ("language", "\"pl\""), ("volume", "not json"), ("sound", "[" * 5000)])
    conn.close()
    store = SqliteStore(path)
    assert store.settings() == {"language": "pl"}
    assert store.settings() == {"language": "pl"}
    assert sorted(bad.key for bad in store.bad_rows) == ["sound", "volume"]
    store.close()


@pytest.mark.parametrize("drawn", ["\u00b2", "\u0663", "-1", "1e3", "9" * 40, ""])
def test_a_count_of_dice_drawn_that_is_no_count_starts_from_0(tmp_path: Path,
                                                              drawn: str) -> None:
    # "²" and "٣" are digits to str.isdigit, and int() refuses them: every start crashed
    path = tmp_path / "battles.db"
    store = SqliteStore(path)
    secret, _ = store.dice()
    store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (DRAWN, drawn))
    conn.close()
    store = SqliteStore(path)
    assert store.dice() == (secret, 0)
    assert [bad.key for bad in store.bad_rows] == [DRAWN]
    store.close()


def test_a_deep_string_is_no_deep_json(tmp_path: Path) -> None:
    """Brackets inside a string do not count: a card's name may hold them."""
    store = SqliteStore(tmp_path / "battles.db")
    deep_name = {"id": "b1", "name": "[" * 500 + "{" * 500}
    store.save_battle(deep_name, [])
    assert store.load_battle() == deep_name
    store.close()
