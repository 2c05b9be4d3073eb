"""`cobi-companion play`: the box's own app in the terminal as text, driven through the standard
input of the real command; and the view → text renderer it writes its frames with."""
from __future__ import annotations

from typing import Any

from cobi_companion.device.core.views import BigWord, Header, Lines, Menu, Roll
from cobi_companion.device.ui.text import view_text

START_MENU = ["[ COBI Companion ]", "> New battle", "  Quick dice", "  Settings",
              "  Check distance", "  Cobra (Normandy)", "  New match", "(OK = choose)"]
# New battle (`--rules tank`: the Tank Game); a Tiger for the Axis, a Sherman for the Allies;
# the roll-off.
TANK_BATTLE = "ok\ncw cw cw axis\nccw ccw allies\nok\naxis\nallies\n"
# A new box's New battle: the Easy level, its vehicles.
EASY_ROSTER = ["[ Armies ]", "> 7TP", "  Sherman", "  Pz I · no gun", "  Tiger",
               "  Pz IV · numbers missing", "  Pz IV D · numbers missing", "  House rules: none",
               "  Rules: Easy",
               "(button = add · OK = start)"]
KEYS = "cw, ccw, ok, back, axis, allies, axis_long, allies_long, throw_axis, throw_allies, " \
    "or q to quit"


def frames(out: str) -> list[list[str]]:
    """The frames written, each a list of lines (they follow the intro, a blank line before
    each)."""
    return [block.splitlines() for block in out.split("\n\n")[1:]]


def test_the_start_menu_as_text_then_a_battle_begins(cli: Any) -> None:
    run = cli("play", stdin="ok\nq\n")
    assert (run.code, run.err) == (0, ""), run.err
    assert run.out.startswith("COBI Battle Companion, the box as text: type its keys")
    shown = frames(run.out)
    assert shown[0] == START_MENU
    assert shown[1] == EASY_ROSTER               # at the level of the Rules setting
    assert shown[-1] == ["[ COBI ]", "*** SAFE TO UNPLUG ***"]   # the box's own last frame


def test_a_shot_shows_its_dice_totals_and_outcome(cli: Any) -> None:
    # The Allies move first and the Sherman fires at the Tiger's rear: 3 hits, 5 reloads,
    # 9 dice + 2 extra make 10 damage against 8 armour: WEAKENED.
    keys = TANK_BATTLE + "ok\nok\nok\nok\nok\nok\ncw cw\nallies\n"
    run = cli("play", "--rules", "tank", "--dice", "4,2,3,5,3,6,4,4,6,3,1,2,4,4,2", stdin=keys)
    assert (run.code, run.err) == (0, ""), run.err
    shown = frames(run.out)
    assert ["[ Who attacks? ]  R1", "Both: press your button  4 : 2", "[4] [2]  Axis"] in shown
    assert ["[ Sherman 1 ]  R1 Allies", "To hit  needs 3+", "[3]  HIT"] in shown
    assert ["[ Sherman 1 ]  R1 Allies", "Damage  9 dice + 2 more",
            "[3] [6] [4] [4] [6] [3] [1] [2] [4] [4] [2]  = 10"] in shown
    # the last screen tells all of it: who fired, the outcome, at whom, the reload
    assert ["[ Sherman 1 ]  R1 Allies", "*** WEAKENED ***", "→ Tiger 1 · 10 − 8 = 2 · reloaded",
            "(OK = next)"] in shown
    assert shown[-1] == ["[ COBI ]", "*** SAFE TO UNPLUG ***", "the battle is saved"]


def test_the_battle_is_saved_and_offered_again_like_on_the_box(cli: Any) -> None:
    assert cli("play", "--rules", "tank", "--dice", "4,2", stdin=TANK_BATTLE).code == 0
    again = cli("play", stdin="q\n")
    # Quit on the initiative's result: it was saved, so the Allies (defending) act first.
    assert frames(again.out)[0][:3] == ["[ COBI Companion ]  R1 Allies", "> Resume battle",
                                        "  New battle"]


