"""Cobra (Normandy 1944) through the real `cobi-companion cobra` command: odds, a combat roll,
the weather, the owner's tables file and the level of victory."""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from cobi_companion.cards import shipped_folder
from cobi_companion.rules.cobra.combat import UNIT_MODIFIERS, Nation
from cobi_companion.rules.cobra.tables import COLUMNS, Weather

from tests.conftest import run_cli_process

TEMPLATE = shipped_folder() / "cobra" / "tables.toml"

# A hill behind a minor river is -3 columns (8.3.2's example); the seed gives only that sum,
# not each one's shift: this sample splits it as hill -2 and minor river -1.
HILL_AND_RIVER = """\
[terrain]
town = -1
hill = -2
minor_river = -1
"""

# A CRT with one cell filled: 2:1, die 4 is a split result, the attacker's 1 and the
# defender's 2 (the value is the sample's, not the printed table's).
ONE_CELL = """\
[crt]
"2:1" = ["", "", "", "1/2", "", ""]
"""

CELLS = ("-/1", "1/-", "e", "-/e", "2/3", "1/1", "-/-", "e/2", "-/4", "3/-", "1/e", "-/2")


def full_crt() -> dict[str, list[str]]:
    """A complete CRT for the round trip: every column's six cells differ from its
    neighbours' (made-up values, not the printed table's)."""
    return {column: [CELLS[(i + die) % len(CELLS)] for die in range(6)]
            for i, column in enumerate(COLUMNS)}


def full_file() -> str:
    lines = ["[crt]"]
    lines += [f'"{column}" = {json.dumps(cells)}' for column, cells in full_crt().items()]
    lines += ["", "[weather.A]", '"1-2" = "storm"', '"3-4" = "overcast"', '"5-6" = "clear"',
              "", "[weather.B]", '"1" = "storm"', '"2" = "storm"', '"3" = "storm"',
              '"4" = "overcast"', '"5" = "overcast"', '"6" = "clear"',
              "", "[weather.C]", '"1" = "storm"', '"2" = "overcast"', '"3" = "overcast"',
              '"4" = "clear"', '"5" = "clear"', '"6" = "clear"',
              "", "[terrain]", "town = -1", "hill = -2", "minor_river = -1", "marsh = -3"]
    return "\n".join(lines) + "\n"


