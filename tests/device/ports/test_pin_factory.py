"""The pin factory $GPIOZERO_PIN_FACTORY names, made at its module: gpiozero's search of every
installed package's entry points is never run for gpiozero's own factories."""
from __future__ import annotations

import importlib.metadata
from typing import Any

import pytest
from cobi_companion.device.ports import pin_factory
from cobi_companion.device.ports.pin_factory import use_named_factory
from gpiozero import Button, Device
from gpiozero.pins.mock import MockFactory


@pytest.fixture(autouse=True)
def no_factory(monkeypatch: pytest.MonkeyPatch) -> Any:
    """gpiozero's default factory unset for the test, and put back after."""
    monkeypatch.setattr(Device, "pin_factory", None)

    def searched(**_: Any) -> Any:
        raise AssertionError("the installed packages were searched")

    monkeypatch.setattr(importlib.metadata, "entry_points", searched)
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.close()


@pytest.mark.parametrize("name", ["mock", "MOCK"])
def test_gpiozeros_own_factory_is_made_without_a_search(
        monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", name)
    assert use_named_factory()
    assert type(Device.pin_factory) is MockFactory
    button = Button(5)                   # gpiozero's devices take it as their default
    assert button.pin_factory is Device.pin_factory
    button.close()


def test_another_name_or_none_is_left_to_gpiozero(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "someones_factory")
    assert not use_named_factory()
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY")
    assert not use_named_factory()
    assert Device.pin_factory is None


def test_a_factory_that_cannot_be_made_is_left_to_gpiozero(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")
    monkeypatch.setitem(pin_factory.OWN, "lgpio", ("no_such_module_here", "Factory"))
    assert not use_named_factory()
    assert Device.pin_factory is None


def test_a_factory_already_set_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    mine = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", mine)
    assert not use_named_factory()
    assert Device.pin_factory is mine
    monkeypatch.setattr(Device, "pin_factory", None)
    mine.close()
