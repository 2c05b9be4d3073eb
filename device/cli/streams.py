"""Standard streams a command may be started without: `cobi-companion cards list >&-` (no
standard output), `cobi-companion play <&-` (no standard input), `2>&-`.

Python starts such a process with sys.stdout (or stdin, stderr) set to None: a `print` then
vanishes, a `sys.stdin.isatty()` ends in a traceback, and the file descriptor is free, so that
the next file the command opens (the battle database) becomes descriptor 1, and a child process
(the voice's player) would write into it. `guard` fills each closed descriptor with /dev/null
and gives Python a stream in its place: no input (as an empty file), and an output that refuses
every write with `OutputClosed`, which `main` ends quietly like a reader gone (exit 141 with
nothing said: there is nowhere to say it). A command that writes nothing still succeeds. A
closed standard error only loses what would be said there.
"""
from __future__ import annotations

import errno
import io
import os
import sys

# The descriptors of standard input, output and error, and the mode /dev/null is opened in.
_STREAMS = ((0, os.O_RDONLY), (1, os.O_WRONLY), (2, os.O_WRONLY))


class OutputClosed(BrokenPipeError):
    """A write to an output that was closed before the command started (a BrokenPipeError:
    its reader is gone, as it is for `| head -c0`)."""


class ClosedOutput(io.TextIOBase):
    """Standard output or error that was closed: every write refused with OutputClosed; its
    descriptor is the /dev/null put in its place (a terminal size asked of it is none)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def fileno(self) -> int:
        return self._fd

    def write(self, text: str) -> int:
        if not text:
            return 0
        raise OutputClosed(errno.EBADF, "the output was closed before the command started")

    def writable(self) -> bool:
        return True


def guard() -> None:
    """Fill the closed standard descriptors with /dev/null, and give Python a stream for each
    stream it set to None."""
    filled = {fd for fd, mode in _STREAMS if _closed(fd) and _fill(fd, mode)}
    if sys.stdin is None:                        # no input: like an empty file
        sys.stdin = io.StringIO("")
        if 0 in filled:                          # kept open for the command's whole run
            sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
    if sys.stdout is None:
        sys.stdout = ClosedOutput(1)
    if sys.stderr is None:
        # Warnings and refusals go nowhere: a closed stderr must not end a command whose
        # output is fine (the exit code still says a refusal).
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False) if 2 in filled \
            else io.StringIO()  # noqa: SIM115


def _closed(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


def _fill(fd: int, mode: int) -> bool:
    """/dev/null at descriptor `fd` (os.open takes the lowest free one, which is `fd` when the
    ones below it are open; dup2 moves it there otherwise); False if it cannot be."""
    try:
        opened = os.open(os.devnull, mode)
        if opened != fd:
            os.dup2(opened, fd)
            os.close(opened)
        os.set_inheritable(fd, True)             # a child process gets it, as it would ours
    except OSError:
        return False
    return True
