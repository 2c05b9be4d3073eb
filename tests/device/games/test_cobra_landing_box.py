"""Cobra's Allied Landing Phase on the box (17.3.2), the 3:1 withdrawal attack (17.3.4) and the
beach shift of a German attack (17.3.10): real app, store, screens and inputs, scripted dice,
the owner's tables file where a test says so."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from cobi_companion.device.config import Config, Paths
from cobi_companion.device.core.battle_log import english, loaded
from cobi_companion.device.core.views import BigWord, Lines
from cobi_companion.rules.cobra.landing import Landing, Target
from cobi_companion.rules.cobra.tables import COLUMNS, Weather
from cobi_companion.rules.cobra.turns import CobraGame

from .test_cobra_box import at_combat, saved, seed_game


def landing_tables(folder: Path) -> Config:
    """An owner's file: 2:1 reads 1/2 on a 4, 3:1 reads -/e on a 6 and -/1 on a 2, and the
    Scatter Diagram's 4 is south (the rules' example, 17.3.2 step 2c)."""
    cells = {"2:1": {4: "1/2"}, "3:1": {2: "-/1", 6: "-/e"}}
    crt = "\n".join(f'"{c}" = [{", ".join(repr(cells.get(c, {}).get(d, "")) for d in range(1, 7))}]'
                    .replace("'", '"') for c in COLUMNS)
    (folder / "cobra").mkdir(parents=True)
    (folder / "cobra" / "tables.toml").write_text(
        f'[crt]\n{crt}\n[scatter]\n"4" = "south"\n')
    return Config(paths=Paths(cards_dir=folder))


def at_landing(tmp_path: Path, landing: Landing | None = None) -> Path:
    """The campaign at its Allied Landing Phase, with what `landing` says was done."""
    state = tmp_path / "state"
    seed_game(state, replace(CobraGame.start("campaign"), landing=landing or Landing()))
    return state


def log_line(table) -> str:
    return english(loaded(saved(table)["log"][-1]))


def test_a_drop_that_does_not_scatter(table_at, tmp_path):
    """17.3.2 step 2b: "Units of the US 82nd Airborne Division scatter on a roll of five or
    six": a 4 lands the unit on its counter's hex, and the drop is saved."""
    table = table_at([4], state_dir=at_landing(tmp_path))
    table.choose("Resume Cobra")
    assert table.view.header.title == "Landing"
    assert table.view.items[:4] == ("Paratroops 1/9", "Beach defence", "Landing attrition",
                                    "Beach abandoned?")
    table.choose("Paratroops")
    table.choose("82nd Airborne")
    assert table.view.lines[:2] == ("82nd Airborne", "Scatters on 5-6")
    table.press("allies")
    assert isinstance(table.view, BigWord) and table.view.word == "LANDED"
    assert saved(table)["cobra"]["landing"]["drops"] == [["82nd", 4, None]]
    assert log_line(table) == "GT1 paratroops 82nd: die 4, no scatter"
    table.press("ok", "ok")
    assert table.view.items[0] == "Paratroops 2/9"


def test_a_scattered_drop_moves_as_the_owners_diagram_says(table_at, tmp_path):
    """17.3.2 step 2c: "A result of 4 would require that the unit be moved one hex south"; a
    British unit scatters only on a 6 (17.3.2 step 2a)."""
    table = table_at([6, 4], state_dir=at_landing(tmp_path),
                     config=landing_tables(tmp_path / "cards"))
    table.choose("Resume Cobra")
    table.choose("Paratroops")
    table.choose("6th Airborne")
    table.press("allies")
    assert saved(table)["cobra"]["landing"]["drops"] == [["6th", 6, None]]   # saved at once
    assert table.view.lines[1] == "Die 6: scattered. Where?"              # step 2a
    table.press("allies")
    assert (table.view.word, table.view.detail) == ("SOUTH", "die 4")
    assert saved(table)["cobra"]["landing"]["drops"] == [["6th", 6, 4]]
    assert log_line(table) == "GT1 paratroops 6th: scatter die 4, south"
    table.press("ok")
    assert table.view.lines[1].startswith("On a beach or coastal hex")       # step 3a


def test_a_resumed_game_rolls_only_the_direction_of_a_scattered_drop(table_at, tmp_path):
    """17.3.2 step 2: one die for each paratroop unit, and a second for a scattered one's
    direction: a game saved between the two rolls only the second, and without the owner's
    diagram the player reads the printed one."""
    pending = Landing(drops=((Target.US_82, 5, None),))
    table = table_at([3], state_dir=at_landing(tmp_path, pending))
    table.choose("Resume Cobra")
    assert table.view.items[0] == "Scatter direction"
    table.press("ok", "allies")
    assert table.view.word == "MAP B: 3"
    assert saved(table)["cobra"]["landing"]["drops"] == [["82nd", 5, 3]]
    assert log_line(table) == "GT1 paratroops 82nd: scatter die 3, read map B's diagram"


def test_the_tenth_drop_is_refused(table_at, tmp_path):
    """17.3.2 step 1a: "his nine paratroop units"."""
    nine = Landing(drops=tuple((Target.US_101, 1, None) for _ in range(9)))
    table = table_at([], state_dir=at_landing(tmp_path, nine))
    table.choose("Resume Cobra")
    assert table.view.items[0] == "Paratroops 9/9"
    table.press("ok")
    assert isinstance(table.view, Lines)
    assert table.view.lines[0] == "all 9 paratroop units have dropped (17.3.2 step 1a)"


