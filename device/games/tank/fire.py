"""Tank Game fire on the box: at hard targets with the main gun (AP), at soft targets with a
weapon of the Soft Targets Table, and template fire (HE, machine guns) at every piece under it.

A shot at one figure or soft vehicle: target, situation, range in cm, the odds, then the
attacker's button for the attacker's die and the defender's button for theirs, and one big word.
A value the Soft Targets Table lacks is asked for before the odds (`learn`).
Template fire: the pieces under the template (how many figures of each, and where they are),
HE's to-hit and reload first, then each attack in turn with both players' buttons, each one
shown, and a big summary like "3 of 5 down". The rules are `rules.tank.soft_fire`; the box replays
them one die at a time.
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from math import ceil, floor
from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import LogEntry, entry
from cobi_companion.device.core.battle_state import LastShot, SquadAim
from cobi_companion.device.core.replay import Replay
from cobi_companion.device.core.spoken import Spoken, item, outcome
from cobi_companion.device.core.spoken_log import said_of
from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll, View
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.battle import aim_at, fire_range, refuse, tank_battle
from cobi_companion.device.games.menus import Scroll, with_ride
from cobi_companion.device.games.rolling import awaited, gather
from cobi_companion.device.games.shots import (
    Finish,
    down_said,
    hit_said,
    needs_text,
    pair,
    reload_said,
    reload_word,
)
from cobi_companion.device.games.tank import learn
from cobi_companion.device.ui.details import soft_details
from cobi_companion.device.ui.measure import CmKnob, Measuring
from cobi_companion.device.ui.outcome_words import BIG_WORDS
from cobi_companion.device.ui.widgets import (
    Choose,
    Count,
    PickPieces,
    Show,
    WaitPress,
    notice,
    said_item,
)
from cobi_companion.device.ui.wording import chance, weapon_words
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.card import Facing, Kind, Template, Weapon
from cobi_companion.rules.dice import Aim, Need, ScriptedDice
from cobi_companion.rules.distance import FIRE_RANGE, DistanceCheck
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.shot import check_firer
from cobi_companion.rules.status import Effect
from cobi_companion.rules.tank import choices, soft_fire, soft_odds, turns
from cobi_companion.rules.tank.refusals import TankRefusal
from cobi_companion.rules.tank.soft_fire import Attack, Covered, PieceResult, SoftFire, SoftPlan
from cobi_companion.rules.tank.turns import Action
from cobi_companion.rules.trace import DieCheck

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

# The target's situations, as the screens offer them: "open" adds no modifier.
SITUATIONS = ("open", "soft_cover", "hard_cover", "soft_vehicle")
# Each of these dice waits for its own press of a button, so every attack is seen.
ONE_PRESS_EACH = frozenset({Aim.TO_HIT, Aim.ATTACK, Aim.DEFENCE})
RANGE_START_CM = 30


def shown(piece: Piece) -> str:
    return piece.label if piece.model else f"{piece.label} ({piece.figures or 0})"


def enemies(app: App, firer: Piece) -> list[Piece]:
    """The enemy pieces on the map (which of them may be fired at, and by what: the rules,
    asked by the menus)."""
    return [p for p in tank_battle(app).battle.side(firer.side.enemy)
            if not p.gone and not p.status.off_map]


def template_weapons(piece: Piece) -> list[Weapon]:
    weapons = [w for w in piece.card.weapons if w.template is not None]
    if turns.has_gun(piece):
        with contextlib.suppress(RulesError):       # its card says it has no HE
            weapons.append(soft_fire.he_weapon(piece.card))
    return weapons


def check_main_gun(piece: Piece) -> None:
    """A vehicle or gun that has only its main gun: refuse at once what no shot of it could
    get past (a lost gun, unloaded, no gun on its card, no crew)."""
    try:
        weapon = soft_fire.he_weapon(piece.card)
    except RulesError:                        # no HE: the gun's AP fire
        check_firer(piece.card, piece.status, needs_loaded=True)
        return
    soft_fire.check_soft_firer(piece, weapon)


def weapon_name(weapon: Weapon) -> str:
    return "HE" if weapon.name == soft_fire.HE else weapon.name


def shot_name(weapon: Weapon) -> str:
    """The weapon as the turn counts its shots: HE, and a gun without HE, are the main
    gun's."""
    return turns.GUN if soft_fire.main_gun(weapon) else weapon.name


def single_weapons(piece: Piece) -> list[Weapon]:
    """The piece's weapons without a template: its card's, and its main gun when the card
    says it has no HE (rules.tank.soft_fire.gun_weapon: one figure or soft vehicle)."""
    weapons = [w for w in piece.card.weapons if w.template is None]
    if turns.has_gun(piece):
        with contextlib.suppress(RulesError):       # its card gives HE (or does not say)
            weapons.insert(0, soft_fire.gun_weapon(piece.card))
    return weapons