def write(tmp_path: Path, text: str, name: str = "tables.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def odds(cli, *args):
    run = cli("cobra", "odds", *args, "--json")
    assert run.code == 0, run.err
    return run.json


# ---- the seed's examples ----


def test_26_against_9_is_the_2_to_1_column(cli):
    data = odds(cli, "--attack", "26", "--defence", "9")
    assert (data["attack"]["total"], data["defence"]["total"]) == (26, 9)
    assert data["base_column"] == "2:1" and data["column"] == "2:1"
    assert "rounded down to 2:1" in data["base_note"]
    assert data["shifts"] == [] and data["net_shift"] == 0


def test_12_against_1_is_the_10_to_1_column(cli):
    data = odds(cli, "--attack", "12", "--defence", "1")
    assert data["base_column"] == "10:1" and data["column"] == "10:1"
    assert "beyond 10:1 the 10:1 column is used" in data["base_note"]


def test_allies_four_shifts_against_two_stay_on_10_to_1(cli):
    shifts = ["--attack", "12", "--defence", "1", "--shift", "air:+1,naval:+2,hq:+1",
              "--shift", "terrain:-1,hq:-1"]
    data = odds(cli, *shifts)
    assert (data["attacker_shifts"], data["defender_shifts"], data["net_shift"]) == (4, 2, 2)
    assert data["column"] == "10:1" and data["attacker"] == "allied"
    assert [(s["kind"], s["columns"]) for s in data["shifts"]] == [
        ("air", 1), ("naval", 2), ("hq", 1), ("terrain", -1), ("hq", -1)]
    run = cli("cobra", "odds", *shifts)
    assert run.code == 0, run.err
    column = [line for line in run.out.splitlines() if line.strip().startswith("Column")]
    assert column == ["  Column     10:1: stays on the end column; the table ends at 10:1, so "
                      "the net +2 moves it no further (shifts count from the end columns, "
                      "8.3.2c)"]
    assert "  Net shift  +2: the attacker's 4 minus the defender's 2 (8.3.2c)" in run.out


def test_germans_four_shifts_against_two_give_8_to_1(cli):
    data = odds(cli, "--attack", "12", "--defence", "1",
                "--shift", "hq:+1,patton:+1,terrain:-3,hq:-1")
    assert (data["attacker_shifts"], data["defender_shifts"], data["net_shift"]) == (2, 4, -2)
    assert data["base_column"] == "10:1" and data["column"] == "8:1"


@pytest.mark.parametrize("shift", ["terrain:-1", "town"])
def test_a_town_turns_3_to_1_into_2_to_1(cli, shift):
    data = odds(cli, "--attack", "3", "--defence", "1", "--shift", shift)
    assert data["base_column"] == "3:1" and data["column"] == "2:1"
    assert data["shifts"] == [{"kind": "terrain", "name": "" if ":" in shift else "town",
                               "columns": -1, "for": "defender", "rule": "8.3.2"}]


def test_a_hill_behind_a_minor_river_is_minus_3(cli, tmp_path):
    tables = write(tmp_path, HILL_AND_RIVER)
    data = odds(cli, "--attack", "4", "--defence", "1", "--shift", "hill,minor_river",
                "--tables", str(tables))
    assert [(s["name"], s["columns"]) for s in data["shifts"]] == [("hill", -2),
                                                                    ("minor_river", -1)]
    assert data["defender_shifts"] == 3 and data["net_shift"] == -3
    assert (data["base_column"], data["column"]) == ("4:1", "1:1")


def test_each_unit_is_halved_and_rounded_up_before_adding(cli):
    data = odds(cli, "--attack", "5h,5h", "--defence", "1")
    units = data["attack"]["units"]
    assert [(u["exact"], u["strength"], u["rounded_up"]) for u in units] == \
        [("5/2", 3, True), ("5/2", 3, True)]
    assert data["attack"]["total"] == 6 and data["base_column"] == "6:1"
    run = cli("cobra", "odds", "--attack", "5h,5h", "--defence", "1")
    assert run.code == 0, run.err
    assert "5h    printed 5 × 1/2 halved (8.3.2) = 5/2, rounded up to 3 (2.6)" in run.out
    assert "total 6 (2.6, 8.3.2: each unit rounded up, then added)" in run.out


@pytest.mark.parametrize("unit", ["5md", "5dm"])
def test_a_doubled_and_halved_unit_is_doubled_first(cli, unit):
    """6.3e: divisional integrity doubles; 8.3.2c: mechanized units "have their final combat
    strengths quartered" (halved over a bridge); 8.3.2: "round all fractions up" once the
    unit's modified strength is worked out. 5 doubled is 10, halved 5, never 6."""
    record = odds(cli, "--attack", unit, "--defence", "1")["attack"]["units"][0]
    assert record["strength"] == 5 and record["exact"] == "5"
    assert [(a["letter"], a["value"]) for a in record["applied"]] == [("d", "10"), ("m", "5")]
    assert record["modifiers"][0]["letter"] == unit[1]         # as typed, as before
    text = cli("cobra", "odds", "--attack", unit, "--defence", "1").out
    assert "printed 5 × 2 divisional integrity (6.3e) = 10 × 1/2 mechanized in, into or " \
           "from marsh (8.3.2b) = 5\n" in text


def test_odds_text_explains_every_step(cli):
    run = cli("cobra", "odds", "--attack", "12,6h", "--defence", "4,3x",
              "--shift", "terrain:-1,hq:+1")
    assert run.code == 0, run.err
    assert run.out.splitlines() == [
        "Cobra: odds of 15 against 6",
        "  Attack     12    printed 12",
        "             6h    printed 6 × 1/2 halved (8.3.2) = 3",
        "             total 15 (2.6, 8.3.2: each unit rounded up, then added)",
        "  Defence    4     printed 4",
        "             3x    printed 3 × 1/2 US and British stacked together (8.8k) = 3/2, "
        "rounded up to 2 (2.6)",
        "             total 6 (2.6, 8.3.2: each unit rounded up, then added)",
        "  Odds       15:6 is 2.5 to 1, rounded down to 2:1 (8.4)",
        "  Base       column 2:1",
        "  Shifts     terrain -1 for the defender (8.3.2)",
        "             hq +1 for the attacker (8.3.3)",
        "  Net shift  0: the attacker's 1 minus the defender's 1 (8.3.2c)",
        "  Column     2:1 (net 0: the shifts cancel out)",
    ]
    assert run.err == ""


def test_carpet_bombing_is_6_to_1(cli):
    data = odds(cli, "--carpet", "--planned")
    assert data["carpet_bombing"] is True and data["column"] == "6:1"
    assert data["attack"] is None and data["attacker"] == "allied"


def test_out_of_supply_has_no_divisional_integrity(cli):
    """6.3: "Important: A unit must be in supply to have divisional integrity": 8ds is 4."""
    data = odds(cli, "--attack", "8ds,5d", "--defence", "3")
    assert [u["strength"] for u in data["attack"]["units"]] == [4, 10]
    assert data["attack"]["units"][0]["not_applied"][0]["letter"] == "d"
    assert data["attack"]["units"][1]["not_applied"] == []
    text = cli("cobra", "odds", "--attack", "8ds", "--defence", "3").out
    assert "printed 8 × 1/2 out of supply (10.6) = 4; no divisional integrity ×2: a unit " \
           "must be in supply to have divisional integrity (6.3)" in text


def test_carpet_bombing_is_an_air_mission_on_the_defender(cli, tmp_path):
    """14.1: "carpet bomb any one hex by using three AP"; 14.3g: German units "must take all
    losses in terms of steps": the cell's attacker part is not the mission's."""
    assert odds(cli, "--carpet", "--planned", "--turn", "16")["air_points"] == 3
    crt = write(tmp_path, '[crt]\n"6:1" = ["", "", "1/2", "", "", ""]\n')
    run = cli("cobra", "roll", "--carpet", "--planned", "--dice", "3", "--tables", str(crt),
              "--json")
    assert run.code == 0, run.err
    assert run.json["applies_to"] == "defender"
    assert [line.split(":")[0] for line in run.json["explanation"]] == [
        "Defender", "This turn the other three AP may not be used on this front (this side of "
        "the AAB), only on the other side (14.3e)"]
    text = cli("cobra", "roll", "--carpet", "--planned", "--dice", "3", "--tables",
               str(crt)).out
    assert "Mission    3 Allied air points against one hex; no attacking units, no supply " \
           "point (14.1, 14.3e)" in text and "Attacker" not in text


@pytest.mark.parametrize(("turn", "flown", "code"), [
    ("9", "6", 2), ("16", "6", 0), ("20", "6,16", 0), ("21", "16,20", 2), ("16", "", 0)])
def test_the_carpet_missions_flown_count(cli, turn, flown, code):
    """14.3f: "one carpet bombing attack during GTs 5 through 14 ... a total of two more
    carpet bombing attacks between GT 15 and the end of the game"."""
    run = cli("cobra", "odds", "--carpet", "--planned", "--turn", turn, "--flown", flown)
    assert run.code == code, run.err
    if code:
        assert "no carpet bombing mission left" in run.err


def test_game_turn_1_has_no_air_points(cli):
    """17.3.10: "The Allied player receives no AP on GT 1"; 14.4: "GT 1: 0 NSP"."""
    run = cli("cobra", "weather", "--turn", "1", "--json")
    effects = run.json["effects"]
    assert (effects["allied_air_points"], effects["air_rule"]) == (0, "17.3.10")
    assert (effects["naval_points"], effects["carpet_bombing"]) == (0, False)
    assert "Allied air points: 0 (17.3.10)" in cli("cobra", "weather", "--turn", "1").out


# ---- a combat roll ----


def test_roll_without_a_filled_crt_says_what_to_read(cli):
    run = cli("cobra", "roll", "--attack", "26", "--defence", "9", "--dice", "4")
    assert run.code == 0, run.err
    assert "  Die        4" in run.out.splitlines()
    assert "  Result     read column 2:1, die 4 on your printed CRT" in run.out.splitlines()
    data = cli("cobra", "roll", "--attack", "26", "--defence", "9", "--dice", "4", "--json").json
    assert (data["die"], data["column"], data["result"]) == (4, "2:1", None)
    assert data["explanation"] == ["read column 2:1, die 4 on your printed CRT"]
    assert data["crt"] == str(TEMPLATE)


def test_roll_reads_a_split_result_attacker_first(cli, tmp_path):
    tables = write(tmp_path, ONE_CELL)
    args = ["cobra", "roll", "--attack", "26", "--defence", "9", "--dice", "4",
            "--tables", str(tables)]
    data = cli(*args, "--json").json
    assert data["result"] == {"text": "1/2", "attacker": "1", "defender": "2", "split": True}
    assert data["explanation"][0].startswith("Split result: the attacker takes his result "
                                             "first, then the defender")
    assert data["explanation"][1].startswith("Attacker: lose 1 step")
    assert data["explanation"][2].startswith("Defender: 2: lose steps and/or retreat")
    assert data["crt"] == str(tables)
    run = cli(*args)
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    at = lines.index(f"  Result     1/2 (column 2:1, die 4, from {tables})")
    assert lines[at + 1].startswith("             Split result: the attacker takes his result "
                                    "first")
    assert lines[at + 2].startswith("             Attacker: lose 1 step")


def test_an_overrun_in_the_initial_movement_phase(cli):
    # 5.4.1 printed strength, not doubled (5.4.1a), halved into marsh (5.4.1b); 6.3e the
    # defenders doubled against overruns; 5.4.1c HQ, Patton and naval shifts
    data = odds(cli, "--attack", "8,7m", "--defence", "3d", "--overrun",
                "--shift", "hq:+1,patton:+2,terrain:-1", "--turn", "18")
    assert data["overrun"] == "movement" and data["carpet_bombing"] is False
    assert (data["attack"]["total"], data["defence"]["total"]) == (12, 6)
    assert (data["base_column"], data["net_shift"], data["column"]) == ("2:1", 2, "4:1")
    run = cli("cobra", "odds", "--attack", "8", "--defence", "3", "--overrun")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0] == "Cobra: overrun of 8 against 3 (5.4)"
    assert lines[1].startswith("  Overrun    in the Initial Movement Phase: 3 MP plus the cost "
                               "of entering the hex (5.4a)")
    assert "no supply points are spent (11.0a); no air points (14.2c)" in run.out
    assert odds(cli, "--attack", "8", "--defence", "3")["overrun"] is None   # an attack


