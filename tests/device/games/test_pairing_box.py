"""Settings → Smart dice on the real box (mock pins, the real app, store and screens): finding
dice, pairing two with few presses, kept across a restart, a paired die flashed, moved to the
other side and forgotten, a scan that cannot look or finds nothing, the dice's battery on the
status board, and saved rows checked. The dice's events are handed to the loop as the
Bluetooth adapter puts them on its queue."""
from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Mapping
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.box import usable_settings
from cobi_companion.device.core import i18n, paired_dice
from cobi_companion.device.core.turn_lights import SIDE_COLOURS
from cobi_companion.device.core.views import Lines, Menu
from cobi_companion.device.games.menus import status_board
from cobi_companion.device.games.pairing import SCAN_GRACE_S, SCAN_S, SWITCHED_OFF
from cobi_companion.device.ports import godice, pixels
from cobi_companion.device.ports.die_readings import GODICE, PIXELS, Battery, Colour
from cobi_companion.device.ports.events import DieFound, DieLink, DieSaid, Event, ScanDone, Tick
from cobi_companion.device.ports.late_dice import NO_BLEAK
from cobi_companion.device.ports.smart_dice import RGB, NoSmartDice
from cobi_companion.device.ports.speech import RecordingSpeech
from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore
from cobi_companion.device.ui.renderer import overflow
from cobi_companion.words import languages

from ..conftest import EASY
from .test_press_budget import Count
from .test_tank_game_box import new_battle

RED, PIXEL = "AA:BB:CC:DD:EE:3F", "11:22:33:44:55:0A"


@dataclass
class RecordingDice:
    """The smart dice port as the app drives it, recorded: what it was asked to do."""

    scans: list[float] = field(default_factory=list)
    kept: list[dict[str, str]] = field(default_factory=list)
    flashed: list[str] = field(default_factory=list)
    lit: list[tuple[str, RGB | None]] = field(default_factory=list)

    def start(self) -> RecordingDice:
        return self

    def close(self) -> None:
        pass

    def scan(self, seconds: float) -> None:
        self.scans.append(seconds)

    def keep(self, dice: Mapping[str, str]) -> None:
        self.kept.append(dict(dice))

    def light(self, die: str, colour: RGB | None) -> None:
        self.lit.append((die, colour))

    def flash(self, die: str) -> None:
        self.flashed.append(die)


def on_table(table_at: Callable[..., Any], faces: tuple[int, ...] = (),
             **parts: Any) -> tuple[Any, RecordingDice]:
    table = table_at(list(faces), **parts)
    dice = RecordingDice()
    table.box.app.smart = dice
    return table, dice


def said(table: Any, *events: Event) -> None:
    """The dice's events, each handled as the main loop does (then a frame, then the save)."""
    for event in events:
        table.box.loop.step(event)


def to_smart_dice(table: Any) -> None:
    table.choose(table.box.app.t("settings"))
    table.choose(table.box.app.t("smart_dice"))


