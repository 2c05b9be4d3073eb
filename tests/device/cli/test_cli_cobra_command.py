"""`cobi-companion cobra command`: the Allied command limits of a game turn (11.3) and an
HQ's shift (9.1i, 8.3.3a), through the real command."""
from __future__ import annotations

import json

from tests.conftest import run_cli, run_cli_process


def test_11_3_the_gt14_example_four_attacks_made_no_fifth():
    """11.3's example: 4 on GT 14 allows four US attacks and four overruns."""
    run = run_cli_process("cobra", "command", "--turn", "14", "--limit", "us=4,british=3",
                          "--made", "us=4/1", "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert data["limits"]["us"]["attack"] == {
        "army": "us", "kind": "attack", "level": 4, "made": 4, "left": 0, "counted": True,
        "allowed": False, "rule": "11.3"}
    assert data["limits"]["us"]["overrun"]["left"] == 3
    assert data["limits"]["british"]["attack"]["allowed"] is True


def test_11_3_the_text_answer():
    run = run_cli("cobra", "command", "--turn", "14", "--limit", "us=4,british=3", "--made",
                  "us=4/1")
    assert run.code == 0
    assert run.out.splitlines()[:2] == [
        "US attacks: 4 of 4 made, no more this game turn (11.3)",
        "US overruns: 1 of 4 made, one more allowed (11.3)"]


def test_17_3e_no_limits_on_game_turns_1_and_2():
    """17.3e "... has no command limits on GTs 1 and 2": no --limit needed."""
    run = run_cli("cobra", "command", "--turn", "2", "--made", "us=9/9", "--json")
    data = json.loads(run.out)
    assert run.code == 0 and data["rule"] == "17.3e" and not data["limits_apply"]
    assert data["limits"]["us"]["attack"]["allowed"] is True


def test_11_3a_one_command_level_a_nationality():
    """11.3a "The number given for each GT indicates how many attacks of each type": one
    number; the track's 4/4 (command level / supply points) is refused with the reason."""
    run = run_cli("cobra", "command", "--turn", "14", "--limit", "us=4/4")
    assert run.code == 2 and "the command level, then the supply points" in run.err
    missing = run_cli("cobra", "command", "--turn", "14", "--limit", "us=4")
    assert missing.code == 2 and missing.err.strip() == "cobi-companion: --limit: the command " \
        "levels of game turn 14 from the turn record track, british= missing, like --limit " \
        "us=4,british=3 (11.3)"
    beyond = run_cli("cobra", "command", "--turn", "14", "--limit", "us=25,british=1")
    assert beyond.code == 2 and "0 to 20" in beyond.err


def test_9_1i_an_inactive_hq_is_refused():
    """9.1i "Inactive HQs may not contribute shifts to a combat"."""
    run = run_cli_process("cobra", "command", "--turn", "17", "--limit", "us=4,british=3",
                          "--hq", "vii=inactive", "--use", "vii:+1")
    assert run.code == 2
    assert run.err.strip() == "cobi-companion: VII is inactive: inactive HQs may not " \
        "contribute shifts to a combat (9.1i)"


def test_8_3_3a_the_second_shift_of_an_allied_hq_flips_it():
    """8.3.3a: from GT 17 an Allied HQ gives one shift to two attacks; after the second it is
    flipped (8.3.3 Important). Before GT 17 a second shift is refused."""
    run = run_cli("cobra", "command", "--turn", "17", "--limit", "us=4,british=3", "--hq",
                  "vii=active:1", "--use", "vii:+1", "--json")
    assert json.loads(run.out)["hq"]["flips"] is True
    first = run_cli("cobra", "command", "--turn", "17", "--limit", "us=4,british=3", "--use",
                    "vii:+1", "--json")
    assert json.loads(first.out)["hq"]["flips"] is False
    early = run_cli("cobra", "command", "--turn", "16", "--limit", "us=4,british=3", "--hq",
                    "vii=active:1", "--use", "vii:+1")
    assert early.code == 2 and "(8.3.3a)" in early.err
    unknown = run_cli("cobra", "command", "--turn", "16", "--limit", "us=4,british=3",
                      "--use", "xv:+1")
    assert unknown.code == 2 and "unknown HQ" in unknown.err


def test_8_3_3g_patton_may_not_be_used_defensively():
    """8.3.3g "It may not be used defensively": `cobra command --use patton:-1` refuses with
    the refusal `cobra odds --shift patton:-1` gives; exit 2, one line."""
    run = run_cli_process("cobra", "command", "--turn", "20", "--limit", "us=4,british=3",
                          "--use", "patton:-1")
    odds = run_cli_process("cobra", "odds", "--attack", "6", "--defence", "6", "--shift",
                           "patton:-1")
    assert run.code == 2 and run.out == ""
    assert run.err.strip() == "cobi-companion: shift patton -1: not allowed, only +1, +2 " \
        "(8.3.3g)"
    assert run.err == odds.err and len(run.err.splitlines()) == 1
    assert run_cli_process("cobra", "command", "--turn", "20", "--limit", "us=4,british=3",
                           "--use", "patton:+2").code == 0
