"""Fire at soft targets and templates through the real `cobi-companion` command."""
from __future__ import annotations

from fractions import Fraction

import pytest
from cobi_companion.rules.tank import soft_table


def soft(command, attacker, weapon, *args):
    return [command, "--rules", "tank", "--attacker", attacker, "--weapon", weapon, *args]


def attacks(data):
    return [(a["target"], a["shot"], a["roll"], a["modified"], a["defender"], a["difference"],
             a["hit"]) for t in data["targets"] for a in t["attacks"]]


def test_pistol_at_44_cm_misses_the_gunner_in_the_side_car(cli):
    run = cli(*soft("resolve", "pistol-soldier", "pistol", "--target", "mg-gunner",
                    "--in", "soft_vehicle", "--range-cm", "44", "--dice", "3,2", "--json"))
    assert run.code == 0, run.err
    data = run.json
    attack = data["targets"][0]["attacks"][0]
    assert [m["value"] for m in attack["modifiers"]] == [-2, -1]
    assert "example: pistol at the motorcycle gunner" in attack["modifiers"][0]["reason"]
    assert (attack["roll"], attack["modified"], attack["defender"]) == (3, 0, 2)
    assert attack["effect"] == "miss" and not attack["hit"]
    assert data["summary"] == "0 of 1 down" and data["dice"] == [3, 2]
    assert data["to_hit"] is None and data["reload"] is None


def test_rifle_at_45_cm_eliminates_the_gunner(cli):
    run = cli(*soft("resolve", "rifleman", "rifle", "--target", "mg-gunner",
                    "--in", "soft_vehicle", "--range-cm", "45", "--dice", "4,3", "--json"))
    assert run.code == 0, run.err
    data = run.json
    assert attacks(data) == [("MG 1 figure 1", 1, 4, 5, 3, 2, True)]
    assert data["targets"][0]["figures_after"] == 0
    assert data["targets"][0]["status_after"] == ["destroyed"]
    assert data["summary"] == "1 of 1 down"


def test_pz_iv_d_he_at_the_bofors_and_its_crew(cli):
    run = cli(*soft("resolve", "pz-iv-d", "he", "--cover", "--under", "bofors-37mm:3@soft_cover",
                    "--dice", "6,3,4,3,4,3,1,3,1,5", "--json"))
    assert run.code == 0, run.err
    data = run.json
    assert data["template"] == "he" and data["hit"] is True
    assert data["to_hit"]["modified"] == 5 and data["to_hit"]["range"] == "3-6"
    assert data["to_hit"]["modifiers"] == [{"reason": "HE: target in cover", "value": -1}]
    assert data["reload"]["roll"] == 3 and data["reload"]["loaded"] is False
    assert data["firer_status_after"] == ["unloaded"]
    assert attacks(data) == [("Bofors 1", 1, 4, 5, 3, 2, True),
                             ("Bofors 1 figure 1", 1, 4, 5, 3, 2, True),
                             ("Bofors 1 figure 2", 1, 1, 2, 3, -1, False),
                             ("Bofors 1 figure 3", 1, 1, 2, 5, -3, False)]
    bofors = data["targets"][0]
    assert bofors["model_effect"] == "destroyed" and bofors["status_after"] == ["destroyed"]
    assert (bofors["figures_killed"], bofors["figures_before"], bofors["figures_after"]) == \
        (1, 3, 2)
    assert data["summary"] == "2 of 4 down" and (data["down"], data["attacked"]) == (2, 4)
    assert data["dice"] == [6, 3, 4, 3, 4, 3, 1, 3, 1, 5]


def test_medium_mg_fires_two_shots_at_each_figure(cli):
    run = cli(*soft("resolve", "mg-gunner", "medium MG", "--under", "rifleman:2@soft_cover",
                    "--dice", "4,2,2,5,2,3", "--json"))
    assert run.code == 0, run.err
    data = run.json
    assert data["template"] == "mg"
    assert attacks(data) == [("Rifle 1 figure 1", 1, 4, 5, 2, 3, True),    # no second shot
                             ("Rifle 1 figure 2", 1, 2, 3, 5, -2, False),
                             ("Rifle 1 figure 2", 2, 2, 3, 3, 0, False)]
    assert data["targets"][0]["figures_after"] == 1
    assert data["summary"] == "1 of 2 down"


