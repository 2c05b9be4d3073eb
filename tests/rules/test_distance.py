"""Distances: measurement, exact thresholds, the too-close-to-call band and the range modifier."""
from __future__ import annotations

import json

import pytest
from cobi_companion.rules import distance
from cobi_companion.rules.distance import Call, Comparison, Measurement, check, measure
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.tank.hard_fire import RANGE_LIMIT_CM
from hypothesis import given
from hypothesis import strategies as st

# --- measure ---------------------------------------------------------------------------------


def test_median_and_spread_of_an_odd_count():
    m = measure([101.0, 100.4, 100.8, 101.4, 100.6])
    assert m.cm == 100.8
    assert m.spread_cm == 0.6
    assert m.readings == (101.0, 100.4, 100.8, 101.4, 100.6)


def test_median_of_an_even_count_is_the_mean_of_the_middle_two():
    m = measure([99.0, 100.0, 102.0, 103.0])
    assert m.cm == 101.0
    assert m.spread_cm == 2.0


def test_the_offset_is_added_to_every_reading_before_the_median():
    m = measure([105.0, 104.5, 105.5], offset_cm=-4.5)
    assert m.readings == (100.5, 100.0, 101.0)
    assert m.cm == 100.5
    assert m.spread_cm == 0.5
    assert m.offset_cm == -4.5


def test_one_reading_has_no_spread():
    assert measure([42.0]) == Measurement(42.0, 0.0, (42.0,))


def test_sums_compare_as_written():
    # 99.7 + 1.5 is 101.19999999999999 in binary floating point
    assert measure([99.7], offset_cm=1.5).cm == 101.2


@pytest.mark.parametrize(("readings", "offset"), [
    ([], 0.0), ([100.0, -1.0], 0.0), ([float("nan")], 0.0), ([float("inf")], 0.0),
    ([3.0], -5.0), ([3.0], float("nan"))])
def test_measure_refuses(readings, offset):
    with pytest.raises(RulesError):
        measure(readings, offset)


def test_measurement_to_dict_is_json():
    m = measure([30.0, 30.5, 29.5], offset_cm=0.5)
    assert json.loads(json.dumps(m.to_dict())) == {
        "cm": 30.5, "spread_cm": 0.5, "readings": [30.5, 31.0, 30.0], "offset_cm": 0.5}


# --- exact thresholds (entered distances: the player measured) -----------------------------


@pytest.mark.parametrize(("cm", "call"), [
    (100.0, Call.NO), (99.5, Call.NO), (100.5, Call.YES), (100.001, Call.YES), (0.0, Call.NO)])
def test_fire_range_is_over_100_only_above_100(cm, call):
    assert distance.fire_range(cm).call is call


def test_the_fire_range_threshold_is_the_tank_games():
    assert distance.FIRE_RANGE_CM == RANGE_LIMIT_CM == 100


@pytest.mark.parametrize(("cm", "binoculars", "call"), [
    (30.0, False, Call.YES), (30.5, False, Call.NO), (29.0, False, Call.YES),
    (40.0, True, Call.YES), (40.5, True, Call.NO), (35.0, True, Call.YES),
    (35.0, False, Call.NO)])
def test_spotting_within_30_or_40_with_binoculars(cm, binoculars, call):
    answer = distance.spotting(cm, binoculars=binoculars)
    assert answer.call is call
    assert answer.threshold_cm == (40 if binoculars else 30)


@pytest.mark.parametrize(("ask", "cm", "call"), [
    (distance.setup_attacker_edge, 40.0, Call.YES),
    (distance.setup_attacker_edge, 40.1, Call.NO),
    (distance.setup_defender_from_attackers, 30.0, Call.YES),
    (distance.setup_defender_from_attackers, 29.9, Call.NO),
    (distance.setup_defender_from_edge, 40.0, Call.YES),
    (distance.setup_defender_from_edge, 39.9, Call.NO)])
def test_set_up_thresholds_are_inclusive(ask, cm, call):
    assert ask(cm).call is call


