"""What every COBI battle on the box shares: the initiative roll-off, rounds, the end of an
action, game over, the match of two battles, and the fire and move helpers both levels use.
What a battle goes on with at its level comes from its game (`app.games.play`: games/easy.py,
games/tank/rounds.py)."""
from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from functools import partial

from cobi_companion.device.core.app import App, Next, Screen
from cobi_companion.device.core.battle_log import LogEntry, by_side, entry, won
from cobi_companion.device.core.battle_state import LastShot, MatchState, TankBattle, piece_from
from cobi_companion.device.core.spoken import Spoken, outcome, prompt
from cobi_companion.device.core.views import BigWord, Lines, Roll, View
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.house import house_entry
from cobi_companion.device.games.rolling import face_for
from cobi_companion.device.games.shots import Finish, FirePreview
from cobi_companion.device.games.throw import die_side, online
from cobi_companion.device.ports.die_readings import Settled
from cobi_companion.device.ports.events import DieFound, DieLink, DieSaid, Key, ScanDone
from cobi_companion.device.ui.measure import DialCm, Measuring
from cobi_companion.device.ui.widgets import Choose, Show, notice, yes_no
from cobi_companion.rules.battle import Battle, Piece
from cobi_companion.rules.card import Facing
from cobi_companion.rules.dice import Need
from cobi_companion.rules.distance import FIRE_RANGE, Call, DistanceCheck
from cobi_companion.rules.easy import fire as easy
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.levels import rule_set
from cobi_companion.rules.movement import allowance
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank import hiding, scoring
from cobi_companion.words.grammar import SideName, side_is_many


