"""`--house-rule NAME=VALUE` on the command line: resolve, odds, reload and play take the
readings the players agreed on ("If both sides agree that a rule is silly or inaccurate we
recommend that you use your own changes"), the JSON says the house rules that changed
something, and a name or value the table does not have is one line on stderr, exit 2."""
from __future__ import annotations

from pathlib import Path

SHERMAN_AT_TIGER = ("--rules", "tank", "--attacker", "2464", "--target", "2477",
                    "--facing", "rear")


def test_the_odds_follow_the_shermans_reload_rule(cli):
    """Kelly's Heroes: "he needs a 4-6"; the M1A1 card: "Reload die Roll 5-6"."""
    card = cli("odds", *SHERMAN_AT_TIGER, "--json")
    text = cli("odds", *SHERMAN_AT_TIGER, "--house-rule", "sherman_reload=text", "--json")
    assert (card.code, text.code) == (0, 0)
    assert (card.json["reload_exact"], text.json["reload_exact"]) == ("1/3", "1/2")
    assert card.json["exact"] == text.json["exact"]
    assert (card.json["house_rules"], text.json["house_rules"]) == (
        {}, {"sherman_reload": "text"})
    said = cli("odds", *SHERMAN_AT_TIGER, "--house-rule", "sherman_reload=text")
    assert "House rule sherman_reload = text: the Sherman (2464) reloads on 4-6" in said.out


def test_a_shot_and_the_reload_action_roll_by_it(cli):
    shot = cli("resolve", *SHERMAN_AT_TIGER, "--dice", "2,4", "--house-rule",
               "sherman_reload=text", "--json")
    assert shot.code == 0 and shot.json["reload"]["loaded"] is True
    assert shot.json["reload"]["range"] == "4-6"
    plain = cli("resolve", *SHERMAN_AT_TIGER, "--dice", "2,4", "--json")
    assert plain.json["reload"]["loaded"] is False
    action = cli("reload", "--card", "2464", "--dice", "2", "--house-rule",
                 "sherman_reload=text", "--json")
    assert action.json["reload"]["loaded"] is True
    assert action.json["house_rules"] == {"sherman_reload": "text"}


def test_the_easy_field_numbers_on_the_command_line(cli):
    """Easy: "(15) ... the target is damaged"; the Tiger's Destroy Gun (field 15) is 4."""
    # Tiger at a Tiger's side: to hit 3; D6+ 3 + 16 damage against 8 + D6+ 6,1 (6): net 5 ≥ 5
    # destroys; with D6+ 2 the net is 4, the Destroy Gun band.
    args = ("resolve", "--rules", "easy", "--attacker", "2477", "--target", "2477",
            "--facing", "side", "--dice", "3,2,6,1", "--json")
    meaning, number = cli(*args), cli(*args, "--house-rule", "easy_fields=number")
    assert (meaning.json["net"], meaning.json["effect"]) == (4, "gun_destroyed")
    assert (number.json["net"], number.json["effect"]) == (4, "weakened")
    assert number.json["house_rules"] == {"easy_fields": "number"}


def test_the_gun_card_he_modifier_refuses_a_card_without_one(cli):
    args = ("odds", "--rules", "tank", "--attacker", "pz-iv-d", "--weapon", "he",
            "--under", "bofors-37mm:3@soft_cover")
    assert cli(*args).code == 0
    refused = cli(*args, "--house-rule", "he_modifier=card")
    assert refused.code == 2 and refused.out == ""
    assert "has no value for he_modifier" in refused.err and "pz-iv-d" in refused.err
    tiger = cli("odds", "--rules", "tank", "--attacker", "2477", "--weapon", "he", "--under",
                "bofors-37mm:3@soft_cover", "--house-rule", "he_modifier=card", "--json")
    assert tiger.json["house_rules"] == {"he_modifier": "card"}


