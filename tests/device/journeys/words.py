"""The tour's journey through the words the box says only inside its sentences (a card's
fields, the rules' refusals, every kind of line of the battle log, the die each roll asks
for on the real-dice dial), each in a sentence of the box's making with the longest values."""
from __future__ import annotations

from typing import Any

from cobi_companion.cards import load_cards
from cobi_companion.device.core.app import App
from cobi_companion.device.core.battle_log import LogEntry, by_side, entry, won
from cobi_companion.device.core.battle_state import LastShot
from cobi_companion.device.core.setting_values import DICE_SOURCES
from cobi_companion.device.core.spoken import outcome
from cobi_companion.device.core.views import Lines
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.battle import RollOff, refuse
from cobi_companion.device.games.cobra import session as cobra
from cobi_companion.device.games.cobra.session import CobraSession
from cobi_companion.device.games.menus import Scroll
from cobi_companion.device.games.rolling import face_for
from cobi_companion.device.games.shots import shot_odds
from cobi_companion.device.games.throw import Throw
from cobi_companion.device.ui.details import shot_details
from cobi_companion.rules import house
from cobi_companion.rules.card import PRINTED, Facing
from cobi_companion.rules.dice import Aim, Need, Roller
from cobi_companion.rules.distance import QUESTIONS, Call
from cobi_companion.rules.errors import Refusal, RulesError
from cobi_companion.rules.status import Effect, Side
from cobi_companion.rules.tank.refusals import TankRefusal
from cobi_companion.rules.tank.soft_table import SITUATIONS
from cobi_companion.rules.tank.turns import Action
from tour import PIECES, ROUNDS, Tour, back_to, labels, seed_battle, words_of

from journeys.cobra import at, cobra_log, cobra_sayings


def refusals(tour: Tour) -> list[RulesError]:
    """A refusal of a battle that names each word of the rules it may name (a card's field,
    a distance, an action, a kind of piece, a weapon, a side, a situation, a question, a list
    with "and" and one with none), with the longest values."""
    label, book = labels(), load_cards()
    piece, card = f"{label['rifleman']} {PIECES}", book.get("2508")
    table = book.table.source                  # the file the Soft Targets Table came from
    three = tuple(f"{label[key]} {PIECES}" for key in ("2477", "2464", "bofors-37mm"))
    r, t = Refusal, TankRefusal      # the shared refusals, the Tank Game's
    return [
        *(RulesError(r.NO_CARD_VALUE, name=card.title, field=name, source=card.source)
          for name in PRINTED),
        *(RulesError(t.IMPOSSIBLE_CM, quantity=name, cm=-1234.5)
          for name in words_of("quantity_")),
        *(RulesError(t.ALREADY_DONE, label=piece, action=action.value)
          for action in Action),
        *(RulesError(t.COVER_ONLY_FIGURES, label=piece, kind=kind)
          for kind in words_of("kind_")),
        *(RulesError(t.HARD_TARGET, label=piece, weapon=weapon)
          for weapon in words_of("weapon_")),
        *(RulesError(t.NOT_YOUR_PIECE, label=piece, side=side.value,
                     playing=side.enemy.value) for side in Side),
        *(RulesError(t.TABLE_NO_SITUATION, situation=situation, source=table)
          for situation in SITUATIONS),
        *(RulesError(t.NOT_FIRE_RANGE, question=question) for question in QUESTIONS),
        RulesError(t.ONE_MODEL, labels=three),
        RulesError(t.TABLE_NO_RANGE, weapon="medium mg", cm=1234.5, bands=(),
                   source=table),
    ]


