"""`cobra odds`, `cobra roll`, `cobra weather`, `cobra crt check`, `cobra victory` and `cobra
points`: Cobra (Normandy 1944) combat odds, a combat, the weather, the owner's tables file, the
level of victory and the points a game turn has left."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from cobi_companion.cards.tomlfile import shortened
from cobi_companion.device.cli.checked import TextFile, Whole
from cobi_companion.device.cli.common import (
    cobra_tables,
    make_dice,
    note_unused,
    print_result,
)
from cobi_companion.device.cli.errors import UsageError
from cobi_companion.device.cli.options import DICE, DIE, add_tables, game_turn
from cobi_companion.device.ports.safe_text import printable
from cobi_companion.rules.numbers import digits, whole

if TYPE_CHECKING:
    from cobi_companion.rules.cobra.combat import Nation, Odds, Shift
    from cobi_companion.rules.cobra.naval import NavalRange
    from cobi_companion.rules.cobra.tables import CobraTables, Weather


def cobra(args: argparse.Namespace) -> int:
    from cobi_companion.device.cli import COBRA_COMMANDS

    names = [c.name if c.name != "crt" else "crt check" for c in COBRA_COMMANDS]
    raise UsageError(f"cobra needs a subcommand: {', '.join(names[:-1])} or {names[-1]} "
                     f"(see cobi-companion cobra --help)")


def odds(args: argparse.Namespace) -> int:
    from cobi_companion.device.cli import explain

    result = _odds(args, cobra_tables(args))
    print_result(args, result.to_dict(), explain.cobra_odds(result))
    return 0


def roll(args: argparse.Namespace) -> int:
    from cobi_companion.device.cli import explain
    from cobi_companion.rules.cobra import combat as cobra_combat

    tables = cobra_tables(args)
    planned = _odds(args, tables)
    dice = make_dice(args.dice)
    combat = cobra_combat.roll(planned, dice, tables)
    print_result(args, combat.to_dict(), explain.cobra_combat_text(combat))
    note_unused(dice)
    return 0


def weather(args: argparse.Namespace) -> int:
    from cobi_companion.device.cli import explain
    from cobi_companion.rules.cobra import weather as cobra_weather

    tables = cobra_tables(args)
    history = cobra_weather.parse_history(args.history or "")
    dice = make_dice(args.dice)
    result = cobra_weather.determine(args.turn, history, dice, tables)
    print_result(args, result.to_dict(), explain.cobra_weather_text(result, tables.source))
    note_unused(dice)
    return 0


def crt(args: argparse.Namespace) -> int:
    """`crt check FILE`: each problem of the file on a line, then their count (exit 1)."""
    from cobi_companion.cards import CardFileError, load_cobra_tables
    from cobi_companion.device.cli import explain

    try:
        tables = load_cobra_tables(Path(args.file))
    except CardFileError as exc:
        for problem in exc.problems:
            print(printable(str(problem)))
        count = len(exc.problems)
        print(f"{args.file}: {count} problem{'s' if count != 1 else ''}")
        return 1
    print(explain.cobra_tables_summary(args.file, tables))
    return 0


def victory(args: argparse.Namespace) -> int:
    """The scenario's question for the initial level (16.3.1, 16.3.2; 17.4.2 in the Build-Up),
    then the shift of every full 15 VP of the net: Allied minus German (16.3.3)."""
    from cobi_companion.device.cli import explain
    from cobi_companion.rules.cobra.turns import marginal
    from cobi_companion.rules.cobra.turns import victory as level_of_victory

    if args.beaches_lost:
        return _automatic(args)
    asked = marginal(args.scenario)
    answers = {"frontline": args.frontline, "objectives": args.objectives}
    other = next(k for k in answers if k != asked.key)
    if answers[other] is not None:
        raise UsageError(f"--{other}: the {args.scenario} scenario asks --{asked.key} "
                         f"({asked.rule}): {asked.question}")
    if answers[asked.key] is None:
        raise UsageError(f"cobra victory --scenario {args.scenario} needs --{asked.key} yes|no "
                         f"({asked.rule}): {asked.question}")
    yes = answers[asked.key] == "yes"
    level, note = level_of_victory(args.scenario, yes, args.german_vp, args.allied_vp)
    initial = asked.yes if yes else asked.no
    data = {"scenario": args.scenario,
            "question": {"key": asked.key, "rule": asked.rule, "text": asked.question},
            "answer": yes, "initial_level": initial, "german_vp": args.german_vp,
            "allied_vp": args.allied_vp, "net_vp": args.allied_vp - args.german_vp,
            "levels_shifted": note.values.get("levels", 0),
            "toward": None if not note.values.get("levels") else
            "allied" if args.allied_vp > args.german_vp else "german", "level": level,
            "note": note.text}
    print_result(args, data, lambda: explain.cobra_victory_text(data))
    return 0


def _automatic(args: argparse.Namespace) -> int:
    """No beach hex friendly to the Allies at the beginning of an Allied player turn: the game
    ends, an automatic decisive German victory, whatever the VP (17.3.13, 17.4.3)."""
    from cobi_companion.device.cli import explain
    from cobi_companion.rules.cobra.turns import automatic_victory

    given = [f"--{name}" for name in ("frontline", "objectives")
             if getattr(args, name) is not None]
    if given:
        raise UsageError(f"{given[0]}: with --beaches-lost the game has ended before any "
                         f"question of its level (17.3.13, 17.4.3): leave it out")
    level, note = automatic_victory(args.scenario)
    data = {"scenario": args.scenario, "automatic": True, "level": level,
            "german_vp": args.german_vp, "allied_vp": args.allied_vp, "note": note.text,
            "rule": "17.3.13, 17.4.3"}
    print_result(args, data, lambda: explain.cobra_automatic_text(data))
    return 0


def points(args: argparse.Namespace) -> int:
    """The game turn's air points (14.0; half of them in the German Combat Phase, 14.1a),
    naval support points (14.4) and carpet bombing missions (14.3f): given, spent, left."""
    from dataclasses import replace

    from cobi_companion.device.cli import explain
    from cobi_companion.rules.cobra.combat import Nation
    from cobi_companion.rules.cobra.notes import Note, Why
    from cobi_companion.rules.cobra.tables import Weather
    from cobi_companion.rules.cobra.turns import CobraGame, sequence

    start = CobraGame.start("campaign")          # every game turn, 1 to 28
    player = Nation(args.phase)
    step = next(i for i, p in enumerate(sequence("campaign", args.turn))
                if p.name == "combat" and p.player is player)
    weather = (Weather(args.weather),) * args.turn if args.weather else ()
    game = replace(start, turn=args.turn, step=step, weather=weather, last=28,
                   carpets=tuple(_flown_so_far(args)))
    for kind, used in (("air", args.air_used), ("naval", args.naval_used)):
        given = next(b for b in game.budgets() if b.kind == kind).most
        if used > given:
            raise UsageError(f"--{kind}-used {used}: game turn {args.turn} "
                             f"{'in ' + args.weather + ' weather ' if args.weather else ''}"
                             f"has {given} {'air' if kind == 'air' else 'naval support'} "
                             f"points{' in this phase' if kind == 'air' else ''}")
    game = replace(game, air_used=args.air_used, naval_used=args.naval_used)
    budgets = game.budgets()
    # a carpet bombing flown this game turn: the other three AP not on its front (14.3e)
    front = Note(Why.CARPET_OTHER_FRONT).text if game.carpet_flown_now else None
    data = {"turn": args.turn, "weather": args.weather, "phase": player.value,
            "budgets": [b.to_dict() for b in budgets], "carpet_front": front}
    print_result(args, data, lambda: explain.cobra_points_text(data))
    return 0


def _flown_so_far(args: argparse.Namespace) -> list[int]:
    """--flown TURNS: the carpet missions flown up to and including --turn (14.3f)."""
    return _game_turns(args.flown, args.turn,
                       f"each a game turn from 1 to --turn {args.turn}")


def _game_turns(text: str | None, most: int, allowed: str) -> list[int]:
    """A comma list of game turns from 1 to `most`; one outside: exit 2, `allowed` said."""
    turns = []
    for item in _items([text] if text else []):
        turn = whole(item, 1, most) if digits(item) else None
        if turn is None:
            raise UsageError(f"--flown {shortened(item, 40)!r}: {allowed}")
        turns.append(turn)
    return turns


def _items(values: list[str] | None) -> list[str]:
    """A comma list, or several: "12,6h" "4" → ["12", "6h", "4"]."""
    return [item.strip() for value in values or [] for item in value.split(",")
            if item.strip()]


def _odds(args: argparse.Namespace, tables: CobraTables) -> Odds:
    """The odds column of the attack the options describe, or of carpet bombing."""
    from cobi_companion.rules.cobra import combat as cobra_combat
    from cobi_companion.rules.cobra.tables import Weather

    shifts = [cobra_combat.parse_shift(text, tables) for text in _items(args.shift)]
    if args.beach_marker:
        from cobi_companion.rules.cobra.landing import marker_shift

        shifts.append(marker_shift(args.beach_marker))
    weather_now = Weather(args.weather) if args.weather else None
    attacker = cobra_combat.Nation(args.attacker) if args.attacker else None
    if args.carpet:
        if args.overrun:
            raise UsageError("--overrun: carpet bombing is an air mission, not an overrun "
                             "(14.3): leave out --carpet or --overrun")
        if args.naval_range is not None:
            raise UsageError("--naval-range: carpet bombing is never shifted (14.3g): leave "
                             "out --naval-range")
        return _carpet(args, shifts, weather_now, attacker)
    for option, given, why in _carpet_only(args):
        if given:
            raise UsageError(f"{option}: {why}")
    missing = [name for name, given in (("--attack", args.attack),
                                        ("--defence", args.defence)) if not _items(given)]
    if missing:
        raise UsageError(f"cobra {args.cobra_command} needs {' and '.join(missing)} UNITS, "
                         f"like --attack 12,6h --defence 4 (or --carpet for carpet bombing)")
    attack = [cobra_combat.Unit.parse(text) for text in _items(args.attack)]
    defence = [cobra_combat.Unit.parse(text) for text in _items(args.defence)]
    naval_range = _naval_range(args, shifts)
    if args.overrun:
        from cobi_companion.rules.cobra.overrun import overrun_odds

        return overrun_odds(attack, defence, shifts, when=cobra_combat.OverrunWhen(args.overrun),
                            attacker=attacker, turn=args.turn, weather=weather_now,
                            naval_range=naval_range)
    return cobra_combat.odds(attack, defence, shifts, attacker=attacker, turn=args.turn,
                             weather=weather_now, naval_range=naval_range)


def _naval_range(args: argparse.Namespace, shifts: list[Shift]) -> NavalRange:
    """--naval-range: the target's range from the sea, asked only with a naval shift (14.4c,
    14.4d); near (within three hexes) where not given."""
    from cobi_companion.rules.cobra.combat import ShiftKind
    from cobi_companion.rules.cobra.naval import NavalRange

    if args.naval_range is None:
        return NavalRange.NEAR
    if not any(s.kind is ShiftKind.NAVAL for s in shifts):
        raise UsageError("--naval-range: the range prices a naval shift (14.4c, 14.4d): give "
                         "--shift naval:+1, or leave out --naval-range")
    return NavalRange(args.naval_range)


def _carpet_only(args: argparse.Namespace) -> tuple[tuple[str, bool, str], ...]:
    """The options that mean something only with --carpet: each, whether it was given, and
    why it is refused without --carpet."""
    return (
        ("--flown", args.flown is not None,
         "the carpet bombing missions flown count only with --carpet (14.3f)"),
        ("--after-attack", args.after_attack,
         "only a carpet bombing must come before the Combat Phase's other attacks (14.3): "
         "leave it out, or give --carpet"),
        ("--planned", args.planned,
         "only carpet bombing is planned a game turn ahead (14.3a): leave it out, or give "
         "--carpet"),
        ("--scenario", args.scenario is not None,
         "only with --carpet, whose plan needs a game turn of the scenario before it (14.3a)"))


def _carpet(args: argparse.Namespace, shifts: list[Shift],
            weather_now: Weather | None, attacker: Nation | None) -> Odds:
    """Carpet bombing: no units' strengths, always 6:1 (14.3g), an Allied air mission."""
    from cobi_companion.rules.cobra import combat as cobra_combat

    for name, given in (("--attack", args.attack), ("--defence", args.defence)):
        if given:
            raise UsageError(f"{name}: carpet bombing has no units' strengths, it is "
                             f"always the 6:1 column (14.3g): leave out {name}")
    if args.scenario is not None:       # its first game turn has no turn before it (14.3a)
        from cobi_companion.rules.cobra.turns import check_carpet_turn

        if args.turn is None:
            raise UsageError("--scenario needs --turn: the carpet bombing's game turn of it")
        check_carpet_turn(args.scenario, args.turn)
    result = cobra_combat.carpet_odds(shifts, turn=args.turn, weather=weather_now,
                                      flown=_flown(args), planned=args.planned,
                                      after_attacks=args.after_attack)
    if attacker is not None and attacker != result.attacker:
        raise UsageError(f"--attacker {attacker.value}: carpet bombing is an Allied "
                         f"air mission (14.3)")
    return result


