"""Benchmark: a turn of the knob on New battle's roster with 50, 250 and 1,000 cards (issue 32).

The roster lists every card, each with its marks (no gun, numbers missing) and how many of it
are on each side. Its rows and their texts were made again at every turn, and the cards'
readiness was kept for 256 cards at most: past that the cache forgot every card at each pass
over the book (0.86 ms a turn at 250 cards, 10.8 ms at 1,000). Now a turn moves the highlight
over the rows and texts kept while they are the same (device/games/roster.py).

Each count on a fresh box (bench/device.py's: the real app, screens, store on disk, inputs on
mock pins and luma's ssd1306 driver over a recording bus), after its warm-up: its card book is
the shipped cards again and again, each with a set number of its own; New battle is opened and
the knob turned TURNS times (20 one way, 20 back, ...). Each turn is timed from the encoder's
pin edge to the end of its frame's last bus write. The target: a turn at 1,000 cards within 2×
a turn at 50 (medians). Timings never fail the run.

    .venv/bin/python bench/roster.py [--turns N]     # 400 by default: a few seconds
    python3 run.py bench                              # runs it too (--quick: 100 turns)
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from cobi_companion.cards import CardBook, load_cards
from cobi_companion.device.games.roster import Roster

from device import new_box, p99, warmed_up

COUNTS = (50, 250, 1_000)
TURNS = 400
SWEEP = 20                 # turns one way before turning back
TARGET = 2.0               # the turn at the most cards at most this many times the fewest's


def book_of(count: int) -> CardBook:
    """`count` cards: the shipped ones again and again, each with a set number of its own."""
    shipped = load_cards([]).sorted()
    cards = [replace(card, set_number=90_000 + n, id=None, name=f"{card.name} {n}")
             for n, card in ((n, shipped[n % len(shipped)]) for n in range(count))]
    return CardBook({card.key: card for card in cards})


def turns(count: int, times: int) -> list[float]:
    """The ms of `times` knob turns on the roster of a box with `count` cards."""
    with tempfile.TemporaryDirectory() as state:
        finger, box = new_box(Path(state), [])
        try:
            box.loop.draw()
            while not warmed_up(box):
                box.loop.wait(0.01)
            box.app.book = book_of(count)
            finger.act("ok")                          # New battle
            box.loop.settle()
            if not isinstance(box.app.screen, Roster):
                raise RuntimeError(f"New battle did not open the roster: {box.app.view()}")
            finger.latencies.clear()
            for n in range(times):
                finger.act("cw" if (n // SWEEP) % 2 == 0 else "ccw")
                box.loop.settle()
        finally:
            box.close()
            finger.factory.reset()
    if len(finger.latencies) != times:
        raise RuntimeError(f"{times} turns drew {len(finger.latencies)} frames")
    return finger.latencies


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=TURNS, help=f"turns per count ({TURNS})")
    parser.add_argument("--counts", type=lambda text: tuple(int(n) for n in text.split(",")),
                        default=COUNTS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    print(f"a turn of the knob on the roster: pin edge → frame bytes on the bus, "
          f"{args.turns} turns per count, ms")
    print(f"   {'cards':>6}{'median':>9}{'p99':>8}{'max':>8}")
    medians = {}
    for count in args.counts:
        got = turns(count, args.turns)
        medians[count] = statistics.median(got)
        print(f"   {count:>6,}{medians[count]:>9.3f}{p99(got):>8.3f}{max(got):>8.3f}")
    fewest, most = min(medians), max(medians)
    ratio = medians[most] / medians[fewest]
    print(f"{most:,} cards / {fewest:,} cards: {ratio:.2f}×  (target <= {TARGET:g}×)  "
          f"{'PASS' if ratio <= TARGET else 'MISS'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
