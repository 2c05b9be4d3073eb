"""Benchmark: how fast the box answers a press and starts, and what memory and idle CPU it uses.

The real box (app, screens, SQLite store, luma's dummy display) on gpiozero's mock pins:
1. event put on the loop's queue → frame handed to `display.show`, over a scripted Tank Game
and Easy battle; 2. interpreter start → the title frame and → the start menu of the simulator
in a pseudo-terminal; 3. peak RSS of a process playing both battles; 4. CPU time of the real main
loop left idle. Figures are printed, never asserted: the
exit code is non-zero only when something crashes or a battle goes off script.

    python3 run.py bench [--quick] [--idle-seconds S]     (runs after the odds benchmark)
"""
from __future__ import annotations

import argparse
import json
import logging
import math
import os
import platform
import pty
import queue
import select
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cobi_companion.device.box import Box, build
from cobi_companion.device.config import Config
from cobi_companion.device.games.home import StartMenu
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.events import Event, Stop
from cobi_companion.device.sim import MockPanel
from cobi_companion.rules.dice import ScriptedDice
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image

from run import cpu_model  # bench/run.py, beside this file

TARGET_P99_MS, TARGET_START_S, TARGET_RSS_MB, TARGET_IDLE_S = 5.0, 0.3, 60.0, 0.3
# Two whole battles, each press as a player makes it (the steps of a shot play out between).
TANK_KEYS = ("ok,ccw,ok,cw,cw,cw,cw,axis,ccw,ccw,allies,ok,axis,allies,ok,"  # Tank Game rules
             "ok,ok,ok,ok,ok,cw,cw,allies,ok,ok,"       # Sherman at the rear: WEAKENED; end
             "ok,ok,ok,ok,ok,axis,ok,ok,"               # Tiger fires: MISS, UNLOADED; end
             "cw,ok,cw,ok,ok,ok,ok,ok,ok,ok,"           # round 2: the Sherman moves 22 cm
             "ok,ok,ok,cw,cw,ok,axis,ok,ok,"            # Tiger: fire refused, then reload
             "back,cw,ok,cw,ok,back,cw,cw,ok,cw,ok,"    # round 3: menu, status board, log
             "back,cw,cw,cw,ok,ok,cw,cw,ok,cw,ok,"      # dice fairness; the Allies pass, yes
             "axis,ok,ok,ok")                           # Tiger again: DESTROYED, AXIS WIN
EASY_KEYS = ("ok,cw,cw,cw,axis,ccw,ccw,allies,ccw,allies,ok,"   # Easy (the default); + a 7TP
             "axis,allies,ok,ok,axis,axis,allies,ok,"   # Tiger at the Sherman: DESTROYED
             "ok,cw,ok,ok,ok,ok,ok,ok,"                 # the 7TP moves 18 cm
             "back,cw,ok,ok,allies,axis,"               # menu, status board; initiative
             "ok,ok,axis,allies,ok,ok,"                 # Tiger destroys the 7TP: AXIS WIN
             "axis,axis_long,ok")                       # quick dice, a held D6+
SPARE = [3, 4, 2, 5, 1, 6, 4, 3] * 8                     # faces no step should need
BATTLES = {"Tank Game": (TANK_KEYS.split(","),
                         [4, 2, 3, 5, 3, 6, 4, 4, 6, 3, 1, 2, 4, 4, 2, 1, 2, 4, *[5] * 18, *SPARE]),
           "Easy": (EASY_KEYS.split(","), [5, 2, 4, 6, 6, 3, 4, 3, 4, 5, 5, 2, 4, 2, 6, 3, *SPARE])}
# The interactive simulator, as a person starts it: its terminal is a pseudo-terminal.
SIM = [sys.executable, "-m", "cobi_companion.device.cli", "sim", "--state-dir"]
CLEAR = b"\x1b[H\x1b[2J"                  # TerminalDisplay starts every frame with it
PEAK = "print(next(line.split()[1] for line in open('/proc/self/status') if 'VmHWM' in line))"


