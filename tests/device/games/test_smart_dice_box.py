"""Smart dice on the box: each side's dice thrown on the table instead of its button. The
dice's events are handed to the box as its main loop hands them (ports/events.py): a die
tumbling, settling, not a roll; a die going quiet."""
from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.config import Config, SmartDiceSetup
from cobi_companion.device.core.turn_lights import SIDE_COLOURS as SIDE_RGB
from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll
from cobi_companion.device.games.menus import dice_stats
from cobi_companion.device.games.throw import QUIET_S, Throw
from cobi_companion.device.ports.die_readings import NotARoll, Rolling, Settled
from cobi_companion.device.ports.events import DieLink, DieSaid, Event, Key, Tick
from cobi_companion.device.ports.smart_dice import RGB, NoSmartDice
from cobi_companion.device.sim import drain

from ..conftest import QUICK_HOLDS
from .test_cobra_box import OV, C, S, at_weather, seed_game
from .test_offered import seeded
from .test_press_budget import NEW_BOX
from .test_tank_game_box import AXIS_FIRST, new_battle, overrun_field, pieces

AXIS_DICE = ("AX:01", "AX:02")
ALLIES_DICE = ("AL:01", "AL:02")
COLOURS = {"AX:01": "red", "AX:02": "black", "AL:01": "green", "AL:02": "blue"}
# The Tank Game (the tests' config): Tiger I (Axis) against a Sherman (Allies).
TIGER_VS_SHERMAN = ["ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok"]
# Easy: two Tigers against two Shermans, as a new box starts them (test_press_budget).
TWO_AND_TWO = ["ok", "cw", "allies", "allies", "cw", "cw", "axis", "axis", "ok"]


class Lit(NoSmartDice):
    """The port as the throw screen drives it: each die's light now (None: off)."""

    def __init__(self) -> None:
        super().__init__()
        self.lit: dict[str, RGB | None] = {}

    def light(self, die: str, colour: RGB | None) -> None:
        self.lit[die] = colour


def smart(table: Any, axis: tuple[str, ...] = AXIS_DICE,
          allies: tuple[str, ...] = ALLIES_DICE) -> Lit:
    """The dice paired to their sides and online, both sides' dice smart (as Settings leaves
    them); the port's lights watched."""
    app = table.box.app
    app.smart = Lit()
    app.settings.smart_dice = {
        die: {"kind": "godice", "name": f"GoDice_{die}", "colour": COLOURS[die],
              "side": "axis" if die in axis else "allies"} for die in (*axis, *allies)}
    app.settings.dice = {"axis": "smart", "allies": "smart"}
    for die in (*axis, *allies):
        event(table, DieLink(die, True))
    return app.smart


def event(table: Any, happened: Event) -> None:
    table.box.loop.step(happened)
    drain(table.box)


def throw(table: Any, die: str, *faces: int) -> None:
    """`die` thrown: it tumbles, then settles on each face in turn."""
    for face in faces:
        event(table, DieSaid(die, Rolling()))
        event(table, DieSaid(die, Settled(face)))


def cues(table: Any) -> list[str]:
    """The cues the app asks for from now on."""
    app, heard = table.box.app, []
    asked = app.cue

    def cue(name: str, side: str | None = None) -> None:
        heard.append(name)
        asked(name, side)
    app.cue = cue
    return heard


def easy_first_shot(table: Any) -> None:
    """Initiative thrown (Axis 5 : 2), Tiger 1 fires at Sherman 1's front."""
    table.press(*TWO_AND_TWO)
    assert table.view.needed == "? : ?"
    throw(table, "AX:01", 5)
    throw(table, "AL:02", 2)
    assert isinstance(table.view, Menu) and len(table.view.items) == 3   # Tigers 1, 2, Pass
    table.press("ok", "ok", "axis")                  # Tiger 1, Fire → Sherman 1, fire


