"""`cobi-companion cobra vp`, `release`, `brest` and `leclerc`: the victory points of what
happened (16.1, 16.2, 18.0) and the special rolls (15.1, 15.2, 15.3), as text and --json."""
from __future__ import annotations

import json


def test_16_2_a_us_division_exiting_west_on_game_turn_21_is_4_vp(cli, cli_process):
    run = cli_process("cobra", "vp", "--scenario", "campaign", "--turn", "21", "--event",
                          "exit:us:west:mech_division", "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert (data["vp"], data["track"], data["rule"]) == (4, "allied_vp", "16.2")
    assert data["exit"] == {"turn": 21, "nation": "us", "edge": "west", "kind": "mech_division"}


def test_16_2_the_fifth_us_division_scores_nothing(cli, cli_process):
    four = ",".join(["20:us:west:mech_division"] * 4)
    run = cli("cobra", "vp", "--scenario", "cobra", "--turn", "21", "--event",
                  "exit_us_mech", "--exits", four)
    assert run.code == 0 and "Allied VP +0 (four US divisions score at most; 16.2)" in run.out


def test_16_1_us_units_not_exited_twelve_at_most_with_those_scored_before(cli, cli_process):
    run = cli("cobra", "vp", "--scenario", "cobra", "--turn", "26", "--event",
                  "us_not_exited", "--count", "2", "--scored", "9", "--json")
    assert json.loads(run.out)["vp"] == 3


def test_18_0_a_variant_counter_costs_the_german_player(cli, cli_process):
    run = cli("cobra", "vp", "--scenario", "cobra", "--turn", "20", "--event",
                  "variant_4th_panzer")
    assert run.out.strip() == "4th Panzer Division brought in: German VP -15 (1 × -15 VP; 18.0)"


def test_16_0_a_source_not_of_the_scenario_is_refused_in_one_line(cli, cli_process):
    run = cli("cobra", "vp", "--scenario", "cobra", "--turn", "14", "--event", "caen")
    assert run.code == 2 and run.err.strip() == \
        "cobi-companion: All of Caen Allied: not in the cobra scenario (16.2)"
    bad = cli("cobra", "vp", "--scenario", "cobra", "--turn", "20", "--event", "exit_us_mech",
                  "--exits", "twenty")
    assert bad.code == 2 and "Traceback" not in bad.err


def test_15_2_a_release_attempt_as_a_real_process(cli, cli_process):
    run = cli_process("cobra", "release", "--turn", "23", "--first-us-exit", "21",
                          "--released", "1", "--dice", "2", "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert (data["division"], data["units"], data["hq"], data["german_vp"]) == (347, 2, True, -1)


def test_15_2_too_early_is_refused_before_any_die(cli, cli_process):
    run = cli("cobra", "release", "--turn", "21", "--dice", "1")
    assert run.code == 2
    assert "the 15th Army may be asked from game turn 22, not 21 (15.2)" in run.err


def test_15_3_brest_on_game_turn_27_as_a_real_process(cli, cli_process):
    run = cli_process("cobra", "brest", "--turn", "27", "--dice", "3")
    assert run.code == 0, run.err
    assert "die 3-1 on game turn 27 = 2 (15.3b): the 2nd FJ Division is released" in run.out
    exited = cli("cobra", "brest", "--turn", "26", "--us-west-exit", "25", "--dice", "1")
    assert exited.code == 2 and "(15.3)" in exited.err


def test_15_1_leclerc_as_a_real_process(cli, cli_process):
    run = cli_process("cobra", "leclerc", "--dice", "1", "--json")
    assert run.code == 0, run.err
    assert json.loads(run.out) == {"roll": "leclerc", "die": 1, "mutiny": True, "rule": "15.1b"}
    assert "no mutiny" in cli("cobra", "leclerc", "--dice", "4").out
