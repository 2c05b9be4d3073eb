"""What pip is asked for on each Raspberry Pi OS, from pyproject.toml's requirements and
constraints.txt, evaluated with packaging's markers as pip evaluates them.

The case a Pi cannot show off a Pi: 32-bit Raspberry Pi OS on a Pi 4, 400 or 5 runs a 64-bit
kernel, so pip's platform_machine is "aarch64" there while its Python is a 32-bit (armhf) build
that no aarch64 wheel fits. The emulated armhf check (systemd/os-check.sh) runs on a 32-bit
kernel's "armv7l" instead; this file covers the aarch64 reading.
"""
from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

REPO = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
# Asked of PyPI with `pip download --only-binary=:all: --platform manylinux..._armv7l` (Python
# 3.11, November 2026): no armv7 wheel of these. cbor2 and Pillow have none at the versions
# pinned (cbor2 6, Pillow 13): a 32-bit Python leaves their pins out and takes them from apt or
# piwheels. Every other dependency has an armv7 wheel or a pure-Python one.
NO_ARMV7_WHEEL = {"espeakng-loader"}
FROM_ELSEWHERE_ON_32_BIT = {"cbor2", "pillow"}


def load_run_py() -> ModuleType:
    spec = importlib.util.spec_from_file_location("run_py_choice", REPO / "run.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RUN = load_run_py()


def asked_for(bits: int, machine: str) -> set[str]:
    """The distributions pip is asked for when run.py (or install.sh: the same extras) installs
    the companion with a Python of `bits` on a kernel that says `machine`."""
    extras = [e for e in RUN.install_extras("", wide=bits == 64).split(",") if e]
    environment = {**default_environment(), "platform_machine": machine,
                   "platform_system": "Linux", "sys_platform": "linux"}
    wanted = [(Requirement(line), "") for line in PROJECT["dependencies"]]
    wanted += [(Requirement(line), extra) for extra in extras
               for line in PROJECT["optional-dependencies"][extra]]
    return {canonicalize_name(req.name) for req, extra in wanted
            if req.marker is None or req.marker.evaluate({**environment, "extra": extra})}


def constraint_pins(text: str) -> dict[str, Version]:
    found = {}
    for line in text.splitlines():
        match = re.match(r"([A-Za-z0-9_.-]+)==(\S+)", line)
        if match:
            found[canonicalize_name(match[1])] = Version(match[2])
    return found


@pytest.mark.parametrize("machine", ["aarch64", "armv7l"],
                         ids=["32-bit-on-64-bit-kernel", "32-bit-kernel"])
def test_a_32_bit_python_asks_for_nothing_without_a_32_bit_wheel(machine: str) -> None:
    asked = asked_for(32, machine)
    assert asked & NO_ARMV7_WHEEL == set()
    assert {"luma-oled", "pillow", "pydantic", "gpiozero"} <= asked


def test_its_constraints_pin_nothing_it_takes_from_debian(tmp_path: Path) -> None:
    used = RUN.constraints_for(False, tmp_path).read_text()
    assert set(constraint_pins(used)) & FROM_ELSEWHERE_ON_32_BIT == set()
    # espeakng-loader's pin stays: a constraint asks for nothing, and nothing asks for it here
    assert "pydantic-core" in constraint_pins(used)        # it has an armv7 wheel: pinned


@pytest.mark.parametrize("machine", ["aarch64", "x86_64"])
def test_a_64_bit_python_gets_the_voices_wheel(machine: str) -> None:
    assert "espeakng-loader" in asked_for(64, machine)


def test_nor_on_a_64_bit_machine_the_wheel_does_not_exist_for() -> None:
    assert "espeakng-loader" not in asked_for(64, "riscv64")


def test_every_requirement_is_pinned_within_its_bounds() -> None:
    """constraints.txt is current with pyproject.toml: each requirement (every extra's too) has
    a pin, and the pin is inside the requirement's bounds (Pillow < 14, luma < next major)."""
    pins = constraint_pins((REPO / "constraints.txt").read_text())
    lines = [*PROJECT["dependencies"],
             *(line for extra in PROJECT["optional-dependencies"].values() for line in extra)]
    for req in map(Requirement, lines):
        name = canonicalize_name(req.name)
        assert name in pins, f"{name} has no pin: python3 run.py lock"
        assert req.specifier.contains(pins[name], prereleases=True), (name, pins[name])


@pytest.mark.parametrize(("name", "bound"), [("pillow", "14"), ("luma-oled", "4"),
                                             ("luma-core", "3")])
def test_upper_bounds_where_an_api_goes(name: str, bound: str) -> None:
    req = next(Requirement(line) for line in PROJECT["dependencies"]
               if canonicalize_name(Requirement(line).name) == name)
    assert not req.specifier.contains(bound)
    assert not req.specifier.contains(f"{bound}.0.1")
