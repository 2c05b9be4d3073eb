"""Benchmark: what the box will feel like on a Pi Zero 2 W, timed here on the real work.

One command prints every figure of the speed targets in one table at the end: the median (and
the p99 where the target is a p99), beside it an estimate for a Pi Zero 2 W (×15: roughly how
much slower one of its cores runs Python; an estimate, not a measurement) and PASS or MISS
against the target. Timings never fail the run: the exit code is non-zero only when something
crashes, a battle goes off script, a step logs an error, the store's counts are wrong or the
idle loop does not stop.

    .venv/bin/python bench/device.py [--quick] [--idle-seconds S]
    python3 run.py bench [--quick]        (runs it after the odds benchmark)

What runs (bench/README.md says more):
1. press → frame bytes on the bus: the real box (app, screens, the SQLite store on disk, the
   gpiozero inputs on mock pins) with luma's real ssd1306 driver, made by the box's own display
   adapter (OledDisplay) over a recording serial interface that never sleeps. A finger drives
   the pins through two scripted battles, three times each (--quick: once); each press is timed
   from the pin edge that makes its event to the end of the last bus write of its frame, and
   every frame's bytes are counted. The cold row is the first press of a fresh process, right
   after the first frame, with no warm-up before it.
2. process start → start menu: `cobi-companion sim` on a pseudo-terminal, Popen → the start
   menu's first bytes.
3. in a fresh process, the box's real main loop in a thread: the CPU it spends after its first
   frame on the warm-up (above the idle rate), then its CPU idle for 30 s (--quick: 3 s).
4. the peak memory (VmHWM) of a fresh process that plays both battles.
5. `cobi-companion odds ... --json`, the whole process; one Tiger I shot's exact odds.
6. the store on disk: the dice statistics at 100,000 rolls; opening a 10 MB store after a
   clean stop (and, for comparison, after a killed process).
7. the voice: the sentences with no value rendered, an outcome to its first sound (cached, and
   rendered whole).
8. a panel that never answers, retried 1,000 times through the box's reconnect path
   (bench/dark_panel.py, in a fresh process): the memory growth, target 0.
"""
from __future__ import annotations

import argparse
import gc
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
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cobi_companion.device.box import Box, build
from cobi_companion.device.config import Config
from cobi_companion.device.games.home import StartMenu
from cobi_companion.device.ports.display import OledDisplay, luma_factory
from cobi_companion.device.ports.events import Event, Stop
from cobi_companion.device.sim import MockPanel
from cobi_companion.rules.dice import ScriptedDice
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image

ZERO_2W = 15          # a Pi Zero 2 W core runs Python roughly 10-25x slower than this machine's
# Two whole battles, each press as a player makes it (the steps of a shot play out between).
TANK_KEYS = ("ok,ccw,ok,cw,cw,cw,cw,axis,ccw,ccw,allies,ok,axis,allies,ok,"  # Tank Game rules
             "ok,ok,ok,ok,ok,cw,cw,allies,ok,ok,"       # Sherman at the rear: WEAKENED; end
             "ok,ok,ok,ok,ok,axis,ok,ok,"               # Tiger fires: MISS, UNLOADED; end
             "cw,ok,cw,ok,ok,ok,ok,ok,ok,ok,"           # round 2: the Sherman moves 22 cm
             "ok,cw,ok,axis,ok,ok,"                     # Tiger, unloaded: no Fire; reload
             "back,cw,cw,ok,cw,ok,back,cw,cw,cw,ok,cw,ok,"   # round 3: menu, pieces, log
             "back,cw,cw,cw,cw,ok,back,cw,cw,ok,cw,ok,"  # fair dice?; the Allies pass, yes
             "axis,ok,ok,axis,ok,ok,ok")  # Tiger again (the Sherman moved: cover and range
                                          # asked again): DESTROYED, AXIS WIN
EASY_KEYS = ("ok,cw,cw,cw,axis,ccw,ccw,allies,ccw,allies,ok,"   # Easy (the default); + a 7TP
             "axis,allies,ok,ok,axis,axis,allies,ok,"   # Tiger at the Sherman: DESTROYED
             "ok,cw,ok,ok,ok,ok,ok,ok,"                 # the 7TP moves 18 cm
             "back,cw,cw,ok,ok,allies,axis,"            # menu, status board; initiative
             "ok,ok,axis,allies,ok,ok,"                 # Tiger destroys the 7TP: AXIS WIN
             "axis,axis_long,ok")                       # quick dice, a held D6+
