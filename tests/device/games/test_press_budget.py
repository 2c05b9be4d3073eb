"""How many presses the box asks of a family at the table, counted on the real box (mock pins,
the real app and store) so that they cannot creep back up.

A press is a knob turn, a knob press (OK or a long press) or a dice-button press that is not a
roll: putting a model on a side in the roster is a press. The rolls the rules ask for (both
initiative dice, the firer's shot, the target's armour) are the game itself and are counted
apart. The budgets are the ones the box is built to:

- a new Easy battle, two tanks a side, from power-on to the outcome of its first shot: ≤ 12
  presses (≤ 8 with the armies of the last battle);
- the same piece firing at the same target again, its side's next action: ≤ 2 knob actions
  besides its rolls;
- a Tank Game squad of three firing at one target, figure by figure: ≤ 8 knob actions besides
  its rolls (the second and third figures fire as the first did, one OK each for its outcome).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cobi_companion.device.config import Config
from cobi_companion.device.core.views import BigWord, Lines, Menu

from ..conftest import your_table
from .test_tank_game_box import new_battle

# A new box, as it comes: its settings are the defaults (New battle starts at the Easy level).
# Only the fingers' holds are shorter, as everywhere in these tests.
NEW_BOX = Config.model_validate({"buttons": {"hold_s": 0.2}, "encoder": {"long_press_s": 0.2}})

ROLL = "roll"       # a press the rules ask for, counted apart


@dataclass
class Count:
    """A finger on the table that counts what it does."""

    table: object
    presses: list[str] = field(default_factory=list)
    rolls: list[str] = field(default_factory=list)

    def press(self, *words: str) -> None:
        for word in words:
            self.presses.append(word)
            self.table.press(word)

    def roll(self, *words: str) -> None:
        for word in words:
            self.rolls.append(word)
            self.table.press(word)

    @property
    def knob(self) -> int:
        return sum(word in ("cw", "ccw", "ok", "back") for word in self.presses)

    def reset(self) -> None:
        self.presses.clear()
        self.rolls.clear()


def two_tigers_against_two_shermans(count: Count) -> None:
    """Power-on to the first outcome: New battle (a new box starts at the Easy level), two
    Shermans for the Allies and two Tigers for the Axis, start; the initiative; the Axis
    Tiger 1 fires at Sherman 1's front."""
    table = count.table
    count.press("ok")                                  # New battle
    assert table.view.header.title == "Armies"
    count.press("cw", "allies", "allies")              # Sherman, twice
    count.press("cw", "cw", "axis", "axis")            # Tiger, twice
    count.press("ok")                                  # start
    count.roll("axis", "allies")                       # the initiative goes on by itself
    assert isinstance(table.view, Menu) and table.view.items == ("Tiger 1", "Tiger 2", "Pass")
    count.press("ok")                                  # Tiger 1 (the cursor is on it)
    assert table.view.items[table.view.index] == "Fire → Sherman 1"
    count.press("ok")                                  # the shot, with the front on the knob
    count.roll("axis")                                 # to hit, and the Tiger's D6+
    count.roll("allies")                               # the Sherman's armour D6+


def test_a_new_easy_battle_reaches_its_first_outcome_in_twelve_presses(table_at):
    # Initiative 5 : 2; to hit 5 (3-6), damage 16 + 3 against front 8 + 1: 10, destroyed.
    table = table_at([5, 2, 5, 3, 1], config=NEW_BOX)
    count = Count(table)
    two_tigers_against_two_shermans(count)
    assert isinstance(table.view, BigWord) and table.view.word == "DESTROYED"
    assert len(count.presses) <= 12, count.presses
    assert len(count.presses) == 11 and len(count.rolls) == 4        # 24 + 2 before


def test_the_same_armies_again_reach_the_first_outcome_in_eight_presses(table_at, tmp_path):
    first = table_at([5, 2, 5, 3, 1], config=NEW_BOX)
    two_tigers_against_two_shermans(Count(first))
    first.press("back")
    first.choose("End battle")
    first.choose("yes")                                # the battle ends: nothing to resume
    first.close()
    # Another day: the box was switched off; New battle offers the same armies first.
    table = table_at([2, 5, 1], state_dir=tmp_path / "state", config=NEW_BOX)
    count = Count(table)
    count.press("ok")                                  # New battle
    assert table.view.items[table.view.index] == "Same armies again"
    assert table.view.hint == "Axis 2 · Allies 2"
    count.press("ok")
    count.roll("axis", "allies")                       # the Allies have the initiative
    assert table.view.items == ("Sherman 1", "Sherman 2", "Pass")
    count.press("ok", "ok")                            # Sherman 1, Fire → Tiger 1
    count.roll("allies")                               # to hit 1: MISS
    assert isinstance(table.view, BigWord) and table.view.word == "MISS"
    assert table.view.header.title == "Sherman 1"      # who missed, at whom, OK = next
    assert (table.view.detail, table.view.hint) == ("→ Tiger 1", "OK = next")
    assert len(table.steps) == 2                       # the die, then the miss told
    assert len(count.presses) <= 8, count.presses
    assert len(count.presses) == 4


