"""Refusals and Cobra's notes in the box's words: every code has an English and a Polish
template, every template's placeholders are values its code comes with (the rules' own test
checks that every raise site gives exactly those), the values that are words of the rules have
words in both languages, and refusals raised through the real rules read as they should: the
English as the rules' sentence, the Polish in Polish."""
from __future__ import annotations

import re
import string
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from cobi_companion.cards import CardBook
from cobi_companion.device.core import i18n
from cobi_companion.device.core.reasons import WORDED, key_of, say
from cobi_companion.rules import house, movement
from cobi_companion.rules.battle import Battle, Piece, Ride
from cobi_companion.rules.card import PRINTED, Facing, Kind, Mount, Template, Weapon
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.cobra import combat as cobra
from cobi_companion.rules.cobra import command, landing
from cobi_companion.rules.cobra import movement as cobra_movement
from cobi_companion.rules.cobra import overrun as cobra_overrun
from cobi_companion.rules.cobra import replacements as cobra_replacements
from cobi_companion.rules.cobra import special_rolls as rolls
from cobi_companion.rules.cobra import victory_points as vps
from cobi_companion.rules.cobra.exits import Exit
from cobi_companion.rules.cobra.naval import NavalRange
from cobi_companion.rules.cobra.notes import Note, Why
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.tables import CobraTables, Direction, Loss, Result, Weather
from cobi_companion.rules.cobra.turns import CobraGame, victory
from cobi_companion.rules.cobra.weather import forced
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.distance import QUESTIONS, ask, measure, range_modifier
from cobi_companion.rules.easy import fire as easy
from cobi_companion.rules.easy.refusals import EasyRefusal
from cobi_companion.rules.errors import Coded, Refusal, RulesError
from cobi_companion.rules.shot import ShotPlan, check_can_fire
from cobi_companion.rules.status import Side, Status
from cobi_companion.rules.tank import hiding, overrun, scoring, turns
from cobi_companion.rules.tank.hard_fire import check_hard_target, odds, reload_action
from cobi_companion.rules.tank.refusals import TankRefusal
from cobi_companion.rules.tank.soft_fire import Covered as At
from cobi_companion.rules.tank.soft_fire import SoftPlan, check_plan, check_soft_firer, he_weapon
from cobi_companion.rules.tank.soft_table import SITUATIONS
from cobi_companion.rules.tank.turns import Action
from cobi_companion.words import catalogue, languages

# A value for every name a code comes with: a new name needs one here, and a thought about
# whether it is a word to translate (WORDED) or a name to show as it is.
SAMPLES: dict[str, Any] = {
    "name": "2477 Tiger I", "label": "Tiger 1", "labels": ("Tiger 1", "Pak 1"),
    "hidden": "Rifle 2", "counted": ("Rifle 1 (4)", "MG 1 (2)"), "card": "9999",
    "choices": ("easy", "tank"), "rules": "hard", "field": "armour_side", "source": "x.toml",
    "weapon": "rifle", "weapons": ("rifle", "pistol"), "bands": ("44", "50-60"),
    "side": "axis", "playing": "allies", "action": "take_cover", "kind": "gun",
    "quantity": "range", "situation": "soft_cover", "comparison": "near",
    "question": "fire_range", "unit": "6h", "letter": "z", "role": "attack",
    "modifier": "s", "shift": "hq:9", "shift_kind": "air", "nation": "allied",
    "said": "german", "terrain": "swamp", "known": ("town",), "scenario": "nowhere",
    "track": "ammo", "weather": "fog", "start": "Marginal Allied",
    "cm": 30.5, "limit": 30, "most": 5, "size": 6, "figures": 3, "left": 2, "count": 3,
    "turn": 12, "first": 17, "last": 27, "die": 4, "faces": 6, "number": 3, "battles": 2,
    "recorded": 1, "held": 3, "before": 4, "named": 6, "columns": 2, "steps": 3, "us": 2,
    "british": 1, "allied": 40, "german": 10, "difference": 30, "levels": 2,
    "column": "2:1", "low": 28, "high": 40, "span": "30-35 cm", "gain": 3,
    "vehicle": "Opel 1", "need": 3, "hq": "XV", "given": 1, "army": "british",
    "paid": "us", "made": 4, "level": 21,
    "rule": "sherman_reload", "value": "paint", "vp_source": "allied_hq", "article": "16.1",
    "printed": 30, "increase": 2, "allowed": ("+1", "+2"), "step_kind": "mech", "on_track": "½",
    "landing": "omaha", "direction": "south", "lost": 4, "landed": 6, "exited": 21,
    "placed": 1,
}
# Words a Polish template may share with the English one: the keys and values of the files
# a player writes (offset_cm, at_least, terrain:-1), abbreviations both languages use (HE, AP,
# cm), names, and words that are Polish too ("to": "is", "model", "limit").
SHARED = {"he", "ap", "cm", "offset", "over", "within", "at", "least", "clear",
          "overcast", "storm", "terrain", "kind", "columns", "to", "model", "patton", "limit",
          "brest", "leclerc", "cherbourg",   # (and the names of places and men)
          "ss",                         # 12th SS Panzer: a unit's name (17.3.3d)
          "same",                       # Polish too: "te same" (the same ones)
          "utah", "omaha", "gold", "juno", "sword"}     # the landing beaches' names (17.3.2)
LANGUAGES = languages.codes()        # every template filled in every language


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def words(text: str) -> set[str]:
    """The words of a template outside its placeholders, lower case."""
    return {w.lower() for w in re.findall(r"[^\W\d_]{2,}", re.sub(r"\{[^}]*\}", " ", text))}


REFUSALS: list[Coded] = [*Refusal, *EasyRefusal, *TankRefusal, *CobraRefusal]  # shared, games'
CODES = [*REFUSALS, *Why]


def templates(code: Coded) -> tuple[str, str]:
    key = key_of(code)
    return catalogue.text("en", key), catalogue.text("pl", key)


@pytest.mark.parametrize("code", CODES, ids=str)
def test_every_code_has_an_english_and_a_polish_template(code: Coded) -> None:
    english, polish = templates(code)
    assert english and polish and english != polish


