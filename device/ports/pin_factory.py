"""The pin factory that $GPIOZERO_PIN_FACTORY names, made without a search of the packages.

Given a name, gpiozero looks its factory up among the entry points of every installed package,
which reads each package's metadata: a few ms in the box's own venv here, but Raspberry Pi OS's
venv sees the system's packages too (tens of them), and on a Pi Zero 2 W that search alone costs
a large part of a second of the start. gpiozero's own factories are found at their modules
instead. A name that is not one of them, or a factory that cannot be made, is left to gpiozero:
it looks it up, and says what is wrong, exactly as before.
"""
from __future__ import annotations

import importlib
import logging
import os
from typing import Any

from gpiozero import Device

log = logging.getLogger("cobi-companion")

ENV = "GPIOZERO_PIN_FACTORY"
# gpiozero's own factories (the names of its entry points) and where they are.
OWN = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
    "mock": ("gpiozero.pins.mock", "MockFactory"),
}


def use_named_factory() -> bool:
    """Make the factory $GPIOZERO_PIN_FACTORY names gpiozero's default, when it is one of
    gpiozero's own and none is set yet; True when this made it."""
    name = os.environ.get(ENV)
    where = OWN.get(name.lower()) if name else None
    if where is None or Device.pin_factory is not None:
        return False
    try:
        factory = getattr(importlib.import_module(where[0]), where[1])()
    except Exception as exc:       # gpiozero makes it again and says why it cannot
        log.debug("pin factory %s left to gpiozero: %s", name, exc)
        return False
    Device.pin_factory = factory
    return True


def mock_pins() -> Any:
    """gpiozero's mock pins, with PWM for the buzzer: the settings' `[pins] factory = "mock"`,
    a box that touches no GPIO (on a computer that is not a Pi, and in the system test)."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    log.info('pins: gpiozero\'s mock pins ([pins] factory = "mock"), no GPIO')
    return MockFactory(pin_class=MockPWMPin)