def test_an_easy_shot_is_thrown_die_by_die_and_goes_on_as_after_a_press(table_at):
    table = table_at([], config=NEW_BOX)           # the box rolls nothing: no faces scripted
    lit = smart(table)
    easy_first_shot(table)
    assert isinstance(table.view, Roll)
    assert (table.view.header.title, table.view.caption) == ("To hit", "Axis: roll 1 die")
    assert lit.lit == {**dict.fromkeys(AXIS_DICE, SIDE_RGB["axis"]),
                       **dict.fromkeys(ALLIES_DICE)}
    throw(table, "AX:02", 5)                         # a hit: its D6+ is certain now
    assert (table.view.faces, table.view.caption) == ((5,), "Axis: roll 1 more")
    throw(table, "AX:01", 3)
    assert isinstance(table.view, Roll) and table.view.caption == "Allies: roll 1 die"
    assert lit.lit == {**dict.fromkeys(AXIS_DICE), **dict.fromkeys(ALLIES_DICE,
                                                                   SIDE_RGB["allies"])}
    throw(table, "AL:01", 1)                         # armour 8 + 1 against 16 + 3
    assert isinstance(table.view, BigWord) and table.view.word == "DESTROYED"
    # the throw is over: the dice of the side whose turn it is now light (the Allies')
    assert lit.lit == {**dict.fromkeys(AXIS_DICE), **dict.fromkeys(ALLIES_DICE,
                                                                   SIDE_RGB["allies"])}
    store = table.box.store
    assert store.die_counts() == {"AX:01": {1: 0, 2: 0, 3: 1, 4: 0, 5: 1, 6: 0},
                                  "AX:02": {1: 0, 2: 0, 3: 0, 4: 0, 5: 1, 6: 0},
                                  "AL:01": {1: 1, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0},
                                  "AL:02": {1: 0, 2: 1, 3: 0, 4: 0, 5: 0, 6: 0}}
    assert store.face_counts(table.box.app.state.id) == {1: 1, 2: 1, 3: 1, 4: 0, 5: 2, 6: 0}


def test_a_die_picked_up_or_tilted_is_not_a_roll(table_at):
    table = table_at([], config=NEW_BOX)
    smart(table)
    easy_first_shot(table)
    event(table, DieSaid("AX:01", Rolling()))
    event(table, DieSaid("AX:01", NotARoll("tilted", 6)))
    assert (table.view.faces, table.view.caption) == ((), "Not a roll: throw it again")
    event(table, DieSaid("AX:02", NotARoll("moved")))
    assert table.view.faces == () and table.view.header.title == "To hit"
    throw(table, "AX:01", 2)                         # thrown again: a miss, the shot ends
    assert isinstance(table.view, BigWord) and table.view.word == "MISS"
    assert table.box.store.face_counts(table.box.app.state.id)[6] == 0


def test_a_die_taken_in_hand_before_its_throw_is_not_told_off(table_at):
    # A Pixel says "handling" as a child picks it up for every throw: not a roll, and no
    # "throw it again" either; the throw that follows counts.
    table = table_at([], config=NEW_BOX)
    smart(table)
    easy_first_shot(table)
    event(table, DieSaid("AX:01", NotARoll("handled")))
    assert (table.view.faces, table.view.caption) == ((), "Axis: roll 1 die")
    throw(table, "AX:01", 2)                         # a miss: the shot ends
    assert isinstance(table.view, BigWord) and table.view.word == "MISS"


def test_a_die_of_the_other_side_is_refused_with_a_cue_and_whose_dice_are_awaited(table_at):
    table = table_at([], config=NEW_BOX)
    smart(table)
    easy_first_shot(table)
    heard = cues(table)
    throw(table, "AL:01", 6)
    assert (table.view.faces, table.view.caption) == ((), "Wait: Axis rolls now")
    assert heard == ["error"]
    throw(table, "AX:01", 2)
    assert isinstance(table.view, BigWord) and table.view.word == "MISS"
    assert sum(table.box.store.face_counts(table.box.app.state.id).values()) == 3


