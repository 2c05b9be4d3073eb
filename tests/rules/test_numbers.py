"""Numbers a person types: ASCII digits only, finite, in the caller's range; and how a bad one
is repeated in a refusal."""
from __future__ import annotations

import math

import pytest
from cobi_companion.rules.dice import DiceError, parse_faces
from cobi_companion.rules.numbers import decimal, digits, echo, whole
from hypothesis import given
from hypothesis import strategies as st

NOT_ASCII_DIGITS = ["²", "٣", "３", "①", "߃", "1²", "٣0"]   # all str.isdigit() or int()-able


@pytest.mark.parametrize("text", NOT_ASCII_DIGITS)
def test_only_the_ascii_digits_are_digits(text: str) -> None:
    assert whole(text, -100, 100) is None
    assert decimal(text, -100, 100) is None


@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-inf", "infinity", "1e3", "0x10",
                                  "1_000", "", " ", "+", "-", ".", "1.2.3", "1,5", "--1"])
def test_words_exponents_and_odd_forms_are_no_numbers(text: str) -> None:
    assert whole(text, -10**6, 10**6) is None
    assert decimal(text, -10**6, 10**6) is None


def test_the_range_is_inclusive_and_signs_and_spaces_are_read() -> None:
    assert [whole(t, 1, 6) for t in ("1", "6", "0", "7", " 3 ", "+3", "-3")] == \
        [1, 6, None, None, 3, 3, None]
    assert [decimal(t, 0, 1000) for t in ("0", "1000", "12.5", ".5", "5.", "-0.5", "1000.1")] \
        == [0.0, 1000.0, 12.5, 0.5, 5.0, None, None]


def test_thousands_of_digits_are_out_of_range_not_an_error() -> None:
    nines = "9" * 5000         # int() itself refuses 4,300 digits and more
    assert whole(nines, 0, 10**20) is None and decimal(nines, 0, 1e300) is None
    assert whole("0" * 5000 + "7", 0, 9) == 7     # leading zeros are no size


@given(st.integers(-10**12, 10**12))
def test_every_whole_number_written_plainly_is_read_back(n: int) -> None:
    assert whole(str(n), -10**12, 10**12) == n
    assert whole(str(n), n + 1, n + 2) is None


@given(st.text(max_size=12))
def test_whatever_is_typed_a_read_number_is_finite_and_in_range(text: str) -> None:
    value = decimal(text, -50, 50)
    assert value is None or (math.isfinite(value) and -50 <= value <= 50)
    number = whole(text, -50, 50)
    assert number is None or -50 <= number <= 50
    if number is not None:
        assert text.strip().lstrip("+-").isascii()


def test_a_refusal_repeats_a_number_plainly_and_anything_else_quoted_and_short() -> None:
    assert [echo(t) for t in ("7", "-1", "12.5", "nan", "²", "a b")] == \
        ["7", "-1", "12.5", "'nan'", "'²'", "'a b'"]
    assert echo("9" * 5000) == "9" * 40 + "…"
    assert echo("x\n" * 100).count("\n") == 0          # a new line is escaped, never printed


@pytest.mark.parametrize("text", NOT_ASCII_DIGITS)
def test_dice_faces_are_ascii_digits(text: str) -> None:
    with pytest.raises(DiceError, match="is not a D6 face: a face is a whole number from 1"):
        parse_faces(f"3,{text}")


def test_a_face_of_thousands_of_digits_is_refused_in_a_short_line() -> None:
    with pytest.raises(DiceError) as raised:
        parse_faces("9" * 5000)
    assert len(str(raised.value)) < 120


def test_digits_are_the_ten_ascii_digits_only() -> None:
    assert digits("2477") and digits("0")
    for text in ("", "²", "٣", "12²", "+1", "1_000", " 1", "1.0"):
        assert not digits(text), text
