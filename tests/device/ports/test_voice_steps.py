"""The steps of one action never cut each other (issue 34 review, finding 7), and a player that
hangs keeps the others waiting no longer than its outcome's length and a second (finding 6).

A shot's steps are said as each frame is drawn, a fixed beat apart; a slow voice or a long name
outlasts the beat. The later steps `follow` the first: the voice says each once the one before
has ended; the first step of the next action still cuts whatever plays. Checked with the
turnstile player (each sound plays until the test lets it end) and a clock the test moves:
nothing here depends on a thread's timing."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.ports.audio_out import Player
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ports.speech import RecordingSpeech, Utterance
from cobi_companion.device.ports.voice import (
    OUTCOME_SLACK_S,
    Voice,
    outcome_bound,
    style_of,
)

from ..core.test_said_with_frames import frames_and_words, steps_show
from ..test_box import TIGER_VS_SHERMAN
from .test_voice import Turnstiles, engine_at, heard_as, playing, wait

NO_APP: Any = None

HIT = Utterance("en", ("Tiger one", "hits!"))
RELOAD = Utterance("en", ("Tiger one", "must reload."), follows=True)
DESTROYED = Utterance("en", ("Sherman two", "is destroyed."), follows=True)
TURN = Utterance("en", ("Allies", ": your turn."), "prompt")


@pytest.fixture
def gates(tmp_path: Path) -> Turnstiles:
    return Turnstiles(tmp_path / "turnstiles")


@pytest.fixture
def now() -> list[float]:
    """The voice's clock, moved by the test alone."""
    return [100.0]


@pytest.fixture
def voice(tmp_path: Path, gates: Turnstiles, now: list[float]) -> Iterator[Voice]:
    made = Voice(engine_at(tmp_path / "cache"), Player(gates.command), volume=100,
                 clock=lambda: now[0])
    yield made
    made.close()


def played_out(voice: Voice, gates: Turnstiles, n: int) -> None:
    gates.go(n)
    wait(lambda: gates.out(n).exists() and voice.player is not None
         and voice.player.ended(n), f"sound {n} played out")


# ---- what the box marks ----

def test_the_steps_said_after_the_first_follow_it() -> None:
    show = steps_show()
    follows = []
    for _ in range(60):
        show.tick(NO_APP, 0.0)
        if show.said(NO_APP) is not None:
            follows.append(show.follows())
    assert follows == [False, True, True]


def test_a_show_begun_by_ok_at_its_outcome_cuts_what_plays() -> None:
    show = steps_show()
    show.on(NO_APP, Key.OK)
    assert show.said(NO_APP) is not None and not show.follows()


class KeptSpeech(RecordingSpeech):
    """A recording voice that keeps everything (frames_and_words clears `said` each frame)."""

    def __init__(self) -> None:
        super().__init__()
        self.kept: list[Utterance] = []

    def say(self, utterance: Utterance) -> None:
        super().say(utterance)
        self.kept.append(utterance)


def test_a_shots_later_steps_are_handed_to_the_voice_as_following(table_at: Any) -> None:
    # Kelly's Heroes: the Sherman fires at the Tiger: hit, reload, weakened
    table = table_at([4, 2, 3, 5, 3, 6, 4, 4, 6, 3, 1, 2, 4, 4, 2])
    speech = table.box.app.speech = KeptSpeech()
    table.press(*TIGER_VS_SHERMAN, "axis", "allies", "ok")
    table.press("ok", "ok", "ok", "ok", "ok", "cw", "cw")
    speech.kept.clear()
    frames_and_words(table, ["allies"])
    outcomes = [u for u in speech.kept if u.kind == "outcome"]
    assert [(u.text, u.follows) for u in outcomes] == [
        ("Sherman one hits!", False), ("Sherman one reloads.", True),
        ("Tiger one is weakened.", True)]


def test_joined_an_outcome_follows_only_where_every_outcome_in_it_does() -> None:
    assert RELOAD.then(TURN).follows and RELOAD.then(TURN).kind == "outcome"
    assert not HIT.then(RELOAD).follows             # a first step in it: it cuts
    assert not TURN.then(Utterance("en", ("Tiger one",), "item")).follows
    with pytest.raises(ValueError, match="only an outcome follows"):
        Utterance("en", ("Axis",), "prompt", follows=True)


