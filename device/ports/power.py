"""The power port: switch the Pi off or restart it from the settings menu.

On the box `SystemPower` asks systemd (`systemctl poweroff` / `reboot`); the service user may
do so through the polkit rule that systemd/install.sh installs. systemd then stops the box
with SIGTERM, which saves the battle and leaves "safe to unplug" on the panel. In the
simulator `EndPower` only ends the simulator: it must never switch off the computer it runs on.
"""
from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from typing import Protocol

from cobi_companion.device.ports.events import Stop

ACTIONS = ("poweroff", "reboot")
TIMEOUT_S = 20.0      # well within the watchdog (30 s): the loop waits for systemctl


class Power(Protocol):
    def request(self, action: str) -> str | None:
        """Start `action` ("poweroff" or "reboot"): None once it is under way, else why not,
        in one line."""
        ...


def _check(action: str) -> None:
    if action not in ACTIONS:
        raise ValueError(f"unknown power action {action!r}; known: {', '.join(ACTIONS)}")


class SystemPower:
    """`systemctl --no-block ACTION`, found on $PATH."""

    def request(self, action: str) -> str | None:
        _check(action)
        systemctl = shutil.which("systemctl")
        if systemctl is None:
            return "systemctl is not installed"
        try:
            done = subprocess.run([systemctl, "--no-block", action], capture_output=True,
                                  text=True, timeout=TIMEOUT_S, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return str(exc)
        if done.returncode != 0:
            said = [line.strip() for line in done.stderr.splitlines() if line.strip()]
            return said[-1] if said else f"systemctl {action} ended with {done.returncode}"
        return None


class EndPower:
    """The simulator's: both actions end the simulator (through the main loop's queue)."""

    def __init__(self, put: Callable[[Stop], None]) -> None:
        self.put = put

    def request(self, action: str) -> str | None:
        _check(action)
        self.put(Stop(action))
        return None


class RecordingPower:
    """Test double: remembers the actions; `refuse` is the reason it gives, if any."""

    def __init__(self, refuse: str | None = None) -> None:
        self.requested: list[str] = []
        self.refuse = refuse

    def request(self, action: str) -> str | None:
        _check(action)
        self.requested.append(action)
        return self.refuse
