"""The box keeps going and says what is wrong on its own screen: a busy pin, a part that fails,
a read-only card, a settings file it cannot use; the screen goes dark when idle; power off and
restart from the settings menu; the last frame says it is safe to unplug. All on the real app,
store and screens, gpiozero's mock pins and luma's dummy panel."""
from __future__ import annotations

from pathlib import Path

import pytest
from cobi_companion.device.config import Config, load_layers
from cobi_companion.device.core.views import BigWord, Header, Lines, Menu
from cobi_companion.device.ports.events import Key, Press, Stop, Tick
from cobi_companion.device.ports.power import RecordingPower, SystemPower
from cobi_companion.device.ui.renderer import (
    ELLIPSIS,
    last_row,
    overflow,
    render,
    rows,
    rows_shown,
)
from cobi_companion.device.ui.trouble import Trouble
from gpiozero import LED

from .conftest import read_only, tap_pins

TIGER_VS_SHERMAN = ["ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok"]


def text(view: Lines) -> str:
    return " ".join(view.lines)


def test_a_busy_button_pin_is_shown_and_tried_again_until_it_is_free(table_at) -> None:
    factory = tap_pins()
    blocker = LED(17, pin_factory=factory)         # another program holds the Axis button
    table = table_at([3], factory=factory)
    view = table.view
    assert isinstance(view, Lines) and view.header.title == "Pins"
    assert "buttons.axis (GPIO 17)" in text(view) and "in use" in text(view)
    assert table.box.inputs is None
    table.box.loop.step(Tick(10**6))               # still busy: still the same screen
    assert table.view.header.title == "Pins"
    blocker.close()
    table.box.loop.step(Tick(10**6 + 10))          # a few seconds later: it works
    assert table.box.inputs is not None
    assert isinstance(table.view, Menu) and table.view.items[0] == "New battle"
    table.press("ok")                              # and the knob really reads its pins
    assert table.view.header.title != "COBI Companion"


def test_a_failing_buzzer_and_leds_are_switched_off_with_a_notice(table_at) -> None:
    factory = tap_pins()
    held = [LED(12, pin_factory=factory), LED(23, pin_factory=factory)]   # another program's
    table = table_at([4, 2], factory=factory)
    assert all(not led.closed for led in held)
    view = table.view
    assert view.header.title == "Switched off"
    assert text(view).startswith("Buzzer off: GPIO 12: ")
    assert "Lights off: GPIO 23/24: " in text(view) and "goes on" in text(view)
    table.press("ok")
    table.press(*TIGER_VS_SHERMAN, "axis", "allies")      # play goes on: the roll-off
    assert table.box.store.load_battle() is not None



def test_a_read_only_card_plays_from_memory_and_offers_the_saved_battle(table_at,
                                                                        tmp_path) -> None:
    state = tmp_path / "state"
    first = table_at([4, 2], state_dir=state)
    first.press(*TIGER_VS_SHERMAN)
    first.close()
    with read_only(state):
        table = table_at([4, 2], state_dir=state)
        view = table.view
        assert view.header.title == "Cannot save!"
        assert "read-only" in text(view) and "can still be resumed" in text(view)
        table.press("ok")
        assert table.view.items[0] == "Resume battle"
        table.press("ok", "axis", "allies")                    # play on, in memory
        assert not table.box.store.can_save
        table.box.loop.farewell()
    frame = table.display.image
    assert frame is not None
    last = render(BigWord(Header("COBI"), "SAFE TO UNPLUG", "the battle was NOT saved"))
    assert frame.tobytes() == last.convert("1").tobytes()


def broken_overlay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    usb = tmp_path / "usb"
    usb.mkdir()
    (usb / "config.toml").write_text('[game]\nlanguage = "pl"\n\n[buttons]\naxis = 40\n')
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", str(usb))
    return usb / "config.toml"