def test_an_overrun_advancing_after_combat_and_its_split_result(cli, tmp_path):
    # 5.4.1d terrain and supply only; 5.4.3a a split result halts the overrun
    tables = write(tmp_path, ONE_CELL)
    args = ["cobra", "roll", "--attack", "12", "--defence", "3", "--overrun", "advance",
            "--shift", "terrain:-2", "--dice", "4", "--tables", str(tables)]
    data = cli(*args, "--json").json
    assert data["odds"]["overrun"] == "advance" and data["column"] == "2:1"
    assert data["result"]["split"] is True
    assert data["explanation"][-1].startswith("Overrun: a split result halts it")
    run = cli(*args)
    assert run.code == 0, run.err
    assert "  Overrun    when advancing after combat into units that block the path of " \
           "retreat (5.4b)" in run.out
    assert run.out.splitlines()[-1].strip().endswith("move no more this phase (5.4.3a)")


def test_roll_with_a_random_die_and_a_left_over_scripted_one(cli):
    data = cli("cobra", "roll", "--attack", "2", "--defence", "1", "--json").json
    assert 1 <= data["die"] <= 6 and data["column"] == "2:1"
    run = cli("cobra", "roll", "--attack", "2", "--defence", "1", "--dice", "3,6")
    assert run.code == 0
    assert run.err.strip() == "note: 1 scripted dice not used: 6"


