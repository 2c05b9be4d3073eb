"""Benchmark: exact Tank Game odds of the Tiger I (2477, 16 damage dice) against icepool.

For every shipped target card and facing, time `hard_fire.odds` (exact fractions, by the damage
dice's integer recurrence) and the same outcome probabilities built with icepool (exploding d6
truncated at depth 15), check that the two agree, and print the medians. Timings are
reported, never asserted: the exit code is non-zero only when the two disagree by more than
1e-9.

    python3 run.py bench [--repeat N] [--quick] [--idle-seconds S]

Then it runs bench/soft_odds.py (odds and resolution of fire at soft targets; --quick: 20
runs), bench/device.py (every figure of the speed targets: the box's presses, start, warm-up,
memory and idle CPU, the odds process and per shot, the store), passing on --quick and
--idle-seconds, bench/range_fuzz.py (the range sensor parsers against the
tests' reference decoder; --quick: 2500 streams per family), bench/bad_card.py (a start with
a card of 30,000 problems against a clean one; --quick: 2 runs) and bench/roster.py (a turn of
the knob on the roster with 50, 250 and 1,000 cards; --quick: 100 turns); the exit code is
non-zero if any benchmark fails. Last, bench/campaign.py: a whole Cobra campaign on the box, the
press and the bytes written per save at its start and at its end.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

from cobi_companion.rules import dice_maths
from cobi_companion.rules.card import CardValueMissing, Facing, InfoCard
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.odds import OUTCOMES
from cobi_companion.rules.shot import ShotPlan
from cobi_companion.rules.status import Effect
from cobi_companion.rules.tank import hard_fire

FIRER = 2477
DEPTH = 15                  # icepool's explosion depth (its default is 9)
TOLERANCE = 1e-9            # a larger difference is a correctness failure
TARGET_RATIO = 20.0         # exact odds at least this many times faster than icepool ...
TARGET_NS = 1_000_000       # ... and under 1 ms per shot


def cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    lines = cpuinfo.read_text().splitlines() if cpuinfo.exists() else []
    for key in ("model name", "Model", "Hardware"):  # x86, then Raspberry Pi / other ARM
        for line in lines:
            if line.split(":")[0].strip() == key:
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine() or "unknown"


def project_caches() -> dict[str, Any]:
    """Every functools cache in the loaded cobi_companion modules, by qualified name."""
    found = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("cobi_companion") and isinstance(module, ModuleType):
            for value in vars(module).values():
                if hasattr(value, "cache_clear") and hasattr(value, "cache_info"):
                    found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


def median_ns(run: Callable[[], object], repeat: int, warmup: int,
              before: Callable[[], None] = lambda: None) -> tuple[float, list[int]]:
    """Median wall time of `run` in ns over `repeat` timed calls; `before` runs untimed."""
    for _ in range(warmup):
        before()
        run()
    samples = []
    for _ in range(repeat):
        before()
        start = time.perf_counter_ns()
        run()
        samples.append(time.perf_counter_ns() - start)
    return statistics.median(samples), samples


def classify(card: InfoCard, net: int) -> Effect:
    """The effect of a damage result, in the rules' order: destroy, gun, weaken, immobilize."""
    destroy: int = card.need("destroy")
    if net >= destroy:
        return Effect.DESTROYED
    for band, effect in ((card.destroy_gun, Effect.GUN_DESTROYED),
                         (card.weaken, Effect.WEAKENED), (card.immobilize, Effect.IMMOBILIZED)):
        if band is not None and band.low <= net <= band.high:
            return effect
    return Effect.NONE


