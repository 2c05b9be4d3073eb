"""Cobra's attacks on the box: an attack or overrun dialled unit by unit with its modifiers
and shifts, its supply, the odds and the attacker's roll; and carpet bombing, an air mission
before the Allied attacks (14.3). The rules (rules/cobra/combat.py, overrun.py) do every sum."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import LogEntry, LogValue, entry
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.cobra import command, naval
from cobi_companion.device.games.cobra.dialled import Dialled
from cobi_companion.device.games.cobra.session import (
    Phased,
    number,
    press_for,
    reading,
    refusal,
    result_screen,
    save,
    session,
    tables,
)
from cobi_companion.device.ui.widgets import Choose, confirm
from cobi_companion.rules.cobra.bookkeeping import (
    check_cherbourg,
    cherbourg_offered,
    supply_from_cherbourg,
)
from cobi_companion.rules.cobra.combat import (
    BY_LETTER,
    Nation,
    Odds,
    OverrunWhen,
    Role,
    Shift,
    ShiftChoice,
    ShiftKind,
    Unit,
    carpet_odds,
    odds,
    out_of_supply,
    roll,
    shift_choices,
    strength,
)
from cobi_companion.rules.cobra.landing import BEACH_SHIFT, beach_shift_offered, marker_columns
from cobi_companion.rules.cobra.overrun import overrun_modifier, overrun_odds, overrun_shift_choices
from cobi_companion.rules.cobra.supply import always_in_supply
from cobi_companion.rules.cobra.turns import ATTACK_COST, SCENARIOS
from cobi_companion.rules.dice import Aim, Need, Roller, ScriptedDice
from cobi_companion.rules.errors import RulesError

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

STRENGTH_MAX = 40           # the knob dials a unit's printed strength up to this
TOGGLED = "dsmbrux"         # the unit modifiers the box offers as toggles (by letter)
SUPPORT = (ShiftKind.AIR, ShiftKind.NAVAL)     # the shifts that spend the turn's points
# An Allied unit on a beach hex: two columns left against a German attack (17.3.10).
BEACH_CHOICE = ShiftChoice("beach", ShiftKind.BEACH, (0, BEACH_SHIFT))
# The phases an overrun is made in: moving in the Initial Movement Phase (5.4a), advancing
# after an attack of the Combat Phase (5.4b); never in the Mechanized Movement Phase (5.4).
OVERRUN_PHASES = {"initial_movement": OverrunWhen.MOVEMENT, "combat": OverrunWhen.ADVANCE}


def attack(app: App, home: Next) -> Screen:
    """The phase's attack, dialled from its first unit (the hub's Attack)."""
    return phase_attack(app, home, None)


def overrun(app: App, home: Next) -> Screen:
    """The phase's overrun: moving, or advancing after an attack (the hub's Overrun)."""
    return phase_attack(app, home, OVERRUN_PHASES[session(app).game.phase.name])


def phase_attack(app: App, home: Next, when: OverrunWhen | None) -> Screen:
    """An attack (or an overrun) of the phasing player, with the beach shift where the
    scenario has the landing (17.3.10)."""
    game = session(app).game
    player = game.phase.player
    beach = beach_shift_offered(player, SCENARIOS[game.scenario].landing)
    # an Allied attack from a hex with a beach shift marker (17.3.2 step 5f1), or a moving
    # overrun conducted from it (5.4f); never advancing, out of the hex: that removes it (5f2)
    marks = marker_columns(game.landing, player) if when is not OverrunWhen.ADVANCE else ()
    return Attack(game.turn, player, overrun=when, beach=beach, markers=marks,
                  home=home).units(app)


@dataclass
class Attack(Dialled):
    """The screens of an attack or overrun being dialled; back: the phase indicator (`home`)."""

    home: Next = field(kw_only=True)


    def units(self, app: App, role: Role = Role.ATTACK) -> Screen:
        listed = self.sides[role]
        def add() -> Screen:
            return number(app, app.t("unit_strength"), 4, lambda n: self.toggles(
                app, role, len(listed), Unit(n)), self.home, low=1, high=STRENGTH_MAX)
        items: list[tuple[str, Next]] = [(app.t("add_unit"), add)]
        def edit(i: int) -> Screen:
            return self.toggles(app, role, i, listed[i])
        items += [(unit_text(app, u), partial(edit, i)) for i, u in enumerate(listed)]
        if listed:
            done = (lambda: self.units(app, Role.DEFENCE)) if role is Role.ATTACK else \
                (lambda: self.shift_menu(app))
            items.insert(0, (app.t("units_done"), done))
        title = joined(" ", app.t("attacker" if role is Role.ATTACK else "defender"),
                       str(total(listed, role)))
        return Phased(title, [label for label, _ in items], lambda i: items[i][1](),
                      back=self.home)

    def toggles(self, app: App, role: Role, index: int, unit: Unit) -> Screen:
        """Switch the unit's modifiers on and off; Done keeps it, Remove drops it."""
        nation = self.attacker if role is Role.ATTACK else self.defender
        # only this side's own: a British brigade's or a US and British stack's halving is
        # never offered to German units (8.3.2a, 8.8k); an overrun's attackers only what
        # 5.4.1 allows
        # every unit is in supply on GT 1 and 2 (17.3.6, 17.3.6d): no "out of supply" then
        letters = TOGGLED.replace("s", "") if always_in_supply(self.turn) else TOGGLED
        offered = [m for m in (BY_LETTER[c] for c in letters)
                   if role in m.roles and nation in m.nations and not (
                       self.overrun and role is Role.ATTACK and not overrun_modifier(m.letter))]
        listed = self.sides[role]

        def chosen(i: int) -> Screen:
            if i == 0:
                listed[index:index + 1] = [unit]
                return self.units(app, role)
            if i == 1:
                del listed[index:index + 1]
                return self.units(app, role)
            flip = offered[i - 2]
            mods = tuple(m for m in unit.modifiers if m != flip) if flip in unit.modifiers \
                else (*unit.modifiers, flip)
            screen = self.toggles(app, role, index, Unit(unit.strength, mods))
            assert isinstance(screen, Choose)
            screen.index = i
            return screen
        items = [app.t("unit_keep", unit=unit_text(app, unit)), app.t("unit_remove")]
        items += [joined(" ", "+" if m in unit.modifiers else "-", app.t("mod_" + m.letter))
                  for m in offered]
        return Phased(app.t("modifiers"), items, chosen, back=lambda: self.units(app, role))

    # -- shifts --

    def offered(self) -> tuple[ShiftChoice, ...]:
        """The shifts this attack may take; an overrun's are fewer (5.4.1c, 5.4.1d, 14.2c)."""
        if self.overrun is not None:
            offered = overrun_shift_choices(self.attacker, self.turn, self.overrun)
        else:
            offered = shift_choices(self.attacker, self.turn)
        if self.beach:
            offered = (*offered, BEACH_CHOICE)
        if self.markers:
            offered = (*offered, ShiftChoice("marker", ShiftKind.MARKER, (0, *self.markers)))
        return offered

    def shift_menu(self, app: App, index: int = 0) -> Screen:
        offered = self.offered()

        def chosen(i: int) -> Screen:
            if i == 0:
                return self.supply(app)
            choice = offered[i - 1]
            if choice.kind is ShiftKind.NAVAL:      # near and far in one row (14.4c, 14.4d)
                return naval.step_naval(app, self, lambda: self.shift_menu(app, i))
            now = self.shifts.get(choice.key, 0)
            values = choice.columns
            # an HQ's shift asks which HQ gives it (9.1i, 8.3.3a): command.py
            return command.step_shift(app, self, choice, values[
                (values.index(now) + 1) % len(values)], lambda: self.shift_menu(app, i))
        items = [app.t("roll_attack")]
        items += [naval.naval_label(app, self) if c.kind is ShiftKind.NAVAL else
                  app.t("shift_" + c.key, n=f"{self.shifts.get(c.key, 0):+d}") for c in offered]
        game = session(app).game     # on the air and naval shifts: what they may still spend
        left = app.t("support_left", air=game.air_left, naval=game.naval_left)
        hints = ["", *(naval.naval_hint(app, self, left) if c.kind is ShiftKind.NAVAL else
                       left if c.kind in SUPPORT else "" for c in offered)]
        return Phased(app.t("shifts"), items, chosen, back=lambda: self.units(
            app, Role.DEFENCE), index=index, hints=hints)

    def chosen_shifts(self) -> list[Shift]:
        return [Shift(c.kind, self.shifts[c.key])
                for c in self.offered() if self.shifts.get(c.key, 0)]

    # -- supply, odds, the roll --

    def supply(self, app: App) -> Screen:
        game = session(app).game
        cost = ATTACK_COST[self.attacker]
        # An overrun spends no supply points (11.0a); its units must be in supply (5.4e).
        if self.overrun is not None or (self.attacker == Nation.ALLIED and
                                        game.allied_supply_free):
            return command.with_army(app, self, None, lambda: self.preview(app, None),
                                           lambda: self.shift_menu(app))
        tracks = ["german"] if self.attacker == Nation.GERMAN else ["us", "british"]
        payable = [t for t in tracks if getattr(game.tracks, t) >= cost]
        items = [app.t("pay_" + t, cost=cost, have=getattr(game.tracks, t)) for t in payable]
        # once the peninsula is cut off, Cherbourg supplies one German attack a turn (17.3.5g)
        cherbourg = cherbourg_offered(game, self.attacker)
        if cherbourg:
            items.append(app.t("cherbourg_used" if game.ledger.cherbourg_used(game.turn)
                               else "cherbourg_supply"))
        items.append(app.t("unsupplied"))
        def chosen(i: int) -> Screen:
            if cherbourg and i == len(payable):
                return self.from_cherbourg(app)
            track = payable[i] if i < len(payable) else None
            # whose attack, for its command limit (11.3): back to this choice if refused
            return command.with_army(app, self, track, lambda: self.preview(app, track),
                                           lambda: self.supply(app))
        # Cherbourg's row says its limit while it is lit (17.3.5g)
        hints = [*([""] * len(payable)), *([app.t("cherbourg_hint")] if cherbourg else [])]
        return Phased(app.t("attack_supply"), items, chosen, back=lambda: self.shift_menu(app),
                      hints=hints)

    def from_cherbourg(self, app: App) -> Screen:
        """The attack supplied by Cherbourg, no supply points spent; a second one this game
        turn refused with the reason, back to the supply choice (17.3.5g)."""
        try:
            check_cherbourg(session(app).game)
        except RulesError as exc:
            return refusal(app, exc, self.supply(app))
        return self.preview(app, None, cherbourg=True)

    def odds(self, app: App, paid: bool) -> Odds:
        game = session(app).game
        attackers = self.sides[Role.ATTACK]
        if self.overrun is not None:
            return overrun_odds(attackers, self.sides[Role.DEFENCE], self.chosen_shifts(),
                                when=self.overrun, attacker=self.attacker, turn=game.turn,
                                weather=game.this_weather, naval_range=self.naval_range)
        attack = attackers if paid else [out_of_supply(u) for u in attackers]
        return odds(attack, self.sides[Role.DEFENCE], self.chosen_shifts(),
                    attacker=self.attacker, turn=game.turn, weather=game.this_weather,
                    naval_range=self.naval_range)

    def preview(self, app: App, track: str | None, cherbourg: bool = False) -> Screen:
        """The odds, then the attacker's button. Nothing is spent until the die is rolled:
        backing out of the roll leaves every track as it was. An overrun spends no supply
        points (11.0a)."""
        paid = track is not None or session(app).game.allied_supply_free or \
            self.overrun is not None or cherbourg
        try:
            planned = self.odds(app, paid)
            session(app).game.check_support(planned)    # its air and naval points (14.0, 14.4)
        except RulesError as exc:
            return refusal(app, exc, self.shift_menu(app))
        lines = odds_lines(app, planned)
        if self.overrun is not None:
            lines.insert(0, app.t("overrun_when", when=app.t("when_" + self.overrun.value)))

        def rolled(face: int) -> Screen:
            s = session(app)
            s.game, _ = s.game.pay_attack(planned, track)   # checked above: nothing between
            if cherbourg:                                     # its one a game turn (17.3.5g)
                s.game = supply_from_cherbourg(s.game)
            s.game, hqs = command.spend_hqs(s.game, self)     # flipped once used (8.3.3)
            s.game = command.count_made(s.game, self)         # its command limit (11.3)
            combat = roll(planned, ScriptedDice([face]), tables(app))
            # the CRT's cell, as the owner's tables write it; none: read the printed one
            result: LogValue = combat.result.text if combat.result else entry("read_crt")
            line = self.log_line(planned, face, result)
            supplied = entry("log_cherbourg", line=line) if cherbourg else supply_entry(
                line, track, self.attacker, paid)
            save(app, command.hq_entry(support_entry(planned, supplied), hqs))
            big = combat.result.text.upper() if combat.result else \
                f"{planned.column} · {face}"
            detail = joined(" ", f"{planned.column},", app.t("die"), str(face))
            return result_screen(app, app.t("result"), big, detail, combat.notes, self.home)
        need = Need(Roller.ATTACKER, Aim.COMBAT, f"combat {planned.column}")
        return press_for(app, self.attacker, lines, need, rolled, self.home)

    def log_line(self, planned: Odds, face: int, result: LogValue) -> LogEntry:
        """The attack's line of the log, or the overrun's with when it was made."""
        if self.overrun is not None:
            return entry("log_overrun", nation=self.attacker.value, when=self.overrun.value,
                         odds=odds_entry(planned), die=face, result=result)
        return entry("log_attack", nation=self.attacker.value, odds=odds_entry(planned),
                     die=face, result=result)


