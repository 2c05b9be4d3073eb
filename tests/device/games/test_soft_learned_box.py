"""The Soft Targets Table learned at the table, on the box: a shot at a range (or a target's
situation, or a template) the table lacks asks the players for the value their printed table
shows instead of refusing; the box offers to remember it, writes it to its state folder, and
knows it for the next shot and after a restart. Real app, store, screens and inputs on mock
pins, with scripted dice."""
from __future__ import annotations

import pytest
from cobi_companion.cards import learned_file, read_learned
from cobi_companion.device.config import Config, Paths, load_layers, parse_config
from cobi_companion.device.core.battle_log import english, loaded
from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll
from cobi_companion.device.ports.fake_sensor import FakeSensor, ff_frame
from cobi_companion.device.sim import drain
from cobi_companion.rules.errors import RulesError

from ..conftest import read_only, your_table


@pytest.fixture
def table_at(table_at):
    """Every box here plays with "your table" (house rule soft_table=printed), the asking
    one: with our table (the default) no shot of these asks for a value."""
    def make(dice, *args, config=None, **parts):
        return table_at(dice, *args, config=your_table(config), **parts)
    return make

AXIS_FIRST = [2, 4]          # the roll-off: the Allies attack, so the Axis moves first


def new_battle(table, *squads: tuple[str, str, int], start=("ok",)) -> None:
    """New battle (the Tank Game), the squads (card, side, figures), then the roll-off."""
    table.press(*start)
    if table.box.app.screen.level != "tank":   # a box whose Rules setting is the Easy level
        table.press("ccw", "ok")              # the roster's last row: Rules → Tank Game
    for name, side, figures in squads:
        table.to_card(name)
        table.press(side, *["cw"] * (figures - 1), "ok")
    table.press("ok", "axis", "allies", "ok")


def rifles_at_pistols(table, rifles: int = 1) -> None:
    new_battle(table, ("Rifleman", "axis", rifles), ("Soldier with pistol", "allies", 3))
    table.press("ok", "ok")                   # Rifle 1 alone: it starts; Fire


def number(word: str) -> int:
    return int(word.split()[0].replace("−", "-"))


def turn_to(table, word: str) -> None:
    """Turn the knob until the big word reads `word` ("30 cm", "+1", "-2")."""
    while table.view.word != word:
        table.press("cw" if number(table.view.word) < number(word) else "ccw")


def at_pistol_in(table, situation: str, cm: int) -> None:
    """The target (the pistol squad), where it is, and the range dialled: OK."""
    table.press("ok")
    table.choose(situation)
    assert table.view.header.title == "How far?"
    turn_to(table, f"{cm} cm")
    table.press("ok")


def saved(table) -> dict:
    return table.box.store.load_battle()


def logged(table) -> list[str]:
    """The saved battle's log, each line in English (as the journal writes it)."""
    return [english(loaded(line)) for line in saved(table)["log"]]


def learned(table) -> dict:
    return read_learned(learned_file(table.box.store.path.parent)).to_plain()


def is_asking(view, what: str, value: str = "0") -> bool:
    return isinstance(view, BigWord) and (view.header.title, view.word, view.detail) == (
        "Your table", value, what)