SPARE = [3, 4, 2, 5, 1, 6, 4, 3] * 8                     # faces no step should need
BATTLES = {"Tank Game": (TANK_KEYS.split(","),
                         [4, 2, 3, 5, 3, 6, 4, 4, 6, 3, 1, 2, 4, 4, 2, 1, 2, 4, *[5] * 18, *SPARE]),
           "Easy": (EASY_KEYS.split(","), [5, 2, 4, 6, 6, 3, 4, 3, 4, 5, 5, 2, 4, 2, 6, 3, *SPARE])}
# The interactive simulator, as a person starts it: its terminal is a pseudo-terminal.
SIM = [sys.executable, "-m", "cobi_companion.device.cli", "sim", "--state-dir"]
CLEAR = b"\x1b[H\x1b[2J"                  # TerminalDisplay starts every frame with it
WARM_WINDOW_S = 3.0   # the warm-up's CPU is counted over at least this long after the 1st frame


# --- the panel: luma's real driver over a bus that records what it is handed ---

class RecordingBus:
    """A luma serial interface that counts the bytes handed to it and notes when the last
    write ended. It never sleeps: the wire's own time (~23 ms for 1,030 bytes at 400 kHz) is
    the panel's, and is printed beside the byte counts instead."""

    def __init__(self) -> None:
        self.bytes = 0
        self.last_ns = 0

    def command(self, *cmd: int) -> None:
        self._wrote(len(cmd))

    def data(self, data: Sequence[int]) -> None:
        self._wrote(len(data))

    def cleanup(self) -> None:
        pass

    def _wrote(self, count: int) -> None:
        self.bytes += count
        self.last_ns = time.perf_counter_ns()


class BusDisplay(OledDisplay):
    """The box's own display adapter with luma's ssd1306 on a RecordingBus: each frame shown
    is noted as (bytes handed to the bus, when its last byte was handed over)."""

    def __init__(self) -> None:
        self.bus = RecordingBus()
        super().__init__("ssd1306", make_device=luma_factory("ssd1306", 1, 0x3C, 0,
                                                              bus=lambda: self.bus))
        self.frames: list[tuple[int, int]] = []

    def show(self, image: Image.Image) -> None:
        before = self.bus.bytes
        super().show(image)
        sent = self.bus.bytes - before
        self.frames.append((sent, self.bus.last_ns if sent else time.perf_counter_ns()))


# --- the finger ---

class StampedQueue(queue.SimpleQueue[Event]):
    """The loop's event queue, noting for each event where its time starts: the pin edge the
    finger was driving when the event was put (gpiozero's mock pins call back at once), or the
    moment of the put for an event from another thread (a hold, from gpiozero's own)."""

    def __init__(self, finger: Finger) -> None:
        super().__init__()
        self.finger = finger
        self.origins: deque[int] = deque()
        self.origin = 0

    def put(self, item: Event, block: bool = True, timeout: float | None = None) -> None:
        edge = self.finger.edge_ns
        mine = edge is not None and threading.current_thread() is self.finger.thread
        self.origins.append(edge if mine and edge is not None else time.perf_counter_ns())
        super().put(item, block, timeout)

    def get(self, block: bool = True, timeout: float | None = None) -> Event:
        item = super().get(block, timeout)
        self.origin = self.origins.popleft()
        return item

    def get_nowait(self) -> Event:
        return self.get(False)


