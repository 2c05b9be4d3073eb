"""The whole Tank Game on the box: squads and guns in the roster, activations, fire at soft
targets with and without templates, the winner and the two-battle match. Real app, store,
screens and inputs on gpiozero's mock pins, with scripted dice; the rules' worked examples are
played through the buttons and read back from the screens and the saved battle."""
from __future__ import annotations

from cobi_companion.device.config import Config, Game, Paths
from cobi_companion.device.core.battle_log import english, loaded
from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll
from cobi_companion.device.sim import drain
from cobi_companion.device.ui.renderer import HEIGHT, TOP, WIDTH, render

from ..conftest import your_table

# Roll-offs: the first die is the Axis', the second the Allies'. The higher attacks, and the
# defender acts first: AXIS_FIRST makes the Allies attack, so the Axis turn comes first.
AXIS_FIRST = [2, 4]
ALLIES_FIRST = [4, 2]


def add(table, name: str, side: str, figures: int | None = None, held: bool = False) -> None:
    table.to_card(name)
    table.press(f"{side}_long" if held else side)
    if figures is not None:                   # a squad: dial its figures, OK
        table.press(*["cw"] * (figures - 1), "ok")


def new_battle(table, *pieces: tuple, start: tuple[str, ...] = ("ok",)) -> None:
    """New battle (the Tank Game, the Rules setting), the pieces, OK; then both roll and the
    defender is told."""
    table.press(*start)
    if table.box.app.screen.level != "tank":   # a box whose Rules setting is the Easy level
        table.press("ccw", "ok")              # the roster's last row: Rules → Tank Game
    for piece in pieces:
        add(table, *piece)
    table.press("ok", "axis", "allies", "ok")


def saved(table) -> dict:
    return table.box.store.load_battle()


def logged(table) -> list[str]:
    """The saved battle's log, each line in English (as the journal writes it)."""
    return [english(loaded(line)) for line in saved(table)["log"]]


def pieces(table) -> dict:
    return {p["label"]: (p["figures"], p["status"]) for p in saved(table)["pieces"]}


def lines(view) -> str:
    return " ".join(view.lines)


# ---- the roster ----


def test_roster_takes_a_squad_of_three_riflemen_and_a_gun(table_at):
    table = table_at(ALLIES_FIRST)
    table.press("ok")                         # New battle: the Tank Game (the Rules setting)
    assert "Rifle" in table.view.items and "Bofors · numbers missing" in table.view.items
    table.to_card("Rifleman")
    table.press("allies")                     # a squad: now the knob dials its figures
    assert isinstance(table.view, BigWord) and table.view.word == "1"
    table.press("cw", "cw", "cw", "ccw")
    assert table.view.word == "3"
    table.press("ok")
    assert isinstance(table.view, Menu)
    add(table, "37 mm Bofors AT gun", "allies")
    add(table, "Tiger I", "axis")
    table.press("ok")
    assert pieces(table) == {"Rifle 1": (3, []), "Bofors 1": (3, []), "Tiger 1": (5, [])}
    assert "Rifle 1 (3) (allies)" in logged(table)[0]


def test_the_easy_roster_offers_only_vehicles(table_at):
    table = table_at([])
    table.press("ok", "ccw", "ok")            # New battle; its last row: Rules → Easy
    assert table.view.items[table.view.index] == "Rules: Easy"
    assert table.box.app.settings.rules == "easy"   # remembered for the next New battle
    assert "Rifle" not in table.view.items and "Bofors" not in table.view.items
    assert table.view.items[:4] == ("7TP", "Sherman", "Pz I · no gun", "Tiger")


def test_a_held_button_puts_the_piece_off_the_map_and_it_is_placed_later(table_at):
    table = table_at(AXIS_FIRST)
    new_battle(table, ("Rifleman", "axis", 1), ("Sherman M4A1", "axis", None, True),
               ("7TP", "axis", None, True), ("Pz 1b", "axis", None, True),
               ("Tiger I", "allies"))
    assert pieces(table)["Sherman 1"] == (5, ["off_map"])
    assert table.view.items == ("Rifle 1 (1)", "Off map: 3", "Pass")
    table.choose("Off map")
    table.choose("Sherman 1")
    table.choose("Off map")
    table.choose("7TP 1")
    table.choose("Off map")
    table.choose("Pz I 1")                   # a third vehicle in one turn: refused
    assert "at most 2 a turn" in lines(table.view)
    table.press("ok")
    assert pieces(table)["Sherman 1"] == (5, []) and pieces(table)["Pz I 1"][1] == ["off_map"]
    # placed pieces are not active this turn: only the rifleman can be picked
    assert table.view.items == ("Rifle 1 (1)", "Off map: 1", "Pass")
    assert "axis places Sherman 1 at its edge" in logged(table)


# ---- activations ----


def allies_squads(table) -> None:
    new_battle(table, ("7TP", "allies"), ("37 mm Bofors AT gun", "allies"),
               ("Rifleman", "allies", 3), ("Rifleman", "allies", 2),
               ("Soldier with pistol", "allies", 1), ("Tiger I", "axis"))