def test_a_shot_needing_more_dice_than_the_side_has_is_thrown_again_for_the_rest(table_at):
    # Tank Game: the Sherman (its one die) rolls to hit and reload, then its damage dice.
    table = table_at([])
    smart(table, allies=("AL:01",))
    table.press(*TIGER_VS_SHERMAN)
    throw(table, "AX:01", 4)
    throw(table, "AL:01", 2)
    table.press("ok", "ok", "ok", "ok", "ok", "ok", "allies")   # Sherman 1 fires at Tiger 1
    assert (table.view.header.title, table.view.caption) == ("To hit", "Allies: roll 1 die")
    throw(table, "AL:01", 3)
    assert table.view.caption == "Allies: roll 1 more"
    throw(table, "AL:01", 5, 3)                      # reload; the hit makes the damage certain
    assert (table.view.header.title, table.view.faces) == ("Damage die 2", (3, 5, 3))
    while isinstance(table.box.app.screen, Throw):
        assert table.view.caption == "Allies: roll 1 more"
        throw(table, "AL:01", 4)
    assert isinstance(table.view, BigWord)
    counts = table.box.store.die_counts()["AL:01"]
    assert counts[3] == 2 and counts[5] == 1 and sum(counts.values()) == 1 + len(
        table.steps[0].faces) + len(table.steps[1].faces) + len(table.steps[2].faces)


def sherman_fires(table: Any) -> None:
    """The Tank Game: the Allies go first (4 : 2) and the Sherman fires at the Tiger, its to
    hit and reload asked for as one throw of two dice."""
    table.press(*TIGER_VS_SHERMAN)
    throw(table, "AX:01", 4)
    throw(table, "AL:01", 2)
    table.press("ok", "ok", "ok", "ok", "ok", "ok", "allies")
    assert table.view.caption == "Allies: roll 2 dice"          # to hit and reload


def test_two_dice_of_a_side_are_asked_for_two_at_a_time(table_at):
    table = table_at([])
    smart(table)
    sherman_fires(table)
    throw(table, "AL:02", 3)                         # one in: the other still to come
    assert (table.view.faces, table.view.caption) == ((3,), "Allies: roll 1 more")
    throw(table, "AL:01", 5)                         # both in: the damage dice, two at a time
    assert (table.view.faces, table.view.caption) == ((3, 5), "Allies: roll 2 more")


def test_a_die_tumbling_too_long_falls_back_to_the_button_with_a_notice(table_at):
    table = table_at([6, 6, 1], config=NEW_BOX)    # the box's dice, for the button
    smart(table)
    easy_first_shot(table)
    loop = table.box.loop
    event(table, DieSaid("AX:01", Rolling()))       # off the table: it never settles
    loop.step(Tick(100.0))
    loop.step(Tick(100.0 + QUIET_S - 1))
    assert table.view.caption == "Axis: roll 1 die"
    loop.step(Tick(100.0 + QUIET_S))
    assert table.view.caption == "Die asleep: press your button"
    table.press("axis")                              # the box rolls the rest: 6, 6 (a D6+)
    assert isinstance(table.view, Roll) and table.view.caption == "Allies: roll 1 die"


def test_a_die_gone_quiet_mid_throw_falls_back_to_the_button(table_at):
    table = table_at([], config=NEW_BOX)
    smart(table, axis=("AX:01",))
    easy_first_shot(table)
    event(table, DieLink("AX:01", False, "asleep"))
    assert table.view.caption == "Die asleep: press your button"
    assert isinstance(table.box.app.screen, Throw)  # the die may still come back and roll
    event(table, DieLink("AX:01", True))            # it is back: thrown again, no notice
    assert table.view.caption == "Axis: roll 1 die"


