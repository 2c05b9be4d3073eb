"""What every COBI battle on the box shares: the rules level, the roster, the initiative roll-off,
rounds, the end of an action, game over, the match of two battles, and the fire and move helpers
both levels use. The next action at a battle's level comes from the games' table (`app.games`)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

from cobi_companion.device.core.app import App, Next, Screen
from cobi_companion.device.core.battle_state import BattleState, MatchState, piece_dict, piece_from
from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll, View
from cobi_companion.device.games.rolling import face_for
from cobi_companion.device.games.shots import Finish, resolve_fire
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ui.measure import DialCm, Measuring
from cobi_companion.device.ui.widgets import Choose, Show, notice, yes_no
from cobi_companion.rules import easy, hiding, scoring, turns
from cobi_companion.rules.battle import Battle, Piece
from cobi_companion.rules.card import Facing, InfoCard, Kind
from cobi_companion.rules.distance import FIRE_RANGE, Call, DistanceCheck
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.levels import RULE_SETS, rule_set
from cobi_companion.rules.movement import allowance
from cobi_companion.rules.shot import ShotPlan
from cobi_companion.rules.status import Side


def choose_rules(app: App) -> Screen:
    names = list(RULE_SETS)
    start = names.index(app.settings.rules) if app.settings.rules in names else 0
    return Choose(app.t("rules"), [app.t(n) for n in names],
                  lambda i: Roster(names[i]), back=lambda: app.games.start(app), index=start)


SQUAD_MAX = 10     # figures the knob dials for one squad


@dataclass
class Roster(Screen):
    """Turn the knob through the cards; a side's button puts the shown model on that side.

    Tank Game: every card, figures too. A figure card's button adds a squad, then the knob
    dials its figures (1-10; the same button adds one more; OK confirms). Holding the button
    down puts the piece off the map, waiting to enter at its side's edge."""

    level: str
    index: int = 0
    battle: Battle = field(default_factory=lambda: Battle("tank"))
    match: bool = False
    squad: str | None = None       # the squad whose figures are being dialled
    last: str | None = None        # the piece added last (a held button puts it off the map)

    def cards(self, app: App) -> list[InfoCard]:
        cards = app.book.sorted()
        if self.level == "tank":
            return cards
        return [c for c in cards if c.kind in (Kind.HARD, Kind.OPEN_TOP)]

    def view(self, app: App) -> View:
        if self.squad is not None:
            piece = self.battle.get(self.squad)
            where = f" · {app.t('off_map')}" if piece.status.off_map else ""
            return BigWord(app.header(f"{piece.label} · {app.side_name(piece.side)}"),
                           str(piece.figures), app.t("dial_figures") + where)
        cards = self.cards(app)
        counts = " · ".join(f"{app.side_name(s)} {len(self.battle.side(s))}" for s in Side)
        hint = app.t("roster_hint_tank" if self.level == "tank" else "roster_hint")
        title = app.t("match") if self.match else app.t("roster")
        return Menu(app.header(title), tuple(c.name for c in cards), self.index,
                    counts if self.battle.pieces else hint)

    def on(self, app: App, key: Key) -> Screen:
        if self.squad is not None:
            return self.dial(app, key)
        cards = self.cards(app)
        if key in (Key.CW, Key.CCW):
            self.index = (self.index + (1 if key is Key.CW else -1)) % len(cards)
        elif key in (Key.AXIS, Key.ALLIES):
            side = Side.AXIS if key is Key.AXIS else Side.ALLIES
            card = cards[self.index]
            figures = 1 if card.kind is Kind.FIGURE else None
            self.battle = self.battle.add(card, side, figures)
            self.last = self.battle.pieces[-1].label
            if card.kind is Kind.FIGURE:
                self.squad = self.last
            app.cue("click")
        elif key in (Key.AXIS_LONG, Key.ALLIES_LONG) and self.level == "tank":
            self.off_map(app, Side.AXIS if key is Key.AXIS_LONG else Side.ALLIES)
        elif key is Key.OK:
            if all(self.battle.side(s) for s in Side):
                return self.begin(app)
            need = "roster_need_piece" if self.level == "tank" else "roster_need"
            return notice(app, app.t("roster"), [app.t(need)], lambda: self)
        elif key is Key.BACK:
            return app.games.start(app) if self.match else choose_rules(app)
        return self

    def dial(self, app: App, key: Key) -> Screen:
        assert self.squad is not None
        piece = self.battle.get(self.squad)
        figures = piece.figures or 1
        if key is Key.CW or key is {Side.AXIS: Key.AXIS, Side.ALLIES: Key.ALLIES}[piece.side]:
            figures = min(figures + 1, SQUAD_MAX)
        elif key is Key.CCW:
            figures = max(figures - 1, 1)
        elif key in (Key.AXIS_LONG, Key.ALLIES_LONG):
            self.off_map(app, Side.AXIS if key is Key.AXIS_LONG else Side.ALLIES)
            return self
        elif key is Key.OK:
            self.squad = None
            return self
        elif key is Key.BACK:            # no squad after all
            self.battle = replace(self.battle, pieces=tuple(
                p for p in self.battle.pieces if p.label != piece.label))
            self.squad = self.last = None
            return self
        # the long press came after its own short press, which added one figure: take it back
        self.battle = self.battle.replace_piece(replace(piece, figures=figures))
        return self

    def off_map(self, app: App, side: Side) -> None:
        """The held button: the piece just added waits off the map (held again: back on it)."""
        if self.last is None:
            return
        piece = self.battle.get(self.last)
        if piece.side is not side:
            return
        if self.squad == piece.label and (piece.figures or 1) > 1:
            piece = replace(piece, figures=(piece.figures or 1) - 1)
        status = replace(piece.status, off_map=not piece.status.off_map)
        self.battle = self.battle.replace_piece(replace(piece, status=status))
        app.cue("click")

    def begin(self, app: App) -> Screen:
        pieces = self.battle.pieces
        state = BattleState(self.level, Battle(self.level, pieces))
        app.begin(state)
        if self.match:
            state.match = MatchState(1, [piece_dict(p) for p in pieces])
        head = "new match, battle 1" if self.match else f"new {self.level} battle"
        app.commit(f"{head}: " + ", ".join(f"{roster_name(p)} ({p.side.value})"
                                           for p in pieces))
        return begin_round(app)