def supply_entry(line: LogEntry, track: str | None, attacker: Nation,
                 supplied: bool) -> LogEntry:
    """An attack's log line with what it paid for its supply: the supply points and their
    track (11.0), or unsupplied; as it is where no supply points are needed (17.3e)."""
    if track is not None:
        return entry("log_paid", line=line, cost=ATTACK_COST[attacker], track=track)
    return line if supplied else entry("log_unsupplied", line=line)


def support_entry(planned: Odds, line: LogEntry) -> LogEntry:
    """An attack's log line with the air and naval points it spent, where it spent any."""
    if not planned.air_points and not planned.naval_points:
        return line
    return entry("log_support", line=line, air=planned.air_points, naval=planned.naval_points)


# ---- carpet bombing: an air mission, before the Allied attacks (14.3) ----

def carpet_bombing(app: App, home: Next) -> Screen:
    """Three air points against one hex, no attacking units and no supply point, always on
    6:1 (14.3e, 14.3g): refused, with the reason, where the turn does not allow it."""
    game = session(app).game
    planned = carpet_odds()         # the turn, its weather and missions: check_support's
    try:
        game.check_support(planned)
    except RulesError as exc:
        return refusal(app, exc, home())
    lines = [app.t("carpet_column"), app.t("carpet_cost", n=planned.air_points,
                                           have=game.air_left)]

    def rolled(face: int) -> Screen:
        s = session(app)
        s.game, _ = s.game.pay_attack(planned, None)
        combat = roll(planned, ScriptedDice([face]), tables(app))
        # the defender's part of the cell only: there is no attacker (14.3g)
        result: LogValue = combat.result.defender.text if combat.result else entry("read_crt")
        save(app, entry("log_carpet", die=face, result=result, air=planned.air_points))
        big = combat.result.defender.text.upper() if combat.result else \
            f"{planned.column} · {face}"
        return result_screen(app, app.t("carpet"), big,
                             joined(" ", f"{planned.column},", app.t("die"), str(face)),
                             combat.notes, home,
                             read_as=app.t("result"))
    need = Need(Roller.ATTACKER, Aim.COMBAT, f"carpet bombing {planned.column}")
    return press_for(app, Nation.ALLIED, lines, need, rolled, home)


