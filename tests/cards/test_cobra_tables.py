"""The owner's Cobra tables file: the shipped template, a full file's round trip, problems."""
from __future__ import annotations

from pathlib import Path

import pytest
from cobi_companion.cards import CardFileError, cobra_tables, load_cobra_tables, shipped_folder
from cobi_companion.rules.cobra.tables import COLUMNS, Direction, Weather

RESULTS = ["e", "1/1", "-/1", "1/2", "-/2", "-/3"]


def full_file(path: Path) -> Path:
    def cells(i: int) -> str:
        return ", ".join(f'"{RESULTS[(i + die) % 6]}"' for die in range(6))
    crt = "\n".join(f'"{column}" = [{cells(i)}]' for i, column in enumerate(COLUMNS))
    rows = '"1-2" = "storm"\n"3-4" = "overcast"\n"5-6" = "clear"\n'
    path.write_text(f"[crt]\n{crt}\n\n[weather.A]\n{rows}\n[weather.B]\n{rows}\n"
                    f"[weather.C]\n{rows}\n[terrain]\ntown = -1\nhill = -2\n", encoding="utf-8")
    return path


def test_the_shipped_template_is_empty_but_for_the_rules_examples():
    tables = load_cobra_tables(shipped_folder() / "cobra" / "tables.toml")
    assert tables.filled() == 0 and set(tables.crt) == set(COLUMNS)
    assert [w for _, _, w in tables.weather_rows("C")] == [
        Weather.STORM, None, None, Weather.CLEAR, None, None]
    assert tables.terrain == {"town": -1}
    # 17.3.2 step 2c: "A result of 4 would require that the unit be moved one hex south"
    assert [tables.scatter_direction(face) for face in range(1, 7)] == [
        None, None, None, Direction.SOUTH, None, None]


def test_a_full_file_round_trips(tmp_path):
    tables = load_cobra_tables(full_file(tmp_path / "tables.toml"))
    assert tables.filled() == 84
    for i, column in enumerate(COLUMNS):
        for die in range(1, 7):
            result = tables.result(column, die)
            assert result is not None and result.text == RESULTS[(i + die - 1) % 6]
    assert tables.weather_rows("B")[1] == (3, 4, Weather.OVERCAST)
    assert tables.terrain_shift("Hill") == -2


def test_the_owners_file_in_a_cards_folder_wins(tmp_path):
    (tmp_path / "cobra").mkdir()
    full_file(tmp_path / "cobra" / "tables.toml")
    tables, problems = cobra_tables([tmp_path])
    assert problems == [] and tables.filled() == 84 and tables.source.startswith(str(tmp_path))


def test_a_broken_owners_file_is_reported_and_the_template_stays(tmp_path):
    (tmp_path / "cobra").mkdir()
    (tmp_path / "cobra" / "tables.toml").write_text('[crt]\n"2:1" = ["1/2"]\n')
    tables, problems = cobra_tables([tmp_path])
    assert tables.filled() == 0 and len(problems) == 1
    assert "tables.toml: crt: column 2:1: 1 cells; allowed: exactly 6" in str(problems[0])


@pytest.mark.parametrize(("text", "field", "message"), [
    ('[crt]\n"2:1" = ["1/2", "x", "", "", "", ""]\n', "crt", "column 2:1, die 2: 'x'"),
    ('[crt]\n"11:1" = ["", "", "", "", "", ""]\n', "crt", "allowed: 1:5, 1:4"),
    ('[weather.D]\n"1" = "storm"\n', "weather", "allowed: A, B, C"),
    ('[weather.A]\n"1" = "sunny"\n', "weather", "column A, row 1: 'sunny'"),
    ('[weather.A]\n"1-3" = "storm"\n"3" = "clear"\n', "weather", "rows overlap"),
    ('[terrain]\nhill = 2\n', "terrain", "from 0 to -5"),
    ('[terain]\n', "terain", "allowed fields: crt, weather, terrain, scatter"),
    # the Scatter Diagram (17.3.2 step 2c): die faces 1 to 6, each a direction, each once
    ('[scatter]\n"4" = "up"\n', "scatter", "scatter die 4: 'up'; allowed: die faces"),
    ('[scatter]\n"7" = "north"\n', "scatter", "scatter die '7'"),
    ('[scatter]\n"4" = "south"\n"5" = "South"\n', "scatter", "south is die 4's already"),
    # keys of any length: named cut short, and a terrain's name has a length
    ('[terrain]\n' + "h" * 6000 + ' = -1\n', "terrain",
     "terrain '" + "h" * 38 + "…: a name of 6000 letters; allowed: a name of at most 40"),
    ('[crt]\n"' + "9" * 6000 + '" = []\n', "crt", "column '" + "9" * 38 + "… is not a CRT"),
    ('[weather.' + "W" * 6000 + ']\n', "weather", "weather column '" + "W" * 38 + "…; allowed"),
    ('[scatter]\n"' + "7" * 6000 + '" = "north"\n', "scatter",
     "scatter die '" + "7" * 38 + "…; allowed"),
])
def test_problems_name_the_file_the_field_and_what_is_allowed(tmp_path, text, field, message):
    path = tmp_path / "tables.toml"
    path.write_text(text)
    with pytest.raises(CardFileError) as caught:
        load_cobra_tables(path)
    problem = caught.value.problems[0]
    assert problem.path == str(path) and problem.field == field and message in problem.message
    assert len(str(problem)) < 1000


def test_every_problem_of_a_section_is_named(tmp_path):
    path = tmp_path / "tables.toml"
    path.write_text('[crt]\n"2:1" = ["", "", "", "1/x", "", ""]\n'
                    '"11:1" = ["", "", "", "", "", ""]\n"3:1" = ["", ""]\n'
                    '[weather.A]\n"1-3" = "clear"\n"3" = "storm"\n'
                    '[weather.D]\n"1" = "clear"\n[terrain]\nhill = 2\n')
    with pytest.raises(CardFileError) as caught:
        load_cobra_tables(path)
    text = "\n".join(str(p) for p in caught.value.problems)
    for part in ("column 2:1, die 4", "'11:1'", "column 3:1: 2 cells", "rows overlap",
                 "weather column 'D'", "terrain 'hill'"):
        assert part in text


def test_cards_check_knows_the_cobra_tables_file(tmp_path):
    from cobi_companion.cards import check

    (tmp_path / "cobra").mkdir()
    full_file(tmp_path / "cobra" / "tables.toml")
    assert check(tmp_path / "cobra" / "tables.toml") == ([], [])
    (tmp_path / "cobra" / "tables.toml").write_text("[terrain]\nhill = 1\n")
    cards, problems = check(tmp_path)
    assert cards == [] and "terrain 'hill'" in str(problems[0])
