"""A battle's parts saved by their types (rules/saved.py): a side's last shot and a match go to
data and back whole, in the shape the hand-written pairs wrote, and an older save's missing
keys take their defaults."""
from __future__ import annotations

import json

from cobi_companion.device.core.battle_state import LastShot, MatchState
from cobi_companion.rules.card import Facing
from cobi_companion.rules.tank.scoring import Match
from hypothesis import given
from hypothesis import strategies as st

shots = st.builds(LastShot, st.text(max_size=8), st.text(max_size=8), st.sampled_from(Facing),
                  st.booleans(), st.none() | st.floats(0, 1000), st.booleans())
matches = st.builds(MatchState, st.integers(1, 2), st.lists(st.fixed_dictionaries(
    {"label": st.text(max_size=6), "side": st.sampled_from(["axis", "allies"])}), max_size=3),
    st.just(Match()))


@given(st.one_of(shots, matches))
def test_a_last_shot_and_a_match_go_to_data_and_back(obj: LastShot | MatchState) -> None:
    assert type(obj).from_dict(json.loads(json.dumps(obj.to_dict()))) == obj


def test_their_saved_shapes_are_those_the_hand_written_pairs_wrote() -> None:
    shot = LastShot("Tiger 1", "Sherman 1", Facing.SIDE, True, 42.5, False)
    assert json.dumps(shot.to_dict()) == (
        '{"firer": "Tiger 1", "target": "Sherman 1", "facing": "side", "hull_down": true, '
        '"range_cm": 42.5, "over": false, "turn": null}')
    match = MatchState(2, [{"label": "Tiger 1"}], Match())
    assert json.dumps(match.to_dict()) == json.dumps(
        {"number": 2, "roster": [{"label": "Tiger 1"}], "record": Match().to_dict()})


def test_an_older_save_without_the_later_keys_takes_their_defaults() -> None:
    assert LastShot.from_dict({"firer": "Tiger 1", "target": "Sherman 1", "facing": "rear"}) \
        == LastShot("Tiger 1", "Sherman 1", Facing.REAR)
    assert MatchState.from_dict({"number": "1", "roster": []}) == MatchState(1, [], Match())