def test_a_broken_settings_file_is_shown_with_its_line_and_play_goes_on(
        table_at, tmp_path, monkeypatch) -> None:
    path = broken_overlay(tmp_path, monkeypatch)
    loaded = load_layers(None)
    table = table_at([3], config=loaded.config, loaded=loaded, load=lambda: load_layers(None))
    view = table.view
    assert view.header.title == "Settings file"
    assert str(path) in "".join(view.lines).replace(" ", "")
    assert "line 5" in text(view) and "buttons.axis" in text(view)
    assert view.hint == "OK = again · hold = go on"
    table.press("ok")                          # not fixed yet: OK shows it again
    assert table.view.header.title == "Settings file"
    path.write_text('[game]\nlanguage = "pl"\n')
    table.press("ok")                          # fixed: read again, on to the start menu
    assert table.view.items[0] == "Nowa bitwa"
    assert table.box.app.sources.files == (path,)


def test_a_broken_settings_file_can_be_skipped_with_a_long_press(table_at, tmp_path,
                                                                 monkeypatch) -> None:
    broken_overlay(tmp_path, monkeypatch)
    loaded = load_layers(None)
    table = table_at([3], config=loaded.config, loaded=loaded)
    table.press("back")
    assert table.view.items[0] == "New battle"          # the file's language was not used


def test_sighup_reads_the_cards_again_and_says_so(table_at, tmp_path, monkeypatch) -> None:
    cards = tmp_path / "stick"
    (cards / "cards").mkdir(parents=True)
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", str(cards))
    table = table_at([3], load=lambda: load_layers(None))
    before = len(table.box.app.book.sorted())
    (cards / "cards" / "my-tiger.toml").write_text(
        (Path(__file__).parents[2] / "cards" / "2477-tiger-i.toml").read_text()
        .replace('id = "2477"', 'id = "9477"').replace("2477", "9477"))
    table.reload()
    view = table.view
    assert view.header.title == "Settings read again"
    assert f"{before + 1} cards" in text(view)
    table.press("ok")
    assert table.view.items[0] == "New battle"


def test_power_off_asks_first_saves_and_asks_the_system(table_at) -> None:
    power = RecordingPower()
    table = table_at([4, 2], power=power)
    table.press(*TIGER_VS_SHERMAN)
    table.press("back")                        # the battle menu
    table.choose("Settings")
    table.choose("Power off")
    assert table.view.header.title == "Power off the box?"
    table.choose("no")
    assert table.view.header.title == "Settings" and power.requested == []
    table.choose("Power off")
    table.choose("yes")
    assert power.requested == ["poweroff"]
    assert isinstance(table.view, BigWord) and table.view.word == "OFF"
    table.press("ok", "cw")                     # switching off: the knob does nothing
    assert table.view.word == "OFF"
    assert table.box.store.load_battle() is not None


def test_a_refused_power_off_says_why_and_goes_back_to_the_settings(table_at) -> None:
    table = table_at([3], power=RecordingPower(refuse="Access denied"))
    table.choose("Settings")
    table.choose("Restart")
    table.choose("yes")
    assert table.view.header.title == "Not possible"
    assert "Access denied" in text(table.view)
    table.press("ok")
    assert table.view.header.title == "Settings"
    assert table.view.items[table.view.index] == "Restart"


def test_system_power_runs_systemctl_and_reports_its_refusal(tmp_path, monkeypatch) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    said = tmp_path / "said"
    (fake / "systemctl").write_text(
        f'#!/bin/sh\necho "$@" >> {said}\n'
        '[ "$2" = reboot ] && { echo "Failed: Access denied" >&2; exit 1; }\nexit 0\n')
    (fake / "systemctl").chmod(0o755)
    monkeypatch.setenv("PATH", str(fake))
    assert SystemPower().request("poweroff") is None
    assert SystemPower().request("reboot") == "Failed: Access denied"
    assert said.read_text().splitlines() == ["--no-block poweroff", "--no-block reboot"]
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    assert SystemPower().request("poweroff") == "systemctl is not installed"


def test_files_in_use_lists_the_settings_files_and_card_folders(table_at, tmp_path,
                                                                monkeypatch) -> None:
    boot = tmp_path / "boot"
    (boot / "cards").mkdir(parents=True)
    (boot / "config.toml").write_text("[game]\nsound = false\n")
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", str(boot))
    loaded = load_layers(None)
    table = table_at([3], config=loaded.config, loaded=loaded)
    table.choose("Settings")
    table.choose("Files in use")
    shown = "".join(table.view.lines).replace(" ", "")
    assert str(boot / "config.toml") in shown and str(boot / "cards") in shown
    table.press("ok")
    assert table.view.items[table.view.index] == "Files in use"