def test_the_he_example_explained_roll_by_roll(cli):
    run = cli(*soft("resolve", "pz-iv-d", "he", "--cover", "--under", "bofors-37mm:3@soft_cover",
                    "--dice", "6,3,4,3,4,3,1,3,1,5"))
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0] == "Tank Game: Pz IV D 1 (Pz.Kpfw. IV Ausf. D) fires HE (HE template)"
    expected = [
        "  To hit:  rolled 6 -1 (HE: target in cover) = 5, needs 3 or more: HIT",
        "  Reload:  rolled 3, needs 4 or more: UNLOADED",
        "  Table:   +2 he template (example: Pz IV D's HE at the Bofors gun)",
        "           -1 in soft cover (examples: HE and MG templates at figures in soft cover)",
        "  Bofors 1           4 +2 (he template) -1 (in soft cover) = 5 against 3: +2 DESTROYED",
        "  Bofors 1 figure 1  4 +2 (he template) -1 (in soft cover) = 5 against 3: +2 ELIMINATED",
        "  Bofors 1 figure 2  1 +2 (he template) -1 (in soft cover) = 2 against 3: -1 no kill",
        "  Bofors 1 figure 3  1 +2 (he template) -1 (in soft cover) = 2 against 5: -3 no kill",
        "  ==> 2 of 4 down",
        "  Bofors 1 is now: destroyed; 2 of 3 crew figures left; the crew fight on as "
        "figures, without the gun",
        "  Pz IV D 1 is now: unloaded",
        "  Dice used: 6 3 4 3 4 3 1 3 1 5",
    ]
    assert lines[-len(expected):] == expected


def test_the_he_example_leaves_a_crew_without_its_gun_in_the_json(cli):
    """The HE example: the gun "+2 is a kill (Mark as destroyed)", Gunner 2 and the Dog "no
    kill": the crew are still figures, a piece of their own without the gun."""
    run = cli(*soft("resolve", "pz-iv-d", "he", "--cover", "--under", "bofors-37mm:3@soft_cover",
                    "--dice", "6,3,4,3,4,3,1,3,1,5", "--json"))
    assert run.code == 0, run.err
    [gun] = run.json["targets"]
    assert (gun["model_effect"], gun["figures_after"], gun["status_after"]) == \
        ("destroyed", 2, ["destroyed"])
    assert (gun["crew_fights_on"], gun["out"]) == (True, False)


def test_a_missed_he_shot_attacks_nothing(cli):
    run = cli(*soft("resolve", "pz-iv-d", "he", "--cover", "--under",
                    "bofors-37mm:3@soft_cover", "--dice", "3,4"))
    assert run.code == 0, run.err
    assert "To hit:  rolled 3 -1 (HE: target in cover) = 2, needs 3 or more: MISS" in run.out
    assert "==> MISS" in run.out and "Bofors 1 figure" not in run.out


def test_odds_of_the_rifle_shot_by_hand(cli):
    # +2 (45 cm) -1 (soft vehicle) = +1: the defender must roll no more than the attacker's
    # die: 21 of the 36 pairs.
    run = cli(*soft("odds", "rifleman", "rifle", "--target", "mg-gunner", "--in", "soft_vehicle",
                    "--range-cm", "45", "--json"))
    assert run.code == 0, run.err
    data = run.json
    assert data["hit_exact"] == "1/1" and data["reload"] is None
    assert data["targets"][0]["per_figure_exact"] == "7/12"
    assert data["down_exact"] == ["5/12", "7/12"]
    assert sum(Fraction(p) for p in data["down_exact"]) == 1


def test_odds_of_the_he_template_sum_to_one(cli):
    run = cli(*soft("odds", "pz-iv-d", "he", "--cover", "--under", "bofors-37mm:3@soft_cover",
                    "--json"))
    assert run.code == 0, run.err
    data = run.json
    down = [Fraction(p) for p in data["down_exact"]]
    assert len(down) == 5 and sum(down) == 1
    assert data["down"] == pytest.approx([float(p) for p in down])
    # to hit 3-6 with -1: 4, 5 or 6; then gun and 3 figures each fall with 7/12
    hit, fall = Fraction(1, 2), Fraction(7, 12)
    assert data["hit_exact"] == "1/2"
    assert down[0] == (1 - hit) + hit * (1 - fall) ** 4
    assert down[4] == hit * fall ** 4 and data["all_down"] == pytest.approx(float(down[4]))
    assert data["expected_down"] == pytest.approx(float(hit * 4 * fall))