def test_every_question_is_registered_with_its_threshold():
    assert {q.id: (q.threshold_cm, q.comparison) for q in distance.QUESTIONS.values()} == {
        "fire_range": (100, Comparison.OVER),
        "spotting": (30, Comparison.WITHIN),
        "spotting_binoculars": (40, Comparison.WITHIN),
        "setup_attacker_edge": (40, Comparison.WITHIN),
        "setup_defender_from_attackers": (30, Comparison.AT_LEAST),
        "setup_defender_from_edge": (40, Comparison.AT_LEAST),
    }
    assert all(q.text for q in distance.QUESTIONS.values())


def test_entered_distances_are_never_too_close_even_on_the_threshold():
    answer = distance.fire_range(100.0, margin_cm=5.0)
    assert answer.call is Call.NO
    assert (answer.measured, answer.spread_cm, answer.margin_cm, answer.readings) == \
        (False, 0.0, 0.0, ())
    assert answer.answer is False


# --- the too-close-to-call band ---------------------------------------------------------------


def test_readings_around_100_8_are_too_close_to_call():
    m = measure([100.2, 100.6, 100.8, 101.0, 101.4])
    assert (m.cm, m.spread_cm) == (100.8, 0.6)
    answer = distance.fire_range(m)
    assert answer.call is Call.TOO_CLOSE
    assert answer.answer is None
    assert answer.band_cm == 2.1
    assert "too close to call — use the tape" in answer.explain()


def test_104_with_a_small_spread_is_over():
    m = measure([103.5, 104.0, 104.5])
    answer = distance.fire_range(m)
    assert (answer.cm, answer.spread_cm, answer.call) == (104.0, 0.5, Call.YES)
    assert answer.explain() == "104 cm (measured ±0.5) is over 100 cm: yes"


def test_the_band_edge_belongs_to_the_band():
    assert distance.fire_range(measure([101.5])).call is Call.TOO_CLOSE
    assert distance.fire_range(measure([101.6])).call is Call.YES
    assert distance.fire_range(measure([98.5])).call is Call.TOO_CLOSE
    assert distance.fire_range(measure([98.4])).call is Call.NO


def test_a_measurement_with_no_spread_and_no_margin_is_called_exactly():
    assert distance.fire_range(measure([100.0]), margin_cm=0).call is Call.NO
    assert distance.spotting(measure([30.0]), binoculars=False, margin_cm=0).call is Call.YES


def test_a_wide_spread_widens_the_band():
    m = measure([96.0, 104.0, 104.0, 104.5, 112.0])
    assert (m.cm, m.spread_cm) == (104.0, 8.0)
    assert distance.fire_range(m).call is Call.TOO_CLOSE


def test_check_to_dict_holds_every_value_used():
    answer = distance.setup_defender_from_attackers(measure([33.0, 33.5, 32.5], offset_cm=1.0))
    d = json.loads(json.dumps(answer.to_dict()))
    assert d == {
        "question": "setup_defender_from_attackers",
        "text": distance.QUESTIONS["setup_defender_from_attackers"].text,
        "threshold_cm": 30, "comparison": "at_least", "cm": 34.0, "source": "measured",
        "spread_cm": 0.5, "margin_cm": 1.5, "band_cm": 2.0, "readings": [34.0, 34.5, 33.5],
        "call": "yes", "call_text": "yes",
        "explain": "34 cm (measured ±0.5) is at least 30 cm: yes"}


def test_generic_check_and_refusals():
    assert check("table", 50, "within", 50.0).call is Call.YES
    assert check("table", 50, "within", 50.0).to_dict()["text"] is None
    with pytest.raises(RulesError, match="comparison"):
        check("table", 50, "under", 10.0)
    with pytest.raises(RulesError):
        check("table", 0, "over", 10.0)
    with pytest.raises(RulesError):
        check("table", 50, "over", -1.0)
    with pytest.raises(RulesError):
        check("table", 50, "over", measure([10.0]), margin_cm=-1)
    with pytest.raises(RulesError, match="unknown distance question"):
        distance.ask("artillery", 10.0)


