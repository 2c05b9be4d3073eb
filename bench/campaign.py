"""Benchmark: a whole Cobra campaign (27 game turns, and the 28th when the die extends it) on
the real box, and what each save costs at its start and at its end (issue 32).

The box is the real one (`box.build`: app, screens, the SQLite store in a fresh state folder,
gpiozero's mock pins, a display in memory) with scripted dice; the presses are chosen from the
screen shown, as players would press: every phase is played through its screens to "Next
phase", every roll rolled, every question answered yes. Each press is stepped as the main loop
steps one (`loop.step`: the event, its frame, then the store's writes), and timed:

- the press, of the presses that saved: from the event to its frame drawn (what the players
  wait for), and to its saves written too (the main loop takes the next press only then), p50
  and p90 over the first and over the last SAVES_PER_END of them;
- the bytes each save writes: counted by the kernel (/proc/self/io `wchar`, the bytes the
  process handed to write(): SQLite's write-ahead log, and the checkpoints that copy it into
  the file), around each `save_battle`; mean and median of the first and of the last
  SAVES_PER_END saves. Whole pages are written, so a save costs at least a few pages.

The target: the last saves' mean bytes within 10 % of the first saves'. Writing the whole game
at every save grew with the game (the log alone: 300 lines by the end). Timings never fail the
run; the exit code is 1 only if the campaign went off script (it did not end).

    .venv/bin/python bench/campaign.py      # about 10 s
    python3 run.py bench                     # runs it too
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cobi_companion.device.box import Box, build
from cobi_companion.device.config import Config
from cobi_companion.device.core.views import Menu, View
from cobi_companion.device.games.cobra.session import CobraSession
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.events import Key, Press
from cobi_companion.rules.dice import ScriptedDice
from gpiozero.pins.mock import MockFactory, MockPWMPin

SAVES_PER_END = 40          # the saves (and presses that saved) compared at each end
TARGET = 0.10               # the end's bytes per save within 10 % of the start's
MOST_PRESSES = 20_000       # a campaign that has not ended by then went off script


def written() -> int:
    """The bytes this process has handed to write() so far (the kernel's count)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise RuntimeError("no wchar in /proc/self/io")


@dataclass
class Campaign:
    """The figures of one campaign: per press that saved, its time; per save, its bytes."""

    presses_ns: list[int] = field(default_factory=list)
    frames_ns: list[int] = field(default_factory=list)    # the same presses, to the frame
    framed_at: int = 0                                    # when the last frame was drawn
    saves_bytes: list[int] = field(default_factory=list)
    presses: int = 0
    turns: int = 0
    log_lines: int = 0


def next_key(view: View) -> Key | str:
    """What a player presses on this screen to play the campaign on: a menu item's name to
    choose, or a key."""
    items = view.items if isinstance(view, Menu) else ()
    if items == ("no", "yes"):
        return "yes"
    if "Next phase" in items:
        return "Next phase"
    lines = getattr(view, "lines", ())
    if any(line.endswith("your button") for line in lines):
        return Key.AXIS if any(line.startswith("German") for line in lines) else Key.ALLIES
    return Key.OK


def play(state: Path, campaign: Campaign) -> None:
    box = build(Config(), MemoryDisplay(), pin_factory=MockFactory(pin_class=MockPWMPin),
                dice=ScriptedDice([4] * MOST_PRESSES), state_dir=state)
    try:
        counted(box, campaign)
        choose(box, "Cobra", campaign, timed=False)
        choose(box, "Campaign", campaign, timed=False)
        while campaign.presses < MOST_PRESSES:
            game = box.app.game
            if not isinstance(game, CobraSession) or game.game.over:
                break
            campaign.turns, campaign.log_lines = game.game.turn, len(game.log)
            key = next_key(box.app.view())
            if isinstance(key, Key):
                press(box, key, campaign)
            else:
                choose(box, key, campaign)
        if not isinstance(box.app.game, CobraSession) or not box.app.game.game.over:
            raise RuntimeError(f"the campaign went off script at {box.app.view()}")
    finally:
        box.close()


def counted(box: Box, campaign: Campaign) -> None:
    """Each battle save's bytes, as the kernel counts them; when each frame was drawn (the
    main loop saves once the frame is on the panel)."""
    save: Callable[..., None] = box.store.save_battle
    after_frame = box.app.save

    def saving() -> None:
        campaign.framed_at = time.perf_counter_ns()
        after_frame()
    box.app.save = saving  # type: ignore[method-assign]  # timed: the app's own, wrapped

    def counted_save(*args: Any, **kwargs: Any) -> None:
        before = written()
        save(*args, **kwargs)
        campaign.saves_bytes.append(written() - before)
    box.store.save_battle = counted_save  # type: ignore[method-assign]  # bytes counted around it


def choose(box: Box, item: str, campaign: Campaign, timed: bool = True) -> None:
    """The knob to the menu item that starts with `item`, then OK."""
    view = box.app.view()
    assert isinstance(view, Menu)
    wanted = next(i for i, text in enumerate(view.items) if text.startswith(item))
    while True:
        view = box.app.view()
        assert isinstance(view, Menu)
        if view.index == wanted:
            break
        press(box, Key.CW, campaign, timed)
    press(box, Key.OK, campaign, timed)


def press(box: Box, key: Key, campaign: Campaign, timed: bool = True) -> None:
    saves = len(campaign.saves_bytes)
    start = time.perf_counter_ns()
    box.loop.step(Press(key))
    took = time.perf_counter_ns() - start
    box.loop.settle()
    campaign.presses += 1
    if timed and len(campaign.saves_bytes) > saves:
        campaign.presses_ns.append(took)
        campaign.frames_ns.append(campaign.framed_at - start)


def ms(ns: float) -> str:
    return f"{ns / 1e6:.3f} ms"


def p90(samples: list[int]) -> float:
    return statistics.quantiles(samples, n=10)[-1] if len(samples) > 1 else float(samples[0])


def report(campaign: Campaign) -> bool:
    """Print the figures; True if the end's bytes per save are within TARGET of the start's."""
    n = SAVES_PER_END
    print(f"campaign: {campaign.presses} presses, {len(campaign.saves_bytes)} saves, "
          f"game turn {campaign.turns}, {campaign.log_lines} lines of log; "
          f"{sum(campaign.saves_bytes) / 1e6:.2f} MB written by the saves")
    first_bytes, last_bytes = campaign.saves_bytes[:n], campaign.saves_bytes[-n:]
    print(f"\n{'':<7}{'to the frame p50':>17}{'p90':>10}{'and saved p50':>15}{'p90':>10}"
          f"{'bytes/save mean':>17}{'median':>10}")
    for name, part, sizes in (("start", slice(None, n), first_bytes),
                              ("end", slice(-n, None), last_bytes)):
        frames, presses = campaign.frames_ns[part], campaign.presses_ns[part]
        print(f"{name:<7}{ms(statistics.median(frames)):>17}{ms(p90(frames)):>10}"
              f"{ms(statistics.median(presses)):>15}{ms(p90(presses)):>10}"
              f"{statistics.mean(sizes):>15,.0f} B{statistics.median(sizes):>8,.0f} B")
    ratio = statistics.mean(last_bytes) / statistics.mean(first_bytes)
    within = ratio <= 1 + TARGET
    print(f"\nbytes per save, end / start: {ratio:.2f} (target <= {1 + TARGET:.2f}): "
          f"{'PASS' if within else 'MISS'}; medians "
          f"{statistics.median(last_bytes) / statistics.median(first_bytes):.2f}")
    # The press too, end / start (medians; on a busy machine a figure that moves between runs,
    # which is why only the bytes, the same on every run, decide the exit code).
    for name, times in (("to the frame", campaign.frames_ns), ("and saved", campaign.presses_ns)):
        late = statistics.median(times[-n:]) / statistics.median(times[:n])
        print(f"press {name}, end / start: {late:.2f} (target <= {1 + TARGET:.2f}): "
              f"{'PASS' if late <= 1 + TARGET else 'MISS'}")
    return within


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, metavar="DIR",
                        help="where the state folder is made (a temporary one by default)")
    args = parser.parse_args(argv)
    from device import fs_type  # bench/device.py, beside this file (run as a script)

    campaign = Campaign()
    with tempfile.TemporaryDirectory(dir=args.folder) as state:
        print(f"state folder {state} ({fs_type(state)}; synchronous=FULL)")
        play(Path(state), campaign)
    report(campaign)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