def test_an_activation_holds_five_figures_and_one_model(table_at):
    table = table_at(ALLIES_FIRST)
    allies_squads(table)
    assert table.view.items == ("7TP 1", "Bofors 1", "Rifle 1 (3)", "Rifle 2 (2)",
                                "Pistol 1 (1)", "Pass")
    assert table.view.header.side == "allies"
    table.choose("Bofors 1")
    assert table.view.items[1] == "• Bofors 1" and table.view.hint == "1 of 5 picked"
    table.choose("7TP 1")                    # a second model
    assert isinstance(table.view, Lines) and "only one model" in lines(table.view)
    table.press("ok")
    table.choose("Rifle 1")
    table.choose("Rifle 2")                  # 1 + 3 + 2 = 6: only 1 of its figures fits
    assert isinstance(table.view, BigWord) and table.view.word == "1"
    assert table.view.header.title == "Rifle 2 (2)" and table.view.detail == "how many go? · OK"
    table.press("cw")                        # no more than fit
    assert table.view.word == "1"
    table.press("back")                      # not Rifle 2 after all
    assert table.view.hint == "4 of 5 picked"
    table.choose("Pistol 1")                 # 5: nothing more fits, the activation starts
    assert table.view.items == ("Bofors 1", "Rifle 1 (3)", "Pistol 1 (1)", "All done")
    turn = saved(table)["turn"]
    assert [m["piece"] for m in turn["activations"][0]["pieces"]] == [
        "Bofors 1", "Rifle 1", "Pistol 1"]
    assert logged(table)[-1] == "allies activates: Bofors 1, Rifle 1 (3), Pistol 1 (1)"


def test_moved_pieces_do_not_fire_and_the_extra_activation_has_no_fire(table_at):
    table = table_at(ALLIES_FIRST)
    allies_squads(table)
    table.choose("Rifle 1")
    table.choose("Go!")
    assert table.view.items == ("Fire", "Move", "Hide", "Take cover", "Get on",
                                "All done")     # the 7TP is a vehicle of its side
    table.choose("Move")                     # a figure's card has no move value: just moved
    assert isinstance(table.view, BigWord) and table.view.word == "MOVED"
    table.press("ok")
    assert table.view.hint == "moved"        # it moved: nothing else is offered (no Fire)
    assert table.view.items == ("All done",)
    table.choose("All done")           # nothing fired: an extra activation
    assert table.view.items == ("yes", "no") and "One more go" in table.view.header.title
    table.press("ok")
    assert table.view.header.title == "One more go"
    assert "Rifle 1 (3)" not in table.view.items      # activated once this turn already
    table.choose("Rifle 2")
    table.choose("Go!")                      # the extra activation's pieces do not fire
    assert table.view.items == ("Move", "Hide", "Take cover", "Get on", "All done")
    table.choose("Hide")
    table.press("ok", "ok")                   # cover here: yes; enemy figure ≤ 30 cm: no
    assert table.view.word == "HIDDEN"
    table.press("ok")
    assert pieces(table)["Rifle 2"] == (2, ["hidden"])
    table.choose("All done")           # two activations: the turn passes
    assert table.view.header.side == "axis" and table.view.items == ("Tiger 1", "Pass")
    log = logged(table)
    assert log[-3:] == ["allies extra activation: Rifle 2 (2)", "allies Rifle 2 hides",
                        "allies ends the turn"]
    table.press("ok", "ok")                   # the Tiger, Fire: its main gun's AP reaches
    assert table.view.items == ("7TP 1", "shell at a group")   # no figure, hidden (Rifle 2) or not


# ---- fire at soft targets ----


def mg_at_two_riflemen(table) -> None:
    """The machine-gun example: the Axis MG team's medium MG at two riflemen in soft cover."""
    new_battle(table, ("Medium MG team", "axis", 1), ("Rifleman", "allies", 2))
    assert table.view.items == ("MG 1 (1)", "Pass")
    table.press("ok", "ok")                   # MG 1 (alone: it starts), Fire
    assert isinstance(table.view, Menu) and table.view.items == ("Rifle 1 (2)", "Fire!")
    table.press("ok")                         # Rifle 1: how many under the template?
    assert isinstance(table.view, BigWord) and table.view.word == "2"
    table.press("ok", "cw", "ok")             # both; in soft cover


def test_the_mg_template_example_on_the_box(table_at):
    table = table_at([*AXIS_FIRST, 4, 2, 2, 5, 2, 3])
    mg_at_two_riflemen(table)
    assert table.view.items == ("• Rifle 1: 2 · soft", "Fire!")
    assert table.view.items[table.view.index] == "Fire!"
    table.press("ok")
    assert "may take 1 or 2 of 2" in lines(table.view)
    assert "Axis: press to fire" in lines(table.view)
    table.press("allies")                     # not the defender's turn to roll
    assert isinstance(table.view, Lines)
    table.press("axis")                       # the attacker's die at figure 1
    view = table.view
    assert isinstance(view, Roll) and view.faces == (4,) and view.needed == "4+1 = 5"
    assert view.caption == "Allies: defend!" and view.header.title == "Rifle 1 #1"
    table.press("axis")                       # the wrong button does nothing
    assert table.view == view
    table.press("allies")                     # the defender's die: 5 v 2 is a kill
    view = table.view
    assert view.faces == (4, 2) and view.needed == "5 to 2" and view.total == "DOWN!"
    assert view.caption == "Axis: attack!"
    table.press("axis", "allies")             # figure 2, shot 1: 3 v 5
    assert table.view.total == "MISS" and table.view.header.title == "Rifle 1 #2"
    table.press("axis", "allies")             # shot 2: 3 v 3 is no kill; then the summary
    last = table.steps[-2]
    assert last.needed == "3 to 3" and last.total == "MISS"
    assert last.header.title == "Rifle 1 #2 again" and last.caption == "attack 3 of 3"
    assert isinstance(table.view, BigWord) and table.view.word == "1 of 2 down"
    assert table.view.detail == "Rifle 1: 1 left"
    assert pieces(table)["Rifle 1"] == (1, [])
    assert logged(table)[-1] == "axis MG 1 fires medium MG at Rifle 1 (2): 1 of 2 down"
    table.press("ok")                         # back to the MG: it fired, End activation next
    assert table.view.hint == "fired" and table.view.items[table.view.index] == "All done"


