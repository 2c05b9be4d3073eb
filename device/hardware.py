"""The box on a Raspberry Pi, as systemd starts it (`cobi-companion run`): real pins (gpiozero's
pin factory from the environment), the OLED, the buzzer and LEDs, the settings files in their
layers, the journal, systemd's notifications, and the signals.

It stays up whatever is wrong, where the panel works: a settings file that cannot be used, a
pin that cannot be claimed or a card that cannot be written is shown on the panel with what to
do, and play goes on where it can (see box.Box). On SIGTERM the battle is saved and the panel
keeps a "safe to unplug" frame.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from cobi_companion.cards.snapshot import snapshot_file
from cobi_companion.device.boot import PANEL_DEFAULTS, oled_title, panel_of, peek_panel
from cobi_companion.device.box import CONFIG_SNAPSHOT, build
from cobi_companion.device.config import Loaded, load_layers
from cobi_companion.device.ports.inputs import install_thread_excepthook
from cobi_companion.device.ports.journal import start_logging
from cobi_companion.device.ports.power import SystemPower

log = logging.getLogger("cobi-companion")


def open_panel(loaded: Loaded | None, shown: tuple[dict[str, Any], Any] | None) -> Any:
    """The panel of the checked settings: the one already showing the title if it is the
    same, else a new one."""
    wanted = panel_of(loaded.config.display) if loaded else dict(PANEL_DEFAULTS)
    if shown is not None:
        panel, display = shown
        if panel == wanted:
            return display
        display.close()     # the quick peek and the full check disagree: the check wins
    return oled_title(wanted)


def run_box(config_path: Path | None = None) -> int:
    """Run the box until SIGTERM. `config_path` takes the place of the system config file."""
    start_logging()
    install_thread_excepthook()
    panel = peek_panel(config_path)
    # The title at once, before pydantic and the cards are loaded; an odd [display] table is
    # reported by the full check below, and the title tries the usual panel meanwhile.
    first = panel if panel is not None else dict(PANEL_DEFAULTS)
    shown = (first, oled_title(first))
    log.info("first frame: the title, on the %s panel", first["driver"])

    def load() -> Loaded:
        return load_layers(config_path, snapshot_file(CONFIG_SNAPSHOT))

    loaded = load()
    for problem in loaded.skipped:
        log.error("settings file not used: %s", problem)
    for problem in loaded.refused:
        log.error("settings of the USB stick not used: %s", problem)
    display = open_panel(loaded, shown)
    box = build(loaded.config, display, loaded=loaded, load=load, power=SystemPower(),
                restart_on_change=True)
    box.loop.handle_signals()
    reason = "an error"
    try:
        reason = box.loop.run()
    finally:
        box.close(keep_frame=True)      # "safe to unplug" stays on the panel
        log.info("stopped: %s", reason)
    return 0
