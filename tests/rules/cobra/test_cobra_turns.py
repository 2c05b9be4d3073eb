"""Cobra's turn record: scenarios, the sequence of play, supply points and victory."""
from __future__ import annotations

from dataclasses import replace

import pytest
from cobi_companion.rules.cobra.combat import (
    Nation,
    Odds,
    Unit,
    carpet_odds,
    odds,
    parse_shift,
)
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.cobra.turns import (
    SCENARIOS,
    CobraGame,
    marginal,
    player_turn,
    sequence,
    victory,
)
from cobi_companion.rules.errors import RulesError


def test_scenario_lengths():
    assert {k: s.turns for k, s in SCENARIOS.items()} == {
        "cobra": 13, "alternate": 13, "buildup": 14, "campaign": 27}


def test_the_cobra_scenario_starts_on_turn_15_with_its_supply_points():
    game = CobraGame.start("cobra")
    assert (game.turn, game.phase.name, game.phase.player) == (15, "weather", Nation.GERMAN)
    assert (game.tracks.us, game.tracks.british, game.tracks.german) == (3, 4, 4)


def test_the_sequence_of_play():
    names = [(p.player.value, p.name) for p in sequence("cobra", 15)]
    assert names == [("german", "weather"), ("german", "replacement"),
                     ("german", "initial_movement"), ("german", "combat"),
                     ("german", "mechanized_movement"), ("allied", "supply"),
                     ("allied", "replacement"), ("allied", "initial_movement"),
                     ("allied", "combat"), ("allied", "mechanized_movement"),
                     ("allied", "turn_end")]
    assert sequence("campaign", 1)[0].name == "landing"
    assert sequence("campaign", 2)[0].name == "weather"


def play_turn(game: CobraGame, weather: Weather, us: int = 0, british: int = 0) -> CobraGame:
    game, _ = game.with_weather(weather)
    while game.phase.name != "supply":
        game = game.advance()
    game, _ = game.receive_allied(us, british)
    while game.phase.name != "turn_end":
        game = game.advance()
    return game.advance()


def test_german_supply_from_the_weather_stops_at_12():
    game, note = CobraGame.start("cobra").with_weather(Weather.STORM)
    assert game.tracks.german == 7 and "+3" in note.text
    assert note.values == {"gain": 3, "weather": "storm"}
    game, note = CobraGame.start("cobra").adjust("german", 7).with_weather(Weather.OVERCAST)
    assert game.tracks.german == 12 and "stops at 12" in note.text
    assert note.values == {"gain": 2, "weather": "overcast", "most": 12}
    assert CobraGame.start("cobra").adjust("german", 20).tracks.german == 12


def test_allied_supply_halved_in_storms_and_none_on_the_first_storm():
    game = CobraGame.start("cobra")
    game = play_turn(game, Weather.CLEAR, us=4, british=3)
    assert (game.tracks.us, game.tracks.british) == (7, 7)
    game = play_turn(game, Weather.STORM, us=4, british=3)          # the first storm
    assert (game.tracks.us, game.tracks.british) == (7, 7)
    game = play_turn(game, Weather.STORM, us=4, british=3)          # halved, rounded up
    assert (game.tracks.us, game.tracks.british) == (9, 9)
    assert game.turn == 18 and game.history() == [Weather.CLEAR, Weather.STORM, Weather.STORM]


def test_no_allied_supply_points_on_turns_1_and_2_of_the_long_scenarios():
    game = CobraGame.start("campaign").advance()
    game = play_turn(game, Weather.CLEAR, us=5, british=5)
    assert (game.turn, game.tracks.us) == (2, 0)


def test_attacks_pay_supply_points_or_go_unsupplied():
    game = CobraGame.start("cobra")
    game, paid = game.spend("german")
    assert paid and game.tracks.german == 2
    game, paid = game.spend("german")
    game, paid = game.spend("german")
    assert not paid and game.tracks.german == 0
    game, paid = game.spend("us")
    assert paid and game.tracks.us == 2


