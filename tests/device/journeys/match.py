"""The tour's journey through a match given up twice."""
from __future__ import annotations

from cobi_companion.rules.status import Side
from tour import Guide, Tour


def journey_match(tour: Tour) -> None:
    """A match: each battle played a while and given up (no, then yes, when asked); the box
    starts again between them."""
    guide = tour.guide(tour.box("match"), "match", seed=3)
    guide.choose(tour.t("new_match"))
    for seed, side in ((4, Side.AXIS), (5, Side.ALLIES)):     # the same team wins both
        guide.play(150)
        give_up(guide, side, tour.t("no"))
        give_up(guide, side, tour.t("yes"))
        guide = tour.guide(tour.box("match"), "match", seed=seed)         # started again
        guide.choose(tour.t("resume_match"))
        guide.play(12, until=lambda app=guide.app: app.state is None or
                   app.state.winner is None)
    guide.play(30)


def give_up(guide: Guide, side: Side, answer: str) -> None:
    """`side` gives up (from the menu of a long press), asked first: `answer`; the battle's
    end is read."""
    for _ in range(8):                  # long presses: back to the battle, then its menu
        if guide.view.header.title == guide.t("menu"):
            break
        guide.press("back")
    if guide.choose(guide.t("give_up")):
        guide.choose(guide.t("gives_up", side=guide.app.side_word(side)))
        guide.choose(answer)
    guide.play(3)
