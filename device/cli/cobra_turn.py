"""`cobra turn`: a game turn's bookkeeping, phase by phase (17.3, 13.2e): what the campaign
counts (the German delay unit, 17.3.11; the rail capacity, 17.3.12; Cherbourg's one supplied
German attack, 17.3.5g), refused beyond the turn's allowance with the rule's reason, and the
rules to remember in each phase (17.3.3a, 17.3.3d, 17.3.9, 17.3.11g, 13.2e)."""
from __future__ import annotations

import argparse
from typing import Any

from cobi_companion.device.cli.checked import Whole
from cobi_companion.device.cli.common import print_result
from cobi_companion.device.cli.errors import UsageError
from cobi_companion.device.cli.options import game_turn

RAILED = {"foot": False, "mech": True}      # a non-mechanized and a mechanized unit (17.3.12)


def turn(args: argparse.Namespace) -> int:
    from cobi_companion.rules.cobra import bookkeeping as books
    from cobi_companion.rules.cobra.campaign import Ledger, rail_capacity
    from cobi_companion.rules.cobra.turns import CobraGame, scenario, sequence

    played = scenario(args.scenario)
    if not played.first <= args.turn <= max(played.last, 28 if played.may_extend else 0):
        raise UsageError(f"--turn {args.turn}: the {played.key} scenario plays game turns "
                         f"{played.first} to {played.last}")
    landing = played.landing
    ledger = Ledger()
    for placed in _turns(args.delays, args.turn):       # the rules refuse a turn without one
        ledger = ledger.place_delay(placed, landing)
    for unit in _items(args.rail):
        if unit not in RAILED:
            raise UsageError(f"--rail {unit!r}: each unit railed is foot (non-mechanized) or "
                             f"mech (mechanized, counts two)")
        ledger = ledger.rail(args.turn, landing, RAILED[unit])
    for _ in range(args.cherbourg):
        ledger = ledger.supply_from_cherbourg(args.turn, landing)
    game = CobraGame.start(played.key)
    phases = []
    for step, phase in enumerate(sequence(played.key, args.turn)):
        at = CobraGame(game.scenario, args.turn, step, (), game.tracks, max(game.last, 28),
                       ledger=ledger)
        notes = [*books.phase_counts(at), *books.phase_reminders(at)]
        if notes:
            phases.append({"player": phase.player.value, "phase": phase.name,
                           "notes": [{"code": n.why.value, "values": n.values, "text": n.text}
                                     for n in notes]})
    data: dict[str, Any] = {
        "scenario": played.key, "turn": args.turn,
        "delay_units_placed": len(ledger.delays), "delay_placed_this_turn":
            ledger.delay_placed(args.turn),
        "rail": {"most": rail_capacity(args.turn, landing),
                 "used": ledger.rail_used(args.turn),
                 "left": ledger.rail_left(args.turn, landing)},
        "cherbourg_used": ledger.cherbourg_used(args.turn), "phases": phases}
    print_result(args, data, lambda: turn_text(played.title, data))
    return 0


def turn_text(title: str, v: dict[str, Any]) -> str:
    lines = [f"Cobra, {title}: game turn {v['turn']}"]
    for p in v["phases"]:
        name = f"{p['player'].capitalize()} {p['phase'].replace('_', ' ')}"
        lines += [f"{name}: {n['text']}" for n in p["notes"]]
    if v["cherbourg_used"]:
        lines.append("Cherbourg's one supplied German attack of the turn is used (17.3.5g)")
    if len(lines) == 1:
        lines.append("nothing to keep or remember on this turn")
    return "\n".join(lines)


def _items(text: str | None) -> list[str]:
    return [item.strip() for item in (text or "").split(",") if item.strip()]


def _turns(text: str | None, most: int) -> list[int]:
    turns = []
    for item in _items(text):
        if not item.isdigit() or not 1 <= int(item) <= most:
            raise UsageError(f"--delays {item!r}: each a game turn from 1 to --turn {most}")
        turns.append(int(item))
    return turns


def turn_options(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.turns import SCENARIOS

    parser.add_argument("--turn", type=game_turn(), required=True, metavar="N",
                        help="the game turn")
    parser.add_argument("--scenario", choices=list(SCENARIOS), default="campaign",
                        help="the scenario played (default: campaign)")
    parser.add_argument("--delays", metavar="TURNS",
                        help="comma list of the game turns a German delay unit appeared in so "
                             "far, this one included (one a turn, GT 2-7, 17.3.11a)")
    parser.add_argument("--rail", metavar="UNITS",
                        help="comma list of the units railed this game turn: foot or mech (a "
                             "mechanized unit counts two, 17.3.12)")
    parser.add_argument("--cherbourg", type=Whole(0, 9, "attacks"), default=0, metavar="N",
                        help="the German attacks Cherbourg supplied this game turn (one a "
                             "turn, 17.3.5g)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