def test_the_weather_phase_needs_the_weather():
    with pytest.raises(RulesError, match="needs the weather"):
        CobraGame.start("cobra").advance()


def test_the_last_turn_ends_the_game():
    game = CobraGame.start("cobra")
    for turn in range(15, 28):
        assert game.turn == turn
        game = play_turn(game, Weather.OVERCAST)
    assert game.over and game.turn == 27


def test_the_campaign_may_go_on_to_turn_28():
    game = CobraGame.start("campaign")
    game = game.__class__(**{**game.__dict__, "turn": 27, "step": 0,
                             "weather": tuple([Weather.OVERCAST] * 26)})
    game = game.with_weather(Weather.CLEAR)[0]
    while game.phase.name != "turn_end":
        game = game.advance() if game.phase.name != "supply" else \
            game.receive_allied(0, 0)[0].advance()
    with pytest.raises(RulesError, match="4-6"):
        game.advance()
    assert game.advance(extension_die=3).over
    longer = game.advance(extension_die=5)
    assert (longer.turn, longer.last, longer.over) == (28, 28, False)


def test_json_round_trip():
    game = play_turn(CobraGame.start("buildup").advance(), Weather.CLEAR).adjust("german_vp", 3)
    assert CobraGame.from_dict(game.to_dict()) == game


@pytest.mark.parametrize(("frontline", "german", "allied", "level"), [
    (False, 0, 14, "Marginal Allied"), (False, 14, 0, "Marginal Allied"),
    (False, 15, 0, "Draw"), (False, 29, 0, "Draw"), (False, 0, 15, "Operational Allied"),
    (False, 30, 0, "Marginal German"), (True, 0, 0, "Marginal German"),
    (True, 0, 100, "Decisive Allied"), (True, 100, 0, "Decisive German")])
def test_victory_levels(frontline, german, allied, level):
    assert victory("cobra", frontline, german, allied)[0] == level


def test_the_allies_attack_free_on_the_campaigns_first_two_turns() -> None:
    from cobi_companion.rules.cobra.turns import SCENARIOS, CobraGame

    first = next(k for k, s in SCENARIOS.items() if s.first == 1)
    game = CobraGame.start(first)
    assert game.allied_supply_free
    assert CobraGame(first, 2).allied_supply_free
    assert not CobraGame(first, 3).allied_supply_free
    later = next((k for k, s in SCENARIOS.items() if s.first > 1), None)
    if later is not None:
        assert not CobraGame.start(later).allied_supply_free


@pytest.mark.parametrize(("held", "german", "allied", "level"), [
    (True, 0, 0, "Marginal Allied"), (False, 0, 0, "Marginal German"),
    (False, 0, 15, "Draw"), (True, 15, 0, "Draw"), (True, 0, 20, "Operational Allied")])
def test_the_build_up_asks_for_its_objectives_not_the_front_line(held, german, allied, level):
    """17.4.2: "Rules 16.3.1 and 16.3.2 (Marginal Victories) are modified as follows: a)
    Bayeux (all three hexes), Isigny and Carentan must all be Allied controlled. b) Cherbourg
    must not be connected by primary road to a south or east map edge. c) If the Allied
    player fails to accomplish that, the result is a Marginal German Victory (subject to VP
    shifts)." A yes is the Allies' there, the Germans' in the front-line question."""
    asked = marginal("buildup")
    assert (asked.key, asked.rule, asked.yes, asked.no) == (
        "objectives", "17.4.2", "Marginal Allied", "Marginal German")
    assert "Bayeux" in asked.question and "Cherbourg" in asked.question
    assert victory("buildup", held, german, allied)[0] == level


@pytest.mark.parametrize("key", ["cobra", "alternate", "campaign"])
def test_the_other_scenarios_ask_for_the_front_line(key):
    """16.3.2: "The German player is able to trace a frontline composed of continuous units
    or their ZOC from hex 4901 Map A to 0823 Map A": a Marginal German Victory."""
    assert marginal(key).key == "frontline"
    assert victory(key, True, 0, 0)[0] == "Marginal German"
    assert victory(key, False, 0, 0)[0] == "Marginal Allied"


