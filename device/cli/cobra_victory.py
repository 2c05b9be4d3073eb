"""`cobra vp`, `cobra release`, `cobra brest` and `cobra leclerc`: the victory points of an
event the players report (16.1, 16.2, 18.0) and Cobra's special rolls (15.1, 15.2, 15.3)."""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from cobi_companion.device.cli.checked import Whole
from cobi_companion.device.cli.common import make_dice, note_unused, print_result
from cobi_companion.device.cli.errors import UsageError
from cobi_companion.device.cli.options import DICE, DIE, game_turn
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


# ---- the options: added to the command's parser when it is first used ----

def vp_options(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.turns import SCENARIOS

    parser.add_argument("--scenario", choices=list(SCENARIOS), required=True,
                        help="the scenario played: some sources are its own (16.1, 16.2)")
    parser.add_argument("--turn", type=game_turn(), required=True, metavar="N",
                        help="the game turn it happened in")
    parser.add_argument("--event", required=True, metavar="EVENT",
                        help="what happened: a source's key (allied_hq, cherbourg_held, "
                             "variant_654...; a wrong one lists them all) or an exit "
                             "as exit:NATION:EDGE:KIND, like exit:us:west:mech_division")
    parser.add_argument("--count", type=Whole(1, 99, "a number of units"), default=1,
                        metavar="N", help="how many units of that kind (default 1)")
    parser.add_argument("--exits", metavar="LIST",
                        help="the exits recorded before, comma list of TURN:NATION:EDGE:KIND "
                             "(like 20:us:west:mech_division): four US divisions score at "
                             "most, a US HQ off the west edge by GT 25 (16.1, 16.2)")
    parser.add_argument("--scored", type=Whole(0, 99, "VP"), default=0, metavar="VP",
                        help="the VP this source has given before (16.1: 12 at most for US "
                             "units not exited)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def release_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--turn", type=game_turn(), required=True, metavar="N",
                        help="the game turn of the attempt")
    parser.add_argument("--first-us-exit", type=game_turn(), metavar="N",
                        help="the game turn the first US unit exited a map edge (attempts "
                             "from the next, or from GT 22, 15.2)")
    parser.add_argument("--released", type=Whole(0, 4, "divisions released"), default=0,
                        metavar="N", help="the divisions released before (0-4, 15.2e)")
    parser.add_argument("--dice", metavar="FACES", type=DICE, help=DIE)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def brest_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--turn", type=game_turn(), required=True, metavar="N",
                        help="the game turn beginning (from GT 26, 15.3a)")
    parser.add_argument("--us-west-exit", type=game_turn(), metavar="N",
                        help="the game turn a US unit first exited off the west edge, if "
                             "any (15.3)")
    parser.add_argument("--dice", metavar="FACES", type=DICE, help=DIE)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def leclerc_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice", metavar="FACES", type=DICE, help=DIE)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
