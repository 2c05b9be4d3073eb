"""Nothing is lost to a slip: every row of every menu of every game, chosen as a child fiddling
with the knob would, must keep the game the box has saved, or ask first.

The walk runs the real `cobi-companion play` (the box's app with its keys typed as words and its
frames written as text) through its `main` in the test process, as the command tests do (a
Python start-up a row would cost the walk most of its time; tests/test_entry_points.py runs
`play` as a real process and finds it prints the same), each row a run of its own over a copy of
a state folder holding a game in play: the path to the menu, the knob turned to the row, OK on
it and one OK more (on a question, that OK answers the *no* it lights). Then the saved game is
read from the store's SQLite file: it must still be there, the same game (its id) with its log
as it was or longer. A row that ends, deletes or starts over play without a question leaves no
game, or another one."""
from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.ports.store import read_battle

from tests.conftest import run_cli

DICE = ",".join(["5", *["2"] * 200])   # the Axis wins the roll-off; then the same die

# A game in play for each game of the box: the keys typed from a new box's start menu.
SETUPS: dict[str, tuple[str, ...]] = {
    # Easy: a Sherman for the Allies, a Tiger for the Axis; the Axis won the initiative
    "easy": ("--rules", "easy", "ok", "cw allies cw cw axis ok", "axis allies"),
    # the Tank Game: the same armies; the Axis attacks, the Allies defend and act first
    "tank": ("--rules", "tank", "ok", "cw allies cw cw axis ok", "axis allies", "ok"),
    # a match of two Tank Game battles, its first battle begun
    "match": ("--rules", "tank", "ccw", "ok", "cw allies cw cw axis ok", "axis allies", "ok"),
    # Cobra: the first scenario, at its first phase
    "cobra": ("ccw ccw", "ok", "ok"),
}

# Resume a battle: OK on the start menu, and OK on its last outcome shown again (the initiative).
RESUME = ("ok", "ok")
# Each menu: the game saved, the keys from the start menu to it, and the title it shows.
MENUS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "start, Easy battle saved": ("easy", (), "COBI Companion"),
    "start, Tank Game battle saved": ("tank", (), "COBI Companion"),
    "start, match saved": ("match", (), "COBI Companion"),
    "start, Cobra game saved": ("cobra", (), "COBI Companion"),
    "Easy turn": ("easy", (*RESUME, ), "Which vehicle?"),
    "Easy vehicle": ("easy", (*RESUME, "ok"), "Tiger 1"),
    "Easy battle menu": ("easy", (*RESUME, "back"), "Menu"),
    "Tank Game turn": ("tank", (*RESUME, ), "Who goes?"),
    "Tank Game piece": ("tank", (*RESUME, "ok"), "Sherman 1"),
    "Tank Game battle menu": ("tank", (*RESUME, "back"), "Menu"),
    "match battle menu": ("match", (*RESUME, "back"), "Menu"),
    "settings in a battle": ("easy", (*RESUME, "back", "cw " * 6, "ok"), "Settings"),
    "Cobra hub": ("cobra", ("ok",), "1/5 Weather"),
    "Cobra tracks": ("cobra", ("ok", "cw", "ok"), "Tracks"),
    "Cobra menu": ("cobra", ("ok", "back"), "Menu"),
}


def play(folder: Path, *keys: str) -> str:
    """`cobi-companion play` on the state folder, `keys` typed a line each; its output.
    Leading arguments ("--rules", "easy") go on its command line. The process sees only the
    shipped cards and no settings files (its own under the folder's parent)."""
    home = folder.parent
    env = {"COBI_COMPANION_CARDS": "", "COBI_COMPANION_OVERLAYS": "",
           "COBI_COMPANION_PLAYER": "none", "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache")}
    args: list[str] = []
    typed = list(keys)
    while typed and typed[0].startswith("--"):
        args += typed[:2]
        typed = typed[2:]
    run = run_cli("play", "--state-dir", str(folder), "--dice", DICE, *args,
                  stdin="".join(line + "\n" for line in typed), env=env)
    assert run.code == 0, run.err
    return run.out


