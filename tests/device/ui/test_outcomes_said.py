"""Every outcome the panel shows is said when its frame is drawn (issue 34, point 6): on the
tour of the box (tour.py: every game, every kind of shot and roll, in each language), each
frame that shows an outcome for the first time has an outcome said with it, by the voice the
tour gives its boxes (tour.Heard, which keeps each utterance with the frame on the panel when
it was said). An outcome said before its frame (the whole shot at its first, tumbling die)
or after it (a failed reload said with the last frame) is not said with it, and fails here.

An outcome frame: a die's result (to hit, reload, a figure's die, a roll-off's winner or tie),
a shot's or a fire's big word, the winner of a battle or a match, and Cobra's results of the
landing. A frame shown again (the knob back through a shot's steps, a kept outcome after a
restart, which is not said twice) counts once; a big MISS after its die's MISS was said with
the die."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from cobi_companion.device.core import i18n
from cobi_companion.device.core.views import BigWord, Roll, View
from cobi_companion.device.ui.outcome_words import BIG_WORDS
from cobi_companion.rules.status import Side
from tour import LANGUAGES, each_language

# A die's result word on its Roll (its `total`), and an outcome's big word, by key.
ROLL_RESULTS = ("HIT", "MISS", "RELOADED", "UNLOADED", "TIE", "DOWN", "SAFE")
BIG_RESULTS = (*BIG_WORDS.values(), "LANDED", "HELD", "ABANDONED")
# The frames of a shot's steps before its big word (its dice tumbling, then settled).
STEPS = 30
# The titles of the screens whose big word is a winner: a battle's, a match's.
WINNER_TITLES = ("game_over", "match")


def words(language: str, keys: tuple[str, ...]) -> set[str]:
    return {i18n.text(language, key) for key in keys}


def is_outcome(view: View, language: str) -> bool:
    """Whether `view` shows an outcome (settled: not dice still tumbling)."""
    if isinstance(view, Roll):
        sides = {i18n.text(language, side.value) for side in Side}
        return not view.rolling and view.total in words(language, ROLL_RESULTS) | sides
    if isinstance(view, BigWord):
        return view.word in words(language, BIG_RESULTS) or \
            view.header.title in words(language, WINNER_TITLES) or \
            view.hint == i18n.text(language, "ok_next")
    return False


def unpaged(view: View) -> View:
    """The view whatever turn of a paged title is shown."""
    from dataclasses import replace

    return replace(view, header=replace(view.header, page=0))


def unsaid(seen: list[Any], language: str) -> list[tuple[str, View, list[str]]]:
    """The outcome frames of the tour drawn for the first time with no outcome said."""
    found, shown, before = [], set(), []
    for one in seen:
        view = unpaged(one.view)
        first = view not in shown
        shown.add(view)
        said = [u for u in one.said if u.kind == "outcome"]
        # a big MISS after its die's MISS (and the reload's die): the miss was said there
        echo = isinstance(view, BigWord) and any(
            isinstance(step, Roll) and step.total == view.word for step in before[-STEPS:])
        if first and one.language == language and one.voice != "off" and \
                is_outcome(view, language) and not said and not echo:
            found.append((one.journey, view, [u.text for u in one.said]))
        before.append(view)
    return found


@pytest.mark.parametrize("language", each_language(LANGUAGES))
def test_every_outcome_frame_of_the_tour_is_said_with_it(
        language: str, tour_frames: Mapping[str, list[Any]]) -> None:
    seen = tour_frames[language]
    outcomes = [one for one in seen if is_outcome(unpaged(one.view), language)]
    assert len(outcomes) > 50          # the tour shows outcomes of every kind
    missing = unsaid(seen, language)
    assert missing == [], "\n".join(f"{journey}: {view} said {said}"
                                    for journey, view, said in missing[:30])
