"""Screens that say what is wrong with the box itself: a settings file, a pin, the card, a part
switched off. Each says what is wrong, where (file and line, or pin) and what to do, wrapped to
the panel's width; the knob scrolls, OK tries again or goes on, and play goes on where it can.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cobi_companion.device.core.app import App, Screen
from cobi_companion.device.core.views import Lines, View
from cobi_companion.device.core.worded import joined
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ports.store import StoreProblem
from cobi_companion.device.ui.scroll import scrolled

if TYPE_CHECKING:
    from cobi_companion.cards.book import CardProblem


@dataclass
class Trouble(Screen):
    """What is wrong, in lines the knob scrolls. OK runs `ok` (try again, or go on); a long
    press runs `back` where there is a way on without what failed."""

    title: str
    paragraphs: Sequence[str]
    ok: Callable[[], Screen]
    back: Callable[[], Screen] | None = None
    hint_key: str = "ok_retry"
    index: int = 0                                # the first row shown

    def view(self, app: App) -> View:
        hint = app.t(self.hint_key if self.back is None else "ok_retry_hold_skip")
        return Lines(app.header(self.title), tuple(self.paragraphs), self.index, hint)

    def on(self, app: App, key: Key) -> Screen:
        if key in (Key.CW, Key.CCW):
            self.index = scrolled(self.view(app), self.index, key)
        elif key is Key.OK:
            return self.ok()
        elif key is Key.BACK and self.back is not None:
            return self.back()
        return self


def notice(app: App, title: str, paragraphs: Sequence[str],
           then: Callable[[], Screen]) -> Trouble:
    """A notice wrapped to the panel: OK goes on."""
    return Trouble(title, paragraphs, then, hint_key="ok_next")


@dataclass
class SavingNotice(Trouble):
    """Saving stopped, or works again, shown over the screen of the moment (`under`): OK goes
    back to it, as it was. A newer notice replaces an older one still showing."""

    under: Screen | None = None


def saving_notice(app: App, works: bool, under: Screen) -> Screen:
    if isinstance(under, SavingNotice) and under.under is not None:
        under = under.under
    if works:
        title, lines = app.t("saving_again"), [app.t("saving_again_text")]
    else:
        failed = [problem for problem in getattr(app.store, "problems", ())
                  if problem.kind == "cannot_save"]
        lines = [app.t("saving_failed_text", why=_why(app, failed[-1]))] if failed else []
        title, lines = app.t("cannot_save"), [*lines, app.t("saving_goes_on")]
    back = under
    return SavingNotice(title, lines, lambda: back, hint_key="ok_next", under=under)


def _why(app: App, problem: StoreProblem) -> str:
    return app.t(f"folder_{problem.folder}") if problem.folder else problem.detail


def card_problems(app: App, problems: Sequence[CardProblem]) -> list[str]:
    """The card files' problems as the panel shows them: each as the loader says it, and the
    line that stands for a file's problems not kept (cards/book.py) in the app's words."""
    return [app.t("cards_more", path=problem.path, n=problem.more) if problem.more
            else str(problem) for problem in problems]


def store_problems(app: App, problems: Sequence[StoreProblem]) -> str:
    """What went wrong with the saved battle, in one line in the app's words: what is wrong
    with the folder where the box knows, else the system's own words."""
    def said(problem: StoreProblem) -> str:
        if problem.kind == "moved":
            return app.t("store_moved", path=problem.path, detail=problem.detail)
        if problem.kind == "saving_again":
            return app.t("store_saving_again", path=problem.path)
        return app.t("store_cannot_save", why=_why(app, problem), path=problem.path)
    return joined("; ", *(said(problem) for problem in problems))


@dataclass
class Still(Screen):
    """A view that waits for something outside the knob (the Pi switching off): keys do
    nothing."""

    shown: View

    def view(self, app: App) -> View:
        return self.shown

    def on(self, app: App, key: Key) -> Screen:
        return self
