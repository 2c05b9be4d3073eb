"""A Tank Game turn on the box: pick the pieces to activate, act with each, the extra
activation after one without fire, placing pieces from off the map, and the next turn.

Every rule of the turn is `rules.tank.turns`: a screen asks the rule first (a refusal is one line on
the screen) and records what was done with it after the dice, then saves the battle.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cobi_companion.device.core import i18n
from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import LogEntry, by_side, english, entry
from cobi_companion.device.core.memo import Latest
from cobi_companion.device.core.spoken import Spoken, item, prompt
from cobi_companion.device.core.views import BigWord, Menu, View
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.battle import aim_at, battle_won, move, refuse, tank_battle
from cobi_companion.device.games.menus import with_ride
from cobi_companion.device.games.shots import again_row, again_shot, fire_again, resolve_reload
from cobi_companion.device.games.tank.fire import check_main_gun, fire_menu, shooting
from cobi_companion.device.games.tank.overrun import OverrunPick
from cobi_companion.device.games.tank.squad import next_shot
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ui.widgets import (
    DICE_KEYS,
    Choose,
    Count,
    Show,
    confirm,
    notice,
    said_item,
)
from cobi_companion.rules.battle import Battle, Piece
from cobi_companion.rules.card import Kind
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.house import HouseRules
from cobi_companion.rules.tank import choices, overrun, scoring, turns
from cobi_companion.rules.tank.refusals import TankRefusal
from cobi_companion.rules.tank.turns import Action

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App
    from cobi_companion.device.core.battle_state import LastShot, TankBattle


def playing(app: App) -> tuple[TankBattle, turns.Turn]:
    state = tank_battle(app)
    assert state.turn is not None
    return state, state.turn


def shown(piece: Piece) -> str:
    """'Rifle 1 (3)' for a squad or the crew of a destroyed gun, the label for a vehicle or
    gun."""
    return piece.label if piece.model else f"{piece.label} ({piece.figures or 0})"


def left_shown(turn: turns.Turn, piece: Piece, house: HouseRules) -> str:
    """A piece to pick: a squad part of which was activated this turn by the figures it has
    left, 'Rifle 1 (3/8)'; others as `shown` (a squad that may go again whole by the house
    rule extra_activation = same_pieces too: 'Rifle 1 (8)')."""
    left = turns.left_to_activate(turn, piece, house)
    if piece.model or left >= (piece.figures or 0):
        return shown(piece)
    return f"{piece.label} ({left}/{piece.figures or 0})"


def active_shown(turn: turns.Turn, piece: Piece) -> str:
    """A piece in the open activation: part of a squad by its figures that went,
    'Rifle 1 (5/8)'; others as `shown`."""
    current = turn.current
    member = current.member(piece.label) if current is not None else None
    return member.shown if member is not None and member.of else shown(piece)


def turn_screen(app: App) -> Screen:
    """Where the active side is in its turn."""
    state, turn = playing(app)
    if turn.current is not None:
        return acting(app)
    if not turn.activations:
        return Pick(index=likeliest(app))
    if turn.extra_due and eligible(state):
        return offer_extra(app)
    return end_turn(app, entry("log_ends_turn"))


def likeliest(app: App) -> int:
    """Where the pick starts: the last shot again (the first row, when offered), else the
    piece of this side that acted last, else the first piece."""
    state, turn = playing(app)
    labels = [p.label for p in eligible(state)]
    acted = state.last_actor.get(turn.side)
    if again_alone(app) is not None or acted not in labels:
        return 0
    return labels.index(acted)


def eligible(state: TankBattle) -> list[Piece]:
    """The active side's pieces that may still be activated this turn."""
    turn = state.turn
    assert turn is not None
    placed = {p.label for p in turn.placed}
    return [p for p in state.battle.side(turn.side)
            if not p.gone and not p.status.off_map
            and turns.left_to_activate(turn, p, state.house) and p.label not in placed]


def waiting_off_map(state: TankBattle) -> list[Piece]:
    assert state.turn is not None
    return [p for p in state.battle.side(state.turn.side) if p.status.off_map and not p.gone]


# ---- picking the pieces ----