@pytest.mark.parametrize("code", CODES, ids=str)
def test_a_template_names_only_values_its_code_comes_with(code: Coded) -> None:
    for template in templates(code):
        assert placeholders(template) <= set(code.names), template


@pytest.mark.parametrize("code", CODES, ids=str)
def test_the_polish_template_is_in_polish(code: Coded) -> None:
    english, polish = templates(code)
    assert words(polish) & words(english) <= SHARED


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("code", CODES, ids=str)
def test_every_template_is_filled_by_its_values(code: Coded, language: str) -> None:
    values = {name: SAMPLES[name] for name in code.names}
    said = say(language, Note(code, values) if isinstance(code, Why)
               else RulesError(code, **values))
    assert said and "{" not in said and "}" not in said


def test_every_value_name_has_a_sample() -> None:
    assert {name for code in CODES for name in code.names} <= set(SAMPLES)


def word_keys(name: str, values: list[str]) -> list[str]:
    prefix = WORDED[name]
    return [prefix + (v.lower() if name.startswith("weapon") else v) for v in values]


def test_the_words_of_the_rules_have_words_in_both_languages(book: CardBook) -> None:
    weapons = {w.name for card in book.sorted() for w in card.weapons} | set(book.table.weapons)
    known = {"field": list(PRINTED), "weapon": [*weapons, "he"], "side": list(Side),
             "action": list(Action), "kind": ["vehicle", "gun"],
             "situation": list(SITUATIONS), "role": list(cobra.Role),
             "shift_kind": list(cobra.ShiftKind), "nation": list(cobra.Nation),
             "question": list(QUESTIONS), "modifier": list(cobra.BY_LETTER),
             "quantity": ["offset", "reading", "threshold", "margin", "distance", "range"],
             "start": ["Marginal Allied", "Marginal German"], "weather": list(Weather),
             "rule": list(house.BY_NAME), "army": list(command.Army),
             "paid": list(command.ALLIED_ARMIES), "vp_source": list(vps.SOURCES),
             "step_kind": list(cobra_replacements.KINDS), "landing": list(landing.Target),
             "direction": list(Direction)}
    missing = [key for name, values in known.items() for key in word_keys(name, values)
               if not i18n.has(key)]
    assert missing == []


# ---- refusals raised through the real rules ----


def piece(book: CardBook, key: str, side: Side, label: str, figures: int | None = None,
          **status: Any) -> Piece:
    card = book.get(key)
    return Piece(label, side, card, Status(**status), card.crew if figures is None else figures)


@pytest.fixture
def field(book: CardBook) -> Battle:
    """Axis: Tiger 1, Rifle 1 (4), Bofors 1, MG 1 (2); Allies: Sherman 1, Rifle 2 (3),
    Motorbike 1, Bofors 2."""
    return Battle("tank", (
        piece(book, "2477", Side.AXIS, "Tiger 1"), piece(book, "rifleman", Side.AXIS, "Rifle 1", 4),
        piece(book, "bofors-37mm", Side.AXIS, "Bofors 1"),
        piece(book, "mg-gunner", Side.AXIS, "MG 1", 2),
        piece(book, "2464", Side.ALLIES, "Sherman 1"),
        piece(book, "rifleman", Side.ALLIES, "Rifle 2", 3),
        piece(book, "motorcycle-sidecar", Side.ALLIES, "Motorbike 1"),
        piece(book, "bofors-37mm", Side.ALLIES, "Bofors 2")))


def axis() -> turns.Turn:
    return turns.first_turn(Side.AXIS)


def active(b: Battle, *labels: str) -> turns.Turn:
    return turns.activate(axis(), b, list(labels))


def marked(b: Battle, label: str, **status: Any) -> Battle:
    p = b.get(label)
    return b.replace_piece(replace(p, status=replace(p.status, **status)))


def rifle_at(b: Battle, book: CardBook, covered: At, firer: str = "Rifle 1") -> None:
    shooter = b.get(firer)
    check_plan(SoftPlan(shooter, shooter.card.weapons[0], (covered,), book.table, range_cm=45))


def mounted(b: Battle, mount: Mount, **status: Any) -> Piece:
    """Tiger 1 with a medium MG on the given mount (no shipped card prints one)."""
    tiger = b.get("Tiger 1")
    mg = Weapon(name="medium MG", template=Template.MG, shots=2, mount=mount)
    return replace(tiger, card=replace(tiger.card, weapons=(mg,)),
                   status=replace(tiger.status, **status))


GRENADIER = validated_card({"id": "grenadier", "name": "Grenadier", "kind": "figure",
                            "crew": 1, "weapons": [{"name": "grenade", "template": "grenade"}]})


def thrown_twice(b: Battle) -> None:
    """Grenade 1 (1 figure) throws, then throws again in the same activation."""
    b = Battle("tank", (*b.pieces, Piece("Grenade 1", Side.AXIS, GRENADIER, Status(), 1)))
    t = turns.shoot(active(b, "Grenade 1"), b, "Grenade 1", "grenade")
    turns.check_shot(t, b, "Grenade 1", "grenade")


def fired_again(b: Battle, label: str, weapon: str, times: int) -> None:
    t = active(b, label)
    for _ in range(times):
        t = turns.shoot(t, b, label, weapon)
    turns.check_shot(t, b, label, weapon)


def moved_then(b: Battle, label: str, then: Callable[..., Any], **kw: Any) -> None:
    t, b = turns.move(active(b, label), b, label)
    then(t, b, label, **kw)


def ridden(b: Battle) -> Battle:
    """Rifle 1 rides on top of Tiger 1."""
    return b.replace_piece(replace(b.get("Rifle 1"), riding=Ride("Tiger 1", Kind.HARD)))


def carried_then_fires(b: Battle) -> None:
    b = ridden(b)
    t, b = turns.move(active(b, "Tiger 1", "Rifle 1"), b, "Tiger 1")
    turns.fire(t, b, "Rifle 1")


def rides(b: Battle, label: str, vehicle: str, kind: Kind) -> Piece:
    return replace(b.get(label), riding=Ride(vehicle, kind))


