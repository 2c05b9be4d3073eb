"""The box's voice: what it says (an `Utterance`: phrases in one language) and the port that
says it. A real voice (device/ports/voice.py) says each utterance as one sentence (its `text`),
rendered whole by the engine and kept in a cache on disk; `say` only hands the utterance over
and returns at once, so the main loop never waits for speech.

What cuts what (`Kind`): a new outcome cuts whatever is being said; a new prompt or item (the
menu item under the cursor) cuts a prompt or an item, but waits for an outcome being said to
end (only the latest one waiting is kept): whose turn it is never hides what just happened.
An outcome that `follows` an earlier step of the same action (a shot's reload after its hit,
each said as its frame is drawn) cuts a prompt or an item too, but waits for the outcome being
said to end, in turn, and the prompts and items wait for it: the steps of one action never cut
each other, however long a slow voice or a long name makes one; the first step of an action
still cuts whatever is said. A wait for an outcome lasts at most its sound's length and a
second (voice.py): a player that hangs never silences the rest.

The doubles beside the protocol: `RecordingSpeech` keeps what it was asked to say (tests), and
`NoSpeech` says nothing, with the notice of why (no engine, no audio device), for the settings
screen.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from cobi_companion.words import languages

# "item": the menu item under the cursor, read aloud as the knob turns (core/app.py `lit`).
Kind = Literal["outcome", "prompt", "item"]
KINDS: tuple[Kind, ...] = ("outcome", "prompt", "item")
PUNCTUATION = ".,:;!?"


@dataclass(frozen=True)
class Utterance:
    """One thing said: its phrases in order, in `language`, said as one sentence (`text`)."""

    language: str
    parts: tuple[str, ...]
    kind: Kind = "outcome"
    # An outcome after an earlier step of the same action: it waits for that one to be said.
    follows: bool = False

    def __post_init__(self) -> None:
        if self.language not in languages.codes():
            raise ValueError(f"unknown language {self.language!r}; known: "
                             f"{', '.join(languages.codes())}")
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r}; known: {', '.join(KINDS)}")
        if self.follows and self.kind != "outcome":
            raise ValueError(f"only an outcome follows an earlier step, not a {self.kind}")

    @property
    def text(self) -> str:
        """The whole utterance as one sentence: its phrases joined by spaces, none before a
        phrase that starts with punctuation ("Axis" + ": press your button.")."""
        text = ""
        for part in filter(None, self.parts):
            text += part if not text or part[0] in PUNCTUATION else f" {part}"
        return text

    def then(self, other: Utterance) -> Utterance:
        """This utterance followed by `other` (one event's outcome, then its prompt, then the
        item lit): as strong as the stronger of the two (an outcome, a prompt, an item). An
        outcome that follows an earlier step stays one only where every outcome in it does (a
        first step in it cuts what plays)."""
        kind = next(each for each in KINDS if each in (self.kind, other.kind))
        follows = kind == "outcome" and all(
            each.follows for each in (self, other) if each.kind == "outcome")
        return Utterance(other.language, self.parts + other.parts, kind, follows)


class Speech(Protocol):
    """A voice: `say` returns at once; a new utterance cuts the one being said short as
    its kind allows (see above)."""

    volume: int                 # 0–100, the settings' volume, applied at once
    speed: str                  # "normal" or "slower" (the settings'), applied at once
    notice: str | None          # why nothing is heard (no engine, no audio device), or None

    def say(self, utterance: Utterance) -> None: ...

    def close(self) -> None: ...


class RecordingSpeech:
    """Test double: `said` lists every utterance asked for, in order."""

    def __init__(self, volume: int = 100, speed: str = "normal") -> None:
        self.volume, self.speed = volume, speed
        self.notice: str | None = None
        self.said: list[Utterance] = []
        self.closed = False

    def say(self, utterance: Utterance) -> None:
        self.said.append(utterance)

    @property
    def texts(self) -> list[str]:
        return [utterance.text for utterance in self.said]

    def close(self) -> None:
        self.closed = True


class NoSpeech:
    """No voice: nothing is said; `notice` tells why (None: speech was never asked for).
    `chosen`: the silence is the settings' own (no player asked for), not a fault: the
    settings row shows it, the start does not."""

    def __init__(self, notice: str | None = None, volume: int = 100,
                 speed: str = "normal", chosen: bool = False) -> None:
        self.volume, self.speed = volume, speed
        self.notice, self.chosen = notice, chosen

    def say(self, utterance: Utterance) -> None:
        pass

    def close(self) -> None:
        pass


def start_notice(speech: Speech) -> str | None:
    """Why nothing will be heard, told as the box starts (the start menu's hint line), so
    that the players learn it before a battle rather than on the settings row only; None
    where the voice can speak, or was asked to be silent (`NoSpeech.chosen`)."""
    return None if getattr(speech, "chosen", False) else speech.notice