def test_the_same_tank_fires_at_the_same_target_again_in_two_knob_actions(table_at):
    # Easy. Round 1: Tiger 1 misses Sherman 1 (to hit 1), Sherman 1 misses back. Round 2: the
    # Axis fire the same shot again with the Tiger's button: 5 hits, D6+ 3; armour 6, 2.
    table = table_at([5, 2, 1, 1, 5, 2, 5, 3, 6, 2], config=NEW_BOX)
    table.press("ok", "cw", "allies", "allies", "cw", "cw", "axis", "axis", "ok")
    table.press("axis", "allies", "ok", "ok", "axis")  # Tiger 1 → Sherman 1: MISS
    table.press("ok")                                  # the outcome read: the Allies' turn
    table.press("ok", "ok", "allies", "ok")            # Sherman 1 → Tiger 1: MISS
    table.press("axis", "allies")                      # round 2: the Axis have the initiative
    count = Count(table)
    assert table.view.items[table.view.index] == "Tiger 1 → Sherman 1"
    assert table.view.hint == "again · front · Axis fires"
    count.roll("axis")                                 # fires at once: to hit 5, D6+ 3
    assert isinstance(table.view, Lines) and "Allies" in table.view.lines[-1]
    count.roll("allies")                               # armour 8 + 6, 2
    assert isinstance(table.view, BigWord) and table.view.detail == "→ Sherman 1 · 19 − 14 = 5"
    count.press("ok")                                  # the outcome read: the Allies' turn
    assert table.view.header.side == "allies"
    assert count.knob <= 2 and count.rolls == ["axis", "allies"]
    assert count.knob == 1                             # 7 + 2 before


def test_the_same_tank_fires_again_in_the_tank_game_in_two_knob_actions(table_at):
    # The Tank Game: the Allies defend and act first. Sherman 1 misses the Tiger; the Tiger
    # misses back; Sherman 1's next turn fires the same shot again.
    table = table_at([4, 2, 1, 5, 1, 5, 2, 5])
    table.press("ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok")
    table.press("axis", "allies", "ok")                # the Allies defend: they move first
    table.press("ok", "ok", "ok", "ok", "ok", "allies", "ok", "ok")   # Sherman: miss; end
    table.press("ok", "ok", "ok", "ok", "ok", "axis", "ok", "ok")     # Tiger: miss; end
    count = Count(table)
    assert table.view.items[table.view.index] == "Sherman 1 → Tiger 1"
    count.roll("allies")                               # activated alone, fired: to hit 2
    count.press("ok")                                  # the outcome (its reload) read
    assert table.view.items[table.view.index] == "All done"
    count.press("ok")
    assert table.view.header.side == "axis"
    assert count.knob <= 2 and count.rolls == ["allies"]


# The Tank Game: the Allies attack, so the Axis turn comes first. Three riflemen fire at three
# pistol soldiers in the open, at the range the dial opens on (45 cm): 4 v 3 down, 1 v 6 no
# kill, 6 v 1 down (our table: the rifle's +2 at 45 cm).
SQUAD_DICE = [2, 4, 4, 3, 1, 6, 6, 1]


def squad_fires(count: Count, asked: bool = False) -> None:
    """Rifle 1 (3 figures) is active, its menu open: Fire, then the three figures' shots at
    Pistol 1, each outcome read with OK. `asked`: at 44 cm (a turn of the dial), which your
    table asks the rifle's value for first, dialled at 0 for this shot."""
    table = count.table
    assert table.view.items[table.view.index] == "Fire"
    count.press("ok")
    assert table.view.header.title == "Shot 1 of 3"
    count.press("ok")                                  # Pistol 1 (3)
    count.press("ok")                                  # in the open
    assert table.view.word == "45 cm"                  # the range the dial opens on
    if asked:
        count.press("ccw")
    count.press("ok")
    if asked:
        assert (table.view.header.title, table.view.detail) == ("Your table", "rifle at 44 cm")
        count.press("ok")                              # its value: 0
        assert table.view.items[table.view.index] == "No, this shot only"
        count.press("ok")
    for shot in (1, 2, 3):
        assert isinstance(table.view, Lines) and "Axis: press to fire" in table.view.lines
        if shot > 1:                                   # as the first figure fired: no question
            assert table.view.header.title == f"Shot {shot} of 3"
            assert table.view.lines[0].endswith(" · 44 cm" if asked else " · 45 cm")
            assert table.view.hint == "hold = other target · OK = more"
        count.roll("axis", "allies")
        count.press("ok")                              # the outcome read