def shot_refused(app: App, label: str, name: str, back: Next) -> Screen | None:
    """The rules' refusal of one more shot of this weapon in the activation (each weapon once,
    a squad's once a figure; a grenade once a figure), on the screen; None when allowed."""
    state = tank_battle(app)
    assert state.turn is not None
    try:
        turns.check_shot(state.turn, state.battle, label, name, state.house)
    except RulesError as exc:
        return refuse(app, app.say(exc), back)
    return None


def shooting(label: str, name: str, done: Finish) -> Finish:
    """`done`, once the turn has counted the shot of this weapon."""
    def finish(app: App, line: LogEntry) -> Screen:
        state = tank_battle(app)
        assert state.turn is not None
        state.turn = turns.shoot(state.turn, state.battle, label, name, state.house)
        return done(app, line)
    return finish


def template_pick(app: App, label: str, weapon: Weapon, done: Finish, back: Next) -> Screen:
    """The pieces under a template weapon, once the turn allows another shot of it."""
    if (no := shot_refused(app, label, shot_name(weapon), back)) is not None:
        return no
    return TemplatePick(label, weapon, shooting(label, shot_name(weapon), done), back)


# ---- what to fire at ----


def fire_menu(app: App, label: str, done: Finish, back: Next,
              done_firing: Next | None = None) -> Screen:
    """The enemy pieces the firer can fire at now (a shot at one of them) and the template
    weapons it can fire now, each asked of the rules (rules.tank.choices): a hidden piece, a target
    no weapon of it can reach, a weapon it cannot fire now are not offered. A squad fires
    figure by figure: the title counts its shots; the target fired at last is lit; its row
    *Done firing* is `done_firing` (else `back`, as a long press)."""
    state = tank_battle(app)
    firer = state.battle.get(label)
    targets = [t for t in enemies(app, firer) if gun_at(app, firer, t) or singles_at(app, firer, t)]
    templates = [w for w in template_weapons(firer)
                 if usable(app, firer, w) and TemplatePick(label, w, done, back).pieces(app)]
    if not targets and not templates:
        return refuse(app, app.t("no_targets"), done_firing or back)
    shots = state.shots.get(label)
    current = state.turn.current if state.turn is not None else None
    total = shots[1] if shots else turns.shots_left(current, firer, state.house) if current else 1
    title = app.t("shot_of", n=shots[0] + 1 if shots else 1, of=total) if total > 1 \
        else app.t("target")
    again = lambda: fire_menu(app, label, done, back, done_firing)  # noqa: E731
    if not targets and len(templates) == 1 and done_firing is None:
        return template_pick(app, label, templates[0], done, back)
    items = [with_ride(app, shown(t), t) for t in targets] + [
        app.t("template", weapon=weapon_words(app, w.name)) for w in templates]
    if shots:
        items.append(app.t("done_firing"))

    def chosen(i: int) -> Screen:
        if i < len(targets):
            return at_target(app, firer, targets[i], done, again)
        if i < len(targets) + len(templates):
            return template_pick(app, label, templates[i - len(targets)], done, again)
        return (done_firing or back)()
    last = state.last_shot.get(firer.side)
    labels = [t.label for t in targets]
    start = labels.index(last.target) if last is not None and last.target in labels else 0
    said = [item("say_item_fire", piece=t.label) for t in targets] + \
        [said_item(each) for each in items[len(targets):]]
    return Choose(title, items, chosen, back=back, index=start, spoken=said)


def usable(app: App, firer: Piece, weapon: Weapon | None) -> bool:
    """The firer may fire this weapon (None: its main gun's AP) now, in its activation."""
    state = tank_battle(app)
    assert state.turn is not None
    return choices.weapon(state.turn, state.battle, firer.label, weapon,
                          state.house) is None


def gun_at(app: App, firer: Piece, target: Piece) -> bool:
    """The firer's main gun may fire AP at the target now."""
    return turns.has_gun(firer) and target.kind in (Kind.HARD, Kind.OPEN_TOP) and \
        choices.main_gun_target(target) is None and usable(app, firer, None)


def single_refusal(app: App, firer: Piece, weapon: Weapon, target: Piece) -> RulesError | None:
    """Why the single-shot weapon may not be fired at the target now, at any facing, or
    None. A vehicle's card without the armour a hit needs is refused here, before the
    questions."""
    refusals = [facing_refusal(app, firer, weapon, target, f) for f in facings(target)]
    return None if None in refusals else refusals[0]


def facings(target: Piece) -> list[Facing]:
    """The facings a single shot may hit: a vehicle's four, else none asked (the front)."""
    return list(Facing) if target.kind.vehicle and covered(target).model else [Facing.FRONT]


def facing_refusal(app: App, firer: Piece, weapon: Weapon, target: Piece, facing: Facing
                   ) -> RulesError | None:
    """Why the shot at this facing of the target may not be fired now, all but the table's
    values (rules.tank.soft_fire.check_pieces), or None."""
    at = covered(target, facing=facing)
    return choices.refused(lambda: soft_fire.check_pieces(
        SoftPlan(firer, weapon, (at,), app.book.table)))