def plan_reading(app: App, turn: int, then: Screen) -> Screen:
    """What a carpet bombing planned for game turn `turn` means (14.3a, 14.3b, 14.3d): the
    one reading of the plan row, of the planning and of the tracks."""
    return reading(app, app.t("carpet_planned_for", turn=turn),
                   [app.t("carpet_plan_hex", turn=turn), app.t("carpet_plan_then")], then)


def carpet_plan_label(app: App) -> str:
    """The hub's row for next game turn's carpet bombing: to plan, or planned (14.3a)."""
    game = session(app).game
    if game.carpet_plan == game.turn + 1:
        return app.t("carpet_planned_for", turn=game.turn + 1)
    return app.t("carpet_plan")


def carpet_plan(app: App, home: Next) -> Screen:
    """Next game turn's carpet bombing planned: its target hex is the players' to write down
    (14.3a); refused, with the reason, where it may not be planned now."""
    game = session(app).game
    following = game.turn + 1
    if game.carpet_plan == following:           # planned already: what it means
        return plan_reading(app, following, home())
    try:
        planned = game.plan_carpet()
    except RulesError as exc:
        return refusal(app, exc, home())
    s = session(app)
    s.game = planned
    save(app, entry("log_carpet_plan", turn=following))
    return plan_reading(app, following, home())