def test_two_dice_are_paired_from_the_settings_with_thirteen_knob_actions_and_kept(
        table_at: Callable[..., Any], tmp_path: Path) -> None:
    table, dice = on_table(table_at, state_dir=tmp_path / "box")
    count = Count(table)
    items = table.view.items                        # the start menu: Settings, the short way
    at = next(i for i, item in enumerate(items) if item.startswith("Settings"))
    count.press(*(["cw"] * at if at <= len(items) // 2 else ["ccw"] * (len(items) - at)), "ok")
    while not table.view.items[table.view.index].startswith("Smart dice"):
        count.press("cw")
    count.press("ok")
    assert table.view.items == ("Find dice",)       # none paired yet
    count.press("ok")
    assert dice.scans == [SCAN_S]
    assert isinstance(table.view, Lines) and table.view.header.title == "Finding dice"
    assert table.view.lines == ("Shake each die to wake it.",)
    said(table, DieFound(RED, GODICE, "GoDice_3F_K_v04"), DieFound(PIXEL, PIXELS, "Pixel 0A"))
    assert table.view.items == ("GoDice 3F", "Pixels 0A")   # by maker until a colour is heard
    count.press("ok")                               # the GoDice: it blinks; whose is it?
    # kept, to be connected for its blink (the port blinks it once it is)
    assert dice.flashed == [RED] and dice.kept[-1] == {RED: GODICE}
    said(table, DieLink(RED, True))
    assert dice.flashed == [RED]                    # the port's to blink it: once
    assert (table.view.header.title, table.view.items, table.view.index) == (
        "Whose die?", ("Axis", "Allies", "Back"), 0)
    count.press("ok")                               # Axis
    assert table.view.items == ("Pixels 0A",)       # the dice found, still looking
    count.press("ok")                               # the Pixel blinks: Allies is lit now
    assert dice.flashed == [RED, PIXEL] and table.view.index == 1
    count.press("ok")
    said(table, ScanDone())                         # all found are paired: the paired dice
    assert table.view.header.title == "Smart dice"
    assert table.view.items == ("GoDice 3F · Axis", "Pixels 0A · Allies", "Find dice")
    assert dice.kept[-1] == {RED: GODICE, PIXEL: PIXELS}
    # from the start menu: to Settings (3) and Smart dice (5, past each side's dice rows),
    # Find dice, each die and its side (4): 13 knob actions (README "Smart dice")
    assert count.knob == 13, count.presses
    # a die paired to a side whose dice were the buttons' rolls for it from now on
    assert table.box.app.settings.dice == {"axis": "smart", "allies": "smart"}
    paired = {RED: {"kind": GODICE, "name": "GoDice_3F_K_v04", "side": "axis", "colour": ""},
              PIXEL: {"kind": PIXELS, "name": "Pixel 0A", "side": "allies", "colour": ""}}
    assert table.box.app.settings.smart_dice == paired
    table.close()
    again, _ = on_table(table_at, state_dir=tmp_path / "box")      # restarted: still paired
    assert again.box.app.settings.smart_dice == paired


def test_a_paired_die_is_named_by_its_colour_flashed_moved_and_forgotten_after_asking(
        table_at: Callable[..., Any]) -> None:
    table, dice = on_table(table_at)
    table.box.app.settings.smart_dice = {
        RED: {"kind": GODICE, "name": "GoDice", "side": "axis", "colour": ""}}
    table.box.app.settings.dice = {"axis": "smart", "allies": "buttons"}
    to_smart_dice(table)
    assert table.view.items == ("GoDice 3F · Axis", "Find dice")
    assert table.view.dimmed == (0,) and table.view.hint == "asleep"   # not connected
    said(table, DieLink(RED, True), DieSaid(RED, Colour("red")), DieSaid(RED, Battery(80)))
    assert table.view.items == ("Red · Axis", "Find dice")
    assert table.view.dimmed == () and table.view.hint == "80%"
    assert table.box.app.settings.smart_dice[RED]["colour"] == "red"   # named so when asleep
    said(table, DieSaid(RED, Battery(15)))
    assert table.view.hint == "15% · battery low"
    said(table, DieSaid(RED, Battery(16, charging=True)))
    assert table.view.hint == "16% · charging"
    table.press("ok")
    assert (table.view.header.title, table.view.items) == (
        "Red · Axis", ("Flash it", "Side: Axis", "Forget"))
    table.press("ok")
    assert dice.flashed == [RED]
    table.choose("Side")
    assert table.view.items[1] == "Side: Allies" and table.view.index == 1
    assert table.box.app.settings.smart_dice[RED]["side"] == "allies"
    # its new side throws it; the side left with none goes back to its button
    assert table.box.app.settings.dice == {"axis": "buttons", "allies": "smart"}
    assert dice.kept[-1] == {RED: GODICE}
    table.choose("Forget")
    assert table.view.header.title == "Forget the red die?" and table.view.index == 0  # no
    table.press("ok")
    assert table.view.items[2] == "Forget" and table.box.app.settings.smart_dice
    table.choose("Forget")
    table.choose("yes")
    assert table.view.items == ("Find dice",) and table.box.app.settings.smart_dice == {}
    assert dice.kept[-1] == {}
    assert table.box.app.settings.dice == {"axis": "buttons", "allies": "buttons"}


def test_a_scan_that_cannot_look_says_why_and_goes_back(table_at: Callable[..., Any]) -> None:
    table, _ = on_table(table_at)
    to_smart_dice(table)
    table.press("ok")
    said(table, ScanDone("Bluetooth is off (bluetoothd not running)"))
    view = table.view
    assert isinstance(view, Lines) and view.header.title == "No Bluetooth"
    assert view.lines[0] == "Bluetooth is off (bluetoothd not running)"
    assert "dice buttons" in view.lines[1]
    table.press("ok")
    assert table.view.header.title == "Smart dice"


def test_nothing_found_says_how_to_wake_the_dice(table_at: Callable[..., Any]) -> None:
    table, _ = on_table(table_at)
    to_smart_dice(table)
    table.press("ok")
    said(table, DieFound("00:00:00:00:00:01", "a_lamp", "Lamp"), ScanDone())   # not a die
    view = table.view
    assert isinstance(view, Lines) and view.header.title == "No dice found"
    assert "shake them" in view.lines[0]


@pytest.mark.parametrize("found", [False, True])
def test_a_scan_that_never_ends_keeps_no_one_waiting(table_at: Callable[..., Any],
                                                      found: bool) -> None:
    table, _ = on_table(table_at)
    to_smart_dice(table)
    table.press("ok")
    if found:
        said(table, DieFound(RED, GODICE, "GoDice"))
    said(table, Tick(1000.0), Tick(1000.0 + SCAN_S))
    assert table.view.header.title == "Finding dice"          # still looking
    said(table, Tick(1000.0 + SCAN_S + SCAN_GRACE_S + 1))
    assert table.view.header.title == ("Dice found" if found else "No dice found")


def test_a_long_press_leaves_the_scan(table_at: Callable[..., Any]) -> None:
    table, _ = on_table(table_at)
    to_smart_dice(table)
    table.press("ok", "back")
    assert table.view.header.title == "Smart dice"
    said(table, DieFound(RED, GODICE, "GoDice"), ScanDone())      # its end, heard elsewhere
    assert table.view.header.title == "Smart dice"


def test_the_status_board_shows_each_die_s_battery(table_at: Callable[..., Any],
                                                    caplog: pytest.LogCaptureFixture) -> None:
    table, _ = on_table(table_at, config=EASY)
    app = table.box.app
    app.settings.smart_dice = {
        RED: {"kind": GODICE, "name": "GoDice", "side": "axis", "colour": "red"},
        PIXEL: {"kind": PIXELS, "name": "Pixel", "side": "allies", "colour": ""},
        "C": {"kind": GODICE, "name": "GoDice", "side": "allies", "colour": "blue"}}
    new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "allies"))
    with caplog.at_level(logging.WARNING, logger="cobi-companion"):
        said(table, DieSaid(RED, Battery(30)), DieSaid(RED, Battery(15)),
             DieSaid(RED, Battery(14)), DieSaid(PIXEL, Colour("midnight_galaxy")),
             DieSaid(PIXEL, Battery(100, charging=True)))
    assert [r.getMessage() for r in caplog.records if "battery" in r.getMessage()] == [
        f"smart die {RED}: battery low (15%), charge it after the battle"]     # once
    lines = status_board(app, app.screen).view(app).lines
    assert lines[-4:] == ("Smart dice", "Red (Axis): 14% · battery low",
                          "Midnight Galaxy (Allies): 100% · charging", "Blue (Allies): asleep")


