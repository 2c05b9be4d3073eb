"""The details a parent opens where the box says a chance in a child's words: the exact
chances and the rules' terms behind them, in the app's language. The command line's
explanations (cli/explain.py) give the same chances in English; these are their lines for the
panel, made from the rules' typed odds and from what the box asked the players (hull down,
over 100 cm), never from the rules' sentences."""
from __future__ import annotations

from fractions import Fraction

from cobi_companion.device.core.app import App
from cobi_companion.device.core.battle_state import LastShot
from cobi_companion.device.core.worded import joined
from cobi_companion.device.ui.outcome_words import BIG_WORDS
from cobi_companion.device.ui.wording import in_six, percent
from cobi_companion.rules.levels import rule_set
from cobi_companion.rules.odds import OUTCOMES, Odds
from cobi_companion.rules.tank.soft_odds import SoftOdds
from cobi_companion.words.grammar import Listed
from cobi_companion.words.grammar import with_decimal_mark as decimal


def shot_details(app: App, odds: Odds, aim: LastShot, level: str,
                 crew_below_half: bool = False) -> list[str]:
    """A shot at one piece before it is fired: to hit (what it needs, the modifiers by their
    rules' names), the reload, every outcome in per cent; at the Easy level how far the gun
    may turn."""
    rules = rule_set(level)
    needs = str(odds.needed) if rules.hit_range else f"{odds.needed.low}+"
    lines = [app.t("details_hit", chance=in_six(app, odds.hit), needs=needs)]
    total = sum(m.value for m in odds.modifiers)
    names = [app.t(key) for key, asked in (
        ("rule_hull_down", aim.hull_down), ("rule_over_100", aim.over or (aim.range_cm or 0) > 100),
        ("rule_crew_half", crew_below_half)) if asked]
    if total or names:
        lines.append(app.t("details_modifiers", total=f"{total:+d}",
                           names=Listed(tuple(names), app.settings.language)))
    if odds.reload is not None:
        lines.append(app.t("details_reload", chance=in_six(app, odds.reload)))
    lines += [joined(": ", app.t(BIG_WORDS[effect]).capitalize(),
                      percent(app, odds.effects[effect]))
              for effect in reversed(OUTCOMES)]
    if rules.turn_limit:
        lines.append(app.t("details_aim"))
    return lines


def soft_details(app: App, odds: SoftOdds, he: bool) -> list[str]:
    """Fire at figures: (HE's or a grenade's to hit, a main gun's reload,) the figures that
    fall on average, and the chance of each number of them."""
    lines = []
    if he or odds.hit != 1:           # HE, or a grenade's To hit
        lines.append(app.t("details_hit_only", chance=in_six(app, odds.hit)))
    if odds.reload is not None:       # HE, or a main gun without HE
        lines.append(app.t("details_reload", chance=in_six(app, odds.reload)))
    lines.append(app.t("details_average", n=average(app, odds.expected_down),
                       of=len(odds.down) - 1))
    lines += [app.t("details_n_down", n=n, chance=percent(app, p))
              for n, p in enumerate(odds.down)]
    return lines


def average(app: App, value: Fraction) -> str:
    """A mean to two decimals, with the language's decimal mark."""
    return decimal(f"{float(value):.2f}", app.settings.language)
