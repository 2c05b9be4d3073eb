"""Fire and reload on the box: the shot before it is fired (the armour hit on the knob, the
odds, whose button fires), the right player's button for each roll (or real dice dialled in),
then the steps of the trace, which go on by themselves to one big outcome word."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import LogEntry, LogValue, entry
from cobi_companion.device.core.battle_state import LastShot
from cobi_companion.device.core.memo import Latest
from cobi_companion.device.core.replay import Replay
from cobi_companion.device.core.spoken import Spoken, item, prompt
from cobi_companion.device.core.spoken import outcome as outcome_said
from cobi_companion.device.core.spoken_log import EFFECTS
from cobi_companion.device.core.views import BigWord, Lines, Roll, View
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.menus import Scroll
from cobi_companion.device.games.rolling import awaited, gather
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ui.details import shot_details
from cobi_companion.device.ui.outcome_words import BIG_WORDS
from cobi_companion.device.ui.widgets import DICE_KEYS, Show, WaitPress
from cobi_companion.device.ui.wording import chance
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.dice import Aim, Need
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.levels import rule_set
from cobi_companion.rules.odds import Odds
from cobi_companion.rules.shot import ShotPlan, check_firer
from cobi_companion.rules.status import Effect, Side
from cobi_companion.rules.tank import hard_fire
from cobi_companion.rules.trace import DieCheck, ReloadAction, Shot

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

Finish = Callable[["App", LogEntry], Screen]     # the action is done: its line of the log
CUES = {Effect.MISS: "miss", Effect.NONE: "hit", Effect.DESTROYED: "destroyed"}


def shot_plan(app: App, aim: LastShot) -> ShotPlan:
    """The rules' plan of a shot the box has aimed: the pieces as they stand now."""
    battle = app.playing.battle
    firer, target = battle.get(aim.firer), battle.get(aim.target)
    modifiers = rule_set(app.playing.level).modifiers
    return ShotPlan(firer.card, target.card, aim.facing, aim.hull_down, aim.range_cm,
                    crew_below_half=modifiers and firer.crew_below_half(app.playing.house),
                    crew_by_house=modifiers and firer.open_top_reload_ruled(app.playing.house),
                    attacker_status=firer.status, target_status=target.status,
                    over_range=aim.over, house=app.playing.house,
                    attacker_name=firer.label, target_name=target.label)


# The odds of the shot aimed last: the preview shows them, its firer's button asks for them
# again, and the shot offered again was checked with them. The same battle and aim (frozen
# objects, device/core/memo.py), the same odds.
_ODDS: Latest[Odds | RulesError] = Latest()


def shot_odds(app: App, aim: LastShot) -> Odds | RulesError:
    """The rules' odds of the shot `aim` as the pieces stand now, or their refusal."""
    state = app.playing
    return _ODDS.get((state, state.battle, aim), lambda: _worked_odds(app, aim))


def _worked_odds(app: App, aim: LastShot) -> Odds | RulesError:
    try:
        return rule_set(app.playing.level).odds(shot_plan(app, aim))
    except RulesError as exc:
        return exc


