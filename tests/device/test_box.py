"""Whole battles on the box: the real app, store, screens and inputs, with gpiozero's mock pins
pressed as fingers would, and the OLED as luma's dummy device."""
from __future__ import annotations

from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll
from cobi_companion.device.sim import drain

from .conftest import EASY

# New battle opens the roster at the Rules setting's level. The cards are 7TP, Sherman,
# Pz 1b, Tiger, Pz IV...; the cursor starts on the 7TP.
TIGER_VS_SHERMAN = ["ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok"]


def test_tank_battle_kellys_heroes_on_the_box(table_at):
    # Attacker roll-off 4 (Axis) v 2: the Allies defend and act first.
    table = table_at([4, 2, 3, 5, 3, 6, 4, 4, 6, 3, 1, 2, 4, 4, 2])
    table.press(*TIGER_VS_SHERMAN, "axis", "allies", "ok")
    assert isinstance(table.view, Menu) and table.view.items == ("Sherman 1", "Pass")
    assert table.view.header.side == "allies" and table.view.header.round == 1
    table.press("ok", "ok", "ok", "ok", "ok")  # Sherman 1 (alone: its actions), fire, Tiger 1,
    assert isinstance(table.view, Lines)       # not hull down, not over 100 cm
    assert table.view.header.title == "Sherman 1"
    assert table.view.lines[0] == "→ Tiger 1 · front" and "destroy" in table.view.lines[2]
    table.press("cw", "cw")                   # the knob turns the armour hit: rear
    assert table.view.lines[0] == "→ Tiger 1 · rear"
    table.press("axis")                       # the wrong button does nothing
    assert "press to fire" in table.view.hint
    table.press("allies")                     # the steps play by themselves to the outcome
    assert [v.total for v in table.steps[:3]] == ["HIT", "RELOADED", "= 10"]
    assert isinstance(table.view, BigWord) and table.view.word == "WEAKENED"
    assert table.view.detail == "→ Tiger 1 · 10 − 8 = 2 · reloaded"   # the rear armour 8
    assert (table.view.header.title, table.view.hint) == ("Sherman 1", "OK = next")
    assert table.display.image is not None and table.display.image.getbbox() is not None
    state = table.box.store.load_battle()
    assert {v["label"]: v["status"] for v in state["pieces"]} == {
        "Tiger 1": ["weakened"], "Sherman 1": []}
    assert state["active"] == "allies"        # the Sherman's activation is still open
    table.press("ok")
    assert table.view.items[table.view.index] == "All done"
    table.press("ok")                         # it fired: no extra activation, the Axis turn
    assert table.box.store.load_battle()["active"] == "axis"
    assert table.view.items == ("Tiger 1", "Pass")


def test_easy_battle_target_player_rolls_the_armour(table_at):
    # Easy: initiative Axis 5 v Allies 2; Tiger fires at the Sherman's front.
    table = table_at([5, 2, 4, 6, 6, 3, 4], config=EASY)
    table.press("ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok")
    table.press("axis", "allies")             # initiative: the result goes on by itself
    assert table.view.items == ("Tiger 1", "Pass")
    table.press("ok", "ok")                   # Tiger 1, Fire → Sherman 1
    assert table.view.lines[0] == "→ Sherman 1 · front"
    table.tap("axis")                         # the firer rolls to hit and its D6+
    assert [v.faces for v in table.steps] == [(4,), (6, 6, 3)]
    drain(table.box)                          # the steps play, then the armour is awaited
    assert isinstance(table.view, Lines) and "Allies" in table.view.lines[-1]
    table.press("axis")                       # not the firer's turn to roll now
    assert "Allies" in table.view.lines[-1]
    table.press("allies")                     # the target's player rolls the armour D6+
    assert [v.total for v in table.steps[:3]] == ["HIT", "= 23", "= 12"]
    assert isinstance(table.view, BigWord)
    # 16 + 7 = 23 against 8 + 4 = 12: 11 >= Destroy 2.
    assert table.view.word == "DESTROYED" and table.view.detail == "→ Sherman 1 · 23 − 12 = 11"
    table.press("ok")
    assert isinstance(table.view, BigWord) and "AXIS WIN" in table.view.word