class StampedQueue(queue.SimpleQueue[Event]):
    """The loop's event queue, noting when each event was put on it."""

    def __init__(self) -> None:
        super().__init__()
        self.stamps: list[int] = []
        self.put_ns = 0

    def put(self, item: Event, block: bool = True, timeout: float | None = None) -> None:
        self.stamps.append(time.perf_counter_ns())
        super().put(item, block, timeout)

    def get(self, block: bool = True, timeout: float | None = None) -> Event:
        item = super().get(block, timeout)
        self.put_ns = self.stamps.pop(0)
        return item


@dataclass
class Finger(MockPanel):  # type: ignore[misc]  # gpiozero is untyped
    """MockPanel that spends its waits as the main loop does: each event is taken off the queue
    the moment it is put there and stepped; put → first `display.show` is recorded in ms."""

    box: Box | None = None
    shown: list[float] = field(default_factory=list)
    saved: list[float] = field(default_factory=list)     # those whose step saved the battle
    silent: int = 0                                       # events that changed no pixel
    shown_ns: int | None = None
    saves: int = 0

    def __post_init__(self) -> None:
        assert self.box is not None
        self.events = self.box.loop.events = StampedQueue()
        display, store = self.box.loop.display, self.box.store
        show, save = display.show, store.save_battle

        def stamped_show(image: Image.Image) -> None:
            self.shown_ns = self.shown_ns or time.perf_counter_ns()
            show(image)

        def counted_save(*args: Any) -> None:
            self.saves += 1
            save(*args)
        display.show = stamped_show  # type: ignore[method-assign]
        store.save_battle = counted_save  # type: ignore[method-assign]

    def serve(self, seconds: float) -> None:
        """Step every event that arrives within `seconds` as soon as it is on the queue."""
        assert self.box is not None
        end = time.monotonic() + seconds
        while True:
            event = self.box.loop.wait(max(0.0, end - time.monotonic()))   # warms up meanwhile
            if event is None:
                return
            self.shown_ns, saves = None, self.saves
            self.box.loop.step(event)
            if self.shown_ns is None:
                self.silent += 1
                continue
            self.shown.append((self.shown_ns - self.events.put_ns) / 1e6)
            if self.saves > saves:
                self.saved.append(self.shown[-1])

    def tap(self, pin: int, hold_s: float = 0.0) -> None:
        self.factory.pin(pin).drive_low()
        self.serve(hold_s)                    # a held button's event comes from gpiozero's thread
        self.factory.pin(pin).drive_high()
        self.serve(self.config.buttons.bounce_s + 0.01)  # a finger's gap, as MockPanel leaves

    def turn(self, clockwise: bool) -> None:
        super().turn(clockwise)
        self.serve(0.0)


def play(keys: list[str], dice: list[int]) -> Finger:
    """One battle on a fresh box; the animation ticks after each press are not timed."""
    factory = MockFactory(pin_class=MockPWMPin)
    with tempfile.TemporaryDirectory() as state:
        box = build(Config(), MemoryDisplay(), pin_factory=factory, dice=ScriptedDice(dice),
                    state_dir=Path(state))
        try:
            finger = Finger(factory, Config(), box=box)
            box.loop.draw()
            while box.loop.warm_up is not None:   # the box has started: no one presses sooner
                box.loop.wait(0.01)
            for word in keys:
                finger.act(word)
                box.loop.settle()
            if not isinstance(box.app.screen, StartMenu) or box.app.state is not None:
                raise RuntimeError(f"the battle went off script at {box.app.view()}")
        finally:
            box.close()
            factory.reset()
    return finger


