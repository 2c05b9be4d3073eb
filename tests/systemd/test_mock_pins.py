"""systemd/actions.sh's asks_for_mock_pins, which install.sh asks on a system whose package
sources have no python3-lgpio: only a settings file saying `[pins] factory = "mock"` lets the
install go on there (the system test's Debian); anything else stops it as before."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ACTIONS = REPO / "systemd" / "actions.sh"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


def asks(path: Path) -> bool:
    done = subprocess.run(["bash", "-c", 'source "$1" && asks_for_mock_pins "$2"', "bash",
                           str(ACTIONS), str(path)], capture_output=True, text=True,
                          check=False)
    assert done.stdout == "" and done.stderr == ""
    return done.returncode == 0


@pytest.mark.parametrize(("text", "mock"), [
    ('[pins]\nfactory = "mock"\n', True),
    ('[display]\ndriver = "dummy"\n\n[pins] # no GPIO\nfactory = "mock"\n', True),
    ('[pins]\nfactory = "real"\n', False),
    ('[display]\ndriver = "dummy"\n', False),
    ('factory = "mock"\n', False),              # not in [pins]
    ('pins = "mock"\n', False),
    ('[pins]\nfactory = "mock\n', False),       # no TOML
])
def test_only_a_file_asking_for_mock_pins_says_so(tmp_path: Path, text: str, mock: bool) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    assert asks(path) is mock


def test_no_file_is_the_real_pins(tmp_path: Path) -> None:
    assert not asks(tmp_path / "config.toml")
    assert not asks(REPO / "hardware" / "config.toml")     # what install.sh copies
