"""The buzzer and the LEDs on gpiozero's mock pins (PWM-capable for the buzzer)."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from cobi_companion.device.ports.sound import (
    TUNES,
    BuzzerSound,
    Lights,
    RecordingLights,
    RecordingSound,
)
from gpiozero import TonalBuzzer
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone

BUZZER, AXIS_LED, ALLIES_LED = 12, 20, 21
WAIT = 120.0  # seconds; only ever reached when a test fails (a guard against a hang)


class RecordingPWMPin(MockPWMPin):
    """A mock PWM pin that records every tone and can hold the player inside a note."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.frequencies: list[float] = []
        self.gate: threading.Event | None = None
        self.entered = threading.Event()
        super().__init__(*args, **kwargs)

    def _set_frequency(self, value: float | None) -> None:
        if value is not None:
            self.entered.set()
            if self.gate is not None:
                self.gate.wait(WAIT)
            self.frequencies.append(value)
        super()._set_frequency(value)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=RecordingPWMPin)
    yield factory
    factory.reset()


@pytest.fixture
def sound(factory: MockFactory) -> Iterator[BuzzerSound]:
    sound = BuzzerSound(BUZZER, pin_factory=factory)
    pin = buzzer_pin(factory)
    pin.frequencies.clear()  # PWMOutputDevice starts at 100 Hz
    pin.entered.clear()
    pin.clear_states()
    yield sound
    sound.close()


def buzzer_pin(factory: MockFactory) -> RecordingPWMPin:
    return factory.pin(BUZZER)


def frequencies(*cues: str) -> list[float]:
    return [Tone(note).frequency for cue in cues for note, _ in TUNES[cue] if note]


def wait_for(condition: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_every_tune_is_short_and_in_the_buzzers_range(factory):
    buzzer = TonalBuzzer(BUZZER, mid_tone="A5", octaves=2, pin_factory=factory)
    for cue, tune in TUNES.items():
        assert sum(seconds for _, seconds in tune) <= 0.8, cue
        for note, _ in tune:
            assert note is None or buzzer.min_tone <= Tone(note) <= buzzer.max_tone, cue
    buzzer.close()


def test_play_returns_while_the_tune_is_still_playing(sound, factory):
    pin = buzzer_pin(factory)
    pin.gate = threading.Event()  # the worker will stop inside the first note
    started = time.monotonic()
    sound.play("hit")
    returned = time.monotonic() - started
    assert pin.entered.wait(WAIT)
    assert not sound.wait_idle(0)  # play() returned, the tune is still on
    pin.gate.set()
    assert sound.wait_idle(WAIT)
    # A play() that waited for the tune would have sat out the whole gate (WAIT seconds).
    assert returned < WAIT / 2
    assert pin.frequencies == frequencies("hit")
    assert pin.frequency is None and pin.state == 0


def test_notes_sound_and_rests_silence_the_pin(sound, factory):
    pin = buzzer_pin(factory)
    sound.play("roll")
    assert sound.wait_idle(WAIT)
    assert pin.frequencies == frequencies("roll")
    assert [change.state for change in pin.states] == [0, 0.5, 0, 0.5, 0, 0.5, 0, 0.5, 0]


def test_two_cues_wait_behind_the_playing_one_and_more_are_dropped(sound, factory):
    pin = buzzer_pin(factory)
    pin.gate = threading.Event()
    sound.play("click")
    assert pin.entered.wait(WAIT)
    for cue in ("hit", "miss", "error", "win"):
        sound.play(cue)
    pin.gate.set()
    assert sound.wait_idle(WAIT)
    assert pin.frequencies == frequencies("click", "hit", "miss")


def test_muted_sound_plays_nothing(sound, factory):
    sound.enabled = False
    sound.play("win")
    assert sound.wait_idle(0)
    assert buzzer_pin(factory).frequencies == []


def test_unknown_cue_is_an_error_even_when_muted(sound):
    sound.enabled = False
    with pytest.raises(ValueError, match="trumpet"):
        sound.play("trumpet")
    with pytest.raises(ValueError):
        RecordingSound().play("trumpet")


def test_close_stops_the_worker_and_frees_the_pin(factory):
    sound = BuzzerSound(BUZZER, pin_factory=factory)
    sound.play("win")
    sound.close()
    assert not any(t.name == "cobi-sound" and t.is_alive() for t in threading.enumerate())
    sound.play("win")  # ignored after close
    TonalBuzzer(BUZZER, pin_factory=factory).close()  # the pin is free again


def test_recording_sound_keeps_the_cues():
    sound = RecordingSound()
    sound.play("hit")
    sound.enabled = False
    sound.play("miss")
    assert sound.played == ["hit"]


def test_flash_blinks_the_sides_led_and_leaves_it_off(factory):
    lights = Lights(AXIS_LED, None, pin_factory=factory, on_s=0.01, off_s=0.01)
    pin = factory.pin(AXIS_LED)
    pin.clear_states()
    lights.flash("axis", times=3)
    lights.flash("allies")  # no LED fitted on that side: nothing happens
    assert wait_for(lambda: len(pin.states) == 7)
    assert [change.state for change in pin.states] == [0, 1, 0, 1, 0, 1, 0]
    lights.close()


def test_on_stops_a_flash_and_off_all_turns_everything_off(factory):
    lights = Lights(AXIS_LED, ALLIES_LED, pin_factory=factory, on_s=WAIT, off_s=WAIT)
    lights.flash("allies", times=100)
    lights.on("allies")
    lights.on("axis")
    assert factory.pin(AXIS_LED).state == 1 and factory.pin(ALLIES_LED).state == 1
    lights.off_all()
    assert factory.pin(AXIS_LED).state == 0 and factory.pin(ALLIES_LED).state == 0
    with pytest.raises(ValueError):
        lights.flash("nato")
    lights.close()


def test_recording_lights_keep_the_calls():
    lights = RecordingLights()
    lights.flash("axis", times=2)
    lights.on("allies")
    assert lights.lit == {"allies"}
    lights.off_all()
    assert lights.calls == [("flash", "axis", 2), ("on", "allies"), ("off_all",)]
    assert lights.lit == set()
