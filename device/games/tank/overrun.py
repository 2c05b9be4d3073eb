"""A tank runs over figures and guns on the box (Tank Game rule 9).

The players set what is under the tank: how many of a squad's figures and where they are (in
the open, in soft cover, dug in; hard cover is refused by the rules). Then the figures' player
presses their button once for each visible figure, a gun's crew too: 5-6 and it is eliminated.
A gun itself and hidden figures roll nothing. Every check and every outcome is `rules.tank.overrun`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import LogValue, entry
from cobi_companion.device.core.replay import Replay
from cobi_companion.device.core.spoken import Spoken
from cobi_companion.device.core.spoken_log import said_of
from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll, View
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.battle import refuse, tank_battle
from cobi_companion.device.games.rolling import awaited, face_for
from cobi_companion.device.games.shots import Finish, down_said
from cobi_companion.device.ui.widgets import (
    Choose,
    Count,
    PickPieces,
    Show,
    WaitPress,
    notice,
)
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.dice import Need
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.tank import overrun
from cobi_companion.rules.tank.overrun import Cover, Overrun, Under

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

# Where the pieces under the tank are, as the screen offers it: (cover, dug in).
PLACES = {"open": (Cover.OPEN, False), "soft_cover": (Cover.SOFT, False),
          "dug_in": (Cover.OPEN, True), "hard_cover": (Cover.HARD, False)}
SHORT = {Cover.OPEN: "short_open", Cover.SOFT: "short_soft_cover",
         Cover.HARD: "short_hard_cover"}


@dataclass
class OverrunPick(PickPieces):
    """The enemy figures and guns with how much of each is under the tank; OK on a piece sets
    it (or takes it out again), "Run over!" rolls."""

    tank: str
    done: Finish
    back: Next
    under: dict[str, Under] = field(default_factory=dict)
    index: int = 0

    def pieces(self, app: App) -> list[Piece]:
        return overrun.candidates(tank_battle(app).battle, self.tank_piece(app))

    def tank_piece(self, app: App) -> Piece:
        return tank_battle(app).battle.get(self.tank)

    def text(self, app: App, piece: Piece) -> str:
        u = self.under.get(piece.label)
        if u is None:
            return piece.label if piece.model else f"{piece.label} ({piece.figures or 0})"
        # a squad's figures under the tank (None: all it has, a single figure among them)
        parts = [] if piece.model else [str(piece.figures or 0 if u.figures is None
                                             else u.figures)]
        parts.append(app.t("short_dug_in" if u.dug_in else SHORT[u.cover]))
        return joined(": ", f"• {piece.label}", joined(" · ", *parts))

    def view(self, app: App) -> View:
        items = (*(self.text(app, p) for p in self.pieces(app)), app.t("run_over_now"))
        self.index = min(self.index, len(items) - 1)
        return Menu(app.header(app.t("run_over")), items, self.index,
                    app.t("overrun_hint"))

    def set_up(self, app: App, piece: Piece) -> Screen:
        """How many of a squad's figures (a gun goes whole), then where they are."""
        def placed(figures: int | None) -> Screen:
            names = [n for n in PLACES if not piece.model or n != "dug_in"]
            return Choose(app.t("where"), [app.t(f"sit_{n}") for n in names],
                          lambda i: self.put(app, Under(piece, figures, *PLACES[names[i]])),
                          back=lambda: self)
        left = piece.figures or 0
        if piece.model or left <= 1:       # a gun goes whole; a destroyed gun's crew do not
            return placed(None)
        return Count(piece.label, left, 1, left, placed, lambda: self,
                     app.t("under_tank", label=piece.label))

    def put(self, app: App, under: Under) -> Screen:
        try:
            overrun.check(self.tank_piece(app), (under,))
        except RulesError as exc:
            return refuse(app, app.say(exc), lambda: self)
        return self.set(app, under.piece.label, under)

    def start(self, app: App) -> Screen:
        if not self.under:
            return notice(app, app.t("not_possible"), [app.t("nothing_run_over")], lambda: self)
        tank = self.tank_piece(app)
        under = tuple(self.under[p.label] for p in self.pieces(app) if p.label in self.under)
        run = OverrunRun(tank, self.done, Replay(
            lambda dice: overrun.overrun(tank, under, dice)))
        return run.next(app, None)