def test_a_name_or_value_the_table_lacks_is_one_line_naming_what_is_allowed(cli_process):
    for setting, allowed in (("sherman=text", "choose sherman_reload, easy_fields, "
                                              "he_modifier, easy_round"),
                             ("sherman_reload=paint", "choose card, text"),
                             ("sherman_reload", "allowed: NAME=VALUE")):
        run = cli_process("odds", *SHERMAN_AT_TIGER, "--house-rule", setting)
        assert run.code == 2 and run.out == ""
        assert run.err.count("\n") == 1 and allowed in run.err, run.err
        assert "Traceback" not in run.err and run.err.startswith("cobi-companion odds: ")


def test_play_starts_a_new_battle_with_them(cli, tmp_path: Path):
    run = cli("play", "--rules", "easy", "--state-dir", str(tmp_path), "--house-rule",
              "easy_round=both_pass", stdin="ok\nccw\nccw\nok\n")
    assert run.code == 0, run.err
    assert "House rules: 1 changed" in run.out and "Round ends: both pass" in run.out


def test_a_rule_of_the_other_level_is_refused_not_ignored(cli):
    """easy_round is the Easy level's ("When both players have had a chance to take an
    action, the round is over"), sherman_reload the Tank Game's: given to a command of the
    other level it would change nothing, so it is one line and exit 2."""
    easy = cli("odds", *SHERMAN_AT_TIGER, "--house-rule", "easy_round=both_pass")
    assert (easy.code, easy.out) == (2, "")
    assert easy.err.strip() == ("cobi-companion: --house-rule easy_round=both_pass: it changes "
                                "the easy rules only, not tank")
    reload = cli("reload", "--card", "2464", "--house-rule", "easy_fields=number")
    assert reload.code == 2 and "not tank" in reload.err
    tank = cli("odds", "--rules", "easy", "--attacker", "2464", "--target", "2477",
               "--facing", "rear", "--house-rule", "sherman_reload=text")
    assert tank.code == 2 and "changes the tank rules only, not easy" in tank.err


# ---- issue 35: open-top crews and the readings players argue about ----

MARDER = ('id = "marder"\nname = "Marder"\nkind = "open_top"\ncrew = 6\n'
          'gun_to_hit = "3-6"\nreload = "4-6"\ndamage = 4\nhe_modifier = "+2"\n'
          'armour_front = 2\narmour_side = 1\narmour_rear = 1\narmour_top = 0\n'
          'destroy = 3\ndestroy_gun = 2\nweaken = "-"\nimmobilize = 1\n')
TRUCK = ('id = "truck"\nname = "Truck"\nkind = "soft"\ncrew = 1\narmour_front = 0\n'
         'armour_side = 0\narmour_rear = 0\narmour_top = 0\ndestroy = 9\ndestroy_gun = "-"\n'
         'weaken = "-"\nimmobilize = 1\n')
# The shipped rifle's damage dice are not known (a result that destroys is refused, and so are
# the odds): this rifleman's card says none, so a destroyed truck is immobilized instead.
RIFLE_NONE = ('id = "rifle-none"\nname = "Rifleman"\nlabel = "Rifle"\nkind = "figure"\n'
              'crew = 1\nweapons = [{ name = "rifle", damage = "none" }]\n')


def own_cards(folder: Path) -> tuple[str, str]:
    (folder / "marder.toml").write_text(MARDER)
    (folder / "truck.toml").write_text(TRUCK)
    (folder / "rifle-none.toml").write_text(RIFLE_NONE)
    return "--cards", str(folder)


def test_an_open_top_with_two_of_six_reloads_without_minus_one(cli, tmp_path: Path):
    """Rule 11: "they need two to avoid -1 to the reload die"; house rule open_top_reload."""
    args = (*own_cards(tmp_path), "resolve", "--rules", "tank", "--attacker", "marder",
            "--attacker-figures", "2", "--weapon", "he", "--target", "2477",
            "--dice", "6,4,1,1", "--json")
    two, half = cli(*args), cli(*args, "--house-rule", "open_top_reload=half")
    assert (two.code, half.code) == (0, 0), two.err + half.err
    assert two.json["reload"]["loaded"] is True and two.json["house_rules"] == {}
    assert half.json["reload"]["loaded"] is False
    assert half.json["house_rules"] == {"open_top_reload": "half"}


