"""`cobi-companion cobra odds|roll --carpet --planned`, `--beach-marker N` and `cobra victory
--beaches-lost`: carpet bombing planned a game turn ahead (14.3a, d), the beach shift marker
(17.3.2 step 5f) and the automatic German victory (17.3.13, 17.4.3)."""
from __future__ import annotations

import json


def test_carpet_bombing_not_planned_is_refused_as_the_box_refuses_it(cli, cli_process):
    """14.3a: "The Allied player must write down the target hex of a carpet bombing at the
    start of the Allied Combat Phase one game turn before"."""
    run = cli_process("cobra", "odds", "--carpet", "--turn", "16")
    assert run.code == 2 and run.err.strip() == (
        "cobi-companion: carpet bombing must be planned one game turn before: its target hex "
        "written down in the Allied Combat Phase of the turn before (14.3a, 14.3d)")
    planned = cli_process("cobra", "roll", "--carpet", "--planned", "--turn", "16", "--dice",
                          "3", "--json")
    assert planned.code == 0, planned.err
    assert json.loads(planned.out)["odds"]["column"] == "6:1"
    other = cli("cobra", "odds", "--attack", "8", "--defence", "2", "--planned")
    assert other.code == 2 and "--planned: only carpet bombing is planned" in other.err


def test_a_beach_shift_marker_shifts_an_allied_attack_left(cli, cli_process):
    """17.3.2 step 5f1: "All Allied attacks originating from that hex must suffer the number of
    shifts to the left equal to the number of shifts"."""
    run = cli_process("cobra", "odds", "--attack", "8", "--defence", "2", "--beach-marker", "2",
                      "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert (data["base_column"], data["column"], data["attacker"]) == ("4:1", "2:1", "allied")
    assert data["shifts"] == [{"kind": "marker", "name": "", "columns": -2,
                               "for": "defender", "rule": "17.3.2 step 5f"}]
    german = cli("cobra", "odds", "--attack", "8", "--defence", "2", "--beach-marker", "1",
                 "--attacker", "german")
    assert german.code == 2 and "means the allied side attacks" in german.err


def test_no_beach_hex_allied_is_an_automatic_decisive_german_victory(cli, cli_process):
    """17.3.13: "The game ends and the German player wins an automatic decisive victory if, at
    the beginning of an Allied player turn, there are no beach hexes friendly to the Allied
    player"."""
    run = cli_process("cobra", "victory", "--scenario", "buildup", "--beaches-lost",
                      "--allied-vp", "60")
    assert run.code == 0, run.err
    assert "Level      Decisive German: No beach hex friendly to the Allied player" in run.out
    data = cli("cobra", "victory", "--scenario", "campaign", "--beaches-lost", "--json").json
    assert (data["level"], data["automatic"]) == ("Decisive German", True)
    cobra = cli("cobra", "victory", "--scenario", "cobra", "--beaches-lost")
    assert cobra.code == 2 and "has no landing" in cobra.err
    both = cli("cobra", "victory", "--scenario", "campaign", "--beaches-lost", "--frontline",
               "yes")
    assert both.code == 2 and "--frontline: with --beaches-lost" in both.err


def test_carpet_bombing_after_an_attack_or_on_a_first_turn_is_refused(cli, cli_process):
    """14.3d: "prior to conducting any other attacks, the Allied player cancels or conducts the
    carpet bombing"; 14.3a: planned "one game turn before", so never on a scenario's first
    turn (--scenario tells which turn that is)."""
    late = cli_process("cobra", "odds", "--carpet", "--planned", "--turn", "16",
                       "--after-attack")
    assert late.code == 2 and late.err.strip() == (
        "cobi-companion: an Allied attack was made this Combat Phase: carpet bombing comes "
        "before any other attack, so this turn's can only be cancelled (14.3, 14.3d)")
    first = cli_process("cobra", "odds", "--carpet", "--turn", "15", "--weather", "clear",
                        "--planned", "--scenario", "cobra")
    assert first.code == 2 and first.err.strip() == (
        "cobi-companion: game turn 15 is the cobra scenario's first: there is no turn before "
        "it to plan a carpet bombing in (14.3a)")
    campaign = cli("cobra", "roll", "--carpet", "--turn", "15", "--weather", "clear",
                   "--planned", "--scenario", "campaign", "--dice", "3")
    assert campaign.code == 0, campaign.err
    for extra in (["--after-attack"], ["--scenario", "cobra"]):
        other = cli("cobra", "odds", "--attack", "8", "--defence", "2", *extra)
        assert other.code == 2 and extra[0] in other.err


def test_points_after_a_carpet_mission_show_14_3e_and_count_one_mission(cli):
    """14.3e: "The remaining three AP may not be used by the nationality on whose front (that
    side of the AAB) the carpet bombing is occurring"; one mission left, not "1 missions"."""
    run = cli("cobra", "points", "--turn", "16", "--weather", "clear", "--flown", "16",
              "--air-used", "3")
    assert run.code == 0, run.err
    assert "Carpet     1 mission left of 2, 1 flown (14.3f)" in run.out
    assert "the other three AP may not be used on this front" in run.out
    data = json.loads(cli("cobra", "points", "--turn", "16", "--weather", "clear", "--flown",
                          "16", "--json").out)
    assert "(14.3e)" in data["carpet_front"]
    none = json.loads(cli("cobra", "points", "--turn", "16", "--weather", "clear",
                          "--json").out)
    assert none["carpet_front"] is None


def test_a_beach_marker_on_a_moving_overrun_not_on_an_advancing_one(cli, cli_process):
    """5.4f "conduct an overrun from a hex", 17.3.2 step 5f1 "All Allied attacks originating
    from that hex" (a scenario rule, 17.3.1b); 5f2: advancing out of the hex removes it."""
    moving = cli_process("cobra", "odds", "--attack", "12", "--defence", "2", "--overrun",
                         "movement", "--beach-marker", "1", "--turn", "3", "--json")
    assert moving.code == 0, moving.err
    assert json.loads(moving.out)["column"] == "5:1"
    advancing = cli_process("cobra", "odds", "--attack", "12", "--defence", "2", "--overrun",
                            "advance", "--beach-marker", "1", "--turn", "3")
    assert advancing.code == 2 and advancing.err.strip() == (
        "cobi-companion: an overrun when advancing after combat has left the marked hex: the "
        "beach shift marker is removed as Allied units advance out of it (17.3.2 step 5f2)")
