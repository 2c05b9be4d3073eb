"""Cobra's HQs and the Allied command limits on the box (8.3.3, 9.1, 11.3).

Where each happens in the sequence of play: the HQ that gives a shift is picked in the attack
dial (an inactive one is refused with its reason, back to the choice); the HQs' screen flips
them as the map asks (moved in the Mechanized Movement Phase, displaced, eliminated); the
friendly Replacement Phase flips them back by itself (the rules' `CobraGame.advance`); the
command levels are dialled in the Allied Supply Phase with the supply points, and each Allied
attack and overrun is counted against its army's level. The rules decide; these screens ask."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import LogEntry, entry
from cobi_companion.device.core.views import BigWord
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.cobra.dialled import Dialled
from cobi_companion.device.games.cobra.session import Phased, header, number, reading, save, session
from cobi_companion.device.ui.widgets import Show
from cobi_companion.rules.cobra.combat import Nation, ShiftChoice, ShiftKind
from cobi_companion.rules.cobra.command import (
    ALLIED_ARMIES,
    HQ,
    HQS,
    LEVEL_MAX,
    PATTON,
    Army,
    Attempt,
    HQEvent,
    HQState,
    attack_army,
    hq,
    hqs_of,
    limits_apply,
)
from cobi_companion.rules.cobra.turns import SCENARIOS, CobraGame
from cobi_companion.rules.errors import RulesError

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

OTHER = ""      # an HQ the box does not list: its shift is given, nothing is kept
# The phases an HQ is flipped by the map in: moved in the Mechanized Movement Phase (9.1a),
# displaced by an enemy unit's movement (9.1b), eliminated in combat (9.1e) or by overrun.
HQ_PHASES = ("initial_movement", "combat", "mechanized_movement")


def limited(game: CobraGame) -> bool:
    """Whether the Allied command limits count this game turn (11.3; none on GT 1-2, 17.3e)."""
    return limits_apply(game.turn, SCENARIOS[game.scenario].landing)


# ---- the HQ of a shift, in the attack dial ----

def step_shift(app: App, attack: Dialled, choice: ShiftChoice, columns: int,
               back: Next) -> Screen:
    """The next value of a shift in the attack dial: an HQ's asks which HQ gives it (an
    inactive one is refused, 9.1i), Patton's is Patton's own (8.3.3g)."""
    game = session(app).game
    offensive = choice.key != "def_hq"
    if columns == 0 or choice.kind not in (ShiftKind.HQ, ShiftKind.PATTON):
        attack.shifts[choice.key] = columns
        attack.hqs.pop(choice.key, None)
        return back()
    if choice.kind is ShiftKind.PATTON:
        return give(app, attack, choice, PATTON.key, columns, back)
    if attack.shifts.get(choice.key, 0):        # one more column from the same HQ
        return give(app, attack, choice, attack.hqs.get(choice.key, OTHER), columns, back)
    nation = attack.attacker if offensive else attack.defender
    listed = [h for h in hqs_of(nation) if h is not PATTON and
              game.command.of(h).state is not HQState.ELIMINATED]
    keys = [h.key for h in listed] + [OTHER]
    items = [hq_line(app, game, h) for h in listed] + [app.t("hq_other")]

    def picked(i: int) -> Screen:
        def again() -> Screen:
            return step_shift(app, attack, choice, columns, back)
        return give(app, attack, choice, keys[i], columns, back, refused=again)
    return Phased(app.t("which_hq"), items, picked, back=back)


def give(app: App, attack: Dialled, choice: ShiftChoice, key: str, columns: int,
         back: Next, refused: Next | None = None) -> Screen:
    """The shift given by HQ `key`, or its refusal with the reason, back to the choice."""
    game = session(app).game
    if key != OTHER:
        try:
            game.command.check_shift(hq(key), columns, choice.key != "def_hq", game.turn)
        except RulesError as exc:
            return reading(app, app.t("not_possible"), [app.say(exc)], (refused or back)())
    attack.shifts[choice.key] = columns
    attack.hqs[choice.key] = key
    return back()


def hq_line(app: App, game: CobraGame, one: HQ) -> str:
    return joined(": ", one.name, app.t("hqstate_" + game.command.of(one).state.value))


def spend_hqs(game: CobraGame, attack: Dialled) -> tuple[CobraGame, tuple[str, ...]]:
    """The HQs that gave this combat its shifts, flipped once they have given all they may
    (8.3.3 Important): done when the die is rolled, as the supply points are."""
    command, names = game.command, []
    for key, given in attack.hqs.items():
        columns = attack.shifts.get(key, 0)
        if given == OTHER or not columns:
            continue
        one = hq(given)
        command, _ = command.use(one, columns, key != "def_hq", game.turn)
        names.append(one.name)
    return replace(game, command=command), tuple(names)


def hq_entry(line: LogEntry, names: tuple[str, ...]) -> LogEntry:
    return entry("log_hqs", line=line, hqs=names) if names else line


# ---- the army of an Allied attack or overrun, and its command limit ----

def attempt_of(attack: Dialled) -> Attempt:
    return Attempt.ATTACK if attack.overrun is None else Attempt.OVERRUN


def counts(app: App, attack: Dialled) -> bool:
    """Whether this combat is counted against a command limit (11.3): an Allied attack or an
    Allied overrun while moving, in a game turn with limits dialled."""
    from cobi_companion.rules.cobra.command import counted

    game = session(app).game
    return attack.attacker is Nation.ALLIED and limited(game) and \
        game.command.level(game.turn, Army.US) is not None and \
        counted(attempt_of(attack), attack.overrun)


def with_army(app: App, attack: Dialled, track: str | None, then: Next,
              back: Next) -> Screen:
    """Whose attack it is, for the command limit: the supply track paid from tells (11.2),
    or the HQ that gives a shift (8.3.3d, 8.3.3e); else the players are asked. Beyond the
    limit the attack is refused with the reason (11.3)."""

    attack.army = None
    if not counts(app, attack):
        return then()
    shifting = attack.hqs.get("att_hq", OTHER) or \
        (PATTON.key if attack.shifts.get("patton") else OTHER)
    try:
        army = attack_army(track, hq(shifting) if shifting else None)
    except RulesError as exc:
        return reading(app, app.t("not_possible"), [app.say(exc)], back())
    if army is not None:
        return checked(app, attack, army, then, back)
    items = [app.t("army_" + a.value) for a in ALLIED_ARMIES]
    return Phased(app.t("whose_attack"), items,
                          lambda i: checked(app, attack, ALLIED_ARMIES[i], then, back),
                          back=back)


def checked(app: App, attack: Dialled, army: Army, then: Next, back: Next) -> Screen:
    from cobi_companion.rules.cobra.command import refuse_beyond

    game = session(app).game
    try:
        refuse_beyond(game.command.check(game.turn, army, attempt_of(attack), attack.overrun))
    except RulesError as exc:       # and where a level dialled wrong is put right
        return reading(app, app.t("not_possible"), [app.say(exc), app.t("level_on_tracks")],
                           back())
    attack.army = army
    return then()


def count_made(game: CobraGame, attack: Dialled) -> CobraGame:
    """The attack or overrun counted against its army's limit, when the die is rolled."""
    if attack.army is None:
        return game
    command, _ = game.command.count(game.turn, attack.army, attempt_of(attack),
                                    attack.overrun)
    return replace(game, command=command)