@dataclass
class Pick(Screen):
    """The knob goes through the side's pieces; OK picks one (again: drops it). Up to 5
    figures and models, one model at most: a piece that does not fit is refused with the
    rule's reason, but a squad with more figures than fit is asked how many of them go (the
    most that fit first), and so is a picked squad that leaves no room for a vehicle or gun
    picked after it. "Go!" starts the activation, by itself once nothing more could join."""

    picked: list[str] = field(default_factory=list)
    index: int = 0
    figures: dict[str, int] = field(default_factory=dict)   # part of a squad: how many go

    def rows(self, app: App) -> list[tuple[str, str]]:
        state, _ = playing(app)
        rows = [("again", "")] if again_alone(app) is not None else []
        rows += [("piece", p.label) for p in eligible(state)]
        if self.picked:
            rows.append(("go", ""))
        if waiting_off_map(state):
            rows.append(("place", ""))
        rows.append(("pass", ""))
        return rows

    def view(self, app: App) -> View:
        state, turn = playing(app)
        items = []
        hint = app.t("picked", n=0)
        rows = self.rows(app)
        for kind, label in rows:
            if kind == "again":
                aim = again_alone(app)
                assert aim is not None
                item, again_hint = again_row(app, aim)
                items.append(item)
            elif kind == "piece":
                mark = "• " if label in self.picked else ""
                piece = state.battle.get(label)
                name = f"{label} ({self.figures[label]}/{piece.figures or 0})" \
                    if label in self.figures else left_shown(turn, piece, state.house)
                items.append(mark + with_ride(app, name, piece))
            elif kind == "go":
                items.append(app.t("go"))
            elif kind == "place":
                items.append(app.t("place_off_map", n=len(waiting_off_map(state))))
            else:
                items.append(app.t("pass"))
        size = self.size(app)
        title = app.t("extra_activation") if turn.activations else app.t("activate")
        hint = app.t("picked", n=size) if self.picked else app.t("ok_pick")
        self.index = min(self.index, len(items) - 1)
        if rows[self.index][0] == "again":
            hint = again_hint
        return Menu(app.header(title), tuple(items), self.index, hint)

    def reminder(self, app: App) -> Spoken | None:
        return prompt("say_turn", side=playing(app)[1].side.value)

    def lit(self, app: App) -> Spoken | None:
        """The row lit, a piece by its spoken name and side (and "picked", once OK picked
        it), the last shot again by its firer and target; the others by their words."""
        shown = self.view(app)
        assert isinstance(shown, Menu)
        kind, label = self.rows(app)[shown.index]
        if kind == "piece":
            said = item("say_item_piece", item=label, side=app_piece(app, label).side.value)
            return item("say_item_picked", item=said) if label in self.picked else said
        aim = again_alone(app) if kind == "again" else None
        if aim is not None:
            return item("say_item_again", firer=aim.firer, piece=aim.target)
        return said_item(shown.items[shown.index])

    def on(self, app: App, key: Key) -> Screen:
        rows = self.rows(app)
        if key in (Key.CW, Key.CCW):
            self.index = (self.index + (1 if key is Key.CW else -1)) % len(rows)
        elif key is Key.OK:
            kind, label = rows[min(self.index, len(rows) - 1)]
            if kind == "again":
                return self.again(app) or self
            if kind == "piece":
                return self.toggle(app, label)
            if kind == "go":
                return self.go(app)
            if kind == "place":
                return place_menu(app, self)
            return self.pass_turn(app)
        elif key is Key.BACK:
            return app.menu(self)
        elif key in (Key.AXIS, Key.ALLIES):
            kind, _ = rows[min(self.index, len(rows) - 1)]
            fired = self.again(app, key) if kind == "again" else None
            if fired is not None:
                return fired
            app.cue("error")
        return self

    def again(self, app: App, key: Key | None = None) -> Screen | None:
        """The side's last shot again: its firer activated alone, then the shot's preview, or
        (with the firer's button, `key`) the shot at once. Another button: None."""
        aim = again_alone(app)
        assert aim is not None
        label = aim.firer
        if key is not None and DICE_KEYS.get(key) != app_piece(app, label).side.value:
            return None
        self.picked = [label]
        self.go(app)
        done = shooting(label, turns.GUN, lambda app, line: fired(app, label, line))
        state, _ = playing(app)
        if not state.answers_hold(aim):    # moved since: hull down and the range asked again
            return aim_at(app, state.battle.get(label), state.battle.get(aim.target), done,
                          lambda: acting(app), measure=True)
        return fire_again(app, aim, done, lambda: acting(app), key)

    def pass_turn(self, app: App) -> Screen:
        _, turn = playing(app)
        first = not turn.activations

        return confirm(app, app.t("pass_ask" if first else "end_turn_ask"),
                       lambda: end_turn(app, entry("log_passes" if first else "log_ends_turn")),
                       lambda: self, lost="turn_passes")

    def size(self, app: App) -> int:
        """The figures and models picked."""
        return sum(self.size_of(app, label) for label in self.picked)

    def fits(self, app: App, labels: list[str], figures: dict[str, int] | None = None) -> bool:
        state, turn = playing(app)
        try:
            turns.activate(turn, state.battle, labels, {**self.figures, **(figures or {})},
                           state.house)
        except RulesError:
            return False
        return True

    def toggle(self, app: App, label: str) -> Screen:
        state, turn = playing(app)
        if label in self.picked:
            self.picked.remove(label)
            self.figures.pop(label, None)
            return self
        try:
            turns.activate(turn, state.battle, [*self.picked, label], self.figures, state.house)
        except RulesError as exc:
            room = turns.MAX_PIECES - self.size(app)
            if exc.code is TankRefusal.TOO_MANY_PIECES:
                if room > 0 and not state.battle.get(label).model:
                    return self.how_many(app, label, room)
                if (squad := self.fewer_for(app, label)) is not None:
                    return self.how_many(app, squad, self.size_of(app, squad) - 1, label)
            app.cue("error")
            return notice(app, app.t("not_possible"), [app.say(exc)], lambda: self)
        return self.picks(app, label)

    def size_of(self, app: App, label: str) -> int:
        """What a picked piece counts towards the 5: a squad the figures it sends (those
        dialled, else all it has left to activate), a model 1."""
        state, turn = playing(app)
        return self.figures.get(label, turns.left_to_activate(turn, state.battle.get(label),
                                                              state.house))

    def fewer_for(self, app: App, model: str) -> str | None:
        """The picked squad that makes room for the model `model` by sending one figure fewer
        ("four of the figures and the tank"), the last picked first; None when none can."""
        state, _ = playing(app)
        if not state.battle.get(model).model:
            return None
        squads = [label for label in reversed(self.picked)
                  if not state.battle.get(label).model and self.size_of(app, label) > 1]
        return next((label for label in squads
                     if self.fits(app, [*self.picked, model],
                                  {label: self.size_of(app, label) - 1})), None)

    def how_many(self, app: App, label: str, room: int, then: str | None = None) -> Screen:
        """A squad with more figures than fit: how many of them go (rule 7 counts figures),
        the most that fit first; the others may go in the extra activation. `then`: a model
        picked beside the squad, already picked, that needs the room: it is picked once the
        squad's figures are dialled."""
        state, turn = playing(app)
        piece = state.battle.get(label)
        most = min(turns.left_to_activate(turn, piece, state.house), room)

        def dialled(n: int) -> Screen:
            self.figures[label] = n
            if then is not None:
                return self.picks(app, then)
            return self.picks(app, label)
        return Count(left_shown(turn, piece, state.house), most, 1, most, dialled,
                     lambda: self, app.t("figures_go"))

    def picks(self, app: App, label: str) -> Screen:
        """The piece is picked; the activation starts by itself once nothing more could join:
        a squad with a figure that fits could, and a model could if a picked squad sent a
        figure fewer (rule 7's "four of the figures and the tank", whichever is picked
        first). A full activation that a model could still join lights "Go!"."""
        state, _ = playing(app)
        self.picked.append(label)
        app.cue("click")
        others = [p for p in eligible(state) if p.label not in self.picked]
        if not any(self.fits(app, [*self.picked, p.label],
                             None if p.model else {p.label: 1}) for p in others):
            if not any(self.fewer_for(app, p.label) is not None for p in others):
                return self.go(app)
            if self.size(app) >= turns.MAX_PIECES:
                self.index = self.rows(app).index(("go", ""))
        return self

    def go(self, app: App) -> Screen:
        state, turn = playing(app)
        try:
            state.turn = turns.activate(turn, state.battle, self.picked, self.figures, state.house)
        except RulesError as exc:
            return notice(app, app.t("not_possible"), [app.say(exc)], lambda: self)
        current = state.turn.current
        assert current is not None
        members = tuple(m.shown for m in current.members)
        app.commit(by_side(turn.side.value, entry(
            "log_extra_activation" if current.extra else "log_activates", members=members)))
        return acting(app)