def test_a_range_the_table_lacks_is_dialled_remembered_and_known_after_a_restart(
        table_at, tmp_path):
    # The shipped table has the rifle only at 45 cm (the example). Three riflemen fire at
    # 30 cm (4+1 = 5 v 3: down), at 35 cm (1+1 = 2 v 6: no kill), and after a restart at
    # 33 cm (6+1 = 7 v 1: down).
    table = table_at([*AXIS_FIRST, 4, 3, 1, 6])
    rifles_at_pistols(table, rifles=3)
    assert table.view.header.title == "Shot 1 of 3"
    at_pistol_in(table, "in the open", 30)
    assert is_asking(table.view, "rifle at 30 cm")            # asked, not refused
    turn_to(table, "+1")
    table.press("ok")
    assert isinstance(table.view, Menu) and table.view.header.title == "Save +1?"
    assert table.view.items == ("No, this shot only", "Yes, for these distances")
    table.choose("Yes, for these distances")
    assert (table.view.header.title, table.view.word, table.view.detail) == (
        "From how far?", "30 cm", "rifle +1: 30–30 cm")
    turn_to(table, "28 cm")
    table.press("ok")
    assert (table.view.header.title, table.view.word) == ("To how far?", "30 cm")
    turn_to(table, "40 cm")
    assert table.view.detail == "rifle +1: 28–40 cm"
    table.press("ok")
    assert isinstance(table.view, Lines) and "falls: 50–50" in table.view.lines   # d6+1 > d6
    (band,) = learned(table)["weapons"]["rifle"]["ranges"]
    assert (band["from_cm"], band["to_cm"], band["modifier"]) == (28, 40, 1)
    assert band["source"].startswith("learned at the table, 20")
    assert table.box.app.book.table.range_modifier("rifle", 35).value == 1   # known at once
    table.press("axis")
    assert table.view.needed == "4+1 = 5"
    table.press("allies")
    # the fire's trace: the attacker's 4 with the dialled +1 against the defender's 3
    attack = table.steps[-2]                                   # then DOWN! told, big
    assert isinstance(attack, Roll) and (attack.needed, attack.total) == ("5 to 3", "DOWN!")
    table.press("ok")                                          # the outcome read
    assert logged(table)[-2] == \
        "Soft Targets Table: rifle value for 30 cm +1 remembered for 28-40 cm"
    assert logged(table)[-1] == "axis Rifle 1 fires rifle at Pistol 1 (3): 1 of 1 down"

    assert table.view.header.title == "Shot 2 of 3"            # the same shot offered
    table.press("back")                                        # another range: choose again
    at_pistol_in(table, "in the open", 35)                     # the dial starts at 30
    assert "falls: 50–50" in table.view.lines                    # nothing asked
    table.press("axis", "allies")
    assert (table.steps[-2].needed, table.steps[-2].total) == ("2 to 6", "MISS")
    table.press("ok")
    table.close()

    table = table_at([6, 1], tmp_path / "state")              # a restart: the same folder
    table.press("ok")                                          # Resume: the miss again
    assert table.view.word == "MISS"
    table.press("ok")
    table.choose("Fire")
    assert table.view.header.title == "Shot 3 of 3"
    at_pistol_in(table, "in the open", 33)
    assert "falls: 50–50" in table.view.lines                    # still known: nothing asked
    table.press("axis", "allies")
    assert (table.steps[-2].needed, table.steps[-2].total) == ("7 to 1", "DOWN!")


def test_a_long_press_on_the_dial_goes_back_and_a_value_may_be_for_one_shot(table_at):
    # A pistol soldier in hard cover at 30 cm: the rifle's value and hard cover's are both
    # missing. The rifle's +1 for this shot only, hard cover's -2 for good: 6+1-2 = 5 v 3.
    table = table_at([*AXIS_FIRST, 6, 3])
    rifles_at_pistols(table)
    at_pistol_in(table, "in hard cover", 30)
    assert is_asking(table.view, "rifle at 30 cm")
    table.press("cw", "back")                                  # a long press: back, no turn lost
    assert table.view.header.title == "Target is" and saved(table)["shots"] == {}
    table.choose("in hard cover")
    assert table.view.word == "30 cm"                          # the range dialled last
    table.press("ok", "cw", "ok")
    table.choose("No, this shot only")
    assert is_asking(table.view, "target in hard cover")
    turn_to(table, "-2")
    table.press("ok")
    assert table.view.header.title == "Save -2?"
    assert table.view.items == ("No, this shot only", "Yes, always")
    table.choose("Yes, always")
    assert "falls: unlikely" in table.view.lines                    # d6-1 > d6: 10 in 36
    table.press("axis")
    assert table.view.needed == "6-1 = 5"
    table.press("allies")
    assert (table.steps[-2].needed, table.steps[-2].total) == ("5 to 3", "DOWN!")
    entries = learned(table)
    assert entries["weapons"] == {} and list(entries["situations"]) == ["hard_cover"]
    assert entries["situations"]["hard_cover"]["modifier"] == -2
    with pytest.raises(RulesError, match="no rifle value for 30 cm"):
        table.box.app.book.table.range_modifier("rifle", 30)   # that one was for one shot