def test_a_bad_saved_die_is_reported_and_the_others_load(tmp_path: Path) -> None:
    good = {"kind": GODICE, "name": "GoDice", "side": "axis", "colour": "red"}
    rows = {RED: good, "B": {**good, "kind": "lamp"}, "C": {**good, "side": "left"},
            "D": [1], "E": {**good, "size": "big"}, "F": {**good, "name": 5},
            "G": {"kind": PIXELS, "side": "allies"}}
    SqliteStore(tmp_path / DATABASE_NAME).close()
    with closing(sqlite3.connect(tmp_path / DATABASE_NAME)) as conn, conn:
        conn.execute("INSERT INTO settings VALUES (?, ?)", ("smart_dice", json.dumps(rows)))
    store = SqliteStore(tmp_path / DATABASE_NAME)
    try:
        assert usable_settings(store) == {"smart_dice": {RED: good, "G": {
            "kind": PIXELS, "name": "", "side": "allies", "colour": ""}}}
        assert {bad.key: bad.why for bad in store.bad_rows} == {
            "smart_dice.B": "kind 'lamp' is not one of godice, pixels",
            "smart_dice.C": "side 'left' is not one of axis, allies",
            "smart_dice.D": "list, not a die's row",
            "smart_dice.E": "'size' is not one of kind, name, side, colour",
            "smart_dice.F": "its values must be text of at most 64 characters"}
    finally:
        store.close()


