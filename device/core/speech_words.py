"""The box's spoken words, in English and Polish: a template for every kind of thing it says
(device/core/spoken.py cuts each at its values into phrases, rendered once into the voice's
cache), and the numbers as a child says them.

Written to be heard, not read: short sentences, the side or piece first, no abbreviations, no
rule numbers, and every value a name, a number or another template.
"""
from __future__ import annotations

NUMBERS: dict[str, tuple[str, ...]] = {
    "en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
           "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
           "eighteen", "nineteen", "twenty"),
    "pl": ("zero", "jeden", "dwa", "trzy", "cztery", "pięć", "sześć", "siedem", "osiem",
           "dziewięć", "dziesięć", "jedenaście", "dwanaście", "trzynaście", "czternaście",
           "piętnaście", "szesnaście", "siedemnaście", "osiemnaście", "dziewiętnaście",
           "dwadzieścia"),
}

SPEECH_WORDS: dict[str, tuple[str, str]] = {
    # outcomes
    "say_hit": ("{firer} hits!", "{firer} trafia!"),
    "say_miss": ("{firer} misses.", "{firer} pudłuje."),
    # prompts
    "say_press": ("{side}: press your button.", "{side}: wciśnij przycisk."),
}
