"""`cobi-companion cobra turn`: a game turn's bookkeeping phase by phase (17.3, 13.2e), in
English and JSON; a count beyond the turn's allowance refused with the rule's reason (exit 2,
one line)."""
from __future__ import annotations

import json


def test_game_turn_2_of_the_campaign_as_a_real_process(cli_process):
    """17.3.11a one delay unit from GT 2; 17.3.12a four non-mechanized units railed on GT 2, a
    mechanized one counts two (b); 17.3.3a paratroops one hex on GT 2; 17.3.9 half MA."""
    run = cli_process("cobra", "turn", "--turn", "2", "--delays", "2", "--rail", "mech",
                      "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert (data["delay_units_placed"], data["delay_placed_this_turn"]) == (1, True)
    assert data["rail"] == {"most": 4, "used": 2, "left": 2}
    codes = {(p["player"], p["phase"]): [n["code"] for n in p["notes"]] for p in data["phases"]}
    assert codes == {
        ("german", "initial_movement"): ["delay_appears", "rail_left", "in_column"],
        ("german", "combat"): ["cherbourg_one"],
        ("german", "mechanized_movement"): ["rail_mech_only"],
        ("allied", "initial_movement"): ["paras_one_hex", "land_half_ma"],
        ("allied", "mechanized_movement"): ["land_half_ma"]}
    allied = data["phases"][-2]["notes"][0]["text"]
    assert "one hex this turn" in allied


def test_game_turn_1_in_english(cli):
    run = cli("cobra", "turn", "--turn", "1")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0] == "Cobra, Campaign Game: game turn 1"
    assert lines[1] == ("German initial movement: Game turn 1: the German player may move only "
                        "the 12th SS Panzer and 711th Infantry Divisions, and up to 7 other "
                        "units not next to Allied units: 7 for the whole turn, the same ones in "
                        "both Movement Phases (17.3.3d)")
    assert "Allied initial movement: Game turn 1: paratroop units may not move; they may " \
           "retreat and advance in combat (17.3.3a)" in lines


def test_the_end_of_gt_7_and_cherbourgs_attack_used(cli):
    run = cli("cobra", "turn", "--turn", "7", "--cherbourg", "1")
    assert run.code == 0, run.err
    assert run.out.splitlines()[-2:] == [
        "Allied turn end: The end of game turn 7: remove every German delay unit from play "
        "(17.3.11g)",
        "Cherbourg's one supplied German attack of the turn is used (17.3.5g)"]


def test_over_use_is_refused_with_the_rule(cli):
    run = cli("cobra", "turn", "--turn", "5", "--cherbourg", "2")
    assert run.code == 2
    assert run.err.strip().endswith("Cherbourg has supplied a German attack on game turn 5 "
                                    "already: one a game turn (17.3.5g)")
    run = cli("cobra", "turn", "--turn", "4", "--delays", "4,4")
    assert run.code == 2 and "one a game turn (17.3.11a)" in run.err
    run = cli("cobra", "turn", "--turn", "5", "--rail", "foot")
    assert run.code == 2 and "only on game turns 2 to 4" in run.err


def test_the_cobra_scenario_keeps_no_campaign_counts(cli):
    run = cli("cobra", "turn", "--turn", "16", "--scenario", "cobra", "--json")
    data = json.loads(run.out)
    assert data["rail"]["most"] == 0
    assert [n["code"] for p in data["phases"] for n in p["notes"]] == ["in_column"] * 3
