"""The Easy level on the box: a side picks a vehicle, then fires at a target, moves or reloads;
or fires its last shot again with one press of its button; or passes, once it says yes."""
from __future__ import annotations

from functools import partial

from cobi_companion.device.core.app import App, Next, Screen
from cobi_companion.device.core.battle_log import entry
from cobi_companion.device.games.battle import aim_at, finish, move, refuse
from cobi_companion.device.games.shots import again_row, again_shot, fire_again, resolve_reload
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ui.widgets import Choose, yes_no
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.levels import rule_set
from cobi_companion.rules.shot import check_firer


def next_action(app: App) -> Screen:
    """The side whose turn it is: its last shot again (first, when it can be fired), a
    vehicle (the one that acted last highlighted), or Pass."""
    state = app.playing
    assert state.active is not None
    side = state.active
    vehicles = state.alive(side)
    again = again_shot(app, side)
    def back() -> Screen:
        return next_action(app)
    rows: list[tuple[str, str, Next]] = []
    if again is not None:
        item, hint = again_row(app, again)
        rows.append((item, hint, lambda: fire_again(app, again, finish, back) or back()))
    rows += [(v.label, "", partial(picked, app, v)) for v in vehicles]
    rows.append((app.t("pass"), "", lambda: pass_turn(app)))
    labels = [v.label for v in vehicles]
    acted = state.last_actor.get(side)
    index = 0 if again is not None or acted not in labels else labels.index(acted)

    def dice(i: int, key: Key) -> Screen | None:
        return fire_again(app, again, finish, back, key) if again and i == 0 else None
    return Choose(app.t("pick_vehicle"), [item for item, _, _ in rows],
                  lambda i: rows[i][2](), index=index, hints=[hint for _, hint, _ in rows],
                  dice=dice)


def picked(app: App, vehicle: Piece) -> Screen:
    app.playing.last_actor[vehicle.side] = vehicle.label   # where the side's next turn starts
    return action_menu(app, vehicle)


def pass_turn(app: App) -> Screen:
    return yes_no(app, app.t("pass_ask"),
                  lambda yes: finish(app, entry("log_passes"), passed=True) if yes
                  else next_action(app),
                  lambda: next_action(app))


def action_menu(app: App, vehicle: Piece) -> Screen:
    """What the picked vehicle does: fire at one of the targets (the side's last target
    highlighted), move, or reload. A vehicle that cannot fire has one Fire item, which says
    why."""
    state = app.playing
    back = lambda: action_menu(app, vehicle)  # noqa: E731
    rows: list[tuple[str, Next]] = fire_rows(app, vehicle, back)
    rows.append((app.t("move"), lambda: move(app, vehicle, finish, back)))
    if rule_set(state.level).reloads and not vehicle.status.loaded:
        rows.append((app.t("reload"), lambda: resolve_reload(app, vehicle, finish)))
    last = state.last_shot.get(vehicle.side)
    names = [name for name, _ in rows]
    wanted = app.t("fire_at", target=last.target) if last else ""
    # Each Fire row reminds the players how far the gun may turn to point at its target.
    aim = app.t("aim_turn_limit")
    hints = [aim if name.startswith(app.t("fire")) else "" for name in names]
    return Choose(vehicle.label, names, lambda i: rows[i][1](),
                  back=lambda: next_action(app),
                  index=names.index(wanted) if wanted in names else 0, hints=hints)


def fire_rows(app: App, firer: Piece, back: Next) -> list[tuple[str, Next]]:
    state = app.playing
    try:
        check_firer(firer.card, firer.status, needs_loaded=rule_set(state.level).reloads)
    except RulesError as exc:
        reason = app.say(exc)
        return [(app.t("fire"), lambda: refuse(app, reason, back))]
    targets = state.alive(firer.side.enemy)
    if not targets:
        return [(app.t("fire"), lambda: refuse(app, app.t("no_targets"), back))]
    return [(app.t("fire_at", target=t.label), partial(aim_at, app, firer, t, finish, back))
            for t in targets]
