"""systemd/actions.sh's venv_lgpio, as install.sh runs it after pip: PyPI's empty lgpio 0.0.0.2
in the venv is uninstalled so that the system's python3-lgpio shows through, and with no
working lgpio the installer stops with what to install.

Each test makes a real venv (without pip of its own: the base interpreter's pip is seen through
--system-site-packages). A folder named in a .pth file stands in for the system's
dist-packages: like those, it comes after the venv's own site-packages on sys.path.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import venv
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import venv_has_pip

REPO = Path(__file__).resolve().parents[2]
ACTIONS = REPO / "systemd" / "actions.sh"
REAL_LGPIO = "LGPIO_PY_VERSION = 0x00020200\n\ndef gpio_claim_input(handle, gpio, flags=0):\n" \
             "    return 0\n"
APT_ADVICE = "sudo apt install python3-lgpio (Raspberry Pi OS repository; plain Debian has no " \
             "python3-lgpio, and its python3-gpiozero 1.6 is too old), then run install.sh again"

SITE_PACKAGES = "import site; print(site.getsitepackages()[0])"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


class Venv:
    def __init__(self, base: Path, write_placeholder: Callable[[Path], None]) -> None:
        self.write_placeholder = write_placeholder
        self.path = base / "venv"
        venv.EnvBuilder(system_site_packages=True, with_pip=False, symlinks=True).create(
            self.path)
        self.python = self.path / "bin" / "python"
        found = subprocess.run([str(self.python), "-c", SITE_PACKAGES], capture_output=True,
                               text=True, check=True).stdout.strip()
        self.site = Path(found).resolve()
        self.system = base.resolve() / "dist-packages"   # the system's python3-lgpio
        self.system.mkdir()
        (self.site / "zz-system.pth").write_text(f"{self.system}\n")

    def placeholder(self) -> None:
        """What `pip install lgpio` leaves where PyPI has no wheel: lgpio 0.0.0.2, empty."""
        self.write_placeholder(self.site)

    def check(self) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "-c", 'source "$1" && venv_lgpio "$2" install.sh', "bash",
                               str(ACTIONS), str(self.python)],
                              capture_output=True, text=True, timeout=120)


@pytest.fixture
def env(tmp_path: Path, lgpio_placeholder: Any) -> Venv:
    return Venv(tmp_path, lgpio_placeholder)


@pytest.fixture
def with_pip(env: Venv) -> Venv:
    if not venv_has_pip(env.python):
        pytest.skip(f"no pip for {sys.version.split()[0]} to uninstall with")
    return env


def test_the_placeholder_goes_and_the_system_lgpio_shows_through(with_pip: Venv) -> None:
    env = with_pip
    env.placeholder()
    (env.system / "lgpio.py").write_text(REAL_LGPIO)
    result = env.check()
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"remove PyPI's empty lgpio 0.0.0.2 from the venv ({env.site / 'lgpio.py'})",
        f"keep lgpio from {env.system / 'lgpio.py'} (the system's)"]
    assert not (env.site / "lgpio.py").exists()
    assert not (env.site / "lgpio-0.0.0.2.dist-info").exists()
    assert (env.system / "lgpio.py").read_text() == REAL_LGPIO


def test_only_the_placeholder_stops_the_install(with_pip: Venv) -> None:
    env = with_pip
    env.placeholder()
    result = with_pip.check()
    assert result.returncode == 1
    assert not (env.site / "lgpio.py").exists()
    assert result.stderr == f"install.sh: no working lgpio for the venv (lgpio missing): " \
                            f"{APT_ADVICE}\n"


def test_no_lgpio_at_all_stops_the_install(env: Venv) -> None:
    result = env.check()
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == f"install.sh: no working lgpio for the venv (lgpio missing): " \
                            f"{APT_ADVICE}\n"


def test_a_broken_lgpio_stops_the_install(env: Venv) -> None:
    # python3-lgpio without its C library, say.
    (env.system / "lgpio.py").write_text("raise ImportError('liblgpio.so.1: cannot open')\n")
    result = env.check()
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"install.sh: no working lgpio for the venv (lgpio broken: {env.system / 'lgpio.py'}): ")
    assert len(result.stderr.splitlines()) == 1


def test_a_working_lgpio_in_the_venv_stays(env: Venv) -> None:
    # A real lgpio wheel (PyPI has a few for aarch64) installed into the venv is used.
    (env.site / "lgpio.py").write_text(REAL_LGPIO)
    (env.system / "lgpio.py").write_text("")
    result = env.check()
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"keep lgpio from {env.site / 'lgpio.py'} (the venv's)\n"
    assert (env.site / "lgpio.py").read_text() == REAL_LGPIO


def test_the_system_placeholder_is_not_the_venvs_to_remove(env: Venv) -> None:
    (env.system / "lgpio.py").write_text("")
    result = env.check()
    assert result.returncode == 1
    assert "(lgpio placeholder: " in result.stderr
    assert (env.system / "lgpio.py").exists()
