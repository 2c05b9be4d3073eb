"""The command line's English for Cobra's victory points and special rolls (15.1-15.3, 16.1,
16.2, 18.0): what an event scores and why, and what a roll brought."""
from __future__ import annotations

from cobi_companion.rules.cobra import special_rolls as rolls
from cobi_companion.rules.cobra import victory_points as vps

WHY = {vps.Why.AS_LISTED: "{count} × {each} VP",
       vps.Why.EXIT_BY_TURN: "exited on game turn {turn}",
       vps.Why.EXIT_FIFTH_DIVISION: "four US divisions score at most",
       vps.Why.EXIT_TOO_LATE: "only by the end of game turn 26",
       vps.Why.EXIT_NO_VP: "no VP: the exit is recorded (5.3c, 15.2, 15.3, 16.1 read it)",
       vps.Why.CAPPED: "{most} VP at most"}


def vp_text(scored: vps.Scored) -> str:
    found = scored.source
    why = WHY[scored.why].format(count=scored.count, each=found.vp, turn=scored.turn,
                                 most=found.most)
    side = "German" if found.side == "german" else "Allied"
    return f"{found.text}: {side} VP {scored.vp:+d} ({why}; {found.rule})"


def release_text(result: rolls.ReleaseRoll) -> str:
    head = f"15th Army release, game turn {result.turn}: die {result.die}"
    cost = "the attempt costs the German player 1 VP (15.2b)"
    if not result.released:
        return f"{head}: not released (1-2 needed, 15.2d); {cost}"
    hq = "; and one corps HQ, LXXXII or LXXXIX (15.2f)" if result.hq else ""
    return (f"{head}: the {result.division}th Infantry Division is released, {result.units} "
            f"units entering on the northeast map edge this game turn (15.2e, 15.2g){hq}; "
            f"{cost}")


def brest_text(result: rolls.BrestRoll) -> str:
    roll = f"die {result.die}" if not result.modifier else \
        f"die {result.die}{result.modifier:+d} on game turn 27 = {result.modified} (15.3b)"
    if result.released:
        return (f"Brest, game turn {result.turn}: {roll}: the 2nd FJ Division is released, "
                f"{result.units} units entering on the west map edge (15.3c)")
    return f"Brest, game turn {result.turn}: {roll}: not released (1-2 needed, 15.3c)"


def leclerc_text(result: rolls.LeclercRoll) -> str:
    if result.mutiny:
        return (f"Leclerc: die {result.die}: he mutinies; every unit of the 2nd FF Armored "
                f"Division moves toward the east edge and exits as soon as possible (15.1b)")
    return f"Leclerc: die {result.die}: no mutiny (a one mutinies, 15.1b)"
