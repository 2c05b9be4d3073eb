"""How the command line refuses what it cannot act on: one line on stderr, exit 2."""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, NoReturn


class UsageError(Exception):
    """A command line the companion cannot act on: one line, exit 2."""


def terminal_columns() -> int:
    """The terminal's width as `shutil.get_terminal_size()` finds it: $COLUMNS, else the width
    of the terminal of standard output, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    if sys.__stdout__ is None:
        return 80
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):      # closed, detached, not a terminal
        return 80


class TerminalFormatter(argparse.HelpFormatter):
    """argparse's help formatter, as wide as the terminal, measured without `shutil`: argparse
    makes a formatter for every option it adds (to check its metavar), and its own imports
    shutil for the width, which imports bz2 and lzma (~2 ms here, ~30 ms on a Pi Zero 2 W)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None, **more: Any) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         terminal_columns() - 2 if width is None else width, **more)


class OneLineParser(argparse.ArgumentParser):
    """A parser whose bad arguments are one line on stderr (exit 2), like the refusals: the
    option, what was wrong, and what is allowed ("--baud: 0 is not allowed; allowed: ...")."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", TerminalFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message.removeprefix('argument ')}\n")
