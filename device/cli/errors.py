"""How the command line refuses what it cannot act on: one line on stderr, exit 2."""
from __future__ import annotations

import argparse
from typing import NoReturn


class UsageError(Exception):
    """A command line the companion cannot act on: one line, exit 2."""


class OneLineParser(argparse.ArgumentParser):
    """A parser whose bad arguments are one line on stderr (exit 2), like the refusals: the
    option, what was wrong, and what is allowed ("--baud: 0 is not allowed; allowed: ...")."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message.removeprefix('argument ')}\n")