def singles_at(app: App, firer: Piece, target: Piece) -> list[Weapon]:
    """The firer's single-shot weapons it may fire at the target now."""
    return [w for w in single_weapons(firer) if usable(app, firer, w)
            and single_refusal(app, firer, w, target) is None]


def at_target(app: App, firer: Piece, target: Piece, done: Finish, back: Next) -> Screen:
    """One target: the main gun at a tank (fire at hard targets), else a weapon of the Soft
    Targets Table that may fire at it now. What the rules refuse is said in one line."""
    if gun_at(app, firer, target):
        if (no := shot_refused(app, firer.label, turns.GUN, back)) is not None:
            return no
        return aim_at(app, firer, target, shooting(firer.label, turns.GUN, done), back)
    singles = singles_at(app, firer, target)
    if not singles:
        return refuse(app, app.say(why_not(app, firer, target)), back)
    if len(singles) == 1:
        return soft_single(app, firer, singles[0], target, done, back)
    return Choose(app.t("weapon"), [weapon_words(app, w.name) for w in singles],
                  lambda i: soft_single(app, firer, singles[i], target, done, back), back)


def why_not(app: App, firer: Piece, target: Piece) -> RulesError:
    """The rules' reason no weapon of the firer may fire at the target now: its main gun's at
    a tank, else its first weapon's."""
    reasons = [choices.main_gun_target(target)] if turns.has_gun(firer) else []
    reasons += [single_refusal(app, firer, w, target) for w in single_weapons(firer)]
    state = tank_battle(app)
    assert state.turn is not None
    reasons.append(choices.action(state.turn, state.battle, firer.label, Action.FIRE,
                                  state.house))
    found = next((no for no in reasons if no is not None), None)
    return found or RulesError(TankRefusal.NOTHING_TO_FIRE, label=firer.label)


def covered(target: Piece, situations: tuple[str, ...] = (),
            facing: Facing = Facing.FRONT) -> Covered:
    """One target of a single shot: a figure of a squad, one of a gun's crew (a gun itself is
    hit only by templates), or a vehicle."""
    if target.kind is Kind.FIGURE:
        return Covered(target, 1, situations)
    if target.kind is Kind.GUN or target.commander_outside:
        return Covered(target, 1, situations, model=False)
    return Covered(target, 0, situations, facing)


def soft_single(app: App, firer: Piece, weapon: Weapon, target: Piece, done: Finish,
                back: Next) -> Screen:
    """Situation, (a vehicle's facing), range in cm, then the odds and the buttons."""
    if (no_shot := single_refusal(app, firer, weapon, target)) is not None:
        return refuse(app, app.say(no_shot), back)
    if (no := shot_refused(app, firer.label, shot_name(weapon), back)) is not None:
        return no
    again = lambda: soft_single(app, firer, weapon, target, done, back)  # noqa: E731
    seated = soft_fire.seat_situation(target)

    def situated(situation: str) -> Screen:
        situations = () if situation == "open" else (situation,)
        if target.kind.vehicle and covered(target).model:     # those its card has
            hit = [f for f in facings(target)                      # the armour of
                   if facing_refusal(app, firer, weapon, target, f) is None]
            return Choose(app.t("facing"), [app.t(f.value) for f in hit],
                          lambda i: ranged(situations, hit[i]), again)
        return ranged(situations, Facing.FRONT)

    def ranged(situations: tuple[str, ...], facing: Facing) -> Screen:
        def fire_at(cm: float) -> Screen:
            tank_battle(app).last_cm[weapon.name] = round(cm)
            plan = SoftPlan(firer, weapon, (covered(target, situations, facing),),
                            app.book.table, range_cm=cm, house=tank_battle(app).house)
            return start(app, plan, aimed(firer, target, shooting(firer.label,
                                                                  shot_name(weapon), done)),
                         again, pair(firer.label, target.label))
        return soft_range(app, weapon, fire_at, again)
    if target.riding is not None:      # a rider sits where its vehicle puts it: not asked
        return ranged(() if seated is None else (seated,), Facing.FRONT)
    return Choose(app.t("situation"), [app.t(f"sit_{s}") for s in SITUATIONS],
                  lambda i: situated(SITUATIONS[i]), back)


def aimed(firer: Piece, target: Piece, done: Finish) -> Finish:
    """`done`, once the side's last shot is this one: the target it fired at last is lit
    first in its next choice of a target (a squad's next figure too)."""
    def finish(app: App, line: LogEntry) -> Screen:
        tank_battle(app).last_shot[firer.side] = LastShot(firer.label, target.label)
        return done(app, line)
    return finish


