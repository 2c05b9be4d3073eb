"""Screens that say what is wrong with the box itself: a settings file, a pin, the card, a part
switched off. Each says what is wrong, where (file and line, or pin) and what to do, wrapped to
the panel's width; the knob scrolls, OK tries again or goes on, and play goes on where it can.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cobi_companion.device.core.app import App, Screen
from cobi_companion.device.core.views import Lines, View
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ports.store import StoreProblem
from cobi_companion.device.ui.renderer import LINE, font, text_width

LINE_WIDTH = 116       # the Lines view's text width beside the scroll marks
SHOWN = 4              # lines the Lines view shows at once


def wrap(text: str, width: int = LINE_WIDTH) -> list[str]:
    """`text` broken into lines of at most `width` pixels in the panel's line font: at spaces,
    and inside a word (a long path) only where a word alone is too long."""
    fnt = font(*LINE)
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if text_width(candidate, fnt) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = word
        while text_width(line, fnt) > width:      # a word longer than a line: cut it
            cut = len(line) - 1
            while cut > 1 and text_width(line[:cut], fnt) > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
    if line:
        lines.append(line)
    return lines


def wrapped(paragraphs: Sequence[str]) -> list[str]:
    return [line for paragraph in paragraphs for line in wrap(paragraph)]


@dataclass
class Trouble(Screen):
    """What is wrong, in lines the knob scrolls. OK runs `ok` (try again, or go on); a long
    press runs `back` where there is a way on without what failed."""

    title: str
    paragraphs: Sequence[str]
    ok: Callable[[], Screen]
    back: Callable[[], Screen] | None = None
    hint_key: str = "ok_retry"
    index: int = 0
    lines: list[str] = field(init=False)          # the paragraphs wrapped to the panel

    def __post_init__(self) -> None:
        self.lines = wrapped(self.paragraphs)

    def view(self, app: App) -> View:
        hint = app.t(self.hint_key if self.back is None else "ok_retry_hold_skip")
        return Lines(app.header(self.title), tuple(self.lines), self.index, hint)

    def on(self, app: App, key: Key) -> Screen:
        if key is Key.CW:      # stop while the screen is still full
            self.index = min(self.index + 1, max(0, len(self.lines) - SHOWN))
        elif key is Key.CCW:
            self.index = max(self.index - 1, 0)
        elif key is Key.OK:
            return self.ok()
        elif key is Key.BACK and self.back is not None:
            return self.back()
        return self


def notice(app: App, title: str, paragraphs: Sequence[str],
           then: Callable[[], Screen]) -> Trouble:
    """A notice wrapped to the panel: OK goes on."""
    return Trouble(title, paragraphs, then, hint_key="ok_next")


def store_problems(app: App, problems: Sequence[StoreProblem]) -> str:
    """What went wrong with the saved battle, in one line in the app's words: what is wrong
    with the folder where the box knows, else the system's own words."""
    def said(problem: StoreProblem) -> str:
        if problem.kind == "moved":
            return app.t("store_moved", path=problem.path, detail=problem.detail)
        why = app.t(f"folder_{problem.folder}") if problem.folder else problem.detail
        return app.t("store_cannot_save", why=why, path=problem.path)
    return "; ".join(said(problem) for problem in problems)


@dataclass
class Still(Screen):
    """A view that waits for something outside the knob (the Pi switching off): keys do
    nothing."""

    shown: View

    def view(self, app: App) -> View:
        return self.shown

    def on(self, app: App, key: Key) -> Screen:
        return self
