"""The Easy level's own refusals: the codes only its rules (rules/easy/fire.py) raise, written
as the shared ones are (rules/errors.py) and the Tank Game's (rules/tank/refusals.py)."""
from __future__ import annotations

from cobi_companion.rules.errors import Coded


class EasyRefusal(Coded):
    """Every kind of refusal only the Easy level's rules make, one member each."""

    EASY_NO_MODIFIERS = "easy_no_modifiers"
    EASY_NO_TOP = "easy_no_top"