def test_a_side_without_a_die_online_is_told_to_press_at_once(table_at):
    table = table_at([5, 6, 6, 1], config=NEW_BOX)
    smart(table)
    for die in AXIS_DICE:
        event(table, DieLink(die, False))
    table.press(*TWO_AND_TWO, "axis")               # the Axis's initiative by the button
    throw(table, "AL:01", 2)
    table.press("ok", "ok", "axis")
    assert table.view.caption == "Die asleep: press your button"
    table.press("axis")
    assert table.view.caption == "Allies: roll 1 die"
    throw(table, "AL:01", 1)
    assert isinstance(table.view, BigWord)


def test_each_smart_die_has_its_line_in_the_dice_statistics(table_at):
    table = table_at([], config=NEW_BOX)
    smart(table)
    easy_first_shot(table)
    throw(table, "AX:02", 5)
    throw(table, "AX:01", 3)
    throw(table, "AL:01", 1)
    app = table.box.app
    shown = dice_stats(app, app.screen)
    lines = shown.view(app)
    assert isinstance(lines, Lines)
    assert lines.lines[2:] == ("Green (Allies): 1 die · too few rolls to tell",
                               "Blue (Allies): 1 die · too few rolls to tell",
                               "Red (Axis): 2 dice · too few rolls to tell",
                               "Black (Axis): 1 die · too few rolls to tell")
    details = shown.on(app, Key.OK)
    assert "1:1  2:0  3:0  4:0  5:0  6:0" in details.view(app).lines


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_throw_is_worded_in_the_language_of_the_box(table_at, language):
    table = table_at([], config=NEW_BOX)
    smart(table)
    table.box.app.settings.language = language
    easy_first_shot(table)
    assert table.view.caption == {"en": "Axis: roll 1 die", "pl": "Oś: rzuć 1 kość"}[language]


# ---- the press budget: smart dice against real dice dialled ----

KNOB = ("cw", "ccw", "ok", "back")


class Finger:
    """Plays the table with smart dice thrown or real dice dialled, counting knob actions."""

    def __init__(self, table: Any, source: str) -> None:
        self.table, self.source, self.knob = table, source, 0
        if source == "smart":
            smart(table)
        else:
            table.box.app.settings.dice = {"axis": "dial", "allies": "dial"}

    def press(self, *words: str) -> None:
        for word in words:
            self.knob += word in KNOB
            self.table.press(word)

    def roll(self, side: str, *faces: int, button: bool = True) -> None:
        """`side`'s dice: thrown (smart), or its button then each face dialled (`button`:
        the side's button asks for the first face; the faces after it are asked for in a
        row)."""
        if self.source == "smart":
            dice = AXIS_DICE if side == "axis" else ALLIES_DICE
            for n, face in enumerate(faces):
                throw(self.table, dice[n % len(dice)], face)
            return
        if button:
            self.press(side)
        for face in faces:
            self.press(*["cw"] * (face - 1), "ok")


def easy_battle(finger: Finger) -> None:
    """A whole Easy battle: a Tiger against a Sherman; the Axis wins the initiative 5 : 2 and
    destroys the Sherman with its first shot (to hit 5, D6+ 3 against front 8 + 1)."""
    table = finger.table
    finger.press("ok", "cw", "allies", "cw", "cw", "axis", "ok")
    finger.roll("axis", 5)
    finger.roll("allies", 2)
    finger.press("ok", "ok", "axis")                # Tiger 1, Fire → Sherman 1, fire
    finger.roll("axis", 5, 3, button=False)         # the fire button asked for them
    finger.roll("allies", 1)
    assert isinstance(table.view, BigWord) and table.view.word in ("DESTROYED", "ZNISZCZONY")
    finger.press("ok")
    assert table.box.app.state is None or table.box.app.state.winner is not None


