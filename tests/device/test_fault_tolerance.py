"""Faults the box must outlive: the plug pulled at random moments, a full or read-only disk,
broken card files and a broken config."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cobi_companion.device.box import build
from cobi_companion.device.config import parse_config
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.events import Key, Press
from gpiozero.pins.mock import MockFactory, MockPWMPin

CAMPAIGN = Path(__file__).with_name("kill_campaign.py")


@pytest.mark.long
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


def odd_cards(folder: Path, make_fifo) -> list[Path]:
    """A card folder with a good card and the files no reader may hang or crash on: a FIFO
    named like a card, a link to /dev/zero, a card nested 600 deep, one with a 5,000-digit
    number, and a Soft Targets Table that is a FIFO."""
    (folder / "tables").mkdir(parents=True)
    (folder / "9100-good.toml").write_text('set_number = 9100\nname = "Good"\ndamage = 3\n')
    odd = [make_fifo(folder / "9001-fifo.toml"), folder / "9002-zero.toml",
           folder / "9003-deep.toml", folder / "9004-digits.toml",
           make_fifo(folder / "tables" / "soft-targets.toml")]
    odd[1].symlink_to("/dev/zero")
    odd[2].write_text("x = " + "[" * 600 + "]" * 600 + "\n")
    odd[3].write_text(f'set_number = 9004\nname = "X"\ncost = {"1" * 5000}\n')
    return odd


def named(lines: list[str], odd: list[Path]) -> list[str]:
    """The files the lines name first, in the order of `odd`."""
    return sorted((line.removeprefix("warning: ").split(": ", 1)[0] for line in lines),
                  key=lambda name: [str(p) for p in odd].index(name))


def test_odd_card_files_are_one_line_each_in_every_command(cli_path, tmp_path, make_fifo):
    cards = tmp_path / "cards"
    odd = odd_cards(cards, make_fifo)
    run = [cli_path, "--cards", str(cards)]
    done = subprocess.run([*run, "cards", "check"], capture_output=True, text=True, timeout=60)
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert named(lines[:-1], odd) == [str(p) for p in odd]
    assert "it is a pipe (FIFO)" in lines[0] and "nested more than 32 deep" in done.stdout
    assert "a whole number of more than 4300 digits" in done.stdout
    assert lines[-1] == f"{len(shipped()) + 1} cards ok, 5 problems"
    for command in (["cards", "list"], ["cards", "show", "9100"]):
        done = subprocess.run([*run, *command], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and "Traceback" not in done.stderr
        assert named(done.stderr.splitlines(), odd) == [str(p) for p in odd]
        assert "Good" in done.stdout


def shipped() -> list[Path]:
    return sorted((Path(__file__).parents[2] / "cards").glob("*.toml"))


def test_an_odd_config_file_or_a_pin_on_a_bus_is_one_line_and_exit_2(cli_path, tmp_path,
                                                                      make_fifo):
    fifo = make_fifo(tmp_path / "fifo.toml")
    deep = tmp_path / "deep.toml"
    deep.write_text("[game]\nx = " + "{ a = " * 600 + "1" + " }" * 600 + "\n")
    pins = tmp_path / "pins.toml"
    pins.write_text('[[sensors]]\nname = "end"\nport = "/dev/serial0"\nmodel = "us-100"\n'
                    "[encoder]\nb = 14\n")
    # a FIFO given on the command line is refused with the other odd arguments; one in a
    # layer of the settings, as the config loader says it (test_config_layers.py)
    says = {fifo: f"cobi-companion sim: --config: {fifo} is not a regular file; allowed: a "
                  f"settings file, like config.toml, UTF-8 text of at most 256 KiB",
            deep: f"cobi-companion: config {deep}: tables and arrays are nested more than 32 "
                  f"deep; allowed: at most 32 levels",
            pins: f"cobi-companion: config {pins}: line 6: encoder.b: GPIO 14 is the UART's TXD "
                  f"(sensors.0.port is /dev/serial0); allowed: a pin no other part uses"}
    for path, line in says.items():
        done = subprocess.run([cli_path, "sim", "--config", str(path), "--keys", "ok"],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, done.stderr
        assert done.stderr.splitlines() == [line]
