"""The Soft Targets Table's values the box learned at the table, on the command line: `cards
check` checks the learned file, and `resolve` and `odds` use it (`--learned FILE`, else the one
in the box's default state folder) but still refuse, with the reason, a value nobody dialled."""
from __future__ import annotations

from pathlib import Path

from cobi_companion.cards import learned_file, shipped_folder, write_learned
from cobi_companion.rules.tank.soft_table import Lack, SoftTable, Wanted

RIFLE_AT_30 = ["--rules", "tank", "--attacker", "rifleman", "--weapon", "rifle", "--target",
               "pistol-soldier", "--range-cm", "30"]
YOUR_TABLE = ["--house-rule", "soft_table=printed"]    # the learned values are your table's
BROKEN = "[weapons.rifle]\nranges = [{ from_cm = 28, to_cm = 40, modifier = 12 }]\n"


def learned_at(state: Path) -> Path:
    """What the box writes when the players save +1 for the rifle from 28 to 40 cm."""
    path = learned_file(state)
    table = SoftTable().answered(Wanted(Lack.RANGE, "rifle", 30), 1,
                                 "learned at the table, 2026-11-25", (28, 40))
    write_learned(path, table.learned)
    return path


def test_cards_check_on_the_learned_file(cli_process, tmp_path):
    run = cli_process("cards", "check", str(learned_at(tmp_path)))
    assert (run.code, run.out, run.err) == (0, "Soft Targets Table ok\n", "")


def test_cards_check_on_a_broken_learned_file_names_file_field_and_allowed(cli_process,
                                                                          tmp_path):
    path = learned_file(tmp_path)
    path.parent.mkdir()
    path.write_text(BROKEN)
    run = cli_process("cards", "check", str(path))
    assert run.code == 1 and run.err == ""
    assert run.out.splitlines() == [
        f"{path}: weapons.rifle.ranges.0.modifier: 12 is not allowed; allowed: a whole "
        f"number from -10 to +10, like -2",
        "Soft Targets Table 1 problem"]


def test_cards_check_of_everything_in_play_reads_the_box_learned_file(cli_process, tmp_path):
    # The box's state folder when run as you: $XDG_DATA_HOME/cobi-companion.
    path = learned_file(tmp_path / "data" / "cobi-companion")
    path.parent.mkdir(parents=True)
    path.write_text(BROKEN)
    run = cli_process("cards", "check", env={"XDG_DATA_HOME": str(tmp_path / "data")})
    assert run.code == 1
    assert run.out.splitlines() == [
        f"{path}: weapons.rifle.ranges.0.modifier: 12 is not allowed; allowed: a whole "
        f"number from -10 to +10, like -2",
        "11 cards ok, 1 problem"]


def test_resolve_uses_the_values_the_box_learned(cli, tmp_path):
    path = learned_at(tmp_path / "state")
    run = cli("resolve", *RIFLE_AT_30, *YOUR_TABLE, "--dice", "4,3", "--json", "--learned",
              str(path))
    assert run.code == 0, run.err
    (attack,) = run.json["targets"][0]["attacks"]
    assert attack["modifiers"] == [{"reason": "rifle at 30 cm (learned at the table, "
                                              "2026-11-25)", "value": 1}]
    assert (attack["modified"], attack["defender"], attack["hit"]) == (5, 3, True)


def test_odds_read_the_learned_file_of_the_default_state_folder(cli, tmp_path):
    learned_at(tmp_path / "data" / "cobi-companion")
    run = cli("odds", *RIFLE_AT_30, *YOUR_TABLE, "--json",
              env={"XDG_DATA_HOME": str(tmp_path / "data")})
    assert run.code == 0, run.err
    assert run.json["all_down"] == 21 / 36


def test_a_value_nobody_dialled_is_still_refused_with_the_reason(cli, tmp_path):
    path = learned_at(tmp_path / "state")
    run = cli("odds", *RIFLE_AT_30[:-1], "50", *YOUR_TABLE, "--learned", str(path))
    assert run.code == 2 and run.out == ""
    assert run.err.splitlines() == [
        "cobi-companion: the Soft Targets Table "
        f"({shipped_folder() / 'tables' / 'soft-targets.toml'}) has no "
        "rifle value for 50 cm (it has 28-40 cm, 45 cm): add it from your printed table"]


def test_our_table_by_default_takes_the_estimate_and_not_the_learned_values(cli, tmp_path):
    path = learned_at(tmp_path / "state")
    run = cli("resolve", *RIFLE_AT_30, "--dice", "4,3", "--json", "--learned", str(path))
    assert run.code == 0, run.err
    (attack,) = run.json["targets"][0]["attacks"]
    assert attack["modifiers"] == [{"reason": "rifle at 30 cm (estimate: the rifle example's "
                                              "+2 at 45 cm, held from 0 to 100 cm)", "value": 2}]
    assert run.json["house_rules"] == {}
    run = cli("odds", *RIFLE_AT_30[:-1], "50", "--json", "--learned", str(path))
    assert run.code == 0 and run.json["all_down"] == 26 / 36          # d6+2 > d6


def test_a_learned_file_that_is_not_there_is_one_line(cli_process, tmp_path):
    run = cli_process("odds", *RIFLE_AT_30, "--learned", str(tmp_path / "nope.toml"))
    assert run.code == 2 and run.out == ""
    assert run.err == (f"cobi-companion odds: --learned: {tmp_path / 'nope.toml'} does not "
                       f"exist; allowed: the learned values' file, like "
                       f"/var/lib/cobi-companion/learned/soft-targets.toml, UTF-8 text of at "
                       f"most 256 KiB\n")