# ---- the weather ----


def weather(cli, *args):
    run = cli("cobra", "weather", *args, "--json")
    assert run.code == 0, run.err
    return run.json


def test_turn_21_after_three_clear_turns_is_clear(cli):
    data = weather(cli, "--turn", "21", "--history", "clear,clear,clear", "--dice", "5")
    assert (data["column"], data["die"], data["modifier"], data["modified"], data["row"]) == \
        ("C", 5, -1, 4, 4)
    assert data["weather"] == "clear" and data["forced"] is None
    assert data["effects"]["allied_air_points"] == 6


def test_turn_22_after_four_clear_turns_reads_the_lowest_row_storms(cli):
    args = ["--turn", "22", "--history", "clear,clear,clear,clear", "--dice", "2"]
    data = weather(cli, *args)
    assert (data["modifier"], data["modified"], data["row"], data["weather"]) == \
        (-2, 0, 1, "storm")
    assert data["effects"]["german_supply_points"] == 3
    run = cli("cobra", "weather", *args)
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert "  Modifier   4 clear turns in a row: -2 (5.3a3)" in lines
    assert "  Modified   2 -2 = 0" in lines
    assert "  Row        1 (the modified 0 is below column C's lowest row: read as its lowest " \
           "row)" in lines
    assert "  Weather    STORM" in lines
    assert "  Effects    German MA: full (5.3b)" in lines


def test_turn_1_is_clear_without_a_die(cli):
    data = weather(cli, "--turn", "1")
    assert (data["weather"], data["die"], data["modified"]) == ("clear", None, None)
    assert data["forced"] == "game turn 1 is always clear (5.3)"


def test_three_storms_then_overcast(cli):
    data = weather(cli, "--turn", "9",
                   "--history", "clear,overcast,clear,clear,storm,storm,storm,storm")
    assert data["weather"] == "overcast" and data["die"] is None
    assert "three storm turns" in data["forced"]


def test_turn_15_after_two_storms_uses_column_b(cli):
    data = weather(cli, "--turn", "15", "--history", "clear,storm,storm", "--dice", "3")
    assert (data["column"], data["modified"], data["row"], data["weather"]) == \
        ("B", 3, 3, None)
    assert "two turns before were storms" in data["column_note"]
    run = cli("cobra", "weather", "--turn", "15", "--history", "clear,storm,storm",
              "--dice", "3")
    assert "  Weather    read column B row 3 on your printed Weather Table" in \
        run.out.splitlines()


# ---- the owner's tables ----