def roster_name(piece: Piece) -> str:
    """'Rifle 1 (3)' for a squad, the label for a model; '(off map)' when waiting off it."""
    name = f"{piece.label} ({piece.figures})" if piece.kind is Kind.FIGURE else piece.label
    return name + (" off map" if piece.status.off_map else "")


@dataclass
class RollOff(Screen):
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
        need = replace(easy.INITIATIVE[side], words=f"{side.value} initiative")  # as logged

        def rolled(face: int, side: Side = side) -> Screen:
            return self.rolled(app, side, face)
        return face_for(app, need, side.value, rolled,
                        asked=f"{app.side_name(side)}: {self.title}")

    def rolled(self, app: App, side: Side, face: int) -> Screen:
        self.faces[side] = face
        if len(self.faces) < 2:
            return self
        axis, allies = self.faces[Side.AXIS], self.faces[Side.ALLIES]
        winner = easy.roll_off(axis, allies)
        shown = Roll(app.header(self.title), (axis, allies), app.t("both_press"),
                     needed=f"{axis} : {allies}",
                     total="=" if winner is None else app.side_name(winner))
        if winner is None:          # a tie rolls again
            return Show([shown], lambda: RollOff(self.title, self.then), animate=True)
        after = self.then(winner)   # saved now: a restart on the result does not roll again
        return Show([shown], lambda: after, animate=True)


def begin_round(app: App) -> Screen:
    state = app.playing
    if state.level == "easy":
        def easy_start(winner: Side) -> Screen:
            state.begin_round(winner)
            app.commit(f"round {state.round}: {winner.value} has the initiative")
            return app.games.next_action(app)
        return RollOff(app.t("initiative"), easy_start)
    if state.defender is None:
        def tank_start(attacker: Side) -> Screen:
            state.defender = attacker.enemy
            state.begin_round(state.defender)
            state.turn = turns.first_turn(state.defender)
            app.commit(f"{attacker.value} attacks, {state.defender.value} defends")
            return notice(app, app.t("initiative"),
                          [app.t("defender_first", side=app.side_name(state.defender))],
                          lambda: app.games.next_action(app))
        return RollOff(app.t("attacker_roll"), tank_start)
    state.begin_round(state.defender)
    if state.turn is None or state.turn.side is not state.defender:
        state.turn = turns.Turn(2 * state.round - 1, state.defender)
    return app.games.next_action(app)


def finish(app: App, line: str) -> Screen:
    """An action is complete: save it, then game over, the other side, or a new round."""
    state = app.playing
    assert state.active is not None
    actor = state.active
    winner = rule_set(state.level).winner(state.battle)
    if winner is not None:
        state.winner = winner
        app.commit(f"{actor.value} {line}; {winner.value} win")
        return game_over(app, winner)
    round_over = state.end_action()
    app.commit(f"{actor.value} {line}")
    return begin_round(app) if round_over else app.games.next_action(app)