# ---- the command levels, dialled in the Allied Supply Phase ----

def dial_levels(app: App, home: Next, then: Callable[[CobraGame], Screen]) -> Screen:
    """The US and the British command levels the turn record track prints for this game
    turn (11.3), the knob starting at last turn's; none on GT 1-2 (17.3e)."""

    game = session(app).game
    if not limited(game):
        return then(game)
    us, british = game.command.levels

    def dialled(new_us: int, new_british: int) -> Screen:
        now = session(app).game
        return then(with_levels(now, new_us, new_british))
    return number(app, app.t("level_us"), us, lambda u: number(
        app, app.t("level_british"), british, lambda b: dialled(u, b), home, high=LEVEL_MAX),
        home, high=LEVEL_MAX)


def with_levels(game: CobraGame, us: int, british: int) -> CobraGame:
    command = game.command.with_levels(game.turn, us, british)
    return replace(game, command=command)


def limit_lines(app: App, game: CobraGame) -> list[str]:
    """"US attacks 2/4", "US overruns 0/4": this game turn's counts against the levels."""
    if not limited(game) or game.command.level(game.turn, Army.US) is None:
        return []           # none on GT 1-2 (17.3e), or not dialled this turn
    lines = []
    for army in ALLIED_ARMIES:
        most = game.command.level(game.turn, army)
        tally = game.command.tally(game.turn, army)
        lines += [app.t("limit_attacks", army=app.t("army_" + army.value), made=tally.attacks,
                        most=most),
                  app.t("limit_overruns", army=app.t("army_" + army.value),
                        made=tally.overruns, most=most)]
    return lines