def test_the_he_example_at_the_bofors_on_the_box(table_at):
    table = table_at([*AXIS_FIRST, 6, 3, 4, 3, 4, 3, 1, 3, 1, 5])
    new_battle(table, ("Pz.Kpfw. IV Ausf. D", "axis"), ("37 mm Bofors AT gun", "allies"),
               ("Rifleman", "allies", 1))
    table.press("ok", "ok")                   # Pz IV D, Fire: AP reaches neither the gun nor
    assert table.view.header.title == "shell"    # the figures, so its one way is the HE template
    assert table.view.items == ("Bofors 1", "Rifle 1 (1)", "Fire!")
    table.press("ok")                         # the Bofors: its crew of 3 under the template
    assert table.view.word == "3"
    table.press("ok", "cw", "ok")             # all 3; soft cover
    table.press("ok", "ok")                   # Fire!; over 100 cm: no
    assert "hit: 50–50" in lines(table.view)  # 3-6 to hit, -1: the target is in cover
    table.tap("axis")                         # to hit and reload together
    to_hit, reload = table.steps
    assert (to_hit.caption, to_hit.total) == ("To hit", "HIT")
    assert (reload.caption, reload.total) == ("Reload", "UNLOADED")
    drain(table.box)                          # they play; then the attacks are awaited
    assert "Axis: attack!" in lines(table.view)
    table.press("axis", "allies")             # the gun: 4+2-1 = 5 v 3
    assert table.view.header.title == "Bofors 1" and table.view.total == "DESTROYED"
    table.press("axis", "allies", "axis", "allies", "axis", "allies")
    assert table.steps[-2].needed == "2 to 5" and table.steps[-2].total == "MISS"
    # "+2 is a kill (Mark as destroyed)" is the gun; Gunner 2 and the Dog are "no kill"
    # the summary and the log say the gun is destroyed, not only the figures down
    assert table.view.word == "2 of 4 down"
    assert table.view.detail == "Bofors 1: 2 left, gun lost · unloaded"   # and the reload
    assert (table.view.header.title, table.view.hint) == ("Pz IV D 1: shell", "OK = next")
    assert pieces(table)["Pz IV D 1"] == (None, ["unloaded"])
    assert pieces(table)["Bofors 1"] == (2, ["destroyed"])
    assert logged(table)[-1] == "axis Pz IV D 1 fires HE at Bofors 1: 2 of 4 down, 1 gun destroyed"


def test_the_bofors_crew_fight_on_without_their_gun(table_at):
    """After the HE example the gun is destroyed, and Gunner 2 and the Dog are figures: they
    keep the Allies in the battle (rule 16: "When one side has no pieces left"), are activated
    as figures and may hide or take cover, but have no gun to fire (rule 11): Fire, which could
    only be refused, is not offered."""
    table = table_at([*AXIS_FIRST, 6, 3, 4, 3, 4, 3, 1, 3, 1, 5])
    new_battle(table, ("Pz.Kpfw. IV Ausf. D", "axis"), ("37 mm Bofors AT gun", "allies"))
    table.press("ok", "ok")                   # Pz IV D, Fire: the HE template, its one way
    table.press("ok", "ok", "cw", "ok", "ok", "ok")     # the Bofors: 3, soft cover; Fire!
    table.tap("axis")
    drain(table.box)
    table.press(*["axis", "allies"] * 4)
    assert table.view.word == "2 of 4 down"
    table.press("ok")                         # no winner: the crew are pieces left
    assert "Run over" in table.view.items     # the crew are figures a tank may run over
    table.choose("All done")
    assert table.view.items[0] == "Bofors 1 (2)"        # the Allies' pick: 2 figures
    table.press("ok")                         # picked: nothing else could join, it starts
    assert logged(table)[-1] == "allies activates: Bofors 1 (2)"
    assert "Hide" in table.view.items and "Take cover" in table.view.items
    assert table.view.items == ("Move", "Hide", "Take cover", "All done")
    assert saved(table)["turn"]["activations"][-1]["done"] == []
    table.press("back")
    table.choose("All pieces")
    assert "Bofors 1 Allies: crew 2, gun lost" in table.view.lines


def test_a_destroyed_guns_crew_may_get_on_a_vehicle_of_their_side(table_at):
    """Rule 14: vehicles "may be loaded with infantry ... or have infantry riding on top": a
    destroyed gun's crew fight on as figures, so they are offered Get on beside a friendly 7TP
    like a rifle squad, and ride it."""
    table = table_at([*AXIS_FIRST, 6, 3, 4, 3, 4, 3, 1, 3, 1, 5])
    new_battle(table, ("Pz.Kpfw. IV Ausf. D", "axis"), ("37 mm Bofors AT gun", "allies"),
               ("7TP", "allies"), ("Rifleman", "allies", 1))
    table.press("ok", "ok")                   # Pz IV D, Fire: the HE template, its one way
    table.press("ok", "ok", "cw", "ok", "ok", "ok")     # the Bofors: 3, soft cover; Fire!
    table.tap("axis")
    drain(table.box)
    table.press(*["axis", "allies"] * 4, "ok")
    assert pieces(table)["Bofors 1"] == (2, ["destroyed"])
    table.choose("All done")
    table.choose("Bofors 1")
    table.choose("Rifle 1")
    table.choose("Go!")
    table.choose("Bofors 1")
    assert table.view.items == ("Move", "Hide", "Take cover", "Get on")
    table.choose("Get on")
    if table.view.header.title != "Bofors 1":       # which vehicle, when it is asked
        table.choose("7TP 1")
    bofors = next(p for p in saved(table)["pieces"] if p["label"] == "Bofors 1")
    assert bofors["riding"]["vehicle"] == "7TP 1"


