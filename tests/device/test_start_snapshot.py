"""Real processes, started twice: the first checks the card and settings files with pydantic and
takes a snapshot of what it made of them; the next starts from the snapshot without importing
pydantic at all (Python's own -X importtime lists every module a process imports). A touched
file brings the check back, and a broken file's problem is said each time."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ODDS = ("odds", "--rules", "tank", "--attacker", "2477", "--target", "2464", "--facing",
        "front", "--json")
BROKEN = 'set_number = 9002\nname = "Broken"\narmuor_front = 3\n'
HOUR_AGO = time.time() - 3600           # older than the snapshot's racy window


def run(*args: str) -> tuple[str, str, set[str]]:
    """`cobi-companion ARGS` as `python -m`, with its output, errors (importtime's lines
    left out) and the top-level packages it imported."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m",
                           "cobi_companion.device.cli", *args], capture_output=True, text=True,
                          timeout=120, check=True)
    imported = {line.rsplit("|", 1)[1].strip().split(".")[0]
                for line in proc.stderr.splitlines() if line.startswith("import time:")}
    said = "".join(line + "\n" for line in proc.stderr.splitlines()
                   if not line.startswith("import time:"))
    return proc.stdout, said, imported


@pytest.fixture
def cards(tmp_path: Path) -> Path:
    """A card folder with one broken card, an hour old."""
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "broken.toml").write_text(BROKEN)
    os.utime(folder / "broken.toml", (HOUR_AGO, HOUR_AGO))
    return folder


def test_the_second_command_starts_from_the_snapshot_without_pydantic(cards: Path) -> None:
    out, said, imported = run("--cards", str(cards), *ODDS)
    assert "pydantic" in imported                      # the files were checked
    warning = f"warning: {cards / 'broken.toml'}: armuor_front: is not a card field"
    assert said.startswith(warning)
    again, said_again, imported_again = run("--cards", str(cards), *ODDS)
    assert "pydantic" not in imported_again and "pydantic_core" not in imported_again
    assert (again, said_again) == (out, said)           # the same answer, the same warning
    os.utime(cards / "broken.toml", (HOUR_AGO + 60, HOUR_AGO + 60))     # touched
    touched, said_touched, imported_touched = run("--cards", str(cards), *ODDS)
    assert "pydantic" in imported_touched and (touched, said_touched) == (out, said)
    assert "pydantic" not in run("--cards", str(cards), *ODDS)[2]


def test_the_box_starts_from_the_snapshot_without_pydantic(tmp_path: Path) -> None:
    # The simulator is the box in a terminal: the same settings files, card book and start.
    state = tmp_path / "state"
    first, _, imported = run("sim", "--state-dir", str(state), "--keys", "ok")
    assert "pydantic" in imported
    again, _, imported_again = run("sim", "--state-dir", str(state), "--keys", "ok")
    assert "pydantic" not in imported_again and "pydantic_core" not in imported_again
    assert again == first                               # the same frames


def test_the_box_reports_a_broken_settings_file_from_the_snapshot_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    overlay = tmp_path / "boot"
    overlay.mkdir()
    (overlay / "config.toml").write_text("[display]\nadress = 60\n")
    os.utime(overlay / "config.toml", (HOUR_AGO, HOUR_AGO))
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", str(overlay))
    state = tmp_path / "state"
    play = ("play", "--state-dir", str(state))
    shown = []
    for checked in (True, False):
        # The knob scrolls the settings file's screen down to its problem.
        proc = subprocess.run([sys.executable, "-X", "importtime", "-m",
                               "cobi_companion.device.cli", *play], input="cw " * 8 + "\nq\n",
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert ("pydantic" in proc.stderr) is checked
        assert "line 2: display.adress:\nis not a config field" in proc.stdout
        shown.append(proc.stdout)
    assert shown[0] == shown[1]