@dataclass
class FirePreview(Screen):
    """A shot before it is fired: the armour hit (the knob turns it), the odds, and whose
    button fires. Where the rules refuse the shot at that armour, "cannot fire like this"
    stands in place of the chances (OK: the rules' reason) and the button is refused with a
    cue: the players turn the knob to another armour or go back, and no turn is lost."""

    aim: LastShot
    side: str                        # the firer's side: its button fires
    finish: Finish
    back: Next

    def firer(self, app: App) -> Piece:
        return app.playing.battle.get(self.aim.firer)

    def odds(self, app: App) -> Odds | RulesError:
        return shot_odds(app, self.aim)

    def view(self, app: App) -> View:
        # The firer in the header (the pair does not fit it beside the round and the side),
        # the target and its armour hit first, then the chances in a child's words: three
        # rows, the panel's Lines. Whose button fires leads the hint, which the panel always
        # shows (in turns, with the knob's armour and OK's details). The Tank Game's modifiers
        # were set on the screens before; the chances count them.
        firer, aim = self.firer(app), self.aim
        odds = self.odds(app)
        lines = [app.t("aim_at", target=aim.target, facing=app.t(aim.facing.value))]
        hints = [app.t("knob_armour")]
        if isinstance(odds, RulesError):       # the rules' reason, in their terms: on OK
            lines.append(app.t("cannot_aim"))
            hints.append(app.t("ok_why"))
        else:
            lines += [app.t("hit_chance", hit=chance(app, odds.hit)),
                      app.t("kill_chance", kill=chance(app, odds.kill))]
            hints = [app.t("press_to_fire", side=app.side_name(firer.side)), *hints,
                     app.t("ok_more")]
        return Lines(app.header(aim.firer), tuple(lines), hint=joined(" · ", *hints))

    def details(self, app: App) -> Screen:
        """OK: the exact chances and the rules' terms, or the rules' reason why the shot
        cannot be fired so, for a parent; OK or back returns."""
        odds = self.odds(app)
        if isinstance(odds, RulesError):
            return Scroll(app.t("details"), [app.say(odds)], self)
        firer = self.firer(app)
        level = app.playing.level
        lines = shot_details(app, odds, self.aim, level,
                             rule_set(level).modifiers and firer.crew_below_half(app.playing.house))
        return Scroll(app.t("details"), lines, self)

    def takes_roll(self, key: Key) -> bool:
        return DICE_KEYS.get(key) == self.side

    def prompt(self, app: App) -> Spoken | None:
        return prompt("say_press_fire", side=self.side)

    def lit(self, app: App) -> Spoken | None:
        """The armour hit, which the knob turns: "front", "side", "rear"."""
        return item("say_item", item=app.t(self.aim.facing.value))

    def on(self, app: App, key: Key) -> Screen:
        if key in (Key.CW, Key.CCW):
            # the level's armour facings: Easy has no top
            facings = rule_set(app.playing.level).facings
            at = facings.index(self.aim.facing) if self.aim.facing in facings else 0
            at += 1 if key is Key.CW else -1
            self.aim = replace(self.aim, facing=facings[at % len(facings)])
        elif DICE_KEYS.get(key) == self.side:
            if isinstance(self.odds(app), RulesError):
                app.cue("error")
                return self
            return resolve_fire(app, self.aim, self.finish)
        elif key is Key.BACK:
            return self.back()
        elif key is Key.OK:
            return self.details(app)
        elif key in (Key.OK, *DICE_KEYS):
            app.cue("error")             # only the firer's own button fires
        return self


def resolve_fire(app: App, aim: LastShot, finish: Finish) -> Screen:
    """The firer's button was pressed: the firer's dice now; the target's player's button for
    theirs; the steps go on by themselves to the outcome."""
    state = app.playing
    firer, target = state.battle.get(aim.firer), state.battle.get(aim.target)
    plan = shot_plan(app, aim)
    rules = rule_set(state.level)
    replay: Replay[Shot] = Replay(lambda dice: rules.fire(plan, dice))
    title = firer.label              # who fires heads its steps; the target is on the first
    shown = [0]                      # the steps shown while waiting for the other player

    def wait(roller: str, need: Need) -> Screen:
        # Easy: the target's player rolls the armour. The firer's steps play first.
        so_far = replay.sketch()
        steps = shot_steps(app, so_far, title, rolled={n.aim for n in replay.needs})
        shown[0] = len(steps)
        done_so_far = app.t("hit_damage", total=so_far.damage.total) if so_far.damage \
            else app.t("HIT")
        # the target's player presses: the pair, so that they see which of theirs was hit
        waiting = awaited(app, roller, WaitPress(roller, Lines(
            app.header(pair(firer.label, target.label)),
            (done_so_far, app.t("press_armour", side=app.side_name(roller)))),
            lambda: gather(app, replay, firer.side, roller, wait, done), says="say_press_armour"))
        return Show(steps, lambda: waiting, animate=True, steps=True, play=True, go_on=True,
                    says=step_says(so_far, title, rolled={n.aim for n in replay.needs}))

    def done() -> Screen:
        shot = replay.result
        assert shot is not None
        state.set_status(firer.label, shot.attacker_after)
        state.set_status(target.label, shot.target_after)
        state.last_shot[firer.side] = state.fired(aim)
        state.last_actor[firer.side] = firer.label
        app.cue(CUES.get(shot.effect, "hit"), firer.side.value)
        views = shot_views(app, shot, firer.label, target.label)
        line = entry("log_fires_at", firer=firer.label, target=target.label,
                     facing=aim.facing.value, effect=shot.effect.value,
                     **unloaded(shot))
        with app.frames_say():          # each step says its own part, as it is drawn
            after = finish(app, line)
        return Show(views, lambda: after, index=min(shown[0], len(views) - 1), animate=True,
                    steps=True, play=True, says=shot_says(shot, firer.label, target.label))

    return gather(app, replay, firer.side, firer.side.value, wait, done)


