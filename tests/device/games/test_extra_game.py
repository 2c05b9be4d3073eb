"""A game added from its own module alone (core/games.py): a coin toss declared here, registered
beside the box's games, is on the home menu, plays, is saved to a real SQLite store and resumes
in a new app, with no edit anywhere else. And box.py's warm-up list is what the registry says."""
from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

import pytest
from cobi_companion.cards import CardBook
from cobi_companion.device import box
from cobi_companion.device.core.app import App, Screen, Settings
from cobi_companion.device.core.battle_log import Line
from cobi_companion.device.core.games import Game, Registry, Row, UnknownGame
from cobi_companion.device.core.views import Header, Lines, Menu, View
from cobi_companion.device.games import registry as box_registry
from cobi_companion.device.games.home import Table
from cobi_companion.device.games.registry import BOX_GAMES
from cobi_companion.device.ports.events import Key, Press
from cobi_companion.device.ports.sound import RecordingLights, RecordingSound
from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore
from cobi_companion.rules.dice import Aim, Need, Roller, ScriptedDice
from cobi_companion.words import catalogue

# ---- the extra game: everything it needs is below ----

TOSS = Need(Roller.ALLIES, Aim.EXTRA, "coin toss")      # an even face is heads


@dataclass
class CoinToss:
    """The coin toss in play: how many tosses, how many heads."""

    tosses: int = 0
    heads: int = 0
    id: str = "coin-1"
    log: list[Line] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"game": "coin_toss", "id": self.id, "tosses": self.tosses, "heads": self.heads}

    # Nothing of it only grows: the store writes it whole each time (ports/grown.py).
    grows: ClassVar[tuple[str, ...]] = ()

    def snapshot(self) -> CoinToss:
        """The game as it stands, made data after the frame: its fields are plain values."""
        return replace(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], book: CardBook) -> CoinToss:
        return cls(int(data["tosses"]), int(data["heads"]), str(data["id"]))


def coin(app: App) -> CoinToss:
    assert isinstance(app.game, CoinToss)
    return app.game


@dataclass
class Tossing(Screen):
    """One screen: OK tosses the coin (a die rolled, saved); a long press opens the menu."""

    def view(self, app: App) -> View:
        game = coin(app)
        return Lines(Header(app.t("coin_toss")),
                     (app.t("coin_heads", heads=game.heads, tosses=game.tosses),))

    def on(self, app: App, key: Key) -> Screen:
        if key is Key.OK:
            game = coin(app)
            game.tosses += 1
            game.heads += app.roll(TOSS, "allies") % 2 == 0
            app.commit()
            return self
        if key is Key.BACK:
            return app.menu(self)
        return self


def new_toss(app: App) -> Screen:
    app.begin(CoinToss())
    return Tossing()


COIN = Game(
    id="coin_toss", title="coin_toss", state_type=lambda: CoinToss,
    resume=CoinToss.from_dict, play=lambda app: Tossing(),
    home_rows=lambda app: [Row("coin_toss", lambda: new_toss(app), ask="coin_toss_ask")],
    resume_row=lambda app: Row("coin_resume", lambda: Tossing()),
    words={"coin_toss": {"en": "Coin toss", "pl": "Rzut monetą", "de": "Münzwurf"},
           "coin_toss_ask": {"en": "Toss a coin instead?", "pl": "Rzucić monetą zamiast?",
                             "de": "Lieber eine Münze werfen?"},
           "coin_resume": {"en": "Resume coin toss", "pl": "Wróć do rzutów monetą",
                           "de": "Münzwurf fortsetzen"},
           "coin_heads": {"en": "{heads} heads in {tosses} tosses",
                          "pl": "{heads} orłów w {tosses} rzutach",
                          "de": "{heads}-mal Kopf bei {tosses} Würfen"}})

# ---- the test ----


@pytest.fixture
def words(monkeypatch: pytest.MonkeyPatch) -> None:
    """The words as they were after the test: the coin's words leave with it."""
    monkeypatch.setattr(catalogue, "_ADDED", dict(catalogue._ADDED))


def app_at(path: Path, book: CardBook, table: Table, dice: list[int]) -> App:
    return App(book, SqliteStore(path), ScriptedDice(dice), RecordingSound(), RecordingLights(),
               Settings(), table)


def menu(app: App) -> Menu:
    view = app.view()
    assert isinstance(view, Menu)
    return view


def choose(app: App, label: str) -> None:
    view = menu(app)
    for _ in range(view.items.index(label) - view.index):
        app.handle(Press(Key.CW))
    app.handle(Press(Key.OK))
    app.save()


