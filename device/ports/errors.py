"""The errors the command line turns into one line and exit code 2, in a module that imports
nothing heavy: `cobi-companion` catches them before the config and the simulator are loaded."""
from __future__ import annotations

from pathlib import Path


def reason(exc: BaseException) -> str:
    """An exception in words: its message, or its name when it has none (gpiozero's
    PinPWMUnsupported says nothing else)."""
    return str(exc) or type(exc).__name__


class ConfigError(Exception):
    """A config file that cannot be used; str() is one line for the log and the screen."""

    def __init__(self, path: Path | None, problems: list[str]) -> None:
        self.path = path
        self.problems = problems
        super().__init__(f"config {path or '(built in)'}: " + "; ".join(problems))


class StickError(ConfigError):
    """Settings of the USB stick's config file that only /etc and the boot partition may set:
    they are not used, and the rest of the file is."""


class ScriptError(Exception):
    """A line of a simulator script the simulator cannot act on."""