# The pick asks it for its rows, its view and each press: while the battle, the turn and the
# side's last shot are the same objects, so is the answer (device/core/memo.py).
_AGAIN: Latest[LastShot | None] = Latest()


def again_alone(app: App) -> LastShot | None:
    """The side's last shot, when it can be fired again now by its firer activated alone."""
    state, turn = playing(app)
    return _AGAIN.get((state, state.battle, turn, state.last_shot.get(turn.side)),
                      lambda: _again_alone(app, state, turn))


def _again_alone(app: App, state: TankBattle, turn: turns.Turn) -> LastShot | None:
    # A main gun's shot (check_main_gun): a tank or gun, one model. A squad's shot, big or
    # small, is never offered again (its next figures fire as the first did instead).
    aim = again_shot(app, turn.side)
    if aim is None or aim.firer not in {p.label for p in eligible(state)}:
        return None
    try:
        activated = turns.activate(turn, state.battle, [aim.firer], house=state.house)
        turns.fire(activated, state.battle, aim.firer)
        check_main_gun(state.battle.get(aim.firer))
    except RulesError:
        return None
    return aim


def offer_extra(app: App) -> Screen:
    """The activation did not fire: one more activation, whose pieces may not fire."""
    def chosen(i: int) -> Screen:
        return Pick(index=likeliest(app)) if i == 0 else end_turn(app, entry("log_ends_turn"))
    return Choose(app.t("extra_question"), [app.t("yes"), app.t("no")], chosen, ask=True)