def tank_turn(finger: Finger) -> None:
    """A Tank Game turn: the Sherman fires at the Tiger's rear (to hit 3, reload 5, its nine
    damage dice), then all done."""
    table = finger.table
    finger.press(*TIGER_VS_SHERMAN)
    finger.roll("axis", 4)
    finger.roll("allies", 2)
    finger.press("ok")                               # the Allies defend and go first
    finger.press("ok", "ok", "ok", "ok", "ok", "cw", "cw", "allies")   # Sherman 1 fires: rear
    finger.roll("allies", 3, 5, 3, 4, 4, 4, 4, 4, 4, 4, 4, button=False)
    assert isinstance(table.view, BigWord)
    finger.press("ok", "ok")                         # the outcome; All done
    assert table.box.app.state.active.value == "axis"


@pytest.mark.parametrize("language", ["en", "pl"])
@pytest.mark.parametrize(("play", "smart_knob", "dial_knob"), [(easy_battle, 8, 24),
                                                               (tank_turn, 17, 66)])
def test_smart_dice_take_fewer_knob_actions_than_real_dice_dialled(
        table_at, tmp_path, language, play, smart_knob, dial_knob):
    counted = {}
    for source in ("smart", "dial"):
        config = NEW_BOX if play is easy_battle else None
        table = table_at([], state_dir=tmp_path / source, config=config)
        table.box.app.settings.language = language
        finger = Finger(table, source)
        play(finger)
        counted[source] = finger.knob
    assert counted == {"smart": smart_knob, "dial": dial_knob}
    assert counted["smart"] < counted["dial"]


def pulled_plug(table: Any, tmp_path: Path) -> Path:
    """The state folder as a plug pulled now leaves it (the file and its write-ahead log as
    they are on disk, never closed), copied to a folder of its own for the box started
    again: the box before keeps running untouched."""
    assert not table.box.app.unsaved                 # each frame's writes are made
    after = tmp_path / "after_the_plug"
    shutil.copytree(table.box.store.path.parent, after)
    return after


def started_again(table_at: Any, state: Path, config: Config = QUICK_HOLDS) -> Any:
    """The box started again in `state`, its paired dice (saved there) the tests' own
    (`smart`): the Pi's Bluetooth, which this machine lacks, would say from its thread, at
    any moment, that they are out of reach."""
    return table_at([], state_dir=state,
                    config=replace(config, smart_dice=SmartDiceSetup(enabled=False)))


def test_a_face_thrown_before_a_pulled_plug_comes_back_by_itself_and_is_not_thrown_again(
        table_at, tmp_path):
    """The to-hit settled on 5, then the plug: the battle resumes before the shot (nothing of
    it applied, none of its faces counted twice), and the same presses bring the 5 back as
    thrown, no die waited for; the D6+ after it is thrown as it would have been."""
    table = table_at([], config=NEW_BOX)
    smart(table)
    easy_first_shot(table)
    throw(table, "AX:02", 5)
    assert table.view.caption == "Axis: roll 1 more"
    battle = table.box.app.state.id
    again = started_again(table_at, pulled_plug(table, tmp_path), NEW_BOX)
    lit = smart(again)
    again.choose("Resume")
    assert again.box.app.state.id == battle
    assert again.box.store.face_counts(battle) == {1: 0, 2: 1, 3: 0, 4: 0, 5: 1, 6: 0}
    again.press("ok")                               # the initiative's outcome shown again
    assert isinstance(again.view, Menu) and again.view.items[0] == "Tiger 1"
    again.press("ok", "ok", "axis")
    assert (again.view.faces, again.view.caption) == ((5,), "Axis: roll 1 more")
    assert lit.lit["AX:01"] == SIDE_RGB["axis"]
    throw(again, "AX:01", 3)
    assert isinstance(again.view, Roll) and again.view.caption == "Allies: roll 1 die"
    throw(again, "AL:01", 1)
    assert isinstance(again.view, BigWord) and again.view.word == "DESTROYED"
    assert again.box.store.face_counts(battle) == {1: 1, 2: 1, 3: 1, 4: 0, 5: 2, 6: 0}
    assert again.box.store.die_counts()["AX:02"] == {1: 0, 2: 0, 3: 0, 4: 0, 5: 1, 6: 0}
    assert again.box.store.thrown() == {}           # the action saved: nothing left to keep


