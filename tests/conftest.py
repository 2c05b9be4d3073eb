"""Shared fixtures: the shipped cards, and a way to run the real `cobi-companion` command."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.cards import CardBook, load_cards

CLI = shutil.which("cobi-companion", path=str(Path(sys.executable).parent)) or "cobi-companion"


@pytest.fixture(autouse=True)
def _no_user_cards(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Tests see only the shipped cards and no settings files unless they add their own."""
    monkeypatch.setenv("COBI_COMPANION_CARDS", "")
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", "")     # no boot partition, no USB stick
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture(scope="session")
def book() -> CardBook:
    return load_cards([])


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)


def run_cli(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> Run:
    proc = subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True,
                          timeout=60, env={**os.environ, **(env or {})})
    return Run(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def cli() -> Any:
    return run_cli


@pytest.fixture
def cli_path() -> str:
    return CLI
