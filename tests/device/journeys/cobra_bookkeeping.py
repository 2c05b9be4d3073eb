"""The tour's journey through the campaign's bookkeeping (games/cobra/bookkeeping.py): the
delay unit placed, read and refused, rail to its capacity and over and taken back, each
reminder's rule, and Cherbourg's one supplied attack and its refusal."""
from __future__ import annotations

from cobi_companion.device.core.views import Menu
from cobi_companion.device.games.cobra.session import CobraSession
from tour import Tour

from journeys.cobra import on

REMINDERS = ("remind_gt1_german_moves", "remind_paras_stay", "remind_paras_one_hex",
             "remind_land_half_ma", "remind_in_column", "remind_delays_removed")


def journey_cobra_bookkeeping(tour: Tour) -> None:
    games = {"books-delay": on("campaign", 2, 2), "books-gt1": on("campaign", 1, 3),
             "books-paras": on("campaign", 1, 8), "books-paras2": on("campaign", 2, 7),
             "books-end": on("campaign", 7, 10), "books-rail": on("campaign", 3, 2),
             "books-rail-mech": on("campaign", 3, 4)}      # only a mechanized unit (4.0 G5b)
    for name, game in games.items():
        tour.save(name, CobraSession(game).to_dict())
        guide = tour.guide(tour.box(name), "cobra")
        guide.choose(tour.t("resume_cobra"))
        for key in REMINDERS:
            if guide.choose(tour.t(key)):
                guide.play(6, until=lambda guide=guide: isinstance(guide.view, Menu))
        if guide.choose(tour.t("delay_unit", n=1, most=6)):
            guide.choose(tour.t("rule"))
            guide.play(6, until=lambda guide=guide: isinstance(guide.view, Menu))
            guide.choose(tour.t("delay_place"))
            guide.follow(tour.t("delay_placed", n=1, most=6))       # a second: refused
            guide.play(6, until=lambda guide=guide: isinstance(guide.view, Menu))
        if guide.choose(tour.t("rail_row", left=2, most=2)):
            foot = () if name == "books-rail-mech" else ("rail_foot",)
            for key in ("rail_mech", *foot, "rule", "rail_back"):
                guide.follow(tour.t(key))
            guide.play(6, until=lambda guide=guide: isinstance(guide.view, Menu))
    tour.save("books-cherbourg", CobraSession(on("campaign", 5, 3)).to_dict())
    guide = tour.guide(tour.box("books-cherbourg", [4] * 50), "cobra")
    guide.choose(tour.t("resume_cobra"))
    for supply in ("cherbourg_supply", "cherbourg_used"):
        guide.follow(tour.t("attack"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"))
        guide.follow(tour.t("roll_attack"), tour.t(supply))
        guide.play(12, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub" or
                   (isinstance(guide.view, Menu) and guide.view.items[-1] == tour.t(
                       "unsupplied")))
        if type(guide.app.screen).__name__ != "Hub":
            guide.press("back")

