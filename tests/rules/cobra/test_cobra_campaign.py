"""The campaign's bookkeeping (rules/cobra/campaign.py, bookkeeping.py): the counts a family
would otherwise keep on paper, each for its game turn and refused beyond it (17.3.11 delay
units, 17.3.12 rail, 17.3.5g Cherbourg), saved and read from an older save; and the reminders,
each in the phase and on the turns it applies to (17.3.3a, 17.3.3d, 17.3.9, 17.3.11g, 13.2e)."""
from __future__ import annotations

import pytest
from cobi_companion.rules.cobra import bookkeeping as books
from cobi_companion.rules.cobra.campaign import Ledger, reminders
from cobi_companion.rules.cobra.combat import Nation
from cobi_companion.rules.cobra.notes import Why
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.cobra.turns import CobraGame
from cobi_companion.rules.errors import RulesError

G, A = Nation.GERMAN, Nation.ALLIED


def at(turn: int, player: Nation, name: str, key: str = "campaign") -> CobraGame:
    """Scenario `key` at phase `name` of `player` on game turn `turn`, every turn clear."""
    game = CobraGame.start(key)
    while not (game.turn == turn and game.phase.player is player and game.phase.name == name):
        if game.phase.name == "weather" and game.this_weather is None:
            game, _ = game.with_weather(Weather.CLEAR)
        game = game.advance()
    return game


def whys(game: CobraGame) -> list[Why]:
    return [note.why for note in books.phase_reminders(game)]


def refused(code: CobraRefusal, call, *args) -> str:
    with pytest.raises(RulesError) as caught:
        call(*args)
    assert caught.value.code is code
    return str(caught.value)


# ---- German delay units (17.3.11) ----

def test_17_3_11a_one_delay_unit_a_turn_from_gt_2_and_a_second_is_refused() -> None:
    """17.3.11a: "Starting on GT 2, one delay unit appears each game turn during the German
    Initial Movement Phase"."""
    game = at(2, G, "initial_movement")
    assert books.delay_offered(game) and not books.delay_offered(at(1, G, "initial_movement"))
    game = books.place_delay(game)
    assert game.ledger.delays == (2,)
    text = refused(CobraRefusal.DELAY_ALREADY, books.place_delay, game)
    assert text == "game turn 2's delay unit is placed already (1 of 6): one a game turn " \
                   "(17.3.11a)"
    assert books.delay_note(game).text.startswith("One delay unit appears (1 of 6 so far)")


def test_17_3_11g_no_delay_unit_after_gt_7_nor_outside_the_campaign() -> None:
    assert books.delay_offered(at(7, G, "initial_movement"))
    assert not books.delay_offered(at(8, G, "initial_movement"))
    refused(CobraRefusal.DELAY_TURNS, Ledger().place_delay, 8, True)
    assert not books.delay_offered(at(16, G, "initial_movement", "cobra"))
    refused(CobraRefusal.DELAY_PHASE, books.place_delay, at(2, G, "combat"))
    # the Battle of the Build-Up plays the campaign's rules (17.4a)
    assert books.delay_offered(at(3, G, "initial_movement", "buildup"))


def test_17_3_11g_the_end_of_gt_7_removes_them() -> None:
    assert Why.DELAYS_REMOVED in whys(at(7, A, "turn_end"))
    assert Why.DELAYS_REMOVED not in whys(at(6, A, "turn_end"))


# ---- rail movement (17.3.12) ----

def test_17_3_12_four_two_one_units_and_a_mechanized_unit_counts_two() -> None:
    """17.3.12a: "Four non-mechanized units may be railed on GT 2; two ... on GT 3; and one
    ... on GT 4"; b) "each mechanized unit is equivalent to two non-mechanized units"."""
    game = at(2, G, "initial_movement")
    assert books.rail_most(game) == 4
    game = books.rail(books.rail(game, True), False)
    assert books.rail_left(game) == 1
    text = refused(CobraRefusal.RAIL_CAPACITY, books.rail, game, True)
    assert text == "1 of 4 left to rail on game turn 2, this needs 2: a mechanized unit " \
                   "counts as two (17.3.12a, 17.3.12b)"
    game = books.rail(game, False)
    assert books.rail_left(game) == 0
    game = books.unrail(game)                     # railed by mistake: taken back
    assert books.rail_left(game) == 1
    assert [books.rail_most(at(t, G, "mechanized_movement")) for t in (3, 4)] == [2, 1]


def test_17_3_12_a_new_turn_has_its_own_capacity_and_none_after_gt_4() -> None:
    game = books.rail(at(3, G, "initial_movement"), True)
    assert books.rail_left(game) == 0
    later = at(4, G, "initial_movement")
    assert books.rail_left(CobraGame.from_dict({**later.to_dict(),
                                                "ledger": game.ledger.to_dict()})) == 1
    assert not books.rail_offered(at(5, G, "initial_movement"))
    refused(CobraRefusal.RAIL_TURNS, books.rail, at(5, G, "initial_movement"), False)
    refused(CobraRefusal.RAIL_PHASE, books.rail, at(2, A, "initial_movement"), False)
    assert not books.rail_offered(at(16, G, "initial_movement", "cobra"))