def game_over(app: App, winner: Side) -> Screen:
    app.cue("win", winner.value)

    def again() -> Screen:
        app.end()
        return app.games.start(app)
    word = app.t("WINS", side=app.side_name(winner).upper())
    views: list[View] = [BigWord(app.header(app.t("game_over")), word)]
    state = app.state
    if state is None or state.level != "tank":
        return Show(views, again)
    views.append(Lines(app.header(app.t("figures_left")), tuple(
        f"{app.side_name(side)}: {side_score(state.battle, side).total}" for side in Side)))
    return Show(views, (lambda: match_next(app)) if state.match else again)


def side_score(battle: Battle, side: Side) -> scoring.Score:
    """A side's figures left (a vehicle counts its card's crew). A piece whose card does not
    give its crew counts 0, with the reason, rather than stopping the end of the battle."""
    lines: list[scoring.ScoreLine] = []
    for piece in battle.side(side):
        try:
            lines.extend(scoring.score(Battle(battle.level, (piece,)), side).lines)
        except RulesError as exc:
            lines.append(scoring.ScoreLine(piece.label, piece.kind, 0, str(exc)))
    return scoring.Score(side, tuple(lines))


def battle_won(app: App, winner: Side, line: str) -> Screen:
    """A Tank Game battle is over: save the winner (and the match's record), then game over."""
    state = app.playing
    state.winner = winner
    if state.match is not None:
        result = scoring.BattleResult(winner, state.gave_up, side_score(state.battle, winner))
        state.match.record = state.match.record.record(result)
    app.commit(f"{line}; {winner.value} win")
    return game_over(app, winner)


def team_name(app: App, team: scoring.Team) -> str:
    return app.t("team_1" if team is scoring.Team.ONE else "team_2")


def match_next(app: App) -> Screen:
    """After a match battle: the second battle with the sides swapped, or the result."""
    state = app.playing
    assert state.match is not None
    match = state.match
    if match.record.complete:
        return match_result(app)
    done = match.record.battles[-1]
    number = len(match.record.battles)
    team = scoring.Match.team(number, done.winner)
    swapped = scoring.Match.side(number + 1, scoring.Team.ONE)
    lines = (app.t("battle_n", n=number),
             app.t("battle_won", team=team_name(app, team), n=done.figures),
             app.t("sides_swap"),
             app.t("team_plays", team=team_name(app, scoring.Team.ONE),
                   side=app.side_name(swapped)))

    def second() -> Screen:
        pieces = tuple(piece_from(p, app.book) for p in match.roster)
        app.begin(BattleState("tank", Battle("tank", pieces),
                              match=MatchState(number + 1, match.roster, match.record)))
        app.commit(f"match battle {number + 1}: the sides swap")
        return begin_round(app)
    return Show([Lines(app.header(app.t("match")), lines, hint=app.t("ok_next"))], second)


def match_result(app: App) -> Screen:
    state = app.playing
    assert state.match is not None
    result = state.match.record.result()
    one, two = (result.totals[team] for team in scoring.TEAMS)
    word = app.t("DRAW") if result.winner is None else app.t(
        "TEAM_WINS", team=team_name(app, result.winner).upper())
    lines = tuple(app.t("match_total", team=team_name(app, team), n=result.totals[team])
                  for team in scoring.TEAMS) + tuple(
        f"{app.t('battle_n', n=b.number)}: {team_name(app, b.winner_team)} {b.figures}"
        for b in result.battles)

    def over() -> Screen:
        app.end()
        return app.games.start(app)
    app.cue("win")
    return Show([BigWord(app.header(app.t("match")), word, f"{one} : {two}"),
                 Lines(app.header(app.t("match")), lines, hint=app.t("ok_next"))], over)


def refuse(app: App, reason: str, back: Next) -> Screen:
    """An action the rules do not allow: the reason, then back to the choice."""
    app.cue("error")
    return notice(app, app.t("not_possible"), [reason], back)


def pick_facing(app: App, firer: Piece, target: Piece, done: Finish, back: Next | None,
                retarget: Next) -> Screen:
    """Armour hit, then (Tank Game) hull down and range, then the shot. `done` completes the
    action; `back` is where a refused shot goes (None: back to this choice of the armour hit,
    so a refusal never costs the turn); `retarget` is where a long press on the facing goes."""
    facings = list(Facing)
    modifiers = rule_set(app.playing.level).modifiers
    def again() -> Screen:
        return pick_facing(app, firer, target, done, back, retarget)
    after = done

    def plan(facing: Facing, hull_down: bool = False, range_cm: float | None = None,
             over: bool = False) -> ShotPlan:
        return ShotPlan(firer.card, target.card, facing, hull_down, range_cm,
                        crew_below_half=modifiers and firer.crew_below_half(),
                        attacker_status=firer.status, target_status=target.status,
                        over_range=over)

    def chosen(i: int) -> Screen:
        facing = facings[i]
        if not modifiers:
            return resolve_fire(app, firer, target, plan(facing), after, back or again)
        return yes_no(app, app.t("hull_down"), lambda hull: fire_range(
            app, lambda cm, over: resolve_fire(app, firer, target, plan(facing, hull, cm, over),
                                               after, back or again), again), again)
    return Choose(app.t("facing"), [app.t(f.value) for f in facings], chosen, back=retarget)