@dataclass
class RollOff(Screen):
    """Both players press their own button; the higher die wins, a tie rolls again. The
    result stays a beat and the battle goes on by itself; a tie says so and waits for both
    buttons again."""

    title: str
    then: Callable[[Side], Screen]
    faces: dict[Side, int] = field(default_factory=dict)
    tie: bool = False               # the last roll-off was a tie
    # What the winner's roll means, said once the dice showing it stop (who goes first)
    says: Callable[[Side], Spoken] | None = None

    def waiting(self) -> list[Side]:
        return [side for side in Side if side not in self.faces]

    def thrown(self, app: App) -> bool:
        """Every side still to roll has smart dice connected: they throw rather than press
        (a side whose dice are all asleep presses its button)."""
        return all(app.settings.source(side.value) == "smart" and online(app, side.value)
                   for side in self.waiting())

    def view(self, app: App) -> View:
        shown = tuple(self.faces.get(s, 0) for s in Side if s in self.faces)
        who = " : ".join(str(self.faces[s]) if s in self.faces else "?" for s in Side)
        waiting = self.waiting()
        if self.tie and not self.faces:
            caption = app.t("tie")
        elif self.thrown(app) and len(waiting) == 1:
            caption = app.t("throw_dice", side=app.side_word(waiting[0]), n=1)
        else:
            caption = app.t("both_throw" if self.thrown(app) else "both_press")
        return Roll(app.header(self.title), shown, caption, needed=who)

    def takes_roll(self, key: Key) -> bool:
        side = {Key.AXIS: Side.AXIS, Key.ALLIES: Side.ALLIES}.get(key)
        return side is not None and side not in self.faces

    def prompt(self, app: App) -> Spoken | None:
        """Both buttons, or once one side has pressed, the other side's alone; with smart
        dice, their dice (lit in their sides' colours)."""
        waiting = self.waiting()
        if self.thrown(app):
            return prompt("say_throw", side=waiting[0].value, n=1) if len(waiting) == 1 \
                else prompt("say_throw_both")
        if len(waiting) == 1:
            return prompt("say_press", side=waiting[0].value)
        return prompt("say_press_again" if self.tie else "say_press_both")

    def on(self, app: App, key: Key) -> Screen:
        side = {Key.AXIS: Side.AXIS, Key.ALLIES: Side.ALLIES}.get(key)
        if side is None or side in self.faces:
            if key is Key.BACK:
                return app.menu(self)
            if side is not None or key is Key.OK:
                app.cue("error")            # rolled already, or not a dice button
            return self
        need = self.need(side)

        def rolled(face: int, side: Side = side) -> Screen:
            return self.rolled(app, side, face)
        if app.settings.source(side.value) == "smart":     # the button rolls by the box
            return rolled(app.roll(need, side.value))
        return face_for(app, need, side.value, rolled,
                        asked=joined(": ", app.side_name(side), self.title))

    def dice_lit(self, app: App) -> Collection[str] | None:
        """The smart dice of each side still to throw (device/core/turn_lights.py)."""
        return [side.value for side in self.waiting()
                if app.settings.source(side.value) == "smart"]

    @staticmethod
    def need(side: Side) -> Need:
        return replace(easy.INITIATIVE[side], words=f"{side.value} initiative")  # as logged

    def on_die(self, app: App, event: DieFound | ScanDone | DieSaid | DieLink) -> Screen:
        """Smart dice: a side's die settling is its roll (its button still rolls too); a
        side that rolled already is refused with the cue."""
        if not isinstance(event, DieSaid) or not isinstance(event.reading, Settled):
            return self
        side = {s.value: s for s in Side}.get(die_side(app, event.die))
        if side is None or app.settings.source(side.value) != "smart":
            return self
        if side in self.faces:
            app.cue("error")
            return self
        app.thrown(event.reading.face, self.need(side), side.value, event.die)
        return self.rolled(app, side, event.reading.face)

    def taken(self, app: App) -> Screen:
        """The roll-off, with the face a smart die gave its next die before a restart
        (App.kept_throw) taken at once for the die's side, as it was thrown: the box's own
        dice come out the same after a restart, and so does a thrown one."""
        kept = app.kept_throw()
        if kept is None:
            return self
        die, face = kept
        side = {s.value: s for s in Side}.get(die_side(app, die))
        if side is None or side in self.faces:     # unpaired since: the next roll takes it
            return self
        app.thrown(face, self.need(side), side.value, die)
        return self.rolled(app, side, face)

    def rolled(self, app: App, side: Side, face: int) -> Screen:
        self.faces[side] = face
        if len(self.faces) < 2:
            return self.taken(app)
        axis, allies = self.faces[Side.AXIS], self.faces[Side.ALLIES]
        winner = easy.roll_off(axis, allies)
        if winner is None:          # a tie rolls again
            tied = Roll(app.header(self.title), (axis, allies), app.t("tie"),
                        needed=f"{axis} : {allies}", total=app.t("TIE"))

            def again() -> Screen:
                return RollOff(self.title, self.then, tie=True, says=self.says).taken(app)
            return Show([tied], again,
                        animate=True, play=True, go_on=True, says=[outcome("say_tie")])
        thrown = all(app.settings.source(side.value) == "smart" for side in Side)
        shown = Roll(app.header(self.title), (axis, allies),
                     app.t("both_throw" if thrown else "both_press"),
                     needed=f"{axis} : {allies}", total=app.side_name(winner))
        with app.frames_say():      # who goes first is said once the dice have stopped
            after = self.then(winner)   # saved now: a restart on the result does not roll again
        return Show([shown], lambda: after, animate=True, play=True, go_on=True,
                    says=[self.says(winner) if self.says else None])


def begin_round(app: App) -> Screen:
    """A new round (no side is active): how it starts is its level's (`app.games.play`)."""
    return app.games.play(app)


def tank_battle(app: App) -> TankBattle:
    """The Tank Game battle in play: the Tank Game's screens are only reached with one."""
    state = app.playing
    if not isinstance(state, TankBattle):
        raise RuntimeError("no Tank Game battle in play")
    return state


def finish(app: App, line: LogEntry, passed: bool = False) -> Screen:
    """An action is complete: save it (`line`: what the active side did; `passed`: the side
    passed), then game over, the other side, or a new round."""
    state = app.playing
    assert state.active is not None
    done = by_side(state.active.value, line)
    winner = rule_set(state.level).winner(state.battle)
    if winner is not None:
        state.winner = winner
        app.commit(won(done, winner.value))
        return game_over(app, winner)
    before = state.active
    round_over = state.end_action(passed)
    app.commit(done)
    if not round_over and state.active is not before and state.active is not None:
        app.speak(prompt("say_turn", side=state.active.value))
    return app.games.play(app)           # the next action, or the next round's start


