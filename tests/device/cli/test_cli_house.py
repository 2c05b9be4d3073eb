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
