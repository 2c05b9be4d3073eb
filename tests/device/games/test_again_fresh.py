"""Again asks again after a move (issue 35, point 2): the last shot's "over 100 cm" and hull
down answers hold only while neither the firer nor the target has moved since it was fired.
After a move of either, the Again row asks both again (starting on the old answers); with
nothing moved it keeps them, fires with one press, and its hint shows the range it will use.
Real app, store, screens and inputs on gpiozero's mock pins; a pulled plug keeps the fact."""
from __future__ import annotations

from cobi_companion.device.config import Config, Game
from cobi_companion.device.core.views import Menu

from tests.device.games.test_tank_game_box import AXIS_FIRST, logged, new_battle

POLISH = Config(game=Game(language="pl", rules="tank"))
# The roll-off (the Axis defends: it plays first), the Tiger's first shot: a miss (1) and its
# reload (6); the shot again: 3 to hit (3+: a hit, but a miss with over 100 cm's -1), its
# reload, and the damage dice of a hit.
DICE = [*AXIS_FIRST, 1, 6, 3, 6, *[2] * 20]


def fire_over_100(table) -> None:
    """Tiger 1 alone fires at Sherman 1: not hull down, over 100 cm; a miss, reloaded."""
    table.press("ok", "ok", "ok", "ok", "cw", "ok", "axis", "ok")
    assert table.view.items == ("Move", "All done", "Commander out")


def move_tiger(table) -> None:
    """The Tiger moves after its shot (rule 10 lets it): forward, no turns, no rough, no road."""
    table.press("ccw", "ok", "ok", "ok", "ok", "ok", "ok")
    assert table.view.hint in ("fired, moved", "strzelał, ruszył")


def allies_pass(table) -> None:
    table.press("cw", "ok", "cw", "ok")      # Pass, yes


def sherman_moves(table) -> None:
    """The Sherman alone moves (forward, no turns...), all done: the Allies' turn ends."""
    table.press("ok", "cw", "ok", "ok", "ok", "ok", "ok", "ok", "ok")


def again_row(table) -> Menu:
    view = table.view
    assert isinstance(view, Menu) and view.items[0] == "Tiger 1 → Sherman 1"
    assert view.index == 0
    return view


def last_fire(table) -> str:
    return [line for line in logged(table) if "fires" in line][-1]


def test_nothing_moved_again_keeps_the_answers_and_its_hint_shows_them(table_at):
    table = table_at(DICE)
    new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "allies"))
    fire_over_100(table)
    table.press("ok")                          # All done: the Axis' turn ends
    allies_pass(table)
    assert "over 100 cm" in again_row(table).hint.split(" · ")
    table.press("axis")                        # fired at once: no question
    table.press("ok")
    assert last_fire(table) == "axis Tiger 1 fires at Sherman 1 (front): miss"


def test_after_the_firer_moved_again_asks_the_range_and_hull_down_again(table_at):
    table = table_at(DICE)
    new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "allies"))
    fire_over_100(table)
    move_tiger(table)
    table.press("ok")                          # All done
    allies_pass(table)
    view = again_row(table)
    assert "over 100 cm" not in view.hint.split(" · ")
    assert "moved: asks first" in view.hint.split(" · ")
    table.press("axis")                        # not fired: asked again
    assert table.view.header.title == "Behind cover?"
    table.press("ok")                          # not hull down
    assert table.view.header.title == "Over 100 cm?"
    assert table.view.items[table.view.index] == "yes"      # starts on the old answer
    table.press("ccw", "ok")                   # no: closer now
    table.press("axis")
    assert last_fire(table) != "axis Tiger 1 fires at Sherman 1 (front): miss"
    assert last_fire(table).startswith("axis Tiger 1 fires at Sherman 1 (front)")


def test_after_the_target_moved_again_asks_again(table_at):
    table = table_at(DICE)
    new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "allies"))
    fire_over_100(table)
    table.press("ok")                          # All done
    sherman_moves(table)
    assert "moved: asks first" in again_row(table).hint.split(" · ")
    table.press("ok")                          # OK asks too
    assert table.view.header.title == "Behind cover?"


