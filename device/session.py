"""An interactive battle in the terminal: set up both sides, then fire, move and reload.

It keeps every vehicle's marks through the battle and says who won. Ctrl-D or 'q' ends it.
"""
from __future__ import annotations

from collections.abc import Callable

from cobi_companion.cards import CardBook
from cobi_companion.device.ui import explain
from cobi_companion.rules import tank_game
from cobi_companion.rules.battle import Battle, Piece
from cobi_companion.rules.card import Facing
from cobi_companion.rules.dice import Dice, DiceError
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.levels import RULE_SETS, RuleSet, rule_set
from cobi_companion.rules.movement import allowance
from cobi_companion.rules.shot import ShotPlan, check_firer
from cobi_companion.rules.status import Side


class Quit(Exception):
    """The player ended the session."""


class Session:
    def __init__(self, book: CardBook, dice: Dice, rules: str | None = None,
                 ask: Callable[[str], str] = input, say: Callable[[str], None] = print) -> None:
        self.book, self.dice, self.rules_name = book, dice, rules
        self._input, self.say = ask, say

    def ask(self, prompt: str, default: str = "") -> str:
        shown = f"{prompt} [{default}]: " if default else f"{prompt}: "
        try:
            answer = self._input(shown).strip()
        except EOFError:
            raise Quit from None
        if answer.lower() in ("q", "quit"):
            raise Quit
        return answer or default

    def yes(self, prompt: str) -> bool:
        return self.ask(f"{prompt} y/N").lower().startswith(("y", "t"))

    def run(self) -> int:
        self.say("COBI Battle Companion: a battle in the terminal ('q' or Ctrl-D ends it)")
        try:
            rules = self.choose_rules()
            battle = self.set_up(rules)
            self.play(rules, battle)
        except Quit:
            self.say("Bye!")
        return 0

    def choose_rules(self) -> RuleSet:
        if self.rules_name:
            return rule_set(self.rules_name)
        names = list(RULE_SETS)
        menu = ", ".join(f"{i} = {RULE_SETS[n].title}" for i, n in enumerate(names, 1))
        while True:
            answer = self.ask(f"Rules? {menu}", "2")
            if answer.isdigit() and 1 <= int(answer) <= len(names):
                return RULE_SETS[names[int(answer) - 1]]
            if answer in RULE_SETS:
                return RULE_SETS[answer]
            self.say(f"Type a number from 1 to {len(names)}.")

    def set_up(self, rules: RuleSet) -> Battle:
        self.say("Cards: " + ", ".join(c.title for c in self.book.sorted()))
        battle = Battle(rules.name)
        for side, default in ((Side.AXIS, "2477"), (Side.ALLIES, "2464")):
            while True:
                answer = self.ask(f"{side.value.capitalize()} vehicles (set numbers)", default)
                try:
                    cards = [self.book.get(word) for word in answer.replace(",", " ").split()]
                except RulesError as exc:
                    self.say(str(exc))
                    continue
                if cards:
                    break
                self.say("Give at least one set number.")
            for card in cards:
                battle = battle.add(card, side)
        return battle

    def board(self, battle: Battle) -> None:
        for side in (Side.AXIS, Side.ALLIES):
            vehicles = "   ".join(f"{v.label} ({explain.status_text(v.status)})"
                                  for v in battle.side(side))
            self.say(f"{side.value.capitalize():<7} {vehicles}")

    def pick(self, battle: Battle, prompt: str, vehicles: list[Piece]) -> Piece:
        menu = ", ".join(f"{i} = {v.label}" for i, v in enumerate(vehicles, 1))
        while True:
            answer = self.ask(f"{prompt}? {menu}", "1")
            if answer.isdigit() and 1 <= int(answer) <= len(vehicles):
                return vehicles[int(answer) - 1]
            for vehicle in vehicles:
                if vehicle.label.lower() == answer.lower():
                    return vehicle
            self.say(f"Type a number from 1 to {len(vehicles)}.")

    def play(self, rules: RuleSet, battle: Battle) -> None:
        actions = {"f": self.fire, "m": self.move}
        menu = "f = fire, m = move, q = quit"
        if rules.reloads:
            actions["r"] = self.reload
            menu = "f = fire, m = move, r = reload, q = quit"
        while True:
            self.board(battle)
            action = actions.get(self.ask(f"Action? {menu}", "f")[:1].lower())
            if action is None:
                self.say("Choose one of: " + menu)
                continue
            try:
                battle = action(rules, battle)
            except (RulesError, DiceError) as exc:
                self.say(f"Not possible: {exc}")
                continue
            winner = rules.winner(battle)
            if winner is not None:
                self.board(battle)
                self.say(f"*** {winner.value.upper()} WIN! ***")
                return

    def fire(self, rules: RuleSet, battle: Battle) -> Battle:
        alive = [v for v in battle.pieces if not v.status.destroyed]
        firer = self.pick(battle, "Who fires", alive)
        check_firer(firer.card, firer.status, needs_loaded=rules.reloads)
        targets = [v for v in alive if v.side is not firer.side]
        target = self.pick(battle, "At whom", targets)
        facing = self.facing()
        hull_down = crew = False
        range_cm = None
        if rules.modifiers:
            hull_down = self.yes("Target hull down or in hard cover?")
            range_cm = self.range_cm()
            crew = self.yes("Firer's crew below half?")
        plan = ShotPlan(firer.card, target.card, facing, hull_down, range_cm, crew,
                        firer.status, target.status)
        odds = rules.odds(plan)
        self.say(f"Odds: hit {explain.in_six(odds.hit)} · kill {explain.percent(odds.kill)}")
        self.ask("Press Enter to roll")
        shot = rules.fire(plan, self.dice)
        self.say(explain.shot(shot))
        battle = battle.with_status(firer.label, shot.attacker_after)
        return battle.with_status(target.label, shot.target_after)

    def facing(self) -> Facing:
        while True:
            answer = self.ask("Which armour is hit? front, side, rear, top", "front").lower()
            for facing in Facing:
                if facing.value.startswith(answer):
                    return facing
            self.say("Type front, side, rear or top.")

    def range_cm(self) -> float | None:
        while True:
            answer = self.ask("Range in cm (Enter if 100 cm or less)")
            if not answer:
                return None
            try:
                return float(answer)
            except ValueError:
                self.say("Type a number of centimetres, like 120.")

    def move(self, rules: RuleSet, battle: Battle) -> Battle:
        alive = [v for v in battle.pieces if not v.status.destroyed]
        mover = self.pick(battle, "Who moves", alive)
        reverse = self.yes("Backward?")
        turns_text = self.ask("How many turns of 45°", "0")
        turns = int(turns_text) if turns_text.isdigit() else 0
        rough = self.yes("Across rough ground?")
        road = self.yes("The whole move on road?")
        result = allowance(mover.card, reverse=reverse, turns=turns, rough=rough, road=road,
                           status=mover.status)
        self.say(explain.allowance(result))
        return battle

    def reload(self, rules: RuleSet, battle: Battle) -> Battle:
        unloaded = [v for v in battle.pieces
                    if not v.status.loaded and not v.status.destroyed]
        if not unloaded:
            self.say("Every gun is loaded.")
            return battle
        vehicle = self.pick(battle, "Who reloads", unloaded)
        crew = self.yes("Crew below half?")
        result = tank_game.reload_action(vehicle.card, vehicle.status, self.dice, crew)
        self.say(explain.reload(result))
        return battle.with_status(vehicle.label, result.after)
