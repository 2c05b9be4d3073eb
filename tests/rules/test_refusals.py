"""Every refusal of the rules is typed: a `Refusal` code and the values it names (its English
is the code's own template: tests/words/test_rules_english.py). The raise sites are read from
the source, so a refusal no test reaches is checked too."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import cobi_companion.cards as cards_package
import cobi_companion.rules as rules_package
import pytest
from cobi_companion.rules.battle import Battle
from cobi_companion.rules.card import CardValueMissing, Facing
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.easy.refusals import EasyRefusal
from cobi_companion.rules.errors import Coded, Refusal, RulesError
from cobi_companion.rules.shot import ShotPlan, check_can_fire
from cobi_companion.rules.status import Side, Status
from cobi_companion.rules.tank import turns
from cobi_companion.rules.tank.hard_fire import odds
from cobi_companion.rules.tank.refusals import TankRefusal

SOURCES = [*sorted(Path(rules_package.__file__).parent.rglob("*.py")),
           *(Path(cards_package.__file__).parent / name for name in ("book.py", "loader.py"))]
REFUSERS = {"RulesError", "CardValueMissing", "MissingValue", "BandOverlap"}
# The shared refusals, and each game's own, by the name the rules write them with.
ENUMS: dict[str, type[Coded]] = {"Refusal": Refusal, "EasyRefusal": EasyRefusal,
                                 "TankRefusal": TankRefusal, "CobraRefusal": CobraRefusal}
EVERY = [code for enum in ENUMS.values() for code in enum]


@dataclass(frozen=True)
class Site:
    where: str
    code: Coded
    names: frozenset[str]


def _name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr \
        if isinstance(func, ast.Attribute) else ""


def _codes(call: ast.Call) -> list[str]:
    return [arg.attr for arg in call.args if isinstance(arg, ast.Attribute)
            and isinstance(arg.value, ast.Name) and arg.value.id in ENUMS]


def calls() -> list[tuple[str, ast.Call]]:
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [(f"{path.name}:{node.lineno}", node) for node in ast.walk(tree)
                  if isinstance(node, ast.Call)]
    return found


def raise_sites() -> list[Site]:
    """Each call that names a Refusal member: the member and the names of its values."""
    return [Site(where, ENUMS[_enum(call)][codes[0]],
                 frozenset(k.arg for k in call.keywords if k.arg))
            for where, call in calls() if (codes := _codes(call))]


def _enum(call: ast.Call) -> str:
    return next(arg.value.id for arg in call.args if isinstance(arg, ast.Attribute)
                and isinstance(arg.value, ast.Name) and arg.value.id in ENUMS)


SITES = raise_sites()


def test_every_refusal_is_raised_with_a_code() -> None:
    # A helper that passes a code on takes it as `code`.
    untyped = [where for where, call in calls() if _name(call) in REFUSERS
               and not _codes(call) and not any(isinstance(a, ast.Name) and a.id == "code"
                                               for a in call.args)
               and _name(call) != "CardValueMissing"]
    assert untyped == []


@pytest.mark.parametrize("site", SITES, ids=lambda s: f"{s.where}-{s.code.name}")
def test_a_raise_site_gives_the_values_its_code_names(site: Site) -> None:
    assert site.names == set(site.code.names)


def test_every_code_is_raised_somewhere() -> None:
    assert {s.code for s in SITES} == set(EVERY)


def test_codes_are_unique_and_their_names_are_words() -> None:
    assert len({code.value for code in EVERY}) == len(EVERY)    # across the games too
    assert all(name.isidentifier() for code in EVERY for name in code.names)


OWNED: dict[str, type[Coded]] = {"easy": EasyRefusal, "tank": TankRefusal, "cobra": CobraRefusal}


def test_each_game_owns_its_refusals_and_the_shared_enum_only_what_is_shared() -> None:
    """An Easy level code is raised only by the Easy level's rules, a Tank Game code only by
    the Tank Game's, a Cobra code only by Cobra's; a shared code by rules of more than one
    level (or the cards), never by one game alone."""
    where: dict[Coded, set[str]] = {}
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # rules/distance.py, shared with the range sensors, raises only the Tank Game's codes
        game = "tank" if path.stem == "distance" else path.parent.name \
            if path.parent.name in OWNED else "shared"
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and (codes := _codes(node)):
                where.setdefault(ENUMS[_enum(node)][codes[0]], set()).add(game)
    for game, enum in OWNED.items():
        assert {code for code, games in where.items() if games != {game}} & set(enum) \
            == set(), f"{enum.__name__} raised outside {game}'s rules"
    assert {code for code, games in where.items() if len(games) == 1 and games != {"shared"}} \
        & set(Refusal) == set()


# ---- refusals as the rules raise them ----


def test_an_unloaded_gun_is_refused_with_its_sentence_and_its_values(book) -> None:
    tiger, sherman = book.get(2477), book.get(2464)
    plan = ShotPlan(tiger, sherman, Facing.FRONT, attacker_status=Status(loaded=False))
    with pytest.raises(RulesError) as refused:
        check_can_fire(plan, needs_loaded=True)
    assert str(refused.value) == "2477 Tiger I is unloaded: it must reload before it can fire"
    assert (refused.value.code, refused.value.values) == (Refusal.UNLOADED,
                                                          {"name": "2477 Tiger I"})


def test_a_missing_card_value_names_the_card_and_the_field(book) -> None:
    pz = book.get(2508)                  # its side armour is not known
    with pytest.raises(CardValueMissing) as refused:
        odds(ShotPlan(book.get(2477), pz, Facing.SIDE))
    assert refused.value.code is Refusal.NO_CARD_VALUE
    assert refused.value.values == {"name": pz.title, "field": "armour_side",
                                    "source": pz.source}


def test_a_turn_refusal_names_the_piece_and_both_sides(book) -> None:
    battle = Battle("tank").add(book.get(2477), Side.AXIS).add(book.get(2464), Side.ALLIES)
    with pytest.raises(RulesError) as refused:
        turns.activate(turns.first_turn(Side.AXIS), battle, ["Sherman 1"])
    assert refused.value.code is TankRefusal.NOT_YOUR_PIECE
    assert refused.value.values == {"label": "Sherman 1", "side": "allies", "playing": "axis"}