def test_the_german_vp_go_below_zero_and_the_net_is_allied_minus_german():
    """15.2b: "Each attempt (whether it succeeds or not) costs the German player one VP";
    18.0: "Each group of forces requires the German to lose the designated number of
    victory points". 16.3: "Players subtract the German total from the Allied total"."""
    game = CobraGame.start("cobra").adjust("german_vp", -15).adjust("allied_vp", 4)
    assert (game.tracks.german_vp, game.tracks.net_vp) == (-15, 19)
    assert CobraGame.from_dict(game.to_dict()) == game
    assert game.adjust("allied_vp", -10).tracks.allied_vp == 0     # no rule takes them away
    assert victory("cobra", False, game.tracks.german_vp, game.tracks.allied_vp)[0] == \
        "Operational Allied"


def test_the_landing_is_in_neither_player_turn():
    """17.3.2: "the German player turn on GT 1 is preceded by a unique Allied Landing
    Phase": the Allied player turn of GT 1 has its six phases, as every other turn."""
    allied = player_turn("campaign", 1, Nation.ALLIED)
    assert [p.name for p in allied] == [p.name for p in player_turn("campaign", 2,
                                                                     Nation.ALLIED)]
    assert len(allied) == 6 and "landing" not in [p.name for p in allied]
    assert len(player_turn("buildup", 1, Nation.GERMAN)) == 5


def at_combat(turn: int, weather: Weather, player: Nation, key: str = "cobra") -> CobraGame:
    """Game turn `turn` of scenario `key` at `player`'s Combat Phase, in `weather`."""
    game = CobraGame.start(key)
    played = tuple([weather] * (turn - game.first_turn + 1))
    step = next(i for i, p in enumerate(sequence(key, turn))
                if p.name == "combat" and p.player is player)
    return CobraGame(game.scenario, turn, step, played, game.tracks, game.last)


def with_air(shift: str, attacker: Nation, turn: int = 16) -> Odds:
    return odds([Unit(6)], [Unit(2)], [parse_shift(shift)], attacker=attacker, turn=turn)


def test_supply_points_are_spent_when_the_attack_is_made():
    """11.0: "In order to initiate any supplied combat, you must expend supply points": the
    points go with the attack made (`pay_attack`), not with one planned (`check_support`)."""
    game = at_combat(16, Weather.CLEAR, Nation.GERMAN)
    planned = odds([Unit(6)], [Unit(2)], attacker=Nation.GERMAN, turn=16)
    game.check_support(planned)
    assert game.tracks.german == 4
    paid, supplied = game.pay_attack(planned, "german")
    assert supplied and paid.tracks.german == 2                      # 2 SP (11.0b)
    unpaid, supplied = game.pay_attack(planned, None)
    assert not supplied and unpaid.tracks == game.tracks


def test_air_points_of_a_turn_are_spent_one_an_attack():
    """14.0: "During every clear weather game turn the Allied player has the use of six air
    points (AP). a) The number of AP is reduced to three during overcast turns"; 14.1b: "If
    some AP are not used, they are not accrued"."""
    game = at_combat(16, Weather.OVERCAST, Nation.ALLIED)
    planned = with_air("air:+1", Nation.ALLIED)
    for _ in range(3):
        game, _ = game.pay_attack(planned, None)
    assert (game.air_used, game.air_left) == (3, 0)
    with pytest.raises(RulesError, match="0 air points left, this needs 1") as refused:
        game.check_support(planned)
    assert refused.value.code is CobraRefusal.AIR_POINTS_LEFT
    while game.turn == 16:
        game = game.advance() if game.phase.name != "weather" else \
            game.with_weather(Weather.CLEAR)[0].advance()
    game = game.with_weather(Weather.CLEAR)[0]
    assert (game.air_used, game.air_left) == (0, 3)        # German phase: half of 6 (14.1a)


