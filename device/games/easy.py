"""The Easy level on the box: a side picks a vehicle, then fires, moves or reloads."""
from __future__ import annotations

from cobi_companion.device.core.app import App, Next, Screen
from cobi_companion.device.games.battle import finish, move, pick_facing, refuse
from cobi_companion.device.games.shots import resolve_reload
from cobi_companion.device.ui.widgets import Choose
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.levels import rule_set
from cobi_companion.rules.shot import check_firer


def next_action(app: App) -> Screen:
    """Easy level: the side whose turn it is picks a vehicle, or passes."""
    state = app.playing
    assert state.active is not None
    vehicles = state.alive(state.active)
    items = [v.label for v in vehicles] + [app.t("pass")]

    def chosen(i: int) -> Screen:
        return action_menu(app, vehicles[i]) if i < len(vehicles) else finish(app, "passes")
    return Choose(app.t("pick_vehicle"), items, chosen)


def action_menu(app: App, vehicle: Piece) -> Screen:
    """Easy level: what the picked vehicle does."""
    state = app.playing
    back = lambda: action_menu(app, vehicle)  # noqa: E731
    actions: list[tuple[str, Next]] = [(app.t("fire"), lambda: fire(app, vehicle)),
                                       (app.t("move"), lambda: move(app, vehicle, finish, back))]
    if rule_set(state.level).reloads and not vehicle.status.loaded:
        actions.append((app.t("reload"), lambda: reload(app, vehicle)))
    return Choose(vehicle.label, [label for label, _ in actions], lambda i: actions[i][1](),
                  back=lambda: next_action(app))


def fire(app: App, firer: Piece) -> Screen:
    state = app.playing
    try:
        check_firer(firer.card, firer.status, needs_loaded=rule_set(state.level).reloads)
    except RulesError as exc:
        return refuse(app, app.say(exc), lambda: action_menu(app, firer))
    targets = state.alive(firer.side.enemy)
    if not targets:
        return refuse(app, app.t("no_targets"), lambda: action_menu(app, firer))
    return Choose(app.t("target"), [t.label for t in targets],
                  lambda i: pick_facing(app, firer, targets[i], finish, None,
                                                 lambda: fire(app, firer)),
                  back=lambda: action_menu(app, firer))


def reload(app: App, vehicle: Piece) -> Screen:
    return resolve_reload(app, vehicle, finish)

