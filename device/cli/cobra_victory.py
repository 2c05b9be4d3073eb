"""`cobra vp`, `cobra release`, `cobra brest` and `cobra leclerc`: the victory points of an
event the players report (16.1, 16.2, 18.0) and Cobra's special rolls (15.1, 15.2, 15.3)."""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from cobi_companion.device.cli.common import make_dice, note_unused, print_result
from cobi_companion.device.cli.errors import UsageError
from cobi_companion.rules.numbers import digits, echo, whole

if TYPE_CHECKING:
    from cobi_companion.rules.cobra.exits import Exit


def vp(args: argparse.Namespace) -> int:
    from cobi_companion.device.cli import explain_victory
    from cobi_companion.rules.cobra import victory_points as vps
    from cobi_companion.rules.cobra.scoresheet import Award

    key = vps.parse_event(args.event)
    found = vps.SOURCES[key]
    before = (Award(args.turn, key, found.side, args.scored),) if args.scored else ()
    scored = vps.score(args.scenario, args.turn, key, args.count, _exits(args.exits), before)
    print_result(args, scored.to_dict(), lambda: explain_victory.vp_text(scored))
    return 0


def release(args: argparse.Namespace) -> int:
    from cobi_companion.device.cli import explain_victory
    from cobi_companion.rules.cobra import special_rolls as rolls
    from cobi_companion.rules.dice import Aim, Need, Roller

    rolls.release(args.turn, args.first_us_exit, args.released, 1)   # refused before a roll
    dice = make_dice(args.dice)
    face = dice.roll(Need(Roller.AXIS, Aim.RELEASE, "15th Army release"))
    result = rolls.release(args.turn, args.first_us_exit, args.released, face)
    print_result(args, result.to_dict(), lambda: explain_victory.release_text(result))
    note_unused(dice)
    return 0


def brest(args: argparse.Namespace) -> int:
    from cobi_companion.device.cli import explain_victory
    from cobi_companion.rules.cobra import special_rolls as rolls
    from cobi_companion.rules.cobra.exits import Exit
    from cobi_companion.rules.dice import Aim, Need, Roller

    exits = (Exit(args.us_west_exit, "us", "west"),) if args.us_west_exit else ()
    rolls.brest(args.turn, 1, exits)                                 # refused before a roll
    dice = make_dice(args.dice)
    result = rolls.brest(args.turn, dice.roll(Need(Roller.AXIS, Aim.BREST, "Brest")), exits)
    print_result(args, result.to_dict(), lambda: explain_victory.brest_text(result))
    note_unused(dice)
    return 0


def leclerc(args: argparse.Namespace) -> int:
    from cobi_companion.device.cli import explain_victory
    from cobi_companion.rules.cobra import special_rolls as rolls
    from cobi_companion.rules.dice import Aim, Need, Roller

    dice = make_dice(args.dice)
    result = rolls.leclerc(dice.roll(Need(Roller.ALLIES, Aim.LECLERC, "Leclerc")))
    print_result(args, result.to_dict(), lambda: explain_victory.leclerc_text(result))
    note_unused(dice)
    return 0


def _exits(text: str | None) -> tuple[Exit, ...]:
    """--exits 20:us:west:mech_division,21:us:south → the exits recorded before."""
    from cobi_companion.rules.cobra.exits import Exit

    exits = []
    for item in (t.strip() for t in (text or "").split(",") if t.strip()):
        parts = item.split(":")
        # any turn the rules can refuse in their words (whole() reads at most 15 digits)
        turn = whole(parts[0], 0, sys.maxsize) if digits(parts[0]) else None
        if len(parts) not in (3, 4) or turn is None:
            raise UsageError(f"--exits {echo(item)}: each TURN:NATION:EDGE or "
                             f"TURN:NATION:EDGE:KIND, like 20:us:west:mech_division")
        exits.append(Exit(turn, *parts[1:]))
    return tuple(exits)
