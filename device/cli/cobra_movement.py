"""`cobra ma` and `cobra replacements`: a Cobra unit's movement allowance with the air attack
of an MA increase (5.3, 10.6, 12.1b, 5.3d), and the replacement steps a side may take in a game
turn (12.2) with the German VP of the Allied steps (16.1)."""
from __future__ import annotations

import argparse

from cobi_companion.device.cli.checked import Whole
from cobi_companion.device.cli.common import make_dice, note_unused, print_result
from cobi_companion.device.cli.errors import UsageError
from cobi_companion.device.cli.options import DICE, game_turn


def ma(args: argparse.Namespace) -> int:
    from cobi_companion.device.cli import explain_movement
    from cobi_companion.rules.cobra.movement import INCREASES, air_attack, allowance
    from cobi_companion.rules.cobra.tables import Weather

    if args.after_exit and args.nation != "german":
        raise UsageError("--after-exit: 5.3c changes only the German MA: leave it out or give "
                         "--nation german")
    if args.not_a_division and (args.nation != "british" or args.mechanized or args.hq):
        raise UsageError("--not-a-division: only for British infantry (--nation british, "
                         "without --mechanized or --hq): a brigade or commandos, not a British "
                         "or Canadian infantry division (5.2c)")
    if args.dice is not None and args.increase is None:
        raise UsageError("--dice: the air attack is rolled only for an MA increase (5.3d): "
                         "give --increase third|two_thirds")
    if args.landing and args.turn is None:
        raise UsageError("--landing: give --turn N too: units land with half their MA on GT 1 "
                         "to 14 (17.3.9)")
    increase = INCREASES[args.increase] if args.increase else 0
    result = allowance(args.printed, args.nation, phase=args.phase,
                       mechanized=args.mechanized,
                       weather=Weather(args.weather) if args.weather else None,
                       out_of_supply=args.out_of_supply, after_exit=args.after_exit,
                       replaced=args.replaced, increase=increase, turn=args.turn,
                       division=not args.not_a_division, hq=args.hq, landed=args.landing)
    attack = None
    if increase:
        dice = make_dice(args.dice)
        attack = air_attack(increase, dice)
        note_unused(dice)
    data = {**result.to_dict(), "air_attack": attack.to_dict() if attack else None}
    print_result(args, data, lambda: explain_movement.ma_text(result, attack))
    return 0


def replacements(args: argparse.Namespace) -> int:
    """The steps `--taken` are counted one by one: each must be allowed (12.2), then what is
    left is said; every tenth Allied step of the game gives the German 1 VP (16.1)."""
    from cobi_companion.device.cli import explain_movement
    from cobi_companion.rules.cobra.replacements import (
        ALLIED,
        CARRIED_MOST,
        KINDS,
        VP_STEPS,
        allowance,
        check_take,
    )

    taken = _counts(args.taken, "--taken", halves=False)
    carried = _counts(args.carried, "--carried", halves=True)
    if args.carried is not None and args.side != "german":
        raise UsageError("--carried: only the German replacement tracks carry steps (12.2d)")
    over = [kind for kind in KINDS if carried[kind] > CARRIED_MOST[kind]]
    if over:        # more than the track can hold is a misread track: said, not cut down
        raise UsageError(f"--carried: at most one step of each kind is carried on from the "
                         f"game turn before, not {args.carried} (12.2d)")
    used = {kind: 0 for kind in KINDS}
    allied = args.allied_steps
    for kind in KINDS:
        for _ in range(taken[kind]):
            check_take(allowance(args.side, args.turn, carried, used, allied), kind)
            used[kind] += 1
            allied += args.side in ALLIED
    steps = allowance(args.side, args.turn, carried, used, allied)
    vp_added = allied // VP_STEPS - args.allied_steps // VP_STEPS
    print_result(args, {**steps.to_dict(), "german_vp_added": vp_added},
                 lambda: explain_movement.replacements_text(steps, vp_added))
    return 0