Case = Callable[[Battle, CardBook], object]
CASES: dict[Coded, Case] = {
    Refusal.NO_SUCH_PIECE: lambda b, k: b.get("Panther 1"),
    Refusal.SQUAD_NEEDS_FIGURE: lambda b, k: b.add(k.get("rifleman"), Side.AXIS, 0),
    Refusal.UNKNOWN_CARD: lambda b, k: k.get("9999"),
    Refusal.UNKNOWN_HOUSE_RULE: lambda b, k: house.parse("paint", "yes"),
    Refusal.HOUSE_RULE_VALUE: lambda b, k: house.parse("sherman_reload", "paint"),
    Refusal.NO_SUCH_WEAPON: lambda b, k: k.get("rifleman").weapon("medium MG"),
    Refusal.NO_CARD_VALUE: lambda b, k: odds(ShotPlan(k.get("2477"), k.get("2508"),
                                                      Facing.SIDE)),
    Refusal.FIRER_DESTROYED: lambda b, k: check_can_fire(ShotPlan(
        k.get("2477"), k.get("2464"), Facing.FRONT, attacker_status=Status(destroyed=True)),
        needs_loaded=True),
    Refusal.GUN_LOST: lambda b, k: check_can_fire(ShotPlan(
        k.get("2477"), k.get("2464"), Facing.FRONT,
        attacker_status=Status(gun_destroyed=True)), needs_loaded=True),
    Refusal.UNLOADED: lambda b, k: check_can_fire(ShotPlan(
        k.get("2477"), k.get("2464"), Facing.FRONT, attacker_status=Status(loaded=False)),
        needs_loaded=True),
    Refusal.TARGET_DESTROYED: lambda b, k: check_can_fire(ShotPlan(
        k.get("2477"), k.get("2464"), Facing.FRONT, target_status=Status(destroyed=True)),
        needs_loaded=True),
    EasyRefusal.EASY_NO_TOP: lambda b, k: easy.fire(
        ShotPlan(k.get("2464"), k.get("2477"), Facing.TOP), ScriptedDice([6])),
    TankRefusal.AP_AT_GUN: lambda b, k: check_hard_target(k.get("bofors-37mm")),
    TankRefusal.AP_AT_SOFT_TARGET: lambda b, k: check_hard_target(k.get("rifleman")),
    TankRefusal.NOTHING_TO_RELOAD_GUN_LOST: lambda b, k: reload_action(
        k.get("2477"), Status(gun_destroyed=True), ScriptedDice([])),
    Refusal.DESTROYED: lambda b, k: movement.allowance(k.get("2477"),
                                                       status=Status(destroyed=True)),
    Refusal.IMMOBILIZED_FOR_GOOD: lambda b, k: movement.allowance(
        k.get("2477"), status=Status(immobilized=True)),
    Refusal.NEGATIVE_MOVE: lambda b, k: movement.allowance(k.get("2477"), turns=-1),
    Refusal.ROAD_AND_ROUGH: lambda b, k: movement.allowance(k.get("2477"), rough=True,
                                                            road=True),
    TankRefusal.IMPOSSIBLE_CM: lambda b, k: ask("fire_range", -3.0),
    TankRefusal.NO_READINGS: lambda b, k: measure([]),
    TankRefusal.RANGE_TOO_CLOSE: lambda b, k: range_modifier(ask("fire_range",
                                                             measure([99.5, 100.5]))),
    TankRefusal.NOT_YOUR_PIECE: lambda b, k: active(b, "Sherman 1"),
    TankRefusal.OUT_OF_FIGHT: lambda b, k: active(marked(b, "Tiger 1", destroyed=True), "Tiger 1"),
    TankRefusal.OFF_MAP_PLACE_FIRST: lambda b, k: active(marked(b, "Tiger 1", off_map=True),
                                                     "Tiger 1"),
    TankRefusal.ALREADY_ACTIVATED: lambda b, k: turns.activate(
        turns.end_activation(active(b, "Tiger 1")), b, ["Tiger 1"]),
    TankRefusal.END_ACTIVATION_FIRST: lambda b, k: turns.activate(active(b, "Tiger 1"), b,
                                                              ["Rifle 1"]),
    TankRefusal.PICK_PIECES: lambda b, k: active(b),
    TankRefusal.PICKED_TWICE: lambda b, k: active(b, "Rifle 1", "Rifle 1"),
    TankRefusal.ONE_MODEL: lambda b, k: active(b, "Tiger 1", "Bofors 1"),
    TankRefusal.TOO_MANY_PIECES: lambda b, k: active(b, "Rifle 1", "MG 1"),
    TankRefusal.NO_ACTIVATION: lambda b, k: turns.end_activation(axis()),
    TankRefusal.NO_ACTIVATION_FOR: lambda b, k: turns.move(axis(), b, "Tiger 1"),
    TankRefusal.NOT_IN_ACTIVATION: lambda b, k: turns.move(active(b, "Tiger 1"), b, "Rifle 1"),
    TankRefusal.ALREADY_DONE: lambda b, k: moved_then(b, "Tiger 1", turns.move),
    TankRefusal.IMMOBILIZED: lambda b, k: turns.move(
        active(marked(b, "Tiger 1", immobilized=True), "Tiger 1"),
        marked(b, "Tiger 1", immobilized=True), "Tiger 1"),
    TankRefusal.MOVED_NO_FIRE: lambda b, k: moved_then(b, "Tiger 1", turns.fire),
    TankRefusal.MOVED_NO_COVER: lambda b, k: moved_then(b, "Rifle 1", turns.take_cover),
    TankRefusal.HIDE_ONLY_FIGURES: lambda b, k: turns.hide(active(b, "Tiger 1"), b, "Tiger 1",
                                                       cover=True),
    TankRefusal.COVER_ONLY_FIGURES: lambda b, k: turns.take_cover(active(b, "Tiger 1"), b,
                                                              "Tiger 1"),
    TankRefusal.SQUAD_NO_RELOAD: lambda b, k: turns.reload(active(b, "Rifle 1"), b, "Rifle 1"),
    TankRefusal.LOADED: lambda b, k: turns.reload(active(b, "Tiger 1"), b, "Tiger 1"),
    TankRefusal.ACTED_NO_RELOAD: lambda b, k: moved_then(marked(b, "Tiger 1", loaded=False),
                                                     "Tiger 1", turns.reload),
    TankRefusal.NO_COMMANDER_TO_PUT_OUT: lambda b, k: turns.commander(active(b, "Rifle 1"), b,
                                                                  "Rifle 1", True),
    TankRefusal.COMMANDER_NOT_ACTIVE: lambda b, k: turns.commander(axis(), b, "Tiger 1", True),
    TankRefusal.HAS_COMMANDER: lambda b, k: turns.leave(active(b, "Tiger 1"), b, "Tiger 1"),
    TankRefusal.NOT_OFF_MAP: lambda b, k: turns.place(axis(), b, "Tiger 1"),
    TankRefusal.VEHICLE_PLACED_ALONE: lambda b, k: turns.place(
        axis(), marked(b, "Tiger 1", off_map=True), "Tiger 1", "Rifle 1"),
    TankRefusal.GUN_TOWED: lambda b, k: turns.place(axis(), marked(b, "Bofors 1", off_map=True),
                                                "Bofors 1"),
    TankRefusal.RIDE_ONLY_FIGURES: lambda b, k: turns.get_on(active(b, "Bofors 1"), b, "Bofors 1",
                                                         "Tiger 1"),
    TankRefusal.NOT_A_RIDE: lambda b, k: turns.get_on(active(b, "Rifle 1"), b, "Rifle 1",
                                                  "Sherman 1"),
    TankRefusal.ALREADY_RIDING: lambda b, k: turns.get_on(active(ridden(b), "Rifle 1"), ridden(b),
                                                      "Rifle 1", "Tiger 1"),
    TankRefusal.NOT_RIDING: lambda b, k: turns.get_off(active(b, "Rifle 1"), b, "Rifle 1"),
    TankRefusal.CARRIED_NO_FIRE: lambda b, k: carried_then_fires(b),
    TankRefusal.RIDER_NO_HIDE_OR_COVER: lambda b, k: turns.take_cover(active(ridden(b), "Rifle 1"),
                                                                  ridden(b), "Rifle 1"),
    TankRefusal.RIDERS_IN_HARD_COVER: lambda b, k: rifle_at(b, k, At(rides(
        b, "Rifle 2", "Half-track 1", Kind.OPEN_TOP), 1)),
    TankRefusal.RIDER_BLOCKS: lambda b, k: overrun.check(b.get("Tiger 1"), (overrun.Under(rides(
        b, "Rifle 2", "Motorbike 1", Kind.SOFT)),)),
    TankRefusal.ALREADY_HIDDEN: lambda b, k: hiding.can_hide(marked(b, "Rifle 1", hidden=True)
                                                         .get("Rifle 1"), True),
    TankRefusal.NO_COVER: lambda b, k: hiding.can_hide(b.get("Rifle 1"), False),
    TankRefusal.ENEMY_NEAR: lambda b, k: hiding.can_hide(b.get("Rifle 1"), True,
                                                     nearest_enemy_figure=20.0),
    TankRefusal.ENEMY_NEAR_CALLED: lambda b, k: hiding.can_hide(b.get("Rifle 1"), True,
                                                            enemy_near=True),
    TankRefusal.MEASURE_WITH_TAPE: lambda b, k: hiding.can_hide(
        b.get("Rifle 1"), True, nearest_enemy_figure=measure([29.5, 30.5])),
    TankRefusal.SAME_SIDE_SPOTS: lambda b, k: hiding.spots(b.get("Rifle 1"), b.get("MG 1"), 10,
                                                       False),
    TankRefusal.NOT_HIDDEN: lambda b, k: hiding.spots(b.get("Rifle 2"), b.get("Rifle 1"), 10,
                                                  False),
    TankRefusal.NO_HE: lambda b, k: he_weapon(k.get("2456")),
    TankRefusal.COAXIAL_LOST: lambda b, k: check_soft_firer(
        mounted(b, Mount.COAXIAL, gun_destroyed=True), mounted(b, Mount.COAXIAL).card.weapons[0]),
    TankRefusal.EXTERNAL_NEEDS_COMMANDER: lambda b, k: check_soft_firer(
        mounted(b, Mount.EXTERNAL), mounted(b, Mount.EXTERNAL).card.weapons[0]),
    TankRefusal.GUN_FIRED: lambda b, k: fired_again(b, "Tiger 1", turns.GUN, 1),
    TankRefusal.WEAPON_FIRED: lambda b, k: fired_again(b, "Rifle 1", "rifle", 4),
    TankRefusal.GRENADE_THROWN: lambda b, k: thrown_twice(b),
    TankRefusal.HARD_TARGET: lambda b, k: rifle_at(b, k, At(b.get("Sherman 1"), 0)),
    TankRefusal.GUN_NEEDS_TEMPLATE: lambda b, k: rifle_at(b, k, At(b.get("Bofors 2"), 0)),
    TankRefusal.HIDDEN_TARGET: lambda b, k: rifle_at(b, k, At(marked(b, "Rifle 2", hidden=True)
                                                          .get("Rifle 2"), 1)),
    TankRefusal.ONE_TARGET_ONLY: lambda b, k: rifle_at(b, k, At(b.get("Rifle 2"), 2)),
    TankRefusal.FIGURES_TO_ATTACK: lambda b, k: rifle_at(b, k, At(b.get("Rifle 2"), 4), "MG 1"),
    TankRefusal.CREW_INSIDE: lambda b, k: rifle_at(b, k, At(b.get("Sherman 1"), 1, model=False)),
    TankRefusal.CREW_INSIDE_SOFT: lambda b, k: rifle_at(b, k, At(b.get("Motorbike 1"), 1)),
    TankRefusal.COMMANDER_LOST: lambda b, k: rifle_at(marked(b, "Rifle 1", commander_killed=True),
                                                  k, At(b.get("Rifle 2"), 1)),
    TankRefusal.TABLE_NO_ROW: lambda b, k: k.table.template_modifier("grenade"),
    TankRefusal.TABLE_NO_RANGE: lambda b, k: k.table.range_modifier("rifle", 30),
    TankRefusal.TABLE_NO_TEMPLATE: lambda b, k: k.table.template_modifier("rifle"),
    TankRefusal.TABLE_NO_SITUATION: lambda b, k: k.table.situation_modifier("hard_cover"),
    TankRefusal.RANGE_NEEDED: lambda b, k: k.table.range_modifier("rifle", None),
    TankRefusal.NOT_A_TANK: lambda b, k: overrun.check_tank(b.get("Motorbike 1")),
    TankRefusal.OWN_SIDE_UNDER: lambda b, k: overrun.check(b.get("Tiger 1"),
                                                       (overrun.Under(b.get("Rifle 1")),)),
    TankRefusal.VEHICLE_BLOCKS: lambda b, k: overrun.check(b.get("Tiger 1"),
                                                       (overrun.Under(b.get("Sherman 1")),)),
    TankRefusal.HARD_COVER_BLOCKS: lambda b, k: overrun.check(b.get("Tiger 1"), (overrun.Under(
        b.get("Rifle 2"), cover=overrun.Cover.HARD),)),
    TankRefusal.GUN_RUN_OVER_WHOLE: lambda b, k: overrun.check(
        b.get("Tiger 1"), (overrun.Under(b.get("Bofors 2"), 1),)),
    TankRefusal.TOO_MANY_UNDER: lambda b, k: overrun.check(b.get("Tiger 1"),
                                                       (overrun.Under(b.get("Rifle 2"), 5),)),
    TankRefusal.RUNS_OVER_NOTHING: lambda b, k: overrun.check(b.get("Tiger 1"), ()),
    TankRefusal.BATTLE_NOT_OVER: lambda b, k: scoring.battle_result(b),
    CobraRefusal.NEEDS_A_UNIT: lambda b, k: cobra.odds([], [cobra.Unit(4)]),
    CobraRefusal.MODIFIER_WRONG_ROLE: lambda b, k: cobra.odds([cobra.Unit(6)],
                                                         [cobra.Unit.parse("4b")]),
    # 8.3.2a: "Attacking British armored brigades not stacked with British infantry
    # divisions have their combat strengths halved": never a German attacker's halving
    CobraRefusal.MODIFIER_WRONG_SIDE: lambda b, k: cobra.odds([cobra.Unit.parse("6b")],
                                                         [cobra.Unit(4)],
                                                         attacker=cobra.Nation.GERMAN),
    CobraRefusal.NO_AIR_IN_STORMS: lambda b, k: cobra.odds(
        [cobra.Unit(6)], [cobra.Unit(4)], [cobra.parse_shift("air:+1")],
        weather=Weather.STORM),
    CobraRefusal.HQ_SHIFTS_TOO_EARLY: lambda b, k: cobra.odds(
        [cobra.Unit(6)], [cobra.Unit(4)], [cobra.parse_shift("hq:+2")], turn=15),
    CobraRefusal.SHIFTS_DISAGREE: lambda b, k: cobra.odds(
        [cobra.Unit(6)], [cobra.Unit(4)], [cobra.parse_shift("tiger:+1"),
                                           cobra.parse_shift("air:+1")]),
    CobraRefusal.OVERRUN_TURN_1: lambda b, k: cobra_overrun.overrun_odds(
        [cobra.Unit(6)], [cobra.Unit(4)], when=cobra.OverrunWhen.MOVEMENT, turn=1),
    CobraRefusal.OVERRUN_DOUBLED: lambda b, k: cobra_overrun.overrun_odds(
        [cobra.Unit.parse("6d")], [cobra.Unit(4)], when=cobra.OverrunWhen.MOVEMENT),
    CobraRefusal.OVERRUN_UNSUPPLIED: lambda b, k: cobra_overrun.overrun_odds(
        [cobra.Unit.parse("6s")], [cobra.Unit(4)], when=cobra.OverrunWhen.ADVANCE),
    CobraRefusal.OVERRUN_MODIFIER: lambda b, k: cobra_overrun.overrun_odds(
        [cobra.Unit.parse("6b")], [cobra.Unit(4)], when=cobra.OverrunWhen.MOVEMENT),
    CobraRefusal.OVERRUN_NO_AIR: lambda b, k: cobra_overrun.overrun_odds(
        [cobra.Unit(6)], [cobra.Unit(4)], [cobra.parse_shift("air:+1")],
        when=cobra.OverrunWhen.MOVEMENT),
    CobraRefusal.OVERRUN_ONE_HQ_SHIFT: lambda b, k: cobra_overrun.overrun_odds(
        [cobra.Unit(6)], [cobra.Unit(4)], [cobra.parse_shift("hq:+2")],
        when=cobra.OverrunWhen.MOVEMENT, turn=17),
    CobraRefusal.OVERRUN_ADVANCE_SHIFT: lambda b, k: cobra_overrun.overrun_odds(
        [cobra.Unit(6)], [cobra.Unit(4)], [cobra.parse_shift("naval:+1")],
        when=cobra.OverrunWhen.ADVANCE),
    CobraRefusal.CARPET_TOO_EARLY: lambda b, k: cobra.carpet_odds(turn=3),
    CobraRefusal.CARPET_NOT_CLEAR: lambda b, k: cobra.carpet_odds(weather=Weather.STORM),
    CobraRefusal.CARPET_MISSIONS_SPENT: lambda b, k: cobra.carpet_odds(turn=9, flown=(6,)),
    CobraRefusal.NO_AIR_ON_TURN_1: lambda b, k: cobra.odds(
        [cobra.Unit(6)], [cobra.Unit(4)], [cobra.parse_shift("air:+1")], turn=1),
    CobraRefusal.NAVAL_POINTS_TURN: lambda b, k: cobra.odds(
        [cobra.Unit(6)], [cobra.Unit(4)], [cobra.parse_shift("naval:+1")], turn=1),
    CobraRefusal.NAVAL_FAR_MOST: lambda b, k: cobra.odds(
        [cobra.Unit(6)], [cobra.Unit(4)], [cobra.parse_shift("naval:+2")], turn=2,
        naval_range=NavalRange.FAR),
    CobraRefusal.NAVAL_FAR_IN_STORMS: lambda b, k: cobra.odds(
        [cobra.Unit(6)], [cobra.Unit(4)], [cobra.parse_shift("naval:+1")], turn=16,
        weather=Weather.STORM, naval_range=NavalRange.FAR),
    CobraRefusal.ALWAYS_IN_SUPPLY: lambda b, k: cobra.odds(
        [cobra.Unit.parse("6s")], [cobra.Unit(4)], attacker=cobra.Nation.ALLIED, turn=2),
    CobraRefusal.NOT_A_DIVISION: lambda b, k: cobra_movement.allowance(
        9, "british", phase="mechanized", division=False),
    CobraRefusal.AIR_POINTS_LEFT: lambda b, k: CobraGame(
        "cobra", 16, 8, (Weather.OVERCAST, Weather.OVERCAST), air_used=3).check_support(
        cobra.odds([cobra.Unit(6)], [cobra.Unit(4)], [cobra.parse_shift("air:+1")], turn=16)),
    CobraRefusal.NAVAL_POINTS_LEFT: lambda b, k: CobraGame(
        "cobra", 16, 8, (Weather.CLEAR, Weather.CLEAR), naval_used=2).check_support(
        cobra.odds([cobra.Unit(6)], [cobra.Unit(4)], [cobra.parse_shift("naval:+1")],
                   turn=16)),
    CobraRefusal.TURN_OUT_OF_RANGE: lambda b, k: cobra.check_turn(40),
    CobraRefusal.UNKNOWN_HQ: lambda b, k: command.hq("XV"),
    CobraRefusal.HQ_ELIMINATED: lambda b, k: command.Command().flip(
        command.hq("VII"), command.HQEvent.ELIMINATED, 16, 3)[0].check_shift(
        command.hq("VII"), 1, True, 16),
    CobraRefusal.HQ_INACTIVE: lambda b, k: command.Command().flip(
        command.hq("VII"), command.HQEvent.MOVED, 16, 9)[0].check_shift(
        command.hq("VII"), 1, True, 16),
    CobraRefusal.HQ_SHIFTS_GIVEN: lambda b, k: command.Command().use(
        command.hq("XXX"), 1, True, 17)[0].check_shift(command.hq("XXX"), 2, True, 17),
    CobraRefusal.HQ_OTHER_ARMY: lambda b, k: command.attack_army("us", command.hq("XXX")),
    CobraRefusal.NO_GERMAN_LIMITS: lambda b, k: command.check_limit(
        command.Army.GERMAN, command.Attempt.ATTACK, 4, 0),
    CobraRefusal.ATTACK_LIMIT: lambda b, k: command.Command().with_levels(14, 0, 3).count(
        14, command.Army.US, command.Attempt.ATTACK),
    CobraRefusal.OVERRUN_LIMIT: lambda b, k: command.Command().with_levels(14, 3, 0).count(
        14, command.Army.BRITISH, command.Attempt.OVERRUN),
    CobraRefusal.COMMAND_LEVEL: lambda b, k: command.Command().with_levels(14, 21, 0),
    CobraRefusal.WEATHER_PHASE_ONLY: lambda b, k: CobraGame.start("cobra")
    .with_weather(Weather.CLEAR)[0].advance().with_weather(Weather.CLEAR),
    # victory points (16.1, 16.2, 18.0) and the special rolls (15.1-15.3)
    CobraRefusal.VP_UNKNOWN_SOURCE: lambda b, k: vps.score("cobra", 16, "paint"),
    CobraRefusal.VP_NOT_IN_SCENARIO: lambda b, k: vps.score("cobra", 16, "caen"),
    CobraRefusal.VP_NOT_THIS_TURN: lambda b, k: vps.score("cobra", 16, "variant_4th_panzer"),
    CobraRefusal.VP_ONCE_A_TURN: lambda b, k: vps.record(vps.record(
        CobraGame("campaign", 3), "cherbourg_held")[0], "cherbourg_held"),
    CobraRefusal.VP_ONCE_A_GAME: lambda b, k: vps.record(vps.record(
        CobraGame("cobra", 16), "variant_654")[0], "variant_654"),
    CobraRefusal.VP_MOST: lambda b, k: vps.record(vps.record(
        CobraGame("cobra", 26), "us_not_exited", 4)[0], "us_not_exited"),
    CobraRefusal.VP_ONE_AT_A_TIME: lambda b, k: vps.score("cobra", 20, "exit_us_mech", 2),
    CobraRefusal.VP_HQ_EXITED: lambda b, k: vps.score("cobra", 25, "no_us_hq_exited",
                                                 exits=(Exit(20, "us", "west", "hq"),)),
    CobraRefusal.VP_NOTHING_TO_UNDO: lambda b, k: vps.undo(CobraGame.start("cobra")),
    CobraRefusal.RELEASE_NOT_YET: lambda b, k: rolls.release(20, None, 0, 1),
    CobraRefusal.RELEASE_ONCE_A_TURN: lambda b, k: rolls.release(22, None, 0, 1, (22,)),
    CobraRefusal.RELEASE_ALL_OUT: lambda b, k: rolls.release(22, None, 4, 1),
    CobraRefusal.BREST_NOT_YET: lambda b, k: rolls.brest(25, 1),
    CobraRefusal.BREST_US_EXITED: lambda b, k: rolls.brest(26, 1, (Exit(24, "us", "west"),)),
    CobraRefusal.BREST_RELEASED: lambda b, k: rolls.brest(27, 1, released_on=26),
    CobraRefusal.LECLERC_MUTINIED: lambda b, k: rolls.leclerc_on(
        rolls.leclerc_on(CobraGame("cobra", 20), 1)[0], 1),
    CobraRefusal.SPECIAL_ONCE_A_TURN: lambda b, k: rolls.brest_on(
        rolls.brest_on(CobraGame("cobra", 26), 6)[0], 6),
    CobraRefusal.UNKNOWN_MOVEMENT: lambda b, k: cobra_movement.allowance(6, "french"),
    CobraRefusal.MA_PRINTED: lambda b, k: cobra_movement.allowance(30, "us"),
    CobraRefusal.NOT_MECHANIZED: lambda b, k: cobra_movement.allowance(6, "us", phase="mechanized"),
    CobraRefusal.MA_NEEDS_WEATHER: lambda b, k: cobra_movement.allowance(6, "german"),
    CobraRefusal.MA_INCREASE_TOO_MUCH: lambda b, k: cobra_movement.allowance(
        6, "german", weather=Weather.OVERCAST, increase=2),
    CobraRefusal.MA_INCREASE_GERMAN_ONLY:
        lambda b, k: cobra_movement.allowance(6, "us", increase=1),
    CobraRefusal.MA_INCREASE_THIRDS: lambda b, k: cobra_movement.air_attack(3, ScriptedDice([1])),
    CobraRefusal.UNKNOWN_REPLACEMENT: lambda b, k: cobra_replacements.Replacement(16, "us", "navy"),
    CobraRefusal.BRITISH_INFANTRY_LIMIT: lambda b, k: cobra_replacements.check_take(
        cobra_replacements.allowance("british", 20, {}, {"mech": 0, "inf": 2}), "inf"),
    CobraRefusal.REPLACEMENT_TURN_LIMIT: lambda b, k: cobra_replacements.check_take(
        cobra_replacements.allowance("german", 5, {"mech": 2, "inf": 1},
                                     {"mech": 1, "inf": 0}), "mech"),
    CobraRefusal.NO_REPLACEMENT_STEP: lambda b, k: cobra_replacements.check_take(
        cobra_replacements.allowance("german", 15, {"mech": 0, "inf": 0},
                                     {"mech": 0, "inf": 0}), "mech"),
    CobraRefusal.REPLACEMENT_PHASE_ONLY: lambda b, k: cobra_replacements.take(
        CobraGame.start("cobra"), "german", "inf"),
    CobraRefusal.MA_ALREADY_FULL: lambda b, k: cobra_movement.allowance(
        6, "german", weather=Weather.STORM, increase=1),
    CobraRefusal.HQ_COLUMNS_MOST: lambda b, k: command.Command().check_shift(
        command.hq("XLVII"), 2, True, 20),
    CobraRefusal.NOT_A_SCENARIO_TURN: lambda b, k: vps.score("cobra", 2, "allied_hq"),
    CobraRefusal.EXIT_AFTER_TURN: lambda b, k: vps.score("cobra", 20, "allied_hq",
                                                    exits=(Exit(26, "us", "west"),)),
    CobraRefusal.NO_STEP_TO_TAKE_BACK: lambda b, k: cobra_replacements.take_back(
        CobraGame.start("cobra")),
    # the landing (17.3.2) and the withdrawal attack (17.3.4)
    CobraRefusal.UNKNOWN_LANDING_TARGET: lambda b, k: landing.target("dover"),
    CobraRefusal.NOT_A_PARATROOP_DIVISION: lambda b, k: landing.scatters(landing.Target.OMAHA, 6),
    CobraRefusal.ALL_PARATROOPS_DROPPED: lambda b, k: landing.scatter(
        landing.Target.US_82, ScriptedDice([1]), dropped=9),
    CobraRefusal.LANDING_SHIFT_WRONG_TARGET: lambda b, k: landing.attrition_odds(
        landing.Target.US_101, committed=2),
    CobraRefusal.LANDING_SHIFT_RANGE: lambda b, k: landing.attrition_odds(
        landing.Target.US_101, terrain=-6),
    CobraRefusal.NOT_A_BEACH: lambda b, k: landing.beach_check(landing.Target.US_82, 3, 1),
    CobraRefusal.BEACH_STEPS: lambda b, k: landing.beach_check(landing.Target.OMAHA, 3, 4),
    CobraRefusal.BEACH_ALREADY_ABANDONED: lambda b, k: landing.Landing(
        abandoned=(landing.Target.OMAHA,)).abandon(landing.beach_check(
            landing.Target.OMAHA, 4, 3)),
    CobraRefusal.WITHDRAWAL_STEPS: lambda b, k: landing.withdrawal(ScriptedDice([3]), steps=0),
}
# Where the box's English is not the rules' sentence, and why: the words of the rules said as
# the box's words (a side's name, a Cobra modifier as its menu names it), a measurement's
# trace said by its numbers, the shifts a Cobra refusal names said shorter, one sentence
# where the rules word the same refusal in two ways (a commander lost), and a weapon said in a
# child's words (the medium MG a machine gun).
BOX_ENGLISH = {TankRefusal.NOT_YOUR_PIECE, CobraRefusal.MODIFIER_WRONG_ROLE,
               CobraRefusal.MODIFIER_WRONG_SIDE,
               TankRefusal.MEASURE_WITH_TAPE,
               TankRefusal.ENEMY_NEAR, CobraRefusal.SHIFTS_DISAGREE, TankRefusal.COMMANDER_LOST,
               CobraRefusal.OVERRUN_MODIFIER, Refusal.NO_SUCH_WEAPON, TankRefusal.COAXIAL_LOST,
               TankRefusal.EXTERNAL_NEEDS_COMMANDER}


