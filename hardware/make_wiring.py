#!/usr/bin/env python3
"""Draw the box's wiring from its config, so the picture and the pin map cannot disagree.

    python hardware/make_wiring.py           write hardware/wiring.svg and the wiring table
                                             in hardware/README.md from the default pin map
    python hardware/make_wiring.py --check   exit 1 if either file is not what it would write
    python hardware/make_wiring.py --config FILE [-o PATH] [--table]
                                             draw the pin map of your own config file (SVG, or
                                             the Markdown table) to PATH, or to standard output

Run it with the project's Python (`.venv/bin/python`), which has `cobi_companion` installed.
Exit codes: 0 done, 1 a file is out of date (--check), 2 an unusable config or pin map.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

try:
    from cobi_companion.device.config import Config, ConfigError, read_config
except ImportError:  # pragma: no cover - only outside the project's venv
    sys.exit("make_wiring.py: cannot import cobi_companion; run it with .venv/bin/python "
             "(python3 run.py creates the venv)")

HERE = Path(__file__).resolve().parent
SVG_PATH = HERE / "wiring.svg"
README_PATH = HERE / "README.md"
BEGIN = "<!-- wiring:begin -->"
END = "<!-- wiring:end -->"

# The Pi's 40-pin header from pin 1 on: the BCM GPIO number on each pin, or the power pin's name.
# Odd pins are one row, even pins the other; it is the same on every Pi with 40 pins.
HEADER: tuple[int | str, ...] = (
    "3.3 V", "5 V",  # 1, 2
    2, "5 V",        # 3, 4
    3, "GND",        # 5, 6
    4, 14,           # 7, 8
    "GND", 15,       # 9, 10
    17, 18,          # 11, 12
    27, "GND",       # 13, 14
    22, 23,          # 15, 16
    "3.3 V", 24,     # 17, 18
    10, "GND",       # 19, 20
    9, 25,           # 21, 22
    11, 8,           # 23, 24
    "GND", 7,        # 25, 26
    0, 1,            # 27, 28
    5, "GND",        # 29, 30
    6, 12,           # 31, 32
    13, "GND",       # 33, 34
    19, 16,          # 35, 36
    26, 20,          # 37, 38
    "GND", 21,       # 39, 40
)
PIN_OF_BCM = {bcm: number for number, bcm in enumerate(HEADER, start=1) if isinstance(bcm, int)}
# The second job some GPIOs have, shown after their number.
ALT = {0: "ID_SD", 1: "ID_SC", 2: "SDA", 3: "SCL", 12: "PWM0", 14: "TXD", 15: "RXD"}
# The I2C bus the display is on → its (SDA, SCL) GPIOs. Bus 1 is the header's own.
I2C_PINS = {1: (2, 3)}


class WiringError(Exception):
    """A pin map that cannot be drawn (a part on a pin another part needs)."""


@dataclass(frozen=True)
class Part:
    key: str
    name: str
    colour: str
    power: tuple[tuple[str, str], ...]  # (the part's pin, "GND" or "3.3 V") for each power wire


PARTS = {part.key: part for part in (
    Part("display", "OLED", "#1565c0", (("VCC", "3.3 V"), ("GND", "GND"))),
    Part("axis", "Axis button", "#c62828", (("switch COM", "GND"),)),
    Part("allies", "Allies button", "#2e7d32", (("switch COM", "GND"),)),
    Part("knob", "Knob", "#6a1b9a", (("GND (C and switch)", "GND"),
                                     ("+ (KY-040 only)", "3.3 V"))),
    Part("buzzer", "Buzzer", "#e65100", (("−", "GND"),)),
    Part("axis_led", "Axis LED", "#d81b60", (("−", "GND"),)),
    Part("allies_led", "Allies LED", "#00897b", (("−", "GND"),)),
)}


@dataclass(frozen=True)
class Wire:
    """One wire from a part's pin to a header pin."""
    part: Part
    part_pin: str
    pin: int          # physical header pin, 1-40
    key: str = ""     # the config key that chose the pin ("" for power pins)

    @property
    def bcm(self) -> int | None:
        value = HEADER[self.pin - 1]
        return value if isinstance(value, int) else None

    @property
    def pi_pin(self) -> str:
        """The header pin's name: "GPIO17", "GPIO2 (SDA)", "3.3 V", "GND"."""
        return pin_name(self.pin)

    @property
    def where(self) -> str:
        """Where the wire goes, with both numbers: "BCM 17 · pin 11", "GND · pin 6"."""
        bcm = self.bcm
        if bcm is None:
            return f"{HEADER[self.pin - 1]} · pin {self.pin}"
        alt = f" ({ALT[bcm]})" if bcm in ALT else ""
        return f"BCM {bcm}{alt} · pin {self.pin}"


