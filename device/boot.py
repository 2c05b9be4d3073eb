"""The first frame: the box's title, drawn before the heavy imports.

Python, Pillow, the font and the display driver are all the title needs. The config (pydantic),
the rules, the cards and gpiozero are loaded after it, and the start menu replaces the title
once the box is ready for input. On the Pi the panel's settings are peeked from the config files
with `tomllib` alone; anything odd there skips the title, and the full check of the config
reports it as usual.

The peek reads the same layers as `config.load_layers`, each over the one before: the system
file (or the `--config` file), then `config.toml` in each overlay folder ($COBI_COMPANION_OVERLAYS,
else /boot/firmware/cobi then /media/cobi). A parent who writes driver = "sh1106" on the boot
partition gets the title on the right panel. The USB stick's [display] table is never read: a
stick may set only what the players choose at the table (see `STICK_TABLES`).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

# Where the overlay folders are is the cards' to know too (a cards/ folder is read from each):
# they live there, one layer down, and are named here for the config.
from cobi_companion.cards.overlays import CARDS_NAME as CARDS_NAME
from cobi_companion.cards.overlays import OVERLAY_FOLDERS as OVERLAY_FOLDERS
from cobi_companion.cards.overlays import OVERLAYS_ENV as OVERLAYS_ENV
from cobi_companion.cards.overlays import STICK_ENV as STICK_ENV
from cobi_companion.cards.overlays import STICK_FOLDER as STICK_FOLDER
from cobi_companion.cards.overlays import overlay_card_folders as overlay_card_folders
from cobi_companion.cards.overlays import overlay_folders as overlay_folders
from cobi_companion.cards.overlays import stick_folder as stick_folder
from cobi_companion.device.ports.panel import DRIVERS as DRIVERS
from cobi_companion.device.ports.panel import PANEL_DEFAULTS as PANEL_DEFAULTS
from cobi_companion.device.ports.panel import RANGES

if TYPE_CHECKING:
    from cobi_companion.device.core.loop import Display
    from cobi_companion.device.core.views import BigWord
    from cobi_companion.device.ports.display import OledDisplay
    from cobi_companion.device.ports.terminal import TerminalDisplay
    from PIL import Image

SYSTEM_CONFIG = Path("/etc/cobi-companion/config.toml")
# The USB stick, which anyone at the table can plug in, is trusted with what the players choose
# at the table and nothing else: these tables of its config.toml (and its cards/ folder). Paths,
# pins, sensors, the panel and the tests' hooks come only from /etc and the boot partition.
# (cards/overlays.py says which folder is the stick.)
STICK_TABLES = ("game", "house_rules")
TRUSTED_FILES = "/etc/cobi-companion/config.toml or the boot partition's cobi/config.toml"
CONFIG_NAME = "config.toml"
TITLE = "COBI Battle Companion"

# The views, the screens and logging are imported where they are used: the command line reads
# the folders below (and the card folders in them) without drawing anything.


def title_view() -> BigWord:
    from cobi_companion.device.core.views import BigWord, Header

    return BigWord(Header(TITLE), "COBI")


def title_image() -> Image.Image:
    from cobi_companion.device.ui.renderer import render

    return render(title_view())


def show_title(display: Display) -> None:
    """Draw the title, its glyphs cut from the atlas of an earlier start; a fault here never
    stops the start (the menu follows anyway)."""
    try:
        from cobi_companion.device.ui import atlas

        atlas.use()
        display.show(title_image())
    except Exception:
        import logging

        logging.getLogger("cobi-companion").exception("the title frame could not be drawn")


def terminal_title() -> TerminalDisplay:
    """The simulator's terminal OLED, showing the title."""
    from cobi_companion.device.ports.terminal import TerminalDisplay

    display = TerminalDisplay()
    show_title(display)
    return display


def oled_title(panel: dict[str, Any]) -> OledDisplay:
    """The Pi's OLED opened with `panel` (from `peek_panel`), showing the title. An I2C fault
    is logged and retried later by the display itself."""
    from cobi_companion.device.ports.display import OledDisplay

    display = OledDisplay(**panel)
    show_title(display)
    return display


NUMBER_WORD_CHARS = 12     # "0x3C", "0b1010101", with room for spaces: no setting needs more


def number_word(value: Any) -> Any:
    """A number written as TOML text, like "0x3C" (boards print addresses in hex), as an int;
    anything else as it is, for the caller to judge. A long text stays text: int() of a long
    hex word makes a number too big to write out in any message about it."""
    if isinstance(value, str) and len(value) <= NUMBER_WORD_CHARS:
        try:
            return int(value.strip(), 0)
        except ValueError:
            return value
    return value


def default_state_dir() -> Path:
    """Where the box keeps its battles unless the config says ([paths] state_dir):
    $STATE_DIRECTORY (set by systemd's StateDirectory=), else the user's data folder."""
    given = os.environ.get("STATE_DIRECTORY", "")
    if given:
        return Path(given.split(os.pathsep)[0])  # several StateDirectory= entries: the first
    data = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data) if os.path.isabs(data) else Path.home() / ".local" / "share"
    return base / "cobi-companion"


def on_stick(file: Path) -> bool:
    """Whether the config file `file` is the USB stick's, trusted only with STICK_TABLES."""
    stick = stick_folder()
    return stick is not None and file == stick / CONFIG_NAME


def config_files(path: Path | None = None) -> list[Path]:
    """The config files in the order they are read: `path` (else SYSTEM_CONFIG), then each
    overlay folder's config.toml. They need not exist."""
    return [path or SYSTEM_CONFIG, *(folder / CONFIG_NAME for folder in overlay_folders())]


def peek_panel(path: Path | None = None) -> dict[str, Any] | None:
    """The panel settings of the config files (`config_files(path)`, each over the one before),
    with defaults for keys none of them gives, read without pydantic. Missing files are
    skipped; an unreadable file, bad TOML or a panel value of the wrong type or range in any of
    them gives None."""
    try:
        return _peeked(path)
    except Exception:    # nothing in a file may stop the start: the full check says what it is
        return None


def _peeked(path: Path | None) -> dict[str, Any] | None:
    # Read as every file of the box is: a FIFO or a device named config.toml on the boot
    # partition must not hang the start before the title.
    from cobi_companion.cards.tomlfile import FileProblem, read_toml

    panel = dict(PANEL_DEFAULTS)
    for file in config_files(path):
        try:
            data = read_toml(file)
        except FileProblem as exc:
            if exc.missing:
                continue
            return None
        # The stick may not change the panel: the full check reports a [display] there.
        table = {} if on_stick(file) else data.get("display", {})
        if not isinstance(table, dict):
            return None
        for key in panel.keys() & table.keys():
            value = number_word(table[key]) if key == "address" else table[key]
            if key == "driver":
                ok = type(value) is str and value in DRIVERS
            else:
                low, high = RANGES[key]
                ok = type(value) is int and low <= value <= high  # bool is not a number here
            if not ok:
                return None
            panel[key] = value
    return panel


def panel_of(display: Any) -> dict[str, Any]:
    """The panel settings of a checked `config.Display`, as `peek_panel` gives them."""
    return {key: getattr(display, key) for key in PANEL_DEFAULTS}
