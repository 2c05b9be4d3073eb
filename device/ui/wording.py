"""What the screens say of the rules' typed results, in the app's language and from its word
tables: chances in a child's words ("likely", "50–50") and exactly ("4 in 6", "12.5%"),
numbers with the language's decimal mark, weapon names, and the die a rule asks for as the
real-dice dial names it (from the need's roller, aim, piece, figure and number, never from its
words)."""
from __future__ import annotations

from fractions import Fraction

from cobi_companion.device.core import i18n
from cobi_companion.device.core.app import App
from cobi_companion.device.ui import outcome_words
from cobi_companion.rules.dice import Aim, Need
from cobi_companion.words.grammar import with_decimal_mark

# The dice a need names by its aim alone, and their words.
AIMS = {Aim.TO_HIT: "to_hit", Aim.RELOAD: "reload_roll", Aim.ARMOUR: "need_armour_plus",
        Aim.EXTRA: "need_extra", Aim.WEATHER: "need_weather", Aim.COMBAT: "need_combat",
        Aim.EXTENSION: "extension", Aim.QUICK: "quick_dice", Aim.LECLERC: "leclerc",
        Aim.RELEASE: "release", Aim.BREST: "brest", Aim.AIR_ATTACK: "need_air_attack",
        Aim.SCATTER: "need_scatter"}


# A chance in a child's words, by bands: none; under 10% a tiny chance; under 40% unlikely;
# 40% to 60% 50–50; to 90% likely; over 90% almost sure; a certainty sure. A die's faces fall
# apart: 1 or 2 in 6 unlikely, 3 in 6 50–50, 4 or 5 in 6 likely. The exact chance is on the
# details a parent opens (OK on the shot before it is fired), as the command line gives it.
BANDS: tuple[tuple[Fraction, bool, str], ...] = (      # (up to, that one included, key)
    (Fraction(0), True, "chance_none"),
    (Fraction(1, 10), False, "chance_tiny"),
    (Fraction(2, 5), False, "chance_unlikely"),
    (Fraction(3, 5), True, "chance_even"),
    (Fraction(9, 10), True, "chance_likely"),
    (Fraction(1), False, "chance_almost"),
)

# A number written with a point, as a language writes it (words/grammar.py).
decimal = with_decimal_mark


def chance_key(p: Fraction) -> str:
    """The word table's key of the band `p` falls in."""
    for top, included, key in BANDS:
        if p < top or (included and p == top):
            return key
    return "chance_sure"


def chance(app: App, p: Fraction) -> str:
    """A chance in a child's words: "no chance", "tiny chance", "unlikely", "50–50",
    "likely", "almost sure", "sure"."""
    return app.t(chance_key(p))


def percent(app: App, p: Fraction) -> str:
    """A chance in per cent, as the command line writes it, with the language's decimal
    mark."""
    return decimal(outcome_words.percent(p), app.settings.language)


def in_six(app: App, p: Fraction) -> str:
    """'4 in 6' where the chance is a whole number of faces, else a percentage."""
    sixes = p * 6
    return app.t("in_six", n=sixes.numerator) if sixes.denominator == 1 else percent(app, p)


def weapon_words(app: App, name: str) -> str:
    """A weapon's name in the language's words; a name the tables do not know, as the card
    writes it."""
    key = f"weapon_{name.lower()}"
    return app.t(key) if i18n.has(key) else name


def need_words(app: App, need: Need) -> str:
    """The die `need` asks for, as the real-dice dial names it."""
    if need.aim in AIMS:
        return app.t(AIMS[need.aim])
    if need.aim is Aim.DAMAGE:
        return app.t("need_damage_die", n=need.number) if need.number is not None else \
            app.t("need_damage_plus")
    if need.aim is Aim.INITIATIVE:
        return app.t("need_initiative", side=app.side_name(need.roller.value))
    target = app.t("figure_no", label=need.piece, n=need.figure) \
        if need.figure is not None else need.piece
    if need.aim is Aim.OVERRUN:
        return app.t("need_overrun", target=target)
    if need.shot is not None:
        target = app.t("need_shot", target=target, n=need.shot)
    return app.t("need_defence" if need.aim is Aim.DEFENCE else "need_attack", target=target)