def test_the_move_is_kept_through_a_pulled_plug(table_at, tmp_path):
    table = table_at(DICE)
    new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "allies"))
    fire_over_100(table)
    move_tiger(table)
    table.press("ok")
    allies_pass(table)
    table.close()
    table = table_at(DICE[4:], tmp_path / "state")
    table.press("ok")                          # Resume
    assert "moved: asks first" in again_row(table).hint.split(" · ")
    table.press("axis")
    assert table.view.header.title == "Behind cover?"


def test_in_polish_the_hint_shows_the_range_or_that_it_asks(table_at, tmp_path):
    table = table_at(DICE, config=POLISH)
    new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "allies"))
    table.press("ok", "ok", "ok", "ok", "cw", "ok", "axis", "ok")
    table.press("ok")
    allies_pass(table)
    view = table.view
    assert isinstance(view, Menu) and "ponad 100 cm" in view.hint.split(" · ")
    table.close()
    moved = table_at(DICE, tmp_path / "moved", config=POLISH)
    new_battle(moved, ("Tiger I", "axis"), ("Sherman M4A1", "allies"))
    moved.press("ok", "ok", "ok", "ok", "cw", "ok", "axis", "ok")
    move_tiger(moved)
    moved.press("ok")
    allies_pass(moved)
    assert "był ruch: najpierw pytam" in moved.view.hint.split(" · ")


def test_with_a_range_sensor_online_again_after_a_move_starts_on_measuring(table_at, tmp_path,
                                                                            sensors):
    from cobi_companion.device.config import parse_config
    from cobi_companion.device.ports.fake_sensor import FakeSensor, ff_frame

    sensors.append(FakeSensor(tmp_path / "usb-sensor", ff_frame(1500)))
    config = parse_config({"game": {"rules": "tank"}, "sensors": [
        {"name": "table", "port": str(tmp_path / "usb-sensor"), "model": "a02yyuw"}]})
    table = table_at(DICE, config=config)
    table.serve(lambda: table.box.app.sensors.online_names() == ["table"])
    new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "allies"))
    table.press("ok", "ok", "ok", "ok")        # Tiger 1 alone, Fire, Sherman 1, not hull down
    assert table.view.items == ("Measure: table", "no", "yes", "Enter cm")
    table.press("cw", "cw", "ok", "axis", "ok")      # the players say: over 100 cm
    move_tiger(table)
    table.press("ok")
    allies_pass(table)
    table.press("axis", "ok")                  # Again: asked again; not hull down
    assert table.view.header.title == "Over 100 cm?"
    assert table.view.items[table.view.index] == "Measure: table"    # measured anew


def test_the_hint_shows_the_range_first_in_every_language(table_at, tmp_path):
    """A hint too long for its row is shown in turns: the range it will use comes first, so
    the first turn shows it (in Polish "znowu · przód · strzela Oś" alone filled it)."""
    for language, far in (("en", "over 100 cm"), ("pl", "ponad 100 cm"),
                          ("de", "über 100 cm")):
        table = table_at(DICE, tmp_path / language,
                         config=Config(game=Game(language=language, rules="tank")))
        new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "allies"))
        table.press("ok", "ok", "ok", "ok", "cw", "ok", "axis", "ok")   # as fire_over_100
        table.press("ok")
        allies_pass(table)
        assert table.view.hint.split(" · ")[0] == far


def test_a_shot_saved_before_its_turn_was_kept_asks_again_without_saying_moved(table_at):
    """Nothing is known to have moved: the hint says only that it asks again."""
    from dataclasses import replace

    from cobi_companion.device.core.battle_state import LastShot
    from cobi_companion.rules.status import Side

    table = table_at(DICE)
    new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "allies"))
    fire_over_100(table)
    table.press("ok")
    allies_pass(table)
    state = table.box.app.playing
    old = LastShot.from_dict({k: v for k, v in state.last_shot[Side.AXIS].to_dict().items()
                              if k != "turn"})           # as a save from before holds it
    assert old == replace(state.last_shot[Side.AXIS], turn=None)
    state.last_shot[Side.AXIS] = old
    hint = again_row(table).hint.split(" · ")
    assert hint[0] == "asks first" and "moved: asks first" not in hint
    table.press("axis")
    assert table.view.header.title == "Behind cover?"
