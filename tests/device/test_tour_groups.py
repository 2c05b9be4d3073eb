"""The tour is taken a language at a time, each on the worker of its language's tests
(conftest's taken_tour, tour.each_language): a test sees only the languages of its groups."""
from __future__ import annotations

import pytest
from tour import LANGUAGES, in_language

from .conftest import Tours


@in_language("en")
def test_a_test_of_a_language_is_given_that_language_s_tour(taken_tour: Tours) -> None:
    assert taken_tour.allowed == {"en"}
    assert list(taken_tour) == list(LANGUAGES) == ["en", "pl", "de"]


def test_a_test_reads_only_the_tour_of_its_group(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    tours = Tours(tmp_path_factory, frozenset({"en"}))
    with pytest.raises(AssertionError, match=r"reads the 'pl' tour outside its xdist group"):
        tours["pl"]
    with pytest.raises(KeyError):
        tours["xx"]                 # no language of the registry
