"""A battle on the box, screen by screen: start, roster, initiative, actions, game over, and the
menu (status board, log, dice fairness, quick dice, settings)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cobi_companion.rules import easy
from cobi_companion.rules.battle import Battle, Piece
from cobi_companion.rules.card import Facing
from cobi_companion.rules.distance import FIRE_RANGE, Call, DistanceCheck
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.levels import RULE_SETS, rule_set
from cobi_companion.rules.movement import allowance
from cobi_companion.rules.shot import ShotPlan, check_firer
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank_game import RANGE_LIMIT_CM

from .battle_state import BattleState
from .events import Key
from .measure import DialCm, Measuring, check_distance
from .shots import resolve_fire, resolve_reload
from .views import BigWord, Lines, Menu, Roll, View
from .widgets import Choose, Dial, Next, Screen, Show, notice, yes_no

if TYPE_CHECKING:
    from .app import App

# ---- start ----


def start_menu(app: App) -> Screen:
    items: list[tuple[str, Next]] = []
    if app.state is not None and app.state.winner is None:
        items.append((app.t("resume"), lambda: resume(app)))
    items += [(app.t("new"), lambda: choose_rules(app)),
              (app.t("quick_dice"), lambda: QuickDice()),
              (app.t("settings"), lambda: settings_menu(app, lambda: start_menu(app))),
              (app.t("check_distance"), lambda: check_distance(app, lambda: start_menu(app)))]
    return StartMenu(app.t("start"), [label for label, _ in items],
                     lambda i: items[i][1](), back=lambda: start_menu(app))


class StartMenu(Choose):
    """The idle screen: a dice button rolls a quick D6 straight away."""

    def on(self, app: App, key: Key) -> Screen:
        if key in (Key.AXIS, Key.ALLIES, Key.AXIS_LONG, Key.ALLIES_LONG):
            return QuickDice().on(app, key)
        return super().on(app, key)


def resume(app: App) -> Screen:
    assert app.state is not None
    return next_action(app) if app.state.active is not None else begin_round(app)


def choose_rules(app: App) -> Screen:
    names = list(RULE_SETS)
    start = names.index(app.settings.rules) if app.settings.rules in names else 0
    return Choose(app.t("rules"), [app.t(n) for n in names],
                  lambda i: Roster(names[i]), back=lambda: start_menu(app), index=start)


@dataclass
class Roster:
    """Turn the knob through the cards; a side's button puts the shown model on that side."""

    level: str
    index: int = 0
    battle: Battle = field(default_factory=lambda: Battle("tank"))

    def view(self, app: App) -> View:
        cards = app.book.sorted()
        counts = " · ".join(f"{app.side_name(s)} {len(self.battle.side(s))}" for s in Side)
        return Menu(app.header(app.t("roster")), tuple(c.name for c in cards), self.index,
                    counts if self.battle.pieces else app.t("roster_hint"))

    def on(self, app: App, key: Key) -> Screen:
        cards = app.book.sorted()
        if key in (Key.CW, Key.CCW):
            self.index = (self.index + (1 if key is Key.CW else -1)) % len(cards)
        elif key in (Key.AXIS, Key.ALLIES):
            side = Side.AXIS if key is Key.AXIS else Side.ALLIES
            self.battle = self.battle.add(cards[self.index], side)
            app.cue("click")
        elif key is Key.OK:
            if all(self.battle.side(s) for s in Side):
                app.state = BattleState(self.level, Battle(self.level, self.battle.pieces))
                app.commit(f"new {self.level} battle: " +
                           ", ".join(f"{v.label} ({v.side.value})" for v in self.battle.pieces))
                return begin_round(app)
            return notice(app, app.t("roster"), [app.t("roster_need")], lambda: self)
        elif key is Key.BACK:
            return choose_rules(app)
        return self


# ---- rounds and turns ----