def game_over(app: App, winner: Side, said: bool = True) -> Screen:
    """The winner's big word, said as it is drawn (`said` False: shown again from the menu,
    where it was heard before), then (Tank Game) the figures left."""
    app.cue("win", winner.value)

    def again() -> Screen:
        app.end()
        return app.games.start(app)
    word = app.t("WINS", side=SideName(app.side_name(winner).upper(), side_is_many(winner.value),
                                       winner.value))
    views: list[View] = [BigWord(app.header(app.t("game_over")), word)]
    says = [outcome("say_wins", side=winner.value) if said else None]
    state = app.state
    if not isinstance(state, TankBattle):
        return Show(views, again, says=says)
    views.append(Lines(app.header(app.t("figures_left")), tuple(
        joined(": ", app.side_name(side), str(side_score(state.battle, side).total))
        for side in Side)))
    return Show(views, (lambda: match_next(app)) if state.match else again, says=says)


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


def battle_won(app: App, winner: Side, line: LogEntry) -> Screen:
    """A Tank Game battle is over: save the winner (and the match's record), then game over."""
    state = tank_battle(app)
    state.winner = winner
    if state.match is not None:
        result = scoring.BattleResult(winner, state.gave_up, side_score(state.battle, winner),
                                      side_score(state.battle, winner.enemy).total)
        state.match.record = state.match.record.record(result)
    app.commit(won(line, winner.value))
    return game_over(app, winner)


def team_name(app: App, team: scoring.Team) -> str:
    return app.t("team_1" if team is scoring.Team.ONE else "team_2")


def match_next(app: App) -> Screen:
    """After a match battle: the second battle with the sides swapped, or the result."""
    state = tank_battle(app)
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
        app.begin(TankBattle(Battle(TankBattle.level, pieces),
                              match=MatchState(number + 1, match.roster, match.record),
                              house=state.house))      # the match keeps its house rules
        app.commit(entry("log_match_battle", n=number + 1))
        if (changed := house_entry(state.house, TankBattle.level)) is not None:
            app.commit(changed)                 # its log, too, starts with them
        return begin_round(app)
    return Show([Lines(app.header(app.t("match")), lines, hint=app.t("ok_next"))], second,
                says=[outcome("say_sides_swap")])


def match_result(app: App) -> Screen:
    state = tank_battle(app)
    assert state.match is not None
    result = state.match.record.result(state.house)
    one, two = (result.totals[team] for team in scoring.TEAMS)
    word = app.t("DRAW") if result.winner is None else app.t(
        "TEAM_WINS", team=team_name(app, result.winner).upper())
    lines = tuple(app.t("match_total", team=team_name(app, team), n=result.totals[team])
                  for team in scoring.TEAMS) + tuple(
        joined(": ", app.t("battle_n", n=b.number),
               joined(" ", team_name(app, b.winner_team), str(b.figures)))
        for b in result.battles)

    def over() -> Screen:
        app.end()
        return app.games.start(app)
    app.cue("win")
    said = outcome("say_match_draw") if result.winner is None else outcome(
        "say_team_wins", n=1 if result.winner is scoring.Team.ONE else 2)
    return Show([BigWord(app.header(app.t("match")), word, f"{one} : {two}"),
                 Lines(app.header(app.t("match")), lines, hint=app.t("ok_next"))], over,
                says=[said])


def refuse(app: App, reason: str, back: Next) -> Screen:
    """An action the rules do not allow: the reason, then back to the choice."""
    app.cue("error")
    return notice(app, app.t("not_possible"), [reason], back)