def test_the_screen_goes_dark_when_idle_and_the_first_press_only_wakes_it(table_at) -> None:
    table = table_at([3])
    loop, display = table.box.loop, table.display
    assert table.box.app.settings.screen_off_min == 10
    loop.idle(loop.last_input + 10 * 60 + 1)
    assert display.off
    loop.step(Press(Key.OK))                  # lights the panel, chooses nothing
    assert not display.off and table.view.items[0] == "New battle"
    assert table.view.header.title == "COBI Companion"
    table.choose("Settings")
    table.choose("Screen off")
    assert table.view.items[table.view.index] == "Screen off: 30 min"
    assert loop.off_after_s == 30 * 60


def test_the_last_frame_says_safe_to_unplug_and_stays(table_at) -> None:
    table = table_at([4, 2])
    table.press(*TIGER_VS_SHERMAN)
    loop = table.box.loop
    loop.put(Stop("SIGTERM"))
    assert loop.run() == "SIGTERM"
    assert table.display.image is not None
    expected = render(BigWord(Header("COBI"), "SAFE TO UNPLUG", "the battle is saved"))
    assert table.display.image.tobytes() == expected.convert("1").tobytes()
    table.box.close(keep_frame=True)
    assert table.display.kept_frame


@pytest.mark.parametrize("language", ["en", "pl"])
def test_trouble_screens_wrap_and_never_cut_a_line(language: str, table_at) -> None:
    table = table_at([3])
    app = table.box.app
    app.settings.language = language
    long = ("config /media/cobi/config.toml: line 12: sensors.0.port: is missing; needed: a "
            "serial port, like /dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A10K1234-if00-port0")
    paragraphs = [app.t("config_skipped"), long, app.t("config_fix"), app.t("pin_fix"),
                  app.t("cannot_save_fix")]
    screen = Trouble(app.t("config_trouble"), paragraphs, lambda: screen)
    app.screen = screen
    table.box.loop.draw()
    wrapped = rows(table.view)
    assert "".join(wrapped).replace(" ", "") == "".join(paragraphs).replace(" ", "")
    seen = []
    for _ in range(len(wrapped) + 3):            # the knob stops at the last full screen
        seen.append(table.view.index)
        assert ELLIPSIS not in "".join(table.view.lines) and overflow(table.view) == []
        table.press("cw")
    assert seen[-1] == last_row(table.view) == len(wrapped) - rows_shown(table.view)
    assert seen == sorted(seen) and seen[:last_row(table.view) + 1] == list(
        range(last_row(table.view) + 1))
    shown = render(table.view)
    assert table.display.image is not None and table.display.image.tobytes() == \
        shown.tobytes()
    table.press("ccw")
    assert table.view.index == last_row(table.view) - 1


def test_the_screen_goes_dark_after_ten_idle_minutes_unless_the_config_says_otherwise(
        table_at) -> None:
    assert Config().display.off_after_min == 10
    config = Config.model_validate({"display": {"off_after_min": 0}})
    table = table_at([3], config=config)
    table.box.loop.idle(table.box.loop.last_input + 10**6)
    assert not table.display.off


def odd_card_folder(folder: Path, make_fifo) -> list[Path]:
    """A card folder with a FIFO named like a card, a link to /dev/zero, a card nested 600
    deep and one with a number of 5,000 digits: the files the box cannot use."""
    folder.mkdir(parents=True)
    odd = [make_fifo(folder / "9001-fifo.toml"), folder / "9002-zero.toml",
           folder / "9003-deep.toml", folder / "9004-digits.toml"]
    odd[1].symlink_to("/dev/zero")
    odd[2].write_text("x = " + "[" * 600 + "]" * 600 + "\n")
    odd[3].write_text(f'set_number = 9004\nname = "X"\ncost = {"1" * 5000}\n')
    return odd