def test_a_game_declared_in_one_module_plays_saves_and_resumes(
        words: None, book: CardBook, tmp_path: Path) -> None:
    table = Table(Registry((*BOX_GAMES.games, COIN), shared=BOX_GAMES.shared))
    path = tmp_path / DATABASE_NAME
    app = app_at(path, book, table, [2, 5, 4])
    box_menu = menu(app_at(tmp_path / "other.db", book, Table(BOX_GAMES), []))
    assert menu(app).items == (*box_menu.items, "Coin toss")     # the box's rows as they were
    choose(app, "Coin toss")
    for _ in range(3):
        app.handle(Press(Key.OK))
        app.save()                       # the store writes once the frame is drawn
    assert app.view() == Lines(Header("Coin toss"), ("2 heads in 3 tosses",))
    assert SqliteStore(path).load_battle() == {
        "game": "coin_toss", "id": "coin-1", "tosses": 3, "heads": 2, "format": 2}

    again = app_at(path, book, table, [6])
    assert again.kept is None and again.game == CoinToss(3, 2)
    assert menu(again).items[0] == "Resume coin toss"
    assert "Toss a coin instead?" not in menu(again).items
    choose(again, "Resume coin toss")
    again.handle(Press(Key.OK))
    assert again.view() == Lines(Header("Coin toss"), ("3 heads in 4 tosses",))
    again.handle(Press(Key.BACK))        # the menu of a long press: the box's rows alone
    assert menu(again).items[0] == "Back to battle" and "Status board" not in menu(again).items
    again.handle(Press(Key.OK))
    again.settings.language = "pl"       # its words in each language
    assert again.view() == Lines(Header("Rzut monetą"), ("3 orłów w 4 rzutach",))
    third = app_at(path, book, table, [])
    choose(third, "Coin toss")           # a new game in place of the saved one asks first
    assert "Toss a coin instead?" in repr(third.view())


def test_a_saved_game_of_a_game_the_box_lacks_is_kept_with_why(
        words: None, book: CardBook, tmp_path: Path) -> None:
    path = tmp_path / DATABASE_NAME
    app = app_at(path, book, Table(Registry((*BOX_GAMES.games, COIN))), [2])
    choose(app, "Coin toss")
    app.handle(Press(Key.OK))
    app.save()
    without = app_at(path, book, Table(BOX_GAMES), [])
    assert without.game is None and without.kept is not None
    assert "no game 'coin_toss' on this box" in without.kept.detail
    assert SqliteStore(path).load_battle() is not None          # it stays saved
    with pytest.raises(UnknownGame):
        BOX_GAMES.saved({"game": 7})


def test_two_games_of_one_id_or_words_that_clash_are_refused(words: None) -> None:
    with pytest.raises(ValueError, match="two games of one id"):
        Registry((COIN, COIN))
    clash = Game(id="clash", title="clash", state_type=lambda: CoinToss,
                 resume=CoinToss.from_dict, play=lambda app: Tossing(),
                 words={"cobra": {"en": "Snake", "pl": "Wąż"}})
    with pytest.raises(ValueError, match="'cobra' is in the catalogues already"):
        Registry((clash,))
    untitled = Game(id="untitled", title="no_such_word", state_type=lambda: CoinToss,
                    resume=CoinToss.from_dict, play=lambda app: Tossing())
    with pytest.raises(ValueError, match="'untitled' has no words for its title"):
        Registry((untitled,))


def test_the_warm_up_list_is_the_registrys_and_leaves_no_game_module_out() -> None:
    """box.py warms up what the games declare (the home menu's modules first), each once; and
    every module of device/games/ is either imported before the start menu or warmed up."""
    assert BOX_GAMES.warm_up == box.LATER_MODULES
    assert list(box.LATER_MODULES) == list(dict.fromkeys(
        [*box_registry.SHARED, *(name for game in BOX_GAMES.games for name in game.warm_up)]))
    assert len(set(box.LATER_MODULES)) == len(box.LATER_MODULES)
    games_dir = Path(box_registry.__file__).parent
    every = {f"device.games.{info.name}" for info in pkgutil.walk_packages(
        [str(games_dir)], onerror=lambda name: None)}
    started = json.loads(subprocess.run(
        [sys.executable, "-c", "import json, sys; import cobi_companion.device.box; "
         "print(json.dumps(sorted(sys.modules)))"],
        capture_output=True, text=True, check=True, timeout=120).stdout)
    at_start = {name.removeprefix("cobi_companion.") for name in started}
    assert every - at_start - set(box.LATER_MODULES) == set()
    assert at_start & set(box.LATER_MODULES) == set()


def test_each_game_declares_commands_the_command_line_has() -> None:
    from cobi_companion.device.cli import COMMANDS

    names = {command.name for command in COMMANDS}
    assert set(BOX_GAMES.commands) <= names
    assert BOX_GAMES.get("cobra").commands == ("cobra",)


def test_no_module_of_the_box_compares_a_game_or_level_by_name() -> None:
    """The box asks a game's entry, its battle type or its rules level (rules/levels.py), never
    `level == "tank"`: a new game adds no branch anywhere else."""
    import ast

    device = Path(box.__file__).parent
    names = {game.id for game in BOX_GAMES.games}
    found = []
    for path in sorted(device.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(
                    isinstance(side, ast.Constant) and side.value in names
                    for side in (node.left, *node.comparators)):
                found.append(f"{path.relative_to(device)}:{node.lineno}")
    assert found == []
