"""The `cobi-companion` command, run as a real subprocess."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction

import pytest
from cobi_companion.rules.card import Facing
from cobi_companion.rules.levels import RULE_SETS
from cobi_companion.rules.tank.refusals import TankRefusal


def shot(rules, attacker, target, facing, dice, *extra):
    return ["resolve", "--rules", rules, "--attacker", attacker, "--target", target,
            "--facing", facing, "--dice", dice, "--json", *extra]


SEED_SHOTS = [
    # Easy (002): Sherman at Pz IV front: 5 hits; 9 + D6+ 6,6,3 = 16; 6 + D6+ 4 = 10; 6 >= 4.
    (shot("easy", "2464", "2508", "front", "5,6,6,3,4"),
     {"hit": True, "to_hit": {"roll": 5, "modified": 5, "needed": 3}, "reload": None,
      "damage": {"rolls": [6, 6, 3], "total": 16}, "armour": {"rolls": [4], "value": 6,
                                                              "total": 10},
      "net": 6, "effect": "destroyed", "status_after": ["destroyed"]}),
    # Tank Game (000): 7TP at Pz I front: 1,3,5,6 + 6 + 2 = 5 damage, armour 2.
    (shot("tank", "2456", "2474", "front", "3,4,1,3,5,6,6,2"),
     {"hit": True, "reload": {"roll": 4, "loaded": True},
      "damage": {"rolls": [1, 3, 5, 6, 6, 2], "total": 5},
      "armour": {"rolls": [], "total": 2}, "net": 3, "effect": "destroyed"}),
    # Hull down: the 7TP needs 4, 5 or 6.
    (shot("tank", "2456", "2474", "front", "3,4", "--hull-down"),
     {"hit": False, "to_hit": {"roll": 3, "modified": 2, "needed": 3}, "net": None,
      "effect": "miss", "damage": None}),
    (shot("tank", "2456", "2474", "front", "4,4,2,2,2,2", "--hull-down"),
     {"hit": True, "damage": {"total": 4}}),
    # Kelly's Heroes: the Sherman hits the Tiger's rear twice.
    (shot("tank", "2464", "2477", "rear", "3,5,3,6,4,4,6,3,1,2,4,4,2"),
     {"hit": True, "reload": {"loaded": True}, "damage": {"total": 10}, "net": 2,
      "effect": "weakened", "status_after": ["weakened"]}),
    (shot("tank", "2464", "2477", "rear", "4,5,4,2,1,4,2,2,3,6,6,5,6,4",
          "--target-status", "weakened"),
     {"hit": True, "damage": {"total": 11}, "net": 3, "effect": "destroyed",
      "status_before": ["weakened"], "status_after": ["weakened", "destroyed"]}),
]


def assert_within(data, expected, path=""):
    if isinstance(expected, dict):
        for key, value in expected.items():
            assert key in data, f"{path}.{key} missing"
            assert_within(data[key], value, f"{path}.{key}")
    else:
        assert data == expected, f"{path}: {data!r} != {expected!r}"


@pytest.mark.parametrize(("args", "expected"), SEED_SHOTS)
def test_seed_examples_through_the_cli(cli, args, expected):
    run = cli(*args)
    assert run.code == 0, run.err
    assert_within(run.json, expected)


def test_readable_explanation(cli):
    run = cli("resolve", "--rules", "tank", "--attacker", "2464", "--target", "2477",
              "--facing", "rear", "--dice", "3,5,3,6,4,4,6,3,1,2,4,4,2")
    assert run.code == 0
    assert "9 dice 3 6 4 4 6 3 1 2 4, extra 4 2 = 10" in run.out
    assert "10 − 8 = 2 is Weaken 2-3: weakened" in run.out
    assert "==> WEAKENED" in run.out


def test_random_dice_without_dice_option(cli):
    run = cli("resolve", "--rules", "tank", "--attacker", "2477", "--target", "2464",
              "--facing", "front", "--json")
    assert run.code == 0
    data = run.json
    assert data["effect"] in {"miss", "none", "immobilized", "weakened", "gun_destroyed",
                              "destroyed"}
    assert all(1 <= face <= 6 for face in data["dice"])


@pytest.mark.parametrize(("args", "words"), [
    (["--rules", "tank", "--attacker", "9999", "--target", "2477", "--facing", "front"],
     "unknown card '9999'"),
    (["--rules", "tank", "--attacker", "2474", "--target", "2477", "--facing", "front"],
     "has no gun"),
    (["--rules", "tank", "--attacker", "2477", "--target", "2464", "--facing", "front",
      "--attacker-status", "unloaded"], "unloaded: it must reload"),
    (["--rules", "tank", "--attacker", "2477", "--target", "2464", "--facing", "front",
      "--attacker-status", "gun_destroyed"], "lost its gun"),
    (["--rules", "tank", "--attacker", "2477", "--target", "2464", "--facing", "front",
      "--dice", "3"], "too few scripted dice"),
    (["--rules", "tank", "--attacker", "2477", "--target", "2508", "--facing", "side",
      "--dice", "6,6"], "has no value for armour_side"),
    (["--rules", "easy", "--attacker", "2477", "--target", "2464", "--facing", "front",
      "--hull-down", "--dice", "6"], "Easy level has no modifiers"),
    (["--rules", "tank", "--attacker", "2477", "--target", "2464", "--facing", "front",
      "--target-status", "sleepy"], "'sleepy' is not allowed"),
    # Easy: "przodem, bokiem, tyłem" (front, side, rear): no top armour at this level
    (["--rules", "easy", "--attacker", "2464", "--target", "2477", "--facing", "top",
      "--dice", "6,6,6"], "the Easy level hits front, side or rear armour"),
    (["--rules", "tank", "--attacker", "2477", "--target", "2464", "--facing", "front",
      "--dice", "3,9"], "9 is not a D6 face"),
])
def test_errors_print_one_line_and_exit_2(cli, args, words):
    run = cli("resolve", *args, "--json")
    assert run.code == 2
    assert run.out == ""
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], run.err


def test_odds_json(cli):
    run = cli("odds", "--rules", "tank", "--attacker", "2456", "--target", "2474",
              "--facing", "front", "--json")
    assert run.code == 0, run.err
    data = run.json
    keys = {"miss", "none", "immobilized", "weakened", "gun_destroyed", "destroyed"}
    assert set(data["effects"]) == keys and set(data["exact"]) == keys
    assert data["hit"] == pytest.approx(4 / 6) and data["reload"] == pytest.approx(0.5)
    exact = [Fraction(v) for v in data["exact"].values()]
    assert sum(exact) == 1
    for key in keys:
        assert data["effects"][key] == pytest.approx(float(Fraction(data["exact"][key])))


def test_odds_easy_has_no_reload(cli):
    run = cli("odds", "--rules", "easy", "--attacker", "2464", "--target", "2477",
              "--facing", "side", "--json")
    assert run.code == 0 and run.json["reload"] is None
    text = cli("odds", "--rules", "easy", "--attacker", "2464", "--target", "2477",
               "--facing", "side")
    assert "In short: hit 4 in 6 · kill" in text.out


def test_move(cli):
    run = cli("move", "--card", "2464", "--turns", "2", "--rough", "--json")
    assert run.code == 0 and run.json["cm"] == 7
    run = cli("move", "--card", "2464", "--moved", "6", "--turns", "2", "--rough")
    assert "→ 1 cm left to move" in run.out
    run = cli("move", "--card", "2464", "--status", "immobilized")
    assert run.code == 2 and "immobilized" in run.err


def test_move_on_road_across_rough_ground_is_refused(cli):
    """The road bonus is for a vehicle "travelling only on a road surface": not across rough
    ground. One line, exit 2, nothing on stdout."""
    run = cli("move", "--card", "2464", "--rough", "--road", "--json")
    assert (run.code, run.out) == (2, "")
    assert run.err.strip().splitlines() == [
        "cobi-companion: the road bonus needs the whole move on road: a move across rough "
        "ground is not all on road"]


def test_reload_of_a_loaded_gun_is_refused_as_on_the_box(cli, book):
    """Rule 13 reloads an unloaded gun: `reload --status loaded` is refused with the reason the
    box gives in its turn (rules.tank.turns.reload), and the default is an unloaded gun."""
    from cobi_companion.device.core.reasons import say
    from cobi_companion.rules.battle import Battle
    from cobi_companion.rules.errors import RulesError
    from cobi_companion.rules.status import Side
    from cobi_companion.rules.tank import turns

    run = cli("reload", "--card", "2477", "--status", "loaded", "--dice", "6")
    assert (run.code, run.out) == (2, "")
    assert run.err.strip() == "cobi-companion: 2477 Tiger I is loaded: there is nothing to reload"
    battle = Battle("tank").add(book.get(2477), Side.AXIS)
    turn = turns.activate(turns.first_turn(Side.AXIS), battle, ["Tiger 1"])
    with pytest.raises(RulesError) as box:
        turns.reload(turn, battle, "Tiger 1")
    assert box.value.code is TankRefusal.LOADED
    assert say("en", box.value) == "Tiger 1 is loaded: there is nothing to reload"
    assert cli("reload", "--card", "2477", "--dice", "6").code == 0   # unloaded by default
    both = cli("reload", "--card", "2477", "--status", "loaded,unloaded")
    assert both.code == 2 and "cannot both be given" in both.err


def test_reload_and_initiative(cli):
    run = cli("reload", "--card", "2477", "--dice", "3", "--json")
    assert run.code == 0 and run.json["reload"]["modified"] == 5
    assert run.json["status_after"] == []
    run = cli("initiative", "--dice", "2,2,6,1", "--json")
    assert run.json == {"rolls": [[2, 2], [6, 1]], "winner": "axis"}


def test_cards_list_and_show(cli):
    run = cli("cards", "list")
    assert run.code == 0
    assert re.search(r"^2477 +hard +Tiger I ", run.out, re.M) and "12/8/8/2" in run.out
    assert re.search(r"^rifleman +figure +Rifleman ", run.out, re.M)
    run = cli("cards", "show", "2477")
    assert "Damage to Weaken Target" in run.out and "2-3" in run.out
    run = cli("cards", "show", "2508")
    assert "Side armor" in run.out and "?" in run.out


def test_cards_check_reports_every_problem(cli, tmp_path):
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "a.toml").write_text("set_number = 1\nname = \"A\"\narmour_top = 31\n")
    (folder / "b.toml").write_text("set_number = 2\nname = \"B\"\ncolour = \"grey\"\n")
    (folder / "c.toml").write_text("set_number = 3\nname = \"C\"\n")
    run = cli("cards", "check", str(folder))
    assert run.code == 1
    assert f"{folder / 'a.toml'}: armour_top: 31 is not allowed" in run.out
    assert f"{folder / 'b.toml'}: colour: is not a card field" in run.out
    assert "1 card ok, 2 problems" in run.out
    assert cli("cards", "check").code == 0
    # With the folder in play, the other cards still load, and each problem is a warning.
    run = cli("--cards", str(folder), "cards", "list")
    assert run.code == 0 and re.search(r"^3 +hard +C ", run.out, re.M) and "2477" in run.out
    assert run.err.count("warning:") == 2


def test_user_card_folder_from_the_config_directory(cli, tmp_path):
    folder = tmp_path / "xdg" / "cobi-companion" / "cards"
    folder.mkdir(parents=True)
    (folder / "tiger.toml").write_text("set_number = 2477\nname = \"My Tiger\"\n")
    run = cli("cards", "list", env={"XDG_CONFIG_HOME": str(tmp_path / "xdg"),
                                    "COBI_COMPANION_CARDS": str(folder)})
    assert "My Tiger" in run.out


def test_real_dice_are_asked_for_one_by_one(cli):
    run = cli("resolve", "--rules", "tank", "--attacker", "2456", "--target", "2474",
              "--facing", "front", "--dice", "ask", "--json",
              stdin="3\n7\n4\n1\n3\n5\n6\n6\n2\n")
    assert run.code == 0, run.err
    assert run.json["dice"] == [3, 4, 1, 3, 5, 6, 6, 2] and run.json["effect"] == "destroyed"
    assert "Roll a real die for to hit" in run.err
    assert "7 is not a D6 face" in run.err  # a wrong face is asked again
    assert "Roll a real die for damage die 5" in run.err


def test_the_parsers_choices_are_the_rules_own(cli):
    # A command's options are added when it runs, with the choices the rules themselves define.
    usage = cli("resolve", "--help").out
    assert f"--rules {{{','.join(RULE_SETS)}}}" in usage
    assert f"--facing {{{','.join(f.value for f in Facing)}}}" in usage


@pytest.mark.parametrize("columns", [None, "60", "200", "0", "wide"])
def test_the_help_is_as_wide_as_argparses_own_makes_it(columns, monkeypatch):
    # The parsers' formatter measures the terminal without shutil, as shutil does: $COLUMNS
    # when it is a positive number, else the terminal (none here), else 80.
    import argparse

    from cobi_companion.device.cli import build_parser
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    for argv in ([], ["odds"]):
        parsers = []
        for formatter in (None, argparse.HelpFormatter):
            parser = build_parser()
            if argv:
                parser = next(action.choices[argv[0]].built() for action in parser._actions
                              if isinstance(action, argparse._SubParsersAction))
            parser.formatter_class = formatter or parser.formatter_class
            parsers.append(parser.format_help())
        ours, argparses = parsers
        assert ours == argparses and len(max(ours.splitlines(), key=len)) > 40


def test_the_command_line_imports_no_pydantic_or_gpiozero_before_a_command_runs():
    code = ("import sys, cobi_companion.device.cli, cobi_companion.device.boot, "
            "cobi_companion.device.sim\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'gpiozero', "
            "'pydantic_core'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_help_and_run_build_only_what_they_need(tmp_path):
    # `--help` lists the commands without adding their options, and `run` adds only its own
    # and imports only its module: no rule but how numbers are read (not even the dice), no
    # Cobra, no soft-target fire, no pydantic before the box's title is drawn.
    config = tmp_path / "config.toml"
    config.write_text("")
    code = ("import contextlib, io, json, sys\n"
            "from cobi_companion.device import cli\n"
            "from cobi_companion.device.cli import box\n"
            f"cli.build_parser().parse_args(['run', '--config', {str(config)!r}])\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            "    cli.build_parser().parse_args(['--help'])\n"
            "print(json.dumps(sorted(m for m in sys.modules\n"
            "                        if m.startswith(('cobi_companion.rules.', 'pydantic')))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert json.loads(out) == ["cobi_companion.rules.numbers"]


@pytest.mark.parametrize("level", sorted(RULE_SETS))
def test_each_rule_level_answers_in_a_real_process(level, cli_process):
    # A rule set imports its level's module when first used: each still answers from a fresh
    # process, the odds and a shot, as the in-process command tests see them.
    odds = cli_process("odds", "--rules", level, "--attacker", "2477", "--target", "2464",
                       "--facing", "front", "--json")
    assert odds.code == 0, odds.err
    assert sum(Fraction(p) for p in odds.json["exact"].values()) == 1
    assert (odds.json["reload"] is None) == (level == "easy")    # no reload roll in Easy
    shot = cli_process("resolve", "--rules", level, "--attacker", "2477", "--target", "2464",
                       "--facing", "front", "--dice", "1,6", "--json")
    assert (shot.code, shot.json["level"], shot.json["effect"]) == (0, level, "miss"), shot.err


ODDS_IMPORTS = """
import contextlib, io, json, sys
from cobi_companion.device.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(sys.argv[1:])
print(json.dumps([code, json.loads(out.getvalue()), sorted(sys.modules)]))
"""


def test_the_tank_games_odds_import_only_what_they_need():
    # `odds --json` at a tank, the benchmark's command: the Tank Game's odds and the cards,
    # none of the Easy level, scoring, the dice, the trace of a roll, the battle, the Soft
    # Targets Table, the explanations, pydantic, tempfile or shutil (argparse's help formatter
    # would import it for the terminal's width).
    argv = ["odds", "--rules", "tank", "--attacker", "2477", "--target", "2477", "--facing",
            "front", "--json"]
    for _ in range(2):       # the first checks the cards (pydantic) and takes their snapshot
        out = subprocess.run([sys.executable, "-c", ODDS_IMPORTS, *argv], capture_output=True,
                             text=True, check=True).stdout
    code, answer, modules = json.loads(out)
    assert code == 0 and answer["exact"]["destroyed"] == \
        "357980715042463814496245/1326443518324400147398656"
    rules = {m.removeprefix("cobi_companion.rules.") for m in modules
             if m.startswith("cobi_companion.rules.")}
    assert "tank.hard_fire" in rules and "odds" in rules
    assert not rules & {"easy", "easy.fire", "tank.scoring", "dice", "trace", "battle",
                         "tank.soft_table", "tank.soft_fire"}
    assert not set(modules) & {"cobi_companion.device.cli.explain", "pydantic", "tempfile",
                               "shutil"}


def test_a_json_answer_imports_no_explanations() -> None:
    # The words of `odds` and `resolve` (device/cli/explain.py imports every rule it explains)
    # are built only for a person; a script's --json answer needs only the numbers.
    code = ("import sys\n"
            "from cobi_companion.device.cli import main\n"
            "for json in (['--json'], []):\n"
            "    main(['odds', '--rules', 'tank', '--attacker', '2477', '--target', '2464',\n"
            "          '--facing', 'front', *json])\n"
            "    print('explain' , 'cobi_companion.device.cli.explain' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    first, second = out.split("explain False\n")
    assert first.startswith("{") and '"hit"' in first
    assert second.startswith("Tank Game: odds for 2477 Tiger I") and \
        second.endswith("explain True\n")