@dataclass
class Finger(MockPanel):
    """MockPanel that stamps each pin edge and spends its waits as the main loop does: each
    event is taken off the queue by the loop's own wait and handed to its step; the time from
    the event's edge to the end of its frame's last bus write is recorded in ms."""

    box: Box | None = None
    display: BusDisplay | None = None
    latencies: list[float] = field(default_factory=list)
    saved: list[float] = field(default_factory=list)     # those whose step saved the battle
    silent: int = 0                                       # events that drew no frame
    edge_ns: int | None = None
    saves: int = 0
    thread: threading.Thread = field(default_factory=threading.current_thread)

    def __post_init__(self) -> None:
        assert self.box is not None
        self.events = self.box.loop.events = StampedQueue(self)
        store, save = self.box.store, self.box.store.save_battle

        def counted_save(state: dict[str, Any], rolls: list[tuple[str, str, int]],
                         drawn: int | None = None, grows: tuple[str, ...] = ()) -> None:
            self.saves += 1
            save(state, rolls, drawn, grows)
        store.save_battle = counted_save  # type: ignore[method-assign]

    def edge(self, pin: int, low: bool) -> None:
        self.edge_ns = time.perf_counter_ns()
        device = self.factory.pin(pin)
        device.drive_low() if low else device.drive_high()
        self.edge_ns = None

    def serve(self, seconds: float) -> None:
        """Step every event that arrives within `seconds` as soon as it is on the queue."""
        assert self.box is not None and self.display is not None
        frames = self.display.frames
        end = time.monotonic() + seconds
        while True:
            event = self.box.loop.wait(max(0.0, end - time.monotonic()))   # warms up meanwhile
            if event is None:
                return
            origin, shown, saves = self.events.origin, len(frames), self.saves
            self.box.loop.step(event)
            if len(frames) == shown:
                self.silent += 1
                continue
            self.latencies.append((frames[shown][1] - origin) / 1e6)
            if self.saves > saves:
                self.saved.append(self.latencies[-1])

    def tap(self, pin: int, hold_s: float = 0.0) -> None:
        self.edge(pin, low=True)
        self.serve(hold_s)                    # a held button's event comes from gpiozero's thread
        self.edge(pin, low=False)
        self.serve(self.config.buttons.bounce_s + 0.01)  # a finger's gap, as MockPanel leaves

    def turn(self, clockwise: bool) -> None:
        a, b = self.config.encoder.a, self.config.encoder.b
        first, second = (a, b) if clockwise else (b, a)
        for pin, low in ((first, True), (second, True), (first, False), (second, False)):
            self.edge(pin, low)
        self.serve(0.0)


@dataclass
class Played:
    """What one or more battles gave: press latencies (ms) and each frame's bytes."""

    latencies: list[float] = field(default_factory=list)
    saved: list[float] = field(default_factory=list)
    frame_bytes: list[int] = field(default_factory=list)
    events: int = 0

    def add(self, finger: Finger) -> None:
        assert finger.display is not None
        self.latencies += finger.latencies
        self.saved += finger.saved
        self.frame_bytes += [sent for sent, _ in finger.display.frames[1:]]  # 1st: set-up
        self.events += len(finger.latencies) + finger.silent


def new_box(state: Path, dice: list[int]) -> tuple[Finger, Box]:
    factory = MockFactory(pin_class=MockPWMPin)
    display = BusDisplay()
    box = build(Config(), display, pin_factory=factory, dice=ScriptedDice(dice), state_dir=state)
    return Finger(factory, Config(), box=box, display=display), box


def warmed_up(box: Box) -> bool:
    return getattr(box.loop, "warm_up", None) is None


def play(keys: list[str], dice: list[int]) -> Finger:
    """One battle on a fresh box, after its start-up warm-up (no one presses sooner); the
    animation ticks after each press are not timed, their frames' bytes are counted."""
    gc.collect()          # the boxes played before are gone, as in a box's own process
    with tempfile.TemporaryDirectory() as state:
        finger, box = new_box(Path(state), dice)
        try:
            box.loop.draw()
            while not warmed_up(box):
                box.loop.wait(0.01)
            for word in keys:
                finger.act(word)
                box.loop.settle()
            if not isinstance(box.app.screen, StartMenu) or box.app.state is not None:
                raise RuntimeError(f"the battle went off script at {box.app.view()}")
        finally:
            box.close()
            finger.factory.reset()
    return finger


def cold_press() -> dict[str, Any]:
    """In a fresh process: the first frame, then at once the first press of a battle."""
    keys, dice = BATTLES["Tank Game"]
    with tempfile.TemporaryDirectory() as state:
        finger, box = new_box(Path(state), dice)
        try:
            box.loop.draw()
            finger.act(keys[0])
        finally:
            box.close()
            finger.factory.reset()
    assert finger.display is not None
    return {"ms": finger.latencies[0], "bytes": finger.display.frames[1][0]}


