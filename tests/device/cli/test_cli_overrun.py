"""The Tank Game's overrun (rule 9) through the real `cobi-companion overrun` command."""
from __future__ import annotations

import pytest
from cobi_companion.rules.status import STATUS_WORDS
from cobi_companion.rules.tank.overrun import Cover

ROUGH = "moving over pieces counts as rough ground: Move in Rough -5 cm on 2477 Tiger I"


def overrun(*args):
    return ["overrun", "--tank", "2477", *args]


def test_a_squad_of_three_in_the_open_loses_two(cli):
    run = cli(*overrun("--under", "rifleman:3@open", "--dice", "5,2,6", "--json"))
    assert run.code == 0, run.err
    assert run.err == ""
    data = run.json
    assert (data["level"], data["action"], data["tank"], data["card"]) == \
        ("tank", "overrun", "Tiger 1", "2477 Tiger I")
    assert data["rough"] == ROUGH
    assert data["dice"] == [5, 2, 6]
    assert (data["rolled"], data["eliminated"], data["guns_eliminated"]) == (3, 2, 0)
    assert data["summary"] == "rolled 3, eliminated 2"
    [squad] = data["pieces"]
    assert (squad["piece"], squad["kind"], squad["cover"], squad["hidden"], squad["dug_in"]) == \
        ("Rifle 1", "figure", "open", False, False)
    assert [(r["figure"], r["roll"], r["eliminated"]) for r in squad["rolls"]] == \
        [(1, 5, True), (2, 2, False), (3, 6, True)]
    assert (squad["figures"], squad["eliminated"], squad["figures_before"],
            squad["figures_after"]) == (3, 2, 3, 1)
    assert squad["outcome"] == "rolled 3, 2 eliminated (5-6); 1 is placed beside the tank"
    assert squad["status_after"] == []


def test_the_text_gives_each_roll_the_outcome_the_summary_and_rough_ground(cli):
    """Rule 9: "Anti-tank guns and the like in the open or soft cover are automatically
    eliminated"; its crew are figures: "Figures roll a dice (5-6 and they are eliminated)"."""
    run = cli(*overrun("--under", "rifleman:3@soft", "--under", "bofors-37mm@open",
                       "--dice", "5,2,6,1,5,3"))
    assert run.code == 0, run.err
    assert run.out.splitlines() == [
        "Tank Game: Tiger 1 (2477 Tiger I) runs over 2 pieces",
        "  Rifle 1 (Rifleman): 3 figures, in soft cover",
        "    figure 1: 5 eliminated",
        "    figure 2: 2 survives",
        "    figure 3: 6 eliminated",
        "    rolled 3, 2 eliminated (5-6); 1 is placed beside the tank",
        "  Bofors 1 (37 mm Bofors AT gun): the gun and 3 crew figures, in the open",
        "    crew figure 1: 1 survives",
        "    crew figure 2: 5 eliminated",
        "    crew figure 3: 3 survives",
        "    a gun in the open: eliminated, no roll; crew rolled 3, 1 eliminated (5-6); 2 are "
        "placed beside the tank",
        "  ==> rolled 6, eliminated 3, 1 gun eliminated",
        f"  Rough:   {ROUGH}",
        "  Rifle 1 is now: 1 of 3 figures left",
        "  Bofors 1 is now: destroyed; 2 of 3 crew figures left; the crew fight on as figures, "
        "without the gun",
        "  Dice used: 5 2 6 1 5 3",
    ]


def test_hidden_figures_roll_nothing(cli):
    run = cli(*overrun("--under", "rifleman:2+hidden", "--dice", "6", "--json"))
    assert run.code == 0, run.err
    data = run.json
    [squad] = data["pieces"]
    assert squad["hidden"] is True and squad["rolls"] == []
    assert (squad["eliminated"], squad["figures_after"]) == (0, 2)
    assert squad["outcome"] == ("hidden: 2 figures survive without a roll (vehicles cannot "
                                "see hidden figures)")
    assert data["dice"] == [] and data["summary"] == "rolled 0, eliminated 0"
    assert run.err.strip() == "note: 1 scripted dice not used: 6"


def test_a_gun_in_soft_cover_is_eliminated_and_its_crew_roll(cli):
    """Rule 9: the gun "automatically eliminated", each crew figure rolls: 5-6 eliminated."""
    run = cli(*overrun("--under", "bofors-37mm@soft", "--dice", "5,6,2", "--json"))
    assert run.code == 0, run.err
    data = run.json
    [gun] = data["pieces"]
    assert (gun["piece"], gun["kind"], gun["cover"]) == ("Bofors 1", "gun", "soft")
    assert [(r["figure"], r["roll"], r["eliminated"]) for r in gun["rolls"]] == \
        [(1, 5, True), (2, 6, True), (3, 2, False)]
    assert gun["outcome"] == ("a gun in soft cover: eliminated, no roll; crew rolled 3, 2 "
                              "eliminated (5-6); 1 is placed beside the tank")
    assert (gun["figures_before"], gun["figures_after"], gun["status_after"]) == \
        (3, 1, ["destroyed"])
    assert (gun["gun_eliminated"], gun["crew_fights_on"], gun["out"]) == (True, True, False)
    assert (data["eliminated"], data["guns_eliminated"], data["dice"]) == (2, 1, [5, 6, 2])
    assert data["summary"] == "rolled 3, eliminated 2, 1 gun eliminated"


