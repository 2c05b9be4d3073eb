"""Tank Game turns: activations, actions, the extra activation, placement and the commander."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from cobi_companion.rules.battle import Battle
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.distance import measure
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.status import Side, Status
from cobi_companion.rules.tank import turns
from cobi_companion.rules.tank.turns import Action, Turn
from hypothesis import given
from hypothesis import strategies as st

RIFLE = validated_card({"id": "rifleman", "name": "Rifleman", "kind": "figure",
                                 "crew": 1})
GUN = validated_card({"id": "pak-36", "name": "Pak 36", "kind": "gun", "crew": 3,
                               "reload": "4-6"})
TANK = validated_card({"id": "tank", "name": "Tank", "kind": "hard", "crew": 4})
TRUCK = validated_card({"id": "truck", "name": "Truck", "kind": "soft", "crew": 1})


@pytest.fixture
def field(book) -> Battle:
    """Axis: Tiger 1, Rifleman 1 (4), Rifleman 2 (1), Pak 1; Allies: Sherman 1, Rifleman 3 (3)."""
    battle = Battle("tank").add(book.get(2477), Side.AXIS).add(RIFLE, Side.AXIS, 4) \
        .add(RIFLE, Side.AXIS, 1).add(GUN, Side.AXIS).add(book.get(2464), Side.ALLIES) \
        .add(RIFLE, Side.ALLIES, 3)
    assert [p.label for p in battle.pieces] == ["Tiger 1", "Rifleman 1", "Rifleman 2", "Pak 1",
                                                "Sherman 1", "Rifleman 3"]
    return battle


def axis_turn() -> Turn:
    return turns.first_turn(Side.AXIS)


def marks(battle: Battle, label: str, **values: bool) -> Battle:
    piece = battle.get(label)
    return battle.replace_piece(replace(piece, status=replace(piece.status, **values)))


# --- turns -----------------------------------------------------------------------------------


def test_the_defender_plays_first_and_the_sides_alternate(field):
    turn = turns.first_turn(Side.ALLIES)
    assert (turn.number, turn.side) == (1, Side.ALLIES)
    turn, _ = turns.end_turn(turn, field)
    assert (turn.number, turn.side) == (2, Side.AXIS)
    turn, _ = turns.end_turn(turn, field)
    assert (turn.number, turn.side) == (3, Side.ALLIES)
    assert turn.activations == () and turn.placed == ()


def test_a_squad_of_four_and_a_tank_make_five(field):
    turn = turns.activate(axis_turn(), field, ["Tiger 1", "Rifleman 1"])
    act = turn.current
    assert act is not None and act.size == 5 and not act.extra
    assert act.text() == "activated: Tiger 1, Rifleman 1 (4)"


def test_five_single_figures_are_one_activation(book):
    battle = Battle("tank")
    for _ in range(5):
        battle = battle.add(RIFLE, Side.AXIS, 1)
    turn = turns.activate(axis_turn(), battle, [p.label for p in battle.pieces])
    assert turn.current is not None and turn.current.size == turns.MAX_PIECES


def test_more_than_five_figures_and_models_is_refused(field):
    with pytest.raises(RulesError, match=r"at most 5 figures and models.*make 6"):
        turns.activate(axis_turn(), field, ["Tiger 1", "Rifleman 1", "Rifleman 2"])


def test_only_one_model_per_activation(field):
    with pytest.raises(RulesError, match="Tiger 1 and Pak 1 are both models"):
        turns.activate(axis_turn(), field, ["Tiger 1", "Pak 1"])


def test_a_gun_counts_one_towards_the_five(field):
    turn = turns.activate(axis_turn(), field, ["Pak 1", "Rifleman 1"])
    assert turn.current is not None and turn.current.size == 5


@pytest.mark.parametrize(("labels", "why"), [
    ([], "pick 1 to 5 pieces"),
    (["Sherman 1"], "Sherman 1 is an allies piece: it is the axis turn"),
    (["Tiger 1", "tiger 1"], "Tiger 1 is picked twice"),
    (["Panther 1"], "no piece called 'Panther 1'"),
])
def test_activation_refusals(field, labels, why):
    with pytest.raises(RulesError, match=why):
        turns.activate(axis_turn(), field, labels)


def test_a_gone_piece_cannot_be_activated(field):
    battle = marks(field, "Tiger 1", destroyed=True)
    with pytest.raises(RulesError, match="Tiger 1 is out of the fight"):
        turns.activate(axis_turn(), battle, ["Tiger 1"])
    squad = battle.replace_piece(battle.get("Rifleman 2").lose_figures(1))
    with pytest.raises(RulesError, match="Rifleman 2 is out of the fight"):
        turns.activate(axis_turn(), squad, ["Rifleman 2"])


def test_a_piece_off_the_map_cannot_be_activated(field):
    battle = marks(field, "Tiger 1", off_map=True)
    with pytest.raises(RulesError, match="Tiger 1 is off the map: place it"):
        turns.activate(axis_turn(), battle, ["Tiger 1"])


def test_an_open_activation_must_end_before_the_next(field):
    turn = turns.activate(axis_turn(), field, ["Rifleman 2"])
    with pytest.raises(RulesError, match="end the activation of Rifleman 2 first"):
        turns.activate(turn, field, ["Tiger 1"])


def test_end_activation_needs_an_open_one():
    with pytest.raises(RulesError, match="no activation is open"):
        turns.end_activation(axis_turn())


# --- actions ---------------------------------------------------------------------------------


def test_a_piece_that_moved_may_not_fire(field):
    turn = turns.activate(axis_turn(), field, ["Tiger 1"])
    turn, battle = turns.move(turn, field, "Tiger 1")
    with pytest.raises(RulesError, match="Tiger 1 has moved in this activation"):
        turns.fire(turn, battle, "Tiger 1")


def test_a_piece_that_fired_may_still_move(field):
    turn = turns.activate(axis_turn(), field, ["Tiger 1"])
    turn, battle = turns.fire(turn, field, "Tiger 1", note="at Sherman 1: miss")
    turn, battle = turns.move(turn, battle, "Tiger 1")
    assert turn.current is not None
    assert turn.current.text() == "activated: Tiger 1 — moved: Tiger 1 — fired: Tiger 1"
    assert turn.current.done[0] == turns.Done("Tiger 1", Action.FIRE, "at Sherman 1: miss")


@pytest.mark.parametrize("do", [turns.move, turns.fire, turns.take_cover])
def test_each_action_at_most_once_per_activation(field, do):
    turn = turns.activate(axis_turn(), field, ["Rifleman 1"])
    turn, battle = do(turn, field, "Rifleman 1")
    with pytest.raises(RulesError, match="each piece does each action once"):
        do(turn, battle, "Rifleman 1")


def test_only_pieces_of_the_activation_act(field):
    turn = turns.activate(axis_turn(), field, ["Rifleman 1"])
    with pytest.raises(RulesError, match=r"Tiger 1 is not in this activation \(Rifleman 1\)"):
        turns.move(turn, field, "Tiger 1")
    with pytest.raises(RulesError, match="no activation is open"):
        turns.move(axis_turn(), field, "Tiger 1")


def test_an_immobilized_vehicle_cannot_move(field):
    battle = marks(field, "Tiger 1", immobilized=True)
    turn = turns.activate(axis_turn(), battle, ["Tiger 1"])
    with pytest.raises(RulesError, match="Tiger 1 is immobilized"):
        turns.move(turn, battle, "Tiger 1")
    turns.fire(turn, battle, "Tiger 1")  # it may still fire


@pytest.mark.parametrize("do", [turns.move, turns.fire])
def test_moving_or_firing_reveals_a_hidden_piece(field, do):
    battle = marks(field, "Rifleman 1", hidden=True)
    turn = turns.activate(axis_turn(), battle, ["Rifleman 1"])
    _, after = do(turn, battle, "Rifleman 1")
    assert not after.get("Rifleman 1").status.hidden
    assert battle.get("Rifleman 1").status.hidden  # the old battle is untouched


def test_a_figure_hides_more_than_30_cm_from_the_nearest_enemy_figure(field):
    turn = turns.activate(axis_turn(), field, ["Rifleman 1"])
    turn, battle = turns.hide(turn, field, "Rifleman 1", cover=True, nearest_enemy_figure=30.5)
    assert battle.get("Rifleman 1").status.hidden
    assert turn.current is not None and turn.current.did("Rifleman 1", Action.HIDE)


@pytest.mark.parametrize("cm", [30, 29.9, 5])
def test_hiding_within_30_cm_of_an_enemy_figure_is_refused(field, cm):
    turn = turns.activate(axis_turn(), field, ["Rifleman 1"])
    with pytest.raises(RulesError, match="nearest enemy figure is not more than 30 cm"):
        turns.hide(turn, field, "Rifleman 1", cover=True, nearest_enemy_figure=cm)


def test_hiding_with_no_enemy_figure_on_the_map(field):
    turn = turns.activate(axis_turn(), field, ["Rifleman 1"])
    _, battle = turns.hide(turn, field, "Rifleman 1", cover=True, nearest_enemy_figure=None)
    assert battle.get("Rifleman 1").status.hidden


def test_a_measurement_too_close_to_30_cm_asks_for_the_tape(field):
    turn = turns.activate(axis_turn(), field, ["Rifleman 1"])
    with pytest.raises(RulesError) as refused:
        turns.hide(turn, field, "Rifleman 1", cover=True,
                   nearest_enemy_figure=measure([30.5, 31.0, 31.5]))
    assert str(refused.value) == "31 cm is too close to 30 cm to call: measure with the tape " \
        "and enter the distance"


def test_hiding_needs_cover(field):
    turn = turns.activate(axis_turn(), field, ["Rifleman 1"])
    with pytest.raises(RulesError, match="there is no cover"):
        turns.hide(turn, field, "Rifleman 1", cover=False, nearest_enemy_figure=50)


def test_a_figure_that_moved_may_not_hide_or_take_cover(field):
    turn = turns.activate(axis_turn(), field, ["Rifleman 1"])
    turn, battle = turns.move(turn, field, "Rifleman 1")
    with pytest.raises(RulesError, match="only figures that have not moved may hide"):
        turns.hide(turn, battle, "Rifleman 1", cover=True, nearest_enemy_figure=50)
    with pytest.raises(RulesError, match="only figures that have not moved may take cover"):
        turns.take_cover(turn, battle, "Rifleman 1")


def test_vehicles_and_guns_do_not_hide_or_take_cover_in_play(field):
    turn = turns.activate(axis_turn(), field, ["Tiger 1"])
    with pytest.raises(RulesError, match="only figures hide in play"):
        turns.hide(turn, field, "Tiger 1", cover=True, nearest_enemy_figure=50)
    with pytest.raises(RulesError, match="Tiger 1 is a vehicle: only figures take cover"):
        turns.take_cover(turn, field, "Tiger 1")


def test_take_cover_is_recorded_and_changes_no_mark(field):
    turn = turns.activate(axis_turn(), field, ["Rifleman 1"])
    turn, battle = turns.take_cover(turn, field, "Rifleman 1")
    assert battle == field
    assert turn.current is not None and turn.current.text() == \
        "activated: Rifleman 1 (4) — took cover: Rifleman 1"


def test_an_unloaded_vehicle_that_has_not_moved_or_fired_reloads(field):
    battle = marks(field, "Tiger 1", loaded=False)
    turn = turns.activate(axis_turn(), battle, ["Tiger 1"])
    turn, after = turns.reload(turn, battle, "Tiger 1")
    assert after == battle  # the roll is hard_fire.reload_action's
    with pytest.raises(RulesError, match="a reloading piece neither moves nor fires"):
        turns.move(turn, after, "Tiger 1")
    with pytest.raises(RulesError, match="a reloading piece neither moves nor fires"):
        turns.fire(turn, after, "Tiger 1")


def test_no_reload_after_moving_or_firing(field):
    battle = marks(field, "Tiger 1", loaded=False)
    turn = turns.activate(axis_turn(), battle, ["Tiger 1"])
    moved, _ = turns.move(turn, battle, "Tiger 1")
    with pytest.raises(RulesError, match="Tiger 1 has moved in this activation"):
        turns.reload(moved, battle, "Tiger 1")
    fired, _ = turns.fire(turn, battle, "Tiger 1")
    with pytest.raises(RulesError, match="Tiger 1 has fired in this activation"):
        turns.reload(fired, battle, "Tiger 1")


def test_a_gun_reloads_and_a_squad_does_not(field):
    battle = marks(field, "Pak 1", loaded=False)
    turn = turns.activate(axis_turn(), battle, ["Pak 1", "Rifleman 1"])
    turn, _ = turns.reload(turn, battle, "Pak 1")
    with pytest.raises(RulesError, match="only a vehicle or gun reloads"):
        turns.reload(turn, battle, "Rifleman 1")


@pytest.mark.parametrize(("status", "why"), [
    ({}, "Tiger 1 is loaded: there is nothing to reload"),
    ({"loaded": False, "gun_destroyed": True}, "Tiger 1 has lost its gun"),
])
def test_reload_refusals(field, status, why):
    battle = marks(field, "Tiger 1", **status)
    turn = turns.activate(axis_turn(), battle, ["Tiger 1"])
    with pytest.raises(RulesError, match=why):
        turns.reload(turn, battle, "Tiger 1")


# --- the extra activation --------------------------------------------------------------------


def test_no_fire_earns_one_extra_activation_that_may_not_fire(field):
    turn = turns.activate(axis_turn(), field, ["Rifleman 1"])
    turn, battle = turns.move(turn, field, "Rifleman 1")
    turn = turns.end_activation(turn)
    assert turn.extra_due and turn.can_activate
    with pytest.raises(RulesError, match="Rifleman 1 has already been activated this turn"):
        turns.activate(turn, battle, ["Rifleman 1"])
    turn = turns.activate(turn, battle, ["Tiger 1"])
    assert turn.current is not None and turn.current.extra
    assert turn.current.text() == "extra activation: Tiger 1"
    with pytest.raises(RulesError, match="extra activation: its pieces may not fire"):
        turns.fire(turn, battle, "Tiger 1")
    turn, battle = turns.move(turn, battle, "Tiger 1")
    turn = turns.end_activation(turn)
    assert not turn.extra_due and not turn.can_activate
    with pytest.raises(RulesError, match="and its extra activation: end the turn"):
        turns.activate(turn, battle, ["Rifleman 2"])


def test_an_activation_that_fired_earns_no_extra(field):
    turn = turns.activate(axis_turn(), field, ["Tiger 1", "Rifleman 2"])
    turn, battle = turns.fire(turn, field, "Rifleman 2")
    turn = turns.end_activation(turn)
    assert not turn.extra_due
    with pytest.raises(RulesError, match=r"\(it fired, so no extra activation\): end the turn"):
        turns.activate(turn, battle, ["Rifleman 1"])


def test_ending_the_turn_passes_to_the_other_side(field):
    turn = turns.activate(axis_turn(), field, ["Tiger 1"])
    turn, battle = turns.end_turn(turn, field)
    assert turn.side is Side.ALLIES and turn.number == 2
    turn = turns.activate(turn, battle, ["Sherman 1", "Rifleman 3"])
    assert turn.current is not None and turn.current.size == 4


# --- off-map placement -----------------------------------------------------------------------


@pytest.fixture
def reserves(book) -> Battle:
    """Axis waits off the map with three tanks, a truck, a gun and two squads."""
    battle = Battle("tank")
    for card, figures in ((book.get(2477), None), (book.get(2474), None),
                          (book.get(2456), None), (TRUCK, None), (GUN, None),
                          (RIFLE, 4), (RIFLE, 5)):
        battle = battle.add(card, Side.AXIS, figures)
    battle = battle.add(book.get(2464), Side.ALLIES)
    for piece in battle.side(Side.AXIS):
        battle = marks(battle, piece.label, off_map=True, hidden=True)
    return battle


def test_two_vehicles_a_turn_with_free_riders_and_a_towed_gun(reserves):
    turn = axis_turn()
    turn, battle = turns.place(turn, reserves, "Tiger 1")
    turn, battle = turns.place(turn, battle, "Truck 1")
    turn, battle = turns.place(turn, battle, "Rifleman 1", riding_with="Tiger 1")
    turn, battle = turns.place(turn, battle, "Rifleman 2", riding_with="truck 1")
    turn, battle = turns.place(turn, battle, "Pak 1", riding_with="Truck 1")
    assert turn.vehicles_placed == 2 and turn.activations == ()
    for label in ("Tiger 1", "Truck 1", "Rifleman 1", "Rifleman 2", "Pak 1"):
        assert battle.get(label).status == Status()  # on the map, not hidden
    assert turn.text()[-1] == ("placed: Tiger 1, Truck 1, Rifleman 1 (with Tiger 1), "
                               "Rifleman 2 (with Truck 1), Pak 1 (with Truck 1)")
    with pytest.raises(RulesError, match="has placed 2 vehicles this turn: at most 2"):
        turns.place(turn, battle, "Pz I 1")


def test_placed_pieces_are_not_active_this_turn_but_are_next_turn(reserves):
    turn, battle = turns.place(axis_turn(), reserves, "Tiger 1")
    with pytest.raises(RulesError, match="Tiger 1 was placed this turn"):
        turns.activate(turn, battle, ["Tiger 1"])
    turn, battle = turns.end_turn(turn, battle)
    turn, battle = turns.end_turn(turn, battle)
    assert turns.activate(turn, battle, ["Tiger 1"]).current is not None


@pytest.mark.parametrize(("label", "riding", "why"), [
    ("Pak 1", None, "Pak 1 is a gun: it comes on towed by a vehicle placed this turn"),
    ("Rifleman 1", "Pz I 1", "Pz I 1 is not a vehicle placed this turn"),
    ("Tiger 1", "Pz I 1", "Tiger 1 is a vehicle: it is placed on its own"),
    ("Sherman 1", None, "Sherman 1 is an allies piece"),
])
def test_placement_refusals(reserves, label, riding, why):
    with pytest.raises(RulesError, match=why):
        turns.place(axis_turn(), reserves, label, riding_with=riding)


def test_figures_may_walk_on_without_a_vehicle(reserves):
    turn, battle = turns.place(axis_turn(), reserves, "Rifleman 1")
    assert turn.vehicles_placed == 0 and not battle.get("Rifleman 1").status.off_map


def test_a_piece_on_the_map_is_not_placed(field):
    with pytest.raises(RulesError, match="Tiger 1 is not off the map"):
        turns.place(axis_turn(), field, "Tiger 1")


# --- the commander ---------------------------------------------------------------------------


def test_a_vehicle_without_its_commander_may_only_leave(field):
    battle = marks(field, "Tiger 1", commander_killed=True, hidden=True)
    turn = turns.activate(axis_turn(), battle, ["Tiger 1"])
    for do in (turns.fire, turns.move, turns.reload):
        with pytest.raises(RulesError, match="lost its commander: it may only move off"):
            do(turn, battle, "Tiger 1")
    turn, battle = turns.leave(turn, battle, "Tiger 1")
    tiger = battle.get("Tiger 1")
    assert tiger.status.off_map and tiger.status.commander_killed and not tiger.status.hidden
    assert turn.current is not None and turn.current.text() == \
        "activated: Tiger 1 — left the map: Tiger 1"
    assert turn.returns("Tiger 1") == 3 and turns.return_turn(1) == 3
    with pytest.raises(RulesError, match="Tiger 1 has left the map"):
        turns.move(turn, battle, "Tiger 1")


def test_only_a_vehicle_without_its_commander_leaves(field):
    turn = turns.activate(axis_turn(), field, ["Tiger 1"])
    with pytest.raises(RulesError, match="only a vehicle whose commander was killed leaves"):
        turns.leave(turn, field, "Tiger 1")
    battle = marks(field, "Tiger 1", commander_killed=True, immobilized=True)
    with pytest.raises(RulesError, match="immobilized: it cannot move off the map"):
        turns.leave(turn, battle, "Tiger 1")


def commander_away(field: Battle) -> tuple[Turn, Battle]:
    battle = marks(field, "Tiger 1", commander_killed=True)
    turn = turns.activate(axis_turn(), battle, ["Tiger 1"])
    turn, battle = turns.leave(turn, battle, "Tiger 1")
    return turns.end_turn(turn, battle)


def test_it_comes_back_at_the_end_of_the_following_friendly_turn(field):
    turn, battle = commander_away(field)           # turn 2: allies
    assert not turns.may_come_back(turn, "Tiger 1")
    turn, battle = turns.end_turn(turn, battle)    # turn 3: axis, the following friendly turn
    assert turn.number == 3 and turns.may_come_back(turn, "Tiger 1")
    turn, battle = turns.place(turn, battle, "Tiger 1")
    assert battle.get("Tiger 1").status == Status()
    assert turn.away == ()


def test_it_may_not_come_back_in_the_same_turn(field):
    battle = marks(field, "Tiger 1", commander_killed=True)
    turn = turns.activate(axis_turn(), battle, ["Tiger 1"])
    turn, battle = turns.leave(turn, battle, "Tiger 1")
    with pytest.raises(RulesError, match="replacing its commander: it comes back at the end "
                                         "of turn 3"):
        turns.place(turn, battle, "Tiger 1")


def test_unplaced_it_gets_its_commander_at_the_end_of_that_turn(field):
    turn, battle = commander_away(field)
    turn, battle = turns.end_turn(turn, battle)    # turn 3
    turn, battle = turns.end_turn(turn, battle)    # end of turn 3: commander replaced
    tiger = battle.get("Tiger 1")
    assert tiger.status.off_map and not tiger.status.commander_killed and turn.away == ()
    turn, battle = turns.end_turn(turn, battle)    # turn 5: placed like any off-map piece
    turn, battle = turns.place(turn, battle, "Tiger 1")
    assert not battle.get("Tiger 1").status.off_map


# --- the record ------------------------------------------------------------------------------


def test_turn_round_trips_through_json(field):
    turn = turns.activate(axis_turn(), field, ["Tiger 1", "Rifleman 1"])
    turn, battle = turns.move(turn, field, "Tiger 1", note="22 cm")
    turn, battle = turns.fire(turn, battle, "Rifleman 1")
    turn = turns.end_activation(turn)
    data = json.loads(json.dumps(turn.to_dict()))
    assert data["activations"][0]["text"] == \
        "activated: Tiger 1, Rifleman 1 (4) — moved: Tiger 1 — fired: Rifleman 1"
    assert data["text"][0] == "turn 1: axis"
    assert Turn.from_dict(data) == turn


actions = st.lists(st.tuples(st.sampled_from(["Rifleman 1", "Tiger 1"]),
                             st.sampled_from(list(Action))), max_size=8)


@given(steps=actions, close=st.booleans())
def test_any_recorded_turn_round_trips(steps, close):
    battle = Battle("tank").add(TANK, Side.AXIS).add(RIFLE, Side.AXIS, 3)
    battle = marks(battle, "Tank 1", loaded=False)
    turn = turns.activate(axis_turn(), battle, ["Tank 1", "Rifleman 1"])
    do = {Action.MOVE: turns.move, Action.FIRE: turns.fire, Action.TAKE_COVER: turns.take_cover,
          Action.RELOAD: turns.reload, Action.LEAVE: turns.leave}
    for label, action in steps:
        label = "Tank 1" if label == "Tiger 1" else label
        try:
            if action is Action.HIDE:
                turn, battle = turns.hide(turn, battle, label, cover=True,
                                          nearest_enemy_figure=None)
            else:
                turn, battle = do[action](turn, battle, label)
        except RulesError:
            continue
    if close:
        turn = turns.end_activation(turn)
    assert Turn.from_dict(json.loads(json.dumps(turn.to_dict()))) == turn
    act = turn.activations[0]
    for label in act.labels:  # each action at most once, never fire after moving
        done = [d.action for d in act.done if d.label == label]
        assert len(done) == len(set(done))
        if Action.FIRE in done and Action.MOVE in done:
            assert done.index(Action.FIRE) < done.index(Action.MOVE)


@given(squads=st.lists(st.integers(1, 6), max_size=6), models=st.integers(0, 2))
def test_an_activation_is_allowed_exactly_when_it_fits(squads, models):
    battle = Battle("tank")
    for figures in squads:
        battle = battle.add(RIFLE, Side.AXIS, figures)
    for _ in range(models):
        battle = battle.add(TANK, Side.AXIS)
    labels = [p.label for p in battle.pieces]
    fits = len(labels) >= 1 and models <= 1 and sum(squads) + models <= turns.MAX_PIECES
    try:
        turn = turns.activate(axis_turn(), battle, labels)
    except RulesError:
        assert not fits
    else:
        assert fits and turn.current is not None
        assert turn.current.size == sum(squads) + models


def test_an_active_tank_puts_its_commander_out_and_back_without_an_action(field):
    turn = turns.activate(axis_turn(), field, ["Tiger 1"])
    battle = turns.commander(turn, field, "Tiger 1", out=True)
    assert battle.get("Tiger 1").status.commander_out and turn.current.done == ()
    assert "commander_out" in battle.get("Tiger 1").status.words()
    assert not turns.commander(turn, battle, "Tiger 1", out=False).get(
        "Tiger 1").status.commander_out


@pytest.mark.parametrize(("label", "why"), [
    ("Rifleman 1", "only a closed vehicle's commander"),
    ("Pak 1", "only a closed vehicle's commander"),
])
def test_only_a_closed_vehicle_puts_its_commander_out(field, label, why):
    turn = turns.activate(axis_turn(), field, [label])
    with pytest.raises(RulesError, match=why):
        turns.commander(turn, field, label, out=True)


def test_a_commander_goes_out_only_in_his_vehicle_s_activation(field):
    turn = turns.activate(axis_turn(), field, ["Rifleman 1"])
    with pytest.raises(RulesError, match="is not active"):
        turns.commander(turn, field, "Tiger 1", out=True)
    battle = marks(field, "Tiger 1", commander_killed=True)
    turn = turns.activate(axis_turn(), battle, ["Tiger 1"])
    with pytest.raises(RulesError, match="no commander on the map"):
        turns.commander(turn, battle, "Tiger 1", out=True)