def test_a_squad_wiped_out_loses_the_battle(table_at):
    # The rifle example: 45 cm is +2 (the table's first band: the dial starts there).
    table = table_at([*AXIS_FIRST, 4, 3])
    new_battle(table, ("Rifleman", "axis", 1), ("Soldier with pistol", "allies", 1))
    table.press("ok", "ok")                   # Rifle 1, Fire
    assert table.view.items == ("Pistol 1 (1)",)
    table.press("ok", "ok")                   # Pistol 1, in the open
    assert table.view.word == "45 cm"
    table.press("ok")
    assert "falls: likely" in lines(table.view)  # the die +2 against the defender's die
    table.press("axis")
    assert table.view.caption == "Allies: defend!" and table.view.needed == "4+2 = 6"
    table.press("allies")                     # the attack, then the outcome told
    attack, told = table.steps
    assert attack.needed == "6 to 3" and attack.total == "DOWN!"
    assert (told.header.title, told.word, told.detail) == ("Rifle 1", "DOWN!", "→ Pistol 1 #1")
    table.press("ok")
    assert table.view.word == "AXIS WIN!"
    table.press("ok")
    assert isinstance(table.view, Lines) and table.view.lines == ("Axis: 1", "Allies: 0")
    assert saved(table)["winner"] == "axis"
    table.press("ok")
    assert table.view.items[0] == "New battle" and saved(table) is None


def test_a_squad_fires_once_per_figure_even_through_a_restart(table_at, tmp_path):
    # Rifle 1 (2) at 45 cm: the first rifle 4+2 = 6 v 3 kills, the second 1+2 = 3 v 6 misses.
    table = table_at([*AXIS_FIRST, 4, 3])
    new_battle(table, ("Rifleman", "axis", 2), ("Soldier with pistol", "allies", 2))
    table.press("ok", "ok")                   # Rifle 1 alone: it starts; Fire
    assert table.view.header.title == "Shot 1 of 2"
    table.press("ok", "ok", "ok", "axis", "allies", "ok")
    assert table.view.header.title == "Shot 2 of 2"     # the second figure: the same shot
    assert table.view.lines[0] == "Pistol 1 (1) · 45 cm"
    table.press("back")                                 # a long press: choose again
    assert table.view.items == ("Pistol 1 (1)", "Done firing")
    assert pieces(table)["Pistol 1"] == (1, []) and saved(table)["shots"] == {"Rifle 1": [1, 2]}
    table.close()
    table = table_at([1, 6], tmp_path / "state")
    table.press("ok")                         # Resume: the last shot's outcome again first
    assert isinstance(table.view, BigWord | Roll)
    table.press("ok")                         # the rifle squad has fired once
    assert table.view.hint == "fired"
    table.choose("Fire")
    assert table.view.header.title == "Shot 2 of 2"  # the first shot is not kept: chosen again
    table.press("ok", "ok", "ok", "axis", "allies")
    assert table.steps[-2].needed == "3 to 6" and table.view.word == "MISS"
    table.press("ok")
    assert table.view.hint == "fired" and saved(table)["shots"] == {}
    assert [line for line in logged(table) if "fires" in line] == [
        "axis Rifle 1 fires rifle at Pistol 1 (2): 1 of 1 down",
        "axis Rifle 1 fires rifle at Pistol 1 (1): 0 of 1 down"]


def test_refusals_are_one_line(table_at):
    table = table_at([*AXIS_FIRST, 4, 3], config=your_table())   # a value may be asked
    new_battle(table, ("Rifleman", "axis", 1), ("Tiger I", "allies"),
               ("Soldier with pistol", "allies", 1))
    table.press("ok", "ok")                   # Rifle 1, Fire: a rifle cannot harm the Tiger,
    assert table.view.items == ("Pistol 1 (1)",)       # which is not offered
    table.press("ok", "cw", "cw", "ok")       # the pistol soldier in hard cover
    assert table.view.word == "45 cm"          # the table lacks hard cover: asked, not refused
    table.press("ok")
    assert (table.view.header.title, table.view.detail) == ("Your table", "target in hard cover")


# ---- the end of a battle, the match ----


def test_give_up_and_figures_left(table_at):
    table = table_at(ALLIES_FIRST)
    new_battle(table, ("Tiger I", "axis"), ("37 mm Bofors AT gun", "allies"),
               ("Rifleman", "allies", 4))
    table.press("back")
    table.choose("Give up")
    # the Allies' turn: their row is lit first
    assert table.view.items[table.view.index] == "Allies give up"
    table.choose("Allies give up")
    assert table.view.header.title == "Allies give up?"     # asked first: no is first
    table.choose("yes")
    assert table.view.word == "AXIS WIN!"
    table.press("ok")
    assert table.view.lines == ("Axis: 5", "Allies: 7")   # a vehicle counts its crew
    assert saved(table)["gave_up"] == "allies"