def _counts(text: str | None, option: str, *, halves: bool) -> dict[str, int]:
    """"mech=1,inf=2" as steps of each kind; with `halves`, mechanized steps counted in halves
    ("mech=0.5" is one half, 12.2b)."""
    from cobi_companion.rules.cobra.replacements import KINDS

    counts = {kind: 0 for kind in KINDS}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        kind, _, value = item.partition("=")
        kind, value = kind.strip(), value.strip()
        allowed = {"0", "0.5", "1", "1.5", "2"} if halves and kind == "mech" else \
            {str(n) for n in range(0, 10)}
        if kind not in KINDS or value not in allowed:
            step = "0.5 steps" if halves else "steps"
            raise UsageError(f"{option} {item.strip()!r}: write KIND=N, KIND mech or inf, N in "
                             f"whole {step}, like mech=1,inf=2")
        counts[kind] = round(float(value) * 2) if halves and kind == "mech" else int(value)
    return counts


# ---- the options: added to the command's parser when it is first used ----

def ma_options(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.movement import ARMIES, INCREASES, PHASES, PRINTED_MAX
    from cobi_companion.rules.cobra.tables import Weather

    parser.add_argument("--printed", type=Whole(1, PRINTED_MAX, "a printed MA"), required=True,
                        metavar="N", help="the unit's printed MA")
    parser.add_argument("--nation", choices=ARMIES, required=True,
                        help="whose unit (british: British, Canadian and Polish)")
    parser.add_argument("--phase", choices=PHASES, default="initial",
                        help="the Initial (default) or the Mechanized Movement Phase")
    parser.add_argument("--mechanized", action="store_true",
                        help="a mechanized unit (5.2a, 5.2b; a US division with a truck, "
                             "5.7d): the only ones that move in the Mechanized Movement Phase, "
                             "with British and Canadian infantry divisions at two thirds "
                             "(5.2c), and the only ones that may overrun (5.4; an HQ: --hq)")
    parser.add_argument("--hq", action="store_true",
                        help="an HQ: it moves in the Mechanized Movement Phase as a "
                             "mechanized unit but never overruns (5.4)")
    parser.add_argument("--not-a-division", action="store_true",
                        help="British: an infantry unit that is not a British or Canadian "
                             "infantry division (a brigade, commandos): it does not move in "
                             "the Mechanized Movement Phase (5.2c)")
    parser.add_argument("--weather", choices=[weather.value for weather in Weather],
                        help="this game turn's weather: needed for a German unit (5.3b)")
    parser.add_argument("--out-of-supply", action="store_true",
                        help="out of supply: the MA halved first (10.6, 5.3b)")
    parser.add_argument("--after-exit", action="store_true",
                        help="German: the first German player turn after the first Allied "
                             "unit exited a map edge (5.3c)")
    parser.add_argument("--replaced", action="store_true",
                        help="received a replacement this turn: half the current MA in the "
                             "Initial Movement Phase (12.1b)")
    parser.add_argument("--turn", type=game_turn(), metavar="N",
                        help="the game turn: the Allied MA is halved on GT 1 and 2 (17.3.3b)")
    parser.add_argument("--landing", action="store_true",
                        help="Allied, campaign and Build-Up: the unit lands this game turn, "
                             "GT 1-14: half the MA (17.3.9), so a quarter of the printed MA on "
                             "GT 1 and 2 (17.3.3b); needs --turn")
    parser.add_argument("--increase", choices=list(INCREASES),
                        help="German, overcast or clear: increase the MA by a third or two, "
                             "then roll the air attack (5.3d)")
    parser.add_argument("--dice", metavar="FACES", type=DICE,
                        help="with --increase: the air attack's die (or 'ask'); default: "
                             "random")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def replacements_options(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.replacements import SIDES

    parser.add_argument("--turn", type=game_turn(), required=True, metavar="N",
                        help="the game turn")
    parser.add_argument("--side", choices=SIDES, required=True,
                        help="whose Replacement Phase (us and british: the Allied player)")
    parser.add_argument("--taken", metavar="STEPS",
                        help="the steps taken this game turn, like mech=1,inf=2: each is "
                             "checked against the allowance (12.2)")
    parser.add_argument("--carried", metavar="STEPS",
                        help="German: what the replacement tracks carried from the turns "
                             "before, like mech=0.5,inf=1 (one step of each at most, 12.2d)")
    parser.add_argument("--allied-steps", type=Whole(0, 999, "Allied steps"), default=0,
                        metavar="N",
                        help="the Allied replacement steps used in the game before this turn "
                             "(1 German VP for every 10, 16.1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
