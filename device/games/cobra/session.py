"""The Cobra game in play and what every part of Cobra's screens needs of it: the saved game
(`CobraSession`), saving an action, the owner's tables (read once for each app), the header,
and the screens every part shows (a text to read, a refusal, a count, a choice, a roll's
outcome, a dice button).

Every screen that goes back to the phase indicator is told the way there (`home`): the parts
never import the hub (games/cobra/hub.py imports them)."""
from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar
from weakref import WeakKeyDictionary

from cobi_companion.cards import cobra_in_play, default_folders
from cobi_companion.cards.snapshot import snapshot_file
from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import Line, LogEntry, SavedLog, entry, loaded
from cobi_companion.device.core.views import BigWord, Header, Lines, Menu, View
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.menus import Scroll
from cobi_companion.device.games.rolling import awaited, face_for
from cobi_companion.device.ui.widgets import Choose, Count, Show, WaitPress
from cobi_companion.rules.cobra.combat import Nation
from cobi_companion.rules.cobra.notes import Note
from cobi_companion.rules.cobra.tables import CobraTables
from cobi_companion.rules.cobra.turns import CobraGame
from cobi_companion.rules.dice import Need
from cobi_companion.rules.errors import RulesError

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

log = logging.getLogger("cobi-companion")

BUTTON = {Nation.GERMAN: "axis", Nation.ALLIED: "allies"}     # whose dice button


@dataclass
class CobraSession:
    """A Cobra game as the box keeps it: saved in the battle slot after every action."""

    game: CobraGame
    id: str = field(default_factory=lambda: secrets.token_hex(6))
    log: list[Line] = field(default_factory=list)     # typed entries (old saves: strings)
    # The lines' data, made once for each line (shared by the snapshots of the session).
    _saved_log: SavedLog = field(default_factory=lambda: SavedLog(None), repr=False,
                                 compare=False)
    # The lists of its data that only grow, appended by the store (device/ports/grown.py).
    grows: ClassVar[tuple[str, ...]] = (
        "log", "cobra/weather", "cobra/carpets", "cobra/exits", "cobra/replacements",
        "cobra/scoresheet/awards", "cobra/scoresheet/rolls")

    def snapshot(self) -> CobraSession:
        """The game as it stands now, made data later (once the frame is on the panel): the
        game is frozen, the log a pointer copy."""
        return replace(self, log=list(self.log))

    # Saved by hand, not by its types (rules/saved.py): the game's tag, its log's cache.
    def to_dict(self) -> dict[str, Any]:
        return {"game": "cobra", "id": self.id, "cobra": self.game.to_dict(),
                "log": self._saved_log(self.log)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CobraSession:
        return cls(CobraGame.from_dict(data["cobra"]), str(data["id"]),
                   [loaded(line) for line in data["log"]])


def session(app: App) -> CobraSession:
    """The Cobra game in play: Cobra's screens are only reached with one."""
    if not isinstance(app.game, CobraSession):
        raise RuntimeError("no Cobra game in play")
    return app.game


def save(app: App, line: LogEntry) -> None:
    """Commit the game after a completed action, with the rolls it made and its line of the
    log, under the game turn."""
    app.commit(entry("log_game_turn", turn=session(app).game.turn, line=line))


# The owner's Cobra tables, read once for each app: Cobra's, kept here, where the core does not
# know of them (a weak key: an app that is gone takes its tables with it).
_TABLES: WeakKeyDictionary[App, CobraTables] = WeakKeyDictionary()


def tables(app: App) -> CobraTables:
    if (read := _TABLES.get(app)) is None:
        # From the snapshot of the last check while the tables files are as they were.
        folders = default_folders() if app.card_folders is None else app.card_folders
        read, problems = cobra_in_play(folders, snapshot_file("box-cobra"))
        _TABLES[app] = read
        for problem in problems:
            # the journal's: the tables are read for a Cobra game, which has no battle log
            # this could join (and a file's problem is the loader's English)
            log.info("Cobra tables skipped: %s", problem)
    return read


def tables_read(app: App) -> CobraTables | None:
    """The Cobra tables `app` has read, if it has read them (None: no Cobra game asked)."""
    return _TABLES.get(app)


def header(app: App, title: str) -> Header:
    game = session(app).game
    player = game.phase.player
    return Header(title, None, BUTTON[player],
                  joined(" ", app.t("game_turn", n=game.turn),
                         app.t("cobra_short_" + player.value)))


@dataclass
class Reading(Scroll):
    """Text to scroll with the knob under the Cobra header; OK goes on."""

    def view(self, app: App) -> View:
        return Lines(header(app, self.title), tuple(self.lines), self.index, app.t("ok_next"))


def reading(app: App, title: str, texts: Sequence[str], then: Screen) -> Reading:
    return Reading(title, list(texts), then)


def refusal(app: App, exc: RulesError, then: Screen) -> Reading:
    """The rules' reason, then `then`: a refusal returns to the choice it came from."""
    return reading(app, app.t("not_possible"), [app.say(exc)], then)


def result_screen(app: App, title: str, word: str, detail: str, notes: Sequence[Note],
                  home: Next, read_as: str | None = None) -> Screen:
    """A roll's outcome big under `title`, then the rules' notes to read (under `read_as`,
    else the same title), then the phase indicator (`home`)."""
    return Show([BigWord(header(app, title), word, detail)],
                lambda: reading(app, read_as or title, [app.say(n) for n in notes], home()))


def press_for(app: App, nation: Nation, lines: Sequence[str], need: Need,
              then: Callable[[int], Screen], home: Next) -> Screen:
    """Wait for `nation`'s dice button, then roll one die (or dial a real one); back: the
    phase indicator (`home`)."""
    side = BUTTON[nation]

    def pressed() -> Screen:
        return face_for(app, need, side, then)
    press = app.t("press_to_roll", side=app.side_word(nation.value, "cobra_"))
    shown = Lines(header(app, app.t("roll")), (*lines, press))
    return awaited(app, side, WaitPress(side, shown, pressed, back=home,
                                        says="say_press_roll", who=nation.value))


def german_ma(app: App, ma: str) -> str:
    """The German movement allowance in the weather: full, or a fraction off it."""
    return app.t("ma_full") if ma == "full" else ma


class Number(Count):
    """A count under the Cobra header."""

    def view(self, app: App) -> View:
        return BigWord(header(app, self.title), str(self.value), self.hint)


def number(app: App, title: str, value: int, then: Callable[[int], Screen], home: Next,
           low: int = 0, high: int = 99) -> Number:
    """A count under the Cobra header; back: the phase indicator (`home`)."""
    return Number(title, value, low, high, then, home, app.t("turn_ok"))


class Phased(Choose):
    """A choice under the Cobra header (game turn and player)."""

    def view(self, app: App) -> View:
        hint = self.hints[self.index] if self.index < len(self.hints) else ""
        return Menu(header(app, self.title), tuple(self.items), self.index,
                    hint or self.hint or app.t("ok_choose"))