def test_crt_check_the_shipped_template(cli):
    run = cli("cobra", "crt", "check", str(TEMPLATE))
    assert run.code == 0, run.out
    assert run.out.strip() == (f"{TEMPLATE}: ok — CRT 0 of 84 cells filled; weather A 0/6, "
                               f"B 0/6, C 2/6 rows; terrain: town -1; scatter diagram 1/6")


def test_a_full_tables_file_round_trip(cli, tmp_path):
    text = full_file()
    assert tomllib.loads(text)["crt"] == full_crt()
    tables = write(tmp_path, text)
    run = cli("cobra", "crt", "check", str(tables))
    assert run.code == 0, run.out
    assert run.out.strip() == (f"{tables}: ok — CRT 84 of 84 cells filled; weather A 3/3, "
                               f"B 6/6, C 6/6 rows; terrain: town -1, hill -2, "
                               f"minor_river -1, marsh -3; scatter diagram 0/6")
    crt = full_crt()
    for attack, defence, column in (("1", "9", "1:5"), ("2", "1", "2:1"), ("1", "1", "1:1"),
                                    ("12", "1", "10:1"), ("7", "1", "7:1")):
        for die in (1, 4, 6):
            data = cli("cobra", "roll", "--attack", attack, "--defence", defence,
                       "--dice", str(die), "--tables", str(tables), "--json").json
            assert data["column"] == column
            assert data["result"]["text"] == crt[column][die - 1], (column, die)
    data = weather(cli, "--turn", "3", "--history", "clear,overcast", "--dice", "2",
                   "--tables", str(tables))
    assert (data["column"], data["row"], data["weather"]) == ("A", 2, "storm")
    data = odds(cli, "--attack", "8", "--defence", "1", "--shift", "marsh",
                "--tables", str(tables))
    assert data["column"] == "5:1"


def test_crt_check_names_the_file_and_field_of_each_problem(cli, tmp_path):
    tables = write(tmp_path, '[crt]\n"2:1" = ["", "", "", "1/x", "", ""]\n'
                             '[weather.C]\n"1" = "sunny"\n'
                             '[terrain]\nhill = 2\n'
                             '[scatter]\nx = 1\n')
    run = cli("cobra", "crt", "check", str(tables))
    assert run.code == 1
    lines = run.out.splitlines()
    assert len(lines) == 5, run.out
    assert lines[0].startswith(f"{tables}: crt: column 2:1, die 4: '1/x' is not a CRT result")
    assert lines[1].startswith(f"{tables}: weather: column C, row 1: 'sunny'; allowed: clear")
    assert lines[2].startswith(f"{tables}: terrain: terrain 'hill': 2; allowed: a shift from 0 "
                               f"to -5")
    # the Scatter Diagram's section (17.3.2 step 2c): a die face each, six directions
    assert lines[3].startswith(f"{tables}: scatter.x: 1 is not allowed; allowed: map B's "
                               f"Scatter Diagram (17.3.2 step 2c): die faces \"1\" to \"6\"")
    assert lines[4] == f"{tables}: 4 problems"


def test_a_broken_tables_option_is_refused_with_its_problems(cli, tmp_path):
    tables = write(tmp_path, '[terrain]\nhill = 2\n')
    run = cli("cobra", "odds", "--attack", "3", "--defence", "1", "--tables", str(tables))
    assert run.code == 2 and run.out == ""
    assert run.err.splitlines() == [f"cobi-companion: {tables}: terrain: terrain 'hill': 2; "
                                    f"allowed: a shift from 0 to -5 (defensive benefits shift "
                                    f"left, 8.3.2)"]


def test_a_broken_tables_file_in_the_cards_folder_is_a_warning(cli, tmp_path):
    cards = tmp_path / "cards"
    (cards / "cobra").mkdir(parents=True)
    write(cards / "cobra", '[crt]\n"2:1" = ["1/x", "", "", "", "", ""]\n')
    run = cli("--cards", str(cards), "cobra", "odds", "--attack", "3", "--defence", "1",
              "--shift", "town", "--json")
    assert run.code == 0, run.err
    assert run.json["column"] == "2:1"          # the template's town
    assert run.err.splitlines() == [
        f"warning: {cards / 'cobra' / 'tables.toml'}: crt: column 2:1, die 1: '1/x' is not a "
        f"CRT result; allowed: \"attacker/defender\", each side \"-\" (no effect), \"e\" (all "
        f"steps lost) or steps 1 to 9, like \"1/2\" or \"-/3\"; a lone \"e\" is \"e/-\"; "
        f"\"\" while not filled in"]


