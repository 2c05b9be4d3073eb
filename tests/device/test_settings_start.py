"""Issue 31, points 4 and 5, as real processes: a two-line settings file that once crashed the
box at its start (a path of "~nosuchuser", a 4,301-digit hex address, a state folder with a name
over 255 bytes or a NUL, or one that cannot be made), as an overlay layer and as --config, and a
hostile USB stick: `cobi-companion run` starts, shows the settings-file screen, keeps the values
of the layers before, and stops cleanly on SIGTERM; the text form (`play`) shows the same."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from cobi_companion.device.ports.store import DATABASE_NAME

from tests.conftest import put_card_snapshots

BAD = {
    "no such user": '[paths]\ncards_dir = "~nosuchuser/x"\n',
    "4301 hex digits": '[display]\naddress = "0x' + "1" * 4301 + '"\n',
    "long name": '[paths]\nstate_dir = "/tmp/' + "x" * 300 + '"\n',
    "NUL": '[paths]\nstate_dir = "/tmp/a\\u0000b"\n',
}
PROBLEM = {
    "no such user": "line 2: paths.cards_dir: \"~nosuchuser/x\" is not allowed (no such user's "
                    "home folder)",
    "4301 hex digits": "line 2: display.address: \"0x1111",
    "long name": "is not allowed (a name in the path of more than 255 bytes)",
    "NUL": "is not allowed (a path cannot hold a NUL character)",
}


@pytest.fixture(autouse=True)
def _first_run_snapshots(checked_cards: Callable[[Path], None], card_snapshots: dict[str, bytes],
                         tmp_path: Path) -> None:
    """Each box and command starts from the card snapshots of a first run (tests/conftest.py):
    the cards are not what these tests are about, and each fresh cache folder checked them all
    again. A command's cache folder is the test's (`checked_cards`); a box's is in the
    $STATE_DIRECTORY `run_box` gives it (cards/snapshot.py)."""
    put_card_snapshots(tmp_path / "state" / "cache" / "snapshots", card_snapshots)


@dataclass
class Started:
    screen: str          # the frame showing when the box was told to stop, as text
    journal: str         # what it logged (stderr)
    code: int


def hooks(tmp_path: Path) -> str:
    """The settings a test box needs: no panel bus, gpiozero's mock pins, each frame as text."""
    return (f'[display]\ndriver = "dummy"\n[pins]\nfactory = "mock"\n'
            f'[test]\nscreen_file = "{tmp_path / "screen.txt"}"\n')


def run_box(cli_path: str, tmp_path: Path, config: Path, overlays: list[Path],
            stick: Path | None = None, until: str = "[") -> Started:
    """`cobi-companion run --config CONFIG` with the overlay folders (and the stick), until its
    frame holds `until`; then SIGTERM."""
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "LG_WD": str(tmp_path),
           "STATE_DIRECTORY": str(tmp_path / "state"),
           "COBI_COMPANION_OVERLAYS": os.pathsep.join(map(str, overlays)),
           "COBI_COMPANION_STICK": str(stick or "")}
    env.pop("NOTIFY_SOCKET", None)
    screen = tmp_path / "screen.txt"
    with open(tmp_path / "journal.txt", "wb") as journal:
        proc = subprocess.Popen([cli_path, "run", "--config", str(config)], env=env,
                                cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=journal)
        try:
            end = time.monotonic() + 120            # a safety net, not a measure
            while proc.poll() is None and time.monotonic() < end:
                if screen.is_file() and until in screen.read_text(encoding="utf-8"):
                    break
                time.sleep(0.05)
            # the frame's text, its wrapped lines joined
            shown = " ".join(screen.read_text(encoding="utf-8").split()) \
                if screen.is_file() else ""
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return Started(shown, (tmp_path / "journal.txt").read_text(errors="replace"), code)


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_overlay_file_keeps_the_box_up_with_the_layers_before(
        cli_path: str, tmp_path: Path, name: str) -> None:
    etc = tmp_path / "etc.toml"
    etc.write_text(hooks(tmp_path) + '[game]\nlanguage = "pl"\n')
    folder = tmp_path / "boot"
    folder.mkdir()
    (folder / "config.toml").write_text(BAD[name])
    started = run_box(cli_path, tmp_path, etc, [folder], until="Plik ustawień")
    assert started.code == 0 and "Traceback" not in started.journal, started.journal
    assert "Plik ustawień" in started.screen            # /etc's language: the layer before
    assert f"settings file not used: config {folder / 'config.toml'}: " in started.journal
    assert PROBLEM[name] in started.journal
    assert (tmp_path / "state" / DATABASE_NAME).is_file()   # the default folder: /etc's


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_config_file_keeps_the_box_up_and_says_where(
        cli_path: str, tmp_path: Path, name: str) -> None:
    given = tmp_path / "bad.toml"
    given.write_text(BAD[name])
    folder = tmp_path / "boot"
    folder.mkdir()
    (folder / "config.toml").write_text(hooks(tmp_path))
    started = run_box(cli_path, tmp_path, given, [folder], until="Settings file")
    assert started.code == 0 and "Traceback" not in started.journal, started.journal
    assert "Settings file" in started.screen
    assert f"settings file not used: config {given}: " in started.journal
    assert PROBLEM[name] in started.journal