# --- the children: fresh processes ---

def peak_memory() -> dict[str, Any]:
    for keys, dice in BATTLES.values():
        play(keys, dice)
    status = Path("/proc/self/status").read_text().splitlines()      # VmHWM: ru_maxrss would
    return {"peak_kb": int(next(s.split()[1] for s in status if "VmHWM" in s))}  # + parent's


def warm_up_and_idle(idle_s: float, window_s: float = WARM_WINDOW_S) -> dict[str, Any]:
    """The real main loop in a thread: CPU from its first frame until the warm-up is done (at
    least `window_s`), then over `idle_s` of nothing happening."""
    factory, display = MockFactory(pin_class=MockPWMPin), BusDisplay()
    with tempfile.TemporaryDirectory() as state:
        box = build(Config(), display, pin_factory=factory, state_dir=Path(state))
        split = {"imports": 0.0, "other": 0.0}
        if box.loop.warm_up is not None:
            box.loop.warm_up = split_steps(box.loop.warm_up, split)
        thread = threading.Thread(target=box.loop.run, name="main-loop")
        thread.start()
        while not display.frames:
            time.sleep(0.001)
        cpu, began = time.process_time(), time.monotonic()
        while not warmed_up(box) or time.monotonic() - began < window_s:
            time.sleep(0.05)
        warm_cpu, warm_s = time.process_time() - cpu, time.monotonic() - began
        cpu, wall = time.process_time(), time.monotonic()
        time.sleep(idle_s)
        cpu, wall = time.process_time() - cpu, time.monotonic() - wall
        box.loop.put(Stop("bench"))
        thread.join(10)
        box.close()
    return {"warm_cpu_s": warm_cpu, "warm_s": warm_s, "cpu_s": cpu, "wall_s": wall,
            "stopped": not thread.is_alive(), "import_s": split["imports"],
            "other_s": split["other"]}


def split_steps(steps: Iterator[bool], split: dict[str, float]) -> Iterator[bool]:
    """The warm-up's steps as they are, each one's CPU (the loop's thread) added up under
    "imports" when it imported a module (the screens the start menu does not wait for), else
    "other" (glyphs, words and the table made ahead)."""
    while True:
        modules, began = len(sys.modules), time.thread_time()
        if not next(steps, False):
            return
        split["imports" if len(sys.modules) > modules else "other"] += time.thread_time() - began
        yield True


def child(mode: str, idle_s: float, repeat: int) -> dict[str, Any]:
    if mode == "battle":
        return peak_memory()
    if mode == "cold":
        return cold_press()
    if mode == "dark":
        from dark_panel import measure  # bench/dark_panel.py: the box's OLED port, luma's i2c

        return measure()
    if mode == "odds":
        from store_odds import shot_odds  # bench/store_odds.py: the rules, the cards

        shots, thickest_ns = shot_odds(repeat)
        return {"shots": shots, "thickest_ns": thickest_ns}
    return warm_up_and_idle(idle_s)


def run_child(env: dict[str, str], *args: str) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, "--child", *args], env=env,
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    return dict(json.loads(out.splitlines()[-1]))


def sim_start(env: dict[str, str], state_dir: str) -> float:
    """Popen → the first bytes of the sim's second frame on its terminal (the title, then the
    start menu: the box takes keys), in s; then 'q' and the exit code must be 0."""
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
    return stamps[1]


# --- the figures ---

def p99(samples: Sequence[float]) -> float:
    return sorted(samples)[math.ceil(0.99 * len(samples)) - 1]      # nearest rank


@dataclass(frozen=True)
class Row:
    """One figure of the targets table: its median (and p99) in `unit`, and the target."""

    name: str
    median: float
    unit: str
    limit: float | None          # the target in `unit`; None: shown for comparison only
    p99: float | None = None     # when given, the target is on the p99
    time: bool = True            # a duration: the Pi Zero 2 W estimate is ×ZERO_2W

    @property
    def judged(self) -> float:
        return self.median if self.p99 is None else self.p99

    def verdict(self) -> str:
        return "-" if self.limit is None else "PASS" if self.judged <= self.limit else "MISS"


def amount(value: float, unit: str) -> str:
    if unit in ("B", "MB"):
        return f"{value:,.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
    digits = 3 if value < 10 else 1 if value < 100 else 0
    return f"{value:.{digits}f} {unit}"


