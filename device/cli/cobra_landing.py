"""`cobra landing ACTION`: Cobra's Allied Landing Phase (17.3.2) one roll at a time: a
paratroop unit's scatter, a German unit's beach defence roll, landing attrition, a beach
abandoned; and the 3:1 attack on a unit withdrawn from a beach hex in an EZOC (17.3.4)."""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from cobi_companion.device.cli.checked import Whole
from cobi_companion.device.cli.common import cobra_tables, make_dice, note_unused, print_result
from cobi_companion.device.cli.errors import UsageError
from cobi_companion.device.cli.options import DICE, DIE, add_tables
from cobi_companion.rules.numbers import digits, echo, whole

if TYPE_CHECKING:
    from cobi_companion.rules.cobra.landing import AttritionOdds
    from cobi_companion.rules.cobra.tables import CobraTables
    from cobi_companion.rules.dice import Dice

# The options each action takes: any other is refused, rather than silently ignored.
OPTIONS = {"scatter": ("division",), "commit": (), "attrition": ("target", "committed", "terrain"),
           "beach": ("beach", "landed", "lost"), "withdrawal": ("steps",)}
REQUIRED = {"scatter": ("division",), "attrition": ("target",),
            "beach": ("beach", "landed", "lost")}
EVERY = sorted({name for names in OPTIONS.values() for name in names})


def landing(args: argparse.Namespace) -> int:
    from cobi_companion.device.cli import explain_landing

    _check_options(args)
    if args.action == "beach":
        from cobi_companion.rules.cobra import landing as rules

        if args.dice is not None:
            raise UsageError("--dice: the beach check rolls no die (17.3.2 step 5)")
        check = rules.beach_check(rules.Target(args.beach), args.landed, args.lost)
        print_result(args, check.to_dict(), explain_landing.lines(check.to_dict()))
        return 0
    tables = cobra_tables(args)
    dice = make_dice(args.dice)
    data = _rolled(args, dice, tables)
    print_result(args, data, lambda: explain_landing.lines(data))
    note_unused(dice)
    return 0


def _check_options(args: argparse.Namespace) -> None:
    allowed = OPTIONS[args.action]
    for name in EVERY:
        if getattr(args, name) is not None and name not in allowed:
            raise UsageError(f"--{name} is not an option of cobra landing {args.action}; its "
                             f"options: {', '.join('--' + o for o in allowed) or 'none'}")
    missing = [f"--{name}" for name in REQUIRED.get(args.action, ())
               if getattr(args, name) is None]
    if missing:
        raise UsageError(f"cobra landing {args.action} needs {' and '.join(missing)}")


def _rolled(args: argparse.Namespace, dice: Dice, tables: CobraTables) -> dict[str, Any]:
    from cobi_companion.rules.cobra import landing as rules

    if args.action == "scatter":
        return rules.scatter(rules.Target(args.division), dice, tables).to_dict()
    if args.action == "commit":
        return rules.commitment(dice).to_dict()
    if args.action == "attrition":
        return rules.attrition(_attrition_odds(args, tables), dice, tables).to_dict()
    return rules.withdrawal(dice, tables, args.steps).to_dict()


def _attrition_odds(args: argparse.Namespace, tables: CobraTables) -> AttritionOdds:
    """The start column of --target, shifted by --committed (a beach) or --terrain (a
    paratroop unit: a shift, or a terrain of the owner's file; bocage none)."""
    from cobi_companion.rules.cobra import landing as rules

    where = rules.Target(args.target)
    terrain: int | None = None
    name = "" if args.terrain is None else args.terrain.strip()
    if name.lower() == rules.BOCAGE:
        terrain = 0
    elif digits(name.lstrip("+-")):
        # any number the rules can refuse in their words; more digits than that (or a sign
        # twice) is no number at all
        terrain = whole(name, -sys.maxsize, sys.maxsize)
        if terrain is None:
            raise UsageError(f"--terrain {echo(name)}: a terrain shift 0 to -5 (8.3.2), or a "
                             f"terrain of your tables file")
        name = ""
    elif name and not where.beach:      # a beach's terrain is refused by the rules, as given
        terrain = tables.terrain_shift(name)
    return rules.attrition_odds(where, committed=args.committed, terrain=terrain,
                                terrain_name=name)


# ---- the options: added to the command's parser when it is first used ----

def landing_options(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.landing import BEACHES, DIVISIONS, Target

    parser.add_argument("action", choices=["scatter", "commit", "attrition", "beach",
                                           "withdrawal"],
                        help="scatter: one paratroop unit's drop (17.3.2 step 2); commit: a "
                             "German unit's beach defence roll (step 4a); attrition: landing "
                             "attrition (step 4b); beach: is a beach abandoned (step 5); "
                             "withdrawal: the 3:1 attack on a unit withdrawn from a beach hex "
                             "in an EZOC (17.3.4)")
    parser.add_argument("--division", choices=[d.value for d in DIVISIONS],
                        help="scatter: the paratroop unit's airborne division")
    parser.add_argument("--target", choices=[t.value for t in Target],
                        help="attrition: the beach, or the paratroop unit's division")
    parser.add_argument("--committed", type=Whole(0, 60, "German steps committed"),
                        metavar="N", help="attrition on a beach: the German steps committed "
                                          "to its hex (one column right each)")
    parser.add_argument("--terrain", metavar="TERRAIN",
                        help="attrition on a paratroop unit: its terrain's shift (0 to -5) "
                             "or a terrain named in the Cobra tables file; bocage: none")
    parser.add_argument("--beach", choices=[b.value for b in BEACHES],
                        help="beach: the beach checked")
    parser.add_argument("--landed", type=Whole(1, 99, "steps landed"), metavar="N",
                        help="beach: the Allied steps landed on it")
    parser.add_argument("--lost", type=Whole(0, 99, "steps lost"), metavar="N",
                        help="beach: the Allied steps eliminated there")
    parser.add_argument("--steps", type=Whole(1, 9, "the unit's steps"), metavar="N",
                        help="withdrawal: the steps the withdrawing unit has (tells whether "
                             "the result destroys it)")
    parser.add_argument("--dice", metavar="FACES", type=DICE, help=DIE)
    add_tables(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