def test_the_owners_file_in_the_cards_folder_is_used(cli, tmp_path):
    cards = tmp_path / "cards"
    (cards / "cobra").mkdir(parents=True)
    write(cards / "cobra", ONE_CELL)
    data = cli("--cards", str(cards), "cobra", "roll", "--attack", "2", "--defence", "1",
               "--dice", "4", "--json").json
    assert data["result"]["text"] == "1/2" and data["crt"] == str(cards / "cobra" / "tables.toml")


# ---- refusals ----


@pytest.mark.parametrize(("args", "words"), [
    (["odds", "--attack", "12k", "--defence", "1"], "unit '12k': unknown modifier 'k'"),
    (["odds", "--attack", "six", "--defence", "1"], "unit 'six': write its strength"),
    (["odds", "--attack", "12", "--defence", "1", "--shift", "foo:+1"],
     "shift 'foo:+1': write KIND:COLUMNS"),
    (["odds", "--attack", "12", "--defence", "1", "--shift", "hq:+x"],
     "shift 'hq:+x': the columns are a whole number"),
    (["odds", "--attack", "12", "--defence", "1", "--shift", "hill"], "no terrain 'hill'"),
    (["odds", "--attack", "12", "--defence", "1", "--shift", "tiger:+1,air:+1"],
     "shift air +1 means the allied side attacks, but another shift says the german side "
     "does"),
    (["roll", "--attack", "12", "--defence", "1", "--shift", "hq:+2", "--turn", "16"],
     "two HQ shifts only from game turn 17 (8.3.3a)"),
    (["odds", "--carpet", "--shift", "air:+1"], "carpet bombing is never shifted"),
    (["odds", "--carpet", "--attack", "3"], "--attack: carpet bombing has no units"),
    (["odds", "--carpet", "--weather", "overcast"], "carpet bombing only in clear weather (14.3b)"),
    (["odds", "--attack", "8d", "--defence", "3", "--overrun"],
     "unit 8d: an overrun is at printed strength, not doubled for divisional integrity (5.4.1a)"),
    (["odds", "--attack", "8", "--defence", "3", "--overrun", "--shift", "air:+1"],
     "air points may not aid an overrun (14.2c)"),
    (["roll", "--attack", "8", "--defence", "3", "--overrun", "advance", "--shift", "hq:+1"],
     "only terrain and supply: no hq shift (5.4.1d)"),
    (["odds", "--attack", "8", "--defence", "3", "--overrun", "--turn", "1"],
     "no overruns on game turn 1 (17.3.3c)"),
    (["odds", "--attack", "8", "--defence", "3", "--overrun", "--carpet"],
     "--overrun: carpet bombing is an air mission, not an overrun"),
    (["odds", "--attack", "8", "--defence", "3", "--overrun", "mechanized"],
     "--overrun: invalid choice: 'mechanized'"),
    (["odds", "--attack", "6", "--defence", "2", "--shift", "air:+1", "--turn", "1"],
     "the Allied player receives no AP on GT 1 (17.3.10)"),
    (["odds", "--attack", "6", "--defence", "2", "--shift", "naval:+1", "--turn", "1"],
     "game turn 1 has 0 naval support points (14.4)"),
    (["odds", "--carpet", "--flown", "6"], "--flown needs --turn"),
    (["odds", "--carpet", "--turn", "9", "--flown", "9"], "--flown '9': each a game turn before"),
    (["odds", "--attack", "6", "--defence", "2", "--flown", "6"], "count only with --carpet"),
    (["odds", "--attack", "12", "--defence", "1", "--weather", "sunny"],
     "--weather: invalid choice: 'sunny'"),
    (["odds", "--attack", "12", "--defence", "1", "--shift", "air:+1", "--weather", "storm"],
     "no air points in storms"),
    (["odds", "--attack", "12"], "cobra odds needs --defence UNITS"),
    (["odds", "--attack", "12", "--defence", "1", "--turn", "x"],
     "--turn: 'x' is not allowed; allowed: a game turn from 1 to 28"),
    (["roll", "--attack", "12", "--defence", "1", "--dice", "7"], "7 is not a D6 face"),
    (["weather", "--turn", "5", "--history", "clear,sunny"], "weather 'sunny': allowed"),
    (["weather", "--turn", "30"], "--turn: 30 is not allowed; allowed: a game turn from 1 to 28"),
    (["weather"], "the following arguments are required: --turn"),
    ([], "cobra needs a subcommand"),
    # 8.3.2a: "Attacking British armored brigades ... halved": never a German attacker's
    (["odds", "--attack", "6b", "--defence", "4", "--attacker", "german"],
     "unit 6b: British armoured brigade without infantry (8.3.2a) is only for allied units"),
    # 8.8k: "a hex containing US and British units": never a German defender's
    (["odds", "--attack", "6", "--defence", "4x", "--shift", "air:+1"],
     "US and British stacked together (8.8k) is only for allied units"),
    # 17.4.2: "Rules 16.3.1 and 16.3.2 (Marginal Victories) are modified": not the front line
    (["victory", "--scenario", "buildup", "--frontline", "yes"],
     "--frontline: the buildup scenario asks --objectives (17.4.2)"),
    (["victory", "--scenario", "cobra"], "cobra victory --scenario cobra needs --frontline"),
    # no rule takes VP from the Allied player (16.2 only gives them)
    (["victory", "--scenario", "cobra", "--frontline", "no", "--allied-vp", "-1"],
     "--allied-vp: -1 is not allowed; allowed: Allied VP from 0 to 999"),
])
def test_refusals_are_one_line(cli, args, words):
    run = cli("cobra", *args)
    assert run.code == 2, run.out
    assert run.out == ""
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], run.err
    assert "Traceback" not in run.err


