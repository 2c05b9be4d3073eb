"""The store and the odds, timed for bench/device.py: the dice statistics of a store holding
100,000 rolls, opening a 10 MB store after a clean stop (and after a killed one), one Tiger I
shot's exact odds, and the whole `cobi-companion odds ... --json` process.

Every function returns raw samples (seconds, or ns for the odds); bench/device.py turns them
into the figures of its table. The stores are real SQLite files in the temporary folder given,
which should be on a disk (synchronous=FULL: every save waits for fsync).
"""
from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from cobi_companion.device.ports.store import SqliteStore
from cobi_companion.rules.card import Facing, InfoCard
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.shot import ShotPlan
from cobi_companion.rules.tank import hard_fire

FIRER = 2477                 # the Tiger I: 16 damage dice, the most of the shipped cards
ROLLS_PER_SAVE = 100
SAVES_PER_BATTLE = 50
LOG_LINE = "Tiger I fires at Sherman M4A1 (front): 4 hits, 12 - 8 = 4: weakened"
# `cobi-companion odds` as a player types it: the Tiger at a Tiger's front, as JSON.
ODDS_ARGS = ("odds", "--rules", "tank", "--attacker", "2477", "--target", "2477", "--facing",
             "front", "--json")
# A process that opens the store, says so and waits to be killed (a pulled plug).
KILLED = """
import signal, sys
from pathlib import Path
from cobi_companion.device.ports.store import SqliteStore
store = SqliteStore(Path(sys.argv[1]))
store.save_rolls([("axis", "quick D6", 6)])
print("open", flush=True)
signal.pause()
"""


