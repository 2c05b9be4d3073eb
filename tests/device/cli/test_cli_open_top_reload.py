"""Rule 11 on the command line for a main-gun (AP) shot and the reload action: "Open top
weapons need at least one figure to fire and reload they need two to avoid -1 to the reload
die". The figures left are given (`--attacker-figures N`, `reload --figures N`) and the -1 is
worked out from them as the box works it out, the house rule open_top_reload = half named
where it gave the -1. Real processes: these are what a reviewer types."""
from __future__ import annotations

from pathlib import Path

from tests.device.cli.test_cli_house import own_cards

MARDER_AT_TIGER = ("--rules", "tank", "--attacker", "marder", "--target", "2477",
                   "--facing", "front")
HALF = ("--house-rule", "open_top_reload=half")


def test_the_odds_of_an_open_tops_shot_with_two_of_six(cli_process, tmp_path: Path):
    cards = own_cards(tmp_path)
    two = cli_process(*cards, "odds", *MARDER_AT_TIGER, "--attacker-figures", "2", "--json")
    assert two.code == 0, two.err
    assert two.json["reload_exact"] == "1/2" and two.json["house_rules"] == {}
    half = cli_process(*cards, "odds", *MARDER_AT_TIGER, "--attacker-figures", "2", *HALF,
                       "--json")
    assert half.code == 0, half.err
    assert half.json["reload_exact"] == "1/3"
    assert half.json["house_rules"] == {"open_top_reload": "half"}
    one = cli_process(*cards, "odds", *MARDER_AT_TIGER, "--attacker-figures", "1", "--json")
    assert one.json["reload_exact"] == "1/3" and one.json["house_rules"] == {}
    three = cli_process(*cards, "odds", *MARDER_AT_TIGER, "--attacker-figures", "3", *HALF,
                        "--json")
    assert three.json["reload_exact"] == "1/2" and three.json["house_rules"] == {}


def test_an_open_tops_shot_reloads_by_its_figures(cli_process, tmp_path: Path):
    cards = own_cards(tmp_path)
    shot = (*cards, "resolve", *MARDER_AT_TIGER, "--attacker-figures", "2",
            "--dice", "6,4,1,1,1,1")
    two = cli_process(*shot, "--json")
    assert two.code == 0, two.err
    assert two.json["reload"]["loaded"] is True
    half = cli_process(*shot, *HALF)
    assert half.code == 0, half.err
    assert "= 3, needs 4 or more: UNLOADED" in half.out
    assert "House rule open_top_reload = half" in half.out


def test_the_reload_action_by_the_figures_left(cli_process, tmp_path: Path):
    cards = own_cards(tmp_path)
    action = (*cards, "reload", "--card", "marder", "--figures", "2", "--dice", "2")
    two = cli_process(*action, "--json")
    assert two.code == 0, two.err
    assert two.json["reload"]["loaded"] is True and two.json["house_rules"] == {}
    half = cli_process(*action, *HALF, "--json")
    assert half.json["reload"]["loaded"] is False
    assert half.json["house_rules"] == {"open_top_reload": "half"}
    said = cli_process(*action, *HALF)
    assert "House rule open_top_reload = half" in said.out


def test_no_figure_left_cannot_fire_and_the_two_ways_do_not_mix(cli_process, tmp_path: Path):
    cards = own_cards(tmp_path)
    none = cli_process(*cards, "odds", *MARDER_AT_TIGER, "--attacker-figures", "0")
    assert none.code == 2 and none.out == ""
    assert "has no figure left to fire" in none.err
    both = cli_process(*cards, "odds", *MARDER_AT_TIGER, "--attacker-figures", "2",
                       "--crew-below-half")
    assert both.code == 2 and "--crew-below-half" in both.err and "--attacker-figures" in both.err


def test_the_help_says_what_the_flag_means(cli_process):
    said = cli_process("odds", "--help").out
    assert "firer's crew below half" not in said
    assert "two" in " ".join(said.split()).rsplit("--crew-below-half", 1)[1][:300]
