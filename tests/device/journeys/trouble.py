"""The tour's journey through the screens of what is wrong with the box, and the last frame
of a stop."""
from __future__ import annotations

import os
from pathlib import Path

from cobi_companion.cards import CardProblem, check
from cobi_companion.cards.book import more_problems
from cobi_companion.device.core.app import Unresumable
from cobi_companion.device.core.views import BigWord, Header
from cobi_companion.device.games.home import kept_battle, start_menu
from cobi_companion.device.ports.store import StoreProblem
from cobi_companion.device.ui.renderer import last_row
from cobi_companion.device.ui.trouble import notice, saving_notice
from tour import Tour, words_of


def journey_trouble(tour: Tour) -> None:
    """What the box says when something is wrong with it (as tests/device/ui/test_trouble_frames.py
    draws them: its first screens when its pins, its card files, its saved battle or its parts
    fail), the title of a start and the last frame of a stop."""
    table = tour.box("trouble")
    guide = tour.guide(table, "trouble")
    box, app = table.box, table.box.app
    box.pin_problem = "buttons.axis (GPIO 17): GPIO busy"
    menu = app.screen
    saved = box.store.path
    problems = [StoreProblem("moved", saved.with_suffix(".unreadable-1"),
                             detail="file is not a database"),
                *(StoreProblem("cannot_save", saved, folder)
                  for folder in words_of("folder_")),
                StoreProblem("cannot_save", saved, detail="Input/output error"),
                StoreProblem("saving_again", saved)]
    off = [(part, f"GPIO {pin}: GPIO busy") for part, pin in (("buzzer", 12), ("leds", 5))]
    tour.system(box.pin_problem, *(why for _, why in off),
                *(word for problem in problems for word in (problem.path, problem.detail)))
    box.store.problems, box.store.problem = problems, "the saved battle: see above"
    app.book.problems = broken_card_files(tour.folder / "broken-cards")
    tour.system(*map(str, app.book.problems), *(p.path for p in app.book.problems))
    box.unusable, box.state_dir = ["/boot/firmware/cobi/state: Permission denied"], saved.parent
    tour.system(*box.unusable, saved.parent)
    guide.read_only(box.pins_trouble(lambda: menu))    # its pins stay busy: OK is no use
    guide.show(box.first_screens(off, (), lambda: menu), steps=100)
    # saving stopped during play, and works again: notices over the screen of the moment
    guide.show(saving_notice(app, False, app.screen))
    guide.show(saving_notice(app, True, app.screen))
    # a saved battle that cannot go on now: why (each reason), keep it or put it away (asked
    # first, answered no), and the question before a new game would put it away (no)
    for kept in (Unresumable("card", card="9100"), Unresumable("format", format="7"),
                 Unresumable("unreadable", detail="BadRow: battle row 'b1': not JSON")):
        app.kept = kept
        guide.read_only(kept_battle(app))
    app.screen = start_menu(app)
    box.loop.draw()
    guide.choose(tour.t("kept_battle"))
    guide.press(*["cw"] * last_row(guide.view), "ok", "cw", "ok", "ok")
    guide.choose(tour.t("new"))
    guide.press("ok")
    app.kept, app.screen = None, menu
    box.loop.draw()
    guide.show(notice(app, app.t("reloaded"), [app.t("reloaded_counts", files=2, cards=12),
                                               app.t("restart_needed"),
                                               app.t("sim_restart_needed")], lambda: menu))
    guide.keep(BigWord(Header("COBI Companion"), "COBI"))    # boot.py's title
    table = tour.box("stop")
    guide = tour.guide(table, "trouble")
    box, app = table.box, table.box.app
    box.loop.farewell()                                      # no battle: nothing to say
    guide.choose(tour.t("new"))
    guide.roster(app.screen)                                  # the battle begins
    box.loop.farewell()                                       # the battle is saved
    box.store.can_save = False                                # as after a failed write
    box.loop.farewell()


def broken_card_files(folder: Path) -> list[CardProblem]:
    """What the loader says of card files it cannot use: a FIFO named like a card and a card
    nested far too deep (the box's own words, as its first screens show them)."""
    folder.mkdir(parents=True, exist_ok=True)
    os.mkfifo(folder / "9001-fifo.toml")
    (folder / "9002-deep.toml").write_text("x = " + "[" * 600 + "]" * 600 + "\n")
    # and the line after a file's first MOST_PROBLEMS problems, saying how many more it has
    return [*check(folder)[1], *more_problems(str(folder / "tables" / "soft-targets.toml"),
                                              29980)]