def _flown(args: argparse.Namespace) -> list[int]:
    """--flown TURNS: the game turns of the carpet bombing missions flown before this one,
    each before the game turn of this one (--turn, which they are counted against)."""
    from cobi_companion.rules.cobra.combat import LAST_TURN

    if args.flown is None:
        return []
    if args.turn is None:
        raise UsageError("--flown needs --turn: the missions are counted by game turn (14.3f)")
    return _game_turns(args.flown, args.turn - 1, f"each a game turn before --turn {args.turn} "
                       f"(1 to {min(args.turn - 1, LAST_TURN)})")


# ---- the options: added to the command's parser when it is first used ----

def odds_options(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.combat import (
        MARKER_MOST,
        UNIT_MODIFIERS,
        Nation,
        OverrunWhen,
        ShiftKind,
    )
    from cobi_companion.rules.cobra.tables import Weather
    from cobi_companion.rules.cobra.turns import SCENARIOS

    letters = " ".join(modifier.letter for modifier in UNIT_MODIFIERS)
    units = (f"comma list of units: each the printed strength then its modifier letters "
             f"({letters}; see docs/cli.md)")
    parser.add_argument("--attack", action="append", metavar="UNITS",
                        help=f"the attacking units, {units}, like 12,6h")
    parser.add_argument("--defence", action="append", metavar="UNITS",
                        help=f"the defending units, {units}, like 4,3x")
    parser.add_argument("--shift", action="append", metavar="SHIFTS",
                        help=f"comma list (or repeat) of KIND:COLUMNS, KIND one of "
                             f"{', '.join(kind.value for kind in ShiftKind)} (like "
                             f"terrain:-1,hq:+1; + for the attacker, - for the defender), or "
                             f"a terrain named in the Cobra tables file (like town)")
    parser.add_argument("--attacker", choices=[nation.value for nation in Nation],
                        help="the attacking side (else told by the shifts, where they do)")
    parser.add_argument("--turn", type=game_turn(), metavar="N",
                        help="the game turn (two HQ shifts from game turn 17)")
    parser.add_argument("--weather", choices=[weather.value for weather in Weather],
                        help="this game turn's weather (no air points in storms)")
    parser.add_argument("--naval-range", choices=["near", "far"],
                        help="with a naval shift: the target hex within three hexes of an all "
                             "sea hex (near, the default: one NSP a column, 14.4c) or four to "
                             "six (far: two NSP a column, +1 at most, 14.4b, 14.4d)")
    parser.add_argument("--carpet", action="store_true",
                        help="carpet bombing, an air mission of 3 AP: always 6:1, never "
                             "shifted (14.3g)")
    parser.add_argument("--flown", metavar="TURNS",
                        help="with --carpet and --turn: comma list of the game turns of the "
                             "carpet bombing missions flown before (one during GT 5-14, two "
                             "more from GT 15, 14.3f)")
    parser.add_argument("--planned", action="store_true",
                        help="with --carpet: its target hex was written down in the Allied "
                             "Combat Phase of the game turn before (14.3a, 14.3d); carpet "
                             "bombing not planned is refused")
    parser.add_argument("--after-attack", action="store_true",
                        help="with --carpet: an Allied attack was made this Combat Phase "
                             "already; carpet bombing comes before any other attack, so it is "
                             "refused (14.3, 14.3d)")
    parser.add_argument("--scenario", choices=list(SCENARIOS),
                        help="with --carpet and --turn: the scenario played; its first game "
                             "turn has no turn before it to plan carpet bombing in (14.3a)")
    parser.add_argument("--beach-marker", type=Whole(1, MARKER_MOST, "beach marker columns"),
                        metavar="N",
                        help="an Allied attack from a hex with a beach shift marker of N "
                             "(the steps lost there in the landing): N columns left (17.3.2 "
                             "step 5f); the same as --shift marker:-N")
    parser.add_argument("--overrun", nargs="?", const=OverrunWhen.MOVEMENT.value,
                        choices=[when.value for when in OverrunWhen], metavar="WHEN",
                        help="an overrun (5.4) at printed strength: in the Initial Movement "
                             "Phase (movement, the default: terrain, HQ, Patton, naval and "
                             "Tiger shifts, 5.4.1c) or when advancing after combat (advance: "
                             "terrain and Tiger only, 5.4.1d); never air (14.2c)")
    add_tables(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def roll_options(parser: argparse.ArgumentParser) -> None:
    odds_options(parser)
    parser.add_argument("--dice", metavar="FACES", type=DICE, help=DIE)


def weather_options(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.tables import Weather

    parser.add_argument("--turn", type=game_turn(), required=True, metavar="N",
                        help="the game turn")
    parser.add_argument("--history", metavar="LIST",
                        help=f"the weather of the turns before, oldest first, comma list of "
                             f"{', '.join(weather.value for weather in Weather)} (the last is "
                             f"the turn before)")
    parser.add_argument("--dice", metavar="FACES", type=DICE, help=DIE)
    add_tables(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def crt_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["check"])
    parser.add_argument("file", metavar="FILE", type=TextFile("a Cobra tables file"),
                        help="a Cobra tables file, like cobra/tables.toml")


def victory_options(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.turns import SCENARIOS

    answer = ["yes", "no"]
    parser.add_argument("--scenario", choices=list(SCENARIOS), required=True,
                        help="the scenario played: it sets the question for the initial level")
    parser.add_argument("--frontline", choices=answer,
                        help="Cobra, Alternate Cobra, the campaign: can the Germans trace a "
                             "frontline of units or ZOC from 4901 to 0823 on map A (16.3.1, "
                             "16.3.2)")
    parser.add_argument("--objectives", choices=answer,
                        help="the Battle of the Build-Up: are Bayeux, Isigny and Carentan all "
                             "Allied controlled and Cherbourg not connected by primary road "
                             "to a south or east map edge (17.4.2)")
    # The German player loses VP (15.2b, 18.0): his total may be below zero; the Allied never.
    parser.add_argument("--german-vp", type=Whole(-999, 999, "German VP"), default=0,
                        metavar="N", help="the German VP total, below zero after losses")
    parser.add_argument("--allied-vp", type=Whole(0, 999, "Allied VP"), default=0,
                        metavar="N", help="the Allied VP total")
    parser.add_argument("--beaches-lost", action="store_true",
                        help="the Build-Up and the campaign: no beach hex was friendly to the "
                             "Allies at the beginning of an Allied player turn: an automatic "
                             "decisive German victory (17.3.13, 17.4.3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def points_options(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.combat import Nation
    from cobi_companion.rules.cobra.tables import Weather

    parser.add_argument("--turn", type=game_turn(), required=True, metavar="N",
                        help="the game turn")
    parser.add_argument("--weather", choices=[weather.value for weather in Weather],
                        help="this game turn's weather (none known: no air points)")
    parser.add_argument("--phase", choices=[nation.value for nation in Nation],
                        default=Nation.ALLIED.value,
                        help="whose Combat Phase: german (the Allied air on defence, at most "
                             "half, 14.1a) or allied (the default)")
    parser.add_argument("--air-used", type=Whole(0, 6, "air points"), default=0, metavar="N",
                        help="the air points spent this game turn so far")
    parser.add_argument("--naval-used", type=Whole(0, 6, "naval support points"), default=0,
                        metavar="N", help="the naval support points spent this game turn")
    parser.add_argument("--flown", metavar="TURNS",
                        help="comma list of the game turns of the carpet bombing missions "
                             "flown so far, this one included (14.3f)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