@dataclass
class RollOff:
    """Both players press their own button; the higher die wins, a tie rolls again."""

    title: str
    then: Callable[[Side], Screen]
    faces: dict[Side, int] = field(default_factory=dict)

    def view(self, app: App) -> View:
        shown = tuple(self.faces.get(s, 0) for s in Side if s in self.faces)
        who = " : ".join(str(self.faces[s]) if s in self.faces else "?" for s in Side)
        return Roll(app.header(self.title), shown, app.t("both_press"), needed=who)

    def on(self, app: App, key: Key) -> Screen:
        side = {Key.AXIS: Side.AXIS, Key.ALLIES: Side.ALLIES}.get(key)
        if side is None or side in self.faces:
            return app.menu(self) if key is Key.BACK else self
        purpose = f"{side.value} initiative"
        if app.settings.real_dice:
            def dialled(face: int, side: Side = side) -> Screen:
                app.record(face, purpose, side.value)
                return self.rolled(app, side, face)
            return Dial(f"{app.side_name(side)}: {self.title}", dialled)
        return self.rolled(app, side, app.roll(purpose, side.value))

    def rolled(self, app: App, side: Side, face: int) -> Screen:
        self.faces[side] = face
        if len(self.faces) < 2:
            return self
        axis, allies = self.faces[Side.AXIS], self.faces[Side.ALLIES]
        shown = Roll(app.header(self.title), (axis, allies), app.t("both_press"),
                     needed=f"{axis} : {allies}", total="=" if axis == allies else
                     app.side_name(Side.AXIS if axis > allies else Side.ALLIES))
        if axis == allies:
            return Show([shown], lambda: RollOff(self.title, self.then), animate=True)
        winner = Side.AXIS if axis > allies else Side.ALLIES
        return Show([shown], lambda: self.then(winner), animate=True)


def begin_round(app: App) -> Screen:
    state = app.state
    assert state is not None
    if state.level == "easy":
        def easy_start(winner: Side) -> Screen:
            state.begin_round(winner)
            app.commit(f"round {state.round}: {winner.value} has the initiative")
            return next_action(app)
        return RollOff(app.t("initiative"), easy_start)
    if state.defender is None:
        def tank_start(attacker: Side) -> Screen:
            state.defender = attacker.enemy
            state.begin_round(state.defender)
            app.commit(f"{attacker.value} attacks, {state.defender.value} defends")
            return notice(app, app.t("initiative"),
                          [app.t("defender_first", side=app.side_name(state.defender))],
                          lambda: next_action(app))
        return RollOff(app.t("attacker_roll"), tank_start)
    state.begin_round(state.defender)
    return next_action(app)


def next_action(app: App) -> Screen:
    state = app.state
    assert state is not None and state.active is not None
    vehicles = state.alive(state.active)
    items = [v.label for v in vehicles] + [app.t("pass")]

    def chosen(i: int) -> Screen:
        return action_menu(app, vehicles[i]) if i < len(vehicles) else finish(app, "passes")
    return Choose(app.t("pick_vehicle"), items, chosen)


def finish(app: App, line: str) -> Screen:
    """An action is complete: save it, then game over, the other side, or a new round."""
    state = app.state
    assert state is not None and state.active is not None
    actor = state.active
    winner = rule_set(state.level).winner(state.battle)
    if winner is not None:
        state.winner = winner
        app.commit(f"{actor.value} {line}; {winner.value} win")
        return game_over(app, winner)
    round_over = state.end_action()
    app.commit(f"{actor.value} {line}")
    return begin_round(app) if round_over else next_action(app)


def game_over(app: App, winner: Side) -> Screen:
    app.cue("win", winner.value)

    def again() -> Screen:
        app.store.clear_battle()
        app.state = None
        return start_menu(app)
    word = app.t("WINS", side=app.side_name(winner).upper())
    return Show([BigWord(app.header(app.t("game_over")), word)], again)


# ---- actions ----


def action_menu(app: App, vehicle: Piece) -> Screen:
    state = app.state
    assert state is not None
    actions: list[tuple[str, Next]] = [(app.t("fire"), lambda: fire(app, vehicle)),
                                       (app.t("move"), lambda: move(app, vehicle))]
    if rule_set(state.level).reloads and not vehicle.status.loaded:
        actions.append((app.t("reload"), lambda: reload(app, vehicle)))
    return Choose(vehicle.label, [label for label, _ in actions], lambda i: actions[i][1](),
                  back=lambda: next_action(app))


def refuse(app: App, reason: str, vehicle: Piece) -> Screen:
    app.cue("error")
    return notice(app, app.t("not_possible"), [reason], lambda: action_menu(app, vehicle))


