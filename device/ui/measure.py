"""Distances on the box: measure with a range sensor, or dial the centimetres with the knob,
then answer the rule's question (yes, no, or too close to call — use the tape)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import entry
from cobi_companion.device.core.views import BigWord, View
from cobi_companion.device.ports.events import Key, SensorReading, SensorState
from cobi_companion.device.ports.range_reader import Sample
from cobi_companion.device.ui.widgets import Choose, notice, yes_no
from cobi_companion.rules.distance import QUESTIONS, Call, DistanceCheck, ask

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

Answer = Callable[[DistanceCheck, bool], Screen]     # the check, and the answer to act on
# A measurement gives up ("No measurement", why, "use the tape") after this long without a
# new valid reading (invalid frames are no progress: a sensor that sees nothing keeps talking),
# and after MEASURE_LIMIT_S in all, however slowly valid readings trickle in.
GIVE_UP_S = 4.0
MEASURE_LIMIT_S = 15.0
CM_LIMIT = 500         # the knob dials 0–500 cm


def distance(app: App, question: str, then: Answer, back: Next) -> Screen:
    """How to get the distance: each sensor that is online, or the knob."""
    def measure(name: str) -> Screen:
        return Measuring(question, name, then, back).begin(app)
    ways: list[tuple[str, Next]] = [(app.t("measure_with", sensor=name), partial(measure, name))
                                    for name in app.sensors.online_names()]
    ways.append((app.t("enter_cm"), lambda: DialCm(question, then, back)))
    if len(ways) == 1:
        return ways[0][1]()
    return Choose(app.t("how_measure"), [label for label, _ in ways], lambda i: ways[i][1](),
                  back)


class CmKnob(Screen):
    """The player measured with a tape and dials the centimetres (0–500) with the knob; OK or
    a dice button confirms. A screen sets `cm`, `back` and `title` and says what `confirm`
    does with the centimetres."""

    cm: int
    back: Next
    title = "enter_cm"

    def confirm(self, app: App) -> Screen:
        raise NotImplementedError

    def view(self, app: App) -> View:
        return BigWord(app.header(app.t(self.title)), f"{self.cm} cm", app.t("dial_cm_hint"))

    def on(self, app: App, key: Key) -> Screen:
        if key is Key.CW:
            self.cm = min(self.cm + 1, CM_LIMIT)
        elif key is Key.CCW:
            self.cm = max(self.cm - 1, 0)
        elif key in (Key.OK, Key.AXIS, Key.ALLIES):
            return self.confirm(app)
        elif key is Key.BACK:
            return self.back()
        return self


@dataclass
class DialCm(CmKnob):
    """The distance of a rule's question, dialled: then the rule answers it."""

    question: str
    then: Answer
    back: Next
    cm: int = -1                          # -1: start at the rule's threshold

    def __post_init__(self) -> None:
        if self.cm < 0:
            self.cm = int(QUESTIONS[self.question].threshold_cm)

    def confirm(self, app: App) -> Screen:
        return answered(app, ask(self.question, float(self.cm)), self.then, self.back)


@dataclass
class Measuring(Screen):
    """The sensor's readings come in; their median is the distance."""

    question: str
    sensor: str
    then: Answer
    back: Next
    sample: Sample = field(default_factory=lambda: Sample(0))
    # The screen knows the time only from ticks: None here means "from the next tick".
    started: float | None = None
    last_progress: float | None = None

    def begin(self, app: App) -> Screen:
        config = app.sensors.config(self.sensor)
        self.sample = Sample(config.samples, config.offset_cm)
        app.sensors.want(self.sensor, config.samples)
        return self

    def view(self, app: App) -> View:
        done = f"{len(self.sample.good)}/{self.sample.wanted}"
        return BigWord(app.header(app.t("measuring")), app.t("measuring_word"),
                       f"{self.sensor} · {done}")

    def on(self, app: App, key: Key) -> Screen:
        if key is Key.BACK:
            app.sensors.want(self.sensor, 0)
            return self.back()
        return self

    def on_sensor(self, app: App, event: SensorReading | SensorState) -> Screen:
        if isinstance(event, SensorState):
            return self if event.online else self._lost(app)
        if event.sensor != self.sensor:
            return self
        valid = len(self.sample.good)
        self.sample.add(event.reading)
        if self.sample.done:
            return self._finish(app)
        if len(self.sample.good) > valid:
            self.last_progress = None
        return self

    def tick(self, app: App, now: float) -> Screen:
        if self.started is None:
            self.started = now
        if self.last_progress is None:
            self.last_progress = now
        if now - self.last_progress >= GIVE_UP_S or now - self.started >= MEASURE_LIMIT_S:
            return self._finish(app)
        return self

    def _finish(self, app: App) -> Screen:
        app.sensors.want(self.sensor, 0)
        taken = self.sample.measurement()
        if taken is None:
            reason = self.sample.result().condition.value
            return notice(app, app.t("no_measurement"), [app.t(f"why_{reason}"),
                                                         app.t("enter_instead")],
                          lambda: DialCm(self.question, self.then, self.back))
        margin = app.sensors.config(self.sensor).margin_cm
        return answered(app, ask(self.question, taken, margin), self.then, self.back)

    def _lost(self, app: App) -> Screen:
        return notice(app, app.t("sensor_lost"), [self.sensor, app.t("enter_instead")],
                      lambda: DialCm(self.question, self.then, self.back))


def answered(app: App, check: DistanceCheck, then: Answer, back: Next) -> Screen:
    """The call in one big word with the distance; too close to call: the players decide."""
    shown = f"{check.cm:g} cm" + (f" ±{check.spread_cm:g}" if check.measured else "")
    sign = {"over": ">", "within": "≤", "at_least": "≥"}[check.comparison.value]
    detail = f"{shown} · {sign} {check.threshold_cm:g} cm"
    measured = {"spread": check.spread_cm} if check.measured else {}
    app.log_line(entry("log_distance_measured" if check.measured else "log_distance",
                       question=check.question, cm=check.cm, sign=sign,
                       threshold=check.threshold_cm, call=check.call.value, **measured))
    word = BigWord(app.header(app.t("q_" + check.question)), app.t(f"call_{check.call.value}"),
                   detail)
    if check.call is Call.TOO_CLOSE:
        return ShowThen(word, lambda: yes_no(app, app.t("q_" + check.question),
                                             lambda yes: then(check, yes), back))
    return ShowThen(word, lambda: then(check, check.call is Call.YES))


@dataclass
class ShowThen(Screen):
    """One view until OK (or a dice button); a long press opens the menu."""

    shown: View
    next: Next

    def view(self, app: App) -> View:
        return self.shown

    def on(self, app: App, key: Key) -> Screen:
        if key in (Key.OK, Key.AXIS, Key.ALLIES):
            return self.next()
        if key is Key.BACK:
            return app.menu(self)
        return self


def check_distance(app: App, back: Next) -> Screen:
    """The "check distance" screen: pick a rule's question, measure, see the answer."""
    ids = list(QUESTIONS)

    def again(check: DistanceCheck, answer: bool) -> Screen:
        return check_distance(app, back)
    return Choose(app.t("check_distance"), [app.t("q_" + q) for q in ids],
                  lambda i: distance(app, ids[i], again, lambda: check_distance(app, back)),
                  back)