def test_a_state_folder_that_cannot_be_made_is_said_and_the_one_before_is_used(
        cli_path: str, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    etc = tmp_path / "etc.toml"
    etc.write_text(hooks(tmp_path) + f'[paths]\nstate_dir = "{tmp_path / "etc-state"}"\n')
    folder = tmp_path / "boot"
    folder.mkdir()
    (folder / "config.toml").write_text(f'[paths]\nstate_dir = "{blocker / "state"}"\n')
    started = run_box(cli_path, tmp_path, etc, [folder], until="Settings file")
    assert started.code == 0 and "Traceback" not in started.journal, started.journal
    assert "The box cannot save in this folder:" in started.screen
    assert f"settings value not used: paths.state_dir {blocker / 'state'}: " in started.journal
    assert (tmp_path / "etc-state" / DATABASE_NAME).is_file()   # the battles are saved there


def test_a_hostile_stick_is_refused_and_the_box_keeps_the_etc_values(
        cli_path: str, tmp_path: Path) -> None:
    state = tmp_path / "etc-state"
    etc = tmp_path / "etc.toml"
    etc.write_text(hooks(tmp_path) + f'[paths]\nstate_dir = "{state}"\n'
                   '[leds]\naxis = 23\nallies = 24\n')
    stick = tmp_path / "stick"
    stick.mkdir()
    ram = tmp_path / "ram"
    (stick / "config.toml").write_text(
        f'[game]\nlanguage = "pl"\n[paths]\nstate_dir = "{ram}"\n'
        '[leds]\naxis = 17\nallies = 27\n[display]\ncontrast = 0\n')
    started = run_box(cli_path, tmp_path, etc, [], stick=stick, until="Plik ustawień")
    assert started.code == 0 and "Traceback" not in started.journal, started.journal
    # The stick's language applies; the rest of it is refused, each key named.
    assert "Pendrive nie może zmienić" in started.screen
    refusal = next(line for line in started.journal.splitlines()
                   if "settings of the USB stick not used: " in line)
    for line, field in ((4, "paths.state_dir"), (6, "leds.axis"), (7, "leds.allies"),
                        (9, "display.contrast")):
        assert f"line {line}: {field}: a USB stick may not set it" in refusal
    assert (state / DATABASE_NAME).is_file() and not ram.exists()   # where /etc says
    assert "LEDs on GPIO" not in started.journal         # no LED claimed a button's pin


@pytest.mark.parametrize("name", list(BAD))
def test_the_text_form_shows_a_bad_overlay_and_refuses_a_bad_config_in_one_line(
        cli_path: str, tmp_path: Path, name: str) -> None:
    folder = tmp_path / "boot"
    folder.mkdir()
    (folder / "config.toml").write_text(BAD[name])
    env = {**os.environ, "COBI_COMPANION_OVERLAYS": str(folder)}
    shown = subprocess.run([cli_path, "play"], input="", capture_output=True, text=True,
                           env=env, timeout=120)
    assert shown.returncode == 0 and "Traceback" not in shown.stderr, shown.stderr
    assert "[ Settings file ]" in shown.stdout and "This file is not used:" in shown.stdout
    given = tmp_path / "bad.toml"
    given.write_text(BAD[name])
    refused = subprocess.run([cli_path, "play", "--config", str(given)], input="",
                             capture_output=True, text=True, env={**env,
                                                                  "COBI_COMPANION_OVERLAYS": ""},
                             timeout=120)
    assert refused.returncode == 2 and refused.stdout == ""
    [line] = refused.stderr.splitlines()
    assert line.startswith(f"cobi-companion: config {given}: line 2: ") and PROBLEM[name] in line
