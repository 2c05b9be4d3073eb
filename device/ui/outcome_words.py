"""What the box's screens and the command line's explanations (cli/explain.py) both say of an
outcome: an effect's big word (the screens' key in the word tables, the terminal's English) and
a chance in per cent."""
from __future__ import annotations

from fractions import Fraction

from cobi_companion.rules.status import Effect

BIG_WORDS = {
    Effect.MISS: "MISS",
    Effect.NONE: "NO EFFECT",
    Effect.IMMOBILIZED: "IMMOBILIZED",
    Effect.WEAKENED: "WEAKENED",
    Effect.GUN_DESTROYED: "GUN LOST",
    Effect.DESTROYED: "DESTROYED",
}


def percent(p: Fraction) -> str:
    value = float(p) * 100
    if p == 0:
        return "0%"
    if value < 0.1:
        return "<0.1%"
    return f"{value:.1f}%"