def needs_text(app: App, check: DieCheck, exact: bool) -> str:
    """What a roll needs; with modifiers, the sum first: "5 − 1 = 4: needs 3+"."""
    mods = sum(m.value for m in check.modifiers)
    if mods:
        sign = "+" if mods > 0 else "−"
        return app.t("needs_sum", roll=check.roll, mods=f"{sign} {abs(mods)}",
                     total=check.modified, n=check.needed.low)
    return app.t("needs_range", r=check.needed) if exact else app.t("needs", n=check.needed.low)


def shot_steps(app: App, shot: Shot, title: str, rolled: set[Aim] | None = None) -> list[View]:
    """The steps of a shot, each roll on its own view: to hit, reload, damage, the Easy
    level's armour. `rolled`: only the rolls made so far (the rest of `shot` is not real)."""
    header = app.header(title)

    def has(aim: Aim) -> bool:
        return rolled is None or aim in rolled
    views: list[View] = []
    if has(Aim.TO_HIT):
        views.append(Roll(header, (shot.to_hit.roll,), app.t("to_hit"),
                          needs_text(app, shot.to_hit, rule_set(shot.level).hit_range),
                          app.t("HIT") if shot.hit else app.t("MISS")))
    if shot.reload is not None and has(Aim.RELOAD):
        views.append(Roll(header, (shot.reload.roll,), app.t("reload_roll"),
                          needs_text(app, shot.reload, False),
                          app.t("RELOADED") if shot.reload.success else app.t("UNLOADED")))
    if shot.damage is not None and has(Aim.DAMAGE):
        base = app.t("plus_dice", n=shot.damage.base) if rule_set(shot.level).plus_die else \
            dice_words(app, shot.damage.dice, shot.damage.extra)
        views.append(Roll(header, shot.damage.rolls, app.t("damage"), base,
                          f"= {shot.damage.total}"))
    if shot.armour is not None and shot.armour.rolls and has(Aim.ARMOUR):
        armour = joined(" ", app.t(shot.armour.facing.value),
                        app.t("plus_dice", n=shot.armour.value))
        views.append(Roll(header, shot.armour.rolls, app.t("armour"), armour,
                          f"= {shot.armour.total}"))
    return views


def hit_said(firer: str, hit: bool) -> Spoken:
    """A shot's die in words: the firer hits, or misses."""
    return outcome_said("say_hit" if hit else "say_miss", firer=firer)


def reload_said(firer: str, reloaded: bool) -> Spoken:
    """A shot's reload die in words: the firer reloads, or must reload."""
    return outcome_said("say_reloaded" if reloaded else "say_must_reload", label=firer)


def down_said(label: str, figure: int, down: bool) -> Spoken:
    """One figure's die in words: down, or safe."""
    return outcome_said("say_figure_down" if down else "say_figure_safe", label=label, n=figure)


