"""Tank Game ending and winning: the winner of a battle, figures left, the two-battle match."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from cobi_companion.rules.battle import Battle
from cobi_companion.rules.card import CardValueMissing
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank.scoring import (
    TEAMS,
    BattleResult,
    Match,
    Score,
    Team,
    battle_result,
    figures_left,
    score,
    winner,
)
from hypothesis import given
from hypothesis import strategies as st

RIFLE = validated_card({"id": "rifleman", "name": "Rifleman", "kind": "figure",
                                 "crew": 1})
GUN = validated_card({"id": "pak-36", "name": "Pak 36", "kind": "gun", "crew": 3})


def marks(battle: Battle, label: str, **values: bool) -> Battle:
    piece = battle.get(label)
    return battle.replace_piece(replace(piece, status=replace(piece.status, **values)))


@pytest.fixture
def field(book) -> Battle:
    """Axis: Tiger 1 (crew 5), Rifleman 1 (4), Pak 1 (3); Allies: Sherman 1 (5), 7TP 1 (3)."""
    return Battle("tank").add(book.get(2477), Side.AXIS).add(RIFLE, Side.AXIS, 4) \
        .add(GUN, Side.AXIS).add(book.get(2464), Side.ALLIES).add(book.get(2456), Side.ALLIES)


def allies_out(battle: Battle) -> Battle:
    return marks(marks(battle, "Sherman 1", destroyed=True), "7TP 1", destroyed=True)


# --- the winner ------------------------------------------------------------------------------


def test_no_winner_while_both_sides_have_pieces(field):
    assert winner(field) is None


def test_a_side_with_no_pieces_left_loses(field):
    assert winner(allies_out(field)) is Side.AXIS


def test_a_side_that_gives_up_loses(field):
    assert winner(field, gave_up=Side.AXIS) is Side.ALLIES
    assert winner(allies_out(field), gave_up=Side.AXIS) is Side.ALLIES


def test_pieces_off_the_map_and_immobilized_vehicles_are_pieces_left(field):
    battle = marks(marks(field, "Sherman 1", destroyed=True), "7TP 1", immobilized=True)
    assert winner(battle) is None
    battle = marks(marks(field, "Sherman 1", destroyed=True), "7TP 1", off_map=True)
    assert winner(battle) is None


def test_a_squad_with_no_figure_left_is_no_piece_left(book):
    battle = Battle("tank").add(book.get(2477), Side.AXIS).add(RIFLE, Side.ALLIES, 2)
    battle = battle.replace_piece(battle.get("Rifleman 1").lose_figures(2))
    assert winner(battle) is Side.AXIS


def test_a_battle_not_over_has_no_result(field):
    with pytest.raises(RulesError, match="the battle is not over"):
        battle_result(field)


# --- figures left ----------------------------------------------------------------------------


def test_figures_left_counts_squads_gun_crews_and_vehicle_crew_values(field):
    battle = field.replace_piece(field.get("Pak 1").lose_figures(1))
    battle = battle.replace_piece(battle.get("Tiger 1").lose_figures(3))  # crew value counts
    result = score(battle, Side.AXIS)
    assert [(line.label, line.figures) for line in result.lines] == \
        [("Tiger 1", 5), ("Rifleman 1", 4), ("Pak 1", 2)]
    assert result.total == 11 == figures_left(battle, Side.AXIS)
    assert result.lines[0].why == "vehicle: Crew 5 on the card"
    assert result.lines[2].why == "gun crew: 2 left"


def test_pieces_out_of_the_fight_count_nothing(field):
    battle = marks(field, "Tiger 1", destroyed=True)
    battle = battle.replace_piece(battle.get("Rifleman 1").lose_figures(4))
    result = score(battle, Side.AXIS)
    assert [(line.figures, line.why) for line in result.lines] == \
        [(0, "destroyed"), (0, "destroyed"), (3, "gun crew: 3 left")]


def test_immobilized_and_off_map_pieces_still_count(field):
    battle = marks(marks(field, "Sherman 1", immobilized=True, weakened=True), "7TP 1",
                   off_map=True)
    result = score(battle, Side.ALLIES)
    assert result.total == 8
    assert result.lines[1].why.endswith("(off the map)")


def test_an_unknown_crew_value_refuses_naming_the_card_file(book):
    battle = Battle("tank").add(book.get(2508), Side.AXIS)
    with pytest.raises(CardValueMissing, match=r"2508.*2508-pz-iv-h\.toml.*crew"):
        figures_left(battle, Side.AXIS)


def test_a_crew_printed_none_counts_nothing():
    drone = validated_card({"id": "goliath", "name": "Goliath", "kind": "hard",
                                     "crew": "none"})
    battle = Battle("tank").add(drone, Side.AXIS)
    assert figures_left(battle, Side.AXIS) == 0


def test_score_round_trips(field):
    result = score(field, Side.AXIS)
    assert Score.from_dict(json.loads(json.dumps(result.to_dict()))) == result
    assert result.to_dict()["total"] == 12


# --- the match -------------------------------------------------------------------------------


def test_sides_are_swapped_for_the_second_battle():
    assert Match.team(1, Side.AXIS) is Team.ONE and Match.team(1, Side.ALLIES) is Team.TWO
    assert Match.team(2, Side.AXIS) is Team.TWO and Match.team(2, Side.ALLIES) is Team.ONE
    assert Match.side(2, Team.ONE) is Side.ALLIES
    with pytest.raises(RulesError, match="battles 1 and 2, not 3"):
        Match.team(3, Side.AXIS)


def test_only_each_battles_winner_scores(field):
    axis_won = battle_result(allies_out(field))            # battle 1: team 1 is Axis, 12 left
    allies_won = battle_result(field, gave_up=Side.AXIS)   # battle 2: team 1 is Allies, 8 left
    assert (axis_won.winner, axis_won.figures) == (Side.AXIS, 12)
    assert (allies_won.winner, allies_won.figures, allies_won.gave_up) == \
        (Side.ALLIES, 8, Side.AXIS)
    match = Match().record(axis_won)
    assert match.next_battle == 2 and match.totals() == {Team.ONE: 12, Team.TWO: 0}
    match = match.record(allies_won)
    result = match.result()
    assert result.totals == {Team.ONE: 20, Team.TWO: 0}
    assert result.winner is Team.ONE and not result.draw
    assert result.reason == "team 1: 12 + 8 = 20; team 2: 0 + 0 = 0: team 1 wins"
    assert [b.winner_team for b in result.battles] == [Team.ONE, Team.ONE]


def test_the_higher_total_wins_and_equal_totals_are_a_draw(field):
    axis_won = battle_result(allies_out(field))   # 12 figures for the Axis side
    match = Match().record(axis_won).record(axis_won)
    result = match.result()
    assert result.totals == {Team.ONE: 12, Team.TWO: 12}
    assert result.draw and result.winner is None
    assert result.reason.endswith("equal totals, a draw")
    fewer = battle_result(allies_out(marks(field, "Tiger 1", destroyed=True)))  # 7 left
    result = Match().record(fewer).record(axis_won).result()
    assert result.winner is Team.TWO and result.totals == {Team.ONE: 7, Team.TWO: 12}


def test_the_match_refuses_a_third_battle_and_a_result_before_two(field):
    done = battle_result(allies_out(field))
    with pytest.raises(RulesError, match="needs both battles: 1 of 2 recorded"):
        Match().record(done).result()
    with pytest.raises(RulesError, match="the match is over"):
        Match().record(done).record(done).record(done)


def test_the_match_round_trips_through_json(field):
    match = Match().record(battle_result(allies_out(field))) \
        .record(battle_result(field, gave_up=Side.AXIS))
    data = json.loads(json.dumps(match.to_dict()))
    assert Match.from_dict(data) == match
    assert Match.from_dict(json.loads(json.dumps(Match().to_dict()))) == Match()
    out = json.loads(json.dumps(match.result().to_dict()))
    assert out["winner"] == "team 1" and out["totals"] == {"team 1": 20, "team 2": 0}


results = st.builds(
    lambda side, figures: BattleResult(side, None, Score(side, ())) if figures == 0 else
    BattleResult(side, None, Score.from_dict({"side": side.value, "lines": [
        {"piece": "Rifleman 1", "kind": "figure", "figures": figures, "why": ""}]})),
    st.sampled_from(list(Side)), st.integers(0, 40))


@given(first=results, second=results)
def test_the_match_winner_has_the_higher_total(first, second):
    result = Match().record(first).record(second).result()
    totals = result.totals
    assert sum(totals.values()) == first.figures + second.figures
    if totals[Team.ONE] == totals[Team.TWO]:
        assert result.draw
    else:
        assert result.winner is max(TEAMS, key=lambda t: totals[t])
    # the same two battles with the teams' roles swapped give the other team the same total
    swapped = Match().record(replace(first, winner=first.winner.enemy)) \
        .record(replace(second, winner=second.winner.enemy)).result()
    assert swapped.totals == {Team.ONE: totals[Team.TWO], Team.TWO: totals[Team.ONE]}