def test_odds_text(cli):
    run = cli(*soft("odds", "mg-gunner", "medium mg", "--under", "rifleman:2@soft_cover"))
    assert run.code == 0, run.err
    assert "Hit              always" in run.out
    # +2 -1 = +1: 21/36 an attack, two shots: 1 - (15/36)^2 = 82.6%
    assert "Rifle 1  attacks +1: each of 2 figures falls 82.6% · 1.65 down on average" in run.out
    assert "  All down          68.3%" in run.out


def test_he_odds_text_gives_the_hit_and_each_piece(cli):
    run = cli(*soft("odds", "pz-iv-d", "he", "--cover", "--under", "bofors-37mm:3@soft_cover"))
    assert run.code == 0, run.err
    assert "  Hit              3 in 6  (needs 3 or more -1 (HE: target in cover))" in run.out
    assert ("  Bofors 1  attacks +1: gun destroyed 58.3% · each of 3 figures falls 58.3% · "
            "2.33 down on average") in run.out
    assert "  Expected down      1.17  of 4" in run.out
    assert "                     5.8%  4 of 4" in run.out


def test_cards_show_the_weapons_and_kind(cli):
    run = cli("cards", "show", "mg-gunner")
    assert run.code == 0, run.err
    assert "Kind                               figure" in run.out
    assert "Weapon                             medium MG (mg template, 2 shots)" in run.out
    assert "Kind" not in cli("cards", "show", "2464").out


def test_a_crew_figure_of_a_gun_and_a_template_over_the_crew_only(cli):
    run = cli(*soft("resolve", "rifleman", "rifle", "--target", "bofors-37mm", "--crew",
                    "--range-cm", "45", "--dice", "4,3", "--json"))
    assert run.code == 0, run.err
    assert attacks(run.json) == [("Bofors 1 figure 1", 1, 4, 6, 3, 3, True)]
    assert run.json["targets"][0]["model_effect"] is None
    run = cli(*soft("resolve", "mg-gunner", "medium mg", "--under", "bofors-37mm:2/crew",
                    "--dice", "1,6,1,6,1,6,1,6", "--json"))
    assert run.code == 0, run.err
    assert [a[0] for a in attacks(run.json)] == ["Bofors 1 figure 1"] * 2 + \
        ["Bofors 1 figure 2"] * 2
    assert run.json["summary"] == "0 of 2 down"


def test_hard_target_fire_is_unchanged_beside_it(cli):
    run = cli("resolve", "--rules", "tank", "--attacker", "2456", "--target", "2474",
              "--facing", "front", "--dice", "3,4,1,3,5,6,6,2", "--json")
    assert run.code == 0, run.err
    assert run.json["effect"] == "destroyed" and run.json["damage"]["total"] == 5


