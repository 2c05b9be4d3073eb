"""Benchmark: exact odds and resolution of Tank Game fire at soft targets.

Times `soft_odds.odds` (exact fractions: the whole template's "k down" distribution) and
`soft_fire.fire` (one resolution with random dice) for templates from the HE example (a gun
and its 3 crew) up to a machine gun over 30 figures, and checks that every distribution sums
to exactly 1. Timings are reported, never asserted; the exit code is 1 only if a distribution
does not sum to 1.

    python bench/soft_odds.py [--repeat N]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

from cobi_companion.cards import load_cards
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.card import Facing
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.dice import RandomDice
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank.soft_fire import Covered, SoftPlan, fire, he_weapon
from cobi_companion.rules.tank.soft_odds import odds

TARGET_NS = 5_000_000      # the box's odds preview of any template: under 5 ms here


def median_ns(run: Callable[[], object], repeat: int) -> float:
    run()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        run()
        samples.append(time.perf_counter_ns() - start)
    return statistics.median(samples)


def plans() -> list[tuple[str, SoftPlan]]:
    book = load_cards([])
    tank = Piece("Pz IV D 1", Side.AXIS, book.get("pz-iv-d"))
    mg = Piece("MG 1", Side.AXIS, book.get("mg-gunner"), figures=1)
    gun = Piece("Bofors 1", Side.ALLIES, book.get("bofors-37mm"), figures=3)
    truck = validated_card({
        "id": "truck", "name": "Truck", "kind": "soft", "armour_side": 1, "destroy": 4,
        "destroy_gun": "-", "weaken": "2-3", "immobilize": 1})
    he_tank = validated_card({
        "id": "tank", "name": "Tank", "gun_to_hit": "3-6", "reload": "4-6", "damage": 16,
        "he_modifier": 2})

    def squad(n: int, number: int = 1) -> Piece:
        return Piece(f"Rifle {number}", Side.ALLIES, book.get("rifleman"), figures=n)

    medium = book.get("mg-gunner").weapon("medium mg")
    return [
        ("HE example: gun + 3 crew", SoftPlan(tank, he_weapon(tank.card),
                                             (Covered(gun, 3, ("soft_cover",)),),
                                             book.table, cover=True)),
        ("MG example: 2 figures", SoftPlan(mg, medium, (Covered(squad(2), 2, ("soft_cover",)),),
                                           book.table)),
        ("MG: 3 squads, 30 figures", SoftPlan(mg, medium, tuple(
            Covered(squad(10, n), 10, ("soft_cover",)) for n in (1, 2, 3)), book.table)),
        ("HE: soft vehicle + 10 figures", SoftPlan(
            Piece("Tank 1", Side.AXIS, he_tank), he_weapon(he_tank),
            (Covered(Piece("Truck 1", Side.ALLIES, truck), 0, (), Facing.SIDE),
             Covered(squad(10), 10, ("soft_cover",))), book.table)),
    ]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, metavar="N")
    args = parser.parse_args(argv)
    dice = RandomDice()
    exact, slowest = True, 0.0
    print(f"{'template':<32} {'odds':>10} {'one fire':>10}  expected down   P(all down)")
    for name, plan in plans():
        result = odds(plan)
        exact = exact and sum(result.down) == 1
        odds_ns = median_ns(lambda plan=plan: odds(plan), args.repeat)
        fire_ns = median_ns(lambda plan=plan: fire(plan, dice), args.repeat)
        slowest = max(slowest, odds_ns)
        print(f"{name:<32} {odds_ns / 1e3:>7.0f} µs {fire_ns / 1e3:>7.0f} µs  "
              f"{float(result.expected_down):>6.3f} of {len(result.down) - 1:<3}  "
              f"{float(result.all_down):.3g}")
    print(f"target: odds of any template under {TARGET_NS / 1e6:.0f} ms           "
          f"{'PASS' if slowest < TARGET_NS else 'MISS'} (slowest {slowest / 1e3:.0f} µs)")
    print(f"check:  every distribution sums to exactly 1      {'PASS' if exact else 'FAIL'}")
    return 0 if exact else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
