"""The pins and serial ports the config names, and which pins a bus in use takes: constants and
one rule, in a module of its own so that the config and its check read them without loading
gpiozero, pyserial or the range sensors' parsers."""
from __future__ import annotations

from typing import Any

from cobi_companion.device.ports.sensor_models import MODELS

# The pins in the order they are checked: a reused pin names the earlier field as its owner.
PIN_FIELDS = ("buttons.axis", "buttons.allies", "encoder.a", "encoder.b", "encoder.button",
              "buzzer.pin", "leds.axis", "leds.allies")
# The pins the buses take while they are in use (platform notes: I2C bus 1 is GPIO 2 and 3, the
# header's UART GPIO 14 and 15, whichever of these names the Pi gives it).
I2C_PINS = {1: {2: "SDA", 3: "SCL"}}                  # by bus number
UART_PORTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
UART_PINS = {14: "TXD", 15: "RXD"}
# The sensor models by name: those of `sensor_models.MODELS`, in its order.
SENSOR_MODELS = tuple(MODELS)


def bus_pins(config: Any) -> dict[int, tuple[str, str]]:
    """The pins the display's I2C bus and a sensor on the Pi's UART take while they are in
    use: pin -> (what it is, in words; the field that puts the bus in use). `config` is the
    config, or its schema's model while it is checked: the same fields."""
    pins: dict[int, tuple[str, str]] = {}
    if config.display.driver != "dummy":             # the dummy panel needs no bus
        for pin, line in I2C_PINS.get(config.display.port, {}).items():
            pins[pin] = (f"the display's I2C {line}", "display.port")
    for number, sensor in enumerate(config.sensors):
        if sensor.port in UART_PORTS:
            place = f"sensors.{number}.port"
            for pin, line in UART_PINS.items():
                pins.setdefault(pin, (f"the UART's {line} ({place} is {sensor.port})", place))
    return pins