def child(mode: str, idle_s: float) -> dict[str, Any]:
    """In a fresh process: play both battles (peak RSS), or leave the real loop idle (CPU)."""
    if mode == "battle":
        for keys, dice in BATTLES.values():
            play(keys, dice)
        status = Path("/proc/self/status").read_text().splitlines()   # VmHWM: ru_maxrss would
        return {"peak_kb": int(next(s.split()[1] for s in status if "VmHWM" in s))}  # + parent's
    factory, display = MockFactory(pin_class=MockPWMPin), MemoryDisplay()
    with tempfile.TemporaryDirectory() as state:
        box = build(Config(), display, pin_factory=factory, state_dir=Path(state))
        steps, step = [0], box.loop.step

        def counted(event: Event) -> bool:
            steps.append(1)
            return step(event)
        box.loop.step = counted  # type: ignore[method-assign]
        thread = threading.Thread(target=box.loop.run, name="main-loop")
        thread.start()
        began = time.monotonic()
        while display.frames < 1 or box.loop.warm_up is not None:     # start-up work done
            time.sleep(0.01)
        warm_s = time.monotonic() - began
        cpu, wall, woken = time.process_time(), time.monotonic(), len(steps)
        time.sleep(idle_s)
        cpu, wall, woken = time.process_time() - cpu, time.monotonic() - wall, len(steps) - woken
        box.loop.put(Stop("bench"))
        thread.join(10)
        box.close()
    return {"cpu_s": cpu, "wall_s": wall, "ticks": woken, "stopped": not thread.is_alive(),
            "warm_s": warm_s}


def run_child(env: dict[str, str], *args: str) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, "--child", *args], env=env,
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    return dict(json.loads(out.splitlines()[-1]))


def fs_type(path: str) -> str:
    """The file system holding `path`: the longest matching mount point in /proc/mounts."""
    rows = [line.split()[1:3] for line in Path("/proc/mounts").read_text().splitlines()]
    return max((r for r in rows if path.startswith(r[0])), key=lambda r: len(r[0]))[1]


def p99(samples: list[float]) -> float:
    return sorted(samples)[math.ceil(0.99 * len(samples)) - 1]      # nearest rank


def target(text: str, ok: bool) -> None:
    print(f"   target: {text:<44}{'PASS' if ok else 'MISS'}")


def latency() -> None:
    print("\n1. event put on the loop's queue → frame handed to display.show, in ms")
    print(f"   {'battle':<11}{'events':>7}{'frames':>7}{'median':>8}{'p99':>7}{'max':>7}"
          f"{'saved':>8}{'median':>8}{'max':>7}")
    fingers = {name: play(keys, dice) for name, (keys, dice) in BATTLES.items()}
    for name, group in [*((n, [f]) for n, f in fingers.items()), ("all", [*fingers.values()])]:
        shown, saved = [ms for f in group for ms in f.shown], [ms for f in group for ms in f.saved]
        print(f"   {name:<11}{sum(len(f.shown) + f.silent for f in group):>7}{len(shown):>7}"
              f"{statistics.median(shown):>8.2f}{p99(shown):>7.2f}{max(shown):>7.2f}"
              f"{len(saved):>8}{statistics.median(saved):>8.2f}{max(saved):>7.2f}")
    tmp = tempfile.gettempdir()
    print(f"   saved: the step committed the battle to SQLite (synchronous=FULL) in {tmp} "
          f"({fs_type(tmp)}); an event that changes no pixel draws no frame")
    every = [ms for f in fingers.values() for ms in f.shown]
    target(f"p99 ≤ {TARGET_P99_MS:g} ms", p99(every) <= TARGET_P99_MS)


def sim_start(env: dict[str, str], state_dir: str) -> list[float]:
    """Popen → the first bytes of the sim's first two frames on its terminal (the title, then
    the start menu: the box takes keys), in s; then 'q' and the exit code must be 0."""
    master, slave = pty.openpty()
    with tempfile.TemporaryFile() as err:
        began = time.perf_counter()
        proc = subprocess.Popen([*SIM, state_dir], stdin=slave, stdout=slave, stderr=err,
                                env=env)
        os.close(slave)
        stamps: list[float] = []
        seen, end = b"", time.monotonic() + 30
        try:
            while time.monotonic() < end and proc.poll() is None:
                if not select.select([master], [], [], 0.1)[0]:
                    continue
                try:
                    chunk = os.read(master, 65536)
                except OSError:                   # the child closed its terminal
                    break
                now, seen = time.perf_counter(), seen + chunk
                stamps += [now - began] * (seen.count(CLEAR) - len(stamps))
                if len(stamps) == 2:
                    os.write(master, b"q")          # quit; keep reading its goodbye frame
                    end = min(end, time.monotonic() + 10)
            code = proc.wait(timeout=max(0.0, end - time.monotonic()) + 1)
        finally:
            proc.kill()
            os.close(master)
        err.seek(0)
        if code != 0 or len(stamps) < 2:
            raise RuntimeError(f"sim start failed (exit {code}, {len(stamps)} frames): "
                               f"{err.read().decode(errors='replace')[-500:]}")
    return stamps[:2]


