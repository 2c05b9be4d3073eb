"""`cobi-companion cobra ma` and `cobra replacements`: the movement allowance with the air
attack of an increase (5.3b, 5.3c, 5.3d, 10.6, 12.1b) and the replacement steps of a game turn
(12.2, 16.1), as text and --json; bad values exit 2 in one line. Each test quotes its rule."""
from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli, run_cli_process


def as_json(*args: str) -> dict:
    run = run_cli("cobra", *args, "--json")
    assert run.code == 0, run.err
    return json.loads(run.out)


@pytest.mark.parametrize(("weather", "ma"), [("storm", 6), ("overcast", 4), ("clear", 2)])
def test_5_3b_the_rules_example_as_a_real_process(weather: str, ma: int) -> None:
    """5.3b: "A German unit with a printed MA of 6 would have 6 MP in storm weather, 4 MP in
    overcast weather, and 2 MP in clear weather.\""""
    run = run_cli_process("cobra", "ma", "--printed", "6", "--nation", "german", "--weather",
                          weather, "--json")
    assert run.code == 0 and json.loads(run.out)["ma"] == ma


def test_5_3b_out_of_supply_halved_first_then_12_1b_the_replacement() -> None:
    """5.3b "first halved, then the adjustments ... always round up"; 12.1b "half their
    current MA": 9 → 5 → overcast 4 → 2."""
    data = as_json("ma", "--printed", "9", "--nation", "german", "--weather", "overcast",
                   "--out-of-supply", "--replaced")
    assert [(s["key"], s["ma"]) for s in data["steps"]] == [
        ("printed", 9), ("out_of_supply", 5), ("weather", 4), ("replaced", 2)]
    assert data["may_overrun"] is False


def test_5_3c_after_an_exit_and_5_3d_the_air_attack() -> None:
    """5.3c "Clear: All units reduce their MA by one third"; 5.3d2 "one step if the die roll
    result was a 1 or 2"."""
    data = as_json("ma", "--printed", "6", "--nation", "german", "--weather", "clear",
                   "--after-exit", "--increase", "third", "--dice", "2")
    assert data["ma"] == 6 and data["air_attack"] == {
        "increase_thirds": 1, "die": 2, "loses_on": [1, 2], "step_lost": True, "rule": "5.3d"}
    text = run_cli("cobra", "ma", "--printed", "6", "--nation", "german", "--weather", "clear",
                   "--increase", "two_thirds", "--dice", "5")
    assert "die 5, a step lost on 1-4: NO LOSS (5.3d)" in text.out


def test_5_2c_british_infantry_in_the_mechanized_phase() -> None:
    """5.2c: "two-thirds (6 MP) of their printed MA during the Allied Mechanized Movement
    Phase"."""
    assert as_json("ma", "--printed", "9", "--nation", "british", "--phase",
                   "mechanized")["ma"] == 6


@pytest.mark.parametrize(("args", "said"), [
    (("--nation", "us", "--after-exit"), "--after-exit: 5.3c changes only the German MA"),
    (("--nation", "german", "--weather", "storm", "--increase", "third"),
     "the MA is already the full printed MA: nothing to increase (5.3d)"),
    (("--nation", "german"), "a German unit's MA needs the weather (5.3b)"),
    (("--nation", "us", "--phase", "mechanized"), "only mechanized units move"),
    (("--nation", "us", "--dice", "3"), "--dice: the air attack is rolled only"),
])
def test_a_refused_ma_exits_2_in_one_line(args: tuple[str, ...], said: str) -> None:
    """5.3c, 5.3d, 5.3b, 4.0: a refusal with its rule, no traceback."""
    run = run_cli("cobra", "ma", "--printed", "6", *args)
    assert run.code == 2 and said in run.err and len(run.err.strip().splitlines()) == 1


def test_12_2b_the_german_half_step_as_a_real_process() -> None:
    """12.2b "one half a mechanized step": ½ carried and ½ received make the whole step of
    game turn 16; 12.2d "No more than one mechanized or two infantry steps"."""
    run = run_cli_process("cobra", "replacements", "--turn", "16", "--side", "german",
                          "--carried", "mech=0.5,inf=1", "--taken", "mech=1", "--json")
    data = json.loads(run.out)
    assert run.code == 0 and data["left"] == {"mech": 0, "inf": 2}
    assert data["on_track"] == {"mech": "0", "inf": "3"}


def test_12_2_the_british_limit_from_game_turn_20() -> None:
    """12.2: "The British player may replace no more than two infantry steps per turn starting
    with the GT 20"."""
    run = run_cli("cobra", "replacements", "--turn", "20", "--side", "british", "--taken",
                  "inf=3")
    assert run.code == 2 and run.err.strip() == "cobi-companion: from game turn 20 the " \
        "British replace no more than 2 infantry steps a turn (12.2)"
    assert as_json("replacements", "--turn", "19", "--side", "british", "--taken",
                   "inf=3")["left"] == {"mech": None, "inf": None}


def test_16_1_the_tenth_allied_step_gives_a_german_vp() -> None:
    """16.1: "1: For every 10 Allied replacement steps used during play"."""
    data = as_json("replacements", "--turn", "18", "--side", "us", "--taken", "inf=2",
                   "--allied-steps", "9")
    assert data["german_vp_added"] == 1 and data["german_vp_from_allied_steps"] == 1
    assert data["next_vp_at"] == 20