def battle_log(tour: Tour) -> list[LogEntry]:
    """Every kind of line a battle's log has, each word of the rules it names, with the
    longest values."""
    label = labels()
    firer, target = f"{label['2477']} {PIECES}", f"{label['2464']} {PIECES}"
    squad = f"{label['rifleman']} {PIECES}"
    squads = tuple(f"{label[key]} {PIECES} (10)" for key in ("rifleman", "mg-gunner",
                                                           "pistol-soldier"))
    roster = (entry("log_roster_piece", name=squads[0], side="axis"),
              entry("log_roster_off_map", name=target, side="allies"))
    fired = [entry("log_fires_at", firer=firer, target=target, facing=facing.value,
                   effect=effect.value)
             for facing, effect in zip([*Facing, *Facing], Effect, strict=False)]
    done = [*fired,
            *(entry(key, firer=squad, weapon=weapon, targets=squads, down=10, of=10)
              for key in ("log_fires_weapon", "log_fires_weapon_miss")
              for weapon in words_of("weapon_")),
            *(entry("log_fires_weapon_guns", firer=squad, weapon=weapon, targets=squads,
                    down=10, of=10, guns=guns)
              for weapon in words_of("weapon_") for guns in (1, 2)),
            *(entry(key, label=target) for key in (
                "log_reloaded", "log_reload_failed", "log_moves", "log_hides",
                "log_takes_cover", "log_commander_out", "log_commander_in", "log_spotted",
                "log_starts_hidden", "log_places")),
            entry("log_spotted_by", label=target, spotter=squad),
            entry("log_spotted_by_commander", label=squad, spotter=target),
            *(entry(key, label=squad, vehicle=target) for key in (
                "log_gets_on", "log_gets_off")),
            entry("log_moves_up_to", label=target, cm=99),
            entry("log_leaves", label=target, turn=2 * ROUNDS + 1),
            entry("log_runs_over", tank=firer, pieces=squads, rolled=30, eliminated=30),
            entry("log_runs_over_guns", tank=firer, pieces=squads, rolled=30, eliminated=30,
                  guns=2),
            *(entry(key, members=(firer, *squads[:2])) for key in (
                "log_activates", "log_extra_activation")),
            entry("log_places_with", label=squads[0], carrier=target),
            entry("log_passes"), entry("log_ends_turn")]
    return [
        *(entry("log_new_battle", level=level, pieces=roster) for level in ("easy", "tank")),
        entry("log_house_rules", rules=tuple(
            entry("log_house_rule", rule=rule.name, choice=f"{rule.name}_{value}")
            for rule in house.RULES for value in rule.values)),
        entry("log_new_match", pieces=roster),
        *(entry("log_initiative", round=ROUNDS, side=side.value) for side in Side),
        *(entry("log_attacks", attacker=side.value, defender=side.enemy.value)
          for side in Side),
        entry("log_match_battle", n=2),
        *(entry("log_gives_up", side=side.value) for side in Side),
        *(by_side(side.value, line) for side in Side for line in done),
        *(won(by_side(side.value, fired[0]), side.enemy.value) for side in Side),
        *(entry(key, question=question, cm=1234.5, sign="≥", threshold=100, call=call.value,
                spread=12.5) for key in ("log_distance", "log_distance_measured")
          for question in QUESTIONS for call in Call),
        *(entry("log_learned_range", weapon=weapon, cm=1234.5, value=-6, low=1234,
                high=1235) for weapon in words_of("weapon_")),
        *(entry("log_learned_template", weapon=weapon, value=-6)
          for weapon in words_of("weapon_")),
        *(entry("log_learned_situation", situation=situation, value=-6)
          for situation in SITUATIONS),
        entry("log_learned_to_hit", weapon="grenade", value=3),
    ]


def needs() -> list[Need]:
    """The die of every kind of roll, for the real-dice dial: the longest piece, figure,
    shot and number where a roll names them."""
    target = f"{labels()['rifleman']} {PIECES}"
    r, a = Roller, Aim
    return [Need(r.FIRER, a.TO_HIT, "-"), Need(r.FIRER, a.RELOAD, "-"),
            Need(r.FIRER, a.DAMAGE, "-", number=17), Need(r.FIRER, a.DAMAGE, "-"),
            Need(r.TARGET, a.ARMOUR, "-"), Need(r.FIRER, a.EXTRA, "-", number=9),
            *(Need(roller, aim, "-", piece=target, figure=10, shot=shot)
              for roller, aim in ((r.ATTACKER, a.ATTACK), (r.DEFENDER, a.DEFENCE))
              for shot in (None, 10)),
            Need(r.ATTACKER, a.ATTACK, "-", piece=target),
            Need(r.DEFENDER, a.OVERRUN, "-", piece=target, figure=10),
            Need(r.AXIS, a.WEATHER, "-"), Need(r.ATTACKER, a.COMBAT, "-"),
            Need(r.ALLIES, a.EXTENSION, "-"), Need(r.EITHER, a.QUICK, "-"),
            Need(r.ALLIES, a.LECLERC, "-"), Need(r.AXIS, a.RELEASE, "-"),
            Need(r.AXIS, a.BREST, "-"), Need(r.AXIS, a.AIR_ATTACK, "-"),
            Need(r.ALLIES, a.SCATTER, "-")]


def smart_rows(tour: Tour, guide: Any) -> None:
    """Settings: each side's dice row at each source, smart with and without a die paired
    to the side; then the buttons again."""
    guide.app.settings.smart_dice = {"AL:01": {"kind": "pixels", "name": "Pixel", "side":
                                               "allies", "colour": "blue"}}
    guide.choose(tour.t("settings"))
    for row in ("axis_dice", "allies_dice"):
        for _ in DICE_SOURCES:               # Real, Smart, Buttons again
            guide.choose(tour.t(row))
    guide.app.settings.smart_dice = {}
    guide.press("back")


