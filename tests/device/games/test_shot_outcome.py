"""A shot's last screen tells all of it (issue 29): who fired, the outcome word, at whom, the
firer's reload, and OK = next; the steps before it are headed by who fires at whom; a failed
Reload is said as failed wherever the turn lists what a piece did. Real app, store, screens and
inputs on gpiozero's mock pins, with scripted dice."""
from __future__ import annotations

from cobi_companion.device.core.views import BigWord, Menu, Roll
from cobi_companion.device.ui.renderer import overflow

from tests.device.games.test_tank_game_box import AXIS_FIRST, new_battle


def tiger_fires_at_the_sherman(table) -> None:
    """The Axis move first: Tiger 1 alone, Fire, at Sherman 1, not hull down, not over 100."""
    new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "allies"))
    table.press("ok", "ok")                   # Tiger 1 alone: its menu; Fire
    table.choose("Sherman 1")
    table.press("ok", "ok")                   # hull down: no; over 100 cm: no
    assert table.view.header.title == "Tiger 1"


def test_an_ap_miss_ends_on_miss_with_its_reload_not_on_the_reload_step(table_at):
    table = table_at([*AXIS_FIRST, 1, 1])     # to hit 1: a miss; reload 1: unloaded
    tiger_fires_at_the_sherman(table)
    table.press("axis")
    to_hit, reload, told = table.steps
    assert isinstance(to_hit, Roll) and to_hit.total == "MISS"
    assert isinstance(reload, Roll) and reload.total == "UNLOADED"
    assert to_hit.header.title == reload.header.title == "Tiger 1"    # who fires heads them
    assert table.view == told and isinstance(told, BigWord)
    assert (told.header.title, told.word) == ("Tiger 1", "MISS")      # who missed
    assert (told.detail, told.hint) == ("→ Sherman 1 · unloaded", "OK = next")
    assert overflow(told) == []
    table.press("ok")                         # OK = next: the Tiger's menu
    assert isinstance(table.view, Menu) and table.view.hint == "fired"


def test_a_hit_tells_its_sum_and_the_reload(table_at):
    # to hit 6; reload 6; 16 damage dice + extras against the Sherman's front 6
    table = table_at([*AXIS_FIRST, 6, 6, *[4] * 16, 1])
    tiger_fires_at_the_sherman(table)
    table.press("axis")
    told = table.view
    assert isinstance(told, BigWord) and told.header.title == "Tiger 1"
    assert told.detail.startswith("→ Sherman 1 · ") and told.detail.endswith(" · reloaded")
    assert told.hint == "OK = next"


def test_a_failed_reload_is_listed_as_failed_not_reloaded(table_at):
    table = table_at([*AXIS_FIRST, 1, 1, 1])  # the miss unloads; the Reload rolls 1+2: fails
    tiger_fires_at_the_sherman(table)
    table.press("axis", "ok")                 # the miss read: the Tiger's menu
    table.choose("All done")
    assert table.view.header.side == "allies"
    table.choose("Pass")
    table.press("cw", "ok")                   # yes: round 2, the Axis first again
    table.press("ok")                         # Tiger 1 alone
    table.choose("Reload")
    table.press("axis")
    assert isinstance(table.view, Roll) and table.view.total == "UNLOADED"
    table.press("ok")
    assert table.view.hint == "reload failed"


def test_an_he_miss_ends_on_miss_with_unloaded_on_the_same_screen(table_at):
    table = table_at([*AXIS_FIRST, 1, 1])     # HE to hit 1: a miss; reload 1: unloaded
    new_battle(table, ("Pz.Kpfw. IV Ausf. D", "axis"), ("37 mm Bofors AT gun", "allies"))
    table.press("ok", "ok")                   # Pz IV D alone, Fire: the HE template
    table.press("ok", "ok", "ok")             # the Bofors: all 3 of its crew; in the open
    table.choose("Fire!")
    table.press("ok")                         # over 100 cm: no
    table.press("axis")
    told = table.view
    assert isinstance(told, BigWord) and told.word == "MISS"
    assert told.header.title == "Pz IV D 1: shell"
    assert (told.detail, told.hint) == ("unloaded", "OK = next")   # "MISS · unloaded"
