"""`move`, `reload`, `initiative`, `overrun` and `spot`: a vehicle's actions other than fire,
the Easy level's roll-off, and spotting a hidden piece."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from cobi_companion.device.cli.checked import Whole, card
from cobi_companion.device.cli.common import (
    cards,
    house_rules,
    make_dice,
    note_unused,
    print_result,
)
from cobi_companion.device.cli.errors import UsageError
from cobi_companion.device.cli.options import DICE, TABLE_CM, add_house_rules
from cobi_companion.device.cli.reload_crew import reload_crew
from cobi_companion.device.cli.specs import (
    OVERRUN_FORM,
    OVERRUN_MARKS,
    SPOTTER_STATUS,
    labeller,
    status,
    tank_status_words,
    under_tank,
)

if TYPE_CHECKING:
    from cobi_companion.rules.status import Status


def move(args: argparse.Namespace) -> int:
    from cobi_companion.device.cli import explain
    from cobi_companion.rules.movement import allowance

    card = cards(args).get(args.card)
    marks = status(args.status, ("immobilized", "destroyed"), "--status")
    result = allowance(card, reverse=args.reverse, turns=args.turns, rough=args.rough,
                       road=args.road, moved=args.moved, status=marks, house=house_rules(args))
    print_result(args, result.to_dict(), explain.allowance(result))
    return 0


def reload(args: argparse.Namespace) -> int:
    from cobi_companion.device.cli import explain
    from cobi_companion.rules.tank import hard_fire

    card, house = cards(args).get(args.card), house_rules(args)
    marks = reload_status(args.status)
    below_half, by_house = reload_crew(card, args.figures, args.crew_below_half, house,
                                       "--figures")
    result = hard_fire.reload_action(card, marks, make_dice(args.dice), below_half, house,
                                     crew_by_house=by_house)
    print_result(args, result.to_dict(), explain.reload(result))
    return 0


def reload_status(text: str | None) -> Status:
    """The gun's marks for `reload --status`: unloaded unless the list says `loaded` (the box
    offers the reload action only to an unloaded gun, and the rules refuse a loaded one)."""
    from cobi_companion.rules.status import Status

    allowed = ("unloaded", "loaded", "gun_destroyed")
    words = [w.strip() for w in (text or "").split(",") if w.strip()]
    bad = [w for w in words if w not in allowed]
    if bad:
        raise UsageError(f"--status: {bad[0]!r} is not allowed; allowed: {', '.join(allowed)}")
    if "loaded" in words and "unloaded" in words:
        raise UsageError("--status: 'loaded' and 'unloaded' cannot both be given")
    return Status(loaded="loaded" in words, gun_destroyed="gun_destroyed" in words)


def initiative(args: argparse.Namespace) -> int:
    from cobi_companion.rules.easy import fire as easy

    result = easy.initiative(make_dice(args.dice))
    rolls = ", ".join(f"Axis {a} – Allies {b}" for a, b in result.rolls)
    print_result(args, {"rolls": [list(r) for r in result.rolls],
                        "winner": result.winner.value},
                 f"Initiative: {rolls} → {result.winner.value.upper()} has the initiative")
    return 0


def overrun(args: argparse.Namespace) -> int:
    """Tank Game overrun (rule 9): a tank moving over figures and guns."""
    from cobi_companion.device.cli import explain
    from cobi_companion.rules.battle import Piece
    from cobi_companion.rules.status import Side
    from cobi_companion.rules.tank import overrun as rule

    book = cards(args)
    label = labeller()
    card = book.get(args.tank)
    marks = status(args.tank_status, tank_status_words(), "--tank-status")
    tank = Piece(label(card), Side.AXIS, card, marks, card.crew)
    under = tuple(under_tank(spec, book, label) for spec in args.under)
    dice = make_dice(args.dice)
    result = rule.overrun(tank, under, dice)
    print_result(args, {"level": "tank", "action": "overrun", **result.to_dict()},
                 explain.overrun_text(result, tank, under))
    note_unused(dice)
    return 0


def spot(args: argparse.Namespace) -> int:
    """Tank Game spotting (rules 5, 8 and 11): is the hidden piece revealed by the spotter?"""
    from cobi_companion.rules.battle import Piece
    from cobi_companion.rules.card import Kind
    from cobi_companion.rules.status import Side, Status
    from cobi_companion.rules.tank import hiding

    book = cards(args)
    label = labeller()
    spotter_card, hidden_card = book.get(args.spotter), book.get(args.hidden)
    marks = status(args.spotter_status, SPOTTER_STATUS, "--spotter-status")
    spotter = Piece(label(spotter_card), Side.AXIS, spotter_card, marks,
                    1 if spotter_card.kind is Kind.FIGURE else spotter_card.crew)
    hidden = Piece(label(hidden_card), Side.ALLIES, hidden_card, Status(hidden=True),
                   1 if hidden_card.kind is Kind.FIGURE else hidden_card.crew)
    check = hiding.spots(spotter, hidden, args.distance_cm, args.binoculars)
    print_result(args, {"level": "tank", "action": "spot", **check.to_dict()}, check.reason)
    return 0


# ---- the options: added to the command's parser when it is first used ----

CM_MOVED = Whole(0, 1000, "a whole number of cm")
TURNS = Whole(0, 8, "a whole number of turns of up to 45°")     # 8: a whole circle
PATCHES = Whole(1, 9, "a whole number of patches of rough ground")
# a crew of at most a squad's figures, the most the box dials (rules.battle.SQUAD_MAX)
RELOAD_FIGURES = Whole(0, 10, "a whole number of figures")


def move_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--card", required=True, metavar="SET", type=card)
    parser.add_argument("--reverse", action="store_true", help="moving backward")
    parser.add_argument("--turns", type=TURNS, default=0, metavar="N",
                        help="turns of up to 45°")
    parser.add_argument("--rough", nargs="?", type=PATCHES, const=1, default=0, metavar="N",
                        help="crossing rough ground (N: the patches crossed, for the house "
                             "rule rough=each)")
    parser.add_argument("--road", action="store_true", help="the whole move is on road")
    parser.add_argument("--moved", type=CM_MOVED, default=0, metavar="CM",
                        help="cm already driven: prints what is left")
    parser.add_argument("--status", metavar="LIST", help="immobilized and/or destroyed")
    add_house_rules(parser, "the rules' readings by default, docs/rules-notes.md")
    parser.add_argument("--json", action="store_true")


def reload_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--card", required=True, metavar="SET", type=card)
    parser.add_argument("--figures", type=RELOAD_FIGURES, metavar="N",
                        help="crew figures left: the -1 to reload is worked out from them (an "
                             "open-top needs two, rule 11; else half the card's crew)")
    parser.add_argument("--crew-below-half", action="store_true",
                        help="too few crew to reload without -1 (under half the crew; an "
                             "open-top, fewer than two figures); or give --figures N")
    parser.add_argument("--status", metavar="LIST",
                        help="unloaded (the default), loaded and/or gun_destroyed")
    parser.add_argument("--dice", metavar="FACES", type=DICE)
    add_house_rules(parser, "the rules' readings by default, docs/rules-notes.md")
    parser.add_argument("--json", action="store_true")


def initiative_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice", metavar="FACES", type=DICE,
                        help="Axis, Allies, then again on a tie")
    parser.add_argument("--json", action="store_true")


def overrun_options(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.tank.overrun import Cover

    parser.add_argument("--tank", required=True, metavar="CARD", type=card,
                        help="the tank's set number or card id (a hard or open-top vehicle)")
    parser.add_argument("--tank-status", metavar="LIST",
                        help=f"comma list of {', '.join(tank_status_words())}")
    parser.add_argument("--under", action="append", required=True, metavar="SPEC",
                        help=f"a piece under the tank (repeat for each, in order): "
                             f"{OVERRUN_FORM}, COVER one of "
                             f"{', '.join(cover.value for cover in Cover)} (default open), "
                             f"MARK one of {', '.join(OVERRUN_MARKS)}; like rifleman:3@soft "
                             f"or bofors-37mm")
    parser.add_argument("--dice", metavar="FACES", type=DICE,
                        help="scripted faces in order, one for each visible figure (or 'ask' "
                             "for real dice); default: random")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def spot_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--spotter", required=True, metavar="CARD", type=card,
                        help="the enemy piece that may spot: a figure's card, or a closed "
                             "vehicle's with --spotter-status commander_out")
    parser.add_argument("--spotter-status", metavar="LIST",
                        help=f"comma list of {', '.join(SPOTTER_STATUS)}")
    parser.add_argument("--hidden", required=True, metavar="CARD", type=card,
                        help="the hidden piece's set number or card id")
    parser.add_argument("--distance-cm", required=True, type=TABLE_CM, metavar="N",
                        help="the distance between them, measured with the tape")
    parser.add_argument("--binoculars", action="store_true",
                        help="the spotting figure has binoculars (40 cm instead of 30 cm)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
