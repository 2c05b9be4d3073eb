"""Cobra's victory points and special rolls on the box: the players say what happened (a unit
eliminated, a unit exited off an edge, Cherbourg held, a variant counter brought in) from a
short menu of the sources this scenario and game turn allow, and the box adds the VP to the
right track (16.1, 16.2, 18.0); the last entry can be taken back. Leclerc (15.1), the 15th
Army (15.2) and Brest (15.3) are rolled on the right side's button from the phase hub.

The rules (rules/cobra/victory_points.py, special_rolls.py) do every sum and every check;
these screens collect what the players choose and show the rules' trace."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import LogEntry, entry
from cobi_companion.device.core.spoken import Spoken, item
from cobi_companion.device.core.views import BigWord, Lines, View
from cobi_companion.device.games.cobra.session import (
    Phased,
    header,
    number,
    press_for,
    refusal,
    save,
    session,
)
from cobi_companion.device.ui.widgets import Show, said_item
from cobi_companion.rules.cobra import special_rolls as rolls
from cobi_companion.rules.cobra import victory_points as vps
from cobi_companion.rules.cobra.combat import Nation
from cobi_companion.rules.cobra.turns import CobraGame
from cobi_companion.rules.dice import Aim, Need, Roller
from cobi_companion.rules.errors import RulesError

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

Rolled = rolls.LeclercRoll | rolls.ReleaseRoll | rolls.BrestRoll
COUNT_MAX = 40              # units of one kind reported at once
COUNTED = ("us_not_exited", "german_division", "german_mech_division",
           "allied_regiment", "german_panzer")   # dialled as a number: often several at once
SHORT = {nation.value: f"cobra_short_{nation.value}" for nation in Nation}


# ---- victory points ----

def vp_menu(app: App, home: Next, tracks: Next, keep: str | None = None) -> Screen:
    """"Take back" the last entry (when there is one), then each source this scenario and
    game turn allow, with its VP and whose; the knob on source `keep` (the one just
    reported: another of the same is one press)."""
    game = session(app).game
    offered = vps.offered(game.scenario, game.turn)
    last = _last_reported(game)
    items: list[tuple[str, Callable[[], Screen]]] = []
    if last is not None:
        items.append((app.t("vp_take_back", what=app.t("vp_" + last)),
                      lambda: take_back(app, home, tracks)))
    keys = [found.key for found in offered]
    index = len(items) + keys.index(keep) if keep in keys else 0
    said = [said_item(label) for label, _ in items]
    items += [(vp_item(app, found, game.turn), partial(chosen, app, home, tracks, found))
              for found in offered]
    said += [said_vp_item(app, found, game.turn) for found in offered]
    return Phased(app.t("victory_points"), [label for label, _ in items],
                  lambda i: items[i][1](), back=tracks, index=index, spoken=said)


def said_vp_item(app: App, found: vps.Source, turn: int) -> Spoken:
    """A source read aloud in words, not the panel's "+3 Ger:": what it is, then who gains
    (or loses) how many points, as the voice says an award."""
    vp = vps.exit_vp(turn) if found.key == "exit_us_mech" else found.vp
    what = app.t("vp_" + found.key)
    if vp == 0:
        return item("say_item", item=what)
    key = "say_vp_gained" if vp > 0 else "say_vp_lost"
    gains = item(key + "_one", side=found.side) if abs(vp) == 1 else \
        item(key, side=found.side, vp=abs(vp))
    return item("say_item_vp", what=what, vp=gains)


def vp_item(app: App, found: vps.Source, turn: int) -> str:
    """"+3 Ger: Allied HQ eliminated": a US division's exit is worth its game turn's VP."""
    vp = vps.exit_vp(turn) if found.key == "exit_us_mech" else found.vp
    return app.t("vp_item", vp=f"{vp:+d}", side=app.t(SHORT[found.side]),
                 what=app.t("vp_" + found.key))


def _last_reported(game: CobraGame) -> str | None:
    menu = [a.source for a in game.scoresheet.awards if vps.SOURCES[a.source].menu]
    return menu[-1] if menu else None


def chosen(app: App, home: Next, tracks: Next, found: vps.Source) -> Screen:
    if found.key in COUNTED:
        return number(app, app.t("vp_how_many"), 1, lambda n: scored(app, home, tracks, found, n),
                      home, low=1, high=COUNT_MAX)
    return scored(app, home, tracks, found, 1)


def scored(app: App, home: Next, tracks: Next, found: vps.Source, count: int) -> Screen:
    s = session(app)
    try:
        s.game, result = vps.record(s.game, found.key, count)
    except RulesError as exc:               # the reason, then the menu again
        return refusal(app, exc, vp_menu(app, home, tracks, found.key))
    save(app, entry("log_vp", vp_source=found.key, vp=result.vp, track=result.track))
    word = app.t("EXITED") if result.exit is not None and result.vp == 0 else \
        app.t("vp_big", vp=f"{result.vp:+d}")
    return Show([BigWord(header(app, app.t("vp_" + found.key)), word, why(app, result))],
                lambda: vp_menu(app, home, tracks, found.key))


def why(app: App, result: vps.Scored) -> str:
    """Why the event is worth its VP, in one short line."""
    return app.t("vpwhy_" + result.why.value, rule=result.source.rule, count=result.count,
                 each=result.source.vp, turn=result.turn)


def take_back(app: App, home: Next, tracks: Next) -> Screen:
    s = session(app)
    s.game, taken = vps.undo(s.game)        # offered only when there is an entry to undo
    save(app, entry("log_vp_undo", vp_source=taken.source, vp=taken.vp,
                    track=vps.TRACK[taken.side]))
    return Show([BigWord(header(app, app.t("vp_" + taken.source)), app.t("TAKEN_BACK"),
                         app.t("vp_big", vp=f"{-taken.vp:+d}"))],
                lambda: vp_menu(app, home, tracks))


# ---- the special rolls ----

def leclerc(app: App, home: Next) -> Screen:
    """15.1b: at the beginning of the Allied Initial Movement Phase, with a clear path east."""
    need = Need(Roller.ALLIES, Aim.LECLERC, "Leclerc")
    return press_for(app, Nation.ALLIED, [app.t("leclerc_path"), app.t("leclerc_one")], need,
                     lambda face: _rolled(app, home, lambda game: rolls.leclerc_on(game, face),
                                          _leclerc_shown), home)


def _leclerc_shown(app: App, result: rolls.LeclercRoll) -> tuple[LogEntry, list[BigWord]]:
    line = entry("log_leclerc", die=result.die,
                 result=entry("log_mutiny" if result.mutiny else "log_no_mutiny"))
    word, detail = ("MUTINY", "leclerc_mutiny") if result.mutiny else ("LOYAL", "leclerc_stays")
    return line, [BigWord(header(app, app.t("leclerc")), app.t(word), app.t(detail))]


def release(app: App, home: Next) -> Screen:
    """15.2: in the German Initial Movement Phase, one attempt a game turn, 1-2 releases the
    next division; the attempt costs the German player one VP either way (15.2b)."""
    division = rolls.next_division(session(app).game)
    lines = [app.t("release_next", division=division), app.t("release_cost")]
    need = Need(Roller.AXIS, Aim.RELEASE, "15th Army release")
    return press_for(app, Nation.GERMAN, lines, need, lambda face: _rolled(
        app, home, lambda game: rolls.release_on(game, face), _release_shown), home)


def _release_shown(app: App, result: rolls.ReleaseRoll) -> tuple[LogEntry, list[BigWord]]:
    if not result.released:
        line = entry("log_release", die=result.die, result=entry("log_not_released"))
        return line, [BigWord(header(app, app.t("release")), app.t("HELD_BACK"),
                              app.t("track_german_vp", n=session(app).game.tracks.german_vp))]
    assert result.division is not None              # released: the division it was
    released = entry("log_released_hq" if result.hq else "log_released",
                     division=result.division, units=result.units)
    words = [BigWord(header(app, app.t("release")), app.t("RELEASED"),
                     app.t("release_units", division=result.division, units=result.units))]
    return entry("log_release", die=result.die, result=released), words


def brest(app: App, home: Next) -> Screen:
    """15.3: at the beginning of each game turn from GT 26 while no US unit has exited off the
    west edge, 1-2 (−1 on GT 27) releases the 2nd FJ Division."""
    game = session(app).game
    lines = [app.t("brest_next")]
    if game.turn == rolls.BREST_MINUS_ON:
        lines.append(app.t("brest_minus"))
    need = Need(Roller.AXIS, Aim.BREST, "Brest")
    return press_for(app, Nation.GERMAN, lines, need, lambda face: _rolled(
        app, home, lambda game: rolls.brest_on(game, face), _brest_shown), home)


def _brest_shown(app: App, result: rolls.BrestRoll) -> tuple[LogEntry, list[BigWord]]:
    line = entry("log_brest", die=result.die, modifier=result.modifier,
                 modified=result.modified,
                 result=entry("log_fj_released" if result.released else "log_not_released"))
    detail = app.t("brest_units") if result.released else app.t(
        "die_modified", die=result.die, modifier=f"{result.modifier:+d}",
        modified=result.modified)
    return line, [BigWord(header(app, app.t("brest")),
                          app.t("RELEASED" if result.released else "HELD_BACK"), detail)]


def _rolled(app: App, home: Next, made: Callable[[CobraGame], tuple[CobraGame, Rolled]],
            shown: Callable[[App, Any], tuple[LogEntry, list[BigWord]]]) -> Screen:
    """The roll made on the game (or refused, with the reason), saved and logged, its outcome
    big, then the phase hub; a 15th Army division's HQ said after it (15.2f)."""
    s = session(app)
    try:
        s.game, result = made(s.game)
    except RulesError as exc:
        return refusal(app, exc, home())
    line, views = shown(app, result)
    save(app, line)
    more: list[View] = [*views]
    if isinstance(result, rolls.ReleaseRoll) and result.hq:
        more.append(Lines(header(app, app.t("release")), (app.t("release_hq"),),
                          hint=app.t("ok_next")))
    return Show(more, home)
