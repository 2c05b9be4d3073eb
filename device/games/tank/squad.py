"""A squad's next figures fire as its first did: the same weapon at the same target, where it
is and at the same range, without asking again.

A squad fires figure by figure (rules.tank.turns: each weapon once a figure). Once a figure has
fired a single shot at a figure, a gun's crew or a soft vehicle (`fire.start` keeps it as the
piece's `SquadAim`), the squad's next shot opens on that shot's preview: its odds, "Shot 2 of 3",
the target and the range, and the firer's button fires at once. A long press ("hold = other
target") goes to the target choice of that shot instead, where *Done firing* is too (a second
long press comes back to the shot: a finger held once too often loses no figure's shot). The shot
is kept only for the turn it was fired in, and not saved: after a restart the next figure
chooses again. Nothing is kept when the target is out of the fight, hidden or no longer
allowed: the choice of a target opens as before.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.games.battle import tank_battle
from cobi_companion.device.games.shots import Finish
from cobi_companion.device.games.tank.fire import shooting, shown, start
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.tank import soft_fire, turns
from cobi_companion.rules.tank.soft_fire import Covered, SoftPlan
from cobi_companion.words.grammar import number

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App


def next_shot(app: App, label: str, done: Finish, choose: Callable[[Next | None], Screen]
              ) -> Screen:
    """The squad's next shot: its first figure's shot again, else `choose(None)` (the choice
    of a target). A long press on that shot goes to `choose(this shot)`: the choice, whose own
    long press comes back here (only its row *Done firing* ends the squad's fire)."""
    plan = aimed(app, label)
    if plan is None:
        return choose(None)
    state = tank_battle(app)
    fired, of = state.shots.get(label, [0, 1])
    cm = number(plan.range_cm or 0, app.settings.language, "g")
    target = plan.targets[0]
    where = f"{shown(target.piece)} · {cm} cm"
    name = plan.weapon.name
    return start(app, plan, shooting(label, name, done),
                 lambda: choose(lambda: next_shot(app, label, done, choose)),
                 app.t("shot_of", n=fired + 1, of=of), aim=(where, *placed(app, target)),
                 hint=app.t("hold_other_target"))


def placed(app: App, target: Covered) -> tuple[str, ...]:
    """Where the target is, as the first figure's shot said it ("in soft cover"), which the
    repeat reuses; nothing in the open (the preview's three rows stay on the panel)."""
    return tuple(app.t(f"sit_{s}") for s in target.situations)


def aimed(app: App, label: str) -> SoftPlan | None:
    """The piece's single shot of this turn, with the pieces as they are now, when the rules
    allow it again; None otherwise."""
    state = tank_battle(app)
    aim = state.aims.get(label)
    turn = state.turn
    if aim is None or turn is None or aim.turn != turn.number or label not in state.shots:
        return None
    old = aim.plan
    (covered,) = old.targets
    try:
        firer = state.battle.get(label)
        target = state.battle.get(covered.piece.label)
        turns.check_shot(turn, state.battle, label, old.weapon.name, state.house)
        plan = replace(old, firer=firer, targets=(replace(covered, piece=target),),
                       house=state.house)
        soft_fire.check_pieces(plan)       # out, hidden, a squad with no figure left...
    except RulesError:
        return None
    return plan