# ---- what the voice does with them ----

def test_a_later_step_waits_for_the_one_before_and_the_prompt_for_both(
        voice: Voice, gates: Turnstiles) -> None:
    voice.say(HIT)
    wait(lambda: gates.starts() == 1, "the hit's player started")
    voice.say(RELOAD)
    voice.say(TURN)
    played_out(voice, gates, 1)
    assert heard_as(voice, gates.out(1), HIT)           # said whole: the reload did not cut it
    wait(lambda: gates.starts() == 2, "the reload's player started")
    played_out(voice, gates, 2)
    assert heard_as(voice, gates.out(2), RELOAD)        # the turn waited for it
    wait(lambda: gates.starts() == 3, "the turn's player started")
    played_out(voice, gates, 3)
    assert heard_as(voice, gates.out(3), TURN)


def test_a_later_step_cuts_a_prompt_that_plays(voice: Voice, gates: Turnstiles) -> None:
    voice.say(TURN)
    wait(lambda: gates.starts() == 1, "the prompt's player started")
    first = playing(voice)
    voice.say(DESTROYED)
    wait(lambda: gates.starts() == 2, "the outcome's player started")
    assert first.wait(timeout=120) == -9               # killed, not played out
    played_out(voice, gates, 2)
    assert heard_as(voice, gates.out(2), DESTROYED)


def test_the_first_step_of_a_new_action_cuts_and_drops_the_old_steps(
        voice: Voice, gates: Turnstiles) -> None:
    voice.say(HIT)
    wait(lambda: gates.starts() == 1, "the hit's player started")
    first = playing(voice)
    voice.say(RELOAD)                                   # waits for the hit
    miss = Utterance("en", ("Sherman two", "misses."))
    voice.say(miss)                                     # the next shot: it cuts
    wait(lambda: gates.starts() == 2, "the miss's player started")
    assert first.wait(timeout=120) == -9
    played_out(voice, gates, 2)
    assert heard_as(voice, gates.out(2), miss)
    wait(lambda: voice.handled == 2, "the miss dealt with")
    voice.say(TURN)                                     # the next thing taken is the prompt
    wait(lambda: gates.starts() == 3, "the prompt's player started")
    played_out(voice, gates, 3)
    assert heard_as(voice, gates.out(3), TURN)          # the reload was dropped, never said


def test_a_player_that_hangs_keeps_the_prompt_waiting_no_longer_than_its_bound(
        voice: Voice, gates: Turnstiles, now: list[float]) -> None:
    voice.say(HIT)
    wait(lambda: gates.starts() == 1 and voice.handled == 1, "the hit handed to the player")
    hung = playing(voice)                               # its gate never opens
    bound = outcome_bound(voice.engine.samples(HIT, style_of(voice.speed, voice.volume)),
                          voice.engine.rate)
    voice.say(TURN)
    assert voice._outcome_left() == pytest.approx(bound)
    now[0] += bound - 0.1
    voice.say(TURN)                                     # wakes the voice: still waiting
    assert voice._outcome_left() == pytest.approx(0.1)
    assert gates.starts() == 1
    now[0] += 0.1
    voice.say(TURN)                                     # wakes it past the bound
    wait(lambda: gates.starts() == 2, "the prompt's player started")
    assert hung.wait(timeout=120) == -9                 # the hung one is cut
    played_out(voice, gates, 2)
    assert heard_as(voice, gates.out(2), TURN)


def test_the_bound_is_the_sounds_length_and_a_second() -> None:
    rate = 22050
    assert OUTCOME_SLACK_S == 1.0
    assert outcome_bound(bytes(2 * rate * 3), rate) == pytest.approx(4.0)
    assert outcome_bound(b"", rate) == pytest.approx(1.0)


def test_an_outcome_that_ended_keeps_nothing_waiting(voice: Voice, gates: Turnstiles) -> None:
    voice.say(HIT)
    wait(lambda: gates.starts() == 1 and voice.handled == 1, "the hit handed to the player")
    played_out(voice, gates, 1)
    assert voice._outcome_left() == 0.0                 # ended before its bound: no wait
