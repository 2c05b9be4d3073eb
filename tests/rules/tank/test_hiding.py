"""Tank Game hiding: who may hide where, and who spots a hidden piece at what distance."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.distance import measure
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.status import Side, Status
from cobi_companion.rules.tank.hiding import can_hide, spots
from hypothesis import given
from hypothesis import strategies as st

RIFLE = validated_card({"id": "rifleman", "name": "Rifleman", "kind": "figure",
                                 "crew": 1})
GUN = validated_card({"id": "bofors", "name": "Bofors 37 mm", "kind": "gun",
                               "crew": 3})
TRUCK = validated_card({"id": "truck", "name": "Truck", "kind": "soft"})

HIDDEN = Status(hidden=True)


def squad(side: Side = Side.AXIS, status: Status | None = None, figures: int = 3) -> Piece:
    return Piece("Rifleman 1", side, RIFLE, status or Status(), figures)


def tank(book, side: Side = Side.ALLIES, status: Status | None = None) -> Piece:
    return Piece("7TP 1", side, book.get(2456), status or Status(), 3)


def gun(side: Side = Side.ALLIES, status: Status | None = None) -> Piece:
    return Piece("Bofors 1", side, GUN, status or Status(), 3)


# --- spotting --------------------------------------------------------------------------------


@pytest.mark.parametrize(("cm", "binoculars", "spotted"), [
    (30, False, True), (29.9, False, True), (30.1, False, False),
    (40, True, True), (30.1, True, True), (40.1, True, False), (0, False, True)])
def test_an_enemy_figure_spots_within_30_cm_or_40_with_binoculars(book, cm, binoculars,
                                                                   spotted):
    hidden = tank(book, status=HIDDEN)
    check = spots(squad(), hidden, cm, binoculars)
    assert check.spotted is spotted
    assert check.after.status.hidden is not spotted
    assert check.distance is not None and check.distance.threshold_cm == (40 if binoculars
                                                                          else 30)


def test_the_reason_names_the_distance_and_the_outcome(book):
    check = spots(squad(), tank(book, status=HIDDEN), 30, True)
    assert check.reason == ("Rifleman 1 (binoculars) at 30 cm (entered) is within 40 cm: yes; "
                            "7TP 1 is revealed")
    data = json.loads(json.dumps(check.to_dict()))
    assert data["spotted"] is True and data["status_after"] == []


def test_a_vehicle_never_spots_a_hidden_figure(book):
    hidden = squad(Side.AXIS, HIDDEN)
    check = spots(tank(book), hidden, 1, True)
    assert not check.spotted and check.after == hidden and check.distance is None
    assert "vehicles cannot see hidden figures" in check.reason


def test_a_gun_never_spots(book):
    check = spots(gun(), squad(Side.AXIS, HIDDEN), 1, False)
    assert not check.spotted and "is a gun: only an enemy figure spots" in check.reason


def test_a_measurement_too_close_to_the_line_asks_for_the_tape(book):
    with pytest.raises(RulesError) as refused:
        spots(squad(), tank(book, status=HIDDEN), measure([29.5, 30.0, 30.5]), False)
    assert str(refused.value) == "30 cm is too close to 30 cm to call: measure with the tape " \
        "and enter the distance"


def test_a_clear_measurement_is_called(book):
    check = spots(squad(), tank(book, status=HIDDEN), measure([20.0, 20.5, 21.0]), False)
    assert check.spotted and check.distance is not None and check.distance.measured


@pytest.mark.parametrize(("spotter", "hidden", "why"), [
    (squad(Side.ALLIES), squad(Side.ALLIES, HIDDEN),
     "Rifleman 1 and Rifleman 1 are on the same side: only an enemy spots a hidden piece"),
    (squad(), gun(), "Bofors 1 is not hidden: there is nothing to spot"),
    # a destroyed gun's crew are figures: only a gun with no crew is out of the fight
    (squad(), gun(status=Status(hidden=True, destroyed=True)).lose_figures(3),
     "Bofors 1 is out of the fight"),
    (squad(figures=0), gun(status=HIDDEN), "Rifleman 1 is out of the fight"),
    (squad(status=Status(off_map=True)), gun(status=HIDDEN), "Rifleman 1 is off the map"),
])
def test_spotting_refusals(spotter, hidden, why):
    with pytest.raises(RulesError) as refused:
        spots(spotter, hidden, 10, False)
    assert str(refused.value) == why


@given(cm=st.floats(0, 200, allow_nan=False), binoculars=st.booleans())
def test_spotted_exactly_when_within_the_distance(cm, binoculars):
    check = spots(squad(), gun(status=HIDDEN), cm, binoculars)
    limit = 40 if binoculars else 30
    assert check.spotted is (round(cm, 3) <= limit)
    assert check.after.status.hidden is not check.spotted


# --- who may hide ----------------------------------------------------------------------------


def test_an_active_figure_in_cover_may_hide():
    check = can_hide(squad(), True, nearest_enemy_figure=31)
    assert check.distance is not None and check.distance.answer is True
    assert "more than 30 cm" in check.reason
    assert json.loads(json.dumps(check.to_dict()))["piece"] == "Rifleman 1"


@pytest.mark.parametrize("cm", [30, 12])
def test_a_figure_within_30_cm_of_an_enemy_figure_may_not_hide(cm):
    with pytest.raises(RulesError, match="not more than 30 cm away"):
        can_hide(squad(), True, nearest_enemy_figure=cm)


@pytest.mark.parametrize("setup", [True, False])
def test_nobody_hides_where_there_is_no_cover(book, setup):
    for piece in (squad(), tank(book), gun()):
        with pytest.raises(RulesError, match="there is no cover"):
            can_hide(piece, False, setup=setup)


def test_vehicles_and_guns_start_hidden_at_set_up_in_cover(book):
    assert can_hide(tank(book), True, setup=True).reason == \
        "at set-up a gun or vehicle in cover may start hidden"
    assert can_hide(gun(), True, setup=True).setup
    assert can_hide(squad(), True, setup=True).reason == "at set-up figures may start hidden"


@pytest.mark.parametrize("piece", ["tank", "gun", "truck"])
def test_vehicles_and_guns_do_not_hide_in_play(book, piece):
    made = {"tank": tank(book), "gun": gun(),
            "truck": Piece("Truck 1", Side.ALLIES, TRUCK)}[piece]
    with pytest.raises(RulesError, match="only figures hide in play"):
        can_hide(made, True, nearest_enemy_figure=100)


def test_a_hidden_or_gone_piece_does_not_hide_again():
    with pytest.raises(RulesError, match=r"^Rifleman 1 is already hidden$"):
        can_hide(squad(status=HIDDEN), True)
    with pytest.raises(RulesError, match=r"^Rifleman 1 is out of the fight$"):
        can_hide(replace(squad(), figures=0), True)


# --- the commander in the turret (rule 11) ---------------------------------------------------
# "The exception is the commander he may sit in the turret and act as a figure for spotting or
# firing the external machinegun."


@pytest.mark.parametrize(("cm", "binoculars", "spotted"), [
    (30, False, True), (30.1, False, False), (40, True, True), (40.1, True, False)])
def test_a_commander_out_in_the_turret_spots_as_a_figure(book, cm, binoculars, spotted):
    """Spotting: "an enemy figure (not vehicles) moves within 30 cm (or 40 cm with
    binoculars)"; the commander out in the turret acts "as a figure for spotting"."""
    hidden = squad(Side.AXIS, HIDDEN)
    check = spots(tank(book, status=Status(commander_out=True)), hidden, cm, binoculars)
    assert check.spotted is spotted and check.commander
    assert check.distance is not None and check.distance.threshold_cm == (40 if binoculars
                                                                          else 30)
    assert check.after.status.hidden is not spotted
    assert check.reason.startswith("7TP 1's commander (out in the turret)")
    data = json.loads(json.dumps(check.to_dict()))
    assert data["commander"] is True and data["spotter_kind"] == "hard"


