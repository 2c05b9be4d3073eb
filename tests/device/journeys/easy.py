"""The tour's journey through an Easy battle: the roster's rows, a tied roll-off, played on to
round ROUNDS with PIECES of one model, its log read at its end, then the same armies again."""
from __future__ import annotations

from collections.abc import Callable

from cobi_companion.device.core.views import Lines
from cobi_companion.rules import house
from tour import PIECES, ROUNDS, Guide, Tour, dice


def pass_and_say_yes(guide: Guide) -> Callable[[str], bool]:
    """Pass, and yes when asked whether to."""
    return lambda item: item == guide.t("pass") or (
        item == guide.t("yes") and guide.view.header.title == guide.t("pass_ask"))


def journey_easy(tour: Tour) -> None:
    """An Easy battle: the roster's rows (each side needs a vehicle, the Rules row to the Tank
    Game and back, a piece too many removed), PIECES of one model; the roll-off tied first;
    passes on to round ROUNDS, then fire and moves, the dice fairness and the log read, and
    the battle ended. Then a battle with the same armies again; then the box starts again,
    real dice on, and the battle is resumed."""
    guide = tour.guide(tour.box("easy", [3, 3, *dice(4)]), "easy", seed=11)
    guide.choose(tour.t("new"))
    guide.press("ok")                                   # no pieces yet: the roster says so
    guide.play(3, until=lambda: type(guide.app.screen).__name__ == "Roster")
    for _ in range(2):                                  # the Tank Game, and back
        guide.go_to(guide.row_of("rules"))
        guide.press("ok")
        if guide.app.screen.level == "tank":            # no pieces: each side needs a piece
            guide.press("cw", "ok")
            guide.play(3, until=lambda: type(guide.app.screen).__name__ == "Roster")
    house_rules_tried(guide, "easy")
    guide.many_pieces(PIECES + 1)
    guide.go_to(guide.row_of("remove"))                 # the last one out again
    guide.press("ok", "ccw", "ok")
    guide.roster(guide.app.screen)
    guide.prefer = pass_and_say_yes(guide)
    guide.play(900, until=lambda: guide.app.state is not None and
               guide.app.state.round >= ROUNDS)
    guide.prefer = lambda item: False
    guide.play(300)
    for item in ("dice_stats", "battle_log"):
        for _ in range(4):      # back to the battle's menu from wherever the guide stopped
            guide.press("back")
            if guide.choose(tour.t(item)):
                break
        guide.play(200, until=lambda: not isinstance(guide.view, Lines))
    guide.press("back")
    guide.choose(tour.t("end_battle"))
    guide.choose(tour.t("yes"))                         # asked first, "no" lit
    guide.choose(tour.t("new"))                         # the same armies again
    guide.choose(tour.t("same_armies"))
    guide.play(150)
    resumed(tour, "easy", 150)


def house_rules_tried(guide: Guide, level: str) -> None:
    """The roster's House rules row: each of the level's house rules turned through all its
    values (each one's meaning on the hint) back to the rules' own reading, then the first one
    changed for the battle (its line in the log, on the status board), then Done."""
    guide.go_to(guide.row_of("house"))
    guide.press("ok")
    for rule in house.for_level(level):
        guide.press(*["ok"] * len(rule.values), "cw")
    guide.press("ok")                                   # Done: back on the roster
    guide.press("ok", "ok", "ccw", "ok")                # the first rule once, then Done


def resumed(tour: Tour, name: str, steps: int) -> None:
    """The box `name` started again, real dice on: the battle or game it saved goes on."""
    guide = tour.guide(tour.box(name), name, seed=len(name))
    guide.choose(tour.t("settings"))
    guide.choose(tour.t("axis_dice"))           # each side: Buttons → Real
    guide.choose(tour.t("allies_dice"))
    guide.press("back")
    item = next((item for item in guide.view.items if item.startswith(tuple(
        tour.t(key) for key in ("resume", "resume_match", "resume_cobra")))), None)
    if item is not None:
        guide.choose(item)
        guide.play(steps)