def step_says(shot: Shot, firer: str, rolled: set[Aim] | None = None) -> list[Spoken | None]:
    """What the voice says of each of `shot_steps`' views, as each is drawn: the hit or the
    miss, and the reload (the firer must reload: the children's next turn depends on it).
    The damage and armour totals are only sums on the way to the effect, which the last view
    says: a child listens for what happened, not for two numbers."""
    def has(aim: Aim) -> bool:
        return rolled is None or aim in rolled
    says: list[Spoken | None] = []
    if has(Aim.TO_HIT):
        says.append(hit_said(firer, shot.hit))
    if shot.reload is not None and has(Aim.RELOAD):
        says.append(reload_said(firer, shot.reload.success))
    if shot.damage is not None and has(Aim.DAMAGE):
        says.append(None)
    if shot.armour is not None and shot.armour.rolls and has(Aim.ARMOUR):
        says.append(None)
    return says


def shot_says(shot: Shot, firer: str, target: str) -> list[Spoken | None]:
    """What is said of each of `shot_views`' views: the steps', then the effect on the target
    when its big word is drawn (a miss: said with its die, and again only where OK skipped
    the die: `Show.said`)."""
    effect = EFFECTS.get(shot.effect.value) if shot.hit else None
    return [*step_says(shot, firer), hit_said(firer, False) if effect is None
            else outcome_said(effect, target=target)]


def dice_words(app: App, dice: int, extra: int) -> str:
    """The Tank Game's damage dice, and the extra dice its sixes earned."""
    return app.t("dice_extra", n=dice, extra=extra) if extra else app.t("dice_n", n=dice)


def pair(firer: str, target: str) -> str:
    """Who fires at whom: "Tiger 1 → Sherman 1", a title shown in turns of whole words where
    the header has no room for it beside the round and the side."""
    return f"{firer} → {target}"


def reload_word(app: App, reload: DieCheck | None) -> list[str]:
    """The firer's gun after the shot's reload roll, as the last screen says it: "reloaded"
    or "unloaded" (none where the level has no reload)."""
    if reload is None:
        return []
    return [app.t("shot_reloaded" if reload.success else "shot_unloaded")]


def outcome(app: App, shot: Shot, firer: str, target: str) -> BigWord:
    """A shot's last screen, made from its trace alone (a resumed battle can show it again):
    the firer in the header (who missed?), the outcome word, then at whom, the sum that made
    it and the reload ("→ Sherman 1 · 19 − 14 = 5 · reloaded"), and OK = next."""
    parts = [f"→ {target}"]
    if not shot.hit:
        word = app.t("MISS")
    elif shot.damage is not None and shot.armour is not None:
        word = app.t(BIG_WORDS[shot.effect])
        parts.append(f"{shot.damage.total} − {shot.armour.total} = {shot.net}")
    else:                     # Easy: a damaged target is destroyed by any hit, no damage rolled
        word = app.t(BIG_WORDS[shot.effect])
        parts.append(app.t("any_hit_destroys"))
    return BigWord(app.header(firer), word, joined(" · ", *parts, *reload_word(app, shot.reload)),
                   hint=app.t("ok_next"))


def shot_views(app: App, shot: Shot, firer: str, target: str) -> list[View]:
    """The steps, then the outcome that tells all of it (a miss too: its die, then MISS)."""
    return [*shot_steps(app, shot, firer), outcome(app, shot, firer, target)]


def unloaded(shot: Shot) -> dict[str, LogValue]:
    """A shot whose reload roll failed says so in its log line (the voice tells the firer it
    must reload; the log's words name no such value and show the line as before)."""
    if shot.reload is not None and not shot.reload.success:
        return {"reload": "unloaded"}
    return {}


