"""How long the biggest file the box reads costs it: a start with a settings file of 256 KiB
(the most tomlfile reads) holding one key of that length, against a clean start, each timed
from the process's start to systemd's READY=1; and the word wrap of such a key on its own.

    .venv/bin/python bench/big_files.py [--runs N]

The start before READY=1 is bounded by the unit's TimeoutStartSec, not by its watchdog: the
figure here, times ZERO_FACTOR for a Pi Zero 2 W, must stay well within it. Timings never fail
the run; it prints them and the margin."""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
MAX_BYTES = 256 * 1024          # cards/tomlfile.py MAX_BYTES
ZERO_FACTOR = 10                # a Pi Zero 2 W core against this machine's, roughly (8-10x)
TIMEOUT_START_S = 120           # systemd/cobi-companion.service TimeoutStartSec
WATCHDOG_S = 30                 # and its WatchdogSec


def settings(key_length: int) -> str:
    text = '[display]\ndriver = "dummy"\n'
    return text if not key_length else text + "[game]\n" + "k" * key_length + " = 1\n"


def start_to_ready(folder: Path, text: str) -> float:
    """Seconds from starting `cobi-companion run` (as the unit does, on mock pins) to its
    READY=1, with `text` as the boot partition's settings file."""
    boot, state, run = folder / "boot", folder / "state", folder / "run"
    for made in (boot, state, run):
        made.mkdir(parents=True, exist_ok=True)
    (boot / "config.toml").write_text(text)
    address = folder / "notify.sock"
    address.unlink(missing_ok=True)
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "LG_WD": str(run),
           "NOTIFY_SOCKET": str(address), "WATCHDOG_USEC": str(WATCHDOG_S * 1_000_000),
           "STATE_DIRECTORY": str(state), "COBI_COMPANION_OVERLAYS": str(boot),
           "COBI_COMPANION_PLAYER": "none", "PYTHONDONTWRITEBYTECODE": "1"}
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(address))
        sock.settimeout(TIMEOUT_START_S)
        cli = Path(sys.executable).with_name("cobi-companion")
        began = time.perf_counter()
        proc = subprocess.Popen([str(cli), "run"], env=env, cwd=run,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while b"READY=1" not in sock.recv(65536):
                pass
            took = time.perf_counter() - began
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    return took


def wrap_seconds(length: int) -> float:
    from cobi_companion.device.ui.glyphs import font
    from cobi_companion.device.ui.wrap import wrap

    began = time.perf_counter()
    wrap("k" * length, font("Medium", 11), 118)
    return time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="starts of each kind (default 3)")
    runs = parser.parse_args().runs
    key = MAX_BYTES - len(settings(1)) + 1          # the whole file at its cap
    assert len(settings(key).encode()) == MAX_BYTES
    print(f"settings file: {MAX_BYTES} bytes, one key of {key} letters; {runs} starts each")
    with tempfile.TemporaryDirectory() as folder:
        clean = [start_to_ready(Path(folder) / "clean", settings(0)) for _ in range(runs)]
        big = [start_to_ready(Path(folder) / "big", settings(key)) for _ in range(runs)]
    for name, times in (("clean start", clean), ("start, 256 KiB key", big)):
        median = statistics.median(times)
        print(f"{name:<20} to READY=1: median {median:6.2f} s  (max {max(times):.2f} s); "
              f"Pi Zero 2 W ~{median * ZERO_FACTOR:5.1f} s of TimeoutStartSec {TIMEOUT_START_S} s")
    wrapped = wrap_seconds(key)
    print(f"wrap of the key alone: {wrapped * 1000:.0f} ms; "
          f"Pi Zero 2 W ~{wrapped * ZERO_FACTOR:.1f} s (the watchdog: {WATCHDOG_S} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