def table(rows: list[Row]) -> None:
    print(f"\n{'figure':<50}{'median':>10}{'p99':>10}   {'Pi Zero 2 W (x15, estimate)':<29}"
          f"{'target':<16}")
    for row in rows:
        p99_text = "" if row.p99 is None else amount(row.p99, row.unit)
        zero = "(not scaled)" if not row.time else amount(row.median * ZERO_2W, row.unit) + (
            "" if row.p99 is None else f", p99 {amount(row.p99 * ZERO_2W, row.unit)}")
        goal = "-" if row.limit is None else \
            f"{'p99 ' if row.p99 is not None else ''}<= {row.limit:g} {row.unit}"
        print(f"{row.name:<50}{amount(row.median, row.unit):>10}{p99_text:>10}   {zero:<29}"
              f"{goal:<16}{row.verdict()}")


def press_rows(repeat: int, env: dict[str, str], cold_runs: int) -> list[Row]:
    print(f"\n1. press → frame bytes handed to the bus (luma ssd1306 over a recording bus); "
          f"each battle {repeat}×, after the box's warm-up")
    print(f"   {'battle':<11}{'events':>7}{'frames':>7}{'median':>8}{'p99':>7}{'max':>7}"
          f"{'saved':>7}{'median':>8}{'max':>7}{'bytes/frame':>13}")
    played: dict[str, Played] = {}
    for name, (keys, dice) in BATTLES.items():
        played[name] = Played()
        for _ in range(repeat):
            played[name].add(play(keys, dice))
    played["all"] = Played()
    for name in BATTLES:
        for part in ("latencies", "saved", "frame_bytes"):
            getattr(played["all"], part).extend(getattr(played[name], part))
        played["all"].events += played[name].events
    for name, got in played.items():
        saved = got.saved or [math.nan]
        print(f"   {name:<11}{got.events:>7}{len(got.latencies):>7}"
              f"{statistics.median(got.latencies):>8.2f}{p99(got.latencies):>7.2f}"
              f"{max(got.latencies):>7.2f}{len(got.saved):>7}{statistics.median(saved):>8.2f}"
              f"{max(saved):>7.2f}{statistics.median(got.frame_bytes):>13,.0f}")
    tmp = tempfile.gettempdir()
    every = played["all"]
    print(f"   ms from the pin edge that makes the event; saved: the press's step saved the "
          f"battle to SQLite (synchronous=FULL) in {tmp} ({fs_type(tmp)}); bytes/frame: "
          f"median of {len(every.frame_bytes)} frames (animation frames too), the "
          f"wire's time at 400 kHz ~{statistics.median(every.frame_bytes) * 9 / 400:.1f} ms")
    run_child(env, "cold")        # untimed: writes the bytecode cache, as a box started before
    cold = [run_child(env, "cold") for _ in range(cold_runs)]
    cold_ms = [c["ms"] for c in cold]
    print(f"   cold: the first press of {cold_runs} fresh processes, right after the first "
          f"frame: {' '.join(f'{ms:.1f}' for ms in cold_ms)} ms "
          f"({' '.join(str(c['bytes']) for c in cold)} bytes)")
    return [Row("press → frame bytes on the bus, warm", statistics.median(every.latencies),
                "ms", 2.0, p99(every.latencies)),
            Row("press → frame bytes on the bus, cold (1st press)", statistics.median(cold_ms),
                "ms", None, max(cold_ms)),
            Row("bytes on the bus per frame (battles)", statistics.median(every.frame_bytes),
                "B", 600, time=False)]


def fs_type(path: str) -> str:
    """The file system holding `path`: the longest matching mount point in /proc/mounts."""
    rows = [line.split()[1:3] for line in Path("/proc/mounts").read_text().splitlines()]
    return max((r for r in rows if path.startswith(r[0])), key=lambda r: len(r[0]))[1]


def start_rows(env: dict[str, str], runs: int) -> list[Row]:
    print(f"\n2. process start → start menu of `cobi-companion sim` on a pseudo-terminal, "
          f"median of {runs} runs after one that writes the bytecode cache")
    with tempfile.TemporaryDirectory() as state:
        times = [sim_start(env, f"{state}/{run}") for run in range(runs + 1)][1:]
    print(f"   {statistics.median(times):.3f} s (runs: {' '.join(f'{t:.3f}' for t in times)} s)")
    return [Row("process start → start menu ready, wall", statistics.median(times), "s", 0.2)]


