"""The journeys of the tour of the box (tour.py), one module per game or area: a feature adds
to its own journey, or adds a journey here. Each journey plays boxes of its own; the order is
the tour's (a journey sees the items and strings the ones before it tried and showed)."""
from __future__ import annotations

import gc
from pathlib import Path

from tour import Make, Taken, Tour

from journeys.box import journey_box
from journeys.cobra import journey_cobra, journey_cobra_movement, journey_victory
from journeys.cobra_bookkeeping import journey_cobra_bookkeeping
from journeys.dice import journey_smart_dice
from journeys.easy import journey_easy
from journeys.match import journey_match
from journeys.sensor import journey_sensor
from journeys.tank import (
    journey_big_squads,
    journey_fights,
    journey_house,
    journey_learn,
    journey_marks,
    journey_riders,
    journey_slips,
    journey_tank,
)
from journeys.trouble import journey_trouble
from journeys.words import journey_words

JOURNEYS = (journey_box, journey_easy, journey_tank, journey_fights, journey_riders,
            journey_learn, journey_house, journey_marks, journey_match, journey_slips,
            journey_cobra, journey_victory,
            journey_cobra_movement, journey_cobra_bookkeeping, journey_sensor,
            journey_words, journey_trouble, journey_big_squads, journey_smart_dice)


def take_tour(make: Make, folder: Path, language: str) -> Taken:
    """Every frame of the tour in `language`, and what the boxes said; `folder` is the
    tour's own (state, cards)."""
    tour = Tour(make, folder, language)
    try:
        with tour.said.listening():
            for journey in JOURNEYS:
                journey(tour)
    finally:
        gc.unfreeze()           # what the tour kept from the collector's sight (Tour.box)
    return Taken(tour.seen, tour.said)