def test_one_die_of_a_throw_of_two_in_before_the_plug_the_other_is_waited_for(
        table_at, tmp_path):
    table = table_at([])
    smart(table)
    sherman_fires(table)
    throw(table, "AL:02", 3)
    again = started_again(table_at, pulled_plug(table, tmp_path))
    smart(again)
    again.choose("Resume")
    again.press("ok", "ok", "ok", "ok", "ok", "ok", "allies")
    assert (again.view.faces, again.view.caption) == ((3,), "Allies: roll 1 more")
    assert isinstance(again.box.app.screen, Throw)          # the second die is awaited
    throw(again, "AL:01", 5)                         # both in: the damage dice, two at a time
    assert (again.view.faces, again.view.caption) == ((3, 5), "Allies: roll 2 more")


def test_a_die_of_the_roll_off_thrown_before_the_plug_is_in_after_it(table_at, tmp_path):
    table = table_at([], config=NEW_BOX)
    smart(table)
    table.press(*TWO_AND_TWO)
    throw(table, "AL:02", 2)
    assert (table.view.caption, table.view.needed) == ("Axis: roll 1 die", "? : 2")
    again = started_again(table_at, pulled_plug(table, tmp_path), NEW_BOX)
    smart(again)
    again.choose("Resume")
    assert (again.view.caption, again.view.needed) == ("Axis: roll 1 die", "? : 2")
    throw(again, "AX:02", 5)
    assert again.box.app.state.active.value == "axis"


def test_figures_run_over_are_thrown_for_one_by_one(table_at):
    table = table_at(AXIS_FIRST)
    overrun_field(table)
    smart(table)
    table.choose("• Bofors 1")                      # taken out: only the squad of 3 under it
    table.choose("Run over!")
    assert table.view.caption == "Allies: roll 1 die"
    throw(table, "AL:01", 5)                        # figure 1: DOWN
    assert table.view.caption == "Allies: roll 1 die"
    throw(table, "AL:02", 1)                        # figure 2: safe
    throw(table, "AL:01", 6)                        # figure 3: DOWN
    assert table.view.word == "2 of 3 down"
    table.press("ok")
    assert pieces(table)["Rifle 1"] == (1, [])


def test_a_squad_s_attack_and_the_defence_are_thrown_by_each_player(table_at):
    # Rifle 1 (2) at 45 cm: the rifle's attack 4 + 2 = 6 against the pistol's defence 3.
    table = table_at(AXIS_FIRST)
    new_battle(table, ("Rifleman", "axis", 2), ("Soldier with pistol", "allies", 2))
    smart(table)
    table.press("ok", "ok")                         # Rifle 1 alone: it starts; Fire
    table.press("ok", "ok", "ok", "axis")           # at Pistol 1, 45 cm: fire
    assert table.view.caption == "Axis: roll 1 die"
    throw(table, "AL:01", 6)                        # the defender's die is not awaited yet
    assert table.view.caption == "Wait: Axis rolls now"
    throw(table, "AX:01", 4)
    assert table.view.caption == "Allies: roll 1 die"
    throw(table, "AL:02", 3)
    assert table.box.store.die_counts()["AL:02"][3] == 1
    assert pieces(table)["Pistol 1"] == (1, [])


def test_cobra_s_weather_is_thrown_by_the_german_player(table_at, tmp_path):
    state = tmp_path / "state"
    seed_game(state, at_weather(21, [OV, S, OV, C, C, C]))   # turns 18, 19 and 20 clear
    table = table_at([], state_dir=state)
    smart(table)
    table.choose("Resume Cobra")
    table.press("ok")                                        # Roll the weather
    assert table.view.caption == "German: roll 1 die"
    throw(table, "AX:01", 5)
    assert (table.view.word, table.view.detail) == ("CLEAR", "C: 5-1 = 4")
    assert table.box.store.die_counts()["AX:01"][5] == 1