def test_beach_defence_and_juno_attrition_as_the_rules_example(table_at, tmp_path):
    """17.3.2 step 4: the German player's 5 or 6 commits steps; "The hex is on Juno beach, so
    he starts on the 1:2 column ... since he committed 2 steps ... on the 2:1 column"; the
    Allied units lose steps, never retreat, and the beach gets its shift marker (5f)."""
    table = table_at([6, 4], state_dir=at_landing(tmp_path),
                     config=landing_tables(tmp_path / "cards"))
    table.choose("Resume Cobra")
    table.choose("Beach defence")
    table.press("axis")
    assert (table.view.word, table.view.detail) == ("COMMIT", "die 6")
    assert log_line(table) == "GT1 beach defence die 6: may commit steps"
    table.press("ok", "ok")
    table.choose("Landing attrition")
    table.choose("Juno")
    table.press("cw", "cw", "ok")                             # two German steps committed
    assert table.view.lines[1] == "1:2 +2 → 2:1"
    table.press("axis")
    assert (table.view.word, table.view.detail) == ("2", "2:1, die 4")
    table.press("ok")
    assert table.view.lines[0] == "Allied: lose 2 steps, no retreat; the German units are " \
                                  "not affected (17.3.2 step 4b4)"
    assert saved(table)["cobra"]["landing"]["attritions"] == [
        {"target": "juno", "column": "2:1", "die": 4, "result": "2", "lost": 2}]
    assert log_line(table) == "GT1 landing attrition juno 1:2 → 2:1, die 4: 2"


def test_a_beach_that_lost_more_than_half_is_abandoned(table_at, tmp_path):
    """17.3.2 step 5a, 5e: "more than half the number of steps committed to a beach have been
    eliminated, that beach is abandoned" and "the German player immediately accumulates 10
    VP"; the box offers the steps the attritions took there, and a second check is refused."""
    from cobi_companion.rules.cobra.landing import Landed

    lost = Landing(attritions=(Landed(Target.OMAHA, "4:1", 5, "3", 3),))
    table = table_at([], state_dir=at_landing(tmp_path, lost))
    table.choose("Resume Cobra")
    table.choose("Beach abandoned?")
    table.choose("Omaha")
    table.press("cw", "cw", "ok")                              # 5 steps landed (3 + 2)
    assert table.view.word == "3"                              # the attritions' 3 lost
    table.press("ok")
    assert table.view.word == "ABANDONED"
    state_now = saved(table)
    assert state_now["cobra"]["tracks"]["german_vp"] == 10
    assert state_now["cobra"]["landing"]["abandoned"] == ["omaha"]
    table.press("ok", "ok")
    table.choose("Beach abandoned?")
    table.choose("Omaha")
    table.press("ok", "ok")
    assert table.view.lines[0].startswith("omaha is abandoned already")
    assert saved(table)["cobra"]["tracks"]["german_vp"] == 10


def test_the_withdrawal_attack_at_the_end_of_an_allied_turn(table_at, tmp_path):
    """17.3.4: "the German player makes an unmodified 3:1 attack against it before it's
    withdrawn"; a -/e destroys it and it "counts for VP instead of being withdrawn"."""
    state = tmp_path / "state"
    seed_game(state, at_combat(3, [Weather.CLEAR] * 3, 10, "campaign"))
    table = table_at([6], state_dir=state, config=landing_tables(tmp_path / "cards"))
    table.choose("Resume Cobra")
    assert table.view.items[:2] == ("Next game turn", "Withdrawal 3:1")
    table.choose("Withdrawal")
    table.press("ok")                                          # 2 steps
    table.press("axis")
    assert (table.view.word, table.view.detail) == ("DESTROYED", "3:1, die 6")
    assert log_line(table) == "GT3 withdrawal attack 3:1, die 6: e"


def test_no_withdrawal_attack_in_cobra(table_at, tmp_path):
    """17.3.4 is a rule of the campaign (and the Build-Up, 17.4a): Cobra's end of turn has
    none."""
    state = tmp_path / "state"
    seed_game(state, at_combat(16, [Weather.CLEAR] * 2, 10))
    table = table_at([], state_dir=state)
    table.choose("Resume Cobra")
    assert not any(item.startswith("Withdrawal") for item in table.view.items)


def test_a_german_attack_on_a_beach_takes_two_columns_left(table_at, tmp_path):
    """17.3.10: "the Allied player receives an automatic two column shifts to the left"
    against a German attack on a beach hex."""
    from .test_cobra_box import dial_attack

    state = tmp_path / "state"
    seed_game(state, at_combat(3, [Weather.CLEAR] * 3, 3, "campaign"))
    table = table_at([4], state_dir=state)
    table.choose("Resume Cobra")
    dial_attack(table, "Beach")
    table.choose("Pay 2 SP")
    assert table.view.lines[:2] == ("5 : 2 = 2:1", "-2 → 1:2")


def test_the_landing_survives_a_restart(table_at, tmp_path):
    """17.3.2: what the phase did is saved: a pulled plug after a drop keeps it."""
    state = at_landing(tmp_path)
    table = table_at([2], state_dir=state)
    table.choose("Resume Cobra")
    table.choose("Paratroops")
    table.choose("101st Airborne")
    table.press("allies")
    table.close()
    again = table_at([], state_dir=state)
    again.choose("Resume Cobra")
    assert again.steps                       # the drop's outcome again first
    again.press("ok")
    assert again.view.items[0] == "Paratroops 2/9"