def aim_at(app: App, firer: Piece, target: Piece, done: Finish, back: Next,
           measure: bool = False) -> Screen:
    """A shot at one piece with the main gun: (Tank Game) hull down and the range first, then
    the shot before it is fired, with the armour hit on the knob. Each starts on the answer
    of the side's last shot at this target (`measure`: the range starts on a sensor, when one
    is online: the last shot again after a move measures anew). `done` completes the action;
    `back` is the choice before (a refused shot stays on its screen with the reason: no turn
    is lost)."""
    state = app.playing
    last = state.last_shot.get(firer.side)
    same = last if last is not None and last.target == target.label else None
    aim = LastShot(firer.label, target.label, same.facing if same else Facing.FRONT)

    def preview(aim: LastShot) -> Screen:
        return FirePreview(aim, firer.side.value, done, back)
    if not rule_set(state.level).modifiers:
        return preview(aim)

    def again() -> Screen:
        return aim_at(app, firer, target, done, back, measure)

    fresh = same is None or (measure and bool(app.sensors.online_names()))

    def hull(yes: bool) -> Screen:
        return fire_range(app, lambda cm, over: preview(replace(
            aim, hull_down=yes, range_cm=cm, over=over)), again,
            over=None if fresh or same is None else same.over or (same.range_cm or 0) > 100)
    return Choose(app.t("hull_down"), [app.t("no"), app.t("yes")], lambda i: hull(i == 1),
                  back, index=int(same is not None and same.hull_down), ask=True)


def fire_range(app: App, then: Callable[[float | None, bool], Screen], back: Next,
               over: bool | None = None) -> Screen:
    """Over 100 cm? Measured by a sensor (offered first when one is online), dialled in cm, or
    just yes or no (`over`: the answer to start on). `then(cm, over)` gets the range in cm for
    the rules, or None and the players' own yes or no."""
    def measured(check: DistanceCheck, over: bool) -> Screen:
        if check.call is not Call.TOO_CLOSE:
            return then(check.cm, False)
        return then(None, over)   # too close to call: the players' own call
    def measure(name: str) -> Screen:
        return Measuring(FIRE_RANGE, name, measured, back).begin(app)
    ways: list[tuple[str, Next]] = [(app.t("measure_with", sensor=name), partial(measure, name))
                                    for name in app.sensors.online_names()]
    sensors = len(ways)
    ways += [(app.t("no"), lambda: then(None, False)),
             (app.t("yes"), lambda: then(None, True)),
             (app.t("enter_cm"), lambda: DialCm(FIRE_RANGE, measured, back))]
    start = 0 if over is None else sensors + int(over)
    return Choose(app.t("over_100"), [label for label, _ in ways], lambda i: ways[i][1](),
                  back, index=start, ask=True)


def move(app: App, vehicle: Piece, done: Finish, back: Next) -> Screen:
    """The movement allowance: backward, turns, rough, road. `done` completes the action,
    `back` is where a long press or a refusal goes."""
    if (no := move_refusal(vehicle)) is not None:
        return refuse(app, app.say(no), back)
    after = done

    house = app.playing.house

    def result(reverse: bool, turns: int, rough: int, road: bool) -> Screen:
        try:
            cm = allowance(vehicle.card, reverse=reverse, turns=turns, rough=rough, road=road,
                           status=vehicle.status, name=vehicle.label, house=house).cm
        except RulesError as exc:
            return refuse(app, app.say(exc), back)
        word = BigWord(app.header(vehicle.label), f"{cm} cm", app.t("move_up_to", cm=cm))
        return Show([word], lambda: after(app, entry("log_moves_up_to", label=vehicle.label,
                                                     cm=cm)))

    def patches(rev: bool, turns: int) -> Screen:
        if house.rough == "once":       # the Move in Rough once, however much is crossed
            return result(rev, turns, 1, False)
        return Choose(app.t("rough_patches"), [str(n) for n in range(1, 10)],
                      lambda i: result(rev, turns, i + 1, False), back)

    def on_road(rev: bool, turns: int) -> Screen:
        if rev and house.road_reverse == "forward_only":    # no road bonus backward
            return result(rev, turns, 0, False)
        return yes_no(app, app.t("road"), lambda road: result(rev, turns, 0, road), back)

    def terrain(rev: bool, turns: int) -> Screen:
        # A move across rough ground is not all on road: the road is asked only after a no.
        return yes_no(app, app.t("rough"), lambda rough: patches(rev, turns)
                      if rough else on_road(rev, turns), back)

    return yes_no(app, app.t("reverse"), lambda rev: Choose(
        app.t("turns"), [str(n) for n in range(9)], lambda turns: terrain(rev, turns), back,
        hint=app.t("turns_hint")), back)


