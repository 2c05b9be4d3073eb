"""One answer for one shot (issue 35, point 6): HE's "-1 if the target is in any cover" is
derived the same way on the box and on the command line, from the same facts: the
situations of the pieces under the template (a rider's seat too), by one rule
(rules.tank.soft_fire.he_in_cover). The box's shot is played on gpiozero's mock pins; the
command line's is the real `cobi-companion` process. `--cover` that the situations do not
show is refused with the reason, never played differently from the box."""
from __future__ import annotations

from fractions import Fraction

from cobi_companion.cards import load_cards
from cobi_companion.device.config import Config, Game

from tests.device.games.test_tank_game_box import AXIS_FIRST, new_battle

HE_AT_BOFORS = ["odds", "--rules", "tank", "--attacker", "pz-iv-d", "--weapon", "he",
                "--under"]


def box_hit(table, situation_row: int) -> str:
    """The Pz IV D fires HE at the Bofors and its 3 crew in the situation on row
    `situation_row` (0 open, 1 soft cover, 2 hard cover), not over 100 cm: the hit's chance
    on the preview's details."""
    book = load_cards()
    new_battle(table, (book.get("pz-iv-d").name, "axis"), (book.get("bofors-37mm").name,
                                                           "allies"))
    table.press("ok", "ok", "ok", "ok", *["cw"] * situation_row, "ok")   # the gun, 3 crew
    table.press("ok", "ok")                    # Fire!, not over 100 cm: the preview
    table.press("ok")                          # its details
    return table.view.lines[0]


def test_he_at_a_gun_in_soft_cover_has_the_same_odds_on_the_box_and_the_cli(table_at, cli):
    run = cli(*HE_AT_BOFORS, "bofors-37mm:3@soft_cover", "--json")
    assert run.code == 0, run.err
    assert Fraction(run.json["hit_exact"]) == Fraction(1, 2)       # 3+, -1 for the cover
    assert box_hit(table_at([*AXIS_FIRST]), 1) == "To hit: 3 in 6"


def test_he_in_the_open_has_no_cover_on_either(table_at, cli, tmp_path):
    run = cli(*HE_AT_BOFORS, "bofors-37mm:3", "--json")
    assert run.code == 0, run.err
    assert Fraction(run.json["hit_exact"]) == Fraction(2, 3)
    assert box_hit(table_at([*AXIS_FIRST]), 0) == "To hit: 4 in 6"


def test_in_polish_the_box_counts_the_cover_too(table_at):
    table = table_at([*AXIS_FIRST], config=Config(game=Game(language="pl", rules="tank")))
    assert box_hit(table, 1) == "Trafienie: 3 z 6"


def test_cover_the_situations_do_not_show_is_refused_with_the_reason(cli):
    run = cli(*HE_AT_BOFORS, "bofors-37mm:3", "--cover")
    assert run.code == 2
    assert "@soft_cover or @hard_cover" in run.err
    agreed = cli(*HE_AT_BOFORS, "bofors-37mm:3@hard_cover", "--cover", "--json")
    assert agreed.code == 0 and Fraction(agreed.json["hit_exact"]) == Fraction(1, 2)


def test_the_rule_reads_each_piece_s_situations_and_a_rider_s_seat():
    from dataclasses import replace

    from cobi_companion.rules.battle import Piece, Ride
    from cobi_companion.rules.card import Kind
    from cobi_companion.rules.status import Side, Status
    from cobi_companion.rules.tank.soft_fire import Covered, he_in_cover

    squad = Piece("Rifle 1", Side.ALLIES, load_cards().get("rifleman"), Status(), 2)
    assert not he_in_cover((Covered(squad, 2),))
    assert he_in_cover((Covered(squad, 2), Covered(squad, 1, ("soft_cover",))))
    loaded = replace(squad, riding=Ride("Sd.Kfz 1", Kind.OPEN_TOP))     # in hard cover
    assert he_in_cover((Covered(loaded, 2),))
    on_a_truck = replace(squad, riding=Ride("Truck 1", Kind.SOFT))      # in a soft vehicle
    assert not he_in_cover((Covered(on_a_truck, 2),))