def pin_name(pin: int) -> str:
    value = HEADER[pin - 1]
    if isinstance(value, str):
        return value
    return f"GPIO{value} ({ALT[value]})" if value in ALT else f"GPIO{value}"


def _row(pin: int) -> int:
    return (pin + 1) // 2


def _free_power(kind: str, near: int, taken: set[int]) -> int:
    """The free `kind` pin ("GND", "3.3 V") nearest to header pin `near`: fewest rows away,
    then on the same side of the header, then the lower number."""
    free = [number for number, value in enumerate(HEADER, start=1)
            if value == kind and number not in taken]
    if not free:
        raise WiringError(f"no free {kind} pin left on the header")
    return min(free, key=lambda n: (abs(_row(n) - _row(near)), n % 2 != near % 2, n))


def wires(config: Config) -> list[Wire]:
    """Every wire of the box for `config`, part by part; no header pin is used twice."""
    gpio: list[tuple[str, str, str, int | None]] = [
        ("axis", "switch NO", "buttons.axis", config.buttons.axis),
        ("allies", "switch NO", "buttons.allies", config.buttons.allies),
        ("knob", "CLK (A)", "encoder.a", config.encoder.a),
        ("knob", "DT (B)", "encoder.b", config.encoder.b),
        ("knob", "SW", "encoder.button", config.encoder.button),
        ("buzzer", "+", "buzzer.pin", config.buzzer.pin),
        ("axis_led", "+ via 330 Ω", "leds.axis", config.leds.axis),
        ("allies_led", "+ via 330 Ω", "leds.allies", config.leds.allies),
    ]
    fitted = [(part_key, part_pin, key, bcm) for part_key, part_pin, key, bcm in gpio
              if bcm is not None]
    i2c = I2C_PINS.get(config.display.port)
    if i2c is not None:
        for name, bcm in zip(("SDA", "SCL"), i2c, strict=True):
            for _part_key, _part_pin, key, used in fitted:
                if used == bcm:
                    raise WiringError(
                        f"{key}: GPIO{bcm} (header pin {PIN_OF_BCM[bcm]}) is the display's "
                        f"{name} on I2C bus {config.display.port}; choose another pin")
    signal: dict[str, list[Wire]] = {part_key: [] for part_key in PARTS}
    if i2c is not None:
        signal["display"] += [Wire(PARTS["display"], "SDA", PIN_OF_BCM[i2c[0]]),
                              Wire(PARTS["display"], "SCL", PIN_OF_BCM[i2c[1]])]
    for part_key, part_pin, key, bcm in fitted:
        signal[part_key].append(Wire(PARTS[part_key], part_pin, PIN_OF_BCM[bcm], key))

    taken = {wire.pin for wire_list in signal.values() for wire in wire_list}
    if len(taken) != sum(len(wire_list) for wire_list in signal.values()):
        raise WiringError("two parts share a GPIO pin")  # the config already refuses this
    result: list[Wire] = []
    for part in PARTS.values():
        own = signal[part.key]
        if not own and part.key != "display":
            continue  # a part that is not fitted
        near = own[0].pin if own else 1
        power: list[Wire] = []
        for part_pin, kind in part.power:
            pin = _free_power(kind, near, taken)
            taken.add(pin)
            power.append(Wire(part, part_pin, pin))
        result += own + power
    return result


# -- the Markdown table -------------------------------------------------------------------------

def table(config: Config) -> str:
    lines = ["| part | part's pin | Pi pin | BCM | header pin | config key |",
             "| --- | --- | --- | --- | --- | --- |"]
    for wire in wires(config):
        bcm = "" if wire.bcm is None else str(wire.bcm)
        key = f"`{wire.key}`" if wire.key else ""
        if wire.part.key == "display" and wire.bcm is not None:
            key = f"`display.port = {config.display.port}`"
        lines.append(f"| {wire.part.name} | {wire.part_pin} | {wire.pi_pin} | {bcm} | "
                     f"{wire.pin} | {key} |")
    return "\n".join(lines) + "\n"


def readme_block(config: Config) -> str:
    return (f"{BEGIN}\n<!-- Written by hardware/make_wiring.py from the default config; "
            f"do not edit by hand. -->\n\n{table(config)}\n{END}")