# ---- acting with the activated pieces ----


DID = {Action.FIRE: "did_fire", Action.MOVE: "did_move", Action.HIDE: "did_hide",
       Action.TAKE_COVER: "did_take_cover", Action.RELOAD: "did_reload",
       Action.LEAVE: "did_leave"}


def did(app: App, label: str) -> str:
    """What the piece did in this activation: "fired, moved"; in Polish a squad's figures
    as many ("strzelali")."""
    state, turn = playing(app)
    current = turn.current
    if current is None:
        return ""
    many = "" if state.battle.get(label).model else "_many"
    return joined(", ", *(app.t(with_many(did_word(app, d), many))
                          for d in current.done if d.label == label))


def with_many(key: str, many: str) -> str:
    """The key's form for a squad's figures as many, where the catalogues have one."""
    return key + many if i18n.has(key + many) else key


def did_word(app: App, done: turns.Done) -> str:
    """The key of what a piece did: a reload whose roll failed left it unloaded, and says so
    (its gun is loaded only by a reload that succeeded)."""
    if done.action is Action.RELOAD and not app_piece(app, done.label).status.loaded:
        return "did_reload_failed"
    return DID[done.action]


def acting(app: App) -> Screen:
    """The open activation: its pieces, each with what it did, and "End activation". With
    one piece, that piece's actions at once."""
    state, turn = playing(app)
    current = turn.current
    assert current is not None
    members = [m.label for m in current.members]
    if len(members) == 1:
        return piece_menu(app, members[0])
    items = []
    for label in members:
        done = did(app, label)
        piece = state.battle.get(label)   # what it did, once it did something (its ride
        name = active_shown(turn, piece)  # is on the status board)
        items.append(joined(" · ", name, done) if done else with_ride(app, name, piece))
    items.append(app.t("end_activation"))
    idle = [i for i, label in enumerate(members) if not did(app, label)]
    title = app.t("extra_activation") if current.extra else app.t("activate")
    said = [item("say_item_piece", item=label, side=state.battle.get(label).side.value)
            for label in members] + [said_item(items[-1])]
    return Choose(title, items, lambda i: piece_menu(app, members[i]) if i < len(members)
                  else end_activation(app), index=idle[0] if idle else len(members),
                  spoken=said, remind=prompt("say_turn", side=turn.side.value))


