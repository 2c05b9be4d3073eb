"""What the screens say of the rules' typed results, in the app's language and from its word
tables: chances ("4 in 6", "12.5%"), numbers with the language's decimal mark, weapon names,
and the die a rule asks for as the real-dice dial names it (from the need's roller, aim, piece,
figure and number, never from its words)."""
from __future__ import annotations

from fractions import Fraction

from cobi_companion.device.core.app import App
from cobi_companion.device.core.i18n import STRINGS
from cobi_companion.device.core.words import number
from cobi_companion.device.ui import explain
from cobi_companion.rules.dice import Aim, Need

# The dice a need names by its aim alone, and their words.
AIMS = {Aim.TO_HIT: "to_hit", Aim.RELOAD: "reload_roll", Aim.ARMOUR: "need_armour_plus",
        Aim.EXTRA: "need_extra", Aim.WEATHER: "need_weather", Aim.COMBAT: "need_combat",
        Aim.EXTENSION: "extension", Aim.QUICK: "quick_dice", Aim.LECLERC: "leclerc",
        Aim.RELEASE: "release", Aim.BREST: "brest", Aim.AIR_ATTACK: "need_air_attack",
        Aim.SCATTER: "need_scatter"}


def percent(app: App, p: Fraction) -> str:
    """A chance in per cent, as the command line writes it, with the language's decimal
    mark."""
    shown = explain.percent(p)
    return shown.replace(".", ",") if app.settings.language == "pl" else shown


def whole_percent(p: Fraction) -> str:
    """A chance in whole per cent, for a line that must fit the panel beside the chance to
    hit: 67%; under 1%, <1%; a certainty 100%."""
    if p > 0 and p < Fraction(1, 100):
        return "<1%"
    return f"{round(p * 100)}%"


def in_six(app: App, p: Fraction) -> str:
    """'4 in 6' where the chance is a whole number of faces, else a percentage."""
    sixes = p * 6
    return app.t("in_six", n=sixes.numerator) if sixes.denominator == 1 else percent(app, p)


def decimal(app: App, value: float) -> str:
    """A number to one decimal, without a trailing zero: 1.5, 2 (Polish: 1,5)."""
    shown = f"{value:.1f}".rstrip("0").rstrip(".")
    return number(float(shown), app.settings.language) if "." in shown else shown


def weapon_words(app: App, name: str) -> str:
    """A weapon's name in the language's words; a name the tables do not know, as the card
    writes it."""
    key = f"weapon_{name.lower()}"
    return app.t(key) if key in STRINGS else name


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
