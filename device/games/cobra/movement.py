"""Cobra's movement allowance on the box: the printed MA dialled, its changes toggled, the MA
shown big with its steps (5.2c, 5.3b, 5.3c, 10.6, 12.1b, 17.3.3b, 17.3.9), and the German MA
increase with the air attack rolled on the German button (5.3d). The rules
(rules/cobra/movement.py) do the sums; these screens only collect what the players choose and
show the trace."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import entry
from cobi_companion.device.core.views import BigWord, Lines
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.cobra.session import (
    Phased,
    german_ma,
    header,
    number,
    press_for,
    refusal,
    save,
    session,
)
from cobi_companion.device.ui.widgets import Show
from cobi_companion.rules.cobra.combat import Nation
from cobi_companion.rules.cobra.exits import first_exit
from cobi_companion.rules.cobra.movement import (
    AIR_RISK,
    LANDED_LAST,
    PRINTED_MAX,
    Allowance,
    MaStep,
    air_attack,
    allowance,
)
from cobi_companion.rules.cobra.supply import always_in_supply
from cobi_companion.rules.cobra.turns import CobraGame, scenario
from cobi_companion.rules.cobra.weather import GERMAN_MA
from cobi_companion.rules.dice import Aim, Need, Roller, ScriptedDice
from cobi_companion.rules.errors import RulesError

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

PRINTED_START = 6           # the knob starts on the rules' example (5.3b)
PHASE = {"initial_movement": "initial", "mechanized_movement": "mechanized"}


@dataclass
class Movement:
    """One unit's MA as dialled: its printed MA and what the players toggled."""

    printed: int
    out_of_supply: bool = False
    replaced: bool = False
    british_infantry: bool = False      # the Allied Mechanized Movement Phase only (5.2c)
    landed: bool = False                # landed this turn, GT 1-14 of a landing game (17.3.9)
    home: Next = field(kw_only=True)    # the way back to the hub

    def worked(self, app: App, increase: int = 0) -> Allowance:
        """The MA the rules give in this phase of the game in play."""
        game = session(app).game
        phase = PHASE[game.phase.name]
        german = game.phase.player is Nation.GERMAN
        # German: only mechanized units move in the Mechanized Movement Phase (4.0 G5); the
        # first German player turn after the first Allied exit (5.3c, docs/rules-notes.md).
        exited = first_exit(game.exits)
        army = "german" if german else "british" if self.british_infantry else "us"
        return allowance(self.printed, army, phase=phase,
                         mechanized=phase == "mechanized" and not self.british_infantry,
                         weather=game.this_weather, out_of_supply=self.out_of_supply,
                         after_exit=german and exited is not None and exited == game.turn - 1,
                         replaced=self.replaced, increase=increase, turn=game.turn,
                         landed=self.landed)

    def menu(self, app: App, index: int = 0) -> Screen:
        game = session(app).game
        try:
            now = self.worked(app)
        except RulesError as exc:            # the weather not known: the reason, the hub
            return refusal(app, exc, self.home())
        items: list[tuple[str, str]] = [(app.t("ma_show", ma=now.ma), "show")]
        # every unit is in supply on GT 1 and 2 (17.3.6, 17.3.6d): no "out of supply" then
        toggles = ["landed"] if may_land(game) else []
        if not always_in_supply(game.turn):
            toggles.append("out_of_supply")
        if now.phase == "initial":
            toggles.append("replaced")          # halved in the Initial Movement Phase (4.0)
        elif game.phase.player is Nation.ALLIED:
            toggles.append("british_infantry")  # two thirds in this phase (5.2c)
        items += [(joined(" ", "+" if getattr(self, name) else "-", app.t("ma_" + name)), name)
                  for name in toggles]
        items += [(app.t("ma_increase", n=k, low=AIR_RISK[k]), f"increase{k}")
                  for k in range(1, now.increase_most + 1)]

        def chosen(i: int) -> Screen:
            key = items[i][1]
            if key == "show":
                return self.shown(app, now, lambda: self.menu(app, i))
            if key.startswith("increase"):
                return self.increased(app, int(key[-1]))
            setattr(self, key, not getattr(self, key))
            return self.menu(app, i)
        return Phased(app.t("ma_title", printed=self.printed), [label for label, _ in items],
                      chosen, back=self.home, index=index)

    def shown(self, app: App, now: Allowance, then: Callable[[], Screen]) -> Screen:
        """The MA big, then its steps."""
        title = app.t("movement")
        # the steps made: the box offers a replacement's halving only where it applies (4.0)
        lines = tuple(step_words(app, now, step) for step in now.steps if step.applied)
        return Show([BigWord(header(app, title), app.t("MA_MP", ma=now.ma), lines[-1]),
                     Lines(header(app, title), lines, hint=app.t("ok_next"))], then)

    def increased(self, app: App, increase: int) -> Screen:
        """The increased MA, then the air attack on the German button when the unit has moved
        (5.3d1); the outcome big, logged."""
        now = self.worked(app, increase)

        def rolled(face: int) -> Screen:
            attack = air_attack(increase, ScriptedDice([face]))
            outcome = "STEP_LOST" if attack.lost else "NO_LOSS"
            save(app, entry("log_air_attack", increase=increase, ma=now.ma, die=face,
                            result=entry(outcome)))
            return Show([BigWord(header(app, app.t("air_attack")), app.t(outcome),
                                 app.t("air_die", die=face, low=attack.risk))],
                        lambda: self.menu(app))
        need = Need(Roller.AXIS, Aim.AIR_ATTACK, f"air attack, MA +{increase}/3")
        lines = [app.t("ma_increased", ma=now.ma, n=increase),
                 app.t("air_risk", low=AIR_RISK[increase]), app.t("no_overrun")]
        return press_for(app, Nation.GERMAN, lines, need, rolled, self.home)


def may_land(game: CobraGame) -> bool:
    """An Allied Movement Phase of GT 1-14 of the campaign or the Build-Up, where a unit that
    lands this turn has half its MA (17.3.9)."""
    return game.phase.player is Nation.ALLIED and scenario(game.scenario).landing and \
        game.turn <= LANDED_LAST


def step_words(app: App, now: Allowance, step: MaStep) -> str:
    """One step of the MA as the panel says it: what changed it, and the MA after it."""
    if step.key == "weather" and now.weather is not None:
        return app.t("ma_step_weather", weather=app.t("weather_" + now.weather.value),
                     off=german_ma(app, GERMAN_MA[now.weather]), ma=step.ma)
    if step.key == "increase":
        return app.t("ma_increased", ma=step.ma, n=now.increase)
    return app.t("ma_step_" + step.key, ma=step.ma)


def movement(app: App, home: Next) -> Screen:
    """The printed MA on the knob, then the unit's menu; back: the hub (`home`)."""
    return number(app, app.t("printed_ma"), PRINTED_START,
                  lambda printed: Movement(printed, home=home).menu(app), home, low=1,
                  high=PRINTED_MAX)