def piece_menu(app: App, label: str, may_end: bool = True) -> Screen:
    """Fire, Move, Hide and Take cover (figures), Run over (a tank, with enemy figures or guns
    on the map), Reload (an unloaded gun), with a lone piece "End activation", and a closed
    vehicle's commander out or in. A vehicle that lost its commander may only leave the map.
    Only what the rules let the piece do now is offered (rules.tank.choices).

    Lit first: "End activation" once a lone piece did something and has no shot left
    (`may_end`: not on the way back from a refusal or a choice), else the first action that
    asks before it is done (Take cover, getting off, leaving the map happen on the next OK)."""
    state, turn = playing(app)
    current = turn.current
    assert current is not None
    piece = state.battle.get(label)
    alone = len(current.members) == 1
    actions = piece_actions(app, piece)
    end = len(actions)
    if alone:
        actions.append((app.t("end_activation"), lambda: end_activation(app)))
    if piece.kind is Kind.HARD and not piece.status.commander_killed:
        out = piece.status.commander_out
        actions.append((app.t("commander_in" if out else "commander_out_do"),
                        lambda: commander(app, label, not out)))
    if not actions:                   # one of several that can do nothing more now: why
        no = choices.action(turn, state.battle, label, Action.FIRE, state.house)
        return refuse(app, app.say(no) if no else app.t("not_possible"), lambda: acting(app))
    done = did(app, label)
    rested = alone and may_end and done and not turns.shots_left(current, piece, state.house)
    return Choose(active_shown(turn, piece), [name for name, _ in actions],
                  lambda i: actions[i][1](),
                  back=None if alone else (lambda: acting(app)),
                  index=end if rested else first_asking(app, actions[:end]), hint=done)


# Actions done on the next OK, with no question: never lit first.
AT_ONCE = ("take_cover", "get_off", "leave_map")


def first_asking(app: App, actions: list[tuple[str, Next]]) -> int:
    """The first action that asks something before it is done (0 when none does)."""
    at_once = {app.t(key) for key in AT_ONCE}
    return next((i for i, (name, _) in enumerate(actions) if name not in at_once), 0)


def piece_actions(app: App, piece: Piece) -> list[tuple[str, Next]]:
    """The actions the rules let the piece take now, each asked of them first: an action
    they would refuse is not offered."""
    state, turn = playing(app)
    label = piece.label

    def can(action: Action) -> bool:
        return choices.action(turn, state.battle, label, action, state.house) is None
    if piece.status.commander_killed:
        return [(app.t("leave_map"), lambda: leave(app, label))] if can(Action.LEAVE) else []
    actions: list[tuple[str, Next]] = []
    if can(Action.FIRE):
        actions.append((app.t("fire"), lambda: fire(app, label)))
    moves = can(Action.MOVE)
    if piece.riding is not None:       # a rider's move is getting off; it neither hides nor
        if moves:                      # takes cover on it
            actions.append((app.t("get_off"), lambda: get_off(app, label)))
    else:
        if moves:
            actions.append((app.t("move"), lambda: moving(app, label)))
        if can(Action.HIDE):           # figures: a squad, or a destroyed gun's crew
            actions.append((app.t("hide"), lambda: hide(app, label)))
        if can(Action.TAKE_COVER):
            actions.append((app.t("take_cover"), lambda: take_cover(app, label)))
        if not piece.model and moves and carriers(app, piece):   # "infantry"
            actions.append((app.t("get_on"), lambda: get_on(app, label)))
    tank = piece.kind in (Kind.HARD, Kind.OPEN_TOP)
    if tank and overrun.candidates(state.battle, piece) and \
            choices.run_over(turn, state.battle, label, state.house) is None:
        actions.append((app.t("run_over"), lambda: run_over(app, label)))
    if can(Action.RELOAD):
        actions.append((app.t("reload"), lambda: reload(app, label)))
    return actions


def back_to(app: App, label: str) -> Next:
    """The piece's menu again, after a refusal or a choice left: what ends the activation
    is not lit."""
    return lambda: piece_menu(app, label, may_end=False)


def refused(app: App, label: str, exc: RulesError) -> Screen:
    return refuse(app, app.say(exc), back_to(app, label))


def refusal(app: App, label: str, rule: Callable[[turns.Turn, Battle, str], object]
            ) -> Screen | None:
    """The rule's refusal of the piece's action, on the screen; None when it allows it."""
    state, turn = playing(app)
    try:
        rule(turn, state.battle, label)
    except RulesError as exc:
        return refused(app, label, exc)
    return None


