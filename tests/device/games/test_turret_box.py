"""The commander in the turret as a spotter, each weapon once in an activation and hand grenades
one a figure, on the box: real app, store and screens, driven by the keys."""
from __future__ import annotations

from cobi_companion.device.config import Config, Paths
from cobi_companion.device.core.views import BigWord, Roll
from cobi_companion.device.sim import drain

from .test_tank_game_box import (
    AXIS_FIRST,
    GRENADE_TABLE,
    GRENADIER,
    lines,
    logged,
    new_battle,
    pieces,
    saved,
)


def hidden_rifle_and_tiger(table) -> None:
    """Axis: Tiger 1; Allies: Rifle 1 (1), which starts hidden at set-up; then the Tiger is
    activated."""
    new_battle(table, ("Tiger I", "axis"), ("Rifleman", "allies", 1))
    table.press("back")
    table.choose("Hidden pieces")
    table.choose("Rifle 1")                  # at set-up: it starts hidden
    table.press("back")
    assert pieces(table)["Rifle 1"] == (1, ["hidden"])
    table.press("ok")                        # Tiger 1 alone: its actions


def spot_rifle(table) -> None:
    table.press("back")                      # the battle's menu
    table.choose("Hidden pieces")
    table.choose("• Rifle 1")


def test_a_tank_with_its_commander_inside_spots_nothing(table_at):
    """Rule 5: a hidden piece is revealed when "an enemy figure (not vehicles) moves within
    30 cm"."""
    table = table_at(AXIS_FIRST)
    hidden_rifle_and_tiger(table)
    spot_rifle(table)
    assert lines(table.view) == "No enemy figure or commander out can spot Rifle 1"
    table.press("ok")
    assert table.view.header.title == "Hidden pieces"
    assert pieces(table)["Rifle 1"] == (1, ["hidden"])


def test_the_commander_out_in_the_turret_spots_a_hidden_figure(table_at):
    """Rule 11: the commander "may sit in the turret and act as a figure for spotting"."""
    table = table_at(AXIS_FIRST)
    hidden_rifle_and_tiger(table)
    table.choose("Commander out")
    spot_rifle(table)
    assert table.view.header.title == "Spotted by"
    assert table.view.items == ("Tiger 1 commander",)
    table.press("ok")
    assert table.view.header.title == "Hidden pieces"
    assert table.view.items == ("Tiger 1 Axis", "Rifle 1 Allies")
    assert pieces(table)["Rifle 1"] == (1, [])
    assert logged(table)[-1] == "Rifle 1 is spotted by Tiger 1's commander"


def grenadiers(table_at, tmp_path, dice):
    """Axis: Gren 1, two figures with a rifle and grenades; Allies: Rifle 1 (2). Gren 1 fires."""
    cards = tmp_path / "cards"
    (cards / "tables").mkdir(parents=True, exist_ok=True)
    (cards / "grenadier.toml").write_text(GRENADIER)
    (cards / "tables" / "soft-targets.toml").write_text(GRENADE_TABLE)
    table = table_at(dice, config=Config(paths=Paths(cards_dir=cards)))
    new_battle(table, ("Grenadier", "axis", 2), ("Rifleman", "allies", 2))
    table.press("ok", "ok")                   # Gren 1 alone; Fire
    return table


THROW = [3, 1, 6, 1, 6]     # To hit 3 (3-6: a hit), then each attack 1 v 6


def throw(table) -> None:
    """A grenade at both figures of Rifle 1, in the open: To hit, then each attack a miss."""
    table.choose("grenade at a group")
    table.press("ok", "ok", "ok")             # Rifle 1: both figures, in the open
    table.choose("Fire!")
    table.tap("axis")                         # the To hit, shown
    drain(table.box)
    table.press("axis", "allies", "axis", "allies")
    assert table.view.word == "0 of 2 down"
    table.press("ok")


def test_each_figure_throws_one_grenade_per_activation(table_at, tmp_path):
    """Hand Grenades: "Figures armed with hand grenades can throw one per activation"; rule
    10: "Fire each weapon individually on the active unit" (the rifle is another weapon)."""
    table = grenadiers(table_at, tmp_path, [*AXIS_FIRST, *THROW * 2])
    assert table.view.header.title == "Shot 1 of 4"    # 2 figures, a rifle and a grenade each
    throw(table)
    assert table.view.header.title == "Shot 2 of 4"
    throw(table)
    assert table.view.header.title == "Shot 3 of 4"
    assert saved(table)["turn"]["activations"][0]["shots"] == [
        {"piece": "Gren 1", "weapon": "grenade"}, {"piece": "Gren 1", "weapon": "grenade"}]
    assert "grenade at a group" not in table.view.items   # a third grenade is not offered
    assert table.view.header.title == "Shot 3 of 4"   # the rifles may still fire


def test_the_grenades_thrown_survive_a_restart(table_at, tmp_path):
    table = grenadiers(table_at, tmp_path, [*AXIS_FIRST, *THROW])
    throw(table)
    table.close()
    table = table_at([], tmp_path / "state",
                     config=Config(paths=Paths(cards_dir=tmp_path / "cards")))
    table.press("ok")                         # Resume: the last throw's outcome again
    assert isinstance(table.view, BigWord | Roll)
    table.press("ok")                         # Gren 1 is still firing
    table.choose("Fire")
    assert table.view.header.title == "Shot 2 of 4"
    assert saved(table)["turn"]["activations"][0]["shots"] == [
        {"piece": "Gren 1", "weapon": "grenade"}]