def fire_range(app: App, then: Callable[[float | None, bool], Screen], back: Next) -> Screen:
    """Over 100 cm? Measured by a sensor (offered first when one is online), dialled in cm, or
    just yes or no. `then(cm, over)` gets the range in cm for the rules, or None and the
    players' own yes or no."""
    def measured(check: DistanceCheck, over: bool) -> Screen:
        if check.call is not Call.TOO_CLOSE:
            return then(check.cm, False)
        return then(None, over)   # too close to call: the players' own call
    def measure(name: str) -> Screen:
        return Measuring(FIRE_RANGE, name, measured, back).begin(app)
    ways: list[tuple[str, Next]] = [(app.t("measure_with", sensor=name), partial(measure, name))
                                    for name in app.sensors.online_names()]
    ways += [(app.t("no"), lambda: then(None, False)),
             (app.t("yes"), lambda: then(None, True)),
             (app.t("enter_cm"), lambda: DialCm(FIRE_RANGE, measured, back))]
    return Choose(app.t("over_100"), [label for label, _ in ways], lambda i: ways[i][1](),
                  back)


def move(app: App, vehicle: Piece, done: Finish, back: Next) -> Screen:
    """The movement allowance: backward, turns, rough, road. `done` completes the action,
    `back` is where a long press or a refusal goes."""
    try:
        allowance(vehicle.card, status=vehicle.status)
    except RulesError as exc:
        return refuse(app, app.say(exc), back)
    after = done

    def result(reverse: bool, turns: int, rough: bool, road: bool) -> Screen:
        try:
            cm = allowance(vehicle.card, reverse=reverse, turns=turns, rough=rough, road=road,
                           status=vehicle.status).cm
        except RulesError as exc:
            return refuse(app, app.say(exc), back)
        word = BigWord(app.header(vehicle.label), f"{cm} cm", app.t("move_up_to", cm=cm))
        return Show([word], lambda: after(app, f"{vehicle.label} moves up to {cm} cm"))

    return yes_no(app, app.t("reverse"), lambda rev: Choose(
        app.t("turns"), [str(n) for n in range(9)], lambda turns: yes_no(
            app, app.t("rough"), lambda rough: yes_no(
                app, app.t("road"), lambda road: result(rev, turns, rough, road), back),
            back), back), back)


def give_up(app: App, back: Screen) -> Screen:
    """Tank Game: a side gives up; the other side has won."""
    sides = list(Side)

    def chosen(i: int) -> Screen:
        state = app.playing
        state.gave_up = sides[i]
        return battle_won(app, sides[i].enemy, f"{sides[i].value} gives up")
    return Choose(app.t("give_up"), [app.t("gives_up", side=app.side_name(s)) for s in sides],
                  chosen, back=lambda: back)


def hidden_pieces(app: App, back: Screen) -> Screen:
    """Tank Game: the pieces on the map, hidden ones marked. OK on a hidden piece: an enemy
    figure spotted it. OK on another: it starts hidden (at set-up only, before the first
    activation; in play figures hide in an activation)."""
    state = app.playing
    assert state.turn is not None
    pieces = [p for p in state.battle.pieces if not p.gone and not p.status.off_map]
    def again() -> Screen:
        return hidden_pieces(app, back)

    def chosen(i: int) -> Screen:
        assert state.turn is not None
        piece = pieces[i]
        if piece.status.hidden:
            state.battle = state.battle.replace_piece(hiding.reveal(piece))
            app.commit(f"{piece.label} is spotted")
            return again()
        setup = state.turn.number == 1 and not state.turn.activations and state.round == 1
        try:
            if not setup:
                return refuse(app, app.t("hide_in_play"), again)
            hiding.can_hide(piece, True, setup=True)
        except RulesError as exc:
            return refuse(app, app.say(exc), again)
        state.battle = state.battle.replace_piece(hiding.conceal(piece))
        app.commit(f"{piece.label} starts hidden")
        return again()
    items = [("• " if p.status.hidden else "") + f"{p.label} {app.side_name(p.side)}"
             for p in pieces] or ["-"]
    return Choose(app.t("hidden_pieces"), items,
                  chosen if pieces else lambda i: back, back=lambda: back,
                  hint=app.t("hidden_hint"))


def end_battle(app: App) -> Screen:
    app.end()
    return app.games.start(app)


