"""The beach shift marker (17.3.2 step 5f) and the automatic German victory (17.3.13,
17.4.3)."""
from __future__ import annotations

import pytest
from cobi_companion.rules.cobra.combat import Nation, ShiftKind, Unit, odds, parse_shift
from cobi_companion.rules.cobra.landing import Landing, Marker, Target, marker_shift
from cobi_companion.rules.cobra.notes import Why
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.turns import CobraGame, automatic_victory, sequence
from cobi_companion.rules.errors import RulesError


def test_a_beach_shift_marker_shifts_allied_attacks_from_its_hex_left():
    """17.3.2 step 5f: "Place a beach shift marker on the affected hex equal to the number of
    step losses suffered in the beach hex. 1) All Allied attacks originating from that hex must
    suffer the number of shifts to the left equal to the number of shifts"."""
    planned = odds([Unit(8)], [Unit(2)], [marker_shift(1)], turn=2)
    assert (planned.base, planned.column, planned.attacker) == ("4:1", "3:1", Nation.ALLIED)
    assert parse_shift("marker:-2") == marker_shift(2)
    with pytest.raises(RulesError, match="means the allied side attacks"):
        odds([Unit(8)], [Unit(2)], [marker_shift(1)], attacker=Nation.GERMAN)
    with pytest.raises(RulesError) as refused:
        odds([Unit(8)], [Unit(2)], [parse_shift("marker:+1")])
    assert refused.value.code is CobraRefusal.SHIFT_NOT_ALLOWED
    assert planned.shifts[0].kind is ShiftKind.MARKER and planned.shifts[0].rule == \
        "17.3.2 step 5f"


def test_markers_are_placed_added_in_the_same_hex_and_removed():
    """The Juno example: "he must place a beach shift marker on the hex with its -1 side
    showing"; 5f2: "As soon as Allied units advance after combat out of such a hex, the beach
    shift markers are removed"."""
    landing = Landing().marked(Target.JUNO, 1)
    assert landing.markers == (Marker(Target.JUNO, 1),)
    landing = landing.marked(Target.JUNO, 1, onto=0).marked(Target.OMAHA, 2)
    assert landing.markers == (Marker(Target.JUNO, 2), Marker(Target.OMAHA, 2))
    assert Landing.from_dict(landing.to_dict()) == landing
    assert landing.unmarked(0).markers == (Marker(Target.OMAHA, 2),)
    with pytest.raises(RulesError, match="not a beach"):
        landing.marked(Target.US_82, 1)
    with pytest.raises(RulesError) as refused:
        landing.marked(Target.GOLD, 0)
    assert refused.value.code is CobraRefusal.MARKER_STEPS
    assert Landing.from_dict({}).markers == ()            # a game saved before markers


def allied_turn_start(key: str) -> CobraGame:
    game = CobraGame.start(key)
    return CobraGame(game.scenario, 3, next(i for i, p in enumerate(sequence(key, 3))
                                            if p.player is Nation.ALLIED), tracks=game.tracks,
                     last=game.last)


@pytest.mark.parametrize("key", ["buildup", "campaign"])
def test_no_beach_hex_friendly_to_the_allies_ends_the_game(key):
    """17.3.13, 17.4.3: "The game ends and the German player wins an automatic decisive victory
    if, at the beginning of an Allied player turn, there are no beach hexes friendly to the
    Allied player"."""
    over = allied_turn_start(key).beaches_lost()
    assert over.over and over.automatic
    assert CobraGame.from_dict(over.to_dict()).automatic
    level, note = automatic_victory(key)
    assert (level, note.why) == ("Decisive German", Why.AUTOMATIC_VICTORY)


def test_the_automatic_victory_is_only_the_landing_scenarios_and_at_the_allied_turn_start():
    with pytest.raises(RulesError, match="has no landing") as refused:
        automatic_victory("cobra")
    assert refused.value.code is CobraRefusal.NO_LANDING_SCENARIO
    with pytest.raises(RulesError, match="has no landing"):
        CobraGame.start("cobra").beaches_lost()
    with pytest.raises(RulesError, match="beginning of an Allied player turn"):
        CobraGame.start("campaign").beaches_lost()