def test_a_restart_resumes_the_battle(table_at, tmp_path):
    first = table_at([4, 2, 3, 5, 3, 6, 4, 4, 6, 3, 1, 2, 4, 4, 2])
    first.press(*TIGER_VS_SHERMAN, "axis", "allies", "ok",
                "ok", "ok", "ok", "ok", "ok", "cw", "cw", "allies")
    first.close()
    again = table_at([6, 6])
    assert isinstance(again.view, Menu) and again.view.items[0] == "Resume battle"
    again.press("ok")                        # Resume: the Sherman's shot again first
    assert isinstance(again.view, BigWord) and again.view.word == "WEAKENED"
    again.press("ok")                        # the Sherman fired: its activation is open
    assert again.view.header.side == "allies"
    assert again.view.items == ("Move", "All done", "Commander out")   # it fired
    assert again.view.items[again.view.index] == "All done"
    again.press("ok")
    assert again.view.header.side == "axis" and again.view.items == ("Tiger 1", "Pass")


def test_chatter_on_a_button_is_one_press(table_at):
    # A still tap clock (tap_pins): the chatter's edges are stamped at one instant however
    # long the machine takes between them (under load, real time between two edges once
    # passed the bounce time, and the chatter counted as a press).
    table = table_at([3, 3])
    table.press("ok", "cw", "cw", "cw")
    pin = table.factory.pin(table.config.buttons.axis)
    for _ in range(4):                        # contacts bouncing within a few milliseconds
        pin.drive_low()
        pin.drive_high()
    drain(table.box)                          # nothing yet: up again within the bounce time
    assert len(table.box.app.screen.battle.pieces) == 0
    # A moment past the bounce time, not exactly at its end: the clock's sum of floats lands
    # either side of it by where the clock started (time.monotonic()).
    table.panel.spend(table.config.buttons.bounce_s + 0.001)
    loop = table.box.loop
    loop.step(loop.wait(0.0))                 # the loop reads the pin once that is over: up
    drain(table.box)
    assert len(table.box.app.screen.battle.pieces) == 1
    for _ in range(3):                        # a press with its chatter, held, then let go
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    table.panel.spend(0.1)
    pin.drive_high()
    drain(table.box)
    assert len(table.box.app.screen.battle.pieces) == 2


def test_a_failing_screen_does_not_stop_later_presses(table_at, monkeypatch):
    table = table_at([3])
    broken = type(table.box.app.screen)
    calls = {"n": 0}
    original = broken.on

    def once_broken(self, app, key):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("a bug")
        return original(self, app, key)
    monkeypatch.setattr(broken, "on", once_broken)
    table.press("cw")                        # raises inside the loop: logged, box goes on
    table.press("cw")
    assert table.view.index == 1


def test_settings_language_switches_to_polish(table_at):
    table = table_at([])
    table.press("cw", "cw", "ok", "ok")       # Settings, Language
    assert table.view.items[0].startswith("Język: Polski")
    assert table.box.store.settings()["language"] == "pl"


def test_settings_language_steps_through_every_language_of_the_registry(table_at):
    # English, Polski, Deutsch, English: each shown by its own name, each saved by its code.
    from cobi_companion.words import languages

    table = table_at([])
    table.press("cw", "cw", "ok")             # Settings
    seen = []
    for _ in languages.codes():
        table.press("ok")                     # Language: the next one
        # (the config's own language is no setting of the box's: not kept)
        seen.append((table.box.store.settings().get("language", "en"),
                     table.view.items[0].split(": ")[-1]))
        assert table.view.index == 0          # the menu redrawn on its row
    assert seen == [("pl", "Polski"), ("de", "Deutsch"), ("en", "English")]
    assert table.box.app.settings.language == "en"