def loop_rows(env: dict[str, str], idle_s: float) -> tuple[tuple[Row, Row], bool]:
    print("\n3. the real main loop in a thread of a fresh process: CPU (all threads) after its "
          "first frame")
    # Untimed first: the bytecode of the modules the warm-up imports is written (the start's
    # runs quit at the menu), as on a box that has started before.
    run_child(env, "idle", "--idle-seconds", "0.1")
    idle = run_child(env, "idle", "--idle-seconds", str(idle_s))
    rate = idle["cpu_s"] / idle["wall_s"]
    warm = max(0.0, idle["warm_cpu_s"] - rate * idle["warm_s"])
    print(f"   warm-up: {idle['warm_cpu_s']:.3f} s CPU in the first {idle['warm_s']:.2f} s, "
          f"less the idle rate: {warm:.3f} s; its steps: importing the modules the start menu "
          f"does not wait for {idle['import_s']:.3f} s, the rest (glyphs, words, the table "
          f"made ahead) {idle['other_s']:.3f} s")
    per_30 = rate * 30
    print(f"   idle: {idle['cpu_s']:.3f} s CPU in {idle['wall_s']:.1f} s: {per_30:.3f} s per 30 s")
    return (Row("CPU spent on warm-up after start", warm, "s", 0.1),
            Row("CPU while idle 30 s", per_30, "s", 0.03)), bool(idle["stopped"])


def memory_rows(env: dict[str, str]) -> list[Row]:
    print("\n4. peak memory (VmHWM) of a fresh process that builds the box and plays both "
          "battles")
    # An untimed child first, as for the other figures: pip compiles the installed box's
    # bytecode, and compiling a module the earlier children never imported would add its
    # compiler's memory to the peak (about 2.5 MB for the battles' screens).
    run_child(env, "battle")
    peak = run_child(env, "battle")["peak_kb"] * 1024 / 1e6
    print(f"   {peak:.1f} MB (10^6 bytes)")
    return [Row("peak memory of the benchmark's battles", peak, "MB", 45.0, time=False)]


def dark_panel_rows(env: dict[str, str]) -> list[Row]:
    print("\n8. a panel that never answers (every I2C write NAKed), retried through the box's "
          "reconnect path")
    got = run_child(env, "dark")
    print(f"   {got['retries']:,} retries: VmRSS {got['rss_bytes']:+,} B, then tracemalloc "
          f"{got['traced_bytes']:+,} B over {got['retries']:,} more; luma devices alive: "
          f"{got['luma_devices']}")
    name = f"memory growth, dark panel retried {got['retries']:,} times"
    return [Row(name, got["traced_bytes"], "B", 0.0, time=False)]


def odds_rows(env: dict[str, str], runs: int, repeat: int) -> list[Row]:
    print(f"\n5. exact odds: `cobi-companion odds ... --json`, the whole process, median of "
          f"{runs}; one Tiger I shot, median of {repeat} calls")
    from store_odds import odds_process

    process = odds_process(runs, env)
    print(f"   process: {' '.join(f'{t:.3f}' for t in process)} s")
    # In a fresh process: after the battles timed before (six boxes built and closed), this
    # process ran the odds nearly twice as slowly until a gc.collect(); that is not their cost.
    odds = run_child(env, "odds", "--repeat", str(repeat))
    shots, thickest_ns = odds["shots"], odds["thickest_ns"]
    name, worst_ns = max(shots, key=lambda shot: shot[1])
    print(f"   shots: {len(shots)} shipped targets and facings, median "
          f"{statistics.median(ns for _, ns in shots) / 1e3:.1f} µs, slowest {name} "
          f"{worst_ns / 1e3:.1f} µs; armour 30 + Destroy 30 (the schema's largest) "
          f"{thickest_ns / 1e3:.1f} µs")
    return [Row("cobi-companion odds ... --json, whole process", statistics.median(process),
                "s", 0.15),
            Row("one Tiger I shot's odds, worst shipped card", worst_ns / 1e3, "µs", 60.0),
            Row("one Tiger I shot's odds, schema's largest", thickest_ns / 1e3, "µs", 200.0)]