def test_a_hidden_gun_is_eliminated_and_its_crew_need_no_roll(cli):
    """Rule 9: "Hidden figures always survive, they don't need to roll a die"."""
    run = cli(*overrun("--under", "bofors-37mm@soft+hidden", "--dice", "", "--json"))
    assert run.code == 0, run.err
    [gun] = run.json["pieces"]
    assert gun["rolls"] == [] and gun["figures_after"] == 3
    assert (gun["gun_eliminated"], gun["crew_fights_on"]) == (True, True)


def test_the_dice_go_piece_by_piece_in_the_order_given(cli):
    run = cli(*overrun("--under", "mg-gunner:2", "--under", "rifleman:2+hidden",
                       "--under", "rifleman:3@soft", "--dice", "1,5,6,2,4", "--json"))
    assert run.code == 0, run.err
    data = run.json
    assert [p["piece"] for p in data["pieces"]] == ["MG 1", "Rifle 1", "Rifle 2"]
    assert [[r["roll"] for r in p["rolls"]] for p in data["pieces"]] == [[1, 5], [], [6, 2, 4]]
    assert [p["eliminated"] for p in data["pieces"]] == [1, 0, 1]
    assert data["dice"] == [1, 5, 6, 2, 4] and data["eliminated"] == 2


def test_dug_in_survivors_stay_in_place(cli):
    run = cli(*overrun("--under", "mg-gunner:2+dug_in", "--dice", "3,6"))
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[1:5] == [
        "  MG 1 (Medium MG team): 2 figures, dug in, in the open",
        "    figure 1: 3 survives",
        "    figure 2: 6 eliminated",
        "    rolled 2, 1 eliminated (5-6); 1 stays in place, dug in, and pops up after the tank",
    ]
    assert "  ==> rolled 2, eliminated 1" in lines


def test_too_few_dice_is_refused_like_resolve(cli):
    run = cli(*overrun("--under", "rifleman:3", "--dice", "5,6"))
    assert run.code == 2 and run.out == ""
    assert run.err.strip() == (
        "cobi-companion: too few scripted dice: 2 faces given, ran out at the defender D6 for "
        "Rifle 1 figure 3 (run over by Tiger 1: 5-6 eliminates) roll")


@pytest.mark.parametrize(("args", "message"), [
    (overrun("--under", "rifleman:2@hard"),
     "Rifle 1 is in hard cover: hard cover blocks the tank's move"),
    (overrun("--under", "2464"), "Sherman 1 is a vehicle: other vehicles block a tank's move"),
    (overrun("--tank-status", "immobilized", "--under", "rifleman"),
     "Tiger 1 is immobilized: it cannot move"),
    (overrun("--tank-status", "commander_killed", "--under", "rifleman"),
     "Tiger 1 has lost its commander: it may only move off a friendly edge"),
    (overrun("--under", "bofors-37mm:2"), "Bofors 1 is a gun: it is run over whole, with its crew"),
    (["overrun", "--tank", "rifleman", "--under", "rifleman"],
     "Rifle 1 is not a tank: only a hard or open-top vehicle runs over figures and guns"),
    (overrun("--under", "rifleman@wall"),
     "--under 'rifleman@wall': COVER 'wall' is not allowed; allowed: open, soft, hard"),
    (overrun("--under", "rifleman:x@soft"),
     "--under 'rifleman:x@soft': FIGURES 'x' is not allowed; allowed: a whole number of "
     "figures under the tank from 1 to 10, like :3"),
    (overrun("--under", "rifleman:0"),
     "--under 'rifleman:0': FIGURES 0 is not allowed; allowed: a whole number of "
     "figures under the tank from 1 to 10, like :3"),
    (overrun("--under", "rifleman:2+prone"),
     "--under 'rifleman:2+prone': MARK 'prone' is not allowed; allowed: hidden, dug_in"),
    (overrun("--under", ":3@soft"),
     "--under ':3@soft': the CARD part is missing; write CARD[:FIGURES][@COVER][+MARK[+MARK]], "
     "like rifleman:3@soft or mg-gunner:2+dug_in"),
    (overrun("--tank-status", "sunk", "--under", "rifleman"),
     "--tank-status: 'sunk' is not allowed; allowed: unloaded, weakened, gun_destroyed, "
     "immobilized, destroyed, commander_killed, off_map"),
])
def test_refusals_are_one_line_with_exit_2(cli, args, message):
    run = cli(*args, "--dice", "6,6,6", "--json")
    assert run.code == 2, run.out
    assert run.out == ""
    assert run.err.splitlines() == [f"cobi-companion: {message}"]


def overrun_help(cli):
    return " ".join(cli("overrun", "--help").out.split())


def test_the_parsers_covers_are_the_rules_own(cli):
    assert f"COVER one of {', '.join(c.value for c in Cover)} (default open)" in \
        overrun_help(cli)


def test_the_tank_status_words_are_the_rules_own(cli):
    """Every mark of a vehicle but those of figures and a commander sitting out."""
    marks = [w for w in STATUS_WORDS if w not in ("hidden", "commander_out")]
    assert f"--tank-status LIST comma list of {', '.join(marks)} " in overrun_help(cli)