def refused(case: Case, field: Battle, book: CardBook) -> RulesError:
    with pytest.raises(RulesError) as raised:
        case(field, book)
    return raised.value


@pytest.mark.parametrize("code", list(CASES), ids=str)
def test_a_refusal_of_the_real_rules_in_both_languages(code: Coded, field: Battle,
                                                       book: CardBook) -> None:
    exc = refused(CASES[code], field, book)
    assert exc.code is code, str(exc)
    english, polish = say("en", exc), say("pl", exc)
    if code not in BOX_ENGLISH:
        assert english == str(exc)
    for other in (say(lang, exc) for lang in languages.codes() if lang != languages.SOURCE):
        assert other != english and "{" not in other
        for name in ("label", "name"):
            if name in exc.values:
                assert str(exc.values[name]) in other
    assert polish != english


def test_most_codes_are_raised_through_the_real_rules_here() -> None:
    assert len(CASES) >= len(REFUSALS) // 2


def test_values_that_are_words_are_said_in_polish(field: Battle, book: CardBook) -> None:
    card = refused(CASES[Refusal.NO_CARD_VALUE], field, book)
    assert say("pl", card) == f"karta {book.get('2508').title} ({book.get('2508').source}) nie " \
                              f"ma wartości „Pancerz boczny”: dopisz ją z wydrukowanej karty"
    done = refused(CASES[TankRefusal.ALREADY_DONE], field, book)
    assert say("pl", done).startswith("Tiger 1: w tej aktywacji już wykonano „Ruch”")
    figures = refused(CASES[TankRefusal.FIGURES_TO_ATTACK], field, book)
    assert say("pl", figures) == "Rifle 2 ma 3 figurki: atakuj od 1 do 3"
    assert say("en", figures) == "Rifle 2 has 3 figures: attack 1 to 3 of them"
    models = refused(CASES[TankRefusal.ONE_MODEL], field, book)
    assert say("pl", models).endswith("Tiger 1 i Bofors 1 to dwa modele")
    assert say("en", models).endswith("Tiger 1 and Bofors 1 are both models")
    table = refused(CASES[TankRefusal.TABLE_NO_RANGE], field, book)
    assert "„karabin” dla 30 cm" in say("pl", table)