def soft_range(app: App, weapon: Weapon, then: Callable[[float], Screen],
               back: Next) -> Screen:
    """The range in cm for the Soft Targets Table: measured by a sensor (offered first when
    one is online) or dialled, starting from the last range dialled for this weapon."""
    start = tank_battle(app).last_cm.get(weapon.name)
    if start is None:
        bands = app.book.table.bands(weapon.name)
        start = round(bands[0].from_cm) if bands else RANGE_START_CM
    dial = RangeDial(then, back, start)
    names = app.sensors.online_names()
    if not names:
        return dial

    def measured(check: DistanceCheck, over: bool) -> Screen:
        return then(check.cm)
    def measure(name: str) -> Screen:
        return Measuring(FIRE_RANGE, name, measured, back).begin(app)
    ways: list[tuple[str, Next]] = [(app.t("measure_with", sensor=name), partial(measure, name))
                                    for name in names]
    ways.append((app.t("enter_cm"), lambda: dial))
    return Choose(app.t("range"), [label for label, _ in ways], lambda i: ways[i][1](), back)


@dataclass
class RangeDial(CmKnob):
    """The player measured with the tape and dials the centimetres; OK fires."""

    then: Callable[[float], Screen]
    back: Next
    cm: int = RANGE_START_CM
    title = "range"

    def confirm(self, app: App) -> Screen:
        return self.then(float(self.cm))


# ---- the pieces under a template ----


@dataclass
class TemplatePick(PickPieces):
    """The enemy pieces with how much of each the template covers; OK on a piece sets it (or
    takes it out again), "Fire!" fires."""

    firer: str
    weapon: Weapon
    done: Finish
    back: Next
    under: dict[str, Covered] = field(default_factory=dict)
    index: int = 0

    def pieces(self, app: App) -> list[Piece]:
        """The enemy pieces the template may be put over (not a hidden one)."""
        plan = self.plan(app, [])
        return [p for p in enemies(app, tank_battle(app).battle.get(self.firer))
                if choices.refused(partial(soft_fire.check_target, plan,
                                           Covered(p, int(not p.model), model=p.model))) is None]

    def text(self, app: App, piece: Piece) -> str:
        c = self.under.get(piece.label)
        if c is None:
            return with_ride(app, shown(piece), piece)
        parts = []
        if piece.kind is Kind.FIGURE or c.figures:
            parts.append(str(c.figures))
        if piece.kind.vehicle:
            parts.append(app.t(c.facing.value))
        parts += [app.t(f"short_{s}") for s in c.situations]
        return joined(": ", f"• {piece.label}", joined(" · ", *(parts or [app.t("short_open")])))

    def view(self, app: App) -> View:
        pieces = self.pieces(app)
        items = (*(self.text(app, p) for p in pieces), app.t("fire_now"))
        self.index = min(self.index, len(items) - 1)
        return Menu(app.header(weapon_words(app, self.weapon.name)), items, self.index,
                    app.t("template_hint"))

    def plan(self, app: App, under: list[Covered], range_cm: float | None = None,
             over: bool = False) -> SoftPlan:
        firer = tank_battle(app).battle.get(self.firer)
        return SoftPlan(firer, self.weapon, tuple(under), app.book.table, range_cm,
                        over_range=over, house=tank_battle(app).house)

    def set_up(self, app: App, piece: Piece) -> Screen:
        """How many of its figures, (a vehicle's facing,) and where they are."""
        tank_battle(app).battle.get(self.firer)
        try:
            figure = not piece.model          # a squad, or the crew of a destroyed gun
            soft_fire.check_target(self.plan(app, []), Covered(piece, int(figure),
                                                               model=not figure))
        except RulesError as exc:
            return refuse(app, app.say(exc), lambda: self)
        crew = piece.figures or 0

        def situated(figures: int, facing: Facing) -> Screen:
            if piece.kind is Kind.OPEN_TOP or (piece.kind is Kind.HARD and not figures):
                return self.behind_cover(app, piece, figures, facing)
            if piece.riding is not None:   # where its vehicle puts it: on top, in the open
                seated = soft_fire.seat_situation(piece)
                return self.cover(app, piece, figures, () if seated is None else (seated,),
                                  facing)

            def chosen(i: int) -> Screen:
                name = SITUATIONS[i]
                return self.cover(app, piece, figures, () if name == "open" else (name,),
                                  facing)
            return Choose(app.t("situation"), [app.t(f"sit_{s}") for s in SITUATIONS],
                          chosen, back=lambda: self)

        def counted(facing: Facing) -> Screen:
            # a squad's figures, a gun's or an open-top's crew; a closed vehicle's crew is
            # inside, only its commander may be out in the turret
            if piece.commander_outside:
                return Count(piece.label, 1, 0, 1, lambda n: situated(n, facing),
                             lambda: self, app.t("figures_under", label=piece.label))
            squad = not piece.model           # figures only: they are all it has
            if piece.kind in (Kind.HARD, Kind.SOFT) or crew == 0 or (squad and crew == 1):
                return situated(crew if squad else 0, facing)
            low = 1 if squad else 0
            reached = soft_fire.exposed_crew(piece)   # an open-top's other crew are protected
            return Count(piece.label, reached, low, reached, lambda n: situated(n, facing),
                         lambda: self, app.t("figures_under", label=piece.label))
        if piece.kind.vehicle:
            facings = list(Facing)
            return Choose(app.t("facing"), [app.t(f.value) for f in facings],
                          lambda i: counted(facings[i]), back=lambda: self)
        return counted(Facing.FRONT)

    def behind_cover(self, app: App, piece: Piece, figures: int, facing: Facing) -> Screen:
        """A hard or open-top vehicle under HE: "Behind cover?" when the rules need it
        (soft_fire.asks_behind_cover: HE's -1 as at hard targets), a yes is hard cover."""
        under = Covered(piece, figures, (), facing, model=piece.model)

        def answered(yes: bool) -> Screen:
            c = soft_fire.behind_cover(under) if yes else under
            return self.cover(app, piece, figures, c.situations, facing)
        if not soft_fire.asks_behind_cover(self.weapon, under):
            return answered(False)
        return Choose(app.t("hull_down"), [app.t("no"), app.t("yes")],
                      lambda i: answered(i == 1), back=lambda: self, ask=True)

    def cover(self, app: App, piece: Piece, figures: int, situations: tuple[str, ...],
              facing: Facing) -> Screen:
        tank_battle(app).battle.get(self.firer)
        c = Covered(piece, figures, situations, facing, model=piece.model)
        try:
            soft_fire.check_pieces(self.plan(app, [c]))   # a missing value is asked at Fire!
        except RulesError as exc:
            return refuse(app, app.say(exc), lambda: self)
        return self.set(app, piece.label, c)

    def start(self, app: App) -> Screen:
        if not self.under:
            return notice(app, app.t("not_possible"), [app.t("nothing_under")], lambda: self)
        under = [self.under[p.label] for p in self.pieces(app) if p.label in self.under]
        firer = tank_battle(app).battle.get(self.firer)
        title = joined(": ", firer.label, weapon_words(app, self.weapon.name))
        if self.weapon.template is not Template.HE:
            return start(app, self.plan(app, under), self.done, lambda: self, title)
        # HE's -1 for cover: the rules read it from the situations set (he_in_cover), as
        # the command line's are
        return fire_range(app, lambda cm, over: start(
            app, self.plan(app, under, range_cm=cm, over=over), self.done,
            lambda: self, title), lambda: self)