def store_rows(rolls: int, megabytes: float, repeat: int, kills: int) -> list[Row]:
    tmp = tempfile.gettempdir()
    print(f"\n6. the store on disk ({tmp}, {fs_type(tmp)}; synchronous=FULL), median of "
          f"{repeat}")
    with tempfile.TemporaryDirectory() as folder:
        from store_odds import store_figures

        got = store_figures(Path(folder), rolls, megabytes, repeat, kills)
    stats_ms = [s * 1e3 for s in got.stats_s]
    clean_ms = [s * 1e3 for s in got.clean_open_s]
    killed = statistics.median(got.killed_open_s) * 1e3 if got.killed_open_s else math.nan
    print(f"   dice statistics at {got.rolls:,} rolls (this battle's counts and the overall "
          f"ones): {statistics.median(stats_ms):.3f} ms")
    print(f"   open the {got.megabytes:.1f} MB store after a clean stop: "
          f"{statistics.median(clean_ms):.2f} ms ({got.checked_after_clean} of {repeat} "
          f"checked); after a killed process: {killed:.1f} ms with the integrity check "
          f"({got.checked_after_kill} of {kills} checked)")
    return [Row(f"dice statistics at {got.rolls:,} rolls", statistics.median(stats_ms), "ms",
                1.0),
            Row(f"open a {got.megabytes:.0f} MB store after a clean shutdown",
                statistics.median(clean_ms), "ms", 5.0)]


def voice_rows(repeat: int) -> list[Row]:
    """The voice (issue 34: each utterance one sentence, rendered whole by one call of the
    engine, at the settings' volume as eSpeak's amplitude): rendering the sentences with no
    value in them (what the box renders ahead, both languages), and the time from an outcome
    handed over (`speech.say`, as app.save does once the frame is drawn) to the player's first
    bytes, the sentence in the cache and the sentence rendered then (its file removed before
    each say). No sample is touched in Python on the way. The player is `cat` to /dev/null:
    on the Pi, aplay's own start comes on top (its buffer: ~0.1 s by default)."""
    from cobi_companion.device.core.saying import outcome, prompt
    from cobi_companion.device.core.spoken import fixed_sentences, utterance
    from cobi_companion.device.ports.audio_out import Player
    from cobi_companion.device.ports.espeak import find_library
    from cobi_companion.device.ports.voice import Engine, Voice, style_of

    with tempfile.TemporaryDirectory() as folder:
        engine = Engine(find_library(), Path(folder))
        _ = engine.cache            # the engine started: its start is not the render's
        fixed = {language: fixed_sentences(language) for language in ("en", "pl")}
        style = style_of("normal", 80)
        start = time.perf_counter()
        count = engine.render_missing(fixed, style=style)
        render_s = time.perf_counter() - start
        heard = threading.Event()
        voice = Voice(engine, Player(["cat"], on_first_bytes=heard.set), volume=80)
        said = utterance(outcome("say_hit", firer="Tiger 1"), "en").then(
            utterance(prompt("say_turn", side="allies"), "en"))
        cached = engine.cache.path("en", said.text, style.key("en"))
        times: dict[bool, list[float]] = {True: [], False: []}
        for n in range(2 * repeat):
            in_cache = n % 2 == 0 and n > 0
            if not in_cache:
                cached.unlink(missing_ok=True)
            heard.clear()
            start = time.perf_counter()
            voice.say(said)
            heard.wait(10)
            times[in_cache].append((time.perf_counter() - start) * 1000)
        voice.close()
    print(f"   the sentence: {said.text!r}")
    return [Row(f"voice: render the sentences with no value ({count}, en and pl)", render_s,
                "s", None),
            Row("voice: outcome to first sound, the sentence in the cache",
                statistics.median(times[True]), "ms", None, p99(times[True])),
            Row("voice: outcome to first sound, the sentence rendered whole",
                statistics.median(times[False]), "ms", None, p99(times[False])),
            *isolation_rows(repeat)]


