"""The tour's journey through the box's own screens: a settings file it skipped, the start
menu, quick dice, the settings and the box's own rows, check distance, the language switched
and back, power off and restart."""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cobi_companion.device.config import Loaded
from cobi_companion.device.core.app import VOICES
from cobi_companion.device.core.views import Menu
from cobi_companion.device.games.settings import VOLUME_STEP
from cobi_companion.device.ports.errors import ConfigError, StickError
from cobi_companion.device.ports.power import RecordingPower
from cobi_companion.device.ports.speech import NoSpeech
from cobi_companion.words import languages
from tour import Tour, config

USB_PROBLEM = ConfigError(Path("/media/cobi/config.toml"), [
    "line 5: buttons.axis: 40 is not allowed; allowed: a BCM GPIO number from 0 to 27"])

STICK_REFUSAL = StickError(Path("/media/cobi/config.toml"), [
    "line 4: display.contrast: a USB stick may not set it; allowed: only in "
    "/etc/cobi-companion/config.toml or the boot partition's cobi/config.toml"])

@contextmanager
def only_shipped_cards() -> Iterator[None]:
    """No card folder but the shipped one, while a box is built."""
    saved = os.environ.get("COBI_COMPANION_CARDS")
    os.environ["COBI_COMPANION_CARDS"] = ""
    try:
        yield
    finally:
        if saved is None:
            del os.environ["COBI_COMPANION_CARDS"]
        else:
            os.environ["COBI_COMPANION_CARDS"] = saved


def journey_box(tour: Tour) -> None:
    """A box with a settings file it skipped and only its own cards: the problem first, then
    the start menu, quick dice, the settings and the box's own rows, check distance; the
    language switched and back; and power off and restart asked of a system that does them."""
    tour.system(USB_PROBLEM.path, *USB_PROBLEM.problems, *STICK_REFUSAL.problems)
    loaded = Loaded(config(tour.language), (Path("/boot/firmware/cobi/config.toml"),),
                    (USB_PROBLEM,), (), refused=(STICK_REFUSAL,))
    with only_shipped_cards():
        table = tour.box("box", loaded=loaded)
    guide = tour.guide(table, "box")
    guide.prefer = lambda item: not any(item.startswith(tour.t(key)) for key in (
        "new", "cobra", "new_match", "resume", "resume_match", "resume_cobra"))
    guide.play(160)
    for action in ("reboot", "poweroff"):
        guide = tour.guide(tour.box(action, power=RecordingPower()), "box")
        # the voice row says why nothing is heard: no engine on one box, no sound on the other
        guide.app.speech = NoSpeech("voice_no_engine" if action == "reboot" else "voice_no_audio")
        guide.choose(tour.t("settings"))
        if action == "reboot":                          # the language row: every other one,
            guide.choose(tour.t("language"))            # and back round to the tour's
            for _ in range(len(languages.codes()) - 1):
                guide.press("ok")
        else:                                   # the voice's every choice, volume and speed
            guide.app.speech = NoSpeech()
            for _ in range(len(VOICES)):
                guide.choose(tour.t("voice"))
            for _ in range(100 // VOLUME_STEP):
                guide.choose(tour.t("volume"))
            for _ in range(2):                          # slower, and back to normal
                guide.choose(tour.t("speed"))
        for _ in range(6):                              # every step of the screen's timeout
            guide.choose(tour.t("screen_off"))
        guide.choose(tour.t("files_in_use"))            # no settings file: the built-in ones
        guide.play(8, until=lambda guide=guide: isinstance(guide.view, Menu))
        guide.choose(tour.t(action))
        guide.choose(tour.t("yes"))
