"""The voice's settings on the box (issue 34): the speed row, a sample said at each change of
volume or speed, and "no sound out" told as the box starts."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.core.views import Menu
from cobi_companion.device.ports.speech import NoSpeech, RecordingSpeech

pytestmark = pytest.mark.xdist_group("voice_settings")


def settings_rows(table: Any) -> list[str]:
    table.choose("Settings")
    assert isinstance(table.view, Menu)
    return list(table.view.items)


def test_each_change_of_volume_or_speed_says_a_sample_as_it_now_sounds(
        table_at: Callable[..., Any]) -> None:
    speech = RecordingSpeech()
    table = table_at([], speech=speech)
    rows = settings_rows(table)
    assert "Speed: normal" in rows

    def samples() -> list[str]:
        # with voice "all" the row is read aloud after the sample, on its own: an item, which
        # the knob's next step cuts (joined to the sample it would be an outcome)
        return [text for text in speech.texts if text.startswith("Like this!")]
    assert table.box.app.settings.volume == 100         # a new box's: eSpeak's own loudness
    table.choose("Volume")                              # round to the first step
    assert (table.box.app.settings.volume, samples()) == (20, ["Like this!"])
    assert [(said.text, said.kind) for said in speech.said[-2:]] == [
        ("Like this!", "outcome"), ("Volume: 20%", "item")]         # the sample cuts the last one
    assert speech.volume == 20
    table.choose("Speed")
    assert table.box.app.settings.speed == "slower"
    assert "Speed: slower" in table.view.items
    assert (len(samples()), speech.speed) == (2, "slower")
    table.choose("Voice")                   # off: nothing said
    assert table.box.app.settings.voice == "off"
    table.choose("Speed")
    assert table.box.app.settings.speed == "normal" and len(samples()) == 2
    table.choose("Voice")                   # outcomes only: the sample alone
    table.choose("Volume")
    assert table.box.app.settings.volume == 40 and samples()[2:] == ["Like this!"]


def test_speed_is_saved_and_read_from_the_config(table_at: Callable[..., Any],
                                                 tmp_path: Path) -> None:
    from cobi_companion.device.config import load_config

    config = tmp_path / "box.toml"
    config.write_text('[game]\nspeed = "slower"\n')
    table = table_at([], config=load_config(config), speech=RecordingSpeech())
    assert table.box.app.settings.speed == "slower"


@pytest.mark.parametrize(("speech", "voice", "hint"), [
    (NoSpeech("voice_no_audio"), "all", "No sound out"),
    (NoSpeech("voice_no_engine"), "outcomes", "No speech engine"),
    (NoSpeech("voice_no_audio"), "off", None),                 # nothing to hear anyway
    (NoSpeech("voice_no_audio", chosen=True), "all", None),    # no player asked for
    (RecordingSpeech(), "all", None)])
def test_no_sound_out_is_told_on_the_start_menu_with_no_press(
        table_at: Callable[..., Any], speech: Any, voice: str, hint: str | None) -> None:
    table = table_at([], speech=speech)
    table.box.app.settings.voice = voice
    table.press("cw", "ccw")                # the start menu drawn anew, same row
    view = table.view
    assert isinstance(view, Menu) and view.index == 0
    assert view.hint == (hint or "OK = choose"), view
