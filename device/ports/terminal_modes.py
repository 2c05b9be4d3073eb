"""The terminal's settings, kept while the simulator runs, so that a simulator killed with them
changed (keys unechoed, one at a time) is repaired by the next start.

The simulator puts its terminal in cbreak mode (no echo, no line editing) and puts it back as
it found it when it ends. A simulator killed (SIGKILL, a crash of Python itself) cannot: the
shell is left typing blind. So while it runs, the settings it found are kept in a file of its
state folder, gone again once they are put back. A start that finds the file (the last run did
not end cleanly) on the same terminal puts back those, not the broken ones it found.
"""
from __future__ import annotations

import contextlib
import json
import os
import termios
from pathlib import Path
from typing import Any

FILE_NAME = "terminal.json"

Modes = list[Any]        # termios.tcgetattr's: iflag, oflag, cflag, lflag, ispeed, ospeed, cc


def _encoded(modes: Modes) -> list[Any]:
    """JSON for the modes: the control characters are bytes (or VMIN/VTIME numbers)."""
    *flags, cc = modes
    return [*flags, [{"byte": c[0]} if isinstance(c, bytes) else c for c in cc]]


def _decoded(data: list[Any]) -> Modes:
    *flags, cc = data
    return [*(int(flag) for flag in flags),
            [bytes([c["byte"]]) if isinstance(c, dict) else int(c) for c in cc]]


def _terminal(fd: int) -> str:
    try:
        return os.ttyname(fd)
    except OSError:
        return ""


def found(fd: int, folder: Path) -> Modes | None:
    """The settings a killed simulator left in `folder` for this terminal, if any."""
    try:
        data = json.loads((folder / FILE_NAME).read_text())
        if data["terminal"] != _terminal(fd):
            return None          # another terminal: this one was never changed
        return _decoded(data["modes"])
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None              # none left, or a file no run of ours wrote


def keep(fd: int, folder: Path) -> Modes:
    """The settings to put back at the end: those a killed simulator left for this terminal,
    else the ones it has now; kept in `folder` until `put_back`."""
    modes = found(fd, folder) or termios.tcgetattr(fd)
    path = folder / FILE_NAME
    temporary = path.with_suffix(".tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary.write_text(json.dumps({"terminal": _terminal(fd), "modes": _encoded(modes)}))
        os.replace(temporary, path)
    except OSError:              # a folder it cannot write: the box plays on, unkept
        pass
    return modes


def put_back(fd: int, folder: Path, modes: Modes) -> None:
    """The terminal as it was, and nothing left to repair."""
    termios.tcsetattr(fd, termios.TCSADRAIN, modes)
    with contextlib.suppress(FileNotFoundError):
        (folder / FILE_NAME).unlink()
