"""The box on a Raspberry Pi: real pins (gpiozero's pin factory from the environment), the
luma OLED, the buzzer and LEDs, logging for the journal, and SIGTERM handled."""
from __future__ import annotations

import logging

from .boot import start_logging
from .box import build
from .config import Config
from .display import OledDisplay
from .inputs import install_thread_excepthook


def run_box(config: Config, display: OledDisplay | None = None) -> int:
    """Run the box until SIGTERM; `display` is the OLED already showing the title, if any."""
    start_logging()
    install_thread_excepthook()
    if display is None:
        d = config.display
        display = OledDisplay(d.driver, d.port, d.address, d.rotate, d.contrast,
                              dim_contrast=d.dim_contrast)
    box = build(config, display)
    box.loop.handle_signals()
    try:
        reason = box.loop.run()
        logging.getLogger("cobi-companion").info("stopped: %s", reason)
    finally:
        box.close()
    return 0