@pytest.mark.parametrize("marks", [Status(), Status(commander_killed=True),
                                   Status(commander_out=True, commander_killed=True)])
def test_a_vehicle_with_its_commander_inside_or_killed_does_not_spot(book, marks):
    """"an enemy figure (not vehicles)": inside, or killed, no figure of the tank looks out."""
    hidden = squad(Side.AXIS, HIDDEN)
    check = spots(tank(book, status=marks), hidden, 1, True)
    assert not check.spotted and not check.commander and check.after == hidden
    assert "vehicles cannot see hidden figures" in check.reason
    killed = "killed" if marks.commander_killed else "inside"
    assert f"its commander {'was killed' if killed == 'killed' else 'is inside'}" in check.reason


def test_only_a_closed_vehicle_has_a_commander_out(book):
    """"Armored vehicles that are not open topped have all their crew inside the Vehicle. The
    exception is the commander": a soft vehicle marked so still does not spot."""
    truck = Piece("Truck 1", Side.ALLIES, TRUCK, Status(commander_out=True), 2)
    check = spots(truck, squad(Side.AXIS, HIDDEN), 1, False)
    assert not check.spotted and not check.commander and "its crew is inside" in check.reason


@pytest.mark.parametrize("within", [True, False])
def test_the_players_call_spots_without_a_distance(book, within):
    """The box asks the players, as for hiding: the spotter is within its distance or not."""
    hidden = squad(Side.AXIS, HIDDEN)
    check = spots(tank(book, status=Status(commander_out=True)), hidden, None, False,
                  within=within)
    assert check.spotted is within and check.distance is None
    assert "(the players' call)" in check.reason
