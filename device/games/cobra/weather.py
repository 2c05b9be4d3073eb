"""Cobra's Weather Phase on the box, at the start of each German player turn: the weather rolled
on its column (or forced by the turn), read off the owner's table where the box has none, and
the German movement allowance, the Allied air points and the German supply it brings."""
from __future__ import annotations

from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import LogValue, entry
from cobi_companion.device.core.views import BigWord, Lines
from cobi_companion.device.games.cobra.session import (
    Phased,
    german_ma,
    header,
    press_for,
    refusal,
    save,
    session,
    tables,
)
from cobi_companion.device.ui.widgets import Show
from cobi_companion.rules.cobra import weather as cobra_weather
from cobi_companion.rules.cobra.combat import Nation
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.dice import Aim, Need, Roller, ScriptedDice
from cobi_companion.rules.errors import RulesError

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App


def weather_phase(app: App, home: Next) -> Screen:
    game = session(app).game
    history = game.history()
    if cobra_weather.forced(game.turn, history) is not None:
        return weather_rolled(app, cobra_weather.determine(
            game.turn, history, ScriptedDice([]), tables(app)), home)
    column, _ = cobra_weather.column(game.turn, history)
    drm, _ = cobra_weather.modifier(history)
    line = app.t("weather_column", column=column, drm=f"{drm:+d}")
    weather = Need(Roller.AXIS, Aim.WEATHER, f"weather GT{game.turn}")
    return press_for(app, Nation.GERMAN, [line], weather, lambda face: (
        weather_rolled(app, cobra_weather.determine(game.turn, history, ScriptedDice([face]),
                                                    tables(app)), home)), home)


def weather_rolled(app: App, result: cobra_weather.WeatherRoll, home: Next) -> Screen:
    if result.weather is not None:
        return weather_set(app, result, result.weather, home)
    ask = app.t("read_weather", column=result.column, row=result.row)
    choices = list(Weather)
    return Phased(ask, [app.t("weather_" + w.value) for w in choices],
                  lambda i: weather_set(app, result, choices[i], home), back=home)


def weather_set(app: App, result: cobra_weather.WeatherRoll, weather: Weather,
                home: Next) -> Screen:
    s = session(app)
    try:
        game, supply = s.game.with_weather(weather)
    except RulesError as exc:               # the reason, then the phase indicator
        return refusal(app, exc, home())
    # The phase is over once its weather is known: saved at the next phase, so that a game
    # resumed after a pulled plug goes on from there and never asks for the weather again.
    s.game = game.advance()
    rolled = f"{result.column}: {result.die}{result.modifier:+d} = {result.modified}"
    how = app.say(result.forced) if result.forced else rolled
    save(app, entry("log_weather", weather=weather.value, how=weather_how(result),
                    supply=supply))
    effects = cobra_weather.effects(weather, s.game.turn)     # no air on GT 1 (17.3.10)
    lines = (how, app.t("german_ma", ma=german_ma(app, effects["german_ma"])),
             app.t("air_points", n=effects["allied_air_points"]),
             app.t("german_sp", n=effects["german_supply_points"], total=s.game.tracks.german))
    word = BigWord(header(app, app.t("phase_weather")), app.t("WEATHER_" + weather.value),
                   how)
    return Show([word, Lines(header(app, app.t("phase_weather")), lines,
                             hint=app.t("ok_next"))], home)


def weather_how(result: cobra_weather.WeatherRoll) -> LogValue:
    """How the weather was found, for the log: why it was not rolled, or the roll."""
    if result.forced is not None:
        return result.forced
    assert result.die is not None and result.modified is not None   # rolled, not forced
    return entry("log_weather_roll", column=result.column, die=result.die,
                 modifier=result.modifier, modified=result.modified)

