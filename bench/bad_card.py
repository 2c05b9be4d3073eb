"""Benchmark: what one card file of 30,000 problems costs the box's start (issue 31).

The card: 30,000 misspelt keys (`k0=1`, `k1=1`, ...), 236 KB, under the 256 KiB any file of the
box may be: every key is a problem. The box once parsed it, had pydantic list every problem, and
formatted, kept, snapshotted and drew every one: it started 25 times slower with three times the
memory. Now a card file over 32 KiB or of more than 500 values is one problem, found before it
is parsed or checked (cards/loader.py). A Soft Targets Table may be as big as any file, and is
checked: the same 30,000 misspelt keys as a table are the third case, where a file's first 20
problems are kept and one line says how many more (cards/book.py MOST_PROBLEMS).

Each figure is printed for a clean card folder and for the same folder with that card:

- `cobi-companion sim` on a pseudo-terminal, Popen → its start menu's first bytes (or the card
  files' screen, which comes first with a broken card): bench/device.py's `sim_start`. Cold:
  a fresh state and cache folder each run, so the card files are checked (pydantic) and the
  snapshot taken; warm: the same folders again, from the snapshot.
- the peak memory (ru_maxrss) of a process that reads the cards as the box does
  (`card_book`, checked, snapshot taken), and the snapshot's size.

min / median / max of the runs; the target is a start with the bad card within 2× a clean
one (median, cold); the bad table's ratio is printed beside it. Timings never fail the run.

    .venv/bin/python bench/bad_card.py [--runs N]    # 5 by default: about a minute
    python3 run.py bench                              # runs it too (--quick: 2 runs)
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from device import sim_start

PROBLEMS = 30_000
TARGET = 2.0               # the bad card's cold start at most this many times a clean one's
READ_CARDS = """
import json, resource, sys
from pathlib import Path
from cobi_companion.cards import card_book
book = card_book([Path(sys.argv[1])], snapshot=Path(sys.argv[2]))
print(json.dumps({"problems": len(book.problems),
                  "kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def bad_card(count: int = PROBLEMS) -> str:
    """A card file whose every key but two is misspelt: `count` problems."""
    return 'id = "bad"\nname = "Bad"\n' + "".join(f"k{i:x}=1\n" for i in range(count))


def folders(root: Path) -> dict[str, Path]:
    """A clean card folder and one with the bad card, both an hour old (the snapshot is
    taken only of files that cannot change unseen: cards/snapshot.py RACY_NS)."""
    made = {"clean": root / "clean", "bad card": root / "bad", "bad table": root / "table"}
    files = {"bad card": made["bad card"] / "bad.toml",
             "bad table": made["bad table"] / "tables" / "soft-targets.toml"}
    for folder in made.values():
        folder.mkdir()
    for name, path in files.items():
        path.parent.mkdir(exist_ok=True)
        path.write_text(bad_card() if name == "bad card" else bad_card().split("\n", 2)[2])
        hour_ago = path.stat().st_mtime - 3600
        os.utime(path, (hour_ago, hour_ago))
    return made


def env_for(cards: Path, cache: Path) -> dict[str, str]:
    return {**os.environ, "COBI_COMPANION_CARDS": str(cards), "XDG_CACHE_HOME": str(cache),
            "CACHE_DIRECTORY": str(cache), "STATE_DIRECTORY": ""}


def starts(cards: Path, root: Path, runs: int) -> tuple[list[float], list[float]]:
    """Cold and warm start times (s) of the sim with the cards of `cards`."""
    cold, warm = [], []
    for _ in range(runs):
        place = Path(tempfile.mkdtemp(dir=root))
        env = env_for(cards, place / "cache")
        cold.append(sim_start(env, str(place / "state")))
        warm.append(sim_start(env, str(place / "state")))
    return cold, warm


def memory(cards: Path, root: Path) -> dict[str, int]:
    place = Path(tempfile.mkdtemp(dir=root))
    snapshot = place / "box-cards.json"
    out = subprocess.run([sys.executable, "-c", READ_CARDS, str(cards), str(snapshot)],
                         capture_output=True, text=True, check=True, env=os.environ).stdout
    got = dict(json.loads(out.splitlines()[-1]))
    got["snapshot_bytes"] = snapshot.stat().st_size if snapshot.exists() else 0
    return got


def spread(samples: list[float]) -> str:
    return (f"min {min(samples):.3f}  median {statistics.median(samples):.3f}  "
            f"max {max(samples):.3f} s")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, metavar="N",
                        help="starts of each kind (default 5)")
    args = parser.parse_args(argv)
    runs = max(1, args.runs)
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        made = folders(root)
        sim_start(env_for(made["clean"], root / "warm-up"), str(root / "warm-up-state"))
        print(f"one card of {PROBLEMS} problems ({(made['bad card'] / 'bad.toml').stat().st_size}"
              f" bytes); {runs} runs each, after one untimed start (bytecode written)\n")
        medians = {}
        for name, cards in made.items():
            cold, warm = starts(cards, root, runs)
            medians[name] = statistics.median(cold)
            got = memory(cards, root)
            print(f"{name:<9} start, cold (cards checked): {spread(cold)}")
            print(f"{'':<9} start, warm (snapshot):      {spread(warm)}")
            print(f"{'':<9} reading the cards: peak memory {got['kib'] / 1024:.1f} MiB, "
                  f"{got['problems']} problems kept, snapshot {got['snapshot_bytes']} bytes")
        ratio = medians["bad card"] / medians["clean"]
        verdict = "PASS" if ratio <= TARGET else "MISS"
        print(f"\nbad card / clean, cold start medians:  {ratio:.2f}×   "
              f"target at most {TARGET:.0f}×   {verdict}")
        print(f"bad table / clean, cold start medians: "
              f"{medians['bad table'] / medians['clean']:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