# ---- the odds, then the dice ----


def start(app: App, plan: SoftPlan, done: Finish, back: Next, title: str,
          aim: tuple[str, ...] = (), hint: str = "") -> Screen:
    """The rules' refusal; or a value the Soft Targets Table lacks, asked for (then here
    again); or the odds and whose button starts the fire (`aim`: lines saying at what first,
    `hint` under them). A single shot fired is kept for the squad's next figures."""
    firer = plan.firer
    try:
        soft_fire.check_pieces(plan)
        wanted = soft_fire.missing(plan)
        if wanted:
            return learn.ask(app, plan, wanted[0], lambda asked: start(
                app, asked, done, back, title, aim, hint), back)
        odds = soft_odds.odds(plan)        # refuses as the fire would
    except RulesError as exc:
        return refuse(app, app.say(exc), back)
    he = plan.weapon.template is Template.HE
    if plan.weapon.template is None:
        chances = [app.t("soft_odds", down=chance(app, odds.all_down))]
    else:
        chances = [may_fall(app, odds.expected_down, len(odds.down) - 1),
                   app.t("all_down", all=chance(app, odds.all_down))]
        if soft_fire.rolls_to_hit(plan.weapon) and (he or odds.hit != 1):
            chances.insert(0, app.t("hit_chance", hit=chance(app, odds.hit)))
    side = firer.side.value
    preview = Lines(app.header(title), (*aim, *chances, app.t(
        "press_to_fire", side=app.side_name(side))),
        hint=joined(" · ", *(part for part in (hint, app.t("ok_more")) if part)))
    run = SoftRun(plan, done, title, Replay(lambda dice: soft_fire.fire(plan, dice)))

    def fire_now() -> Screen:
        state = tank_battle(app)
        if plan.weapon.template is None and state.turn is not None:   # a squad's next
            state.aims[firer.label] = SquadAim(state.turn.number, plan)  # figures: squad.py
        return run.press(app, side)
    waiting = WaitPress(side, preview, fire_now, back=back, says="say_press_fire",
                        details=lambda: Scroll(app.t("details"), soft_details(app, odds, he),
                                               waiting))
    return waiting


def may_fall(app: App, expected: Fraction, most: int) -> str:
    """How many figures may fall, as whole numbers: the two around the number that falls on
    average ("may take 1 or 2 of 3"), or that number when it is whole."""
    low, high = floor(expected), ceil(expected)
    if low == high:
        return app.t("expected_down_one", low=low, n=most)
    return app.t("expected_down", low=low, high=high, n=most)


