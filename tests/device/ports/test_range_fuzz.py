"""The seeded fuzz of bench/range_fuzz.py, short: every family's parser against the reference
decoder (tests/device/range_reference.py) over random streams of valid frames, garbage, runs
of header bytes and stray header bytes, cut at random places and at every byte. The longer
run is `.venv/bin/python bench/range_fuzz.py` (bench/README.md).

The fuzz must also catch a parser that is wrong: two broken ones are put through it."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.ports.range_sensor import Condition, FFParser, Parser, Reading

BENCH = Path(__file__).resolve().parents[3] / "bench"
SEED = 20240601


@pytest.fixture(scope="module")
def fuzz() -> Any:
    spec = importlib.util.spec_from_file_location("bench_range_fuzz", BENCH / "range_fuzz.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "bench_range_fuzz", module)   # its dataclasses look it up
        spec.loader.exec_module(module)
        yield module


def test_every_family_reads_what_the_reference_reads(fuzz: Any) -> None:
    tallies = fuzz.fuzz(1000, SEED)
    assert list(tallies) == ["ff", "us100", "maxbotix", "benewake"]
    for family, tally in tallies.items():
        assert tally.streams == 1000, family
        problems = (tally.exceptions, tally.wrong, tally.missed, tally.differ)
        assert problems == (0, 0, 0, 0), f"{family}:\n{tally.first_problem}"
        assert tally.clear_found == tally.clear > 0, family      # nothing could hide these
        assert tally.ok > tally.planted / 2, family              # it did read frames


class TakesImpossibleFrames(FFParser):
    """The fault of issue 16: a window with a good checksum is a frame, whatever it says."""

    def _judge(self, frame: bytes) -> tuple[Reading, bool]:
        reading, _ = super()._judge(frame)
        return reading, reading.condition is not Condition.CHECKSUM_ERROR


class Forgetful:
    """Drops the partial frame at the end of every read."""

    def __init__(self, parser: Parser) -> None:
        self.parser = parser

    def feed(self, data: bytes) -> list[Reading]:
        readings = self.parser.feed(data)
        self.parser.reset()
        return readings

    def reset(self) -> None:
        self.parser.reset()


def test_the_fuzz_catches_impossible_frames_taken_for_frames(fuzz: Any) -> None:
    def make(setup: Any) -> Parser:
        if setup.model.family == "ff":
            return TakesImpossibleFrames(setup.model, header_in_checksum=setup.header_in_checksum)
        return fuzz.new_parser(setup)
    tallies = fuzz.fuzz(300, SEED, make)
    assert tallies["ff"].missed > 0 and tallies["ff"].differ > 0
    assert all(tallies[family].failures == 0 for family in ("us100", "maxbotix", "benewake"))


def test_the_fuzz_catches_a_parser_that_forgets_partial_frames(fuzz: Any) -> None:
    tallies = fuzz.fuzz(300, SEED, lambda setup: Forgetful(fuzz.new_parser(setup)))
    for family, tally in tallies.items():
        assert tally.missed > 0 and tally.differ > 0, family