def test_each_side_s_dice_row_steps_through_buttons_real_and_smart_and_is_kept(
        table_at, tmp_path):
    table = table_at([])
    table.press("cw", "cw", "ok", "cw", "cw")       # Settings, the Axis's dice row
    assert table.view.items[2:4] == ("Axis dice: Buttons", "Allies dice: Buttons")
    table.press("ok")
    assert table.view.items[2] == "Axis dice: Real"
    table.press("ok")
    assert table.view.items[2] == "Axis dice: Smart (no dice)"     # none paired to the Axis
    table.box.app.settings.smart_dice = {"AX:01": {"kind": "pixels", "side": "axis"}}
    table.press("cw", "ok", "ok", "ok", "ccw")       # the Allies: Real, Smart, Buttons again
    assert table.view.items[2:4] == ("Axis dice: Smart", "Allies dice: Buttons")
    assert table.box.store.settings()["dice"] == {"axis": "smart", "allies": "buttons"}
    table.close()
    again = table_at([], state_dir=tmp_path / "state")
    assert again.box.app.settings.dice == {"axis": "smart", "allies": "buttons"}


def test_under_the_menu_the_dice_of_the_side_whose_turn_it_is_stay_lit(table_at):
    table = table_at([], config=NEW_BOX)
    lit = smart(table)
    easy_first_shot(table)
    assert lit.lit["AX:01"] == SIDE_RGB["axis"]
    table.press("back")                              # the menu of a long press
    assert isinstance(table.view, Menu)
    assert lit.lit == {**dict.fromkeys(AXIS_DICE, SIDE_RGB["axis"]), **dict.fromkeys(ALLIES_DICE)}
    table.press("back")                              # back to the throw
    assert table.view.caption == "Axis: roll 1 die" and lit.lit["AX:01"] == SIDE_RGB["axis"]


def test_who_goes_first_is_thrown_by_both_their_dice_lit(table_at):
    table = table_at([], config=NEW_BOX)
    lit = smart(table)
    table.press(*TWO_AND_TWO)
    assert table.view.caption == "Both: roll your die"
    assert lit.lit == {**dict.fromkeys(AXIS_DICE, SIDE_RGB["axis"]),
                       **dict.fromkeys(ALLIES_DICE, SIDE_RGB["allies"])}
    throw(table, "AL:02", 2)
    assert (table.view.caption, table.view.needed) == ("Axis: roll 1 die", "? : 2")
    assert lit.lit == {**dict.fromkeys(AXIS_DICE, SIDE_RGB["axis"]), **dict.fromkeys(ALLIES_DICE)}
    heard = cues(table)
    throw(table, "AL:01", 6)                         # the Allies rolled already: refused
    assert heard == ["error"] and table.view.needed == "? : 2"
    throw(table, "AX:02", 5)
    assert table.box.app.state.active.value == "axis"     # its turn: its dice lit
    assert isinstance(table.view, Menu)
    assert lit.lit == {**dict.fromkeys(AXIS_DICE, SIDE_RGB["axis"]), **dict.fromkeys(ALLIES_DICE)}


def test_a_reload_is_thrown_by_the_tank_s_player(table_at, tmp_path):
    seeded(tmp_path / "state", "tank", [("2477", {"immobilized": True, "loaded": False})],
           [("2464", {})])
    table = table_at([])
    smart(table)
    table.press("ok", "ok", "ok")                    # Resume; Tiger 1 alone; Reload
    assert (table.view.header.title, table.view.caption) == ("Reload", "Axis: roll 1 die")
    throw(table, "AX:02", 6)
    assert isinstance(table.view, Roll) and table.view.total == "RELOADED"
    assert table.box.store.die_counts()["AX:02"][6] == 1