def refusal_by_house(app: App, label: str, rule: Callable[..., object],
                     *args: object) -> Screen | None:
    """`refusal` of a rule that plays by the battle's house rules (its `house`), given the
    turn, the battle, the piece's label and `args`."""
    house = tank_battle(app).house
    return refusal(app, label, lambda turn, battle, label: rule(turn, battle, label, *args,
                                                                house=house))


def app_piece(app: App, label: str) -> Piece:
    state, _ = playing(app)
    return state.battle.get(label)


def record(app: App, label: str, action: Action, line: LogEntry,
           then: Callable[[], Screen] | None = None, cover: bool = True,
           enemy_near: bool | None = None) -> Screen:
    """The action is done: the turn records it (with the line in English, the rules' note),
    then the battle is saved (or won)."""
    state, turn = playing(app)
    state.last_actor[turn.side] = label
    note = english(line)
    if action is Action.FIRE:
        state.turn, state.battle = turns.fire(turn, state.battle, label, note)
    elif action is Action.MOVE:
        state.turn, state.battle = turns.move(turn, state.battle, label, note, state.house)
    elif action is Action.HIDE:
        state.turn, state.battle = turns.hide(turn, state.battle, label, cover=cover,
                                              enemy_near=enemy_near, note=note)
    elif action is Action.TAKE_COVER:
        state.turn, state.battle = turns.take_cover(turn, state.battle, label, note)
    elif action is Action.LEAVE:
        state.turn, state.battle = turns.leave(turn, state.battle, label, note)
    return saved(app, line, then)


def saved(app: App, line: LogEntry, then: Callable[[], Screen] | None = None) -> Screen:
    state, turn = playing(app)
    won = scoring.winner(state.battle, state.gave_up)
    if won is not None:
        return battle_won(app, won, by_side(turn.side.value, line))
    app.commit(by_side(turn.side.value, line))
    return then() if then is not None else acting(app)


# -- fire --


def fire(app: App, label: str) -> Screen:
    """What the piece fires at; a squad still firing figure by figure goes on."""
    state, turn = playing(app)
    if (no := choices.action(turn, state.battle, label, Action.FIRE, state.house)) is not None:
        return refused(app, label, no)
    return fire_menu(app, label, lambda app, line: fired(app, label, line),
                     back_to(app, label))


def fired(app: App, label: str, line: LogEntry) -> Screen:
    """One shot done (the turn has counted it). Each weapon fires once, a squad's once a
    figure (rules.tank.turns): the next shot follows while the piece has one left (or until the
    player says it is done)."""
    state, turn = playing(app)
    piece = state.battle.get(label)
    current = turn.current
    assert current is not None
    shots = current.fired_by(label)
    left = turns.shots_left(current, piece, state.house)
    if left:
        state.shots[label] = [shots, shots + left]
    else:
        state.shots.pop(label, None)
    first = not current.did(label, Action.FIRE)
    if label in state.shots:
        def stop() -> Screen:
            return stop_firing(app, label)
        def more(back: Next | None = None) -> Screen:      # `back`: the shot it came from;
            return fire_menu(app, label, lambda app, line: fired(app, label, line),  # else
                             back or more, done_firing=stop)   # the choice stays: a long
                                                               # press loses no figure's shot
        def again() -> Screen:     # the next figure fires as the first did; a long press
            return next_shot(app, label, lambda app, line: fired(app, label, line), more)
        then: Callable[[], Screen] | None = again
    else:
        then = None
    if first:
        return record(app, label, Action.FIRE, line, then)
    return saved(app, line, then)


def stop_firing(app: App, label: str) -> Screen:
    state, _ = playing(app)
    state.shots.pop(label, None)
    app.commit()
    return acting(app)


# -- move, hide, reload --


def moving(app: App, label: str) -> Screen:
    if (no := refusal_by_house(app, label, turns.move)) is not None:
        return no
    piece = app_piece(app, label)
    card = piece.card
    if card.known("move_forward") and card.move_forward is not None:
        return move(app, piece, lambda app, line: record(app, label, Action.MOVE, line),
                    back_to(app, label))
    word = BigWord(app.header(active_shown(playing(app)[1], piece)), moved_word(app, piece),
                   app.t("move_free"))
    return Show([word], lambda: record(app, label, Action.MOVE,
                                       entry("log_moves", label=label)))