# What the voice asks a player's button for, by the die it rolls (as the panel's prompt).
PRESS_FOR = {Aim.DEFENCE: "say_press_defend", Aim.DAMAGE: "say_press_damage",
             Aim.ATTACK: "say_press_attack"}


@dataclass
class SoftRun(Screen):
    """The fire being rolled: each button press rolls that player's next die (the HE to-hit
    and reload go together), then waits for the other player; each attack stays on the
    screen until the next press."""

    plan: SoftPlan
    done: Finish
    title: str
    replay: Replay[SoftFire]
    he_shown: bool = False

    @property
    def he(self) -> bool:
        return self.plan.weapon.template is Template.HE

    @property
    def single(self) -> bool:
        return self.plan.weapon.template is None

    @property
    def checks_first(self) -> bool:
        """HE's to hit and reload, or a grenade's To hit, are shown before the attacks."""
        return soft_fire.rolls_to_hit(self.plan.weapon)

    def press(self, app: App, side: str) -> Screen:
        """A player's button: roll their dice up to the next die that takes a press."""
        return gather(app, self.replay, self.plan.firer.side, side,
                      lambda roller, need: self.wait(app, roller, need),
                      lambda: self.finished(app), ONE_PRESS_EACH)

    def wait(self, app: App, roller: str, need: Need) -> Screen:
        if (said := self.figure_said()) is not None:
            app.speak(said)     # the figure's outcome, drawn above whose button is next
        waiting = awaited(app, roller, WaitPress(
            roller, self.waiting(app, roller, need), lambda: self.press(app, roller),
            says=PRESS_FOR.get(need.aim, "say_press")))
        shown_after = Aim.RELOAD if self.he else Aim.TO_HIT
        if self.checks_first and not self.he_shown and self.replay.rolled(shown_after):
            self.he_shown = True      # a roll once shown is never rolled again (Replay)
            checks = self.he_checks()
            return Show(self.he_views(app, *checks), lambda: waiting, animate=True,
                        steps=True, play=True, go_on=True, says=self.he_says(*checks))
        return waiting

    @staticmethod
    def defence_after(needs: list[Need], i: int) -> int | None:
        """Where the defender's die of the attack at `i` is: next, or after the main gun's
        reload die (rolled with the attacker's die); None when it is not (yet) there."""
        j = i + 1
        if j < len(needs) and needs[j].aim is Aim.RELOAD:
            j += 1
        return j if j < len(needs) and needs[j].aim is Aim.DEFENCE else None

    def figure_said(self) -> Spoken | None:
        """The last attack's outcome in words, once both its dice are rolled (the frame
        that waits for the next press shows it)."""
        needs, faces = self.replay.needs, self.replay.faces
        attacks = [i for i, n in enumerate(needs) if n.aim is Aim.ATTACK]
        if not attacks or attacks[-1] + 1 >= min(len(needs), len(faces)):
            return None
        i = attacks[-1]
        attack, c = needs[i], self.covered(needs[i].piece)
        j = self.defence_after(needs, i)
        if j is None or j >= len(faces):
            return None
        mods = sum(m.value for m in soft_fire.attack_modifiers(self.plan, c))
        effect = soft_fire.opposed_effect(c, attack.figure, faces[i] + mods, faces[j])
        return self.attack_said(attack.piece, attack.figure, effect is not Effect.MISS)

    def attack_said(self, label: str, figure: int | None, hit: bool) -> Spoken:
        """One attack in words: a figure down or safe, a vehicle's commander down or safe,
        the firer's hit or miss at a gun or a vehicle."""
        if figure is None:
            return hit_said(self.plan.firer.label, hit)
        if self.covered(label).piece.kind is Kind.HARD:
            return outcome("say_commander_down" if hit else "say_commander_safe", label=label)
        return down_said(label, figure, hit)

    # -- what the screen shows --

    def he_checks(self) -> tuple[DieCheck, DieCheck | None]:
        """HE's to-hit and reload (a grenade's To hit alone) as the rules work them out, from
        the dice rolled so far."""
        if not self.he:
            return soft_fire.grenade_check(self.plan, ScriptedDice(
                [self.replay.face(Aim.TO_HIT)])), None
        faces = [self.replay.face(Aim.TO_HIT), self.replay.face(Aim.RELOAD)]
        return soft_fire.he_checks(self.plan, ScriptedDice(faces))

    def he_views(self, app: App, to_hit: DieCheck, reload: DieCheck | None) -> list[View]:
        header = app.header(self.title)
        views: list[View] = [Roll(header, (to_hit.roll,), app.t("to_hit"),
                                  needs_text(app, to_hit, False),
                                  app.t("HIT") if to_hit.success else app.t("MISS"))]
        if reload is not None:
            views.append(self.reload_view(app, reload))
        return views

    def reload_view(self, app: App, reload: DieCheck) -> View:
        """The main gun's reload die (HE's, or a gun's fired without HE)."""
        return Roll(app.header(self.title), (reload.roll,), app.t("reload_roll"),
                    needs_text(app, reload, False),
                    app.t("RELOADED") if reload.success else app.t("UNLOADED"))

    def he_says(self, to_hit: DieCheck, reload: DieCheck | None) -> list[Spoken | None]:
        """What is said of HE's to-hit and reload views (a grenade's To hit), as drawn."""
        firer = self.plan.firer.label
        said: list[Spoken | None] = [hit_said(firer, to_hit.success)]
        if reload is not None:
            said.append(reload_said(firer, reload.success))
        return said

    def covered(self, label: str) -> Covered:
        """The covered piece an attack is at."""
        return next(c for c in self.plan.targets if c.piece.label == label)

    def name_title(self, app: App, label: str, figure: int | None,
                   shot: int | None = None) -> str:
        piece = self.covered(label).piece
        if figure is None:
            return piece.label
        if piece.kind is Kind.HARD:
            return app.t("commander_of", label=piece.label)
        if shot is not None and shot > 1:      # a machine gun's next shot at the figure
            return app.t("figure_again", label=piece.label, n=figure)
        return app.t("figure_no", label=piece.label, n=figure)

    def word(self, app: App, label: str, figure: int | None, effect: Effect) -> str:
        if effect is Effect.MISS:
            return app.t("MISS")
        if figure is not None:
            return app.t("DOWN")
        if self.covered(label).piece.kind is Kind.SOFT and effect is Effect.NONE:
            return app.t("HIT")
        return app.t(BIG_WORDS[effect])

    def waiting(self, app: App, roller: str, need: Need) -> View:
        """The last attack (or the half rolled so far) and whose button is next."""
        who = app.side_name(roller)
        prompt = app.t("press_defend" if need.aim is Aim.DEFENCE else
                       "press_damage" if need.aim is Aim.DAMAGE else "press_attack",
                       side=who)
        needs, faces = self.replay.needs, self.replay.faces
        attacks = [i for i, n in enumerate(needs) if n.aim is Aim.ATTACK]
        if not attacks:
            return Lines(app.header(self.title), (prompt,))
        i = attacks[-1]
        attack = needs[i]
        c = self.covered(attack.piece)
        mods = sum(m.value for m in soft_fire.attack_modifiers(self.plan, c))
        roll, modified = faces[i], faces[i] + mods
        header = app.header(self.name_title(app, attack.piece, attack.figure, attack.shot))
        j = self.defence_after(needs, i)
        if j is None or j >= len(faces):
            return Roll(header, (roll,), prompt, f"{roll}{mods:+d} = {modified}" if mods
                        else f"= {roll}")
        defender = faces[j]
        effect = soft_fire.opposed_effect(c, attack.figure, modified, defender)
        return Roll(header, (roll, defender), prompt,
                    app.t("versus", attack=modified, defence=defender),
                    self.word(app, attack.piece, attack.figure, effect))

    def attack_view(self, app: App, attack: Attack, number: int, of: int) -> View:
        header = app.header(self.name_title(app, attack.piece, attack.figure, attack.shot))
        caption = app.t("attack_n", n=number, of=of)
        word = self.word(app, attack.piece, attack.figure, attack.effect)
        if attack.roll is None or attack.defender is None:   # a hard target: damage dice
            damage = attack.damage.rolls if attack.damage else ()
            detail = f"{attack.damage.total} − {attack.armour.total}" \
                if attack.damage and attack.armour else ""
            return Roll(header, damage, caption, detail, word)
        return Roll(header, (attack.roll, attack.defender), caption,
                    app.t("versus", attack=attack.modified, defence=attack.defender), word)

    # -- the end --

    def finished(self, app: App) -> Screen:
        result = self.replay.result
        state = tank_battle(app)
        assert result is not None
        state.battle = state.battle.replace_piece(result.firer_after)
        for piece in result.results:
            state.battle = state.battle.replace_piece(piece.after)
        side = self.plan.firer.side.value
        views: list[View] = []
        if self.checks_first and not self.he_shown and result.to_hit is not None:
            views += self.he_views(app, result.to_hit, result.reload if self.he else None)
        attacks = result.attacks
        header = app.header(self.title)
        if not result.hit:
            app.cue("miss", side)
        elif self.single:
            attack = attacks[-1]
            # the attack's dice, then (a soft vehicle) its damage dice, before the outcome
            views.append(self.attack_view(app, attack, 1, 1))
            if attack.damage is not None and attack.armour is not None:
                views.append(Roll(header, attack.damage.rolls, app.t("damage"),
                                  f"{attack.damage.total} − {attack.armour.total}",
                                  f"= {attack.net}"))
            if result.reload is not None:     # a gun without HE: its reload die, as HE's
                views.append(self.reload_view(app, result.reload))
            app.cue("miss" if attack.effect is Effect.MISS else "hit", side)
        else:
            if attacks:
                views.append(self.attack_view(app, attacks[-1], len(attacks), len(attacks)))
            app.cue("hit" if result.down else "miss", side)
        views.append(soft_outcome(app, result))
        targets = tuple(shown(c.piece) for c in self.plan.targets)
        firer, weapon = self.plan.firer.label, weapon_name(self.plan.weapon)
        # a gun destroyed is said, besides the figures down (its crew may fight on)
        guns = sum(1 for piece in result.results if gun_destroyed(piece))
        if not result.hit:
            line = entry("log_fires_weapon_miss", firer=firer, weapon=weapon, targets=targets)
        elif guns:
            line = entry("log_fires_weapon_guns", firer=firer, weapon=weapon, targets=targets,
                         down=result.down, of=result.attacked, guns=guns)
        else:
            line = entry("log_fires_weapon", firer=firer, weapon=weapon, targets=targets,
                         down=result.down, of=result.attacked)
        with app.frames_say():      # the steps' own parts, then the outcome, as drawn
            after = self.done(app, line)
        return Show(views, lambda: after, animate=True, steps=True, play=True,
                    says=self.says(result, len(views), line))

    def says(self, result: SoftFire, count: int, line: LogEntry) -> list[Spoken | None]:
        """What is said of each of the `count` views `finished` shows: HE's to-hit and
        reload, the last figure's die, and the outcome with the big word."""
        says: list[Spoken | None] = [None] * count
        if self.checks_first and not self.he_shown and result.to_hit is not None:
            first = self.he_says(result.to_hit, result.reload if self.he else None)
            says[:len(first)] = first
        last = result.attacks[-1] if result.hit and result.attacks else None
        reload = result.reload if self.single else None   # a gun's, before the outcome
        if reload is not None:
            says[count - 2] = reload_said(self.plan.firer.label, reload.success)
        if last is not None and count > 1:
            at = count - 2 - (reload is not None) - (self.single and last.damage is not None)
            says[at] = self.attack_said(last.piece, last.figure, last.effect is not Effect.MISS)
        says[-1] = said_of(line)
        return says

    @staticmethod
    def left(app: App, result: SoftFire) -> str:
        parts = []
        for piece in result.results:
            after = piece.after
            if after.gone:
                parts.append(app.t("out", label=after.label))
            elif after.status.commander_killed and not piece.before.status.commander_killed:
                parts.append(app.t("no_commander_of", label=after.label))
            elif after.kind is not Kind.HARD and after.figures is not None:
                left = app.t("left_n", label=after.label, n=after.figures)
                if gun_destroyed(piece):          # its crew fight on without it
                    left = joined(", ", left, app.t("gun_destroyed"))
                parts.append(left)
        return joined(" · ", *parts)