def replace_block(readme: str, block: str) -> str | None:
    """`readme` with its wiring block replaced by `block`; None if it has no block."""
    start = readme.find(BEGIN)
    stop = readme.find(END, start + 1)
    if start < 0 or stop < 0:
        return None
    return readme[:start] + block + readme[stop + len(END):]


# -- the picture --------------------------------------------------------------------------------

WIDTH, TOP, ROW = 940, 96, 26
X_ODD, X_EVEN = WIDTH // 2 - 20, WIDTH // 2 + 20  # the header's two rows of pins
X_LEFT_LABEL, X_RIGHT_LABEL = X_ODD - 106, X_EVEN + 106
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
POWER_COLOUR = {"5 V": "#c62828", "3.3 V": "#ef6c00", "GND": "#212121"}


def _legend(config: Config) -> list[tuple[str, str]]:
    """(colour, line) for each part, for the key under the header."""
    display = config.display
    bus = (f"I2C bus {display.port}" if display.port in I2C_PINS
           else f"I2C bus {display.port} (SDA and SCL as its dtoverlay sets them; not drawn)")
    button = "NO to the GPIO, COM to GND; the Pi's internal pull-up, no resistor"
    led = "330 Ω in series; a 5 V arcade LED needs a transistor (hardware/README.md)"
    lines = {
        "display": f"{display.driver.upper()} at 0x{display.address:02X} on {bus}; VCC to "
                   "3.3 V, never 5 V",
        "axis": button,
        "allies": button,
        "knob": "KY-040: + to 3.3 V, never 5 V; a bare encoder has no +: C and one switch "
                "leg to GND",
        "buzzer": ("not fitted" if config.buzzer.pin is None
                   else f"passive piezo, played by PWM on BCM {config.buzzer.pin}"),
        "axis_led": "not fitted" if config.leds.axis is None else led,
        "allies_led": "not fitted" if config.leds.allies is None else led,
    }
    return [*((PARTS[key].colour, f"{PARTS[key].name}: {line}") for key, line in lines.items()),
            ("#9e9e9e", "All GND pins are one ground and both 3.3 V pins one supply: "
                        "any of them will do")]


