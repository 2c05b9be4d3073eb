"""The games of the box as the core asks for them: each game declares itself once (a `Game`: its
id, its title, how it starts and resumes, its rows on the home menu and the battle menu, the
type of its saved state, the modules it warms up, its command-line commands), and a `Registry`
holds the box's games (games/registry.py names them). The home menu, resuming a saved game,
the saved "game" key and box.py's warm-up list all come from here."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cobi_companion.cards import CardBook
from cobi_companion.device.core import i18n
from cobi_companion.device.core.app import App, Next, Played, Screen

GAME = "game"         # the key of a saved game's id (a COBI battle's save names its level)


@dataclass(frozen=True)
class Row:
    """A row of a menu: the word-table key of its label, where OK goes, and, for a row that
    ends or replaces a game, the question asked first (its key; a "no" comes back to it)."""

    word: str
    then: Next
    ask: str | None = None


@dataclass(frozen=True)
class MenuRows:
    """A game's rows on the menu of a long press: before the box's own rows (the dice stats,
    quick dice, the settings, checking a distance) and after them."""

    first: Sequence[Row] = ()
    last: Sequence[Row] = ()


def no_rows(app: App, back: Screen) -> MenuRows:
    return MenuRows()


def nothing_to_resume(app: App) -> Row | None:
    return None


@dataclass(frozen=True)
class Game:
    """One game of the box, declared once by its own module."""

    id: str                                    # saved with its games ("game", or the level)
    title: str                                 # the word-table key of its name
    # The type of its game in play (`Played`), imported when first asked: the home menu
    # waits for no game's modules.
    state_type: Callable[[], type]
    resume: Callable[[dict[str, Any], CardBook], Played]    # a saved game made again
    play: Callable[[App], Screen]              # the screen the game in play goes on with
    # Its rows on the home menu: each starts a new game, asked first while one is saved.
    home_rows: Callable[[App], Sequence[Row]] = lambda app: ()
    # The row that goes on with a saved game of it (None: nothing to go on with).
    resume_row: Callable[[App], Row | None] = nothing_to_resume
    menu_rows: Callable[[App, Screen], MenuRows] = no_rows
    warm_up: tuple[str, ...] = ()              # its modules, each after those it imports
    commands: tuple[str, ...] = ()             # its command-line commands
    # Words of its own by key, each by language code ({code: text}; English needed),
    # added to the catalogues' words when registered.
    words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


class UnknownGame(ValueError):
    """A saved game of a game this box does not have."""


class Registry:
    """The box's games, in the order of their rows on the home menu, with the modules the
    home menu's own rows warm up (`shared`) before theirs."""

    def __init__(self, games: Iterable[Game], shared: tuple[str, ...] = ()) -> None:
        self.games = tuple(games)
        self.shared = shared
        ids = [game.id for game in self.games]
        if len(set(ids)) != len(ids):
            raise ValueError(f"two games of one id among {ids}")
        for game in self.games:
            i18n.add_words(game.words)
            if not i18n.has(game.title):      # its name is shown: it needs its words
                raise ValueError(f"the game {game.id!r} has no words for its title "
                                 f"{game.title!r}: give them in its `words`")

    def get(self, game_id: str) -> Game:
        for game in self.games:
            if game.id == game_id:
                return game
        raise UnknownGame(f"no game {game_id[:40]!r} on this box "
                          f"(it has {', '.join(game.id for game in self.games)})")

    def of(self, played: Played) -> Game:
        """The game of a game in play, by the type of its state."""
        for game in self.games:
            if type(played) is game.state_type():
                return game
        raise UnknownGame(f"no game plays a {type(played).__name__}")

    def saved(self, data: dict[str, Any]) -> Game:
        """The game of a saved game: its "game" key; a COBI battle's save names its level."""
        found = data.get(GAME, data.get("level"))
        if not isinstance(found, str):
            raise UnknownGame(f"a saved game names no game ({GAME}: {found!r:.40})")
        return self.get(found)

    def resume(self, data: dict[str, Any], book: CardBook) -> Played:
        return self.saved(data).resume(data, book)

    @property
    def warm_up(self) -> tuple[str, ...]:
        """The modules to import while the box is idle, each once, in order: the home menu's
        own, then each game's."""
        return tuple(dict.fromkeys(
            [*self.shared, *(name for game in self.games for name in game.warm_up)]))

    @property
    def commands(self) -> tuple[str, ...]:
        return tuple(name for game in self.games for name in game.commands)
