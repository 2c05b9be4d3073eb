"""Distances the Tank Game measures: fire range, spotting a hidden piece and set-up.

A measured distance is the median of several sensor readings, with the spread of those
readings. Near a rule's threshold the box does not guess: when the median is within the spread
plus a margin of the threshold the call is "too close to call — use the tape", and the player
decides. A distance the player typed in was measured by the player and is taken as given.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from statistics import median
from typing import Any

from cobi_companion.rules.tank.refusals import TankRefusal

from .english import Word
from .errors import RulesError
from .modifier import Modifier
from .saved import Data

DEFAULT_MARGIN_CM = 1.5  # added to the readings' spread: the band where the box will not call

# Fire over 100 cm is -1 to hit; exactly 100 cm is not. The number is the Tank Game's
# RANGE_LIMIT_CM (tank/hard_fire.py), written out here so that measuring a distance (the box's range
# sensors at its start) does not load the Tank Game's rules; tests/rules/test_distance.py holds
# the two equal.
FIRE_RANGE_CM = 100
SPOTTING_CM = 30  # a hidden piece is seen when an enemy figure moves within 30 cm
SPOTTING_BINOCULARS_CM = 40  # ... or within 40 cm when that figure has binoculars
SETUP_ATTACKER_EDGE_CM = 40  # the attacker sets up not more than 40 cm from its own edge
SETUP_DEFENDER_FROM_ATTACKERS_CM = 30  # the defender: not closer than 30 cm to attacking pieces
SETUP_DEFENDER_FROM_EDGE_CM = 40  # ... and not closer than 40 cm to the attacker's edge

_DECIMALS = 3  # cm to 0.01 mm, far below any sensor: 99.7 + 1.5 compares as 101.2


def _cm(value: float) -> float:
    return round(value, _DECIMALS)


def _shown(value: float) -> str:
    return f"{value:g}"


class Comparison(StrEnum):
    OVER = "over"          # more than the threshold: exactly on it is not over
    WITHIN = "within"      # at most the threshold: exactly on it is within
    AT_LEAST = "at_least"  # the threshold or more: exactly on it is at least

    def holds(self, cm: float, threshold_cm: float) -> bool:
        if self is Comparison.OVER:
            return cm > threshold_cm
        if self is Comparison.WITHIN:
            return cm <= threshold_cm
        return cm >= threshold_cm

    @property
    def words(self) -> str:
        return self.value.replace("_", " ")


class Call(StrEnum):
    YES = "yes"
    NO = "no"
    TOO_CLOSE = "too_close"

    @property
    def text(self) -> str:
        return "too close to call — use the tape" if self is Call.TOO_CLOSE else self.value


@dataclass(frozen=True)
class Measurement(Data):
    """The median of the valid readings (the sensor's offset added) and how far they scatter."""

    cm: float
    spread_cm: float                 # the largest distance of a used reading from the median
    readings: tuple[float, ...]      # the valid readings used, in cm, offset added
    offset_cm: float = 0.0


def measure(readings: Sequence[float], offset_cm: float = 0.0) -> Measurement:
    """The median and spread of valid sensor readings in cm.

    `offset_cm` is added to every reading: it moves the sensor's face to the point the rules
    measure from (negative when the sensor sits behind it).
    """
    if not readings:
        raise RulesError(TankRefusal.NO_READINGS)
    if not math.isfinite(offset_cm):
        raise RulesError(TankRefusal.IMPOSSIBLE_CM, quantity=Word("offset", "sensor offset"),
                         cm=offset_cm)
    for value in readings:
        if not math.isfinite(value) or value < 0:
            raise RulesError(TankRefusal.IMPOSSIBLE_CM, quantity="reading", cm=value)
    used = tuple(_cm(value + offset_cm) for value in readings)
    if min(used) < 0:
        raise RulesError(TankRefusal.OFFSET_BELOW_ZERO,
                         cm=offset_cm)
    middle = _cm(median(used))
    spread = _cm(max(abs(value - middle) for value in used))
    return Measurement(middle, spread, used, offset_cm)


@dataclass(frozen=True)
class Question(Data):
    """A distance a rule asks about: the words for a screen or the command line."""

    id: str
    text: str
    threshold_cm: float
    comparison: Comparison


FIRE_RANGE = "fire_range"
SPOTTING = "spotting"
SPOTTING_BINOCULARS = "spotting_binoculars"
SETUP_ATTACKER_EDGE = "setup_attacker_edge"
SETUP_DEFENDER_FROM_ATTACKERS = "setup_defender_from_attackers"
SETUP_DEFENDER_FROM_EDGE = "setup_defender_from_edge"

QUESTIONS: dict[str, Question] = {q.id: q for q in (
    Question(FIRE_RANGE, f"Range over {FIRE_RANGE_CM} cm? (-1 to hit)", FIRE_RANGE_CM,
             Comparison.OVER),
    Question(SPOTTING, f"Enemy figure within {SPOTTING_CM} cm of the hidden piece?",
             SPOTTING_CM, Comparison.WITHIN),
    Question(SPOTTING_BINOCULARS,
             f"Enemy figure with binoculars within {SPOTTING_BINOCULARS_CM} cm of the hidden "
             "piece?", SPOTTING_BINOCULARS_CM, Comparison.WITHIN),
    Question(SETUP_ATTACKER_EDGE,
             f"Attacking piece within {SETUP_ATTACKER_EDGE_CM} cm of its own edge?",
             SETUP_ATTACKER_EDGE_CM, Comparison.WITHIN),
    Question(SETUP_DEFENDER_FROM_ATTACKERS,
             f"Defending piece at least {SETUP_DEFENDER_FROM_ATTACKERS_CM} cm from the nearest "
             "attacking piece?", SETUP_DEFENDER_FROM_ATTACKERS_CM, Comparison.AT_LEAST),
    Question(SETUP_DEFENDER_FROM_EDGE,
             f"Defending piece at least {SETUP_DEFENDER_FROM_EDGE_CM} cm from the attacker's "
             "edge?", SETUP_DEFENDER_FROM_EDGE_CM, Comparison.AT_LEAST),
)}


@dataclass(frozen=True)
class DistanceCheck:
    """One distance question answered, with every value the answer used."""

    question: str
    threshold_cm: float
    comparison: Comparison
    cm: float
    spread_cm: float
    margin_cm: float
    measured: bool                   # False: the player entered the distance
    readings: tuple[float, ...]      # the readings used; empty for an entered distance
    call: Call

    @property
    def band_cm(self) -> float:
        """How near the threshold the box will not call: spread + margin (0: always calls)."""
        return _cm(self.spread_cm + self.margin_cm)

    @property
    def source(self) -> str:
        return "measured" if self.measured else "entered"

    @property
    def answer(self) -> bool | None:
        """True or False for a call, None when the player must measure with a tape."""
        return None if self.call is Call.TOO_CLOSE else self.call is Call.YES

    def explain(self) -> str:
        """One line: '104 cm (measured ±0.5) is over 100 cm: yes'."""
        scatter = f" ±{_shown(self.spread_cm)}" if self.measured else ""
        head = f"{_shown(self.cm)} cm ({self.source}{scatter})"
        if self.call is Call.TOO_CLOSE:
            return (f"{head} is within {_shown(self.band_cm)} cm of {_shown(self.threshold_cm)}"
                    f" cm: {self.call.text}")
        verb = "is" if self.call is Call.YES else "is not"
        return (f"{head} {verb} {self.comparison.words} {_shown(self.threshold_cm)} cm: "
                f"{self.call.text}")

    def to_dict(self) -> dict[str, Any]:
        question = QUESTIONS.get(self.question)
        return {
            "question": self.question,
            "text": None if question is None else question.text,
            "threshold_cm": self.threshold_cm,
            "comparison": self.comparison.value,
            "cm": self.cm,
            "source": self.source,
            "spread_cm": self.spread_cm,
            "margin_cm": self.margin_cm,
            "band_cm": self.band_cm,
            "readings": list(self.readings),
            "call": self.call.value,
            "call_text": self.call.text,
            "explain": self.explain(),
        }


def check(question: str, threshold_cm: float, comparison: Comparison | str,
          distance: Measurement | float, margin_cm: float = DEFAULT_MARGIN_CM) -> DistanceCheck:
    """Answer one distance question from a measurement, or from a distance the player entered.

    A measurement is too close to call when its median is within spread + margin of the
    threshold. An entered distance was measured by the player: it is always called (spread 0,
    margin 0), exactly on the threshold by the comparison's own rule.
    """
    try:
        how = Comparison(comparison)
    except ValueError:
        raise RulesError(TankRefusal.UNKNOWN_COMPARISON, comparison=comparison) from None
    if not math.isfinite(threshold_cm) or threshold_cm <= 0:
        raise RulesError(TankRefusal.IMPOSSIBLE_CM, quantity="threshold", cm=threshold_cm)
    if isinstance(distance, Measurement):
        if not math.isfinite(margin_cm) or margin_cm < 0:
            raise RulesError(TankRefusal.IMPOSSIBLE_CM, quantity="margin", cm=margin_cm)
        cm, spread, margin, readings = distance.cm, distance.spread_cm, _cm(margin_cm), \
            distance.readings
    else:
        if not math.isfinite(distance) or distance < 0:
            raise RulesError(TankRefusal.IMPOSSIBLE_CM, quantity="distance", cm=distance)
        cm, spread, margin, readings = _cm(distance), 0.0, 0.0, ()
    band = _cm(spread + margin)
    if band > 0 and _cm(abs(cm - threshold_cm)) <= band:
        call = Call.TOO_CLOSE
    else:
        call = Call.YES if how.holds(cm, threshold_cm) else Call.NO
    return DistanceCheck(question, threshold_cm, how, cm, spread, margin,
                         isinstance(distance, Measurement), readings, call)


def ask(question: str, distance: Measurement | float,
        margin_cm: float = DEFAULT_MARGIN_CM) -> DistanceCheck:
    """Answer one of the rules' own questions (an id of `QUESTIONS`)."""
    known = QUESTIONS.get(question)
    if known is None:
        raise RulesError(TankRefusal.UNKNOWN_QUESTION, question=question, choices=tuple(QUESTIONS))
    return check(known.id, known.threshold_cm, known.comparison, distance, margin_cm)


def fire_range(distance: Measurement | float,
               margin_cm: float = DEFAULT_MARGIN_CM) -> DistanceCheck:
    """Is the range over 100 cm (-1 to hit)?"""
    return ask(FIRE_RANGE, distance, margin_cm)


def spotting(distance: Measurement | float, binoculars: bool,
             margin_cm: float = DEFAULT_MARGIN_CM) -> DistanceCheck:
    """Is an enemy figure within 30 cm (40 cm with binoculars) of a hidden piece?"""
    return ask(SPOTTING_BINOCULARS if binoculars else SPOTTING, distance, margin_cm)


def setup_attacker_edge(distance: Measurement | float,
                        margin_cm: float = DEFAULT_MARGIN_CM) -> DistanceCheck:
    """Is an attacking piece within 40 cm of its own edge?"""
    return ask(SETUP_ATTACKER_EDGE, distance, margin_cm)


def setup_defender_from_attackers(distance: Measurement | float,
                                  margin_cm: float = DEFAULT_MARGIN_CM) -> DistanceCheck:
    """Is a defending piece at least 30 cm from the nearest attacking piece?"""
    return ask(SETUP_DEFENDER_FROM_ATTACKERS, distance, margin_cm)


def setup_defender_from_edge(distance: Measurement | float,
                             margin_cm: float = DEFAULT_MARGIN_CM) -> DistanceCheck:
    """Is a defending piece at least 40 cm from the attacker's edge?"""
    return ask(SETUP_DEFENDER_FROM_EDGE, distance, margin_cm)


def range_modifier(answer: DistanceCheck) -> Modifier | None:
    """The Tank Game's -1 to hit for a range over 100 cm, None when it is not over.

    A range too close to call is refused: the player measures with a tape and says.
    """
    if answer.question != FIRE_RANGE or answer.threshold_cm != FIRE_RANGE_CM \
            or answer.comparison is not Comparison.OVER:
        raise RulesError(TankRefusal.NOT_FIRE_RANGE, question=answer.question)
    if answer.call is Call.TOO_CLOSE:
        raise RulesError(TankRefusal.RANGE_TOO_CLOSE, cm=answer.cm, limit=FIRE_RANGE_CM)
    if answer.call is Call.NO:
        return None
    return Modifier(f"range {_shown(answer.cm)} cm ({answer.source}) is over {FIRE_RANGE_CM} cm",
                    -1)
