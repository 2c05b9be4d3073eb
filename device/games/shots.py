"""Fire and reload on the box: odds preview, the right player's button for each roll (or real
dice dialled in), then each step of the trace on screen and one big outcome word."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Screen
from cobi_companion.device.core.replay import Replay
from cobi_companion.device.core.views import BigWord, Lines, Roll, View
from cobi_companion.device.games.rolling import gather
from cobi_companion.device.ui.explain import BIG_WORDS
from cobi_companion.device.ui.widgets import Show, WaitPress, notice
from cobi_companion.device.ui.wording import in_six, percent
from cobi_companion.rules import tank_game
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.dice import Aim, Need, Roller
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.levels import rule_set
from cobi_companion.rules.shot import ShotPlan
from cobi_companion.rules.status import Effect
from cobi_companion.rules.trace import DieCheck, ReloadAction, Shot

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

Finish = Callable[["App", str], Screen]
CUES = {Effect.MISS: "miss", Effect.NONE: "hit", Effect.DESTROYED: "destroyed"}


def resolve_fire(app: App, firer: Piece, target: Piece, plan: ShotPlan,
                 finish: Finish, refused: Callable[[], Screen]) -> Screen:
    """`refused`: the choice a shot the rules refuse goes back to, with the reason (a refusal
    never costs the turn)."""
    rules = rule_set(app.playing.level)
    try:
        odds = rules.odds(plan)
    except RulesError as exc:
        app.cue("error")
        return notice(app, app.t("not_possible"), [app.say(exc)], refused)
    side = firer.side.value
    preview = Lines(app.header(f"{firer.label} → {target.label}"), (
        app.t("odds", hit=in_six(app, odds.hit), kill=percent(app, odds.kill)),
        app.t("press_to_fire", side=app.side_name(side))))
    replay: Replay[Shot] = Replay(lambda dice: rules.fire(plan, dice))

    def waiting(roller: str) -> View:
        faces = tuple(f for f, n in zip(replay.faces, replay.needs, strict=True)
                      if n.roller is Roller.FIRER and n.aim in (Aim.DAMAGE, Aim.EXTRA))
        return Roll(app.header(target.label), faces, app.t("armour"),
                    needed=app.t("press_armour", side=app.side_name(roller)))

    def wait(roller: str, need: Need) -> Screen:
        return WaitPress(roller, waiting(roller), lambda: gather(
            app, replay, firer.side, roller, wait, done))

    def done() -> Screen:
        shot = replay.result
        assert shot is not None
        app.playing.set_status(firer.label, shot.attacker_after)
        app.playing.set_status(target.label, shot.target_after)
        app.cue(CUES.get(shot.effect, "hit"), side)
        views = shot_views(app, shot, f"{firer.label} → {target.label}")
        line = (f"{firer.label} fires at {target.label} ({plan.facing.value}): "
                f"{shot.effect.value}")
        after = finish(app, line)
        return Show(views, lambda: after, animate=True)

    return WaitPress(side, preview, lambda: gather(app, replay, firer.side, side, wait, done))


def needs_text(app: App, check: DieCheck, exact: bool) -> str:
    text = app.t("needs_range", r=check.needed) if exact else app.t("needs", n=check.needed.low)
    mods = sum(m.value for m in check.modifiers)
    return f"{text} ({mods:+d})" if mods else text


def shot_views(app: App, shot: Shot, title: str) -> list[View]:
    header = app.header(title)
    word = app.t(BIG_WORDS[shot.effect])
    views: list[View] = [Roll(header, (shot.to_hit.roll,), app.t("to_hit"),
                              needs_text(app, shot.to_hit, shot.level == "easy"),
                              app.t("HIT") if shot.hit else app.t("MISS"))]
    if shot.reload is not None:
        views.append(Roll(header, (shot.reload.roll,), app.t("reload_roll"),
                          needs_text(app, shot.reload, False),
                          app.t("RELOADED") if shot.reload.success else app.t("UNLOADED")))
    if shot.damage is not None:
        base = f"{shot.damage.base} + {app.t('d6_plus')}" if shot.level == "easy" else \
            f"{shot.damage.dice} + {shot.damage.extra}"
        views.append(Roll(header, shot.damage.rolls, app.t("damage"), base,
                          f"= {shot.damage.total}"))
    if shot.armour is not None:
        armour = f"{app.t(shot.armour.facing.value)} {shot.armour.value}"
        views.append(Roll(header, shot.armour.rolls, app.t("armour"),
                          armour + (f" + {app.t('d6_plus')}" if shot.armour.rolls else ""),
                          f"= {shot.armour.total}"))
    detail = ""
    if shot.damage is not None and shot.armour is not None:
        detail = f"{shot.damage.total} − {shot.armour.total} = {shot.net}"
    elif shot.hit:  # Easy: a damaged target is destroyed by any hit, no damage rolled
        detail = app.t("any_hit_destroys")
    views.append(BigWord(header, word, detail))
    return views


def resolve_reload(app: App, vehicle: Piece, finish: Finish) -> Screen:
    side = vehicle.side.value
    replay: Replay[ReloadAction] = Replay(lambda dice: tank_game.reload_action(
        vehicle.card, vehicle.status, dice, vehicle.crew_below_half()))
    header = app.header(vehicle.label)

    def done() -> Screen:
        result = replay.result
        assert result is not None
        app.playing.set_status(vehicle.label, result.after)
        word = "RELOADED" if result.check.success else "UNLOADED"
        app.cue("reloaded" if result.check.success else "unloaded", side)
        views: list[View] = [
            Roll(header, (result.check.roll,), app.t("reload_roll"),
                 needs_text(app, result.check, False), f"= {result.check.modified}"),
            BigWord(header, app.t(word))]
        after = finish(app, f"{vehicle.label} reloads: {word.lower()}")
        return Show(views, lambda: after, animate=True)

    prompt = Lines(header, (app.t("press_reload", side=app.side_name(side)),))

    def wait(roller: str, need: Need) -> Screen:
        return WaitPress(roller, prompt, lambda: gather(app, replay, vehicle.side, roller,
                                                        wait, done))
    return WaitPress(side, prompt, lambda: gather(app, replay, vehicle.side, side, wait, done))