def test_a_band_that_overlaps_is_refused_with_the_reason_and_dialled_again(table_at):
    table = table_at([*AXIS_FIRST, 4, 3])
    rifles_at_pistols(table)
    at_pistol_in(table, "in the open", 30)
    table.press("cw", "ok")
    table.choose("Yes, for these distances")
    table.press("ok")                                          # from 30
    turn_to(table, "50 cm")                                    # over the example's 45 cm
    table.press("ok")
    assert table.view.header.title == "Not possible"
    assert table.view.lines == ("It overlaps the distances", "45 cm", "Dial the distances again")
    assert not learned_file(table.box.store.path.parent).exists()
    table.press("ok")
    assert (table.view.header.title, table.view.word) == ("From how far?", "30 cm")
    table.press("ok")
    assert (table.view.header.title, table.view.word) == ("To how far?", "50 cm")
    turn_to(table, "44 cm")
    table.press("ok")
    assert "falls: 50–50" in table.view.lines
    (band,) = learned(table)["weapons"]["rifle"]["ranges"]
    assert (band["from_cm"], band["to_cm"]) == (30, 44)


def test_a_hand_edit_of_the_learned_file_is_read_again_on_reload(table_at, tmp_path):
    # The owner writes a value into the box's learned file, then reloads (SIGHUP): the next
    # shot knows it and asks nothing.
    loaded = load_layers(None)
    table = table_at([*AXIS_FIRST, 4, 3], config=loaded.config, loaded=loaded,
                     load=lambda: load_layers(None))
    rifles_at_pistols(table)
    path = learned_file(tmp_path / "state")
    path.parent.mkdir(parents=True)
    path.write_text("[weapons.rifle]\nranges = [{ from_cm = 0, to_cm = 40, modifier = -1 }]\n")
    table.reload()
    assert table.view.header.title == "Settings read again"
    table.press("ok")
    at_pistol_in(table, "in the open", 30)
    assert "falls: unlikely" in table.view.lines                    # d6-1 > d6, nothing asked
    table.press("axis", "allies")
    assert (table.steps[-2].needed, table.steps[-2].total) == ("3 to 3", "MISS")


def test_a_measured_range_is_asked_as_measured_and_its_band_holds_it(table_at, tmp_path,
                                                                     sensors):
    # A range sensor reads 293 mm, +1 cm offset: 30.3 cm. The band starts at 30 and 31 cm.
    sensors.append(FakeSensor(tmp_path / "usb-sensor", ff_frame(293)))
    config = parse_config({"sensors": [{"name": "table", "port": str(tmp_path / "usb-sensor"),
                                        "model": "a02yyuw", "offset_cm": 1.0}]})
    table = table_at([*AXIS_FIRST, 4, 3], config=config)
    table.serve(lambda: table.box.app.sensors.online_names() == ["table"])
    rifles_at_pistols(table)
    table.press("ok")
    table.choose("in the open")
    table.choose("Measure: table")
    table.serve(lambda: isinstance(table.view, BigWord) and table.view.word == "NO")
    table.press("ok")                                          # not over 100 cm
    assert is_asking(table.view, "rifle at 30.3 cm")
    table.press("cw", "ok")
    table.choose("Yes, for these distances")
    assert (table.view.word, table.view.detail) == ("30 cm", "rifle +1: 30–31 cm")
    table.press("cw")
    assert table.view.word == "30 cm"                          # it may not start above 30.3
    table.press("ccw", "ok")
    assert (table.view.word, table.view.detail) == ("31 cm", "rifle +1: 29–31 cm")
    table.press("ccw")
    assert table.view.word == "31 cm"                          # nor end below it
    table.press("ok")
    assert "falls: 50–50" in table.view.lines
    (band,) = learned(table)["weapons"]["rifle"]["ranges"]
    assert (band["from_cm"], band["to_cm"]) == (29, 31)



def test_a_read_only_state_folder_says_so_and_the_shot_goes_on(table_at, tmp_path):
    state = tmp_path / "state"
    with read_only(state):
        table = table_at([*AXIS_FIRST, 4, 3], state_dir=state)
        assert table.view.header.title == "Cannot save!"
        table.press("ok")
        rifles_at_pistols(table)
        at_pistol_in(table, "in the open", 30)
        table.press("cw", "ok")
        table.choose("Yes, for these distances")
        table.press("ok", "ok")                                # the band 30-30 cm
        assert table.view.header.title == "Not saved"
        assert table.view.lines == ("The folder is read-only", "This shot: +1")
        table.press("ok")
        assert "falls: 50–50" in table.view.lines
        table.press("axis", "allies")
        assert (table.steps[-2].needed, table.steps[-2].total) == ("5 to 3", "DOWN!")
        assert not learned_file(state).exists()
        with pytest.raises(RulesError, match="no rifle value for 30 cm"):
            table.box.app.book.table.range_modifier("rifle", 30)


