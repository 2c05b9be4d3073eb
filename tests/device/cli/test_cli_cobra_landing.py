"""`cobi-companion cobra landing ACTION`: the Allied Landing Phase (17.3.2) and the withdrawal
attack (17.3.4) on the command line, JSON and English, and its bad values (exit 2, one line)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from cobi_companion.rules.cobra.tables import COLUMNS


def owner(tmp_path: Path) -> str:
    """2:1 reads 1/1 on a 3 (the rules' Juno example); 3:1 -/e on a 6; the diagram's 4 south."""
    cells = {"2:1": {3: "1/1"}, "3:1": {6: "-/e"}}
    crt = "\n".join(f'"{c}" = [' + ", ".join(f'"{cells.get(c, {}).get(d, "")}"'
                                             for d in range(1, 7)) + "]" for c in COLUMNS)
    path = tmp_path / "tables.toml"
    path.write_text(f'[crt]\n{crt}\n[scatter]\n"4" = "south"\n', encoding="utf-8")
    return str(path)


def test_a_scatter_as_a_real_process(cli_process, tmp_path):
    """17.3.2 step 2b, 2c: an 82nd unit scatters on a 5; a 4 on the diagram is south."""
    run = cli_process("cobra", "landing", "scatter", "--division", "82nd", "--dice", "5,4",
                          "--tables", owner(tmp_path), "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert (data["die"], data["scattered"], data["direction_die"], data["direction"]) == \
        (5, True, 4, "south")


def test_the_juno_example_in_english(cli, tmp_path):
    """17.3.2 step 4: "he starts on the 1:2 column ... committed 2 steps ... the 2:1 column. He
    rolls a 3, resulting in a 1/1"."""
    run = cli("cobra", "landing", "attrition", "--target", "juno", "--committed", "2",
                  "--dice", "3", "--tables", owner(tmp_path))
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0] == "Landing attrition on juno: 1:2 +2 → 2:1, die 3: 1"
    assert "Allied: lose 1 step, no retreat; the German units are not affected (17.3.2 step " \
           "4b4)" in lines


def test_a_paratroop_unit_in_a_town(cli, tmp_path):
    """17.3.2 step 4b3: "If the paratroop unit is in a town that provides the defender with a
    shift of one to the left ... shifted one to the right"; the shipped template's town is -1."""
    run = cli("cobra", "landing", "attrition", "--target", "101st", "--terrain", "town",
                  "--dice", "2", "--json")
    assert run.code == 0, run.err
    assert json.loads(run.out)["odds"]["column"] == "1:2"


def test_the_withdrawal_attack_destroys(cli, tmp_path):
    """17.3.4b: "If such losses results in the destruction of the withdrawing unit ... counts
    for VP instead of being withdrawn"."""
    run = cli("cobra", "landing", "withdrawal", "--steps", "2", "--dice", "6",
                  "--tables", owner(tmp_path), "--json")
    data = json.loads(run.out)
    assert (data["column"], data["destroyed"], data["all_steps_lost"]) == ("3:1", True, True)


def test_a_beach_check_and_a_commitment(cli):
    """17.3.2 step 5a: more than half lost abandons the beach; step 4a: 5 or 6 commits."""
    run = cli("cobra", "landing", "beach", "--beach", "omaha", "--landed", "6", "--lost",
                  "4", "--json")
    assert json.loads(run.out)["abandoned"] is True
    run = cli("cobra", "landing", "commit", "--dice", "4")
    assert run.out.splitlines()[0] == "Beach defence: die 4: no steps"


@pytest.mark.parametrize(("argv", "said"), [
    (["scatter"], "cobra landing scatter needs --division"),
    (["withdrawal", "--division", "82nd"], "--division is not an option of cobra landing "
                                           "withdrawal"),
    (["attrition", "--target", "omaha", "--terrain", "town"], "omaha: a beach shifts for the "
                                                              "German steps committed"),
    (["attrition", "--target", "82nd", "--committed", "2"], "82nd: a beach shifts"),
    (["beach", "--beach", "gold", "--landed", "2", "--lost", "3"], "3 steps lost of 2 landed"),
    (["scatter", "--division", "omaha"], "invalid choice"),
    (["beach", "--beach", "gold", "--landed", "2", "--lost", "1", "--dice", "3"],
     "the beach check rolls no die"),
])
def test_bad_values_are_one_line_and_exit_2(cli, argv, said):
    """17.3.2: what the rules refuse, and options that are not the action's, exit 2."""
    run = cli("cobra", "landing", *argv)
    assert run.code == 2 and said in run.err and len(run.err.strip().splitlines()) == 1, run.err