def soft_outcome(app: App, result: SoftFire) -> BigWord:
    """The last screen of fire at soft targets, made from its trace alone (a resumed battle
    can show it again): who fired (with its weapon, for a template), the outcome word, at
    whom and what is left, HE's reload, and OK = next."""
    firer = result.firer.label
    template = result.weapon.template is not None
    title = joined(": ", firer, weapon_words(app, result.weapon.name)) if template else firer
    parts = []
    if not result.hit:          # HE's to-hit missed: nothing under the template was attacked
        word = app.t("MISS")
    elif not template:
        attack = result.attacks[-1]
        word = attack_word(app, result.results[-1], attack)
        parts.append(joined(" ", "→", attacked(app, result.results[-1], attack)))
        if attack.damage is not None and attack.armour is not None:
            parts.append(f"{attack.damage.total} − {attack.armour.total} = {attack.net}")
    else:
        word = app.t("n_down", down=result.down, of=result.attacked)
        parts += [left for left in [SoftRun.left(app, result)] if left]
    if result.reload is not None:
        parts += reload_word(app, result.reload)
    return BigWord(app.header(title), word, joined(" · ", *parts), hint=app.t("ok_next"))


def attacked(app: App, piece: PieceResult, attack: Attack) -> str:
    """Whom one attack was at: "Rifle 1 #2", "Tiger 1 commander", or the piece."""
    if attack.figure is None:
        return piece.label
    if piece.kind is Kind.HARD:
        return app.t("commander_of", label=piece.label)
    return app.t("figure_no", label=piece.label, n=attack.figure)


def attack_word(app: App, piece: PieceResult, attack: Attack) -> str:
    """One attack's outcome word: MISS, DOWN! at a figure, HIT at a soft vehicle it did
    nothing to, else the effect on the model."""
    if attack.effect is Effect.MISS:
        return app.t("MISS")
    if attack.figure is not None:
        return app.t("DOWN")
    if piece.kind is Kind.SOFT and attack.effect is Effect.NONE:
        return app.t("HIT")
    return app.t(BIG_WORDS[attack.effect])


def gun_destroyed(piece: PieceResult) -> bool:
    """A gun whose gun this fire destroyed."""
    return piece.kind is Kind.GUN and piece.model_effect is Effect.DESTROYED