def last_menu(out: str) -> tuple[str, list[str]]:
    """The title and the items of the last frame written before the farewell."""
    frames = [frame.splitlines() for frame in out.split("\n\n") if frame.strip()]
    frame = next(f for f in reversed(frames) if f[0].startswith("[ ") and
                 any(line.startswith("> ") for line in f))
    title = frame[0].split(" ]")[0].removeprefix("[ ")
    return title, [line[2:] for line in frame[1:] if line.startswith(("> ", "  "))]


def saved(folder: Path) -> dict[str, Any] | None:
    """The game the store keeps in the folder's SQLite file, read as a file, or None."""
    with closing(sqlite3.connect(folder / "battles.db")) as conn:
        found = read_battle(conn)
    return None if found is None else found[0]


def kept(before: dict[str, Any], after: dict[str, Any] | None) -> bool:
    """The same game, nothing of its log lost."""
    return after is not None and after["id"] == before["id"] and \
        after["log"][:len(before["log"])] == before["log"]


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A state folder with each game in play."""
    folders = {}
    for name, keys in SETUPS.items():
        folder = tmp_path_factory.mktemp(name)
        play(folder, *keys)
        assert saved(folder) is not None, name
        folders[name] = folder
    return folders


@pytest.mark.parametrize("menu", list(MENUS))
def test_no_row_of_a_menu_discards_play_without_a_question(menu: str, games: dict[str, Path],
                                                             tmp_path: Path):
    game, path, title = MENUS[menu]
    shown, items = last_menu(play(copy(games[game], tmp_path / "look"), *path))
    assert shown == title and len(items) > 1
    before = saved(games[game])
    assert before is not None
    lost = []
    for row, item in enumerate(items):
        folder = copy(games[game], tmp_path / f"row{row}")
        play(folder, *path, "cw " * row, "ok", "ok")
        if not kept(before, saved(folder)):
            lost.append(item)
    assert lost == [], f"{menu}: rows that discard play without a question"


def copy(folder: Path, to: Path) -> Path:
    shutil.copytree(folder, to)
    return to


def test_the_walk_sees_a_game_discarded(games: dict[str, Path], tmp_path: Path):
    """The walk's check can fail: End battle, answered yes, leaves no game saved."""
    folder = copy(games["easy"], tmp_path / "easy")
    before = saved(folder)
    assert before is not None
    play(folder, "ok", "back", "ccw", "ok", "cw", "ok")
    assert not kept(before, saved(folder))



# ---- the questions themselves, on a box on mock pins ----

# New battle at the Easy level: a Tiger for the Axis, a Sherman for the Allies, start; the
# Axis wins the roll-off.
TIGER_VS_SHERMAN = ["ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok", "axis",
                    "allies"]


def easy_battle(table_at: Any) -> Any:
    from ..conftest import EASY

    table = table_at([5, 2], config=EASY)
    table.press(*TIGER_VS_SHERMAN)
    assert table.view.header.title == "Which vehicle?"
    return table


def asked(table: Any, title: str) -> None:
    """The question `title` on the panel, *no* lit, each answer's hint saying what it does."""
    from cobi_companion.device.core.views import Menu

    view = table.view
    assert isinstance(view, Menu) and view.header.title == title
    assert view.items == ("no", "yes") and view.index == 0
    assert view.hint == "no: nothing is lost"
    table.press("cw")
    assert table.view.hint.startswith("yes: ") and "lost" in table.view.hint
    table.press("ccw")