def test_numbers_in_polish_have_a_decimal_comma_and_their_plural_forms() -> None:
    def said(left: int) -> str:
        return say("pl", RulesError(TankRefusal.TOO_MANY_UNDER, label="Rifle 2", left=left,
                                    count=9))
    assert [said(n).split(": ")[0] for n in (1, 2, 5, 12, 22)] == [
        "Rifle 2 ma jeszcze 1 figurkę", "Rifle 2 ma jeszcze 2 figurki",
        "Rifle 2 ma jeszcze 5 figurek", "Rifle 2 ma jeszcze 12 figurek",
        "Rifle 2 ma jeszcze 22 figurki"]
    offset = RulesError(TankRefusal.OFFSET_BELOW_ZERO, cm=-2.5)
    assert say("pl", offset).startswith("przesunięcie -2,5 cm")
    assert say("en", offset).startswith("the offset of -2.5 cm")


def test_anything_but_a_refusal_is_said_as_its_message() -> None:
    assert say("pl", OSError("disk on fire")) == "disk on fire"


# ---- Cobra's notes ----


def _result(attacker: str, defender: str) -> Result:
    def loss(text: str) -> Loss:
        return Loss(text=text, eliminated=text == "e", steps=int(text) if text.isdigit() else 0)
    return Result(text=f"{attacker}/{defender}", attacker=loss(attacker), defender=loss(defender))