def move_refusal(vehicle: Piece) -> RulesError | None:
    """The rules' refusal of any move of the vehicle now (destroyed, immobilized), or None."""
    try:
        allowance(vehicle.card, status=vehicle.status, name=vehicle.label)
    except RulesError as exc:
        return exc
    return None


def give_up(app: App, back: Screen) -> Screen:
    """Tank Game: a side gives up, once the players say yes; the other side has won."""
    sides = list(Side)

    def chosen(i: int) -> Screen:
        side = sides[i]

        def given(yes: bool) -> Screen:
            if not yes:
                return back
            state = tank_battle(app)
            state.gave_up = side
            return battle_won(app, side.enemy, entry("log_gives_up", side=side.value))
        return yes_no(app, app.t("gives_up_ask", side=app.side_word(side)), given,
                       lambda: give_up(app, back))
    # The side whose turn it is is the one likeliest to give up: its row is lit first.
    state = tank_battle(app)
    turn = state.turn.side if state.turn is not None else state.active
    return Choose(app.t("give_up"), [app.t("gives_up", side=app.side_word(s)) for s in sides],
                  chosen, back=lambda: back, index=sides.index(turn) if turn in sides else 0)


def hidden_pieces(app: App, back: Screen) -> Screen:
    """Tank Game: the pieces on the map, hidden ones marked. OK on a hidden piece: who spotted
    it, an enemy figure or a commander out in the turret. OK on another: it starts hidden (at
    set-up only, before the first activation; in play figures hide in an activation)."""
    state = tank_battle(app)
    assert state.turn is not None
    pieces = [p for p in state.battle.pieces if not p.gone and not p.status.off_map]
    def again() -> Screen:
        return hidden_pieces(app, back)

    def chosen(i: int) -> Screen:
        assert state.turn is not None
        piece = pieces[i]
        if piece.status.hidden:
            return spotted_by(app, piece, again)
        setup = state.turn.number == 1 and not state.turn.activations and state.round == 1
        try:
            if not setup:
                return refuse(app, app.t("hide_in_play"), again)
            hiding.can_hide(piece, True, setup=True)
        except RulesError as exc:
            return refuse(app, app.say(exc), again)
        state.battle = state.battle.replace_piece(hiding.conceal(piece))
        app.commit(entry("log_starts_hidden", label=piece.label))
        return again()
    items = [joined(" ", ("• " if p.status.hidden else "") + p.label, app.side_name(p.side))
             for p in pieces] or ["-"]
    return Choose(app.t("hidden_pieces"), items,
                  chosen if pieces else lambda i: back, back=lambda: back,
                  hint=app.t("hidden_hint"))


def spotted_by(app: App, hidden: Piece, back: Next) -> Screen:
    """The enemy pieces that may spot the hidden piece (rules.tank.hiding: a figure, or a closed
    vehicle whose commander sits out in the turret): OK on one, the players say it came
    within its spotting distance, and the piece is revealed."""
    state = app.playing
    spotters = [p for p in state.battle.side(hidden.side.enemy)
                if not p.gone and not p.status.off_map and hiding.can_spot(p)]
    if not spotters:
        return refuse(app, app.t("no_spotter", label=hidden.label), back)

    def chosen(i: int) -> Screen:
        try:
            check = hiding.spots(spotters[i], state.battle.get(hidden.label), None, False,
                                 within=True)
        except RulesError as exc:
            return refuse(app, app.say(exc), back)
        state.battle = state.battle.replace_piece(check.after)
        app.commit(entry("log_spotted_by_commander" if check.commander else "log_spotted_by",
                         label=hidden.label, spotter=check.spotter))
        return back()
    items = [app.t("commander_of", label=p.label) if p.commander_outside
             else f"{p.label} ({p.figures or 0})" for p in spotters]
    return Choose(app.t("spotted_by"), items, chosen, back=back, hint=hidden.label)


def end_battle(app: App) -> Screen:
    app.end()
    return app.games.start(app)