def throws(app: App) -> list[Throw]:
    """The throw screen of smart dice in each of its states, for each side (and Cobra's
    players), with two-digit counts and the longest die a roll asks for."""
    need, back = Need(Roller.FIRER, Aim.DAMAGE, "-", number=PIECES), back_to(app.screen)
    shown = []
    for side, who in (("axis", ""), ("allies", ""), ("axis", "german"), ("allies", "allied")):
        def made(side: str = side, who: str = who, **state: Any) -> Throw:
            return Throw(side, need, PIECES, back, back, who=who, **state)
        awaited = app.side_word(who or side, "cobra_" if who else "")
        shown += [made(), made(more=True, faces=(6, 6, 6)), made(hint=app.t("not_a_roll")),
                  made(hint=app.t("wrong_side_die", side=awaited)), made(asleep=True)]
    return shown


def journey_words(tour: Tour) -> None:
    """The words the box says only inside its sentences, each in a sentence of the box's own
    making with the longest values, where the box shows it: the words of the rules in the
    refusals of a battle (a notice) and of Cobra (under Cobra's header), every kind of line
    in the log of a battle and of a Cobra game (saved with them, resumed, and the log read
    from the menu), and the die of every kind of roll on the real-dice dial."""
    seed_battle(tour, "words", {Side.AXIS: [("2477", {})], Side.ALLIES: [("2464", {})]},
                round=ROUNDS, log=tuple(battle_log(tour)))
    guide = tour.guide(tour.box("words"), "words")
    smart_rows(tour, guide)
    guide.choose(tour.t("resume"))
    app = guide.app
    for exc in refusals(tour):
        guide.show(refuse(app, app.say(exc), back_to(app.screen)))
    for lines in chances(tour, app):
        guide.show(Scroll(app.t("details"), lines, app.screen))
    app.settings.dice = {"axis": "dial", "allies": "dial"}
    for need in needs():
        guide.show(face_for(app, need, "axis", back_to(app.screen)))
    for throw in throws(app):
        guide.show(throw)
    app.settings.dice = {"axis": "smart", "allies": "smart"}    # both throw for who goes first
    guide.show(RollOff(app.t("initiative"), back_to(app.screen),
                       says=lambda winner: outcome("say_initiative", side=winner.value)))
    app.settings.dice = {"axis": "dial", "allies": "dial"}
    app.settings.voice = "off"             # the menu's Say it again dimmed: OK says why
    guide.press("back")
    guide.choose(tour.t("hear_again"))
    guide.press("ok")
    app.settings.voice = "all"
    guide.choose(tour.t("battle_log"))
    guide.play(400, until=lambda: not isinstance(guide.view, Lines))
    tour.save("cobra-words", CobraSession(at(28, 0, []), log=list(cobra_log())).to_dict())
    guide = tour.guide(tour.box("cobra-words"), "cobra")
    guide.choose(tour.t("resume_cobra"))
    app = guide.app
    for said in cobra_sayings():
        guide.show(cobra.reading(app, app.t("not_possible"), [app.say(said)], app.screen))
    guide.press("back")
    guide.choose(tour.t("battle_log"))
    guide.play(400, until=lambda: not isinstance(guide.view, Lines))


def chances(tour: Tour, app: App) -> list[list[str]]:
    """Each word of a chance in each line that says one, how many may fall, the dice said
    fair or not (as the dice statistics say them), and the details of a shot whose modifiers
    the players set all, at each level: every line in the words of the box's making."""
    label = labels()
    bands = [app.t(key) for key in ("chance_none", "chance_tiny", "chance_unlikely",
                                    "chance_even", "chance_likely", "chance_almost",
                                    "chance_sure")]
    said = [[app.t("hit_chance", hit=band), app.t("kill_chance", kill=band),
             app.t("soft_odds", down=band), app.t("all_down", all=band)] for band in bands]
    said.append([app.t("expected_down", low=9, high=10, n=10),
                 app.t("expected_down_one", low=10, n=10)])
    said.append([joined(" · ", app.t("rolls_counted", title=app.t("overall"), n=99999),
                        app.t(key)) for key in ("dice_fair", "dice_unfair", "dice_too_few")])
    aim = LastShot(f"{label['2477']} 1", f"{label['2464']} 1", Facing.REAR, hull_down=True,
                   over=True)
    odds = shot_odds(app, aim)
    assert not isinstance(odds, RulesError)
    said += [shot_details(app, odds, aim, level, crew_below_half=True)
             for level in ("tank", "easy")]
    return said
