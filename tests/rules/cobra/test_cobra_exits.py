"""The record of Allied units exited off a map edge, which 5.3c, 15.2, 15.3, 16.1 and 16.2
read."""
import pytest
from cobi_companion.rules.cobra.exits import Exit, first_exit
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.turns import CobraGame
from cobi_companion.rules.errors import RulesError


def test_exits_are_kept_by_game_turn_and_survive_a_restart():
    """15.2: "the game turn after the first US unit has exited any map edge"; 15.3: "If the US
    player has not exited any units off of the west edge"."""
    game = CobraGame.start("cobra")
    game = game.exit_unit("british", "east", "mech_division")
    game = CobraGame.from_dict({**game.to_dict(), "turn": 18})
    game = game.exit_unit("us", "west", "hq")
    assert [(e.turn, e.nation, e.edge, e.kind) for e in game.exits] == [
        (15, "british", "east", "mech_division"), (18, "us", "west", "hq")]
    assert first_exit(game.exits) == 15                       # any Allied unit (5.3c)
    assert first_exit(game.exits, nation="us") == 18          # a US unit (15.2)
    assert first_exit(game.exits, nation="us", edge="east") is None
    assert CobraGame.from_dict(game.to_dict()) == game


def test_a_game_saved_before_exits_were_kept_loads_with_none():
    data = CobraGame.start("campaign").to_dict()
    del data["exits"]
    assert CobraGame.from_dict(data).exits == ()


@pytest.mark.parametrize(("nation", "edge", "field"), [("german", "west", "nation"),
                                                       ("us", "up", "edge")])
def test_an_exit_names_an_allied_nationality_and_a_map_edge(nation, edge, field):
    """11.2: US and British are the Allied nationalities; 10.4, 10.5: the map's edges."""
    with pytest.raises(RulesError) as refused:
        Exit(16, nation, edge)
    assert refused.value.code is CobraRefusal.UNKNOWN_EXIT
    assert refused.value.values["field"] == field
