"""hardware/make_wiring.py: the wiring picture and table are what the config says, every pin
is drawn once, and --check catches a file that no longer matches."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from cobi_companion.device.config import PIN_FIELDS, Config

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
SCRIPT = HARDWARE / "make_wiring.py"
SVG = "{http://www.w3.org/2000/svg}"

# BCM GPIO → physical pin of the 40-pin header, written out here again as an independent check
# of the script's own table.
HEADER_PIN = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29,
              6: 31, 13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22,
              8: 24, 7: 26, 1: 28, 12: 32, 16: 36, 20: 38, 21: 40}
GND_PINS = {6, 9, 14, 20, 25, 30, 34, 39}


def run(*args: str, script: Path = SCRIPT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True,
                          timeout=60)


def configured(config: Config) -> dict[str, int]:
    """Config key → BCM pin, for every fitted part."""
    pins = {}
    for name in PIN_FIELDS:
        section, key = name.split(".")
        pin = getattr(getattr(config, section), key)
        if pin is not None:
            pins[name] = pin
    return pins


def pins_drawn(svg_text: str) -> list[ET.Element]:
    root = ET.fromstring(svg_text)
    assert root.tag == f"{SVG}svg"
    return [g for g in root.iter(f"{SVG}g") if "pin" in g.get("class", "").split()]


def used_pins(svg_text: str) -> dict[int, ET.Element]:
    used: dict[int, ET.Element] = {}
    for group in pins_drawn(svg_text):
        if "used" in group.get("class", "").split():
            pin = int(group.get("data-pin", "0"))
            assert pin not in used, f"header pin {pin} is drawn twice"
            used[pin] = group
    return used


def label(group: ET.Element) -> str:
    texts = [t for t in group.iter(f"{SVG}text") if t.get("class") == "label"]
    assert len(texts) == 1
    return "".join(texts[0].itertext())


def by_key(svg_text: str) -> dict[str, ET.Element]:
    return {g.get("data-key", ""): g for g in used_pins(svg_text).values() if g.get("data-key")}


def write_config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_check_passes() -> None:
    result = run("--check")
    assert (result.returncode, result.stderr) == (0, "")


def test_every_configured_pin_is_labelled_with_bcm_and_header_pin() -> None:
    text = (HARDWARE / "wiring.svg").read_text(encoding="utf-8")
    groups = by_key(text)
    pins = configured(Config())
    assert set(groups) == set(pins)
    for key, bcm in pins.items():
        group = groups[key]
        assert group.get("data-bcm") == str(bcm)
        assert group.get("data-pin") == str(HEADER_PIN[bcm])
        assert f"BCM {bcm}" in label(group)
        assert f"pin {HEADER_PIN[bcm]}" in label(group)
    used = used_pins(text)
    assert "OLED SDA" in label(used[3]) and "BCM 2" in label(used[3])
    assert "OLED SCL" in label(used[5]) and "BCM 3" in label(used[5])
    assert "OLED VCC" in label(used[1]) and "3.3 V" in label(used[1])


def test_every_header_pin_is_drawn_once() -> None:
    text = (HARDWARE / "wiring.svg").read_text(encoding="utf-8")
    numbers = sorted(int(g.get("data-pin", "0")) for g in pins_drawn(text))
    assert numbers == list(range(1, 41))
    ids = [element.get("id") for element in ET.fromstring(text).iter() if element.get("id")]
    assert len(ids) == len(set(ids))
    used = used_pins(text)
    # every part has its own ground: 7 parts, 7 different GND pins
    grounds = [pin for pin, group in used.items() if pin in GND_PINS]
    assert len(grounds) == 7
    assert {used[pin].get("data-part") for pin in grounds} == {
        "display", "axis", "allies", "knob", "buzzer", "axis_led", "allies_led"}


def test_another_config_changes_the_drawing(tmp_path: Path) -> None:
    config = write_config(tmp_path, '[buttons]\naxis = 22\n\n[leds]\nallies = "none"\n')
    out = tmp_path / "mine.svg"
    result = run("--config", str(config), "-o", str(out))
    assert (result.returncode, result.stderr) == (0, "")
    text = out.read_text(encoding="utf-8")
    assert text != (HARDWARE / "wiring.svg").read_text(encoding="utf-8")
    groups = by_key(text)
    assert groups["buttons.axis"].get("data-pin") == "15"
    assert "Axis button switch NO → BCM 22 · pin 15" in label(groups["buttons.axis"])
    assert "leds.allies" not in groups
    used = used_pins(text)
    assert 11 not in used and 18 not in used
    assert "Allies LED: not fitted" in text
    # the same drawing on standard output
    assert run("--config", str(config)).stdout == text


def test_table_of_another_config(tmp_path: Path) -> None:
    config = write_config(tmp_path, "[encoder]\na = 19\nb = 26\n")
    result = run("--config", str(config), "--table")
    assert result.returncode == 0
    assert "| Knob | CLK (A) | GPIO19 | 19 | 35 | `encoder.a` |" in result.stdout
    assert "| Knob | DT (B) | GPIO26 | 26 | 37 | `encoder.b` |" in result.stdout


def test_a_part_on_the_display_bus_is_refused(tmp_path: Path) -> None:
    config = write_config(tmp_path, "[buttons]\naxis = 2\n")
    result = run("--config", str(config))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "buttons.axis" in result.stderr and "SDA" in result.stderr


def test_check_finds_a_stale_file_and_writing_fixes_it(tmp_path: Path) -> None:
    copy = tmp_path / "hardware"
    copy.mkdir()
    for name in ("make_wiring.py", "README.md", "wiring.svg"):
        shutil.copy(HARDWARE / name, copy / name)
    script = copy / "make_wiring.py"
    svg = copy / "wiring.svg"
    svg.write_text(svg.read_text(encoding="utf-8").replace('"pin-11"', '"pin-99"'),
                   encoding="utf-8")
    readme = copy / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8").replace("| 17 | 11 |", "| 17 | 12 |"),
                      encoding="utf-8")

    result = run("--check", script=script)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1
    assert "wiring.svg" in result.stderr and "README.md" in result.stderr

    assert run(script=script).returncode == 0
    assert run("--check", script=script).returncode == 0
    assert svg.read_bytes() == (HARDWARE / "wiring.svg").read_bytes()
    assert readme.read_bytes() == (HARDWARE / "README.md").read_bytes()


def test_header_pins_in_the_shipped_config_comments_match() -> None:
    """hardware/config.toml names the header pin beside each default BCM pin."""
    found, section = 0, ""
    for line in (HARDWARE / "config.toml").read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            section = line.strip("[] ")
        match = re.match(r"^\w+ = (\d+)\s+#.*\bheader (\d+)\b", line)
        if match and section in {"buttons", "encoder", "buzzer", "leds"}:
            bcm, header = int(match[1]), int(match[2])
            assert HEADER_PIN[bcm] == header, line
            found += 1
    assert found == 8
