"""The main path's words, from issue 29: Polish that agrees with its side, chances in a child's
words with the exact figures on details, a roll's sum shown, figures that may fall in whole
numbers."""
from __future__ import annotations

from fractions import Fraction

import pytest
from cobi_companion.device.core import i18n
from cobi_companion.device.core.battle_log import entry, said
from cobi_companion.device.core.reasons import say
from cobi_companion.device.core.views import Lines
from cobi_companion.device.ui.wording import chance_key
from cobi_companion.words.grammar import SideName

AXIS, ALLIES = SideName("Oś", False, "axis"), SideName("Alianci", True, "allies")


def polish(key: str, **values: object) -> str:
    return i18n.text("pl", key, **values)


def test_a_polish_verb_agrees_with_its_side() -> None:
    assert polish("gives_up", side=AXIS) == "Oś się poddaje"
    assert polish("gives_up", side=ALLIES) == "Alianci się poddają"
    assert polish("gives_up_ask", side=ALLIES) == "Alianci się poddają?"
    assert polish("defender_first", side=AXIS) == "Oś się broni i zaczyna"
    assert polish("defender_first", side=ALLIES) == "Alianci się bronią i zaczynają"
    assert i18n.text("en", "gives_up", side=SideName("Allies", True)) == "Allies give up"
    assert i18n.text("en", "gives_up", side=SideName("Axis", False)) == "Axis gives up"
    log = entry("log_gives_up", side="allies")
    assert said(log, "pl", lambda key, **v: polish(key, **v),
                lambda note: say("pl", note)) == "Alianci się poddają"
    assert said(log, "en", lambda key, **v: i18n.text("en", key, **v),
                lambda note: say("en", note)) == "allies gives up"     # the journal's, as before


def test_the_polish_reload_roll_says_what_its_shot_says_of_the_gun() -> None:
    # The roll's big word and the shot's last screen speak of the same gun (działo, neuter):
    # ZAŁADOWANY, a tank's gender, read as another thing from "działo załadowane".
    assert polish("shot_reloaded") == f"działo {polish('RELOADED').lower()}"
    assert polish("shot_unloaded") == f"działo {polish('UNLOADED').lower()}"


def test_polish_asks_both_players_and_a_squad_hides_as_many() -> None:
    assert polish("both_press") == "Wciśnijcie oba przyciski"
    assert polish("HIDDEN") == "UKRYCI"
    assert polish("MOVED_MANY") == "RUSZYLI"
    assert [polish(f"did_{done}_many") for done in ("fire", "move")] == [
        "strzelali", "ruszyli"]
    assert polish("did_hide") == "ukryci"


@pytest.mark.parametrize(("p", "words"), [
    (Fraction(0), "no chance"), (Fraction(1, 1000), "tiny chance"),
    (Fraction(1, 6), "unlikely"), (Fraction(2, 6), "unlikely"), (Fraction(3, 6), "50–50"),
    (Fraction(4, 6), "likely"), (Fraction(5, 6), "likely"), (Fraction(19, 20), "almost sure"),
    (Fraction(1), "sure")])
def test_a_chance_is_said_in_bands_of_words(p: Fraction, words: str) -> None:
    assert i18n.text("en", chance_key(p)) == words


def test_the_shot_before_it_is_fired_says_its_chances_in_words_and_ok_opens_the_figures(
        table_at) -> None:
    from ..test_box import TIGER_VS_SHERMAN

    table = table_at([4, 2, 3, 5, 3, 6, 4, 4, 6, 3, 1, 2, 4, 4, 2])
    table.press(*TIGER_VS_SHERMAN, "axis", "allies", "ok")
    table.press("ok", "ok", "ok", "cw", "ok", "ok")   # Sherman 1, fire, Tiger 1, hull down, no
    view = table.view
    assert isinstance(view, Lines) and view.lines[0] == "→ Tiger 1 · front"
    assert view.lines[1:] == ("hit: 50–50", "destroy: tiny chance")
    assert not any("%" in line or " in 6" in line for line in view.lines)
    assert view.hint.startswith("Allies: press to fire")
    table.press("ok")                                  # the details, for a parent
    assert table.view.header.title == "Details"
    shown = " ".join(table.view.lines)
    assert "To hit: 3 in 6, needs 3+" in shown and "Modifiers -1: hull down" in shown
    assert "Destroyed: <0.1%" in shown and "Miss: 50.0%" in shown
    table.press("ok")                                  # back on the shot, nothing spent
    assert table.view == view
    table.press("allies")
    assert table.steps[0].needed == "3 − 1 = 2: needs 3+"     # the sum, then what it needs


def test_the_dice_are_said_fair_in_plain_words_and_ok_opens_their_counts(table_at) -> None:
    from cobi_companion.device.games.menus import fairness_key

    assert fairness_key({face: 4 for face in range(1, 7)}) == "dice_too_few"       # 24 rolls
    assert fairness_key({face: 10 for face in range(1, 7)}) == "dice_fair"
    assert fairness_key({1: 30, 2: 5, 3: 5, 4: 5, 5: 5, 6: 10}) == "dice_unfair"
    from ..test_box import TIGER_VS_SHERMAN

    table = table_at([5, 2, 3, 5, 3, 6, 4, 4, 6, 3, 1, 2, 4, 4, 2])
    table.press(*TIGER_VS_SHERMAN, "axis", "allies")         # two dice rolled this battle
    table.press("back")
    table.choose("Fair dice?")
    assert table.view.lines[0] == "this battle: 2 dice · too few rolls to tell"
    assert not any(":" in line.split("·")[0].split(": ", 1)[1] for line in table.view.lines)
    assert table.view.hint == "OK = more"
    table.press("ok")                                        # the counts, for a parent
    assert table.view.header.title == "Details"
    assert table.view.lines[:2] == ("this battle: 2 dice", "1:0  2:1  3:0  4:0  5:1  6:0")
    table.press("ok")                                        # back to the words
    assert table.view.header.title == "Fair dice?"
    table.press("back")                                      # a long press: the battle
    assert table.view.header.title == "Who goes first?"


def test_fire_at_figures_says_how_many_may_fall_in_whole_numbers_and_ok_opens_the_figures(
        table_at) -> None:
    from ..games.test_tank_game_box import AXIS_FIRST, mg_at_two_riflemen

    table = table_at([*AXIS_FIRST, 4, 2, 2, 5, 2, 3])
    mg_at_two_riflemen(table)
    table.press("ok")                                  # Fire!: the chances first
    view = table.view
    assert isinstance(view, Lines)
    assert view.lines[:2] == ("may take 1 or 2 of 2", "all fall: likely")
    assert not any("%" in line or "." in line for line in view.lines)
    table.press("ok")                                  # the figures behind the words
    assert table.view.header.title == "Details"
    assert table.view.lines[0].startswith("On average 1.") and "of 2 down" in \
        table.view.lines[0]
    assert table.view.lines[1].startswith("0 down: ") and table.view.lines[1].endswith("%")
    table.press("ok")
    assert table.view == view                          # back: nothing rolled