def notes() -> list[Note]:
    """Notes of the real rules: forced weather, combat results, the victory level."""
    fixed = [forced(turn, history) for turn, history in (
        (1, []), (2, [Weather.CLEAR]), (17, [Weather.STORM] * 3),
        (6, [Weather.CLEAR, Weather.OVERCAST] * 2 + [Weather.CLEAR]))]
    game = CobraGame.start("cobra")
    while game.phase.name != "supply":
        game = game.advance() if game.phase.name != "weather" else \
            game.with_weather(Weather.CLEAR)[0].advance()
    german = [CobraGame.start("cobra").adjust("german", before - 4).with_weather(weather)[1]
              for before, weather in ((4, Weather.STORM), (11, Weather.OVERCAST))]
    return [*(f[1] for f in fixed if f), *german, game.receive_allied(3, 2)[1],
            *cobra.roll(cobra.odds([cobra.Unit(26)], [cobra.Unit(9)]), ScriptedDice([4])).notes,
            *cobra.explain_notes(_result("1", "4")), *cobra.explain_notes(_result("e", "e")),
            *cobra.explain_notes(_result("-", "1"), carpet=True),
            *(cobra.overrun_note(r) for r in (None, _result("1", "2"), _result("1", "-"),
                                              _result("-", "e"), _result("-", "2"),
                                              _result("-", "-"))),
            victory("cobra", False, 10, 40)[1], victory("cobra", True, 40, 10)[1],
            victory("cobra", True, 10, 12)[1], *landing_notes()]