def carpet_cancel(app: App, home: Next, then: Next | None = None,
                  kept: str = "keep_playing") -> Screen:
    """This turn's planned mission cancelled, asked first (14.3c: the next is planned in the
    next Allied Combat Phase); then on to `then` (the hub's Next phase), or back `home`."""
    def cancelled() -> Screen:
        s = session(app)
        try:
            s.game = s.game.cancel_carpet()
        except RulesError as exc:
            return refusal(app, exc, home())
        save(app, entry("log_carpet_cancel"))
        return (then or home)()
    return confirm(app, app.t("carpet_cancel_ask"), cancelled, home, lost="carpet_cancel_lost",
                   kept=kept)


def total(listed: list[Unit], role: Role) -> int:
    return strength(listed, role).total if listed else 0


def unit_text(app: App, unit: Unit) -> str:
    return joined(" ", str(unit.strength), *(app.t("modshort_" + m.letter)
                                             for m in unit.modifiers))


def odds_entry(planned: Odds) -> LogEntry:
    """The odds of an attack as the log says them."""
    assert planned.attack is not None and planned.defence is not None
    return entry("log_odds", attack=planned.attack.total, defence=planned.defence.total,
                 base=planned.base, net=planned.net, column=planned.column)


def odds_lines(app: App, planned: Odds) -> list[str]:
    assert planned.attack is not None and planned.defence is not None
    return [f"{planned.attack.total} : {planned.defence.total} = {planned.base}",
            f"{planned.net:+d} → {planned.column}"]