def test_end_battle_asks_no_and_a_long_press_return_to_the_menu_yes_ends(table_at: Any):
    table = easy_battle(table_at)
    battle = table.box.app.state.id
    table.press("back", "ccw")                       # the menu's last row: End battle
    assert table.view.items[table.view.index] == "End battle"
    for answer in (["ok"], ["back"]):                # no, and a long press
        table.press("ok")
        asked(table, "End the battle?")
        table.press(*answer)
        assert table.view.header.title == "Menu"     # where the players were, on its row
        assert table.view.items[table.view.index] == "End battle"
        assert table.box.store.load_battle()["id"] == battle
    table.press("ok", "cw", "ok")                    # yes
    assert table.view.items[0] == "New battle" and table.box.app.state is None
    assert table.box.store.load_battle() is None


def test_new_battle_over_a_saved_one_asks_and_ends_it_only_when_the_new_one_starts(table_at):
    from ..conftest import EASY

    table = easy_battle(table_at)
    battle = table.box.app.state.id
    table.box.close()
    table = table_at([5, 2], config=EASY)            # the box switched on again, its files
                                                     # as they were
    assert table.view.items[:2] == ("Resume battle", "New battle")
    table.press("cw", "ok")
    asked(table, "Start a new battle?")
    table.press("ok")                                # no: the start menu, on New battle
    assert table.view.items[table.view.index] == "New battle"
    table.press("ok", "cw", "ok")                    # yes: the roster, the battle still kept
    assert type(table.box.app.screen).__name__ == "Roster"
    assert table.box.store.load_battle()["id"] == battle
    table.press("ok")                                # the same armies again: a new battle
    assert table.box.app.state.id != battle


def test_new_match_and_cobra_over_a_saved_battle_ask(table_at: Any):
    from ..conftest import EASY

    table = easy_battle(table_at)
    table.box.close()
    table = table_at([], config=EASY)
    for row, question in (("Cobra (Normandy)", "Start a new Cobra game?"),
                          ("New match", "Start a new match?")):
        table.choose(row)
        asked(table, question)
        table.press("back")
        assert table.view.items[table.view.index] == row


def test_leaving_a_roster_with_pieces_asks(table_at: Any):
    from ..conftest import EASY

    table = table_at([], config=EASY)
    table.press("ok", "back")                        # no piece yet: nothing to lose
    assert table.view.items[0] == "New battle"
    table.press("ok", "cw", "allies", "back")
    asked(table, "Leave the armies?")
    table.press("ok")                                # no: the roster as it was
    assert table.view.items[1] == "Sherman · Allies 1" and table.view.index == 1
    table.press("back", "cw", "ok")                  # yes
    assert table.view.items[0] == "New battle"


def test_cobras_end_game_asks(table_at: Any):
    table = table_at([])
    table.choose("Cobra (Normandy)")
    table.press("ok", "back", "ccw")                 # the game's menu, its last row
    assert table.view.items[table.view.index] == "End game"
    table.press("ok")
    asked(table, "End the game?")
    table.press("ok")
    assert table.view.items[table.view.index] == "End game"
    assert table.box.store.load_battle()["game"] == "cobra"
    table.press("ok", "cw", "ok")
    assert table.view.items[0] == "New battle" and table.box.store.load_battle() is None


def test_the_rules_row_sets_aside_what_the_easy_level_cannot_play_and_brings_it_back(table_at):
    table = table_at([])                             # the Tank Game
    table.press("ok")
    for name, side in (("Rifleman", "axis"), ("Tiger I", "axis"), ("Sherman M4A1", "allies")):
        table.to_card(name)
        table.press(side)
        if table.box.app.screen.squad is not None:   # a squad: its figures, OK
            table.press("cw", "ok")

    def on_roster() -> list[str]:
        return [p.label for p in table.box.app.screen.battle.pieces]
    assert on_roster() == ["Rifle 1", "Tiger 1", "Sherman 1"]
    table.choose("Rules: Tank Game")
    assert on_roster() == ["Tiger 1", "Sherman 1"]   # the Easy level plays vehicles only
    table.choose("Rules: Easy")
    assert sorted(on_roster()) == ["Rifle 1", "Sherman 1", "Tiger 1"]
    assert table.box.app.screen.battle.get("Rifle 1").figures == 2
