"""Who changed place in a turn (rules.tank.turns.changed_place): the fact the box's Again reads
to ask a shot's range and hull down again after a move (issue 35, point 2)."""
from __future__ import annotations

from dataclasses import replace

from cobi_companion.rules.battle import Battle
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank import turns


def field(book) -> Battle:
    """Axis: Tiger 1, Rifle 1 (2), Sherman 1 (to ride on), Pz IV D 1 off the map;
    Allies: Sherman 2."""
    battle = Battle("tank")
    for key, side, figures in (("2477", Side.AXIS, None), ("rifleman", Side.AXIS, 2),
                               ("2464", Side.AXIS, None), ("pz-iv-d", Side.AXIS, None),
                               ("2464", Side.ALLIES, None)):
        battle = battle.add(book.get(key), side, figures)
    waiting = battle.get("Pz IV D 1")
    return battle.replace_piece(replace(waiting, status=replace(waiting.status, off_map=True)))


def test_a_turn_where_nothing_moved_changed_no_place(book):
    battle = field(book)
    turn = turns.activate(turns.first_turn(Side.AXIS), battle, ["Tiger 1"])
    turn, battle = turns.fire(turn, battle, "Tiger 1")
    assert turns.changed_place(turn, battle) == frozenset()


def test_a_move_after_a_shot_a_rider_carried_and_a_piece_placed_changed_place(book):
    battle = field(book)
    turn = turns.activate(turns.first_turn(Side.AXIS), battle, ["Rifle 1"])
    turn, battle = turns.get_on(turn, battle, "Rifle 1", "Sherman 1")
    turn = turns.end_activation(turn)
    turn, battle = turns.place(turn, battle, "Pz IV D 1")
    assert turns.changed_place(turn, battle) == {"Rifle 1", "Pz IV D 1"}
    turn = turns.activate(turn, battle, ["Sherman 1"])      # the extra activation: it drives
    turn, battle = turns.move(turn, battle, "Sherman 1")
    assert turns.changed_place(turn, battle) == {"Rifle 1", "Pz IV D 1", "Sherman 1"}


def test_the_firer_that_moves_after_firing_changed_place(book):
    battle = field(book)
    turn = turns.activate(turns.first_turn(Side.AXIS), battle, ["Tiger 1"])
    turn, battle = turns.fire(turn, battle, "Tiger 1")
    turn, battle = turns.move(turn, battle, "Tiger 1")
    assert turns.changed_place(turn, battle) == {"Tiger 1"}