def test_in_the_german_combat_phase_half_the_air_points():
    """14.1a: "Up to one half of the available Allied AP may be used as defensive support
    during the German Combat Phase ... AP used in this manner are expended"."""
    game = at_combat(16, Weather.CLEAR, Nation.GERMAN)
    planned = with_air("air:-1", Nation.GERMAN)
    for _ in range(3):
        game, _ = game.pay_attack(planned, "german" if game.tracks.german >= 2 else None)
    with pytest.raises(RulesError, match="0 air points left"):
        game.check_support(planned)
    game = game.advance()
    while game.phase.name != "combat":
        game = game.advance() if game.phase.name != "supply" else \
            game.receive_allied(0, 0)[0].advance()
    assert game.phase.player is Nation.ALLIED
    assert game.air_left == 3                               # 6, less the 3 spent defending


def test_no_air_points_on_game_turn_1_of_the_landing():
    """17.3.10: "Important: The Allied player receives no AP on GT 1." """
    game = at_combat(1, Weather.CLEAR, Nation.ALLIED, "campaign")
    assert game.air_left == 0
    assert at_combat(2, Weather.OVERCAST, Nation.ALLIED, "campaign").air_left == 3


@pytest.mark.parametrize(("turn", "weather", "points"), [
    (2, Weather.OVERCAST, 6), (4, Weather.CLEAR, 3), (11, Weather.CLEAR, 2),
    (16, Weather.STORM, 1)])
def test_naval_points_of_a_turn(turn, weather, points):
    """14.4: "GT 2 and 3: 6 NSP. GT 4 through 10: 3 NSP. GT 11 through 27: 2 NSP. Important:
    During storms weather conditions no more than one NSP may be used"; "NSP may not be
    saved from game turn to game turn"."""
    key = "cobra" if turn >= 15 else "campaign"
    game = at_combat(turn, weather, Nation.ALLIED, key)
    assert game.naval_left == points
    one = odds([Unit(6)], [Unit(2)], [parse_shift("naval:+1")], turn=turn)
    for _ in range(points):
        game, _ = game.pay_attack(one, None)
    with pytest.raises(RulesError, match="0 naval support points left") as refused:
        game.check_support(one)
    assert refused.value.code is CobraRefusal.NAVAL_POINTS_LEFT


def test_carpet_bombing_spends_three_air_points_and_a_mission():
    """14.3e: "Carpet bombing requires three AP"; 14.3f: "one carpet bombing attack during GTs 5
    through 14 ... two more ... between GT 15 and the end of the game"."""
    game = replace(at_combat(16, Weather.CLEAR, Nation.ALLIED), carpet_plan=16)   # 14.3a
    planned = carpet_odds(turn=16)
    game, supplied = game.pay_attack(planned, None)
    assert not supplied and game.tracks == CobraGame.start("cobra").tracks   # no SP
    assert (game.air_used, game.air_left, game.carpets) == (3, 3, (16,))
    with pytest.raises(RulesError, match="no carpet bombing mission left"):
        game.check_support(planned)                          # one a game turn
    again = CobraGame.from_dict(game.to_dict())
    assert again == game and again.to_dict()["carpets"] == [16]
    overcast = replace(at_combat(17, Weather.OVERCAST, Nation.ALLIED), carpet_plan=17)
    with pytest.raises(RulesError, match="clear weather"):
        overcast.check_support(carpet_odds(turn=17))


def test_a_game_saved_before_the_air_and_naval_points_loads():
    data = at_combat(16, Weather.CLEAR, Nation.ALLIED).to_dict()
    for key in ("air_used", "naval_used", "carpets"):
        del data[key]
    game = CobraGame.from_dict(data)
    assert (game.air_used, game.naval_used, game.carpets) == (0, 0, ())


def budget(game: CobraGame, kind: str) -> tuple[int, int, int, int]:
    found = next(b for b in game.budgets() if b.kind == kind)
    return found.given, found.most, found.used, found.left