def hide(app: App, label: str) -> Screen:
    """Cover here? Enemy figure within 30 cm? Then the rules decide."""
    if (no := refusal(app, label, lambda turn, battle, label: turns.hide(
            turn, battle, label, cover=True, nearest_enemy_figure=None))) is not None:
        return no
    back = back_to(app, label)

    def answered(cover: bool, near: bool) -> Screen:
        state, turn = playing(app)
        try:
            hid, after = turns.hide(turn, state.battle, label, cover=cover, enemy_near=near)
        except RulesError as exc:
            return refused(app, label, exc)
        word = BigWord(app.header(active_shown(turn, after.get(label))),
                       *hidden_words(app, hid, after.get(label)))
        return Show([word], lambda: record(app, label, Action.HIDE,
                                           entry("log_hides", label=label),
                                           cover=cover, enemy_near=near))
    return Choose(app.t("cover_here"), [app.t("yes"), app.t("no")], lambda c: Choose(
        app.t("enemy_within_30"), [app.t("no"), app.t("yes")],
        lambda n: answered(c == 0, n == 1), back, ask=True), back, ask=True)


def hidden_words(app: App, turn: turns.Turn, piece: Piece) -> tuple[str, str]:
    """HIDDEN once the piece is; part of a squad lying down by its count, "5 HIDE", and the
    figures still standing, "3 to go": the squad is hidden once all of it has."""
    if piece.status.hidden:
        return app.t("HIDDEN"), ""
    hid = turns.figures_done(turn, piece.label, action=Action.HIDE)
    return app.t("figures_hide", n=hid), app.t("figures_to_go", n=(piece.figures or 0) - hid)


def carriers(app: App, piece: Piece) -> list[Piece]:
    """The vehicles of the squad's side on the map that it might get on."""
    state, _ = playing(app)
    return [p for p in state.battle.side(piece.side)
            if p.kind.vehicle and not p.gone and not p.status.off_map]


def get_on(app: App, label: str) -> Screen:
    """Which vehicle the squad gets on (its move): the players put the figures on or in it."""
    vehicles = [p.label for p in carriers(app, app_piece(app, label))]
    if (no := refusal_by_house(app, label, turns.get_on, vehicles[0])) is not None:
        return no
    return Choose(app.t("get_on_which"), vehicles, lambda i: got_on(app, label, vehicles[i]),
                  back=back_to(app, label))


def got_on(app: App, label: str, vehicle: str) -> Screen:
    state, turn = playing(app)
    line = entry("log_gets_on", label=label, vehicle=vehicle)
    try:
        state.turn, state.battle = turns.get_on(turn, state.battle, label, vehicle,
                                                english(line), state.house)
    except RulesError as exc:
        return refused(app, label, exc)
    state.last_actor[turn.side] = label
    return saved(app, line)


def get_off(app: App, label: str) -> Screen:
    """The rider gets off, its move: the players put the figures down within their move."""
    if (no := refusal_by_house(app, label, turns.get_off)) is not None:
        return no
    piece = app_piece(app, label)
    assert piece.riding is not None
    line = entry("log_gets_off", label=label, vehicle=piece.riding.vehicle)

    def off() -> Screen:
        state, turn = playing(app)
        state.turn, state.battle = turns.get_off(turn, state.battle, label, english(line),
                                                 state.house)
        state.last_actor[turn.side] = label
        return saved(app, line)
    word = BigWord(app.header(active_shown(playing(app)[1], piece)), moved_word(app, piece),
                   app.t("move_free"))
    return Show([word], off)


def moved_word(app: App, piece: Piece) -> str:
    """MOVED, in Polish as many for figures ("RUSZYLI") and one for a model ("RUSZYŁ")."""
    return app.t("MOVED" if piece.model else "MOVED_MANY")


def take_cover(app: App, label: str) -> Screen:
    """Behind anything that stops a bullet: no mark, the cover counts when it is fired at."""
    return act(app, label, Action.TAKE_COVER, turns.take_cover, app.t("IN COVER"),
               app.t("cover_counts"), entry("log_takes_cover", label=label))


def leave(app: App, label: str) -> Screen:
    """A vehicle without its commander drives off a friendly edge for a new one."""
    _, turn = playing(app)
    back = turns.return_turn(turn.number)
    return act(app, label, Action.LEAVE, turns.leave, app.t("OFF MAP"),
               app.t("back_next_turn"),
               entry("log_leaves", label=label, turn=back))