def test_a_match_of_two_battles_through_a_restart(table_at, tmp_path):
    # Battle 1: team 1 plays the Axis; its rifleman kills the pistol soldier.
    table = table_at([*AXIS_FIRST, 4, 3])
    table.press("ccw", "ok")                  # New match (last on the start screen)
    assert table.view.header.title == "Match"
    new_battle(table, ("Rifleman", "axis", 1), ("Soldier with pistol", "allies", 1), start=())
    table.press("ok", "ok", "ok", "ok", "ok", "axis", "allies", "ok")
    assert table.view.word == "AXIS WIN!"
    table.press("ok")
    assert table.view.lines == ("Axis: 1", "Allies: 0")
    assert saved(table)["match"]["record"]["battles"][0]["winner"] == "axis"
    table.close()
    # A pulled plug: the box offers the match again.
    table = table_at(ALLIES_FIRST, tmp_path / "state")
    assert table.view.items[0] == "Resume match"
    table.press("ok")                         # the last shot's outcome again first
    assert isinstance(table.view, BigWord | Roll)
    table.press("ok")
    assert table.view.lines == ("Battle 1 of 2", "team 1 won, 1 left",
                                "Now the sides swap", "team 1 plays Allies")
    table.press("ok")                         # battle 2 with the same roster
    assert pieces(table) == {"Rifle 1": (1, []), "Pistol 1": (1, [])}
    table.press("axis", "allies", "ok")
    assert table.view.header.side == "allies"
    table.close()
    # And again in the middle of battle 2.
    table = table_at([], tmp_path / "state")
    table.press("ok")                         # Resume battle: the attacker's roll again
    assert isinstance(table.view, Roll) and table.view.total
    table.press("ok")
    assert table.view.items == ("Pistol 1 (1)", "Pass")
    table.press("back")
    table.choose("Give up")
    table.choose("Axis gives up")            # team 2 gives up: team 1 wins with 1 figure
    table.choose("yes")
    table.press("ok", "ok")
    assert isinstance(table.view, BigWord) and table.view.word == "TEAM 1 WINS!"
    assert table.view.detail == "2 : 0"
    table.press("ok")
    assert table.view.lines[:2] == ("team 1: 2", "team 2: 0")
    table.press("ok")
    assert saved(table) is None and table.view.items[0] == "New battle"


# ---- the status board and old saved battles ----


def test_status_board_shows_figures_crew_and_marks(table_at):
    table = table_at(ALLIES_FIRST)
    new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "axis", None, True),
               ("37 mm Bofors AT gun", "allies"), ("Rifleman", "allies", 4))
    table.press("back")
    table.choose("Hidden pieces")            # at set-up the rifle squad starts hidden
    table.choose("Rifle 1")
    table.press("back", "back")
    table.choose("All pieces")
    assert table.view.lines == ("Tiger 1 Axis: ready", "Sherman 1 Axis: off map",
                                "Bofors 1 Allies: crew 3", "Rifle 1 Allies: 4 figures, hidden")


def test_an_old_saved_tank_battle_resumes(table_at, tmp_path):
    from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore

    store = SqliteStore(tmp_path / "state" / DATABASE_NAME)
    store.save_battle({"id": "old1", "level": "tank", "round": 2, "first": "allies",
                       "active": "axis", "acted": ["allies"], "defender": "allies",
                       "winner": None, "log": ["allies passes"],
                       "vehicles": [{"label": "Tiger 1", "side": "axis", "set": 2477,
                                     "status": []},
                                    {"label": "Sherman 1", "side": "allies", "set": 2464,
                                     "status": ["weakened"]}]}, [])
    store.close()
    table = table_at([])
    table.press("ok")                         # Resume battle
    assert table.view.items == ("Tiger 1", "Pass") and table.view.header.side == "axis"
    table.press("cw", "ok")                   # Pass, once the Axis say yes
    assert table.view.header.title == "Pass this turn?" and table.view.index == 0
    table.choose("yes")
    assert saved(table)["turn"]["number"] == 5 and saved(table)["active"] == "allies"


# ---- take cover, overrun and the commander ----


def test_a_figure_takes_cover_once_and_it_is_recorded(table_at):
    table = table_at(ALLIES_FIRST)
    new_battle(table, ("Rifleman", "allies", 2), ("Tiger I", "axis"))
    table.choose("Rifle 1")                   # the only Allied piece: it starts at once
    table.choose("Take cover")
    assert isinstance(table.view, BigWord) and table.view.word == "IN COVER"
    assert table.view.detail == "counts when fired at"
    table.press("ok")
    assert table.view.hint == "took cover"
    assert logged(table)[-1] == "allies Rifle 1 takes cover"
    assert saved(table)["turn"]["activations"][0]["done"] == [
        {"piece": "Rifle 1", "action": "take_cover", "note": "Rifle 1 takes cover",
         "vehicle": ""}]
    assert "Take cover" not in table.view.items       # once: not offered again


def overrun_field(table) -> None:
    """The Tiger alone on the Axis side; the Allies' squads of 3 and 2 and the Bofors gun."""
    new_battle(table, ("Tiger I", "axis"), ("Rifleman", "allies", 3),
               ("37 mm Bofors AT gun", "allies"), ("Rifleman", "allies", 2))
    table.press("ok")                         # the Tiger alone: its actions at once
    assert table.view.items == ("Fire", "Move", "Run over", "All done", "Commander out")
    table.choose("Run over")
    assert table.view.items == ("Rifle 1 (3)", "Bofors 1", "Rifle 2 (2)", "Run over!")
    table.press("ok")                         # Rifle 1: how many under the tank
    assert isinstance(table.view, BigWord) and table.view.word == "3"
    table.press("ok")
    assert table.view.items == ("in the open", "in soft cover", "in a trench", "in hard cover")
    table.press("ok")
    table.choose("Bofors 1")
    assert table.view.items == ("in the open", "in soft cover", "in hard cover")
    table.choose("in soft cover")