def test_a_broken_learned_file_is_reported_kept_and_the_box_plays_on(table_at, tmp_path,
                                                                     caplog):
    path = learned_file(tmp_path / "state")
    path.parent.mkdir(parents=True)
    path.write_text("[weapons.rifle]\nranges = [{ from_cm = 28, to_cm = 40 }]\n")
    table = table_at([*AXIS_FIRST, 4, 3])
    assert f"card file skipped: {path}: weapons.rifle.ranges.0.modifier: is missing" in \
        caplog.text
    view = table.view                                # the box says so on its panel first
    assert view.header.title == "Card files"
    assert f"{path}: weapons.rifle.ranges.0.modifier: is missing" in " ".join(view.lines)
    table.press("back")                              # and plays on without it
    rifles_at_pistols(table)
    at_pistol_in(table, "in the open", 30)
    table.press("cw", "ok")
    table.choose("Yes, for these distances")
    table.press("ok", "ok")
    assert table.view.lines == ("The file is broken", "This shot: +1")
    table.press("ok", "axis", "allies")
    assert (table.steps[-2].needed, table.steps[-2].total) == ("5 to 3", "DOWN!")
    assert path.read_text() == "[weapons.rifle]\nranges = [{ from_cm = 28, to_cm = 40 }]\n"


GRENADIER = """id = "grenadier"
name = "Grenadier"
label = "Gren"
kind = "figure"
crew = 1
weapons = [{ name = "grenade", template = "grenade" }]
"""


def test_a_template_value_is_asked_at_fire_and_remembered_for_good(table_at, tmp_path):
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "grenadier.toml").write_text(GRENADIER)
    table = table_at([*AXIS_FIRST, 3, 3, 2, 1, 4], config=Config(paths=Paths(cards_dir=cards)))
    new_battle(table, ("Grenadier", "axis", 1), ("Rifleman", "allies", 2))
    table.press("ok", "ok")                   # Gren 1 alone: it starts; Fire: its template
    table.press("ok", "ok", "ok")             # Rifle 1: both figures, in the open
    assert table.view.items == ("• Rifle 1: 2", "Fire!")
    table.choose("Fire!")
    assert is_asking(table.view, "grenade: To hit", "4-6")   # the Infantry Weapon Table's
    table.press("ccw", "ok")                  # 3-6
    table.choose("Yes, always")
    assert is_asking(table.view, "grenade at a group")
    turn_to(table, "+1")
    table.press("ok")
    table.choose("Yes, always")
    assert "Axis: press to fire" in table.view.lines
    table.tap("axis")                         # To hit: 3, a hit
    assert (table.steps[0].caption, table.steps[0].total) == ("To hit", "HIT")
    drain(table.box)
    table.press("axis", "allies")             # 3+1 = 4 v 2: down
    assert (table.view.needed, table.view.total) == ("4 to 2", "DOWN!")
    table.press("axis", "allies")             # 1+1 = 2 v 4: no kill; then the summary
    assert (table.steps[-2].needed, table.steps[-2].total) == ("2 to 4", "MISS")
    assert learned(table)["weapons"]["grenade"]["template"]["modifier"] == 1
    assert learned(table)["weapons"]["grenade"]["to_hit"]["needs"] == 3
    assert logged(table)[-3:-1] == ["Infantry Weapon Table: To hit for grenade 3-6 remembered",
                                    "Soft Targets Table: template modifier for grenade +1 "
                                    "remembered"]
    assert table.box.app.book.table.template_modifier("grenade").value == 1


def test_the_asking_screens_in_polish(table_at, tmp_path):
    table = table_at([*AXIS_FIRST], config=Config.model_validate({
        "game": {"language": "pl"}, "buttons": {"hold_s": 0.2},
        "encoder": {"long_press_s": 0.2}}))
    rifles_at_pistols(table)
    table.press("ok")
    table.choose("w twardej osłonie")
    turn_to(table, "30 cm")
    table.press("ok")
    assert (table.view.header.title, table.view.detail) == ("Twoja tabela", "karabin, 30 cm")
    table.press("ok")
    assert table.view.header.title == "Zapisać 0?"
    assert table.view.items == ("Nie, tylko ten strzał", "Tak, dla tych odległości")
    table.press("ok")
    assert (table.view.header.title, table.view.detail) == ("Twoja tabela",
                                                            "cel w twardej osłonie")
    table.press("ok", "cw")
    assert table.view.items[1] == "Tak, na stałe"
