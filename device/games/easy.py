"""The Easy level on the box: a side picks a vehicle, then fires at a target, moves or reloads;
or fires its last shot again with one press of its button; or passes, once it says yes."""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from cobi_companion.device.core.app import App, Next, Screen
from cobi_companion.device.core.battle_log import entry
from cobi_companion.device.core.spoken import Spoken, item, outcome, prompt
from cobi_companion.device.games.battle import (
    RollOff,
    aim_at,
    finish,
    move,
    move_refusal,
    refuse,
)
from cobi_companion.device.games.shots import again_row, again_shot, fire_again, resolve_reload
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ui.widgets import Choose, confirm
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.levels import rule_set
from cobi_companion.rules.shot import check_firer
from cobi_companion.rules.status import Side


def play(app: App) -> Screen:
    """The screen the battle in play goes on with: a new round's initiative roll-off (no
    side is active), else the next action."""
    state = app.playing
    if state.active is not None:
        return next_action(app)

    def easy_start(winner: Side) -> Screen:
        state.begin_round(winner)
        app.commit(entry("log_initiative", round=state.round, side=winner.value))
        return next_action(app)
    return RollOff(app.t("initiative"), easy_start,
                   says=lambda winner: outcome("say_initiative", side=winner.value)).taken(app)


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
    said: list[Spoken] = []            # read aloud: a piece by its spoken name and side
    if again is not None:
        label, hint = again_row(app, again)
        rows.append((label, hint, lambda: fire_again(app, again, finish, back) or back()))
        said.append(item("say_item_again", firer=again.firer, piece=again.target))
    rows += [(v.label, "", partial(picked, app, v)) for v in vehicles]
    said += [item("say_item_piece", item=v.label, side=v.side.value) for v in vehicles]
    rows.append((app.t("pass"), "", lambda: pass_turn(app)))
    said.append(item("say_item", item=app.t("pass")))
    labels = [v.label for v in vehicles]
    acted = state.last_actor.get(side)
    index = 0 if again is not None or acted not in labels else labels.index(acted)

    def dice(i: int, key: Key) -> Screen | None:
        return fire_again(app, again, finish, back, key) if again and i == 0 else None
    return Choose(app.t("pick_vehicle"), [item for item, _, _ in rows],
                  lambda i: rows[i][2](), index=index, hints=[hint for _, hint, _ in rows],
                  dice=dice, spoken=said, remind=prompt("say_turn", side=side.value))


def picked(app: App, vehicle: Piece) -> Screen:
    app.playing.last_actor[vehicle.side] = vehicle.label   # where the side's next turn starts
    return action_menu(app, vehicle)


def pass_turn(app: App) -> Screen:
    return confirm(app, app.t("pass_ask"),
                   lambda: finish(app, entry("log_passes"), passed=True),
                   lambda: next_action(app), lost="turn_passes")


@dataclass(frozen=True)
class Row:
    """One action of a vehicle's menu: its item, where OK goes, and why the rules refuse it
    now ("" while they allow it: then its hint is `hint`)."""

    item: str
    then: Next
    hint: str = ""
    refused: str = ""
    target: str = ""        # the label of the piece a Fire row fires at: what picks the lit row

    def said(self) -> Spoken:
        """The row read aloud: a Fire row by its target's spoken name, a refused one "not
        now"."""
        said = item("say_item_fire", piece=self.target) if self.target else \
            item("say_item", item=self.item)
        return item("say_item_dimmed", item=said) if self.refused else said


def action_menu(app: App, vehicle: Piece) -> Screen:
    """What the picked vehicle does: fire at one of the targets (the side's last target lit),
    move, or reload. What the rules refuse it now comes last, dimmed ("not now · OK = why"):
    it is never lit first, and OK says the rules' reason."""
    state = app.playing
    back = lambda: action_menu(app, vehicle)  # noqa: E731
    rows = fire_rows(app, vehicle, back)
    no_move = move_refusal(vehicle)
    rows.append(Row(app.t("move"), lambda: move(app, vehicle, finish, back),
                    refused=app.say(no_move) if no_move else ""))
    if rule_set(state.level).reloads and not vehicle.status.loaded:
        rows.append(Row(app.t("reload"), lambda: resolve_reload(app, vehicle, finish)))
    able = [row for row in rows if not row.refused]
    rows = able + [row for row in rows if row.refused]
    last = state.last_shot.get(vehicle.side)
    # The side's last target is lit by its label, never by the row's words: a translation
    # (or a language switched meanwhile) decides nothing.
    lit = next((i for i, row in enumerate(able) if last and row.target == last.target), 0)
    return Choose(vehicle.label, [row.item for row in rows], lambda i: rows[i].then(),
                  back=lambda: next_action(app),
                  index=lit,
                  hints=[app.t("dimmed_hint") if row.refused else row.hint for row in rows],
                  dimmed=range(len(able), len(rows)), spoken=[row.said() for row in rows],
                  remind=prompt("say_turn", side=vehicle.side.value))


def fire_rows(app: App, firer: Piece, back: Next) -> list[Row]:
    """A Fire row for each target, each reminding the players how far the gun may turn to
    point at it; or one Fire row with the rules' reason why the firer cannot fire."""
    state = app.playing
    try:
        check_firer(firer.card, firer.status, needs_loaded=rule_set(state.level).reloads,
                    name=firer.label)
    except RulesError as exc:
        reason = app.say(exc)
        return [Row(app.t("fire"), lambda: refuse(app, reason, back), refused=reason)]
    targets = state.alive(firer.side.enemy)
    if not targets:
        reason = app.t("no_targets")
        return [Row(app.t("fire"), lambda: refuse(app, reason, back), refused=reason)]
    aim = app.t("aim_turn_limit")
    return [Row(app.t("fire_at", target=t.label), partial(aim_at, app, firer, t, finish, back),
                aim, target=t.label) for t in targets]
