"""The benchmarks' scripts still play what they say: bench/device.py times two whole battles
by their key presses, and a change to the screens that sends a press elsewhere would make it
time another path (or stop it). Played here untimed; the figures are the benchmark's."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture(scope="module")
def bench_device(tmp_path_factory: pytest.TempPathFactory) -> Any:
    # bench/device.py imports bench/run.py as `run`, a name the project's own run.py may have
    # taken in this process: the bench's modules are loaded by path, each under its own name.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
        patch.setitem(sys.modules, "run", load(patch, "run", "bench_run"))
        yield load(patch, "device", "bench_device")


def load(patch: pytest.MonkeyPatch, name: str, as_name: str) -> Any:
    spec = importlib.util.spec_from_file_location(as_name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    patch.setitem(sys.modules, as_name, module)      # its dataclasses look themselves up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("battle", ["Tank Game", "Easy"])
def test_the_benchmarks_battles_play_to_their_end(bench_device: Any, battle: str) -> None:
    keys, dice = bench_device.BATTLES[battle]
    finger = bench_device.play(keys, dice)           # raises if the battle went off script
    assert len(finger.shown) >= len(keys) // 2        # the presses drew frames to time