def start(env: dict[str, str]) -> None:
    print("\n2. interpreter start → first frames of the interactive sim on a pseudo-terminal, "
          "median of 5 runs")
    runs = []
    with tempfile.TemporaryDirectory() as state:
        for run in range(6):                      # run 0 writes the .pyc files: not counted
            runs.append(sim_start(env, f"{state}/{run}"))
    for name, times in (("title frame", [r[0] for r in runs[1:]]),
                        ("start menu", [r[1] for r in runs[1:]])):
        print(f"   {name:<13}{statistics.median(times):.3f} s from Popen "
              f"(runs: {' '.join(f'{t:.3f}' for t in times)} s)")
    title = statistics.median(r[0] for r in runs[1:])
    target(f"title frame ≤ {TARGET_START_S:g} s", title <= TARGET_START_S)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="idle for 3 s instead of 30 s")
    parser.add_argument("--idle-seconds", type=float, metavar="S", help="idle window (30 s)")
    parser.add_argument("--child", choices=["battle", "idle"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    idle_s = args.idle_seconds or (3.0 if args.quick else 30.0)
    if args.child:
        print(json.dumps(child(args.child, idle_s)))
        return 0
    errors: list[logging.LogRecord] = []          # the loop logs a failing step and goes on
    handler = logging.Handler(logging.ERROR)
    handler.emit = errors.append  # type: ignore[assignment]
    logging.getLogger().addHandler(handler)
    print(f"Python {platform.python_implementation()} {platform.python_version()} "
          f"on {platform.system()} {platform.machine()}")
    print(f"CPU    {cpu_model()}")
    latency()
    with tempfile.TemporaryDirectory() as pycache:
        # Children run as a box does: bytecode cached (here in a temporary folder), no systemd.
        env = {k: v for k, v in os.environ.items()
               if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "PYTHONDONTWRITEBYTECODE")}
        env["PYTHONPYCACHEPREFIX"] = pycache
        start(env)
        print("\n3. peak RSS (VmHWM) of a process that builds the box and plays both battles")
        rss_mb = run_child(env, "battle")["peak_kb"] * 1024 / 1e6
        bare = int(subprocess.check_output([sys.executable, "-c", PEAK], env=env)) * 1024 / 1e6
        print(f"   {rss_mb:.1f} MB (10^6 bytes); a bare interpreter: {bare:.1f} MB")
        target(f"≤ {TARGET_RSS_MB:g} MB", rss_mb <= TARGET_RSS_MB)
        print(f"\n4. CPU time of the real main loop (loop.run in a thread) idle for {idle_s:g} s")
        idle = run_child(env, "idle", "--idle-seconds", str(idle_s))
    per_30 = idle["cpu_s"] * 30 / idle["wall_s"]
    print(f"   measured after the first frame and the start-up warm-up (glyphs and outcome "
          f"words drawn ahead: {idle['warm_s']:.2f} s)")
    print(f"   {idle['cpu_s']:.3f} s CPU in {idle['wall_s']:.1f} s, {idle['ticks']} wake-ups "
          f"(ticks): {per_30:.3f} s per 30 s")
    target(f"≤ {TARGET_IDLE_S:g} s per 30 s", per_30 <= TARGET_IDLE_S)
    if errors or not idle["stopped"]:
        print(f"FAIL: {len(errors)} errors logged; the idle loop stopped: {idle['stopped']}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
