"""Saves that cost the same at turn 27 as at turn 1 (device/ports/grown.py): the lists of a game
that only grow are appended as rows, the battle row keeps the rest and stays small, and what
is read back is always the whole game as it was last saved: after a reopen, after a process is
killed between any two writes, after the disk was full, after lists lost their front or were
changed, and from a file that saved games whole (before lists were appended). Real SQLite
files and real processes."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.ports.grown import APPENDED, PRUNE
from cobi_companion.device.ports.store import BadRow, MemoryStore, SqliteStore, read_battle
from hypothesis import given, settings
from hypothesis import strategies as st

GROWS = ("log", "cobra/weather", "cobra/exits")


def game(turn: int, battle_id: str = "g1") -> dict[str, Any]:
    """A game at `turn`: its log, weather and exits grow with it, the rest does not."""
    return {"id": battle_id, "game": "cobra", "turn": turn,
            "log": [{"key": "log_line", "values": {"n": n, "text": "é" * (n % 5)}}
                    for n in range(turn)],
            "cobra": {"tracks": {"us": turn % 7, "german": 3},
                      "weather": [("clear", "storm", "overcast")[n % 3]
                                  for n in range(turn // 2)],
                      "exits": [{"turn": n} for n in range(turn // 10)]}}


def row(path: Path) -> str:
    with closing(sqlite3.connect(path)) as conn:
        found = conn.execute("SELECT state FROM battle").fetchone()
    return "" if found is None else str(found[0])


def read_aside(path: Path) -> dict[str, Any] | None:
    """The game in the file, read by another connection, as a box starting would."""
    with closing(sqlite3.connect(path)) as conn:
        found = read_battle(conn)
    return None if found is None else found[0]


def test_the_battle_row_stays_small_and_the_game_loads_back_whole(tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    store = SqliteStore(path)
    store.save_battle(game(1), [], grows=GROWS)
    first = row(path)
    for turn in range(2, 301):
        store.save_battle(game(turn), [("axis", "to hit", turn % 6 + 1)], grows=GROWS)
    last = row(path)
    store.close()
    # the row is the game without its lists, and which rows hold them
    assert json.loads(last)[APPENDED] == {"log": [0, 300], "cobra/weather": [0, 150],
                                         "cobra/exits": [0, 30]}
    assert "log_line" not in last and len(last) - len(first) < 20
    again = SqliteStore(path)
    assert again.load_battle() == game(300) == read_aside(path)
    assert again.face_counts("g1")[1] == 50
    again.close()


def test_a_game_saved_whole_loads_and_its_next_save_appends(tmp_path: Path) -> None:
    """A file from before lists were appended: the row is the whole game."""
    path = tmp_path / "battles.db"
    store = SqliteStore(path)
    store.save_battle(game(40), [])              # no lists named: the row as it is
    store.close()
    assert json.loads(row(path)) == game(40)
    store = SqliteStore(path)
    assert store.load_battle() == game(40)
    store.save_battle(game(41), [], grows=GROWS)
    store.close()
    assert APPENDED in json.loads(row(path)) and read_aside(path) == game(41)


def test_rows_missing_under_a_battle_row_refuse_it_typed_and_keep_it(tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    store = SqliteStore(path)
    store.save_battle(game(12), [], grows=GROWS)
    store.close()
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("DELETE FROM grown WHERE path = 'log' AND i = 5")
    kept = row(path)
    store = SqliteStore(path)
    with pytest.raises(BadRow) as refused:
        store.load_battle()
    assert (refused.value.table, refused.value.key) == ("battle", "g1")
    assert "log: 5 of its 12 items" in refused.value.why
    store.close()
    assert row(path) == kept


def test_clearing_the_game_leaves_no_rows(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "battles.db")
    store.save_battle(game(30), [], grows=GROWS)
    store.clear_battle()
    assert store.load_battle() is None
    store.save_battle(game(3, "g2"), [], grows=GROWS)
    assert store.load_battle() == game(3, "g2")
    conn = store._conn
    assert conn is not None
    assert conn.execute("SELECT COUNT(*) FROM grown").fetchone()[0] == 3 + 1
    store.close()


# What a game's lists may do between two saves: grow, lose their front (a battle saves its
# log's last lines), change an item (written again), be missing for a save and come back
# ("absent"), grow in place (the list the last save was given), or the game is another one.
STEPS = st.lists(st.tuples(st.sampled_from(["grow", "front", "change", "another", "clear",
                                            "reopen", "same", "absent", "in_place"]),
                           st.integers(0, 5)), min_size=1, max_size=25)


@settings(max_examples=60, deadline=None)
@given(STEPS)
def test_what_is_read_back_is_always_the_game_last_saved(steps: list[tuple[str, int]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "battles.db"
        store = SqliteStore(path)
        state: dict[str, Any] = {"id": "g0", "log": [], "cobra": {"weather": [], "n": 0}}
        saved: dict[str, Any] | None = None
        for number, (step, k) in enumerate(steps):
            log, weather = list(state["log"]), list(state["cobra"]["weather"])
            if step == "grow":
                log += [{"n": number, "k": i} for i in range(k)]
                weather += ["clear"] * (k % 3)
            elif step == "front":
                log = log[k:]
            elif step == "change" and log:
                log[k % len(log)] = {"changed": number}
            elif step == "another":
                state = {**state, "id": f"g{number}"}
                log = log[: k]
            elif step == "in_place":          # the same list object as the last save's
                log = state["log"]
                log += [{"in_place": number, "k": i} for i in range(k + 1)]
            elif step == "absent":            # saved without its weather: it comes back later
                weather = []
                state = {**state, "log": log, "cobra": {"weather": None, "n": number}}
                store.save_battle(state, [], grows=GROWS)
                saved = json.loads(json.dumps(state))
                assert store.load_battle() == saved
            elif step == "clear":
                store.clear_battle()
                saved = None
            elif step == "reopen":
                store.close()
                store = SqliteStore(path)
            if step not in ("clear", "reopen"):
                state = {**state, "log": log, "cobra": {"weather": weather, "n": number}}
                store.save_battle(state, [], grows=GROWS)
                saved = json.loads(json.dumps(state))
            assert store.load_battle() == saved
            assert read_aside(path) == saved
        store.close()
        again = SqliteStore(path)
        assert again.load_battle() == saved
        again.close()


def test_a_list_missing_from_one_save_comes_back_as_saved_then() -> None:
    """Saved, then saved without it, then saved again shorter: what is read back is the
    list of the last save, not the rows of the first (the reviewer's case)."""
    for store in (MemoryStore(), None):
        with tempfile.TemporaryDirectory() as folder:
            store = store or SqliteStore(Path(folder) / "battles.db")
            for log in (["a", "b", "c"], None, ["x", "y"]):
                store.save_battle({"id": "g1", "log": log}, [], grows=("log",))
            assert store.load_battle() == {"id": "g1", "log": ["x", "y"]}
            store.close()


def test_a_list_grown_in_place_after_its_save_is_saved_whole_next_time() -> None:
    store = MemoryStore()
    log = ["a"]
    state = {"id": "g1", "log": log}
    store.save_battle(state, [], grows=("log",))
    log.append("b")                          # the same list, added to in place
    store.save_battle(state, [], grows=("log",))
    assert store.load_battle() == {"id": "g1", "log": ["a", "b"]}


def test_the_rows_a_log_lost_from_its_front_are_deleted_in_time(tmp_path: Path) -> None:
    """A battle keeps its log's last 200 lines: over 1,000 saves the table keeps at most
    PRUNE rows more than that, and the game reads back whole."""
    store = SqliteStore(tmp_path / "battles.db")
    log: list[str] = []
    most = 0
    for n in range(1000):
        log = [*log, f"line {n}"][-200:]
        store.save_battle({"id": "g1", "log": log}, [], grows=("log",))
        conn = store._conn
        assert conn is not None
        most = max(most, conn.execute("SELECT COUNT(*) FROM grown").fetchone()[0])
    assert most <= 200 + PRUNE
    assert store.load_battle() == {"id": "g1", "log": log}
    store.close()


def test_a_log_made_again_of_equal_lines_is_appended_to_not_written_whole(
        tmp_path: Path) -> None:
    """A full log whose lines are equal to the last save's but new objects (a game state made
    again, a battle read back after a restart) is appended to: the rows of the lines kept stay
    as they were, and the game reads back whole."""
    def log(end: int) -> list[dict[str, Any]]:         # new objects at every call
        return [{"key": "log_line", "values": {"n": n}} for n in range(end - 200, end)]

    def rows(store: SqliteStore) -> dict[int, int]:
        conn = store._conn
        assert conn is not None
        return dict(conn.execute("SELECT i, n FROM grown").fetchall())

    path = tmp_path / "battles.db"
    store = SqliteStore(path)
    store.save_battle({"id": "g1", "log": log(200)}, [], grows=("log",))
    store.save_battle({"id": "g1", "log": log(201)}, [], grows=("log",))
    saved = rows(store)
    store.close()
    store = SqliteStore(path)                   # the restart: the lines read back are new
    assert store.load_battle() == {"id": "g1", "log": log(201)}
    store.save_battle({"id": "g1", "log": log(202)}, [], grows=("log",))
    now = rows(store)
    assert len(now) == len(saved) + 1 and all(now[i] == n for i, n in saved.items())
    assert store.load_battle() == {"id": "g1", "log": log(202)}
    store.close()


def test_a_memory_store_appends_as_the_file_does() -> None:
    store = MemoryStore()
    for turn in range(1, 30):
        store.save_battle(game(turn), [], grows=GROWS)
    assert store.load_battle() == game(29)


SAVER = """
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from test_grown_saves import GROWS, game
from cobi_companion.device.ports.store import SqliteStore

store = SqliteStore(Path(sys.argv[1]))
start = (store.load_battle() or {"turn": 0})["turn"]
for turn in range(start + 1, start + int(sys.argv[2]) + 1):
    store.save_battle(game(turn), [("axis", "to hit", turn % 6 + 1)], grows=GROWS)
    print("saved", turn, flush=True)
"""


@pytest.mark.parametrize("kill_after", [1, 37, 120])
def test_a_process_killed_between_any_two_writes_resumes_exactly(tmp_path: Path,
                                                                 kill_after: int) -> None:
    """Killed while it saves on and on (a pulled plug), twice: the game read back is one it
    saved, whole, at or after the last one it reported; the next process goes on from it."""
    path = tmp_path / "battles.db"
    here = str(Path(__file__).parent)
    for _ in range(2):
        with subprocess.Popen([sys.executable, "-c", SAVER, str(path), "100000", here],
                              stdout=subprocess.PIPE, text=True) as proc:
            assert proc.stdout is not None
            reported = 0
            for count, line in enumerate(proc.stdout, start=1):
                reported = int(line.split()[1])
                if count == kill_after:
                    os.kill(proc.pid, signal.SIGKILL)
                    break
            assert proc.wait(timeout=60) == -signal.SIGKILL
        store = SqliteStore(path)
        state = store.load_battle()
        assert state is not None and state["turn"] >= reported
        assert state == game(state["turn"])
        # the game and its rolls are one transaction: whichever save was last, they agree
        assert sum(store.face_counts("g1").values()) == state["turn"]
        store.close()


def test_a_full_disk_mid_game_loses_nothing_once_the_file_takes_saves_again(
        tmp_path: Path) -> None:
    path = tmp_path / "battles.db"
    store = SqliteStore(path)
    for turn in range(1, 11):
        store.save_battle(game(turn), [], grows=GROWS)
    conn = store._conn
    assert conn is not None
    conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")
    big = {**game(11), "log": game(11)["log"] + [{"key": "x" * 3000}] * 20}
    store.save_battle(big, [], grows=GROWS)          # does not fit: on in memory
    assert not store.can_save and store.load_battle() == big
    turn = 11
    while not store.can_save:             # the file is tried again (no limit on a new open)
        turn += 1
        store.save_battle(game(turn), [], grows=GROWS)
        assert turn < 100
    store.save_battle(game(turn + 1), [], grows=GROWS)
    store.close()
    assert read_aside(path) == game(turn + 1)


def test_a_cobra_game_is_made_data_only_after_its_frame(table_at, monkeypatch) -> None:
    """A press that ends a Cobra action copies the game (a snapshot: the game is frozen, the
    log a pointer copy); the game becomes data when the save is written, after the frame."""
    from cobi_companion.device.games.cobra import session as cobra

    table = table_at([4] * 50)
    table.choose("Cobra")
    table.press("ok")                                   # the first scenario: its hub
    app, loop, seen = table.box.app, table.box.loop, []
    commit, draw, to_dict = app.commit, loop.draw, cobra.CobraSession.to_dict
    monkeypatch.setattr(app, "commit", lambda *line: (seen.append("commit"), commit(*line)))
    monkeypatch.setattr(loop, "draw", lambda: (draw(), seen.append("frame")))
    monkeypatch.setattr(cobra.CobraSession, "to_dict",
                        lambda self: seen.append("data") or to_dict(self))
    table.press("ok", "axis", "ok", "ok")               # the weather rolled, then on
    assert "commit" in seen, seen
    for at, what in enumerate(seen):
        if what == "commit":                            # its frame comes before its data
            assert seen[at:].index("frame") < seen[at:].index("data"), seen
    assert table.box.store.load_battle()["log"][-1]["values"]["line"]["key"] == "log_weather"