def icepool_die(icepool: ModuleType) -> Any:
    """One damage die: a d6 exploding on 6; each 6 scores 1, the last face 1 if it is 2 or more."""
    return icepool.d(6).explode(depth=DEPTH).map(lambda x: x // 6 + int(x % 6 >= 2))


def icepool_odds(icepool: ModuleType, plan: ShotPlan) -> dict[Effect, Fraction]:
    """The shot's outcome probabilities, computed from scratch (a fresh die) with icepool."""
    dice: int = plan.attacker.need("damage")
    total = dice @ icepool_die(icepool)
    armour: int = plan.target.need(plan.facing.armour_field)
    weight = dict.fromkeys(OUTCOMES[1:], 0)
    for h, quantity in total.items():
        weight[classify(plan.target, h - armour)] += quantity
    hit = Fraction(7 - plan.attacker.need("gun_to_hit").low, 6)
    odds = {Effect.MISS: 1 - hit}
    odds.update({e: hit * Fraction(q, total.denominator()) for e, q in weight.items()})
    return odds


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, metavar="N",
                        help="timed runs per shot (default 200; icepool a tenth, at least 3)")
    parser.add_argument("--quick", action="store_true", help="smoke run: 20 repetitions")
    parser.add_argument("--idle-seconds", metavar="S", help="passed on to bench/device.py")
    args = parser.parse_args(argv)
    repeat = max(1, args.repeat or (20 if args.quick else 200))
    ice_repeat = max(3, repeat // 10)
    print(f"Python {platform.python_implementation()} {platform.python_version()} "
          f"on {platform.system()} {platform.machine()}")
    print(f"CPU    {cpu_model()}")

    # Imported here: bench/device.py imports this module for cpu_model alone, and the checking
    # card loader would bring pydantic into the process whose memory it measures.
    from cobi_companion.cards import load_cards
    book = load_cards([])
    firer = book.get(FIRER)
    plans: list[ShotPlan] = []
    skipped: list[str] = []                 # "target, facing: why the rules refuse it"
    for target in book.sorted():
        for facing in Facing:
            plan = ShotPlan(firer, target, facing)
            try:
                hard_fire.odds(plan)
                plans.append(plan)
            except RulesError as exc:
                why = (f"the card has no value for {exc.field} (partial card)"
                       if isinstance(exc, CardValueMissing) else str(exc))
                skipped.append(f"{target.title}, {facing.value}: {type(exc).__name__}: {why}")

    # Ours: every functools cache in the project is emptied (untimed) before each run, and
    # any use of one by the timed odds is counted, so no result is served from a cache.
    caches = project_caches()
    cache_use = 0

    def reset_caches() -> None:
        nonlocal cache_use
        for cached in caches.values():
            info = cached.cache_info()
            cache_use += info.hits + info.misses
            cached.cache_clear()

    reset_caches()
    cache_use = 0
    ours = [median_ns(partial(hard_fire.odds, plan), repeat, 10, reset_caches) for plan in plans]
    reset_caches()

    start = time.perf_counter_ns()
    import icepool
    import_ns = time.perf_counter_ns() - start
    die_error = max(abs(Fraction(h_die.quantity(h), h_die.denominator())
                        - dice_maths.damage_dice(n, h))
                    for n in range(1, 5) for h_die in [n @ icepool_die(icepool)]
                    for h in range(31))
    theirs, errors = [], []
    for plan in plans:
        exact, check = hard_fire.odds(plan).effects, icepool_odds(icepool, plan)
        errors.append(max(abs(exact[e] - check[e]) for e in OUTCOMES))
        theirs.append(median_ns(partial(icepool_odds, icepool, plan), ice_repeat, 1))

    print(f"icepool {icepool.__version__}, explosion depth {DEPTH}; timed runs per shot: "
          f"ours {repeat} (after 10 warm-up), icepool {ice_repeat} (after 1 warm-up)")
    print(f"\n{firer.title} ({firer.damage} damage dice, to hit {firer.gun_to_hit}) firing: "
          f"median wall time of one full odds computation\n")
    head = (f"{'target':<22}{'facing':<7}{'armour':>6}{'ours µs':>10}{'icepool ms':>12}"
            f"{'ratio':>8}{'max |Δ|':>10}{'P(destroyed)':>14}")
    print(head + "\n" + "-" * len(head))
    for plan, (our_ns, _), (ice_ns, _), error in zip(plans, ours, theirs, errors, strict=True):
        print(f"{plan.target.title[:21]:<22}{plan.facing.value:<7}"
              f"{plan.target.need(plan.facing.armour_field):>6}{our_ns / 1e3:>10.1f}"
              f"{ice_ns / 1e6:>12.2f}{ice_ns / our_ns:>7.0f}×{float(error):>10.1e}"
              f"{float(hard_fire.odds(plan).kill):>14.6f}")
    for line in skipped:
        print(f"skipped {line}")

    our_all = statistics.median(s for _, samples in ours for s in samples)
    ice_all = statistics.median(s for _, samples in theirs for s in samples)
    slowest_ns = max(m for m, _ in ours)
    worst_ratio = min(i / o for (o, _), (i, _) in zip(ours, theirs, strict=True))
    error = float(max(errors, default=Fraction(0)))
    print(f"\nproject caches: {', '.join(caches) or 'none'}; emptied before every run, "
          f"used {cache_use} times by the timed odds")
    print(f"icepool import time           {import_ns / 1e6:10.1f} ms (once, in this process)")
    print(f"overall median, ours          {our_all / 1e3:10.1f} µs per shot "
          f"(slowest shot {slowest_ns / 1e3:.1f} µs)")
    print(f"overall median, icepool       {ice_all / 1e6:10.2f} ms per shot")
    print(f"speed ratio icepool / ours    {ice_all / our_all:10.0f}×    "
          f"(lowest of any shot: {worst_ratio:.0f}×)")
    print(f"largest |difference|          {error:10.1e}    any outcome of {len(plans)} shots")
    print(f"icepool die vs exact P(H = h) {float(die_error):10.1e}    N = 1..4 dice, h = 0..30")

    def verdict(ok: bool, miss: str = "MISS") -> str:
        return "PASS" if ok else miss
    agree = error <= TOLERANCE and die_error <= TOLERANCE
    print(f"\ntarget: at least {TARGET_RATIO:.0f}× faster than icepool, every shot  "
          f"{verdict(worst_ratio >= TARGET_RATIO)}")
    print(f"target: under {TARGET_NS / 1e6:.0f} ms per shot, every shot             "
          f"{verdict(slowest_ns < TARGET_NS)}")
    print(f"check:  agreement within {TOLERANCE:.0e}                         "
          f"{verdict(agree, 'FAIL')}")
    soft_code = run_soft(args.quick)
    device_code = run_device(args.quick, args.idle_seconds)
    fuzz_code = run_fuzz(args.quick)
    bad_code = run_bad_card(args.quick)
    roster_code = run_roster(args.quick)
    campaign_code = run_campaign()
    return 1 if not agree else soft_code or device_code or fuzz_code or bad_code or \
        roster_code or campaign_code


def run_soft(quick: bool) -> int:
    """bench/soft_odds.py (fire at soft targets) in its own process; its exit code."""
    print("\n== bench/soft_odds.py: fire at soft targets ==\n", flush=True)
    soft = Path(__file__).with_name("soft_odds.py")
    return subprocess.run([sys.executable, str(soft), *(["--repeat", "20"] * quick)]
                          ).returncode


def run_device(quick: bool, idle_seconds: str | None) -> int:
    """bench/device.py (the speed targets) in its own process; its exit code."""
    passed = ["--quick"] * quick + (["--idle-seconds", idle_seconds] if idle_seconds else [])
    print("\n== bench/device.py: the speed targets (the box, the odds, the store) ==\n",
          flush=True)
    device = Path(__file__).with_name("device.py")
    return subprocess.run([sys.executable, str(device), *passed]).returncode


def run_fuzz(quick: bool) -> int:
    """bench/range_fuzz.py (the range sensor parsers) in its own process; its exit code."""
    print("\n== bench/range_fuzz.py: the range sensor parsers ==\n", flush=True)
    fuzz = Path(__file__).with_name("range_fuzz.py")
    return subprocess.run([sys.executable, str(fuzz), *(["--streams", "2500"] * quick)]
                          ).returncode


def run_bad_card(quick: bool) -> int:
    """bench/bad_card.py (a start with a card of 30,000 problems) in its own process."""
    print("\n== bench/bad_card.py: a start with a card of 30,000 problems ==\n", flush=True)
    bad = Path(__file__).with_name("bad_card.py")
    return subprocess.run([sys.executable, str(bad), *(["--runs", "2"] * quick)]).returncode


def run_roster(quick: bool) -> int:
    """bench/roster.py (a turn of the knob with 50, 250 and 1,000 cards) in its own process."""
    print("\n== bench/roster.py: a turn of the knob on the roster, 50 to 1,000 cards ==\n",
          flush=True)
    roster = Path(__file__).with_name("roster.py")
    return subprocess.run([sys.executable, str(roster), *(["--turns", "100"] * quick)]
                          ).returncode


def run_campaign() -> int:
    """bench/campaign.py (a whole Cobra campaign: the press and the bytes of each save, at
    its start and at its end) in its own process; its exit code."""
    print("\n== bench/campaign.py: a whole Cobra campaign's saves ==\n", flush=True)
    campaign = Path(__file__).with_name("campaign.py")
    return subprocess.run([sys.executable, str(campaign)]).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