@pytest.mark.parametrize(("args", "words"), [
    (soft("resolve", "pistol-soldier", "pistol", "--target", "mg-gunner", "--range-cm", "30",
          "--house-rule", "soft_table=printed"),
     "soft-targets.toml) has no pistol value for 30 cm"),
    (["resolve", "--rules", "tank", "--attacker", "2477", "--target", "bofors-37mm",
      "--facing", "front"], "AP is not effective against guns"),
    (soft("resolve", "pz-iv-d", "ap", "--target", "bofors-37mm"),
     "AP is not effective against guns"),
    (soft("resolve", "rifleman", "rifle", "--target", "bofors-37mm", "--range-cm", "45"),
     "aim at one of its crew"),
    (soft("resolve", "rifleman", "rifle", "--target", "2477", "--range-cm", "45"),
     "is a hard target: rifle fire cannot harm it"),
    (soft("resolve", "pz-iv-d", "he", "--under", "bofors-37mm:x@soft_cover"),
     "--under 'bofors-37mm:x@soft_cover': FIGURES 'x' is not allowed; allowed: a whole number"),
    (soft("resolve", "pz-iv-d", "he", "--under", "bofors-37mm:3@cover"),
     "SITUATION: 'cover' is not allowed; allowed: soft_vehicle, soft_cover, hard_cover"),
    (soft("resolve", "pz-iv-d", "he", "--under", "bofors-37mm:3/left"),
     "FACING 'left' is not allowed; allowed: front, side, rear, top, crew (only the crew is "
     "covered), or riding"),
    (soft("resolve", "mg-gunner", "medium mg", "--under", "rifleman:2/riding"),
     "/riding says the squad rides the vehicle given before it"),
    (soft("resolve", "mg-gunner", "medium mg", "--under", "2464",
          "--under", "bofors-37mm/riding"), "/riding is for a squad of figures"),
    (soft("resolve", "mg-gunner", "medium mg", "--under", "rifleman:2/riding=mg-gunner"),
     "MG team is not a vehicle; figures ride only on vehicles"),
    (soft("resolve", "pz-iv-d", "he", "--under", "@soft_cover"), "the CARD part is missing"),
    (soft("resolve", "pz-iv-d", "he", "--under", "bofors-37mm:4"), "has 3 crew figures left"),
    (["resolve", "--rules", "easy", "--attacker", "rifleman", "--weapon", "rifle", "--target",
      "mg-gunner", "--range-cm", "45"], "is a Tank Game rule: use --rules tank"),
    (soft("resolve", "rifleman", "rifle", "--target", "mg-gunner"), "needs --range-cm N"),
    (soft("resolve", "rifleman", "rifle", "--under", "rifleman:2", "--range-cm", "45"),
     "only template weapons attack several"),
    (soft("resolve", "rifleman", "mg", "--target", "mg-gunner", "--range-cm", "45"),
     "has no weapon 'mg'; it carries: rifle"),
    (soft("resolve", "rifleman", "rifle", "--target", "mg-gunner", "--range-cm", "45",
          "--cover"), "--cover is HE's -1 to hit"),
    (soft("resolve", "pz-iv-d", "he", "--under", "bofors-37mm:3", "--attacker-status",
          "unloaded"), "unloaded: it must reload"),
    (["resolve", "--rules", "tank", "--attacker", "2477", "--target", "2464", "--facing",
      "front", "--under", "2456"], "--under is for soft-target and template fire"),
    (soft("odds", "pz-iv-d", "he"), "give one of the two"),
    (soft("odds", "pistol-soldier", "pistol", "--target", "mg-gunner", "--range-cm", "30",
          "--house-rule", "soft_table=printed"),
     "soft-targets.toml) has no pistol value for 30 cm"),
])
def test_refusals_are_one_line_with_exit_2(cli, args, words):
    run = cli(*args, "--json")
    assert run.code == 2, run.out
    assert run.out == ""
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], run.err


def test_the_parsers_situations_are_the_tables_own(cli):
    helped = " ".join(cli("resolve", "--help").out.split())
    assert f"situations, comma list of {', '.join(soft_table.SITUATIONS)} " in helped


def test_cards_check_a_soft_targets_table(cli, tmp_path):
    assert cli("cards", "check", "cards/tables/soft-targets.toml").out.strip() == \
        "Soft Targets Table ok"
    broken = tmp_path / "tables" / "soft-targets.toml"
    broken.parent.mkdir()
    broken.write_text('[weapons.rifle]\nranges = [{ from_cm = 10, to_cm = 20, modifier = "x" }]\n')
    done = cli("cards", "check", str(broken))
    assert done.code == 1
    assert done.out.splitlines() == [
        f"{broken}: weapons.rifle.ranges.0.modifier: 'x' is not allowed; allowed: a whole "
        f"number from -10 to +10, like -2",
        "Soft Targets Table 1 problem"]


def test_a_rifle_kills_a_tank_commander_out_in_the_turret(cli):
    run = cli(*soft("resolve", "rifleman", "rifle", "--target", "2477", "--target-status",
                    "commander_out", "--crew", "--range-cm", "45", "--dice", "4,2", "--json"))
    assert run.code == 0, run.err
    assert attacks(run.json) == [("Tiger 1 commander", 1, 4, 6, 2, 4, True)]
    target = run.json["targets"][0]
    assert target["status_after"] == ["commander_killed"] and target["figures_after"] == 5