def timed(run: Callable[[], object], repeat: int) -> list[float]:
    """`repeat` wall times of `run`, in s."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return samples


@dataclass
class StoreFigures:
    rolls: int = 0
    stats_s: list[float] = field(default_factory=list)   # this battle's and overall counts
    megabytes: float = 0.0
    clean_open_s: list[float] = field(default_factory=list)
    killed_open_s: list[float] = field(default_factory=list)
    checked_after_clean: int = 0          # opens after a clean stop that checked (expected 0)
    checked_after_kill: int = 0           # opens after a kill that checked (expected all)


def fill(store: SqliteStore, rolls: int, start: int = 0) -> None:
    """Save battles of SAVES_PER_BATTLE saves with ROLLS_PER_SAVE faces each, up to `rolls`."""
    save = start
    while rolls > 0:
        batch = min(ROLLS_PER_SAVE, rolls)
        faces = [("axis", f"damage die {i + 1}", (save + i) % 6 + 1) for i in range(batch)]
        state = {"id": f"b{save // SAVES_PER_BATTLE}", "turn": save, "log": [LOG_LINE] * 40}
        store.save_battle(state, faces)
        rolls -= batch
        save += 1


def store_figures(folder: Path, rolls: int, megabytes: float, repeat: int,
                  kills: int) -> StoreFigures:
    """A store with `rolls` rolls: the counts the Dice fairness screen reads; then grown to
    `megabytes` and closed cleanly: opening it, `repeat` times; and `kills` opens after a
    process holding it was killed."""
    figures, path = StoreFigures(rolls=rolls), folder / "battles.db"
    store = SqliteStore(path)
    fill(store, rolls)
    last = f"b{(rolls - 1) // ROLLS_PER_SAVE // SAVES_PER_BATTLE}"     # the battle going on
    figures.stats_s = timed(lambda: (store.face_counts(last), store.face_counts(None)), repeat)
    if sum(store.face_counts(None).values()) != rolls:
        raise RuntimeError("the store's counts are not its rolls")
    save = rolls // ROLLS_PER_SAVE + 1
    while path.stat().st_size < megabytes * 1e6:
        fill(store, ROLLS_PER_SAVE * 100, save)
        save += 100
    store.close()
    figures.megabytes = path.stat().st_size / 1e6
    for _ in range(repeat):
        start = time.perf_counter()
        again = SqliteStore(path)
        figures.clean_open_s.append(time.perf_counter() - start)
        figures.checked_after_clean += again.checked
        again.close()
    for _ in range(kills):
        killed_open(path, figures)
    return figures


def killed_open(path: Path, figures: StoreFigures) -> None:
    """Open the store in a real process, SIGKILL it, then time the next open."""
    with subprocess.Popen([sys.executable, "-c", KILLED, str(path)], stdout=subprocess.PIPE,
                          text=True) as proc:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "open":
            raise RuntimeError("the store's process did not open it")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    start = time.perf_counter()
    store = SqliteStore(path)
    figures.killed_open_s.append(time.perf_counter() - start)
    figures.checked_after_kill += store.checked
    store.close()


def medians_ns(runs: list[Callable[[], object]], repeat: int, warmup: int = 5) -> list[float]:
    """The median ns of each of `runs` over `repeat` calls, taken in turns (one call of each,
    then again) so that a busy moment of a shared machine falls on all of them alike."""
    for run in runs * warmup:
        run()
    samples: list[list[int]] = [[] for _ in runs]
    for _ in range(repeat):
        for run, times in zip(runs, samples, strict=True):
            start = time.perf_counter_ns()
            run()
            times.append(time.perf_counter_ns() - start)
    return [statistics.median(times) for times in samples]


def thickest() -> InfoCard:
    """A card at the largest threshold the card schema allows: armour 30 on every facing and
    Destroy 30, with every band (armour + Destroy = 60 results to add)."""
    # The schema (and pydantic) only here: the battles' process must not carry them in its
    # peak memory, which is the box's figure.
    from cobi_companion.rules.card_schema import validated_card

    armour = {facing.armour_field: 30 for facing in Facing}
    return validated_card({"id": "thickest", "name": "Thickest", "destroy": 30,
                           "destroy_gun": "20-29", "weaken": "10-25",
                           "immobilize": "0-30", **armour})


def shot_odds(repeat: int) -> tuple[list[tuple[str, float]], float]:
    """The median ns of one `hard_fire.odds` for the Tiger I at every shipped card and facing
    the rules allow ("title, facing", ns), and at the schema's largest threshold."""
    # pydantic: not in the battles' process
    from cobi_companion.cards import load_cards

    book = load_cards([])
    firer = book.get(FIRER)
    plans = {}
    for target in book.sorted():
        for facing in Facing:
            plan = ShotPlan(firer, target, facing)
            try:
                hard_fire.odds(plan)
            except RulesError:           # a partial card: the rules refuse, nothing to time
                continue
            plans[f"{target.title}, {facing.value}"] = plan
    worst = ShotPlan(firer, thickest(), Facing.FRONT)
    runs = [partial(hard_fire.odds, plan) for plan in [*plans.values(), worst]]
    *shipped, largest = medians_ns(runs, repeat)
    return list(zip(plans, shipped, strict=True)), largest


def odds_command() -> list[str]:
    """`cobi-companion odds ...` as installed beside this Python (the venv's script)."""
    script = Path(sys.executable).with_name("cobi-companion")
    start = [str(script)] if script.exists() else [sys.executable, "-m",
                                                   "cobi_companion.device.cli"]
    return [*start, *ODDS_ARGS]


def odds_process(runs: int, env: dict[str, str]) -> list[float]:
    """Wall time of the whole `cobi-companion odds ... --json` process, `runs` times after one
    run that writes the bytecode cache."""
    samples = []
    for run in range(runs + 1):
        start = time.perf_counter()
        out = subprocess.run(odds_command(), env=env, stdout=subprocess.PIPE, check=True)
        if run:
            samples.append(time.perf_counter() - start)
        if not out.stdout.lstrip().startswith(b"{"):
            raise RuntimeError(f"odds --json printed {out.stdout[:80]!r}")
    return samples
