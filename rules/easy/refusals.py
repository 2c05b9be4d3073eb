"""The Easy level's own refusals: the codes only its rules (rules/easy/fire.py) raise, written
as the shared ones are (rules/errors.py) and the Tank Game's (rules/tank/refusals.py)."""
from __future__ import annotations

from cobi_companion.rules.errors import Coded, english


class EasyRefusal(Coded):
    """Every kind of refusal only the Easy level's rules make, one member each."""

    EASY_NO_MODIFIERS = "easy_no_modifiers"
    EASY_NO_TOP = "easy_no_top"


# Each code's English, the one place it is written: the rules' message (`str(exc)`) and
# the catalogues' English (refusal_<code> in words/locale/companion.pot, extracted by
# `python3 run.py catalogues`) are both made from it.
ENGLISH: dict[EasyRefusal, str] = english({
    EasyRefusal.EASY_NO_MODIFIERS: (
        "the Easy level has no modifiers: hull down, range and crew belong to the Tank Game"),
    EasyRefusal.EASY_NO_TOP: (
        "the Easy level hits front, side or rear armour: the top armour belongs to the Tank Game"),
})