def test_odd_card_files_are_named_on_the_first_screen_and_the_box_plays_on(
        table_at, tmp_path, monkeypatch, make_fifo) -> None:
    cards = tmp_path / "cards"
    odd = odd_card_folder(cards, make_fifo)
    monkeypatch.setenv("COBI_COMPANION_CARDS", str(cards))
    table = table_at([4, 2], load=lambda: load_layers(None))
    view = table.view
    assert view.header.title == "Card files"
    assert view.hint == "OK = again · hold = go on"
    assert view.lines[0] == "These files are not used:"
    assert [line.split(": ", 1)[0] for line in view.lines[1:-1]] == [str(p) for p in odd]
    assert "it is a pipe (FIFO)" in view.lines[1] and "it is a device" in view.lines[2]
    assert "nested more than 32 deep" in view.lines[3] and "4300 digits" in view.lines[4]
    assert view.lines[-1].startswith("The other cards are in play.")
    table.press("ok")                                    # not mended: said again
    assert table.view.header.title == "Card files"
    for path in odd:
        path.unlink()
    table.press("ok")                                    # mended: read again, on to play
    assert table.view.items[0] == "New battle" and not table.box.app.book.problems
    table.press(*TIGER_VS_SHERMAN, "axis", "allies")
    assert table.box.store.load_battle() is not None


def test_a_long_press_plays_on_with_the_other_cards_and_the_files_in_use_name_them(
        table_at, tmp_path, monkeypatch, make_fifo) -> None:
    cards = tmp_path / "cards"
    odd = odd_card_folder(cards, make_fifo)
    (cards / "9100-mine.toml").write_text(
        (Path(__file__).parents[2] / "cards" / "2477-tiger-i.toml").read_text()
        .replace("2477", "9100").replace("Tiger I", "My Tiger"))
    monkeypatch.setenv("COBI_COMPANION_CARDS", str(cards))
    table = table_at([4, 2], load=lambda: load_layers(None))
    table.press("back")
    assert table.view.items[0] == "New battle"
    assert table.box.app.book.get(9100).name == "My Tiger"     # the good file is in play
    skipped = table.box.app.sources.skipped
    assert [line.split(": ", 1)[0] for line in skipped] == [str(p) for p in odd]
    table.reload()                       # a reload says them again
    assert table.view.header.title == "Settings read again"
    table.press("ok")
    assert table.view.header.title == "Card files"
    table.press("back")
    assert table.view.items[0] == "New battle"


def test_a_settings_file_put_in_after_a_battle_still_counts(table_at, tmp_path,
                                                            monkeypatch) -> None:
    """New battle remembers the armies, a save of the settings: only what the players chose
    on the box is saved, so a USB stick's language put in afterwards is used (the system test
    found every setting saved, and the stick's language unseen from the first battle on)."""
    stick = tmp_path / "stick"
    stick.mkdir()
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", str(stick))
    table = table_at([3], load=lambda: load_layers(None))
    # New battle, a Tiger for the Axis and a Sherman for the Allies, OK: the battle begins
    table.press("ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok")
    assert "armies" in table.box.store.settings()
    assert "language" not in table.box.store.settings()
    (stick / "config.toml").write_text('[game]\nlanguage = "pl"\n')
    table.reload()
    assert table.view.header.title == "Ustawienia wczytane"
    (stick / "config.toml").unlink()                     # the stick taken out: back as before
    table.reload()
    assert table.view.header.title == "Settings read again"


@pytest.mark.parametrize(("language", "more"), [("en", "and 29980 more"),
                                                ("pl", "i jeszcze 29980")])
def test_a_table_file_of_30000_problems_shows_twenty_then_how_many_more(
        language: str, more: str, table_at, tmp_path, monkeypatch) -> None:
    cards = tmp_path / "cards"
    (cards / "tables").mkdir(parents=True)
    bad = cards / "tables" / "soft-targets.toml"          # 30,000 misspelt weapons
    bad.write_text("".join(f"k{i:x}=1\n" for i in range(30000)))
    monkeypatch.setenv("COBI_COMPANION_CARDS", str(cards))
    table = table_at([4, 2], load=lambda: load_layers(None))
    table.box.app.settings.language = language
    table.press("ok")                                    # read again: said in the language
    paragraphs = table.box.app.screen.paragraphs
    assert len(paragraphs) == 1 + 20 + 1 + 1             # the title, 20, how many more, fix
    assert all(line.startswith(f"{bad}: k") for line in paragraphs[1:21])
    assert paragraphs[21] == f"{bad}: {more}"
