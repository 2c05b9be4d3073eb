"""Faults the box must outlive: the plug pulled at random moments, a full or read-only disk,
broken card files and a broken config."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cobi_companion.device.box import build
from cobi_companion.device.config import parse_config
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.events import Key, Press
from gpiozero.pins.mock import MockFactory, MockPWMPin

CAMPAIGN = Path(__file__).with_name("kill_campaign.py")


def test_sigkill_200_times_never_loses_a_reported_action(tmp_path):
    # Two campaigns of 100 kills, each on its own battle and state folder, side by side: the
    # same 200 kills in half the time on two cores.
    runs = [subprocess.Popen([sys.executable, str(CAMPAIGN), str(tmp_path / f"state{seed}"),
                              "100", str(seed)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for seed in (7, 8)]
    figures: dict[str, int] = {}
    for run in runs:
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, err
        for name, value in json.loads(out).items():
            figures[name] = figures.get(name, 0) + value
    assert figures["kills"] == 200
    assert figures["lost"] == 0 and figures["unreadable"] == 0 and figures["vanished"] == 0
    # The first kills may come before a battle is set up; from then on every restart has it.
    assert figures["restarts_resumed"] >= 190
    assert figures["reported"] >= 1000                  # the kills landed in the middle of play


def test_a_state_folder_that_cannot_be_written_keeps_the_box_playing(tmp_path):
    blocker = tmp_path / "afile"          # tests run as root: chmod would not stop writes
    blocker.write_text("not a folder")
    factory = MockFactory(pin_class=MockPWMPin)
    box = build(parse_config({}), MemoryDisplay(), pin_factory=factory,
                state_dir=blocker / "state")
    try:
        assert not box.store.can_save
        assert box.app.view().header.title == "Cannot save!"      # the box says so
        for key in (Key.OK, Key.OK, Key.CW, Key.CW, Key.CW, Key.AXIS, Key.CCW, Key.CCW,
                    Key.ALLIES, Key.OK):
            box.loop.step(Press(key))
        assert box.app.state is not None and len(box.app.state.battle.pieces) == 2
        assert box.store.load_battle()["id"] == box.app.state.id  # kept in memory
    finally:
        box.close()
        factory.reset()


def test_broken_cards_and_a_broken_config_are_one_line_each(cli_path, tmp_path):
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "9999-broken.toml").write_text('set_number = 9999\nname = "Broken"\nto_hit = "7-9"\n')
    done = subprocess.run([cli_path, "--cards", str(cards), "cards", "list"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "2477" in done.stdout     # the shipped cards still load
    assert "9999-broken.toml" in done.stderr
    config = tmp_path / "config.toml"
    config.write_text("[buttons]\naxis = 99\n")
    # The tools stop at a broken file; the box itself shows it on its panel and stays up
    # (tests/device/test_systemd_run.py).
    done = subprocess.run([cli_path, "sim", "--config", str(config), "--keys", "ok"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].endswith(
        "buttons.axis: 99 is not allowed; allowed: a BCM GPIO number from 0 to 27")