def test_a_squad_of_three_fires_at_one_target_in_at_most_eight_knob_actions(table_at):
    table = table_at(SQUAD_DICE)
    new_battle(table, ("Rifleman", "axis", 3), ("Soldier with pistol", "allies", 3))
    table.press("ok")                                  # Rifle 1 alone: its menu
    count = Count(table)
    squad_fires(count)
    assert table.view.hint == "fired"                  # back on the squad's own menu
    assert count.knob <= 8, count.presses
    assert count.knob == 7 and len(count.rolls) == 6   # 18 before, with "your table"
    assert table.box.store.load_battle()["pieces"][1]["figures"] == 1


def test_with_your_table_the_squad_is_asked_its_value_once(table_at):
    table = table_at(SQUAD_DICE, config=your_table())
    new_battle(table, ("Rifleman", "axis", 3), ("Soldier with pistol", "allies", 3))
    table.press("ok")
    count = Count(table)
    squad_fires(count, asked=True)                     # the 0 dialled holds for all three
    assert count.knob == 10 and len(count.rolls) == 6  # a turn of the dial, OK, OK more


def test_a_long_press_on_the_next_figures_shot_chooses_again(table_at):
    table = table_at(SQUAD_DICE)
    new_battle(table, ("Rifleman", "axis", 3), ("Soldier with pistol", "allies", 3))
    table.press("ok", "ok", "ok", "ok", "ok", "axis", "allies", "ok")   # figure 1: down
    assert table.view.header.title == "Shot 2 of 3"
    table.press("back")                                # another target, or Done firing
    assert isinstance(table.view, Menu) and table.view.header.title == "Shot 2 of 3"
    assert table.view.items == ("Pistol 1 (2)", "Done firing")
    table.choose("Done firing")
    assert table.view.header.title == "Rifle 1 (3)" and table.view.hint == "fired"


def test_a_second_long_press_goes_back_to_the_next_figures_shot_not_past_it(table_at):
    # A long press held once too often must not end the squad's fire: back from the choice
    # is the shot it came from, and the next figures still fire (Done firing ends it).
    table = table_at(SQUAD_DICE)
    new_battle(table, ("Rifleman", "axis", 3), ("Soldier with pistol", "allies", 3))
    table.press("ok", "ok", "ok", "ok", "ok", "axis", "allies", "ok")   # figure 1: down
    table.press("back", "back")
    assert table.view.header.title == "Shot 2 of 3"
    assert isinstance(table.view, Lines) and table.view.lines[0] == "Pistol 1 (2) · 45 cm"
    table.press("axis", "allies", "ok")                # figure 2 fires: 1 v 6, no kill
    assert table.view.header.title == "Shot 3 of 3"


def test_a_whole_tank_game_turn_of_two_pieces(table_at):
    # The Axis activate a squad of three and a Tiger: the squad fires at the pistol soldiers
    # (as above), the Tiger at Sherman 1 (to hit 1: a miss; reload 6), then the activation ends.
    table = table_at([*SQUAD_DICE, 1, 6])
    new_battle(table, ("Rifleman", "axis", 3), ("Tiger I", "axis"),
               ("Soldier with pistol", "allies", 3), ("Sherman M4A1", "allies"))
    count = Count(table)
    count.press("ok", "cw", "ok")                      # Rifle 1, Tiger 1: the activation
    assert table.view.items == ("Rifle 1 (3)", "Tiger 1", "All done")
    count.press("ok")                                  # Rifle 1
    squad_fires(count)
    assert table.view.header.title == "Who goes?"       # the activation: Tiger 1 is next
    count.press("ok", "ok")                            # Tiger 1, Fire: its gun reaches no
    assert table.view.items == ("Sherman 1", "shell at a group")   # figure: Sherman 1 is lit
    count.press("ok", "ok", "ok")                      # Sherman 1, not hull down, not over 100
    count.roll("axis")                                 # to hit 1: MISS
    count.press("ok")                                  # the outcome read
    assert table.view.items[table.view.index] == "All done"
    count.press("ok")
    assert table.view.header.side == "allies"          # the Allies' turn
    assert count.knob == 18 and len(count.rolls) == 7   # 19 with figures as AP targets


def test_an_ordinary_cobra_allied_turn_costs_no_press_for_the_beaches(table_at, tmp_path):
    """Cobra's automatic German victory (17.3.13) costs no press on an ordinary Allied turn of
    the campaign: Next phase out of the German Mechanized Movement Phase is one OK, straight
    to the Allied Supply Phase; the players tell the box by a row below it (*All beaches
    lost*), and are asked at the turn's start only when the landing abandoned a beach."""
    from .test_cobra_box import seed_game
    from .test_cobra_plans_box import at_german_mechanized

    state = tmp_path / "state"
    seed_game(state, at_german_mechanized("campaign"))
    table = table_at([], state_dir=state, config=NEW_BOX)
    table.choose("Resume Cobra")
    count = Count(table)
    while table.view.items[table.view.index] != "Next phase":
        count.press("cw")
    count.press("ok")
    assert table.view.header.title.endswith("Supply")      # no question on the way
    assert count.presses.count("ok") == 1 and count.knob == len(count.presses)