def resolve_reload(app: App, vehicle: Piece, finish: Finish) -> Screen:
    side = vehicle.side.value
    replay: Replay[ReloadAction] = Replay(lambda dice: hard_fire.reload_action(
        vehicle.card, vehicle.status, dice, vehicle.crew_below_half(app.playing.house),
        app.playing.house, name=vehicle.label,
        crew_by_house=vehicle.open_top_reload_ruled(app.playing.house)))
    header = app.header(vehicle.label)

    def done() -> Screen:
        result = replay.result
        assert result is not None
        app.playing.set_status(vehicle.label, result.after)
        word = "RELOADED" if result.check.success else "UNLOADED"
        app.cue("reloaded" if result.check.success else "unloaded", side)
        views: list[View] = [
            Roll(header, (result.check.roll,), app.t("reload_roll"),
                 needs_text(app, result.check, False), app.t(word))]
        with app.frames_say():          # said once its die has stopped
            after = finish(app, entry("log_reloaded" if result.check.success else
                                      "log_reload_failed", label=vehicle.label))
        says = [outcome_said("say_reloaded" if result.check.success else "say_unloaded",
                             label=vehicle.label)]
        return Show(views, lambda: after, animate=True, steps=True, says=says)

    shown = Lines(header, (app.t("press_reload", side=app.side_name(side)),))

    def wait(roller: str, need: Need) -> Screen:
        return awaited(app, roller, WaitPress(roller, shown, lambda: gather(
            app, replay, vehicle.side, roller, wait, done), says="say_press_reload"))
    return awaited(app, side, WaitPress(side, shown, lambda: gather(
        app, replay, vehicle.side, side, wait, done), says="say_press_reload"))


def again_shot(app: App, side: Side) -> LastShot | None:
    """The side's last shot, if it can be fired again now: the firer and the target are still
    in the battle, on the map, the target not hidden, and the rules let the firer fire."""
    state = app.playing
    last = state.last_shot.get(side)
    if last is None:
        return None
    try:
        firer, target = state.battle.get(last.firer), state.battle.get(last.target)
        if firer.gone or target.gone or target.status.hidden or firer.status.off_map \
                or target.status.off_map:
            return None
        rules = rule_set(state.level)
        check_firer(firer.card, firer.status, needs_loaded=rules.reloads)
    except RulesError:
        return None
    return None if isinstance(shot_odds(app, last), RulesError) else last


def again_row(app: App, aim: LastShot) -> tuple[str, str]:
    """The item of a menu that fires the last shot again, and its hint: first the answers it
    will use (the Tank Game's range, hull down), or that it asks them again, so that a hint
    shown in turns shows them in its first; then the facing and whose button fires."""
    side = app.playing.battle.get(aim.firer).side
    return (f"{aim.firer} → {aim.target}",
            joined(" · ", *answers_said(app, aim), app.t(
                "again_hint", facing=app.t(aim.facing.value), side=app.side_word(side))))


def answers_said(app: App, aim: LastShot) -> tuple[str, ...]:
    """The last shot's answers as the shot again uses them: over 100 cm or up to it, and
    behind cover when it was; "moved: asks first" once the firer or the target moved since
    (they are asked again then), a plain "asks first" for a shot saved before the box kept
    when it was fired (nothing is known to have moved). None at a level that asks no
    modifiers (Easy)."""
    state = app.playing
    if not rule_set(state.level).modifiers:
        return ()
    if not state.answers_hold(aim):
        return (app.t("again_asks" if aim.turn is not None else "again_asks_anew"),)
    far = aim.over or (aim.range_cm or 0) > 100
    ranged = app.t("again_over_100" if far else "again_up_to_100")
    return (ranged, app.t("again_hull_down")) if aim.hull_down else (ranged,)


def fire_again(app: App, aim: LastShot, finish: Finish, back: Next,
               key: Key | None = None) -> Screen | None:
    """The last shot's preview; with the firer's button (`key`), fired at once. Another
    button: None (nothing happens there)."""
    side = app.playing.battle.get(aim.firer).side.value
    preview = FirePreview(aim, side, finish, back)
    if key is None:
        return preview
    return preview.on(app, key) if DICE_KEYS.get(key) == side else None