def test_a_word_that_is_no_key_is_one_line_and_presses_nothing(cli: Any) -> None:
    run = cli("play", stdin="ok\nokk cw\ncw\nq\n")
    assert run.code == 0
    assert run.err.splitlines() == [f"'okk' is not a key, nothing on that line was pressed; "
                                    f"keys: {KEYS}"]
    roster = [frame for frame in frames(run.out) if frame[0] == "[ Armies ]"]
    assert [frame[1:3] for frame in roster] == [["> 7TP", "  Sherman"],
                                                ["  7TP", "> Sherman"]]   # one cw, not two


def test_real_dice_are_dialled_on_the_boxs_screen(cli: Any) -> None:
    run = cli("play", "--dice", "ask", "--rules", "easy",
              stdin="ok\ncw cw cw axis\nccw ccw allies\nok\naxis\ncw cw ok\n")
    assert (run.code, run.err) == (0, ""), run.err
    shown = frames(run.out)
    assert any(frame[0] == "[ Armies ]" and "  Rules: Easy" in frame for frame in shown)
    assert ["[ Dial your die ]  R1", "Axis: Who goes first?", "[3]  OK = choose"] in shown
    assert ["[ Who goes first? ]  R1", "Both: press your button  3 : ?", "[3]"] in shown


def test_the_end_of_input_ends_the_session(cli: Any) -> None:
    run = cli("play", stdin="")
    assert run.code == 0 and frames(run.out)[0] == START_MENU


def test_bad_options_are_one_line(cli: Any) -> None:
    run = cli("play", "--dice", "3,9", stdin="")
    assert (run.code, run.out) == (2, "")
    assert run.err.splitlines() == ["cobi-companion play: --dice: 9 is not a D6 face: a face "
                                    "is a whole number from 1 to 6 (or ask)"]


def test_the_bare_command_runs_the_simulator_off_the_pi(cli: Any) -> None:
    # Not on a Raspberry Pi: the box's simulator; with no terminal it reads a script from stdin.
    run = cli(stdin="cw\n")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert set("".join(lines)) <= set(" ▀▄█")


# ---- the view → text renderer ----

HEADER = Header("Fire", 2, "axis", "Axis")


def test_a_menu_lists_every_item_and_marks_the_chosen_one() -> None:
    view = Menu(HEADER, ("Tiger 1", "Sherman 1", "Pass"), 1, "OK = pick")
    assert view_text(view) == ["[ Fire ]  R2 Axis", "  Tiger 1", "> Sherman 1", "  Pass",
                               "(OK = pick)"]


def test_a_roll_has_its_caption_faces_and_total() -> None:
    assert view_text(Roll(Header("Fire"), (6, 1), "Damage", "needs 3+", "= 7")) == \
        ["[ Fire ]", "Damage  needs 3+", "[6] [1]  = 7"]
    assert view_text(Roll(Header("Fire"), (), "Who attacks?")) == ["[ Fire ]", "Who attacks?"]


def test_a_big_word_and_its_detail() -> None:
    assert view_text(BigWord(Header("COBI"), " HIT ", "needs 3+")) == \
        ["[ COBI ]", "*** HIT ***", "needs 3+"]


def test_lines_show_the_panels_rows_with_marks_for_more() -> None:
    lines = tuple(f"line {n}" for n in range(1, 8))
    assert view_text(Lines(Header("Log", side="allies"), lines, 2, "OK = back")) == \
        ["[ Log ]  Allies", "  ▲", "line 3", "line 4", "line 5", "  ▼", "(OK = back)"]
    assert view_text(Lines(Header("Log"), lines[:2])) == ["[ Log ]", "line 1", "line 2"]
    long = "a line too long for the panel's width is shown in the rows the panel shows"
    assert view_text(Lines(Header("Log"), (long,))) == \
        ["[ Log ]", "a line too long for the", "panel's width is shown", "in the rows the panel",
         "  ▼"]
    assert view_text(Lines(Header("Log"), (long,), 1)) == \
        ["[ Log ]", "  ▲", "panel's width is shown", "in the rows the panel", "shows"]