def test_a_single_figure_under_the_tank_is_listed_as_1(table_at):
    """A squad of one is not asked how many: the pick says its 1 figure (not "None")."""
    table = table_at([*AXIS_FIRST])
    new_battle(table, ("Tiger I", "axis"), ("Rifleman", "allies", 1))
    table.press("ok")
    table.choose("Run over")
    table.choose("Rifle 1")
    table.choose("in soft cover")
    assert table.view.items[0] == "• Rifle 1: 1 · soft"


def test_a_tank_runs_over_a_squad_and_a_gun(table_at):
    """Rule 9: the gun "automatically eliminated", its crew roll as figures (5-6)."""
    table = table_at([*AXIS_FIRST, 5, 2, 6, 6, 5, 5])
    overrun_field(table)
    table.choose("Rifle 2")
    table.press("ok")                         # both figures
    table.choose("in hard cover")
    assert "hard cover blocks the tank's move" in lines(table.view)
    table.press("ok")
    assert table.view.items == ("• Rifle 1: 3 · open", "• Bofors 1: soft", "Rifle 2 (2)",
                                "Run over!")
    table.choose("Run over!")
    assert table.view.lines == ("Moves as in rough ground", "Allies: roll!")
    table.press("axis")                       # the figures' player rolls, not the tank's
    assert table.view.lines[-1] == "Allies: roll!"
    table.press("allies")
    view = table.view
    assert isinstance(view, Roll) and view.faces == (5,) and view.total == "DOWN!"
    assert view.header.title == "Rifle 1 #1" and view.caption == "Allies: roll!"
    assert view.needed == "5-6 down"
    table.press("allies")
    assert table.view.faces == (2,) and table.view.total == "SAFE"
    table.press("allies")                     # the squad's last figure
    assert table.view.faces == (6,) and table.view.header.title == "Rifle 1 #3"
    table.press("allies", "allies")           # the gun's crew: 6, 5
    assert table.view.header.title == "Bofors 1 #2"
    table.press("allies")                     # the last crew figure; then the summary
    last = table.steps[-2]
    assert last.faces == (5,) and last.header.title == "Bofors 1 #3"
    assert last.caption == "5-6 down"
    assert table.view.word == "6 of 7 down"
    assert table.view.detail == "Rifle 1: 1 left · Bofors 1: out"
    assert pieces(table)["Rifle 1"] == (1, []) and pieces(table)["Bofors 1"] == (0, ["destroyed"])
    assert logged(table)[-1] == ("axis Tiger 1 runs over Rifle 1 (3), Bofors 1 (3): "
                                       "rolled 6, eliminated 5, 1 gun eliminated")
    table.press("ok")
    assert table.view.hint == "moved"         # it moved: no fire, and one move an activation
    assert table.view.items == ("All done", "Commander out")


def test_a_gun_alone_under_the_tank_loses_the_gun_and_its_crew_roll(table_at):
    """Rule 9: the gun is eliminated without a roll, each crew figure rolls a die."""
    table = table_at([*AXIS_FIRST, 1, 2, 6])
    overrun_field(table)
    table.choose("• Rifle 1")                 # taken out again
    assert table.view.items[0] == "Rifle 1 (3)"
    table.choose("Run over!")
    assert table.view.lines == ("Moves as in rough ground", "Allies: roll!")
    table.press("allies", "allies", "allies")
    assert table.view.word == "2 of 4 down"
    assert table.view.detail == "Bofors 1: 2 left, gun lost"     # the gun said, not only figures
    assert table.view.header.title == "Tiger 1 runs over"
    table.press("ok")
    assert pieces(table)["Bofors 1"] == (2, ["destroyed"])


def test_real_dice_run_over_figures_dialled_one_by_one(table_at):
    table = table_at(AXIS_FIRST)
    overrun_field(table)
    table.box.app.settings.dice = {"axis": "dial", "allies": "dial"}   # as Settings sets it
    table.choose("• Bofors 1")                # taken out: only the squad of 3 is under it
    table.choose("Run over!")
    table.press("allies")                     # figure 1: the figures' player dials a 5
    assert table.view.header.title == "Dial your die"
    table.press("cw", "cw", "cw", "cw", "ok")
    assert table.view.faces == (5,) and table.view.total == "DOWN!"
    table.press("allies", "ok")               # figure 2: a 1
    assert table.view.faces == (1,) and table.view.total == "SAFE"
    table.press("allies", "cw", "cw", "cw", "cw", "cw", "ok")   # figure 3: a 6
    assert table.view.word == "2 of 3 down"
    table.press("ok")
    assert pieces(table)["Rifle 1"] == (1, [])
    rolls = table.box.store.face_counts(table.box.app.state.id)
    assert (rolls[5], rolls[1], rolls[6]) == (1, 1, 1)


def commander_out(table) -> None:
    """The Tiger's commander sits out in the turret; the activation ends without an extra."""
    new_battle(table, ("Tiger I", "axis"), ("Rifleman", "allies", 1))
    table.press("ok")
    table.choose("Commander out")
    assert table.view.items[-1] == "Commander in"
    assert pieces(table)["Tiger 1"] == (5, ["commander_out"])
    assert logged(table)[-1] == "axis Tiger 1: commander out in the turret"
    table.choose("All done")           # nothing left for an extra activation