def fire(app: App, firer: Piece) -> Screen:
    state = app.state
    assert state is not None
    try:
        check_firer(firer.card, firer.status, needs_loaded=rule_set(state.level).reloads)
    except RulesError as exc:
        return refuse(app, str(exc), firer)
    targets = state.alive(firer.side.enemy)
    if not targets:
        return refuse(app, app.t("no_targets"), firer)
    return Choose(app.t("target"), [t.label for t in targets],
                  lambda i: pick_facing(app, firer, targets[i]),
                  back=lambda: action_menu(app, firer))


def pick_facing(app: App, firer: Piece, target: Piece) -> Screen:
    facings = list(Facing)

    assert app.state is not None
    modifiers = rule_set(app.state.level).modifiers
    again = lambda: pick_facing(app, firer, target)  # noqa: E731

    def plan(facing: Facing, hull_down: bool = False, range_cm: float | None = None) -> ShotPlan:
        return ShotPlan(firer.card, target.card, facing, hull_down, range_cm,
                        attacker_status=firer.status, target_status=target.status)

    def chosen(i: int) -> Screen:
        facing = facings[i]
        if not modifiers:
            return resolve_fire(app, firer, target, plan(facing), finish)
        return yes_no(app, app.t("hull_down"), lambda hull: fire_range(
            app, lambda cm: resolve_fire(app, firer, target, plan(facing, hull, cm), finish),
            again), again)
    return Choose(app.t("facing"), [app.t(f.value) for f in facings], chosen,
                  back=lambda: fire(app, firer))


def fire_range(app: App, then: Callable[[float | None], Screen], back: Next) -> Screen:
    """Over 100 cm? Measured by a sensor (offered first when one is online), dialled in cm, or
    just yes or no. `then` gets the range in cm for the rules (None: not over 100 cm)."""
    def measured(check: DistanceCheck, over: bool) -> Screen:
        if check.call is not Call.TOO_CLOSE:
            return then(check.cm)
        return then(RANGE_LIMIT_CM + 1 if over else None)   # the players' own call
    ways: list[tuple[str, Next]] = [
        (app.t("measure_with", sensor=name),
         lambda name=name: Measuring(FIRE_RANGE, name, measured, back).begin(app))
        for name in app.sensors.online_names()]
    ways += [(app.t("no"), lambda: then(None)),
             (app.t("yes"), lambda: then(RANGE_LIMIT_CM + 1)),   # 101 cm stands for "yes"
             (app.t("enter_cm"), lambda: DialCm(FIRE_RANGE, measured, back))]
    return Choose(app.t("over_100"), [label for label, _ in ways], lambda i: ways[i][1](),
                  back)


def move(app: App, vehicle: Piece) -> Screen:
    try:
        allowance(vehicle.card, status=vehicle.status)
    except RulesError as exc:
        return refuse(app, str(exc), vehicle)
    back = lambda: action_menu(app, vehicle)  # noqa: E731

    def result(reverse: bool, turns: int, rough: bool, road: bool) -> Screen:
        try:
            cm = allowance(vehicle.card, reverse=reverse, turns=turns, rough=rough, road=road,
                           status=vehicle.status).cm
        except RulesError as exc:
            return refuse(app, str(exc), vehicle)
        word = BigWord(app.header(vehicle.label), f"{cm} cm", app.t("move_up_to", cm=cm))
        return Show([word], lambda: finish(app, f"{vehicle.label} moves up to {cm} cm"))

    return yes_no(app, app.t("reverse"), lambda rev: Choose(
        app.t("turns"), [str(n) for n in range(9)], lambda turns: yes_no(
            app, app.t("rough"), lambda rough: yes_no(
                app, app.t("road"), lambda road: result(rev, turns, rough, road), back),
            back), back), back)


def reload(app: App, vehicle: Piece) -> Screen:
    return resolve_reload(app, vehicle, finish)


# ---- the menu (long press) ----


def battle_menu(app: App, back: Screen) -> Screen:
    items: list[tuple[str, Next]] = [(app.t("back_to_game"), lambda: back)]
    if app.state is not None:
        items.append((app.t("status_board"), lambda: status_board(app, back)))
        items.append((app.t("battle_log"), lambda: battle_log(app, back)))
    items += [(app.t("dice_stats"), lambda: dice_stats(app, back)),
              (app.t("quick_dice"), lambda: QuickDice(back)),
              (app.t("settings"), lambda: settings_menu(app, lambda: back)),
              (app.t("check_distance"), lambda: check_distance(app, lambda: back))]
    if app.state is not None:
        items.append((app.t("end_battle"), lambda: end_battle(app)))
    return Choose(app.t("menu"), [label for label, _ in items], lambda i: items[i][1](),
                  back=lambda: back)