def test_he_reaches_only_the_two_figures_at_an_open_tops_gun(cli, tmp_path: Path):
    """Rule 11: "The other crew are protected as normal tank crew"."""
    args = (*own_cards(tmp_path), "resolve", "--rules", "tank", "--attacker", "2464",
            "--weapon", "he")
    three = cli(*args, "--under", "marder:3", "--dice", "6,6,6,1,6,1,6,1")
    assert three.code == 2 and three.out == ""
    assert "only the 2 figures at its gun can be hit" in three.err
    two = cli(*args, "--under", "marder:2", "--dice", "6,6,1,6,1,6,1,6,1", "--json")
    assert two.code == 0, two.err
    assert two.json["down"] == 2


def test_soft_vehicle_damage_from_the_raw_difference(cli, tmp_path: Path):
    """"Use the difference between the attacker roll and the defender roll as the number of
    damage dice": the modified roll (default) or the die as rolled (soft_damage=raw)."""
    args = (*own_cards(tmp_path), "resolve", "--rules", "tank", "--attacker", "rifle-none",
            "--weapon", "rifle", "--target", "truck", "--range-cm", "45", "--json")
    modified = cli(*args, "--dice", "5,3,1,1,1,1")
    raw = cli(*args, "--dice", "5,3,1,1", "--house-rule", "soft_damage=raw")
    assert (modified.code, raw.code) == (0, 0), modified.err + raw.err
    dice = [p["attacks"][0]["damage"]["dice"] for p in (modified.json["targets"][0],
                                                        raw.json["targets"][0])]
    assert dice == [4, 2]
    assert raw.json["house_rules"] == {"soft_damage": "raw"}
    odds = (*own_cards(tmp_path), "odds", "--rules", "tank", "--attacker", "rifle-none",
            "--weapon", "rifle", "--target", "truck", "--range-cm", "45")
    assert "immobilized 15.4%" in cli(*odds).out
    shipped = cli(*(a if a != "rifle-none" else "rifleman" for a in odds))
    # the shipped rifle has no Damage Die value either: a destroyed truck is immobilized
    assert shipped.code == 0 and "immobilized 15.4%" in shipped.out, shipped.err
    assert "immobilized 12.8%" in cli(*odds, "--house-rule", "soft_damage=raw").out


def test_the_move_follows_rough_each_and_road_reverse(cli):
    each = cli("move", "--card", "2477", "--rough", "3", "--house-rule", "rough=each", "--json")
    once = cli("move", "--card", "2477", "--rough", "3", "--json")
    assert (once.json["cm"], each.json["cm"]) == (17, 7)
    assert each.json["house_rules"] == {"rough": "each"}
    back = cli("move", "--card", "2477", "--reverse", "--road", "--json")
    forward_only = cli("move", "--card", "2477", "--reverse", "--road", "--house-rule",
                       "road_reverse=forward_only")
    assert back.json["cm"] == 20
    assert "move up to 10 cm" in forward_only.out
    assert "House rule road_reverse = forward_only" in forward_only.out


def test_every_new_house_rule_is_accepted_on_the_command_line(cli):
    for setting in ("extra_activation=same_pieces", "weapons=one", "fire_then_move=refused",
                    "match_score=both", "rough=each", "road_reverse=forward_only",
                    "open_top_reload=half", "soft_damage=raw"):
        run = cli("odds", *SHERMAN_AT_TIGER, "--house-rule", setting, "--json")
        assert run.code == 0, (setting, run.err)
        assert run.json["house_rules"] == {}       # none of them changes this shot