def test_the_parsers_choices_are_the_rules_own(cli):
    helped = " ".join(cli("cobra", "roll", "--help").out.split())
    assert f"--attacker {{{','.join(n.value for n in Nation)}}}" in helped
    assert f"--weather {{{','.join(w.value for w in Weather)}}}" in helped
    assert f"modifier letters ({' '.join(m.letter for m in UNIT_MODIFIERS)}; " in helped


@pytest.mark.parametrize(("held", "level"), [("yes", "Marginal Allied"),
                                             ("no", "Marginal German")])
def test_the_build_up_victory_asks_for_its_objectives(cli, held, level):
    """17.4.2: "a) Bayeux (all three hexes), Isigny and Carentan must all be Allied
    controlled. b) Cherbourg must not be connected by primary road to a south or east map
    edge. c) If the Allied player fails to accomplish that, the result is a Marginal German
    Victory (subject to VP shifts)."
    """
    run = cli("cobra", "victory", "--scenario", "buildup", "--objectives", held, "--json")
    assert run.code == 0, run.err
    assert run.json["question"]["key"] == "objectives" and run.json["question"]["rule"] == \
        "17.4.2"
    assert run.json["initial_level"] == run.json["level"] == level


def test_a_german_loss_of_vp_goes_below_zero_and_the_net_decides(cli):
    """18.0: the variant counters require "the German to lose the designated number of
    victory points" (the 4th Panzer Division: 15); 16.3: "subtract the German total from the
    Allied total"; 16.3.3: "For every increment of 15 VP ... shifted one in his favor"."""
    run = cli("cobra", "victory", "--scenario", "cobra", "--frontline", "yes",
              "--german-vp", "-15", "--allied-vp", "0", "--json")
    assert run.code == 0, run.err
    data = run.json
    assert (data["german_vp"], data["net_vp"], data["initial_level"]) == (-15, 15,
                                                                         "Marginal German")
    assert (data["levels_shifted"], data["toward"], data["level"]) == (1, "allied", "Draw")
    text = cli("cobra", "victory", "--scenario", "cobra", "--frontline", "yes",
               "--german-vp", "-15").out
    assert "Net VP     Allied 0 − German -15 = +15 (16.3)" in text
    assert "Level      Draw: " in text


def budgets(run) -> dict[str, tuple[int, int, int, int]]:
    data = json.loads(run.out)
    return {b["kind"]: (b["given"], b["most"], b["used"], b["left"]) for b in data["budgets"]}


def test_points_on_defence_are_half_the_turns_air(cli):
    """14.1a: "Up to one half of the available Allied AP may be used as defensive support
    during the German Combat Phase"; 14.4: GT 11 through 27, two NSP; 14.3f: two carpet
    missions from GT 15."""
    run = cli("cobra", "points", "--turn", "16", "--weather", "clear", "--phase", "german",
              "--air-used", "1", "--json")
    assert run.code == 0
    assert budgets(run) == {"air": (6, 3, 1, 2), "naval": (2, 2, 0, 2), "carpet": (2, 2, 0, 2)}
    text = cli("cobra", "points", "--turn", "16", "--weather", "clear", "--phase", "german",
               "--air-used", "1")
    assert "Air        2 AP left of 3 of the turn's 6, 1 spent (14.1a)" in text.out


def test_points_in_storms_and_after_a_carpet_mission(cli):
    """14.0b: no AP in storms; 14.4: "During storms weather conditions no more than one NSP may
    be used"; 14.3f: "a total of two more" from GT 15: one flown leaves one to come."""
    run = cli("cobra", "points", "--turn", "16", "--weather", "storm", "--flown", "16",
              "--json")
    assert budgets(run) == {"air": (0, 0, 0, 0), "naval": (2, 1, 0, 1), "carpet": (2, 2, 1, 1)}