def test_an_easy_shot_turns_front_side_rear_and_says_how_far_the_gun_may_turn(cli: Any) -> None:
    """Easy: "The gun must point at the target. You may rotate a turret by up to 90° or turn
    10° for tank destroyers and assault guns", and the armour hit is "przodem, bokiem, tyłem":
    the Fire row says the turn limit, and the knob goes round front, side and rear, no top."""
    keys = "ok\ncw cw cw axis\nccw ccw allies\nok\naxis\nallies\nok\nok\ncw\ncw\ncw\nq\n"
    run = cli("play", "--rules", "easy", "--dice", "4,2", stdin=keys)
    assert (run.code, run.err) == (0, ""), run.err
    shown = frames(run.out)
    assert ["[ Tiger 1 ]  R1 Axis", "> Fire → Sherman 1", "  Move",
            "(turret: up to ¼ turn · no turret: a bit)"] in shown
    facings = [frame[1] for frame in shown if frame[1].startswith("→ Sherman 1")]
    assert facings == ["→ Sherman 1 · front", "→ Sherman 1 · side", "→ Sherman 1 · rear",
                       "→ Sherman 1 · front"]


def test_a_move_across_rough_ground_is_not_asked_about_the_road(cli: Any) -> None:
    """The road bonus is for a vehicle "travelling only on a road surface" (002): after "Rough
    ground? yes" the box does not ask "All on road?", and the Tiger may move 22 - 5 = 17 cm;
    after "no" it asks, and the road adds 10."""
    start = "ok\ncw cw cw axis\nccw ccw allies\nok\naxis\nallies\nok\ncw ok\nok\nok\n"
    rough = cli("play", "--rules", "easy", "--dice", "4,2", stdin=start + "cw ok\nq\n")
    assert (rough.code, rough.err) == (0, ""), rough.err
    shown = frames(rough.out)
    assert not any(frame[0].startswith("[ All on road? ]") for frame in shown)
    assert ["[ Tiger 1 ]  R1 Axis", "*** 17 cm ***", "move up to 17 cm"] in shown


def test_a_move_not_across_rough_ground_is_asked_about_the_road(cli: Any) -> None:
    start = "ok\ncw cw cw axis\nccw ccw allies\nok\naxis\nallies\nok\ncw ok\nok\nok\n"
    road = cli("play", "--rules", "easy", "--dice", "4,2", stdin=start + "ok\ncw ok\nq\n")
    shown = frames(road.out)
    assert any(frame[0].startswith("[ All on road? ]") for frame in shown)
    assert ["[ Tiger 1 ]  R1 Axis", "*** 32 cm ***", "move up to 32 cm"] in shown


def test_the_easy_fire_row_says_the_turn_limit_in_polish(cli: Any, tmp_path: Any) -> None:
    """The Polish rules: "Możesz obrócić wieżę o 90° lub obrócić cały pojazd o 10°": the hint
    says how far it turns (obrót), not a target (cel, which is the Target screen's word)."""
    config = tmp_path / "pl.toml"
    config.write_text('[game]\nlanguage = "pl"\n')
    keys = "ok\ncw cw cw axis\nccw ccw allies\nok\naxis\nallies\nok\nq\n"
    run = cli("play", "--rules", "easy", "--dice", "4,2", "--config", str(config),
              "--state-dir", str(tmp_path / "state"), stdin=keys)
    assert (run.code, run.err) == (0, ""), run.err
    assert ["[ Tygrys 1 ]  R1 Oś", "> Ogień → Sherman 1", "  Ruch",
            "(wieża: do ¼ obrotu · bez wieży: trochę)"] in frames(run.out)