def isolation_rows(repeat: int) -> list[Row]:
    """What the engine's own process costs (issue 31): a phrase rendered by the worker (the
    request and the samples through its pipes) against the same phrase rendered in this
    process through ctypes, as before; and the worker's start, once per box. A phrase in the
    cache (every phrase but a new card's, the cache warm) costs nothing more: the worker only
    renders what the cache lacks."""
    from cobi_companion.device.ports.espeak import espeak_for, find_library
    from cobi_companion.device.ports.render_process import RenderProcess

    text = "Tiger one hits!"
    start = time.perf_counter()
    worker = RenderProcess(find_library())
    worker.start()
    started_ms = (time.perf_counter() - start) * 1000
    inside = espeak_for()
    inside.render(text, "en")
    worker.render(text, "en")                   # both warm
    times: dict[str, list[float]] = {"in": [], "worker": []}
    for _ in range(repeat):
        for where, render in (("in", inside.render), ("worker", worker.render)):
            start = time.perf_counter()
            render(text, "en")
            times[where].append((time.perf_counter() - start) * 1000)
    worker.close()
    extra = [w - i for w, i in zip(times["worker"], times["in"], strict=True)]
    print(f"   a phrase ({text!r}): {statistics.median(times['in']):.2f} ms in the box's "
          f"process, {statistics.median(times['worker']):.2f} ms by the worker; the worker "
          f"started in {started_ms:.0f} ms")
    return [Row("voice: a phrase rendered by the worker, more than in-process",
                statistics.median(extra), "ms", None, p99(extra)),
            Row("voice: the engine's worker starts (once per box)", started_ms, "ms", None)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="fewer runs and a 3 s idle window instead of 30 s")
    parser.add_argument("--idle-seconds", type=float, metavar="S", help="idle window (30 s)")
    parser.add_argument("--child", choices=["battle", "idle", "cold", "odds", "dark"],
                        help=argparse.SUPPRESS)
    parser.add_argument("--repeat", type=int, default=500, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    idle_s = args.idle_seconds or (3.0 if args.quick else 30.0)
    if args.child:
        print(json.dumps(child(args.child, idle_s, args.repeat)))
        return 0
    errors: list[logging.LogRecord] = []          # the loop logs a failing step and goes on
    handler = logging.Handler(logging.ERROR)
    handler.emit = errors.append  # type: ignore[assignment]
    logging.getLogger().addHandler(handler)
    print(f"Python {platform.python_implementation()} {platform.python_version()} "
          f"on {platform.system()} {platform.machine()}")
    from run import cpu_model  # bench/run.py, beside this file: the rules (not in the children)

    print(f"CPU    {cpu_model()}")
    quick = args.quick
    with tempfile.TemporaryDirectory() as pycache, tempfile.TemporaryDirectory() as cache:
        # Children run as a box does: bytecode cached (here in a temporary folder), no systemd.
        env = {k: v for k, v in os.environ.items()
               if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "PYTHONDONTWRITEBYTECODE")}
        env["PYTHONPYCACHEPREFIX"] = pycache
        # The box's cache (snapshots, glyph atlas) of this run alone, as systemd gives the box
        # its own: a user's ~/.cache may hold one that another checkout of the code keeps
        # rewriting. The first box of each part writes it; the timed ones read it.
        env["CACHE_DIRECTORY"] = os.environ["CACHE_DIRECTORY"] = cache
        press = press_rows(1 if quick else 3, env, 2 if quick else 5)
        start = start_rows(env, 2 if quick else 5)
        (warm_up, idle), stopped = loop_rows(env, idle_s)
        memory = memory_rows(env)
        odds = odds_rows(env, 3 if quick else 10, 50 if quick else 500)
    store = store_rows(100_000, 10.0, 5 if quick else 20, 1 if quick else 3)
    voice = voice_rows(10 if quick else 50)
    # Its own process, after the others (it times nothing; their bytecode folder is gone).
    dark = dark_panel_rows({k: v for k, v in env.items() if k != "PYTHONPYCACHEPREFIX"})
    rows = [*start, warm_up, *press, *odds, *store, idle, *memory, *voice,   # the targets' order
            *dark]
    print("\nThe targets (medians; p99 where the target is one; the Pi Zero 2 W column is this "
          f"machine's figure ×{ZERO_2W}, an estimate)")
    table(rows)
    if errors or not stopped:
        print(f"FAIL: {len(errors)} errors logged; the idle loop stopped: {stopped}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