# A machine gun whose card says its damage dice are none: the shipped medium MG's are not
# known, and a template of it over a tank is refused (test_cli_grenades_and_guns.py).
MG_NONE = """id = "mg-none"
name = "MG team, no damage dice"
label = "MG"
kind = "figure"
crew = 1
weapons = [{ name = "medium MG", template = "mg", shots = 2, damage = "none" }]
"""


def mg_none(tmp_path) -> list[str]:
    folder = tmp_path / "cards"
    folder.mkdir(exist_ok=True)
    (folder / "mg-none.toml").write_text(MG_NONE, encoding="utf-8")
    return ["--cards", str(folder)]


def test_a_template_over_a_tank_covers_its_commander_out(cli, tmp_path):
    run = cli(*mg_none(tmp_path), *soft("resolve", "mg-none", "medium mg", "--under",
                                        "2477:1/side", "--dice", "4,2"))
    assert run.code == 0, run.err
    assert "the vehicle (side) and its commander, out in the turret" in run.out
    assert "Tiger 1 is now: commander killed" in run.out


def test_a_tank_crew_inside_is_refused(cli):
    run = cli(*soft("resolve", "rifleman", "rifle", "--target", "2477", "--crew",
                    "--range-cm", "45", "--dice", "4,2"))
    assert run.code == 2 and "only a commander sitting out in the turret" in run.err


# ---- figures riding on vehicles ----


def test_a_template_over_a_tank_attacks_the_squad_riding_on_top(cli, tmp_path):
    """The template rule: "make an attack against each in the same way with each target one at
    a time"; rule 14: "have infantry riding on top" (in the open: no situation)."""
    cards = mg_none(tmp_path)
    run = cli(*cards, *soft("resolve", "mg-none", "medium mg", "--under", "2464/side",
                            "--under", "rifleman:2/riding", "--dice", "4,2,1,5,2,6", "--json"))
    assert run.code == 0, run.err
    tank, squad = run.json["targets"]
    assert tank["riding"] is None
    assert squad["riding"] == {"vehicle": "Sherman 1", "kind": "hard", "seat": "on_top"}
    assert [[m["value"] for m in a["modifiers"]] for a in squad["attacks"]] == [[2]] * 3
    assert squad["figures_after"] == 1 and run.json["summary"] == "1 of 3 down"
    text = cli(*cards, *soft("resolve", "mg-none", "medium mg", "--under", "2464/side",
                             "--under", "rifleman:2/riding", "--dice", "4,2,1,5,2,6")).out
    assert "Rifle 1 (Rifleman): 2 figures, riding on Sherman 1" in text


def test_a_squad_loaded_in_a_soft_vehicle_has_its_modifier_and_odds_say_it_rides(cli):
    """The motorcycle example: "-1 for in Soft Vehicle"; the side-car itself is not under the
    template (its card has no values yet), so the squad names it: /riding=VEHICLE."""
    args = soft("resolve", "mg-gunner", "medium mg", "--under",
                "rifleman:2/riding=motorcycle-sidecar", "--dice", "4,2,1,5,2,6", "--json")
    run = cli(*args)
    assert run.code == 0, run.err
    squad = run.json["targets"][0]
    assert squad["riding"] == {"vehicle": "Motorbike 1", "kind": "soft", "seat": "inside"}
    assert [m["value"] for m in squad["attacks"][0]["modifiers"]] == [2, -1]
    odds = cli("odds", *args[1:-3], "--json")
    assert odds.code == 0, odds.err
    assert odds.json["targets"][0]["riding"]["vehicle"] == "Motorbike 1"


def test_a_single_shot_at_a_rider_is_one_figure_under_riding(cli):
    """The motorcycle example's rifle: "+2 for the range, and -1 for in Soft Vehicle ... 4+1 =
    5. The target roll is 3": a rider is one --under figure, with /riding=VEHICLE."""
    run = cli(*soft("resolve", "rifleman", "rifle", "--range-cm", "45", "--under",
                    "mg-gunner:1/riding=motorcycle-sidecar", "--dice", "4,3", "--json"))
    assert run.code == 0, run.err
    assert attacks(run.json) == [("MG 1 figure 1", 1, 4, 5, 3, 2, True)]
