"""The simulator and the terminal it runs in, as real processes on a pseudo-terminal: a start
after a killed simulator gives the shell its terminal back (echo, line editing), and
`--snapshot-dir` writes the frames of an interactive run too."""
from __future__ import annotations

import json
import os
import pty
import subprocess
import termios
from pathlib import Path

from cobi_companion.device.ports import terminal_modes

from .test_daemon import quit_sim, set_size, type_keys, wait_frames, wait_ready, watch

LFLAG = 3      # termios.tcgetattr's local modes: ECHO, ICANON


def sim_on(cli_path: str, slave: int, state_dir: Path, *extra: str) -> subprocess.Popen:
    """The interactive simulator on the terminal `slave` (which the test keeps open, to read
    its settings)."""
    return subprocess.Popen([cli_path, "sim", "--state-dir", str(state_dir), *extra],
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE,
                            env={**os.environ, "COBI_COMPANION_CARDS": ""})


def typing_shown(fd: int) -> bool:
    """Whether the terminal echoes what is typed, a line at a time: as a shell wants it."""
    lflag = termios.tcgetattr(fd)[LFLAG]
    return bool(lflag & termios.ECHO) and bool(lflag & termios.ICANON)


def test_a_start_after_a_killed_simulator_gives_the_terminal_back(cli_path, tmp_path):
    master, slave = pty.openpty()
    set_size(slave, 140, 40)
    before = termios.tcgetattr(slave)
    assert typing_shown(slave)
    kept = tmp_path / terminal_modes.FILE_NAME
    try:
        proc = sim_on(cli_path, slave, tmp_path)
        try:
            wait_ready(master)                  # the start menu: the keys are read
            assert not typing_shown(slave)
            proc.kill()                         # SIGKILL: nothing of the sim runs after it
            proc.wait(timeout=10)
        finally:
            proc.kill()
        watch(master, 0.2)
        assert not typing_shown(slave)          # the shell would type blind
        proc = sim_on(cli_path, slave, tmp_path)
        try:
            wait_ready(master)
            assert quit_sim(proc, master) == 0
        finally:
            proc.kill()
        assert typing_shown(slave) and termios.tcgetattr(slave) == before
        assert not kept.exists()                # a clean end: nothing left to repair
    finally:
        os.close(master)
        os.close(slave)


def test_the_settings_kept_for_another_terminal_are_not_used(tmp_path):
    master, slave = pty.openpty()
    try:
        modes = termios.tcgetattr(slave)
        assert terminal_modes.keep(slave, tmp_path) == modes
        assert terminal_modes.found(slave, tmp_path) == modes       # read back as written
        data = json.loads((tmp_path / terminal_modes.FILE_NAME).read_text())
        data["terminal"] = "/dev/pts/another"
        (tmp_path / terminal_modes.FILE_NAME).write_text(json.dumps(data))
        assert terminal_modes.found(slave, tmp_path) is None
        (tmp_path / terminal_modes.FILE_NAME).write_text("not json")
        assert terminal_modes.found(slave, tmp_path) is None
    finally:
        os.close(master)
        os.close(slave)


def test_snapshots_are_written_while_a_person_plays(cli_path, tmp_path):
    master, slave = pty.openpty()
    set_size(slave, 140, 40)
    frames = tmp_path / "frames"
    try:
        proc = sim_on(cli_path, slave, tmp_path / "state", "--snapshot-dir", str(frames))
        try:
            wait_ready(master)
            type_keys(master, "\r")             # New battle: the roster
            wait_frames(master, 1)
            assert quit_sim(proc, master) == 0
        finally:
            proc.kill()
    finally:
        os.close(master)
        os.close(slave)
    names = sorted(path.name for path in frames.glob("frame-*.png"))
    # the start menu, the roster and the last frame (safe to unplug); the title is drawn
    # before the box starts
    assert names == ["frame-001.png", "frame-002.png", "frame-003.png"]