def correct_level(app: App, home: Next, index: int, back: Callable[[], Screen]) -> Screen:
    """A command level dialled again from the tracks (the track misread)."""

    army = ALLIED_ARMIES[index // 2]
    game = session(app).game
    levels = list(game.command.levels)       # dialled this turn: the lines are shown

    def set_to(value: int) -> Screen:
        s = session(app)
        levels[ALLIED_ARMIES.index(army)] = value
        s.game = with_levels(s.game, levels[0], levels[1])
        save(app, entry("log_levels", us=levels[0], british=levels[1]))
        return back()
    return number(app, app.t("level_" + army.value), levels[ALLIED_ARMIES.index(army)], set_to,
                  home, high=LEVEL_MAX)


# ---- the HQs' screen: flipped as the map asks ----

def hqs_screen(app: App, home: Next, index: int = 0) -> Screen:
    """Every HQ with its side up; the phasing player's first."""

    game = session(app).game
    player = game.phase.player
    listed = sorted(HQS, key=lambda h: h.army.nation is not player)
    items = [hq_line(app, game, h) for h in listed]
    return Phased(app.t("hqs"), items, lambda i: hq_actions(app, home, listed[i], i),
                      back=home, index=index)


def hq_actions(app: App, home: Next, one: HQ, index: int) -> Screen:
    """What happened to this HQ: moved in its own Mechanized Movement Phase (9.1a),
    displaced (9.1b), eliminated (9.1e). An eliminated HQ has nothing more to happen."""

    game = session(app).game

    def back() -> Screen:
        return hqs_screen(app, home, index)
    if game.command.of(one).state is HQState.ELIMINATED:
        return reading(app, one.name, [app.t("hqstate_eliminated")], back())
    events = [HQEvent.DISPLACED, HQEvent.ELIMINATED]
    if game.phase.name == "mechanized_movement" and game.phase.player is one.army.nation:
        events.insert(0, HQEvent.MOVED)
    return Phased(
        one.name, [app.t("hqevent_" + e.value) for e in events],
        lambda i: flipped(app, one, events[i], back), back=back)


def flipped(app: App, one: HQ, event: HQEvent, back: Next) -> Screen:

    s = session(app)
    command, change = s.game.command.flip(one, event, s.game.turn, s.game.step)
    s.game = replace(s.game, command=command)
    save(app, entry("log_hq", name=one.name, hq_event=event.value,
                    hq_state=change.after.value))
    word = app.t("hqstate_" + change.after.value).upper()
    # the rule's number only: "9.1b Important" is the trace's, in English
    detail = joined(" ", app.t("hqevent_" + event.value), f"({change.rule.split()[0]})")
    return Show([BigWord(header(app, one.name), word, detail)], back)
