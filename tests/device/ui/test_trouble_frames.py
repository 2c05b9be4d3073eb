"""The frames of docs/screens/trouble/, which the README shows: what the box says when something
is wrong with it, drawn by the real box (mock pins, luma's dummy panel) from the same errors its
parts raise, with the paths of a real Pi. A frame that changes fails here; UPDATE_SNAPSHOTS=1
writes them again (then look at them)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from cobi_companion.cards import CardProblem
from cobi_companion.device.core.app import Unresumable
from cobi_companion.device.core.views import BigWord
from cobi_companion.device.games.home import kept_battle
from cobi_companion.device.ports.errors import ConfigError, StickError
from cobi_companion.device.ports.store import StoreProblem
from cobi_companion.device.ui.renderer import render
from cobi_companion.device.ui.trouble import notice, saving_notice, store_problems
from PIL import Image, ImageChops

FRAMES = Path(__file__).parents[3] / "docs" / "screens" / "trouble"
SCALE = 4
BOOT_PROBLEM = ConfigError(Path("/boot/firmware/cobi/config.toml"), [
    "line 5: buttons.axis: 40 is not allowed; allowed: a BCM GPIO number from 0 to 27"])
STICK_REFUSAL = StickError(Path("/media/cobi/config.toml"), [
    "line 4: display.contrast: a USB stick may not set it; allowed: only in "
    "/etc/cobi-companion/config.toml or the boot partition's cobi/config.toml"])
FIFO_CARD = CardProblem("/media/cobi/cards/tiger.toml", None, "cannot be read: it is a pipe "
                        "(FIFO); allowed: a regular file of at most 256 KiB")
READ_ONLY = StoreProblem("cannot_save", Path("/var/lib/cobi-companion/battles.db"), "read_only",
                         "attempt to write a readonly database")
DISK_FULL = StoreProblem("cannot_save", Path("/var/lib/cobi-companion/battles.db"), "disk_full",
                         "database or disk is full")


def compare(name: str, image: Image.Image) -> str:
    """"" when the frame is the stored one; the file's name when it was written anew."""
    big = image.convert("1").resize((128 * SCALE, 64 * SCALE), Image.Resampling.NEAREST)
    path = FRAMES / f"{name}.png"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1" or not path.exists():
        FRAMES.mkdir(parents=True, exist_ok=True)
        big.save(path)
        return path.name
    with Image.open(path) as stored:
        expected = stored.convert("1").resize((128, 64), Image.Resampling.NEAREST)
    diff = ImageChops.logical_xor(image.convert("1"), expected).histogram()[255]
    assert diff == 0, f"{name}: {diff} pixels differ from {path}"
    return ""


def test_the_store_says_its_problem_in_the_boxs_words(table_at) -> None:
    app = table_at([3]).box.app
    assert store_problems(app, [READ_ONLY]) == (
        "cannot save: the folder is read-only (/var/lib/cobi-companion/battles.db); the "
        "battle goes on without saving")
    app.settings.language = "pl"
    assert store_problems(app, [READ_ONLY]) == (
        "nie można zapisać: folder jest tylko do odczytu (/var/lib/cobi-companion/battles.db); "
        "bitwa toczy się bez zapisu")


@pytest.mark.parametrize("language", ["en", "pl"])
def test_frames_of_what_is_wrong(table_at, language: str) -> None:
    table = table_at([3])
    box, app = table.box, table.box.app
    app.settings.language = language
    menu = app.screen
    screens = {
        "config": box.config_trouble((BOOT_PROBLEM,), lambda: menu),
        "stick": box.config_trouble((STICK_REFUSAL,), lambda: menu),
        "cannot-save": notice(app, app.t("cannot_save"),
                              [store_problems(app, [READ_ONLY]), app.t("cannot_save_fix")],
                              lambda: menu),
        "parts-off": notice(app, app.t("parts_off"), [
            app.t("part_failed", part=app.t("buzzer"), reason="GPIO 12: GPIO busy"),
            app.t("parts_go_on")], lambda: menu),
    }
    box.state_dir = Path("/var/lib/cobi-companion")
    box.unusable = ["/boot/firmware/cobi/state: Permission denied"]
    screens["folder"] = box.folder_trouble(lambda: menu)
    box.pin_problem = "buttons.axis (GPIO 17): GPIO busy"
    screens["pins"] = box.pins_trouble(lambda: menu)
    app.book.problems = [FIFO_CARD]
    screens["cards"] = box.cards_trouble(lambda: menu)
    # saving stopped during play, and works again: notices over the screen of the moment
    app.store.problems.append(DISK_FULL)  # type: ignore[attr-defined]
    screens["saving-failed"] = saving_notice(app, False, menu)
    screens["saving-again"] = saving_notice(app, True, menu)
    # a saved battle that needs a card of a stick that is out
    app.kept = Unresumable("card", card="9100")
    screens["kept-battle"] = kept_battle(app)
    written = [compare(f"{name}-{language}", render(screen.view(app)))
               for name, screen in screens.items()]
    farewell = BigWord(app.header("COBI"), app.t("unplug"), app.t("battle_saved"))
    written.append(compare(f"unplug-{language}", render(farewell)))
    if any(written):
        pytest.skip(f"frames written: {', '.join(filter(None, written))}; look at them, then "
                    f"run again to compare")
