"""The box's own rows of the settings menu: the screen's idle switch-off, the files in use,
restart and power off. They know nothing of battles."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, PowerRequest, Screen
from cobi_companion.device.core.views import BigWord
from cobi_companion.device.core.worded import joined
from cobi_companion.device.ui.trouble import Still, Trouble, notice
from cobi_companion.device.ui.widgets import confirm

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

# The idle minutes before the panel goes dark, turned through in the settings menu (0 never).
SCREEN_OFF_STEPS = (5, 10, 30, 60, 0)

Row = tuple[str, Callable[[], Screen | None]]


def screen_off_label(app: App) -> str:
    minutes = app.settings.screen_off_min
    value = app.t("never") if minutes == 0 else app.t("minutes", n=minutes)
    return joined(": ", app.t("screen_off"), value)


def next_screen_off(minutes: int) -> int:
    """The next step after `minutes` (a value from a file that is no step goes to the first)."""
    steps = SCREEN_OFF_STEPS
    return steps[(steps.index(minutes) + 1) % len(steps)] if minutes in steps else steps[0]


def files_in_use(app: App, back: Next) -> Screen:
    """Which config files and card folders the box read, in order, and what it skipped."""
    sources = app.sources
    paragraphs = [app.t("settings_files")]
    paragraphs += [str(path) for path in sources.files] or [app.t("built_in")]
    paragraphs.append(app.t("card_folders"))
    paragraphs += [str(path) for path in sources.card_folders] or [app.t("shipped_only")]
    if sources.skipped:
        paragraphs.append(app.t("skipped_files"))
        paragraphs += list(sources.skipped)
    return Trouble(app.t("files_in_use"), paragraphs, back, hint_key="ok_back")


def power(app: App, action: str, back: Next) -> Screen:
    """Ask first; on yes the main loop saves and asks the system to switch off or restart."""
    def answered() -> Screen:
        def refused(why: str) -> Screen:
            return notice(app, app.t("not_possible"), [app.t("power_failed"), why], back)
        app.power_request = PowerRequest(action, refused)
        return Still(BigWord(app.header(app.t(action)), app.t(f"{action}_word"),
                             app.t("power_wait")))
    return confirm(app, app.t(f"{action}_ask"), answered, back,
                   lost="box_off_kept" if action == "poweroff" else "box_restart_kept")


def rows(app: App, again: Callable[[int], Screen], first: int) -> list[Row]:
    """The rows, from index `first` of the settings menu; `again(i)` redraws the menu at i."""
    def screen_off() -> None:
        app.settings.screen_off_min = next_screen_off(app.settings.screen_off_min)

    return [
        (screen_off_label(app), screen_off),
        (app.t("files_in_use"), lambda: files_in_use(app, lambda: again(first + 1))),
        (app.t("reboot"), lambda: power(app, "reboot", lambda: again(first + 2))),
        (app.t("poweroff"), lambda: power(app, "poweroff", lambda: again(first + 3))),
    ]

