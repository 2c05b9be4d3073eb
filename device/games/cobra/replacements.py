"""Cobra's replacements on the box: in each side's Replacement Phase what it may still take
this game turn, a press for each step taken, a refusal with its rule beyond the allowance
(12.2), and the German VP every tenth Allied step gives (16.1). The rules
(rules/cobra/replacements.py) keep the count; these screens collect the presses and say it."""
from __future__ import annotations

from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import LogEntry, entry
from cobi_companion.device.core.views import BigWord
from cobi_companion.device.games.cobra.session import (
    Phased,
    header,
    reading,
    refusal,
    save,
    session,
)
from cobi_companion.device.ui.widgets import Show
from cobi_companion.rules.cobra.combat import Nation
from cobi_companion.rules.cobra.replacements import (
    Allowance,
    last_taken,
    of_game,
    steps_text,
    take,
    take_back,
)
from cobi_companion.rules.errors import RulesError

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

# The steps each side's menu offers: (side, kind), and the word of its item.
OFFERED = {Nation.GERMAN: (("german", "mech"), ("german", "inf")),
           Nation.ALLIED: (("us", "inf"), ("us", "mech"), ("british", "inf"),
                           ("british", "mech"))}


def item(app: App, side: str, kind: str, allowed: Allowance) -> str:
    """A step's menu item: how many are left, where the rules count them, else how many were
    taken this turn."""
    left = allowed.left[kind]
    if left is None:
        return app.t(f"repl_{side}_{kind}", n=app.t("repl_taken", n=allowed.used[kind]))
    return app.t(f"repl_{side}_{kind}", n=app.t("repl_left", n=left))


def replacements(app: App, home: Next, index: int = 0) -> Screen:
    """The phase's menu: a step of each kind, the track or the Allied count; back: the hub
    (`home`)."""
    game = session(app).game
    offered = OFFERED[game.phase.player]
    allowed = {side: of_game(game, side) for side in {side for side, _ in offered}}
    items = [item(app, side, kind, allowed[side]) for side, kind in offered]
    if game.phase.player is Nation.GERMAN:
        track = allowed["german"].on_track
        items.append(app.t("repl_track", mech=steps_text("mech", track["mech"]),
                           inf=track["inf"]))
    else:
        count = allowed["us"]
        items.append(app.t("repl_allied", n=count.allied_steps, next=count.to_dict()[
            "next_vp_at"]))

    # a press too many is taken back first: the menu's first item once a step is taken
    last = last_taken(game)
    first = [app.t("vp_take_back", what=step_name(app, last.side, last.kind))] if last else []
    at = len(first)

    def chosen(i: int) -> Screen:
        if i < at:
            return taken_back(app, home, index)
        if i - at >= len(offered):
            return reading(app, app.t("replacements"), track_lines(app), replacements(app, home, i))
        return taken(app, home, *offered[i - at], index=i if at else i + 1)
    return Phased(app.t("replacements"), [*first, *items], chosen, back=home,
                  index=index)


def step_name(app: App, side: str, kind: str) -> str:
    """A step's kind and side, as its menu item names it ("US infantry")."""
    return app.t(f"repl_{side}_{kind}", n="").strip()


def taken_back(app: App, home: Next, index: int) -> Screen:
    """The last step of the phase taken back, and the German VP it gave (16.1), logged."""
    s = session(app)
    s.game, step, vp = take_back(s.game)
    line: LogEntry = entry("log_replacement_back", army=step.side, step_kind=step.kind)
    save(app, entry("log_replacement_back_vp", line=line) if vp else line)
    return Show([BigWord(header(app, app.t("replacements")), app.t("TAKEN_BACK"),
                         step_name(app, step.side, step.kind))],
                lambda: replacements(app, home, max(0, index - 1) if last_taken(s.game) is None
                                     else index))


def taken(app: App, home: Next, side: str, kind: str, index: int) -> Screen:
    """One step taken, saved and logged; refused with its reason; the tenth Allied step's
    German VP shown big."""
    s = session(app)
    try:
        s.game, step = take(s.game, side, kind)
    except RulesError as exc:
        return refusal(app, exc, replacements(app, home, index))
    line: LogEntry = entry("log_replacement", army=side, step_kind=kind)
    if step.vp is not None:
        line = entry("log_replacement_vp", line=line, note=step.vp)
    save(app, line)
    again: Next = lambda: replacements(app, home, index)    # noqa: E731 - the menu, on the step
    if step.vp is None:
        return again()
    return Show([BigWord(header(app, app.t("replacements")), app.t("GERMAN_VP_PLUS"),
                         app.say(step.vp))], again)


def track_lines(app: App) -> list[str]:
    """The German replacement tracks this game turn and the Allied steps of the game (16.1),
    for the Tracks screen and the phase's menu."""
    game = session(app).game
    german = of_game(game, "german")
    lines = [app.t("repl_received", mech=steps_text("mech", german.received["mech"]),
                   inf=german.received["inf"]),
             app.t("repl_on_track", mech=steps_text("mech", german.on_track["mech"]),
                   inf=german.on_track["inf"])]
    allied = of_game(game, "us")
    return [*lines, app.t("repl_allied", n=allied.allied_steps,
                          next=allied.to_dict()["next_vp_at"])]


def track_line(app: App) -> str:
    """The German replacement tracks this game turn (12.2), on the Tracks screen."""
    track = of_game(session(app).game, "german").on_track
    return app.t("repl_track", mech=steps_text("mech", track["mech"]), inf=track["inf"])


def track_screen(app: App, then: Screen) -> Screen:
    """The German tracks and the Allied steps, read from the Tracks screen."""
    return reading(app, app.t("replacements"), track_lines(app), then)