def test_a_commander_out_in_the_turret_is_shot_and_the_tank_leaves_and_comes_back(table_at):
    table = table_at([*AXIS_FIRST, 4, 2])
    commander_out(table)
    assert table.view.header.side == "allies"
    table.press("ok", "ok")                   # Rifle 1 alone; Fire
    assert table.view.items == ("Tiger 1",)
    table.press("ok")                         # at its commander: where he is, no facing
    assert table.view.items[0] == "in the open"
    table.press("ok", "ok")                   # in the open; 45 cm
    table.press("allies", "axis")
    view = table.steps[-2]
    assert view.header.title == "Tiger 1 commander" and view.needed == "6 to 2"
    assert view.total == "DOWN!"
    assert table.view.detail == "→ Tiger 1 commander"
    table.press("ok")
    assert pieces(table)["Tiger 1"] == (5, ["commander_killed"])
    assert logged(table)[-1] == "allies Rifle 1 fires rifle at Tiger 1: 1 of 1 down"
    table.choose("All done")
    assert table.view.header.side == "axis"
    table.press("ok")                         # the Tiger may only leave the map
    assert table.view.items == ("Leave the map", "All done")
    table.choose("Leave the map")
    assert table.view.word == "OFF MAP"
    assert table.view.detail == "back after your next turn"
    table.press("ok")
    assert pieces(table)["Tiger 1"] == (5, ["commander_killed", "off_map"])
    assert logged(table)[-1] == ("axis Tiger 1 leaves the map for a new commander: back "
                                       "from the end of turn 5")
    table.choose("All done")
    table.choose("Pass")                      # the Allies' turn 4
    table.choose("yes")
    assert table.view.items == ("Off map: 1", "Pass")
    table.choose("Off map")
    table.choose("Tiger 1")                   # turn 5: back with a new commander
    assert pieces(table)["Tiger 1"] == (5, [])
    assert table.view.items == ("Pass",)


GRENADIER = """id = "grenadier"
name = "Grenadier"
label = "Gren"
kind = "figure"
crew = 1
weapons = [{ name = "rifle" }, { name = "grenade", template = "grenade" }]
"""
GRENADE_TABLE = """[weapons.grenade]
template = { modifier = 1, source = "the owner's printed table" }
"""


def grenade_table(table_at, tmp_path, dice, with_value: bool):
    cards = tmp_path / "cards"
    (cards / "tables").mkdir(parents=True, exist_ok=True)
    (cards / "grenadier.toml").write_text(GRENADIER)
    if with_value:
        (cards / "tables" / "soft-targets.toml").write_text(GRENADE_TABLE)
    config = Config(paths=Paths(cards_dir=cards))
    table = table_at(dice, config=config if with_value else your_table(config))
    new_battle(table, ("Grenadier", "axis", 1), ("Rifleman", "allies", 2))
    table.press("ok", "ok")                   # Gren 1 alone; Fire
    assert table.view.items == ("Rifle 1 (2)", "grenade at a group")
    table.choose("grenade at a group")
    table.press("ok", "ok", "ok")             # Rifle 1: both figures, in the open
    return table


def test_a_grenade_without_its_value_in_the_table_asks_for_it(table_at, tmp_path):
    """With your table the grenade's To hit (the Infantry Weapon Table's, not printed) is
    asked first, as the faces that hit, then its template's value."""
    table = grenade_table(table_at, tmp_path, AXIS_FIRST, with_value=False)
    table.choose("Fire!")
    assert (table.view.header.title, table.view.word, table.view.detail) == (
        "Your table", "4-6", "grenade: To hit")
    table.press("cw", "cw", "cw")             # it stops at 6
    assert table.view.word == "6"
    table.press("ccw", "ccw", "ok")           # 4-6
    assert table.view.header.title == "Save 4-6?"
    table.choose("No, this shot only")
    assert (table.view.header.title, table.view.word, table.view.detail) == (
        "Your table", "0", "grenade at a group")


def test_a_grenade_rolls_its_to_hit_then_attacks_each_figure_under_it(table_at, tmp_path):
    """Seed 000: hand grenades "use the 'To hit' die roll on the 'Infantry Weapon Table'": our
    table's 3-6. A 5 hits; then each figure is attacked."""
    table = grenade_table(table_at, tmp_path, [*AXIS_FIRST, 5, 3, 2, 1, 4], with_value=True)
    table.choose("Fire!")
    assert "hit: likely" in lines(table.view)              # 4 in 6
    assert "Axis: press to fire" in lines(table.view)
    table.tap("axis")                         # the To hit, shown before the attacks
    (to_hit,) = table.steps
    assert (to_hit.caption, to_hit.faces, to_hit.total) == ("To hit", (5,), "HIT")
    drain(table.box)
    assert "Axis: attack!" in lines(table.view)
    table.press("axis", "allies")             # 3+1 = 4 v 2: down
    assert table.view.needed == "4 to 2" and table.view.total == "DOWN!"
    table.press("axis", "allies")             # 1+1 = 2 v 4: no kill; then the summary
    assert table.steps[-2].needed == "2 to 4" and table.steps[-2].total == "MISS"
    assert table.view.word == "1 of 2 down"
    assert logged(table)[-1] == "axis Gren 1 fires grenade at Rifle 1 (2): 1 of 2 down"


def test_a_grenade_that_misses_its_to_hit_attacks_nobody(table_at, tmp_path):
    table = grenade_table(table_at, tmp_path, [*AXIS_FIRST, 2], with_value=True)
    table.choose("Fire!")
    table.tap("axis")
    assert [(v.caption, v.total) for v in table.steps if isinstance(v, Roll)] == [
        ("To hit", "MISS")]
    drain(table.box)
    assert table.view.word == "MISS"
    assert logged(table)[-1].startswith("axis Gren 1 fires grenade at Rifle 1 (2)")
    assert pieces(table)["Rifle 1"] == (2, [])