def test_dice_tumble_on_ticks_then_show_the_result(table_at):
    from cobi_companion.device.ports.events import Tick

    table = table_at([4, 2])
    table.press(*TIGER_VS_SHERMAN, "axis")
    table.tap("allies")                       # the second die: the roll-off result tumbles
    loop = table.box.loop
    assert table.view.rolling and loop.app.screen.animating
    frames = {loop.render(table.view).tobytes()}
    for n in range(10):
        loop.step(Tick(float(n)))
        frames.add(loop.render(table.view).tobytes())
    assert not table.view.rolling and table.view.faces == (4, 2)
    assert len(frames) >= 3                   # the dice really moved


def test_real_dice_are_dialled_in(table_at):
    table = table_at([])
    table.press("cw", "cw", "ok", "cw", "cw", "ok")   # Settings: Axis dice: Real
    table.press("cw", "ok", "back")                    # Allies dice: Real
    assert table.box.app.settings.dice == {"axis": "dial", "allies": "dial"}
    table.press(*TIGER_VS_SHERMAN)
    table.press("axis", "ok")                 # Axis rolls 1 (the dial starts at 1)
    table.press("allies", "cw", "cw", "ok")   # Allies dial 3
    assert table.box.app.state.defender.value == "axis"   # Allies won 3 : 1, they attack
    rolls = table.box.store.face_counts(table.box.app.state.id)
    assert rolls[1] == 1 and rolls[3] == 1


def test_quick_dice_from_the_idle_screen_count_in_the_statistics(table_at, tmp_path):
    table = table_at([5, 6, 2])
    table.press("axis")                       # a big D6
    assert isinstance(table.view, Roll) and table.view.faces == (5,) and table.view.total == "5"
    table.press("allies_long")                # held: a D6+ of 6, 2, and no plain D6 first
    assert table.view.faces == (6, 2) and table.view.total == "6"
    assert table.box.store.face_counts() == {1: 0, 2: 1, 3: 0, 4: 0, 5: 1, 6: 1}
    table.close()
    again = table_at([], tmp_path / "state")  # a restart: the rolls were saved
    assert again.box.store.face_counts()[6] == 1


def test_a_refused_shot_stays_on_its_choice_and_costs_no_turn(table_at):
    # Easy: Tiger against the Pz IV H, whose card does not give its side armour.
    table = table_at([5, 2], config=EASY)
    table.press("ok", "cw", "cw", "cw", "axis", "cw", "allies", "ok")
    table.press("axis", "allies")             # initiative: Axis
    table.press("ok", "ok")                   # Tiger 1, Fire → Pz IV 1
    table.press("cw")                         # the side armour
    assert table.view.lines[0] == "→ Pz IV 1 · side"
    assert table.view.lines[1] == "cannot fire like this"        # in plain words
    table.press("ok")                         # OK: the rules' reason, for a parent
    assert any("armour_side" in line for line in table.view.lines)
    table.press("ok")
    table.press("axis")                       # refused: nothing is rolled
    assert isinstance(table.view, Lines) and table.view.lines[0] == "→ Pz IV 1 · side"
    table.press("ccw", "ok")                  # the front: its bands are not known either
    assert any("destroy_gun" in line for line in table.view.lines)
    table.press("ok")
    state = table.box.app.state
    assert state is not None and state.active is not None and state.active.value == "axis"
    assert not state.acted                    # nothing done: the Axis still has its action
    table.press("back")                       # and back to the choice of target or move
    assert isinstance(table.view, Menu) and table.view.header.title == "Tiger 1"


def test_a_roll_off_is_saved_as_soon_as_it_is_decided(table_at):
    # The plug is pulled while the initiative's result is still on the screen: the loser must
    # not get to roll again after the restart.
    first = table_at([5, 2], config=EASY)
    first.press("ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok")
    first.press("axis")
    first.tap("allies")                       # 5 : 2, the result on the screen
    assert isinstance(first.view, Roll) and first.view.needed == "5 : 2"
    first.close()
    again = table_at([1, 6])
    again.press("ok")                         # Resume battle: the result again, as it was
    assert isinstance(again.view, Roll) and again.view.needed == "5 : 2"
    again.press("ok")
    assert isinstance(again.view, Menu) and again.view.header.side == "axis"
    assert again.view.items == ("Tiger 1", "Pass")