def test_points_on_game_turn_1(cli):
    """17.3.10: "The Allied player receives no AP on GT 1"; 14.4: "GT 1: 0 NSP"."""
    run = cli("cobra", "points", "--turn", "1", "--weather", "clear", "--json")
    assert budgets(run) == {"air": (0, 0, 0, 0), "naval": (0, 0, 0, 0), "carpet": (0, 0, 0, 0)}
    assert json.loads(run.out)["budgets"][0]["rule"] == "17.3.10"


@pytest.mark.parametrize(("args", "said"), [
    (("--air-used", "4", "--phase", "german"), "--air-used 4: game turn 16 in clear weather "
                                               "has 3 air points in this phase"),
    (("--naval-used", "3"), "--naval-used 3: game turn 16 in clear weather has 2 naval "
                            "support points"),
    (("--flown", "17"), "--flown '17': each a game turn from 1 to --turn 16"),
])
def test_points_refuses_more_than_the_turn_has(cli, args, said):
    """14.1a, 14.4, 14.3f: what a game turn gives is the most it spends; exit 2, one line."""
    run = cli("cobra", "points", "--turn", "16", "--weather", "clear", *args)
    assert run.code == 2 and run.out == ""
    assert run.err.strip().splitlines() == [f"cobi-companion: {said}"]


def test_points_half_the_overcast_air_on_defence_rounds_up(cli):
    """14.1a "Up to one half of the available Allied AP"; 2.6 "Fractional and decimal values
    are rounded up": overcast 3 AP gives 2 on defence, not 1."""
    run = cli("cobra", "points", "--turn", "16", "--weather", "overcast", "--phase", "german",
              "--json")
    assert run.code == 0
    assert budgets(run)["air"] == (3, 2, 0, 2)


def test_14_4d_naval_at_four_to_six_hexes_costs_two_points_a_column():
    """14.4d: "If the target hex is within four to six hexes ... two NSP are required to enable
    a one column shift to the right"; 14.4b: "A maximum of two NSP may be committed to one
    attack"; 14.4: "During storms ... no more than one NSP may be used". Real processes."""
    far = run_cli_process("cobra", "odds", "--attack", "6", "--defence", "2", "--shift",
                          "naval:+1", "--turn", "16", "--naval-range", "far", "--json")
    assert far.code == 0, far.err
    data = json.loads(far.out)
    assert (data["column"], data["naval_points"], data["naval_range"], data["naval_rule"]) == \
        ("4:1", 2, "far", "14.4d")
    near = run_cli_process("cobra", "odds", "--attack", "6", "--defence", "2", "--shift",
                           "naval:+1", "--turn", "16")
    assert "  Naval      1 NSP: the target within three hexes of the sea, one a column (14.4c)" \
        in near.out.splitlines()
    two = run_cli_process("cobra", "odds", "--attack", "6", "--defence", "2", "--shift",
                          "naval:+2", "--naval-range", "far")
    assert two.code == 2 and two.err.strip() == "cobi-companion: naval +2 at 4 to 6 hexes " \
        "needs 4 naval points, two a column (14.4d); one attack takes 2 at most (14.4b): +1 at " \
        "most"
    storm = run_cli_process("cobra", "roll", "--attack", "6", "--defence", "2", "--shift",
                            "naval:+1", "--naval-range", "far", "--weather", "storm",
                            "--dice", "4")
    assert storm.code == 2 and storm.out == "" and len(storm.err.splitlines()) == 1
    assert "a target 4 to 6 hexes away needs two for a column: no naval shift" in storm.err


def test_17_3_6_a_german_defender_is_in_supply_on_game_turns_1_and_2():
    """17.3.6: "All German units are automatically in supply during those game turns": a German
    defender marked out of supply on GT 2 is refused, not halved (the box never offers it); a
    German attack without its supply points is still halved (11.0c). Real processes."""
    run = run_cli_process("cobra", "odds", "--attack", "12", "--defence", "4s", "--attacker",
                          "allied", "--turn", "2")
    assert run.code == 2 and run.out == ""
    assert run.err.strip() == "cobi-companion: game turn 2: every unit is in supply on GT 1 " \
        "and 2, Allied (17.3.6d) and German (17.3.6)"
    attack = run_cli_process("cobra", "odds", "--attack", "6s", "--defence", "3", "--attacker",
                             "german", "--turn", "2", "--json")
    assert attack.code == 0, attack.err
    assert json.loads(attack.out)["attack"]["total"] == 3
    later = run_cli_process("cobra", "odds", "--attack", "12", "--defence", "4s", "--attacker",
                            "allied", "--turn", "3", "--json")
    assert later.code == 0 and json.loads(later.out)["defence"]["total"] == 2