# ---- the new screens, pixel for pixel, in English and Polish ----


def big_text_height(image) -> int:
    box = image.crop((0, TOP, WIDTH, HEIGHT - 11)).getbbox()
    assert box is not None
    return box[3] - box[1]


def test_snapshot_activation_pick(table_at, snapshot):
    table = table_at(ALLIES_FIRST)
    allies_squads(table)
    table.choose("Bofors 1")
    table.choose("Rifle 1")
    snapshot("tank_activation_pick_en", render(table.view))


def test_snapshot_template_pick(table_at, snapshot):
    table = table_at(AXIS_FIRST)
    mg_at_two_riflemen(table)
    snapshot("tank_template_pick_en", render(table.view))


def test_snapshot_attack_roll_and_summary(table_at, snapshot):
    table = table_at([*AXIS_FIRST, 4, 2, 2, 5, 2, 3])
    mg_at_two_riflemen(table)
    table.press("ok", "axis", "allies")
    snapshot("tank_attack_roll_en", render(table.view))
    table.press("axis", "allies", "axis", "allies")
    image = render(table.view)
    assert big_text_height(image) >= 16
    snapshot("tank_summary_en", image)


def test_snapshot_summary_in_polish(table_at, snapshot):
    table = table_at([*AXIS_FIRST, 4, 2, 2, 5, 2, 3],
                     config=Config(game=Game(language="pl", rules="tank")))
    table.press("ok")
    for name, side, figures in (("Medium MG team", "axis", 1), ("Rifleman", "allies", 2)):
        add(table, name, side, figures)
    table.press("ok", "axis", "allies", "ok")
    table.press("ok", "ok", "ok", "ok", "cw", "ok", "ok")   # KM 1, Ogień, Strzelec 1, 2, lekka
    assert table.view.lines[-1] == "Oś: przycisk = ogień"
    table.press("axis", "allies")
    assert table.view.caption == "Oś: atak!" and table.view.total == "PADŁ!"
    table.press("axis", "allies", "axis", "allies")
    assert table.view.word == "padła 1 z 2" and table.view.detail == "Strzelec 1: została 1 figurka"
    image = render(table.view)
    assert big_text_height(image) >= 16
    snapshot("tank_summary_pl", image)


def test_snapshot_match_result(table_at, snapshot):
    table = table_at([*AXIS_FIRST, 4, 3, *AXIS_FIRST])
    table.press("ccw", "ok")
    new_battle(table, ("Rifleman", "axis", 1), ("Soldier with pistol", "allies", 1), start=())
    table.press("ok", "ok", "ok", "ok", "ok", "axis", "allies", "ok", "ok")
    table.press("ok", "ok", "ok")             # AXIS WIN!, figures left, the sides swap
    table.press("axis", "allies", "ok", "ok")
    table.press("back")
    table.choose("Give up")
    # the Axis' turn: their row is lit first
    assert table.view.items[table.view.index] == "Axis gives up"
    table.choose("Allies give up")          # team 1 plays the Allies now: team 2 wins
    table.choose("yes")
    table.press("ok", "ok")
    assert table.view.word == "DRAW" and table.view.detail == "1 : 1"
    image = render(table.view)
    assert big_text_height(image) >= 16
    snapshot("tank_match_result_en", image)


def test_snapshot_overrun_pick_roll_and_summary(table_at, snapshot):
    table = table_at([*AXIS_FIRST, 5, 2, 6, 1, 2, 3])
    overrun_field(table)
    snapshot("tank_overrun_pick_en", render(table.view))
    table.choose("Run over!")
    table.press("allies")
    snapshot("tank_overrun_roll_en", render(table.view))
    table.press("allies", "allies", "allies", "allies", "allies")
    image = render(table.view)
    assert big_text_height(image) >= 16
    snapshot("tank_overrun_summary_en", image)


def test_snapshot_commander_menu_and_off_map_in_polish(table_at, snapshot):
    table = table_at([*AXIS_FIRST, 4, 2], config=Config(game=Game(language="pl", rules="tank")))
    table.press("ok")
    for name, side, figures in (("Tiger I", "axis", None), ("Rifleman", "allies", 1)):
        add(table, name, side, figures)
    table.press("ok", "axis", "allies", "ok", "ok")
    assert table.view.items[-1] == "Dowódca na wieżę"
    snapshot("tank_commander_menu_pl", render(table.view))
    table.choose("Dowódca na wieżę")
    table.choose("Gotowe")
    table.press("ok", "ok", "ok", "ok", "ok", "allies", "axis", "ok")
    assert pieces(table)["Tygrys 1"] == (5, ["commander_killed"])
    table.choose("Gotowe")
    table.press("ok")
    table.choose("Zjedź z mapy")
    assert table.view.word == "ZJECHAŁ"
    snapshot("tank_off_map_pl", render(table.view))


def test_the_polish_status_board_is_of_units_not_only_vehicles(table_at):
    """The board lists squads, guns, crews and riders beside the vehicles: in Polish it is
    "Wszystkie jednostki" (units), as "Ukryte jednostki" is, not "pojazdy" (vehicles)."""
    table = table_at(AXIS_FIRST, config=Config(game=Game(language="pl", rules="tank")))
    table.press("ok")
    for name, side, figures in (("Tiger I", "axis", None), ("Rifleman", "allies", 2)):
        add(table, name, side, figures)
    table.press("ok", "axis", "allies", "ok", "back")
    table.choose("Wszystkie jednostki")
    assert table.view.header.title == "Wszystkie jednostki"
    assert "Strzelec 1 Alianci: 2 figurki" in table.view.lines