def test_every_colour_the_makers_name_has_its_words() -> None:
    for module in (godice, pixels):
        named = getattr(module, "COLOURS", paired_dice.COLOURS)
        assert set(named) <= set(paired_dice.COLOURS), module.__name__
    for code in languages.codes():
        for colour in paired_dice.COLOURS:
            for key in ("die_colour_" + colour, "forget_die_" + colour):
                assert i18n.text(code, key) != i18n.text(code, "forget") and \
                    i18n.has(key), (code, key)


@pytest.mark.parametrize("language", languages.codes())
def test_every_pairing_screen_fits_the_panel(table_at: Callable[..., Any],
                                             language: str) -> None:
    table, _ = on_table(table_at)
    app = table.box.app
    app.settings.language = language
    seen = []
    app.settings.smart_dice = {f"D{i}": {"kind": PIXELS, "name": "Pixel", "side": side,
                                         "colour": colour}
                               for i, colour in enumerate(paired_dice.COLOURS)
                               for side in ("allies",)}
    to_smart_dice(table)
    said(table, DieLink("D0", True), DieSaid("D0", Battery(100, charging=True)))
    for _ in range(len(paired_dice.COLOURS)):
        seen.append(table.view)
        table.press("ok")               # the die's own menu, its forget question
        seen.append(table.view)
        table.choose(app.t("forget"))
        seen.append(table.view)
        table.press("cw")
        seen.append(table.view)
        table.press("back", "back", "cw")
    table.choose(app.t("find_dice"))
    seen.append(table.view)
    said(table, DieFound(RED, GODICE, "GoDice"))
    table.press("ok")
    seen.append(table.view)
    table.press("back")
    said(table, ScanDone("Bluetooth is off"))
    seen.append(table.view)
    table.press("ok", "ok", "ok")
    said(table, ScanDone())
    seen.append(table.view)
    cut = {str(view.header.title): overflow(view) for view in seen if overflow(view)}
    assert not cut, cut
    assert isinstance(seen[0], Menu)


def test_each_side_s_dice_light_in_its_colour_on_its_turn(table_at: Callable[..., Any]) -> None:
    table, dice = on_table(table_at, (5, 2), config=EASY)
    app = table.box.app
    app.settings.smart_dice = {
        RED: {"kind": GODICE, "name": "GoDice", "side": "axis", "colour": "red"},
        PIXEL: {"kind": PIXELS, "name": "Pixel", "side": "allies", "colour": ""}}
    said(table, DieLink(RED, True), DieLink(PIXEL, True))
    assert dice.lit == []                           # no battle: nothing to light, nor put out
    new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "allies"))
    active = app.playing.active
    assert active is not None
    mine, theirs = (RED, PIXEL) if active.value == "axis" else (PIXEL, RED)
    assert dict(dice.lit) == {mine: SIDE_COLOURS[active.value]} or \
        dict(dice.lit) == {mine: SIDE_COLOURS[active.value], theirs: None}
    dice.lit.clear()
    said(table, DieSaid(mine, Battery(50)))         # nothing changed: nothing sent
    assert dice.lit == []
    said(table, DieLink(mine, False), DieLink(mine, True))     # asleep, then back: lit again
    assert dice.lit == [(mine, SIDE_COLOURS[active.value])]
    dice.lit.clear()
    table.press("ccw", "ok", "cw", "ok")            # Pass this turn? yes: the other side's turn
    now = app.playing.active
    assert now is not None and now is not active
    assert sorted(dice.lit) == sorted([(mine, None), (theirs, SIDE_COLOURS[now.value])])


