"""`move`, `reload`, `initiative` and `overrun`: a vehicle's actions other than fire, and the
Easy level's roll-off."""
from __future__ import annotations

import argparse

from cobi_companion.device.cli.common import (
    cards,
    house_rules,
    make_dice,
    note_unused,
    print_result,
)
from cobi_companion.device.cli.specs import labeller, status, tank_status_words, under_tank


def move(args: argparse.Namespace) -> int:
    from cobi_companion.device.ui import explain
    from cobi_companion.rules.movement import allowance

    card = cards(args).get(args.card)
    marks = status(args.status, ("immobilized", "destroyed"), "--status")
    result = allowance(card, reverse=args.reverse, turns=args.turns, rough=args.rough,
                       road=args.road, moved=args.moved, status=marks)
    print_result(args, result.to_dict(), explain.allowance(result))
    return 0


def reload(args: argparse.Namespace) -> int:
    from cobi_companion.device.ui import explain
    from cobi_companion.rules import tank_game

    card = cards(args).get(args.card)
    marks = status(args.status or "unloaded", ("unloaded", "gun_destroyed"), "--status")
    result = tank_game.reload_action(card, marks, make_dice(args.dice), args.crew_below_half,
                                     house_rules(args))
    print_result(args, result.to_dict(), explain.reload(result))
    return 0


def initiative(args: argparse.Namespace) -> int:
    from cobi_companion.rules import easy

    result = easy.initiative(make_dice(args.dice))
    rolls = ", ".join(f"Axis {a} – Allies {b}" for a, b in result.rolls)
    print_result(args, {"rolls": [list(r) for r in result.rolls],
                        "winner": result.winner.value},
                 f"Initiative: {rolls} → {result.winner.value.upper()} has the initiative")
    return 0


def overrun(args: argparse.Namespace) -> int:
    """Tank Game overrun (rule 9): a tank moving over figures and guns."""
    from cobi_companion.device.ui import explain
    from cobi_companion.rules import overrun as rule
    from cobi_companion.rules.battle import Piece
    from cobi_companion.rules.status import Side

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
