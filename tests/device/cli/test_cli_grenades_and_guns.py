"""Issue 35, points 3-5 on the real `cobi-companion` command: a hand grenade's To hit, the
7TP's gun (no HE) at one figure, and the medium MG's damage dice that its card does not give."""
from __future__ import annotations

from pathlib import Path

GRENADIER = """\
id = "grenadier"
name = "Grenadier"
label = "Gren"
kind = "figure"
crew = 1
weapons = [{ name = "rifle" }, { name = "hand grenade", template = "grenade" }]
"""
# what a family writes from its printed table for the 7TP's gun at figures
MAIN_GUN_TABLE = """\
[weapons."main gun"]
ranges = [{ from_cm = 0, to_cm = 100, modifier = 1, source = "our printed table" }]
"""


def cards(tmp_path: Path) -> list[str]:
    folder = tmp_path / "cards"
    (folder / "tables").mkdir(parents=True, exist_ok=True)
    (folder / "grenadier.toml").write_text(GRENADIER, encoding="utf-8")
    (folder / "tables" / "soft-targets.toml").write_text(MAIN_GUN_TABLE, encoding="utf-8")
    return ["--cards", str(folder)]


def grenade(command: str, tmp_path: Path, *more: str) -> list[str]:
    return [*cards(tmp_path), command, "--rules", "tank", "--attacker", "grenadier",
            "--weapon", "hand grenade", "--under", "rifleman:2@soft_cover", *more]


def test_a_grenade_rolls_its_to_hit_first(cli_process, tmp_path):
    missed = cli_process(*grenade("resolve", tmp_path, "--dice", "2", "--json"))
    assert missed.code == 0, missed.err
    assert missed.json["to_hit"]["range"] == "3-6" and missed.json["hit"] is False
    assert missed.json["dice"] == [2] and missed.json["down"] == 0
    hit = cli_process(*grenade("resolve", tmp_path, "--dice", "5,4,3,1,5"))
    assert hit.code == 0, hit.err
    assert "To hit:" in hit.out and "HIT" in hit.out and "1 of 2 down" in hit.out
    # the Infantry Weapon Table is not printed: whose To hit it is, as the table's lines say
    assert "To hit:  rolled 5, needs 3 or more: HIT (estimate: 3-6" in hit.out
    assert missed.json["to_hit"]["source"].startswith("estimate: 3-6")


def test_the_grenade_odds_include_its_to_hit(cli_process, tmp_path):
    run = cli_process(*grenade("odds", tmp_path, "--json"))
    assert run.code == 0, run.err
    assert run.json["hit_exact"] == "2/3"
    text = cli_process(*grenade("odds", tmp_path)).out
    assert "needs 3 or more, Infantry Weapon Table: estimate: 3-6" in text


def test_the_7tp_fires_its_gun_at_one_figure(cli_process, tmp_path):
    shot = [*cards(tmp_path), "resolve", "--rules", "tank", "--attacker", "2456", "--weapon",
            "main gun", "--target", "rifleman", "--range-cm", "30"]
    run = cli_process(*shot, "--dice", "4,3,2", "--json")
    assert run.code == 0, run.err
    assert run.json["reload"]["loaded"] is False and run.json["down"] == 1
    assert run.json["targets"][0]["attacks"][0]["modified"] == 5
    odds = cli_process(*[a if a != "resolve" else "odds" for a in shot], "--json")
    assert odds.code == 0, odds.err
    assert odds.json["reload"] == 0.5 and odds.json["down_exact"] == ["5/12", "7/12"]
    ours = cli_process("odds", *shot[shot.index("--rules"):], "--json")   # our table: +2
    assert ours.code == 0, ours.err
    assert ours.json["down_exact"] == ["5/18", "13/18"]


def test_the_mg_without_known_damage_dice_is_refused_over_a_tank(cli_process):
    for command in ("resolve", "odds"):
        run = cli_process(command, "--rules", "tank", "--attacker", "mg-gunner", "--weapon",
                          "medium MG", "--under", "2477", *(
                              ("--dice", "6,6,6") if command == "resolve" else ()))
        assert run.code == 2 and run.out == ""
        assert "mg-gunner.toml" in run.err and "medium MG's damage" in run.err


def test_the_7tp_gun_at_a_tank_says_to_fire_ap_without_weapon(cli_process):
    run = cli_process("resolve", "--rules", "tank", "--attacker", "2456", "--weapon",
                      "main gun", "--target", "2477", "--range-cm", "45")
    assert run.code == 2 and run.out == ""
    assert "Tiger 1 is a hard target: the main gun fires AP at it: leave out --weapon" \
        in run.err
    assert "cannot harm it" not in run.err


def test_a_gun_whose_he_modifier_is_not_known_is_refused_as_a_part_card(cli_process):
    run = cli_process("resolve", "--rules", "tank", "--attacker", "2508", "--weapon",
                      "main gun", "--target", "rifleman", "--range-cm", "45", "--dice",
                      "5,4,3")
    assert run.code == 2 and run.out == ""
    assert "2508-pz-iv-h.toml" in run.err and "he_modifier" in run.err
    assert "has HE" not in run.err