def test_the_air_points_on_the_tracks_are_the_turns_half_of_them_on_defence():
    """14.0: six AP in clear weather; 14.1a: "Up to one half of the available Allied AP may be
    used as defensive support during the German Combat Phase ... AP used in this manner are
    expended and may not be used during the Allied Combat Phase"."""
    german = at_combat(16, Weather.CLEAR, Nation.GERMAN)
    assert budget(german, "air") == (6, 3, 0, 3)
    german, _ = german.pay_attack(with_air("air:-1", Nation.GERMAN), "german")
    assert budget(german, "air") == (6, 3, 1, 2)
    allied = replace(german, step=next(i for i, p in enumerate(sequence("cobra", 16))
                                       if p.name == "combat" and p.player is Nation.ALLIED))
    assert budget(allied, "air") == (6, 6, 1, 5)
    assert next(b for b in allied.budgets() if b.kind == "air").to_dict()["rule"] == "14.0"
    assert budget(at_combat(16, Weather.OVERCAST, Nation.ALLIED), "air") == (3, 3, 0, 3)
    assert budget(at_combat(16, Weather.STORM, Nation.ALLIED), "air") == (0, 0, 0, 0)


def test_no_air_points_on_the_tracks_on_game_turn_1():
    """17.3.10: "The Allied player receives no AP on GT 1"."""
    game = at_combat(1, Weather.CLEAR, Nation.ALLIED, "campaign")
    assert budget(game, "air") == (0, 0, 0, 0)
    assert game.budgets()[0].rule == "17.3.10"


def test_the_naval_points_on_the_tracks_are_the_turns_one_in_storms():
    """14.4: "GT 2 and 3: 6 NSP. GT 4 through 10: 3 NSP. GT 11 through 27: 2 NSP. ... During
    storms weather conditions no more than one NSP may be used"."""
    assert budget(at_combat(3, Weather.OVERCAST, Nation.ALLIED, "campaign"), "naval") == \
        (6, 6, 0, 6)
    game = at_combat(16, Weather.STORM, Nation.ALLIED)
    assert budget(game, "naval") == (2, 1, 0, 1)
    game, _ = game.pay_attack(odds([Unit(6)], [Unit(2)], [parse_shift("naval:1")],
                                   attacker=Nation.ALLIED, turn=16), "us")
    assert budget(game, "naval") == (2, 1, 1, 0)


def test_the_carpet_missions_on_the_tracks_are_those_of_the_period():
    """14.3f: "one carpet bombing attack during GTs 5 through 14 ... a total of two more
    carpet bombing attacks between GT 15 and the end of the game"."""
    assert budget(at_combat(4, Weather.CLEAR, Nation.ALLIED, "campaign"), "carpet") == \
        (0, 0, 0, 0)
    early = at_combat(5, Weather.CLEAR, Nation.ALLIED, "campaign")
    assert budget(early, "carpet") == (1, 1, 0, 1)
    planned = replace(at_combat(16, Weather.CLEAR, Nation.ALLIED), carpet_plan=16)
    game, _ = planned.pay_attack(carpet_odds(turn=16), None)
    assert budget(game, "carpet") == (2, 2, 1, 1)       # one to come (14.3f)
    later = replace(at_combat(17, Weather.CLEAR, Nation.ALLIED), carpets=game.carpets)
    assert budget(later, "carpet") == (2, 2, 1, 1)


def test_half_the_overcast_air_points_on_defence_rounds_up():
    """14.1a: "Up to one half of the available Allied AP may be used as defensive support";
    2.6: "Fractional and decimal values are rounded up unless specified otherwise": half of
    the three overcast AP is 1½, rounded up to 2 (not 1)."""
    german = at_combat(16, Weather.OVERCAST, Nation.GERMAN)
    assert budget(german, "air") == (3, 2, 0, 2)
    assert german.air_left == 2
    planned = with_air("air:-1", Nation.GERMAN)
    german, _ = german.pay_attack(planned, "german")
    german, _ = german.pay_attack(planned, "german")
    assert budget(german, "air") == (3, 2, 2, 0)
    allied = replace(german, step=next(i for i, p in enumerate(sequence("cobra", 16))
                                       if p.name == "combat" and p.player is Nation.ALLIED))
    assert budget(allied, "air") == (3, 3, 2, 1)         # the two spent defending are gone