# --- the range modifier ---------------------------------------------------------------------


def test_range_modifier_names_the_measured_range():
    mod = distance.range_modifier(distance.fire_range(measure([104.0, 103.8, 104.3])))
    assert mod is not None
    assert mod.value == -1
    assert mod.reason == "range 104 cm (measured) is over 100 cm"


def test_range_modifier_for_an_entered_range():
    mod = distance.range_modifier(distance.fire_range(100.5))
    assert mod is not None and mod.reason == "range 100.5 cm (entered) is over 100 cm"
    assert distance.range_modifier(distance.fire_range(100.0)) is None


def test_range_modifier_refuses_too_close():
    with pytest.raises(RulesError, match="tape"):
        distance.range_modifier(distance.fire_range(measure([100.8, 100.2, 101.4])))


def test_range_modifier_refuses_other_questions():
    with pytest.raises(RulesError, match="not the fire range"):
        distance.range_modifier(distance.spotting(20.0, binoculars=False))


# --- properties -------------------------------------------------------------------------------

centimetres = st.integers(min_value=0, max_value=300_000).map(lambda n: n / 1000)
spreads = st.integers(min_value=0, max_value=10_000).map(lambda n: n / 1000)
margins = st.integers(min_value=0, max_value=5_000).map(lambda n: n / 1000)
questions = st.sampled_from(sorted(distance.QUESTIONS))


def measured(cm: float, spread: float) -> Measurement:
    return Measurement(cm, spread, (cm,))


@given(questions, centimetres, spreads, margins)
def test_too_close_only_inside_the_band(question, cm, spread, margin):
    answer = distance.ask(question, measured(cm, spread), margin)
    inside = abs(cm - answer.threshold_cm) <= spread + margin + 1e-9
    if answer.call is Call.TOO_CLOSE:
        assert inside
    elif spread + margin > 0:
        assert abs(cm - answer.threshold_cm) > spread + margin - 1e-9


@given(questions, centimetres, spreads, margins)
def test_outside_the_band_a_measurement_is_called_as_if_entered(question, cm, spread, margin):
    answer = distance.ask(question, measured(cm, spread), margin)
    if answer.call is not Call.TOO_CLOSE:
        assert answer.call is distance.ask(question, cm).call


@given(questions, centimetres, centimetres, spreads, margins)
def test_the_call_is_monotone_in_the_distance(question, a, b, spread, margin):
    """Farther is never less 'over' / 'at least', nor more 'within'; the band sits between."""
    near, far = sorted((a, b))
    order = {Call.NO: 0, Call.TOO_CLOSE: 1, Call.YES: 2}
    calls = [order[distance.ask(question, measured(cm, spread), margin).call] for cm in (near, far)]
    if distance.QUESTIONS[question].comparison is Comparison.WITHIN:
        assert calls[0] >= calls[1]
    else:
        assert calls[0] <= calls[1]


@given(questions, centimetres)
def test_entered_distances_are_always_called(question, cm):
    answer = distance.ask(question, cm)
    assert answer.call is not Call.TOO_CLOSE
    q = distance.QUESTIONS[question]
    assert answer.answer is q.comparison.holds(cm, q.threshold_cm)


@given(st.lists(centimetres, min_size=1, max_size=11),
       st.integers(min_value=-5_000, max_value=5_000).map(lambda n: n / 1000))
def test_median_lies_within_the_readings_and_the_spread_covers_them(readings, offset):
    if round(min(readings) + offset, 3) < 0:
        with pytest.raises(RulesError):
            measure(readings, offset)
        return
    m = measure(readings, offset)
    assert min(m.readings) <= m.cm <= max(m.readings)
    assert all(abs(r - m.cm) <= m.spread_cm + 1e-9 for r in m.readings)
    assert any(abs(abs(r - m.cm) - m.spread_cm) <= 1e-9 for r in m.readings)