@pytest.mark.parametrize("bad", ["tank=1", "mech=x", "inf=0.5"])
def test_a_bad_count_of_steps_exits_2(bad: str) -> None:
    """12.2: steps are mechanized or infantry, whole (the German half step only carried)."""
    run = run_cli("cobra", "replacements", "--turn", "12", "--side", "german", "--taken", bad)
    assert run.code == 2 and "--taken" in run.err


@pytest.mark.parametrize("carried", ["mech=1.5", "inf=2"])
def test_12_2d_more_carried_than_a_track_holds_is_refused(carried: str) -> None:
    """12.2d: at most one step of each kind is carried on: more is a misread track, said in
    one line (exit 2), not quietly cut down to one."""
    run = run_cli("cobra", "replacements", "--turn", "12", "--side", "german", "--carried",
                  carried)
    assert run.code == 2 and run.out == ""
    assert run.err.strip() == f"cobi-companion: --carried: at most one step of each kind is " \
        f"carried on from the game turn before, not {carried} (12.2d)"


def test_5_2c_a_british_unit_not_an_infantry_division_and_5_4_who_overruns() -> None:
    """5.2c: two thirds for "British and Canadian infantry divisions" only; 5.4: "Only armored,
    panzer or panzer-grenadier and US truck mechanized units may conduct overruns"."""
    run = run_cli_process("cobra", "ma", "--printed", "9", "--nation", "british", "--phase",
                          "mechanized", "--not-a-division")
    assert run.code == 2 and run.err.strip() == "cobi-companion: only British and Canadian " \
        "infantry divisions move two thirds of their MA in the Mechanized Movement Phase " \
        "(5.2c); other infantry does not move in it (4.0, 5.2)"
    assert as_json("ma", "--printed", "6", "--nation", "us")["may_overrun"] is False
    assert as_json("ma", "--printed", "12", "--nation", "us", "--mechanized")["may_overrun"]


def test_17_3_6d_every_unit_in_supply_on_game_turns_1_and_2() -> None:
    """17.3.6d "All Allied units are considered in supply throughout GTs 1 and 2"."""
    run = run_cli_process("cobra", "ma", "--printed", "6", "--nation", "us", "--turn", "2",
                          "--out-of-supply")
    assert run.code == 2 and run.err.strip() == "cobi-companion: game turn 2: every unit is " \
        "in supply on GT 1 and 2, Allied (17.3.6d) and German (17.3.6)"
    odds = run_cli_process("cobra", "odds", "--turn", "1", "--attack", "6s", "--defence", "3",
                           "--attacker", "allied")
    assert odds.code == 2 and odds.err == run.err.replace("game turn 2", "game turn 1")


def test_5_4_an_hq_moves_in_the_mechanized_phase_but_never_overruns() -> None:
    """5.4: "Only armored, panzer or panzer-grenadier and US truck mechanized units may conduct
    overruns": an HQ (`--hq`) moves in the Mechanized Movement Phase (5.2a, 5.2b) but may not
    overrun. A real process."""
    run = run_cli_process("cobra", "ma", "--printed", "12", "--nation", "us", "--hq", "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert (data["hq"], data["mechanized"], data["may_overrun"]) == (True, True, False)
    assert as_json("ma", "--printed", "12", "--nation", "us", "--hq", "--phase",
                   "mechanized")["ma"] == 12
    text = run_cli("cobra", "ma", "--printed", "12", "--nation", "german", "--weather",
                   "storm", "--hq")
    assert "  overrun       none: an HQ moves in the Mechanized Movement Phase but never " \
        "overruns (5.4)" in text.out.splitlines()


@pytest.mark.parametrize("args", [("--nation", "us"), ("--nation", "german", "--weather",
                                                       "clear"),
                                  ("--nation", "british", "--mechanized"),
                                  ("--nation", "british", "--hq")])
def test_5_2c_not_a_division_only_for_british_infantry(args: tuple[str, ...]) -> None:
    """5.2c "British and Canadian infantry divisions": `--not-a-division` says which British
    infantry unit is not one; with another nation or a mechanized unit it is refused, exit 2,
    one line saying what is allowed. A real process."""
    run = run_cli_process("cobra", "ma", "--printed", "6", *args, "--not-a-division")
    assert run.code == 2 and run.out == ""
    assert run.err.strip() == "cobi-companion: --not-a-division: only for British infantry " \
        "(--nation british, without --mechanized or --hq): a brigade or commandos, not a " \
        "British or Canadian infantry division (5.2c)"


def test_17_3_9_landing_halves_the_ma_again_a_quarter_on_gt_1_and_2() -> None:
    """17.3.9 "From GT 1 through 14, Allied units land with only half of their MA available
    for use that turn": on GT 2 after 17.3.3b's half, a quarter of the printed MA."""
    data = as_json("ma", "--printed", "6", "--nation", "us", "--turn", "2", "--landing")
    assert [(s["key"], s["ma"]) for s in data["steps"]] == [("landing", 3), ("landed", 2)]
    assert data["ma"] == 2 and data["landed"] is True
    assert as_json("ma", "--printed", "6", "--nation", "us", "--turn", "14",
                   "--landing")["ma"] == 3
    run = run_cli("cobra", "ma", "--printed", "6", "--nation", "us", "--turn", "15",
                  "--landing")
    assert run.code == 2 and run.err.strip().endswith(
        "only Allied units land with half their MA, on game turns 1 to 14 of the campaign and "
        "the Build-Up (17.3.9)")
    run = run_cli("cobra", "ma", "--printed", "6", "--nation", "us", "--landing")
    assert run.code == 2 and "--landing: give --turn N too" in run.err