def landing_notes() -> list[Note]:
    """The landing's notes (17.3.2, 17.3.4), with the owner's diagram and CRT and without."""
    owner = CobraTables(crt={"1:2": ["-/1", "e", "-/2", "1/-", "-/-", "-/e"],
                             "3:1": ["-/1", "e", "-/2", "1/-", "-/-", "-/e"]},
                        scatter={"4": "south"})
    drops = [landing.scatter(landing.Target.US_82, ScriptedDice(faces), tables).notes
             for faces, tables in (([2], None), ([5, 4], owner), ([6, 3], owner))]
    odds = landing.attrition_odds(landing.Target.GOLD)
    attritions = [landing.attrition(odds, ScriptedDice([die]), tables).notes
                  for die, tables in ((1, None), (1, owner), (2, owner), (6, owner))]
    withdrawals = [landing.withdrawal(ScriptedDice([die]), tables, steps).notes
                   for die, tables, steps in ((1, None, 2), (1, owner, 2), (3, owner, 2),
                                              (1, owner, None), (5, owner, 2), (6, owner, 2))]
    return [note for notes in (*drops, *attritions, *withdrawals) for note in notes] + [
        landing.commitment(ScriptedDice([die])).note for die in (4, 5)] + [
        landing.beach_check(landing.Target.OMAHA, 6, lost).note for lost in (3, 4)]


@pytest.mark.parametrize("note", notes(), ids=lambda n: n.why.value)
def test_a_note_of_the_rules_in_both_languages(note: Note) -> None:
    assert say("en", note) == note.text
    assert say("pl", note) != note.text and "{" not in say("pl", note)


def test_cards_are_checked_in_polish_too() -> None:
    unknown = validated_card({"id": "x", "name": "X"})
    with pytest.raises(RulesError) as raised:
        unknown.need("gun_to_hit")
    assert say("pl", raised.value) == "karta X nie ma wartości „Wartość Trafienia”: dopisz ją " \
                                      "z wydrukowanej karty"