@dataclass
class OverrunRun(Screen):
    """The figures' player presses once for each figure under the tank; each roll stays on
    the screen until the next press; then the summary."""

    tank: Piece
    done: Finish
    replay: Replay[Overrun]

    @property
    def roller(self) -> str:
        return self.tank.side.enemy.value

    def title(self, app: App) -> str:
        return app.t("run_over")

    def next(self, app: App, shown: View | None) -> Screen:
        """The next roll waits for the figures' player; the first screen says the move is
        as in rough ground."""
        need = self.replay.need()
        if shown is None:
            first = (app.t("rough_move"),) if need is None else (
                app.t("rough_move"), app.t("press_roll", side=app.side_name(self.roller)))
            shown = Lines(app.header(self.title(app)), first)
            if need is None:
                return Show([shown], lambda: self.finished(app, None))
        if need is None:
            return self.finished(app, shown)
        return awaited(app, self.roller, WaitPress(self.roller, shown,
                                                   lambda: self.roll(app, need),
                                                   says="say_press_roll"))

    def roll(self, app: App, need: Need) -> Screen:
        def rolled(face: int) -> Screen:
            self.replay.add(face, need)
            more = self.replay.need() is not None
            if more:        # drawn at once, above whose button is next (the last: `finished`)
                app.speak(figure_said(need, face))
            return self.next(app, self.roll_view(app, need, face, more))
        return face_for(app, need, self.roller, rolled)

    def roll_view(self, app: App, need: Need, face: int, more: bool) -> View:
        """'Rifle 1 #2', the die, '5-6 eliminates', DOWN! or SAFE, and who presses next."""
        label, number = need.piece, need.figure
        word = app.t("DOWN") if overrun.eliminates(face) else app.t("SAFE")
        rule = app.t("eliminates")
        if not more:
            return Roll(app.header(app.t("figure_no", label=label, n=number)), (face,), rule,
                        "", word)
        return Roll(app.header(app.t("figure_no", label=label, n=number)), (face,),
                    app.t("press_roll", side=app.side_name(self.roller)), rule, word)

    def finished(self, app: App, last: View | None) -> Screen:
        result = self.replay.result
        assert result is not None
        state = tank_battle(app)
        state.battle = result.apply(state.battle)
        views: list[View] = [] if last is None else [last]
        views.append(overrun_outcome(app, result))
        app.cue("hit" if result.down else "miss", self.tank.side.value)
        pieces = tuple(f"{p.label} ({p.figures})" for p in result.pieces)
        counts: dict[str, LogValue] = {"tank": self.tank.label, "pieces": pieces,
                                       "rolled": result.rolled, "eliminated": result.eliminated}
        # the rules' summary names the guns only when one was eliminated
        line = entry("log_runs_over_guns", **counts, guns=result.guns_eliminated) \
            if result.guns_eliminated else entry("log_runs_over", **counts)
        with app.frames_say():      # the last figure's die, then how many went down
            after = self.done(app, line)
        last_need = self.replay.needs[-1] if last is not None and self.replay.needs else None
        says = [] if last_need is None else [
            figure_said(last_need, self.replay.faces[-1])]
        return Show(views, lambda: after, animate=True, steps=True, play=True,
                    says=[*says, said_of(line)])

    @staticmethod
    def left(app: App, result: Overrun) -> str:
        parts = []
        for p in result.pieces:
            if p.after.gone:
                parts.append(app.t("out", label=p.after.label))
                continue
            left = app.t("left_n", label=p.after.label, n=p.after.figures or 0)
            if p.gun_eliminated:              # its crew fight on without it
                left = joined(", ", left, app.t("gun_destroyed"))
            parts.append(left)
        return joined(" · ", *parts)


def figure_said(need: Need, face: int) -> Spoken:
    """One figure's die in words: down, or safe."""
    return down_said(need.piece, need.figure or 1, overrun.eliminates(face))


def overrun_outcome(app: App, result: Overrun) -> BigWord:
    """An overrun's last screen, made from its trace alone (a resumed battle can show it
    again): which tank ran over them, how many went down and what is left, OK = next."""
    return BigWord(app.header(app.t("tank_runs_over", tank=result.tank)),
                   app.t("n_down", down=result.down, of=result.run_over),
                   OverrunRun.left(app, result), hint=app.t("ok_next"))