def test_a_die_gone_from_the_settings_while_its_menu_shows_leaves_it(
        table_at: Callable[..., Any]) -> None:
    table, dice = on_table(table_at)
    app = table.box.app
    app.settings.smart_dice = {
        RED: {"kind": GODICE, "name": "GoDice", "side": "axis", "colour": "red"}}
    to_smart_dice(table)
    table.press("ok")
    assert table.view.header.title == "Red · Axis"
    app.settings.smart_dice = {}                    # the settings read again without it
    said(table, DieSaid(RED, Battery(40)))          # its news: the menu stays as it was
    assert table.view.items == ("Flash it", "Side: Axis", "Forget")
    table.press("ok")                               # nothing to flash: back
    assert dice.flashed == [] and table.view.header.title == "Smart dice"


def test_a_die_not_paired_after_all_is_let_go(table_at: Callable[..., Any]) -> None:
    table, dice = on_table(table_at)
    to_smart_dice(table)
    table.press("ok")
    said(table, DieFound(RED, GODICE, "GoDice"), DieFound(PIXEL, PIXELS, "Pixel"))
    table.press("ok")
    assert dice.kept[-1] == {RED: GODICE}
    table.press("cw", "cw", "ok")                   # Back
    assert dice.kept[-1] == {} and table.view.items == ("GoDice 3F", "Pixels 0A")
    table.press("cw", "ok", "back")                 # the Pixel, then a long press
    assert dice.flashed == [RED, PIXEL] and dice.kept[-2:] == [{PIXEL: PIXELS}, {}]
    assert table.box.app.settings.smart_dice == {}


def test_a_die_s_row_is_read_aloud_with_its_battery(table_at: Callable[..., Any]) -> None:
    speech = RecordingSpeech()
    table, _ = on_table(table_at, speech=speech)
    app = table.box.app
    app.settings.smart_dice = {
        RED: {"kind": GODICE, "name": "GoDice", "side": "axis", "colour": "red"}}
    to_smart_dice(table)
    assert speech.texts[-1] == "Red, Axis, asleep"          # not "not now": it sleeps
    said(table, DieLink(RED, True), DieSaid(RED, Battery(15)))
    table.press("cw", "ccw")
    assert speech.texts[-1] == "Red, Axis, 15%, battery low"


@pytest.mark.parametrize("problem", [NO_BLEAK, ""])
def test_a_box_without_smart_dice_says_why_at_once_and_goes_back(
        table_at: Callable[..., Any], problem: str) -> None:
    # A 32-bit system (no Bluetooth library) or smart dice switched off in the settings file:
    # Find dice says why at once, not after a scan that cannot happen.
    table = table_at([])
    table.box.app.smart = NoSmartDice(problem)
    to_smart_dice(table)
    table.press("ok")                                # Find dice
    assert isinstance(table.view, Lines) and table.view.header.title == "No Bluetooth"
    shown = "".join(table.view.lines).replace(" ", "")
    assert (problem or SWITCHED_OFF).replace(" ", "") in shown
    table.press("ok")
    assert table.view.header.title == "Smart dice"


def test_two_dice_of_one_colour_are_told_apart_by_their_address(
        table_at: Callable[..., Any]) -> None:
    table, _ = on_table(table_at)
    table.box.app.settings.smart_dice = {
        RED: {"kind": GODICE, "name": "GoDice", "side": "axis", "colour": "red"},
        PIXEL: {"kind": PIXELS, "name": "Pixel", "side": "allies", "colour": "red"}}
    to_smart_dice(table)
    assert table.view.items == ("Red 3F · Axis", "Red 0A · Allies", "Find dice")
