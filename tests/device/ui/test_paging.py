"""A title too long for the header band is shown in turns of whole words: the main loop turns
the page every PAGE_S while the screen stays, and starts again at the first turn on a new
screen. Real box, mock pins, the loop's clock moved by hand."""
from __future__ import annotations

from cobi_companion.device.core.loop import PAGE_S
from cobi_companion.device.ports.events import Tick
from cobi_companion.device.ui.renderer import frame, render
from cobi_companion.device.ui.trouble import notice

LONG = "Panzerwerfer 12 → Sturmgeschütz 13: the longest labels fire"


def title_shown(table) -> str:
    view = table.box.loop.last_view
    return next(piece.text for piece in frame(view).shown if piece.place == "title")


def long_notice(table_at, dark: bool = False):
    """A box on a clock the test turns, showing a notice whose title is LONG (on a panel gone
    dark, with `dark`): the table, its loop and the clock (a list, so the test can move it
    on)."""
    table = table_at([3])
    loop, app = table.box.loop, table.box.app
    now = [100.0]
    loop.clock = lambda: now[0]
    menu = app.screen
    app.screen = notice(app, LONG, ["a line"], lambda: menu)
    loop.off = dark
    loop.draw()
    return table, loop, now


def test_a_long_title_turns_while_the_screen_stays(table_at) -> None:
    table, loop, now = long_notice(table_at)
    assert loop.paging
    turns = [title_shown(table)]
    first = table.display.image.tobytes()
    for _ in range(5):
        now[0] += PAGE_S
        loop.step(Tick(now[0]))
        turns.append(title_shown(table))
    assert " ".join(dict.fromkeys(turns)) == LONG            # every word, in turns, in order
    assert turns[len(dict.fromkeys(turns))] == turns[0]      # and round again
    now[0] += PAGE_S / 4
    loop.step(Tick(now[0]))                                  # not yet time: the same turn
    assert title_shown(table) == turns[5]
    while title_shown(table) != turns[0]:
        now[0] += PAGE_S
        loop.step(Tick(now[0]))
    assert table.display.image.tobytes() == first            # equal views, equal pixels


def test_a_new_screen_starts_at_the_first_turn_and_a_short_title_never_turns(table_at) -> None:
    table, loop, now = long_notice(table_at)
    now[0] += PAGE_S
    loop.step(Tick(now[0]))
    assert loop.last_view.header.page == 1
    table.press("ok")                                        # the notice goes: the menu
    assert loop.last_view.header.page == 0 and not loop.paging
    frames = loop.frames
    now[0] += 10 * PAGE_S
    loop.step(Tick(now[0]))
    assert loop.frames == frames                             # nothing to turn: no new frame
    app = table.box.app
    menu = app.screen
    app.screen = notice(app, LONG, ["a line"], lambda: menu)
    loop.draw()
    assert loop.last_view.header.page == 0
    assert render(loop.last_view).tobytes() == table.display.image.tobytes()


def test_a_dark_panel_turns_nothing(table_at) -> None:
    _, loop, now = long_notice(table_at, dark=True)          # the screen went dark
    frames = loop.frames
    for _ in range(3):
        now[0] += PAGE_S
        loop.step(Tick(now[0]))
    assert not loop.paging and loop.frames == frames