def test_4_0_g5b_no_foot_unit_railed_in_the_german_mechanized_movement_phase() -> None:
    """4.0 G5: "The German player may move any or all of his panzer, panzergrenadier or
    headquarters units ... No other units may be moved during this phase": by rail neither."""
    game = at(2, G, "mechanized_movement")
    text = refused(CobraRefusal.RAIL_FOOT_MECHANIZED_PHASE, books.rail, game, False)
    assert text == ("in the German Mechanized Movement Phase only panzer, panzer-grenadier and "
                    "HQ units move: rail a foot unit in the Initial Movement Phase (4.0 G5b, "
                    "17.3.12)")
    assert books.rail_left(books.rail(game, True)) == 2
    assert books.rail_note(game).why is Why.RAIL_MECH_ONLY
    assert books.rail_note(at(2, G, "initial_movement")).why is Why.RAIL_LEFT
    assert books.rail_left(books.rail(at(2, G, "initial_movement"), False)) == 3


# ---- Cherbourg (17.3.5g) ----

def test_17_3_5g_cherbourg_supplies_one_german_attack_a_game_turn() -> None:
    """17.3.5g: "Cherbourg may supply one German attack per game turn once the peninsula has
    been cut off"."""
    game = at(5, G, "combat")
    assert books.cherbourg_offered(game, G) and not books.cherbourg_offered(game, A)
    game = books.supply_from_cherbourg(game)
    text = refused(CobraRefusal.CHERBOURG_USED, books.check_cherbourg, game)
    assert text == "Cherbourg has supplied a German attack on game turn 5 already: one a " \
                   "game turn (17.3.5g)"
    assert game.tracks.german == at(5, G, "combat").tracks.german    # no supply points
    books.check_cherbourg(CobraGame.from_dict({**at(6, G, "combat").to_dict(),
                                               "ledger": game.ledger.to_dict()}))
    assert not books.cherbourg_offered(at(16, G, "combat", "cobra"), G)


# ---- saved ----

def test_the_counts_are_saved_and_an_older_save_loads_with_none_used() -> None:
    game = books.supply_from_cherbourg(books.rail(books.place_delay(
        at(2, G, "initial_movement")), True))
    data = game.to_dict()
    assert data["ledger"] == {"delays": [2], "railed": [{"turn": 2, "mechanized": True}],
                              "cherbourg": [2]}
    assert CobraGame.from_dict(data) == game
    del data["ledger"]
    assert CobraGame.from_dict(data).ledger == Ledger()


# ---- the reminders, in their phases and on their turns ----

@pytest.mark.parametrize(("turn", "player", "phase", "expected"), [
    (1, G, "initial_movement", [Why.GT1_GERMAN_MOVES, Why.IN_COLUMN]),
    (1, G, "mechanized_movement", [Why.GT1_GERMAN_MOVES]),
    (2, G, "initial_movement", [Why.IN_COLUMN]),
    (1, G, "combat", []),
    (1, A, "initial_movement", [Why.PARAS_STAY, Why.LAND_HALF_MA]),
    (2, A, "initial_movement", [Why.PARAS_ONE_HEX, Why.LAND_HALF_MA]),
    (1, A, "mechanized_movement", [Why.LAND_HALF_MA]),
    (2, A, "mechanized_movement", [Why.LAND_HALF_MA]),
    (14, A, "initial_movement", [Why.LAND_HALF_MA]),
    (15, A, "initial_movement", []),
    (3, A, "combat", []),
])
def test_each_reminder_in_its_phase_on_its_turns(turn, player, phase, expected) -> None:
    """17.3.3d "In both German Movement Phases of GT 1"; 17.3.3a "Paratroop units may not
    move on GT 1, and may be moved only one hex on GT 2"; 17.3.9 "From GT 1 through 14,
    Allied units land with only half of their MA"; paratroops move only in the Initial
    Movement Phase (4.0 A5b "No other units may be moved during this phase"); 13.2e
    reinforcements "enter in column" (the Allied ones on beach hexes in the campaign, 17.3.9)."""
    assert whys(at(turn, player, phase)) == expected


def test_the_cobra_scenario_reminds_of_the_column_only() -> None:
    assert reminders(False, 16, A, "initial_movement")[0].why is Why.IN_COLUMN
    assert [n.why for n in reminders(False, 16, G, "initial_movement")] == [Why.IN_COLUMN]
    assert reminders(False, 16, G, "mechanized_movement") == ()
    assert reminders(False, 1, A, "initial_movement")[0].why is Why.IN_COLUMN


def test_gt_1_german_movement_names_its_seven_units() -> None:
    note = books.phase_reminders(at(1, G, "initial_movement"))[0]
    assert note.text == ("Game turn 1: the German player may move only the 12th SS Panzer and "
                         "711th Infantry Divisions, and up to 7 other units not next to Allied "
                         "units: 7 for the whole turn, the same ones in both Movement Phases "
                         "(17.3.3d)")


def test_17_3_3a_paratroops_one_hex_is_the_turns() -> None:
    """17.3.3a "may be moved only one hex on GT 2": the game turn's one hex."""
    note = books.phase_reminders(at(2, A, "initial_movement"))[0]
    assert note.text == ("Game turn 2: paratroop units move one hex this turn at most; they "
                         "may retreat and advance in combat (17.3.3a)")