def act(app: App, label: str, action: Action, rule: Callable[[turns.Turn, Battle, str], object],
        word: str, detail: str, line: LogEntry) -> Screen:
    """An action with no dice: the rule allows it, a big word says it, then it is recorded."""
    if (no := refusal(app, label, rule)) is not None:
        return no
    view = BigWord(app.header(active_shown(playing(app)[1], app_piece(app, label))), word,
                   detail)
    return Show([view], lambda: record(app, label, action, line))


def commander(app: App, label: str, out: bool) -> Screen:
    """The commander sits out in the turret (a figure the enemy may fire at) or goes in: no
    action, only a mark."""
    state, turn = playing(app)
    try:
        state.battle = turns.commander(turn, state.battle, label, out)
    except RulesError as exc:
        return refused(app, label, exc)
    app.commit(by_side(turn.side.value, entry(
        "log_commander_out" if out else "log_commander_in", label=label)))
    return piece_menu(app, label)


def run_over(app: App, label: str) -> Screen:
    """The tank's move over figures and guns: the move first, then what is under it."""
    def allowed(turn: turns.Turn, battle: Battle, label: str) -> None:
        turns.move(turn, battle, label, house=tank_battle(app).house)
        overrun.check_tank(battle.get(label))
    if (no := refusal(app, label, allowed)) is not None:
        return no
    return OverrunPick(label, lambda app, line: record(app, label, Action.MOVE, line),
                       back_to(app, label))


def reload(app: App, label: str) -> Screen:
    if (no := refusal(app, label, turns.reload)) is not None:
        return no
    state, turn = playing(app)
    before = state.battle

    def reloaded(app: App, line: LogEntry) -> Screen:
        # recorded with the battle as it was: the rule refuses to reload a loaded gun
        state.turn, _ = turns.reload(turn, before, label, english(line))
        return saved(app, line)
    return resolve_reload(app, state.battle.get(label), reloaded)


# ---- the end of an activation and of a turn ----


def end_activation(app: App) -> Screen:
    state, turn = playing(app)
    state.turn = turns.end_activation(turn)
    state.shots.clear()
    app.commit()
    return turn_screen(app)


def end_turn(app: App, line: LogEntry) -> Screen:
    """The other side's turn; after both, a new round (the defender first again). `line`:
    how the side ended its turn."""
    state, turn = playing(app)
    side = turn.side
    state.end_turn()                   # who changed place in it, kept
    state.turn, state.battle = turns.end_turn(turn, state.battle)
    state.shots.clear()
    if state.end_action():
        assert state.defender is not None
        state.begin_round(state.defender)
    app.commit(by_side(side.value, line))
    if state.turn.side is not side:
        app.speak(prompt("say_turn", side=state.turn.side.value))
    return turn_screen(app)


# ---- placing pieces from off the map ----


def place_menu(app: App, back: Screen) -> Screen:
    """A piece waiting off the map enters at its side's edge: up to 2 vehicles a turn; figures
    ride in or on a vehicle placed this turn, or come on their own; a gun is towed."""
    state, _ = playing(app)
    waiting = waiting_off_map(state)

    def placed(label: str, riding_with: str | None) -> Screen:
        state, turn = playing(app)
        try:
            state.turn, state.battle = turns.place(turn, state.battle, label, riding_with)
        except RulesError as exc:
            app.cue("error")
            return notice(app, app.t("not_possible"), [app.say(exc)], lambda: back)
        placing = entry("log_places", label=label) if riding_with is None else \
            entry("log_places_with", label=label, carrier=riding_with)
        app.commit(by_side(turn.side.value, placing))
        return back

    def chosen(i: int) -> Screen:
        piece = waiting[i]
        if piece.kind.vehicle:
            return placed(piece.label, None)
        _, turn = playing(app)
        carriers = [p.label for p in turn.placed if p.vehicle]
        if not carriers:
            return placed(piece.label, None)
        options: list[str | None] = [None, *carriers]
        return Choose(app.t("place_with"), [app.t("on_its_own"), *carriers],
                      lambda j: placed(piece.label, options[j]), back=lambda: back)
    return Choose(app.t("place_off_map", n=len(waiting)), [shown(p) for p in waiting],
                  chosen, back=lambda: back)
