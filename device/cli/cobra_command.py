"""`cobra command`: the Allied command limits of a game turn (11.3) — may the US or the
British make one more attack, one more overrun — and whether an HQ may give a shift now (9.1i,
8.3.3a). Stateless: the levels, the counts and the HQs' sides are given as options."""
from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cobi_companion.device.cli.common import print_result
from cobi_companion.device.cli.errors import UsageError
from cobi_companion.device.cli.options import game_turn
from cobi_companion.rules.numbers import digits, echo, whole

if TYPE_CHECKING:
    from cobi_companion.rules.cobra.command import Command, HQStatus


def command(args: argparse.Namespace) -> int:
    from cobi_companion.rules.cobra.command import (
        ALLIED_ARMIES,
        Attempt,
        Command,
        Tally,
        limits_apply,
    )

    turn: int = args.turn
    # Game turns 1 and 2 are only played in the scenarios that start with the landing (17.3e).
    limited = limits_apply(turn, landing=True)
    levels = _pairs(args.limit, "--limit", "us=4,british=3", single=True)
    made = _pairs(args.made, "--made", "us=4/1,british=2/0", single=False)
    missing = [army for army in ("us", "british") if army not in (levels or {})]
    if limited and missing:
        raise UsageError(f"--limit: the command levels of game turn {turn} from the turn "
                         f"record track, {' and '.join(a + '=' for a in missing)} missing, "
                         f"like --limit us=4,british=3 (11.3)")
    state = Command(_hqs(args.hq), turn)
    if limited and levels is not None:
        state = state.with_levels(turn, levels["us"][0], levels["british"][0])
    counts = tuple(Tally(*(made or {}).get(army.value, (0, 0))) for army in ALLIED_ARMIES)
    state = replace(state, made=(counts[0], counts[1]))
    checks = {army.value: {attempt.value: state.check(turn, army, attempt).to_dict()
                           for attempt in Attempt} for army in ALLIED_ARMIES}
    data: dict[str, Any] = {"turn": turn, "limits_apply": limited,
                            "rule": "11.3" if limited else "17.3e", "limits": checks,
                            "hq": _use(args.use, state, turn)}
    print_result(args, data, lambda: _text(data))
    return 0


def _pairs(values: list[str] | None, option: str, example: str,
           single: bool) -> dict[str, tuple[int, ...]] | None:
    """"us=4,british=3" (single numbers) or "us=4/1" (attacks/overruns), for us and british."""
    if not values:
        return None
    from cobi_companion.rules.cobra.command import LEVEL_MAX

    most = LEVEL_MAX if single else 99
    found: dict[str, tuple[int, ...]] = {}
    for item in (i.strip() for value in values for i in value.split(",") if i.strip()):
        army, _, numbers = item.partition("=")
        parts = numbers.split("/")
        # whole() reads no more digits than a number in range can have (never 5,000)
        read = [whole(p, 0, most) if digits(p.strip()) else None for p in parts]
        good = army.strip().lower() in ("us", "british") and \
            len(parts) == (1 if single else 2) and None not in read
        if not good:
            what = "one command level" if single else "attacks/overruns made"
            raise UsageError(f"{option} {echo(item)}: us= or british= then {what} (0 to "
                             f"{most}), like {option} {example}" + (
                                 "; the track's \"4/4\" is the command level, then the "
                                 "supply points (11.1a): give the first" if single and
                                 len(parts) == 2 else ""))
        found[army.strip().lower()] = tuple(n for n in read if n is not None)
    return found


def _hqs(values: list[str] | None) -> dict[str, HQStatus]:
    """--hq vii=inactive, xxx=active:1 (one of its two shifts given, 8.3.3a)."""
    from cobi_companion.rules.cobra.command import HQState, HQStatus, hq

    status: dict[str, HQStatus] = {}
    for item in (i.strip() for value in values or [] for i in value.split(",") if i.strip()):
        name, _, said = item.partition("=")
        state, _, given = said.strip().lower().partition(":")
        if state not in [s.value for s in HQState] or given not in ("", "0", "1"):
            raise UsageError(f"--hq {echo(item)}: HQ=STATE, STATE one of "
                             f"{', '.join(s.value for s in HQState)} (active:1 when it has "
                             f"given one of two shifts), like --hq vii=inactive")
        status[hq(name).key] = HQStatus(HQState(state), int(given or 0))
    return status


def _use(text: str | None, state: Command, turn: int) -> dict[str, Any] | None:
    """--use vii:+1: the HQ may give the shift (else refused: 9.1e, 9.1i, 8.3.3a)."""
    from cobi_companion.rules.cobra.command import capacity, hq

    if text is None:
        return None
    name, _, columns = text.partition(":")
    if columns.strip() not in ("+1", "+2", "-1", "1", "2"):
        raise UsageError(f"--use {echo(text)}: HQ:COLUMNS, +1 or +2 attacking, -1 defending, like "
                         f"--use vii:+1")
    one, shift = hq(name), int(columns)
    state.check_shift(one, shift, shift > 0, turn)
    given = state.of(one).given + abs(shift)
    return {"hq": one.key, "name": one.name, "army": one.army.value, "columns": shift,
            "state": state.of(one).state.value, "allowed": True,
            "flips": given >= capacity(one, shift > 0, turn),
            "rule": "9.1i, 8.3.3a" + ("g" if one.key == "patton" else "")}


def _text(data: dict[str, Any]) -> str:
    if not data["limits_apply"]:
        lines = [f"game turn {data['turn']}: no Allied command limits on game turns 1 and 2 "
                 f"(17.3e)"]
    else:
        lines = []
        for army, checks in data["limits"].items():
            for kind, check in checks.items():
                more = "one more allowed" if check["allowed"] else "no more this game turn"
                lines.append(f"{'US' if army == 'us' else 'British'} {kind}s: {check['made']} "
                             f"of {check['level']} made, {more} (11.3)")
    use = data["hq"]
    if use is not None:
        then = "; then it is flipped to its inactive side (8.3.3)" if use["flips"] else ""
        lines.append(f"HQ {use['name']} ({use['state']}) may give {use['columns']:+d}{then}")
    return "\n".join(lines)


# ---- the options: added to the command's parser when it is first used ----

def command_options(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.command import HQS, HQState

    parser.add_argument("--turn", type=game_turn(), required=True, metavar="N",
                        help="the game turn (no command limits on game turns 1 and 2, 17.3e)")
    parser.add_argument("--limit", action="append", metavar="LEVELS",
                        help="the command levels printed on the turn record track for this "
                             "game turn, like us=4,british=3: each is the number of attacks "
                             "and the number of overruns that army may make (11.3a)")
    parser.add_argument("--made", action="append", metavar="COUNTS",
                        help="the attacks/overruns made so far this game turn, like "
                             "us=4/1,british=2/0 (an overrun when advancing after combat is not "
                             "counted, 11.3)")
    parser.add_argument("--hq", action="append", metavar="HQ=STATE",
                        help=f"an HQ's side, STATE one of "
                             f"{', '.join(state.value for state in HQState)}, active:1 when it "
                             f"has given one of its two shifts (8.3.3a); HQ one of "
                             f"{', '.join(one.key for one in HQS)} (like vii=inactive)")
    parser.add_argument("--use", metavar="HQ:COLUMNS",
                        help="may this HQ give this shift now: +1 or +2 attacking, -1 "
                             "defending (like vii:+1); refused for an inactive HQ (9.1i)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