def end_battle(app: App) -> Screen:
    app.store.clear_battle()
    app.state = None
    return start_menu(app)


def status_words(app: App, vehicle: Piece) -> str:
    words = vehicle.status.words()
    return ", ".join(app.t(w) for w in words) if words else app.t("ready")


@dataclass
class Scroll:
    title: str
    lines: list[str]
    back: Screen
    index: int = 0

    def view(self, app: App) -> View:
        return Lines(app.header(self.title), tuple(self.lines), self.index)

    def on(self, app: App, key: Key) -> Screen:
        if key is Key.CW:  # stop while the screen is still full (4 lines)
            self.index = min(self.index + 1, max(0, len(self.lines) - 4))
        elif key is Key.CCW:
            self.index = max(self.index - 1, 0)
        elif key in (Key.OK, Key.BACK):
            return self.back
        return self


def status_board(app: App, back: Screen) -> Screen:
    assert app.state is not None
    lines = [f"{v.label} {app.side_name(v.side)}: {status_words(app, v)}"
             for v in app.state.battle.pieces]
    return Scroll(app.t("status_board"), lines, back)


def battle_log(app: App, back: Screen) -> Screen:
    assert app.state is not None
    return Scroll(app.t("battle_log"), list(reversed(app.state.log)) or ["-"], back)


def dice_stats(app: App, back: Screen) -> Screen:
    lines = []
    sources: list[tuple[str, str | None]] = [(app.t("overall"), None)]
    if app.state is not None:
        sources.insert(0, (app.t("this_battle"), app.state.id))
    for title, battle_id in sources:
        counts = app.store.face_counts(battle_id)
        total = sum(counts.values())
        lines.append(f"{title}: {total}")
        lines.append("  ".join(f"{face}:{counts.get(face, 0)}" for face in range(1, 7)))
    return Scroll(app.t("dice_stats"), lines, back)


@dataclass
class QuickDice:
    """A dice button rolls a big D6; held down, a D6+."""

    back: Screen | None = None
    shown: tuple[int, ...] = ()
    value: str = ""

    def view(self, app: App) -> View:
        return Roll(app.header(app.t("quick_dice")), self.shown, app.t("quick_hint"),
                    total=self.value)

    def on(self, app: App, key: Key) -> Screen:
        side = "axis" if key in (Key.AXIS, Key.AXIS_LONG) else "allies"
        if key in (Key.AXIS, Key.ALLIES):
            face = app.roll("quick D6", side)
            self.shown, self.value = (face,), str(face)
            app.cue("roll")
        elif key in (Key.AXIS_LONG, Key.ALLIES_LONG):
            self.shown, value = easy.roll_d6_plus(app.dice_for(side), "quick")
            self.value = str(value)
            app.cue("roll")
        if key in (Key.AXIS, Key.ALLIES, Key.AXIS_LONG, Key.ALLIES_LONG):
            app.commit()                      # the rolls count in the dice statistics
        elif key in (Key.OK, Key.BACK):
            return self.back or start_menu(app)
        return self


def settings_menu(app: App, back: Next) -> Screen:
    s = app.settings
    rows: list[tuple[str, Callable[[], None]]] = [
        (f"{app.t('language')}: {'Polski' if s.language == 'pl' else 'English'}",
         lambda: setattr(s, "language", "en" if s.language == "pl" else "pl")),
        (f"{app.t('rules')}: {app.t(s.rules)}",
         lambda: setattr(s, "rules", "easy" if s.rules == "tank" else "tank")),
        (f"{app.t('real_dice')}: {app.t('on' if s.real_dice else 'off')}",
         lambda: setattr(s, "real_dice", not s.real_dice)),
        (f"{app.t('sound')}: {app.t('on' if s.sound else 'off')}",
         lambda: setattr(s, "sound", not s.sound)),
        (f"{app.t('brightness')}: {round(s.brightness / 255 * 100)}%",
         lambda: setattr(s, "brightness", {255: 128, 128: 32, 32: 255}.get(s.brightness, 255))),
    ]

    def toggle(i: int) -> Screen:
        rows[i][1]()
        app.on_settings(s)
        screen = settings_menu(app, back)
        assert isinstance(screen, Choose)
        screen.index = i
        return screen
    return Choose(app.t("settings"), [label for label, _ in rows], toggle, back=back)