def svg(config: Config) -> str:
    """The wiring diagram as SVG text: the header's 40 numbered pins, each used pin coloured
    by its part and labelled with the part's pin, BCM and header numbers."""
    all_wires = wires(config)
    by_pin = {wire.pin: wire for wire in all_wires}
    bottom = TOP + 19 * ROW
    legend = _legend(config)
    height = bottom + 70 + 22 * len(legend) + 20
    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">',
        "<title>COBI Battle Companion: wiring to the Raspberry Pi's 40-pin header</title>",
        "<desc>Written by hardware/make_wiring.py from the companion's config.</desc>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        f'<text x="{WIDTH // 2}" y="32" font-size="20" font-weight="bold" '
        'text-anchor="middle" fill="#212121">COBI Battle Companion: wiring</text>',
        f'<text x="{WIDTH // 2}" y="56" font-size="12" text-anchor="middle" fill="#424242">'
        "The Pi's 40-pin header seen from above: pin 1 (square pad) is at the SD card end, "
        "in the row away from the board's edge</text>",
        f'<rect x="{X_ODD - 22}" y="{TOP - 20}" width="{X_EVEN - X_ODD + 44}" '
        f'height="{bottom - TOP + 40}" rx="6" fill="#263238"/>',
    ]
    for pin in range(1, 41):
        odd = pin % 2 == 1
        x = X_ODD if odd else X_EVEN
        y = TOP + (_row(pin) - 1) * ROW
        wire = by_pin.get(pin)
        if wire is None:
            value = HEADER[pin - 1]
            colour = POWER_COLOUR.get(value, "#757575") if isinstance(value, str) else "#757575"
            out.append(f'<g id="pin-{pin}" class="pin" data-pin="{pin}">')
            out.append(f'<circle cx="{x}" cy="{y}" r="10" fill="#ffffff" stroke="#90a4ae"/>')
            out.append(f'<text x="{x}" y="{y + 4}" font-size="10" text-anchor="middle" '
                       f'fill="#37474f">{pin}</text>')
            name_x, anchor = (x - 22, "end") if odd else (x + 22, "start")
            out.append(f'<text x="{name_x}" y="{y + 4}" font-size="11" text-anchor="{anchor}" '
                       f'fill="{colour}">{escape(pin_name(pin))}</text>')
            out.append("</g>")
            continue
        colour = wire.part.colour
        key = f' data-key="{wire.key}"' if wire.key else ""
        bcm = f' data-bcm="{wire.bcm}"' if wire.bcm is not None else ""
        out.append(f'<g id="pin-{pin}" class="pin used" data-pin="{pin}" '
                   f'data-part="{wire.part.key}"{key}{bcm}>')
        if odd:
            out.append(f'<line x1="{x - 10}" y1="{y}" x2="{X_LEFT_LABEL + 6}" y2="{y}" '
                       f'stroke="{colour}" stroke-width="3"/>')
        else:
            out.append(f'<line x1="{x + 10}" y1="{y}" x2="{X_RIGHT_LABEL - 6}" y2="{y}" '
                       f'stroke="{colour}" stroke-width="3"/>')
        out.append(f'<circle cx="{x}" cy="{y}" r="10" fill="{colour}" stroke="#ffffff"/>')
        out.append(f'<text x="{x}" y="{y + 4}" font-size="10" font-weight="bold" '
                   f'text-anchor="middle" fill="#ffffff">{pin}</text>')
        label_x, anchor = (X_LEFT_LABEL, "end") if odd else (X_RIGHT_LABEL, "start")
        out.append(f'<text class="label" x="{label_x}" y="{y + 4}" font-size="12" '
                   f'text-anchor="{anchor}" fill="#212121">'
                   f'<tspan font-weight="bold" fill="{colour}">'
                   f"{escape(wire.part.name)} {escape(wire.part_pin)}</tspan>"
                   f" → {escape(wire.where)}</text>")
        out.append("</g>")
    y = bottom + 60
    out.append(f'<text x="40" y="{y}" font-size="14" font-weight="bold" fill="#212121">'
               "Parts</text>")
    for colour, line in legend:
        y += 22
        out.append(f'<rect x="40" y="{y - 11}" width="14" height="14" rx="3" '
                   f'fill="{colour}"/>')
        out.append(f'<text x="62" y="{y}" font-size="12" fill="#212121">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- the command --------------------------------------------------------------------------------

def _stale(config: Config) -> list[str]:
    """The files that differ from what this script writes, each with the reason."""
    stale = []
    if not SVG_PATH.exists() or SVG_PATH.read_text(encoding="utf-8") != svg(config):
        stale.append(f"{SVG_PATH.name} is out of date")
    readme = README_PATH.read_text(encoding="utf-8") if README_PATH.exists() else ""
    wanted = replace_block(readme, readme_block(config))
    if wanted is None:
        stale.append(f"{README_PATH.name} has no {BEGIN} … {END} block")
    elif wanted != readme:
        stale.append(f"the wiring table in {README_PATH.name} is out of date")
    return stale


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="make_wiring.py",
        description="Write hardware/wiring.svg and the wiring table of hardware/README.md from "
                    "the companion's default pin map, or draw your own config's pin map.")
    parser.add_argument("--check", action="store_true",
                        help="only compare: exit 1 if either file differs from what would be "
                             "written")
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="draw this config file's pin map instead (to -o PATH or stdout)")
    parser.add_argument("-o", "--output", type=Path, metavar="PATH",
                        help="with --config: where to write (default: standard output)")
    parser.add_argument("--table", action="store_true",
                        help="with --config: the Markdown table instead of the SVG")
    args = parser.parse_args(None if argv is None else list(argv))
    if args.config is None and (args.output or args.table):
        parser.error("-o and --table go with --config")
    if args.config is not None and args.check:
        parser.error("--check compares the shipped files; it does not take --config")
    try:
        if args.config is not None:
            config = read_config(args.config)
            text = table(config) if args.table else svg(config)
            if args.output is None:
                sys.stdout.write(text)
            else:
                args.output.write_text(text, encoding="utf-8", newline="\n")
            return 0
        config = Config()
        if args.check:
            stale = _stale(config)
            if stale:
                print(f"make_wiring.py: {'; '.join(stale)}; run python hardware/make_wiring.py",
                      file=sys.stderr)
                return 1
            return 0
        readme = README_PATH.read_text(encoding="utf-8")
        new_readme = replace_block(readme, readme_block(config))
        if new_readme is None:
            raise WiringError(f"{README_PATH} has no {BEGIN} … {END} block")
        SVG_PATH.write_text(svg(config), encoding="utf-8", newline="\n")
        README_PATH.write_text(new_readme, encoding="utf-8", newline="\n")
        return 0
    except (ConfigError, WiringError, OSError) as exc:
        print(f"make_wiring.py: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
