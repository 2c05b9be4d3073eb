"""Saved fields made data and back by their types (rules/saved.py): the mechanism on a class of
every kind of field, and each class saved by it round-tripping through JSON (hypothesis), with
the saved shapes the hand-written pairs wrote and older saves' missing keys taking defaults."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any

import pytest
from cobi_companion.rules.card import Kind
from cobi_companion.rules.cobra.command import HQState, HQStatus
from cobi_companion.rules.cobra.exits import EDGES, NATIONS, Exit
from cobi_companion.rules.cobra.landing import Landed, Landing, Target
from cobi_companion.rules.cobra.movement import MaStep
from cobi_companion.rules.cobra.replacements import KINDS, SIDES, Replacement
from cobi_companion.rules.cobra.scoresheet import Award, Scoresheet, SpecialRoll
from cobi_companion.rules.cobra.turns import Tracks
from cobi_companion.rules.distance import Comparison, Measurement, Question
from cobi_companion.rules.modifier import Modifier
from cobi_companion.rules.saved import Data, from_data, saved, to_data
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank.overrun import FigureRoll
from cobi_companion.rules.tank.scoring import MatchBattle, ScoreLine, Team
from cobi_companion.rules.tank.turns import Action, Done, Member, Placed, Shot
from cobi_companion.rules.trace import CardValue
from hypothesis import given
from hypothesis import strategies as st


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


class Size(Enum):
    SMALL = 1
    LARGE = 2


@dataclass(frozen=True)
class Inner(Data):
    size: Size
    note: str = ""


@dataclass(frozen=True)
class Everything(Data):
    name: str = field(metadata=saved(key="label", old=("title",)))
    colour: Colour
    count: int
    ratio: float
    flag: bool
    maybe: int | None
    colours: tuple[Colour, ...]
    pair: tuple[int, str | None]
    inners: list[Inner]
    by_colour: dict[Colour, Inner]
    inner: Inner | None = None
    anything: Any = None
    shown: str = field(default="", metadata=saved(to=str.upper, back=str.lower))
    added_later: tuple[int, ...] = ()


inners = st.builds(Inner, st.sampled_from(Size), st.text(max_size=5))
everything = st.builds(
    Everything, st.text(max_size=8), st.sampled_from(Colour), st.integers(), st.floats(
        allow_nan=False, allow_infinity=False), st.booleans(), st.none() | st.integers(),
    st.tuples(st.sampled_from(Colour)).map(tuple) | st.lists(st.sampled_from(Colour)).map(tuple),
    st.tuples(st.integers(), st.none() | st.text(max_size=3)), st.lists(inners, max_size=3),
    st.dictionaries(st.sampled_from(Colour), inners), st.none() | inners,
    st.none() | st.integers() | st.text(max_size=3), st.text("abc", max_size=4),
    st.lists(st.integers(), max_size=3).map(tuple))


def through_json(data: dict[str, Any]) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(json.dumps(data, ensure_ascii=False))
    assert loaded == data               # only JSON's own types
    return loaded


@given(everything)
def test_every_kind_of_field_goes_to_data_and_back(obj: Everything) -> None:
    assert Everything.from_dict(through_json(obj.to_dict())) == obj
    assert from_data(Everything, to_data(obj)) == obj


def test_the_data_of_every_kind_of_field() -> None:
    obj = Everything("Ann", Colour.RED, 3, 0.5, True, None, (Colour.BLUE,), (1, None),
                     [Inner(Size.SMALL)], {Colour.RED: Inner(Size.LARGE, "x")},
                     shown="abc")
    assert obj.to_dict() == {
        "label": "Ann", "colour": "red", "count": 3, "ratio": 0.5, "flag": True,
        "maybe": None, "colours": ["blue"], "pair": [1, None],
        "inners": [{"size": 1, "note": ""}], "by_colour": {"red": {"size": 2, "note": "x"}},
        "inner": None, "anything": None, "shown": "ABC", "added_later": []}
    assert list(obj.to_dict()) == [*obj.to_dict()]   # the fields' order


def test_an_older_save_its_old_names_missing_keys_and_numbers_as_text() -> None:
    old = {"title": "Bo", "colour": "blue", "count": "7", "ratio": 1, "flag": 1,
           "maybe": "2", "colours": [], "pair": ["4", "x"], "inners": [{"size": 2}],
           "by_colour": {}}
    obj = Everything.from_dict(old)
    assert (obj.name, obj.count, obj.maybe, obj.pair, obj.inners) == \
        ("Bo", 7, 2, (4, "x"), [Inner(Size.LARGE)])
    assert (obj.inner, obj.shown, obj.added_later) == (None, "", ())    # the defaults
    with pytest.raises(KeyError, match="colour"):
        Everything.from_dict({k: v for k, v in old.items() if k != "colour"})
    with pytest.raises(ValueError):
        Everything.from_dict({**old, "colour": "green"})


exits = st.builds(Exit, st.integers(1, 28), st.sampled_from(NATIONS), st.sampled_from(EDGES),
                  st.text(max_size=12))
awards = st.builds(Award, st.integers(1, 28), st.text(max_size=8), st.sampled_from(
    ["german", "allied"]), st.integers(-5, 30), st.integers(1, 9), st.none() | exits)
rolls = st.builds(SpecialRoll, st.integers(1, 28), st.text(max_size=8), st.integers(1, 6),
                  st.booleans())
landed = st.builds(Landed, st.sampled_from(Target), st.text(max_size=4), st.integers(1, 6),
                   st.text(max_size=4), st.none() | st.integers(0, 9))
SAVED = st.one_of(
    exits, awards, rolls,
    st.builds(Replacement, st.integers(1, 28), st.sampled_from(SIDES), st.sampled_from(KINDS)),
    st.builds(Scoresheet, st.lists(awards, max_size=3).map(tuple),
              st.lists(rolls, max_size=3).map(tuple)),
    st.builds(HQStatus, st.sampled_from(HQState), st.integers(0, 3),
              st.none() | st.tuples(st.integers(1, 28), st.integers(0, 12))),
    st.builds(Tracks, *[st.integers(-20, 40)] * 5),
    st.builds(Done, st.text(max_size=8), st.sampled_from(Action), st.text(max_size=8)),
    st.builds(Shot, st.text(max_size=8), st.text(max_size=8)),
    st.builds(Member, st.text(max_size=8), st.integers(1, 5), st.booleans()),
    st.builds(Placed, st.text(max_size=8), st.booleans(), st.none() | st.text(max_size=8)),
    st.builds(ScoreLine, st.text(max_size=8), st.sampled_from(Kind), st.integers(0, 9),
              st.text(max_size=8)),
    st.builds(MatchBattle, st.integers(1, 2), st.sampled_from(Team), st.sampled_from(Side),
              st.sampled_from(Team), st.integers(0, 20)),
    landed,
    st.builds(Measurement, st.floats(0, 500), st.floats(0, 5),
              st.lists(st.floats(0, 500), max_size=4).map(tuple), st.floats(-5, 5)),
    st.builds(Question, st.text(max_size=5), st.text(max_size=9), st.floats(0, 100),
              st.sampled_from(Comparison)),
    st.builds(Modifier, st.text(max_size=9), st.integers(-3, 3)),
    st.builds(FigureRoll, st.integers(1, 9), st.integers(1, 6), st.booleans()),
    st.builds(CardValue, st.integers(1000, 9999) | st.text(max_size=5), st.text(max_size=5),
              st.text(max_size=5)),
    st.builds(MaStep, st.text(max_size=5), st.integers(0, 12), st.text(max_size=5),
              st.text(max_size=9), st.booleans()),
    st.builds(Landing, st.lists(st.tuples(st.sampled_from(Target), st.integers(1, 6),
                                          st.none() | st.integers(1, 6)), max_size=3).map(tuple),
              st.lists(landed, max_size=2).map(tuple),
              st.lists(st.sampled_from(Target), max_size=2).map(tuple)))


@given(SAVED)
def test_each_class_saved_by_its_types_round_trips_through_json(obj: Any) -> None:
    assert type(obj).from_dict(through_json(obj.to_dict())) == obj


def test_the_saved_shapes_are_those_the_hand_written_pairs_wrote() -> None:
    """As a save and the command line's JSON have them (key names and order included)."""
    shapes = {
        Award(3, "exit", "allied", 2, 1, Exit(3, "us", "south")):
            '{"turn": 3, "source": "exit", "side": "allied", "vp": 2, "count": 1, '
            '"exit": {"turn": 3, "nation": "us", "edge": "south", "kind": "unit"}}',
        HQStatus(HQState.ACTIVE, 2, (3, 4)):
            '{"state": "active", "given": 2, "displaced": [3, 4]}',
        Done("Tiger 1", Action.FIRE, "hit"):
            '{"piece": "Tiger 1", "action": "fire", "note": "hit", "vehicle": ""}',
        Placed("Squad 1", False, "Truck 1"):
            '{"piece": "Squad 1", "vehicle": false, "riding_with": "Truck 1"}',
        MatchBattle(1, Team.ONE, Side.AXIS, Team.TWO, 4):
            '{"battle": 1, "axis": "team 1", "winner": "axis", "winner_team": "team 2", '
            '"figures": 4}',
        Landing(((Target.US_82, 3, None),), (), (Target.OMAHA,)):
            '{"drops": [["82nd", 3, null]], "attritions": [], "abandoned": ["omaha"], '
            '"markers": []}',
        Tracks(1, 2, 3, 4, 5):
            '{"us": 1, "british": 2, "german": 3, "german_vp": 4, "allied_vp": 5}'}
    for obj, text in shapes.items():
        assert json.dumps(obj.to_dict(), ensure_ascii=False) == text


def test_older_saves_missing_keys_take_the_defaults() -> None:
    assert Award.from_dict({"turn": 1, "source": "s", "side": "german", "vp": 2}) == \
        Award(1, "s", "german", 2, 1, None)
    assert Exit.from_dict({"turn": 2, "nation": "us", "edge": "south"}).kind == "unit"
    assert HQStatus.from_dict({"state": "active"}) == HQStatus()
    assert Scoresheet.from_dict(None) == Scoresheet() == Scoresheet.from_dict({})
    assert Done.from_dict({"piece": "a", "action": "fire"}).note == ""
    assert Done.from_dict({"piece": "a", "action": "move"}).vehicle == ""   # before big squads
