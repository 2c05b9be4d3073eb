"""The `cobi-companion` command line: a stable scripting interface to the rules engine."""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from cobi_companion.device.ports.errors import ConfigError, ScriptError

# Only light modules here: `sim` and `run` draw the box's title before the rules, the cards,
# the config (pydantic) and gpiozero are imported; each command imports what it needs.
from cobi_companion.rules.dice import (
    Dice,
    DiceError,
    ManualDice,
    RandomDice,
    ScriptedDice,
    parse_faces,
)
from cobi_companion.rules.errors import RulesError

if TYPE_CHECKING:
    from cobi_companion.cards import CardBook
    from cobi_companion.device.config import Config
    from cobi_companion.rules.battle import Piece
    from cobi_companion.rules.card import InfoCard
    from cobi_companion.rules.cobra_combat import Odds as CobraOdds
    from cobi_companion.rules.cobra_tables import CobraTables
    from cobi_companion.rules.overrun import Under
    from cobi_companion.rules.shot import ShotPlan
    from cobi_companion.rules.soft_fire import Covered, SoftPlan
    from cobi_companion.rules.status import Status

# The choices of --rules, --facing and --in: rules.levels.RULE_SETS, rules.card.Facing and
# rules.soft_table.SITUATIONS, written out so that building the parser imports none of them
# (tests/device/test_cli.py and test_cli_soft.py keep them equal).
RULES = ("easy", "tank")
FACINGS = ("front", "side", "rear", "top")
SITUATIONS = ("soft_vehicle", "soft_cover", "hard_cover")
# The choices of cobra's --attacker and --weather: rules.cobra_combat.Nation and
# rules.cobra_tables.Weather (tests/device/test_cli_cobra.py keeps them equal).
COBRA_SIDES = ("german", "allied")
COBRA_WEATHER = ("clear", "overcast", "storm")
COBRA_LETTERS = "dsmbruxhq"     # rules.cobra_combat.UNIT_MODIFIERS, for --attack's help
CREW = "crew"       # --under ...:N/crew: the template covers only the crew, not the model
UNDER_FORM = "CARD[:FIGURES][@SITUATION[+SITUATION]][/FACING or /crew]"
_UNDER = re.compile(r"^(?P<card>[^:@/]*)(?::(?P<figures>[^@/]*))?(?:@(?P<situations>[^/]*))?"
                    r"(?:/(?P<facing>.*))?$")
# overrun --under: rules.overrun.Cover, and the marks of a piece under the tank (hidden is a
# status mark, dug_in the Under's own; tests/device/test_cli_overrun.py keeps the covers equal).
COVERS = ("open", "soft", "hard")
OVERRUN_MARKS = ("hidden", "dug_in")
OVERRUN_FORM = "CARD[:FIGURES][@COVER][+MARK[+MARK]]"
_OVERRUN_UNDER = re.compile(r"^(?P<card>[^:@+]*)(?::(?P<figures>[^@+]*))?(?:@(?P<cover>[^+]*))?"
                            r"(?P<marks>(?:\+[^+]*)*)$")
# --tank-status: the marks that matter to a tank's move, and the others a tank may carry
TANK_STATUS = ("unloaded", "weakened", "gun_destroyed", "immobilized", "destroyed",
               "commander_killed", "off_map")


class UsageError(Exception):
    """A command line the companion cannot act on: one line, exit 2."""


class OneLineParser(argparse.ArgumentParser):
    """A parser whose bad arguments are one line on stderr (exit 2), like the refusals."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


def _status(text: str | None, allowed: tuple[str, ...], what: str) -> Status:
    from cobi_companion.rules.status import Status

    words = [w.strip() for w in (text or "").split(",") if w.strip()]
    bad = [w for w in words if w not in allowed]
    if bad:
        raise UsageError(f"{what}: {bad[0]!r} is not allowed; allowed: {', '.join(allowed)}")
    return Status.from_words(words)


def ask_face(purpose: str) -> int:
    """Manual dice: ask the player for the face of a real die."""
    while True:
        print(f"Roll a real die for {purpose} and type the face (1-6): ", end="",
              file=sys.stderr, flush=True)
        line = sys.stdin.readline()
        if not line:
            raise DiceError(f"no face given for {purpose}")
        try:
            faces = parse_faces(line)
        except DiceError as exc:
            print(exc, file=sys.stderr)
            continue
        if len(faces) == 1:
            return faces[0]
        print("type one face, a number from 1 to 6", file=sys.stderr)


def make_dice(text: str | None) -> Dice:
    if text is None:
        return RandomDice()
    if text.strip().lower() == "ask":
        return ManualDice(ask_face)
    return ScriptedDice(parse_faces(text))


def _folders(args: argparse.Namespace) -> list[Path]:
    from cobi_companion.cards import default_folders

    return default_folders(Path(args.cards) if args.cards is not None else None)


def _cards(args: argparse.Namespace) -> CardBook:
    """The cards in play; problems in card files are warnings (the other cards still load)."""
    from cobi_companion.cards import load_cards

    book = load_cards(_folders(args))
    for problem in book.problems:
        print(f"warning: {problem}", file=sys.stderr)
    return book


def _plan(args: argparse.Namespace, book: CardBook) -> ShotPlan:
    from cobi_companion.rules.card import Facing
    from cobi_companion.rules.shot import ShotPlan

    return ShotPlan(
        attacker=book.get(args.attacker),
        target=book.get(args.target),
        facing=Facing(args.facing),
        hull_down=args.hull_down,
        range_cm=args.range_cm,
        crew_below_half=args.crew_below_half,
        attacker_status=_status(args.attacker_status, ("unloaded", "gun_destroyed"),
                                "--attacker-status"),
        target_status=_status(args.target_status, ("weakened", "gun_destroyed", "immobilized"),
                              "--target-status"),
    )


def _check_options(args: argparse.Namespace) -> None:
    """Which options go together: fire at a hard target, or soft-target fire (--weapon)."""
    soft_only = (("--under", bool(args.under)), ("--in", args.situations is not None),
                 ("--cover", args.cover), ("--crew", args.crew),
                 ("--attacker-figures", args.attacker_figures is not None))
    if args.weapon is None:
        for name, given in soft_only:
            if given:
                raise UsageError(f"{name} is for soft-target and template fire: add --weapon "
                                 f"NAME (a weapon on the attacker's card) or --weapon he")
        missing = [name for name, value in (("--target", args.target),
                                            ("--facing", args.facing)) if value is None]
        if missing:
            raise UsageError(f"{args.command} needs {' and '.join(missing)} (or --weapon NAME "
                             f"for soft-target fire)")
        return
    if args.rules != "tank":
        raise UsageError("--weapon: fire at soft targets and templates is a Tank Game rule: "
                         "use --rules tank")
    if args.hull_down:
        raise UsageError("--hull-down is for fire at hard targets; with --weapon say --cover "
                         "(HE: the target is in any cover) and the target's --in SITUATION")
    if args.crew_below_half:
        raise UsageError("--crew-below-half is for fire at hard targets; with --weapon give "
                         "--attacker-figures N, the crew left")
    if args.weapon.strip().lower() == "ap":
        raise UsageError("--weapon ap: AP is the main gun's shot at hard targets: leave out "
                         "--weapon (and AP is not effective against guns)")
    if (args.target is None) == (not args.under):
        raise UsageError("--weapon fires at one --target CARD, or at every piece given with "
                         "--under SPEC: give one of the two")
    if args.under:
        for name, given in (("--in", args.situations is not None), ("--crew", args.crew),
                            ("--facing", args.facing is not None),
                            ("--target-status", args.target_status is not None)):
            if given:
                raise UsageError(f"{name} goes with --target; under a template each piece "
                                 f"says it in its --under {UNDER_FORM}")
    if args.cover and args.weapon.strip().lower() != "he":
        raise UsageError("--cover is HE's -1 to hit (the target is in any cover): it needs "
                         "--weapon he; the attacks' own cover is --in or @SITUATION")
    if args.attacker_figures is not None and args.attacker_figures < 0:
        raise UsageError(f"--attacker-figures: {args.attacker_figures} is not allowed; "
                         f"allowed: a whole number of figures, 0 or more")


def _situations(text: str, what: str) -> tuple[str, ...]:
    words = tuple(w.strip() for w in re.split(r"[,+]", text) if w.strip())
    bad = [w for w in words if w not in SITUATIONS] or ([] if words else [text])
    if bad:
        raise UsageError(f"{what}: {bad[0]!r} is not allowed; allowed: {', '.join(SITUATIONS)}")
    return words


def _spec(spec: str, form: re.Pattern[str], write: str,
          under: str) -> tuple[re.Match[str], int | None]:
    """An --under SPEC's parts, and its FIGURES (None when not given); a missing CARD or bad
    FIGURES is refused."""
    what = f"--under {spec!r}"
    match = form.match(spec.strip())
    if match is None or not match["card"].strip():
        raise UsageError(f"{what}: the CARD part is missing; write {write}")
    if match["figures"] is None:
        return match, None
    text = match["figures"].strip()
    if not text.isdigit() or int(text) < 1:
        raise UsageError(f"{what}: FIGURES {text!r} is not allowed; allowed: a whole number of "
                         f"figures under {under}, 1 or more, like :3")
    return match, int(text)


def _under(spec: str, book: CardBook, label: Callable[[InfoCard], str]) -> Covered:
    """One --under SPEC: a piece the template covers, its figures, situations and facing."""
    from cobi_companion.rules.card import Facing, Kind
    from cobi_companion.rules.soft_fire import Covered

    what = f"--under {spec!r}"
    match, figures = _spec(spec, _UNDER, f"{UNDER_FORM}, like bofors-37mm:3@soft_cover",
                           "the template")
    card = book.get(match["card"])
    situations = () if match["situations"] is None else \
        _situations(match["situations"], f"{what}: SITUATION")
    facing, model = Facing.FRONT, True
    if match["facing"] is not None:
        text = match["facing"].strip().lower()
        if text not in (*FACINGS, CREW):
            raise UsageError(f"{what}: FACING {text!r} is not allowed; allowed: "
                             f"{', '.join(FACINGS)}, or {CREW} (only the crew is covered)")
        if text == CREW:
            model = False
        else:
            facing = Facing(text)
    if card.kind is Kind.FIGURE:
        if not model:
            raise UsageError(f"{what}: /{CREW} is for a gun's or a vehicle's crew; "
                             f"{card.title} is a figure")
        figures = figures or 1
    elif not model and figures is None:
        raise UsageError(f"{what}: /{CREW} needs the number of crew figures covered, like "
                         f"{card.key}:2/{CREW}")
    status = None
    if card.kind is Kind.HARD and figures:     # a closed vehicle's figure: its commander out
        from cobi_companion.rules.status import Status
        status = Status(commander_out=True)
    return Covered(_target_piece(card, figures or 0, label, status), figures or 0, situations,
                   facing, model)


def _target_piece(card: InfoCard, figures: int, label: Callable[[InfoCard], str],
                  status: Status | None = None) -> Piece:
    """A squad of the figures attacked, or a gun or vehicle with its card's crew."""
    from cobi_companion.rules.battle import Piece
    from cobi_companion.rules.card import Kind
    from cobi_companion.rules.status import Side, Status

    crew = figures if card.kind is Kind.FIGURE or card.crew is None else card.crew
    return Piece(label(card), Side.ALLIES, card, status or Status(), crew if crew else None)


def _labeller() -> Callable[[InfoCard], str]:
    """Labels pieces as the box does: "Bofors 1", then "Bofors 2" for the next of that card."""
    taken: dict[str, int] = {}

    def label(card: InfoCard) -> str:
        taken[card.short] = taken.get(card.short, 0) + 1
        return f"{card.short} {taken[card.short]}"
    return label


def _soft_plan(args: argparse.Namespace, book: CardBook) -> SoftPlan:
    from cobi_companion.rules.battle import Piece
    from cobi_companion.rules.card import Facing, Kind
    from cobi_companion.rules.soft_fire import HE, Covered, SoftPlan, he_weapon
    from cobi_companion.rules.status import Side

    label = _labeller()

    card = book.get(args.attacker)
    figures = args.attacker_figures
    if figures is None:
        figures = card.crew if card.crew is not None else \
            1 if card.kind in (Kind.FIGURE, Kind.GUN, Kind.OPEN_TOP) else None
    firer = Piece(label(card), Side.AXIS, card,
                  _status(args.attacker_status, ("unloaded", "gun_destroyed"),
                          "--attacker-status"), figures)
    weapon = he_weapon(card) if args.weapon.strip().lower() == HE else card.weapon(args.weapon)
    if weapon.template is None and args.range_cm is None:
        raise UsageError(f"a {weapon.name} shot needs --range-cm N, for its band of the Soft "
                         f"Targets Table")
    if args.target is not None:
        target = book.get(args.target)
        if args.crew and target.kind is Kind.FIGURE:
            raise UsageError(f"--crew is for a gun's or a vehicle's crew; {target.title} is "
                             f"a figure")
        count = 1 if args.crew or target.kind is Kind.FIGURE else 0
        status = _status(args.target_status, ("weakened", "gun_destroyed", "immobilized",
                                               "commander_out"), "--target-status")
        situations = () if args.situations is None else _situations(args.situations, "--in")
        targets: tuple[Covered, ...] = (Covered(
            _target_piece(target, count, label, status), count, situations,
            Facing(args.facing or "front"), model=not args.crew),)
    else:
        targets = tuple(_under(spec, book, label) for spec in args.under)
    return SoftPlan(firer, weapon, targets, book.table, range_cm=args.range_cm,
                    cover=args.cover)


# ---- Tank Game overrun (rule 9): a tank moving over figures and guns ----


def _overrun_under(spec: str, book: CardBook, label: Callable[[InfoCard], str]) -> Under:
    """One overrun --under SPEC: a piece under the tank, its figures, cover and marks."""
    from cobi_companion.rules.card import Kind
    from cobi_companion.rules.overrun import Cover, Under
    from cobi_companion.rules.status import Status

    what = f"--under {spec!r}"
    match, figures = _spec(spec, _OVERRUN_UNDER,
                           f"{OVERRUN_FORM}, like rifleman:3@soft or mg-gunner:2+dug_in",
                           "the tank")
    cover = Cover.OPEN
    if match["cover"] is not None:
        text = match["cover"].strip().lower()
        if text not in COVERS:
            raise UsageError(f"{what}: COVER {text!r} is not allowed; allowed: "
                             f"{', '.join(COVERS)}")
        cover = Cover(text)
    marks = [m.strip().lower() for m in match["marks"].split("+")[1:]]
    bad = [m for m in marks if m not in OVERRUN_MARKS]
    if bad:
        raise UsageError(f"{what}: MARK {bad[0]!r} is not allowed; allowed: "
                         f"{', '.join(OVERRUN_MARKS)}")
    card = book.get(match["card"])
    if card.kind is Kind.FIGURE:
        figures = figures or 1       # a squad of as many figures as are under the tank
    status = Status(hidden="hidden" in marks)
    piece = _target_piece(card, figures or 0, label, status)
    return Under(piece, figures, cover, dug_in="dug_in" in marks)


def cmd_overrun(args: argparse.Namespace) -> int:
    from cobi_companion.device.ui import explain
    from cobi_companion.rules.battle import Piece
    from cobi_companion.rules.overrun import overrun
    from cobi_companion.rules.status import Side

    book = _cards(args)
    label = _labeller()

    card = book.get(args.tank)
    tank = Piece(label(card), Side.AXIS, card, _status(args.tank_status, TANK_STATUS,
                                                       "--tank-status"), card.crew)
    under = tuple(_overrun_under(spec, book, label) for spec in args.under)
    dice = make_dice(args.dice)
    result = overrun(tank, under, dice)
    _print(args, {"level": "tank", "action": "overrun", **result.to_dict()},
           explain.overrun_text(result, tank, under))
    _note_unused(dice)
    return 0


def _print(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False) if args.json else text)


def cmd_resolve(args: argparse.Namespace) -> int:
    from cobi_companion.device.ui import explain
    from cobi_companion.rules.levels import rule_set

    _check_options(args)
    book = _cards(args)
    dice = make_dice(args.dice)
    if args.weapon is not None:
        from cobi_companion.rules import soft_fire

        soft = _soft_plan(args, book)
        fired = soft_fire.fire(soft, dice)
        _print(args, fired.to_dict(), explain.soft_fire(fired, soft))
    else:
        plan = _plan(args, book)
        shot = rule_set(args.rules).fire(plan, dice)
        _print(args, shot.to_dict(), explain.shot(shot))
    _note_unused(dice)
    return 0


def _note_unused(dice: Dice) -> None:
    if isinstance(dice, ScriptedDice) and dice.left:
        print(f"note: {len(dice.left)} scripted dice not used: "
              f"{','.join(map(str, dice.left))}", file=sys.stderr)


def cmd_odds(args: argparse.Namespace) -> int:
    from cobi_companion.device.ui import explain
    from cobi_companion.rules.levels import rule_set

    _check_options(args)
    book = _cards(args)
    if args.weapon is not None:
        from cobi_companion.rules import soft_odds

        soft = _soft_plan(args, book)
        chances = soft_odds.odds(soft)
        _print(args, chances.to_dict(), explain.soft_odds(chances, soft))
        return 0
    plan = _plan(args, book)
    result = rule_set(args.rules).odds(plan)
    _print(args, result.to_dict(),
           explain.odds(result, args.rules, plan.attacker, plan.target, args.facing))
    return 0


def cmd_move(args: argparse.Namespace) -> int:
    from cobi_companion.device.ui import explain
    from cobi_companion.rules.movement import allowance

    card = _cards(args).get(args.card)
    status = _status(args.status, ("immobilized", "destroyed"), "--status")
    result = allowance(card, reverse=args.reverse, turns=args.turns, rough=args.rough,
                       road=args.road, moved=args.moved, status=status)
    _print(args, result.to_dict(), explain.allowance(result))
    return 0


def cmd_reload(args: argparse.Namespace) -> int:
    from cobi_companion.device.ui import explain
    from cobi_companion.rules import tank_game

    card = _cards(args).get(args.card)
    status = _status(args.status or "unloaded", ("unloaded", "gun_destroyed"), "--status")
    result = tank_game.reload_action(card, status, make_dice(args.dice), args.crew_below_half)
    _print(args, result.to_dict(), explain.reload(result))
    return 0


def cmd_initiative(args: argparse.Namespace) -> int:
    from cobi_companion.rules import easy

    result = easy.initiative(make_dice(args.dice))
    rolls = ", ".join(f"Axis {a} – Allies {b}" for a, b in result.rolls)
    _print(args, {"rolls": [list(r) for r in result.rolls], "winner": result.winner.value},
           f"Initiative: {rolls} → {result.winner.value.upper()} has the initiative")
    return 0


def cmd_cards(args: argparse.Namespace) -> int:
    from cobi_companion.device.ui import explain

    if args.action == "check":
        return _cards_check(args)
    book = _cards(args)
    if args.action == "show":
        if not args.set:
            raise UsageError("cards show needs a set number, like: cards show 2477")
        card = book.get(args.set)
        _print(args, {**card.model_dump(mode="json", exclude_unset=True),
                      "source": card.source}, explain.card(card))
        return 0
    rows = [f"{'card':<18} {'kind':<8} {'name':<22} {'to hit':<6} {'reload':<6} {'damage':<6} "
            f"{'armour f/s/r/t':<12} destroy"]
    rows += [explain.card_row(c) for c in book.sorted()]
    _print(args, {"cards": [{"set": c.set_number, "name": c.name, "source": c.source}
                            for c in book.sorted()]}, "\n".join(rows))
    return 0


def _cards_check(args: argparse.Namespace) -> int:
    from cobi_companion.cards import check, is_table, load_cards

    if args.set:
        loaded, problems = check(Path(args.set))
    else:
        book = load_cards(_folders(args))
        loaded, problems = book.sorted(), book.problems
    for problem in problems:
        print(problem)
    count = len(problems)
    plural = "s" if count != 1 else ""
    if args.set and is_table(Path(args.set)):
        print(f"Soft Targets Table {'ok' if not problems else f'{count} problem{plural}'}")
    else:
        print(f"{len(loaded)} card{'s' if len(loaded) != 1 else ''} ok, {count} problem{plural}")
    return 1 if problems else 0


def _config(args: argparse.Namespace) -> Config:
    from cobi_companion.device.config import load_config

    return load_config(Path(args.config) if args.config else None)


def cmd_sim(args: argparse.Namespace) -> int:
    from cobi_companion.device.sim import parse_script, run_sim

    if args.script:
        script: list[tuple[str, int]] | None = parse_script(Path(args.script).read_text())
    elif args.keys is not None:
        script = parse_script(args.keys)
    elif not sys.stdin.isatty():
        script = parse_script(sys.stdin.read())
    else:
        script = None
    dice = ScriptedDice(parse_faces(args.dice)) if args.dice else None
    display = None
    if script is None:   # a person at the terminal: the title now, the start menu when ready
        from cobi_companion.device.boot import terminal_title

        display = terminal_title()
    from cobi_companion.device.config import load_layers

    # A --config file given here must be right (exit 2 with its problem); the settings files
    # of the boot partition and the stick are shown on the screen, as on the box.
    path = Path(args.config) if args.config else None
    loaded = load_layers(path)
    for error in loaded.skipped:
        if path is not None and error.path == path:
            raise error
    return run_sim(loaded.config, script=script, dice=dice, display=display, loaded=loaded,
                   load=lambda: load_layers(path),
                   state_dir=Path(args.state_dir) if args.state_dir else None,
                   snapshot_dir=Path(args.snapshot_dir) if args.snapshot_dir else None,
                   state_json=Path(args.state_json) if args.state_json else None)


def _sensor(args: argparse.Namespace) -> Any:
    """The sensor to use: a [[sensors]] table of the config, or one made of --model and
    --port with the table's defaults."""
    from cobi_companion.device.config import Sensor
    from cobi_companion.device.ports.range_sensor import MODELS

    if args.sensor:
        sensors = _config(args).sensors
        chosen = [sensor for sensor in sensors if sensor.name == args.sensor]
        if not chosen:
            names = ", ".join(sensor.name for sensor in sensors) or "none"
            raise UsageError(f"no sensor called {args.sensor!r} in the config; configured: "
                             f"{names}")
        return chosen[0]
    if not (args.model and args.port):
        raise UsageError("range needs --sensor NAME, or --model MODEL and --port PORT")
    if args.model not in MODELS:
        raise UsageError(f"--model: {args.model!r} is not a sensor model; allowed: "
                         f"{', '.join(MODELS)}")
    return Sensor(name=args.model, port=args.port, model=args.model, baud=args.baud)


def cmd_range(args: argparse.Namespace) -> int:
    import queue

    from cobi_companion.device.ports.range_reader import Sample, reader_for

    sensor = _sensor(args)
    events: queue.Queue[Any] = queue.Queue()
    reader = reader_for(sensor, events.put)
    reader.open_now()   # a port the box holds ends here (SensorBusy: exit 2, one line)
    samples = args.samples or sensor.samples
    sample = Sample(samples, sensor.offset_cm)
    reader.want(10**9 if args.raw else samples)
    reader.start()
    try:
        return _raw(events, samples if args.samples else None) if args.raw else \
            _measure(args, events, sample, args.timeout or max(3.0, samples * 0.5))
    finally:
        reader.close()


def _raw(events: Any, frames: int | None) -> int:
    """Print each parsed frame as it arrives: for checking the wiring (Ctrl-C ends)."""
    from cobi_companion.device.ports.events import SensorReading

    shown = 0
    while frames is None or shown < frames:
        event = events.get()
        if isinstance(event, SensorReading):
            r = event.reading
            cm = f"{r.cm:g} cm" if r.cm is not None else "-"
            more = (("strength", r.strength), ("temp_c", r.temperature_c))
            extra = "".join(f" {k}={v}" for k, v in more if v is not None)
            print(f"{r.frame.hex(' ') or '(none)':<30} {r.condition.value:<15} {cm}{extra}",
                  flush=True)
            shown += 1
    return 0


def _measure(args: argparse.Namespace, events: Any, sample: Any, timeout: float) -> int:
    import queue
    import time

    from cobi_companion.device.ports.events import SensorReading

    end = time.monotonic() + timeout
    while not sample.done and time.monotonic() < end:
        try:
            event = events.get(timeout=max(0.0, end - time.monotonic()))
        except queue.Empty:
            break
        if isinstance(event, SensorReading):
            sample.add(event.reading)
    result = sample.result()
    if result.cm is not None:
        text = (f"{result.cm:g} cm (median of {len(result.readings)} readings, spread "
                f"{result.spread_cm:g} cm)")
    else:
        seen = ", ".join(f"{n} {c.value}" for c, n in sample.bad.most_common()) or "nothing"
        text = f"no measurement: {result.condition.value} (seen: {seen})"
    _print(args, result.to_dict(), text)
    return 0 if result.cm is not None else 1


def cmd_run(args: argparse.Namespace) -> int:
    """The box as systemd starts it: it stays up whatever is wrong, and says so on the panel."""
    from cobi_companion.device.hardware import run_box

    return run_box(Path(args.config) if args.config else None)


def on_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text().lower()
    except OSError:
        return False


def cmd_play(args: argparse.Namespace) -> int:
    from cobi_companion.device.session import Session

    return Session(_cards(args), make_dice(args.dice), args.rules).run()


# ---- Cobra (Normandy 1944): odds, a combat, the weather, the owner's tables ----


def _cobra_tables(args: argparse.Namespace) -> CobraTables:
    """--tables FILE (a broken one is refused), else the card folders' cobra/tables.toml
    (a broken one is a warning and the shipped template is used)."""
    from cobi_companion.cards import CardFileError, cobra_tables, load_cobra_tables

    if args.tables is not None:
        try:
            return load_cobra_tables(Path(args.tables))
        except CardFileError as exc:    # every problem on its own line, each like the others
            raise UsageError("\ncobi-companion: ".join(str(p) for p in exc.problems)) from None
    tables, problems = cobra_tables(_folders(args))
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    return tables


def _items(values: list[str] | None) -> list[str]:
    """A comma list, or several: "12,6h" "4" → ["12", "6h", "4"]."""
    return [item.strip() for value in values or [] for item in value.split(",")
            if item.strip()]


def _cobra_odds(args: argparse.Namespace, tables: CobraTables) -> CobraOdds:
    from cobi_companion.rules import cobra_combat
    from cobi_companion.rules.cobra_tables import Weather

    shifts = [cobra_combat.parse_shift(text, tables) for text in _items(args.shift)]
    weather = Weather(args.weather) if args.weather else None
    attacker = cobra_combat.Nation(args.attacker) if args.attacker else None
    if args.carpet:
        for name, given in (("--attack", args.attack), ("--defence", args.defence)):
            if given:
                raise UsageError(f"{name}: carpet bombing has no units' strengths, it is "
                                 f"always the 6:1 column (14.3g): leave out {name}")
        result = cobra_combat.carpet_odds(shifts, turn=args.turn, weather=weather)
        if attacker is not None and attacker != result.attacker:
            raise UsageError(f"--attacker {attacker.value}: carpet bombing is an Allied "
                             f"air mission (14.3)")
        return result
    missing = [name for name, given in (("--attack", args.attack),
                                        ("--defence", args.defence)) if not _items(given)]
    if missing:
        raise UsageError(f"cobra {args.cobra_command} needs {' and '.join(missing)} UNITS, "
                         f"like --attack 12,6h --defence 4 (or --carpet for carpet bombing)")
    attack = [cobra_combat.Unit.parse(text) for text in _items(args.attack)]
    defence = [cobra_combat.Unit.parse(text) for text in _items(args.defence)]
    return cobra_combat.odds(attack, defence, shifts, attacker=attacker, turn=args.turn,
                             weather=weather)


def cmd_cobra(args: argparse.Namespace) -> int:
    raise UsageError("cobra needs a subcommand: odds, roll, weather or crt check (see "
                     "cobi-companion cobra --help)")


def cmd_cobra_odds(args: argparse.Namespace) -> int:
    from cobi_companion.device.ui import explain

    result = _cobra_odds(args, _cobra_tables(args))
    _print(args, result.to_dict(), explain.cobra_odds(result))
    return 0


def cmd_cobra_roll(args: argparse.Namespace) -> int:
    from cobi_companion.device.ui import explain
    from cobi_companion.rules import cobra_combat

    tables = _cobra_tables(args)
    planned = _cobra_odds(args, tables)
    dice = make_dice(args.dice)
    combat = cobra_combat.roll(planned, dice, tables)
    _print(args, combat.to_dict(), explain.cobra_combat_text(combat))
    _note_unused(dice)
    return 0


def cmd_cobra_weather(args: argparse.Namespace) -> int:
    from cobi_companion.device.ui import explain
    from cobi_companion.rules import cobra_weather

    tables = _cobra_tables(args)
    history = cobra_weather.parse_history(args.history or "")
    dice = make_dice(args.dice)
    result = cobra_weather.determine(args.turn, history, dice, tables)
    _print(args, result.to_dict(), explain.cobra_weather_text(result, tables.source))
    _note_unused(dice)
    return 0


def cmd_cobra_crt(args: argparse.Namespace) -> int:
    from cobi_companion.cards import CardFileError, load_cobra_tables
    from cobi_companion.device.ui import explain

    try:
        tables = load_cobra_tables(Path(args.file))
    except CardFileError as exc:
        for problem in exc.problems:
            print(problem)
        count = len(exc.problems)
        print(f"{args.file}: {count} problem{'s' if count != 1 else ''}")
        return 1
    print(explain.cobra_tables_summary(args.file, tables))
    return 0


def _cobra_odds_options(parser: argparse.ArgumentParser) -> None:
    units = (f"comma list of units: each the printed strength then its modifier letters "
             f"({' '.join(COBRA_LETTERS)}; see the README)")
    parser.add_argument("--attack", action="append", metavar="UNITS",
                        help=f"the attacking units, {units}, like 12,6h")
    parser.add_argument("--defence", action="append", metavar="UNITS",
                        help=f"the defending units, {units}, like 4,3x")
    parser.add_argument("--shift", action="append", metavar="SHIFTS",
                        help="comma list (or repeat) of KIND:COLUMNS, KIND one of terrain, "
                             "hq, patton, tiger, air, naval (like terrain:-1,hq:+1; + for "
                             "the attacker, - for the defender), or a terrain named in the "
                             "Cobra tables file (like town)")
    parser.add_argument("--attacker", choices=COBRA_SIDES,
                        help="the attacking side (else told by the shifts, where they do)")
    parser.add_argument("--turn", type=int, metavar="N",
                        help="the game turn (two HQ shifts from game turn 17)")
    parser.add_argument("--weather", choices=COBRA_WEATHER,
                        help="this game turn's weather (no air points in storms)")
    parser.add_argument("--carpet", action="store_true",
                        help="carpet bombing: always 6:1, never shifted (14.3g)")
    _tables_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _tables_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", metavar="FILE",
                        help="your Cobra tables file (default: cobra/tables.toml of the card "
                             "folders, else the shipped empty template)")


def _cobra_parser(sub: Any) -> None:
    p = sub.add_parser("cobra", help="Cobra (Normandy 1944): combat odds, a combat roll, the "
                                     "weather, checking your tables file")
    p.set_defaults(func=cmd_cobra)
    cobra = p.add_subparsers(dest="cobra_command", metavar="SUBCOMMAND",
                             parser_class=OneLineParser)

    q = cobra.add_parser("odds", help="the CRT column of an attack, every step explained")
    _cobra_odds_options(q)
    q.set_defaults(func=cmd_cobra_odds)

    q = cobra.add_parser("roll", help="resolve an attack: the odds, the die and the result")
    _cobra_odds_options(q)
    q.add_argument("--dice", metavar="FACES", help="the die's face (or 'ask' for a real die); "
                                                   "default: random")
    q.set_defaults(func=cmd_cobra_roll)

    q = cobra.add_parser("weather", help="the weather of a game turn (5.3)")
    q.add_argument("--turn", type=int, required=True, metavar="N", help="the game turn")
    q.add_argument("--history", metavar="LIST",
                   help="the weather of the turns before, oldest first, comma list of clear, "
                        "overcast, storm (the last is the turn before)")
    q.add_argument("--dice", metavar="FACES", help="the die's face (or 'ask' for a real die); "
                                                   "default: random")
    _tables_option(q)
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.set_defaults(func=cmd_cobra_weather)

    q = cobra.add_parser("crt", help="check your Cobra tables file (CRT, weather, terrain)")
    q.add_argument("action", choices=["check"])
    q.add_argument("file", metavar="FILE", help="a Cobra tables file, like cobra/tables.toml")
    q.set_defaults(func=cmd_cobra_crt)


def _shot_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", choices=RULES, required=True,
                        help="easy (COBI Easy level) or tank (Cobi WWII Tank Game)")
    parser.add_argument("--attacker", required=True, metavar="CARD",
                        help="firer's set number or card id")
    parser.add_argument("--target", metavar="CARD", help="target's set number or card id")
    parser.add_argument("--facing", choices=FACINGS,
                        help="which armour the shot hits (with --weapon: a vehicle's, "
                             "default front)")
    parser.add_argument("--range-cm", type=float, metavar="N",
                        help="measured range (Tank Game: over 100 cm is -1 to hit; with a "
                             "weapon without a template: its band of the Soft Targets Table)")
    parser.add_argument("--hull-down", action="store_true",
                        help="target hull down or in hard cover (Tank Game: -1 to hit)")
    parser.add_argument("--crew-below-half", action="store_true",
                        help="firer's crew below half (Tank Game: -1 to reload)")
    parser.add_argument("--target-status", metavar="LIST",
                        help="comma list of weakened, gun_destroyed, immobilized")
    parser.add_argument("--attacker-status", metavar="LIST",
                        help="comma list of unloaded, gun_destroyed")
    soft = parser.add_argument_group(
        "soft-target and template fire (Tank Game)",
        "fire a weapon of the attacker's card, or its main gun's HE, at figures, guns and "
        "vehicles by the Soft Targets Table")
    soft.add_argument("--weapon", metavar="NAME",
                      help="a weapon on the attacker's card, or he: its main gun firing HE")
    soft.add_argument("--attacker-figures", type=int, metavar="N",
                      help="figures of the firing squad, or crew left of a gun or vehicle "
                           "(default: the card's crew)")
    soft.add_argument("--in", dest="situations", metavar="SITUATIONS",
                      help="the --target's situations, comma list of soft_vehicle, "
                           "soft_cover, hard_cover")
    soft.add_argument("--crew", action="store_true",
                      help="fire at one of the --target's crew figures, not at the gun or "
                           "vehicle itself")
    soft.add_argument("--under", action="append", metavar="SPEC", default=[],
                      help=f"a piece under the template (repeat for each): {UNDER_FORM}, "
                           f"like bofors-37mm:3@soft_cover or 2477/side")
    soft.add_argument("--cover", action="store_true",
                      help="HE: the target is in any cover (-1 to hit)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cobi-companion",
        description="Dice, sums and bookkeeping for the COBI WWII wargames. "
                    "Without a command: an interactive session in the terminal.")
    parser.add_argument("--cards", metavar="DIR",
                        help="your own card folder (default: ~/.config/cobi-companion/cards)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("resolve", help="resolve one shot and explain it")
    _shot_options(p)
    p.add_argument("--dice", metavar="FACES",
                   help="scripted faces in order, like 3,5,6 (or 'ask' for real dice); "
                        "default: random")
    p.set_defaults(func=cmd_resolve)

    p = sub.add_parser("odds", help="exact chances of a planned shot")
    _shot_options(p)
    p.set_defaults(func=cmd_odds)

    p = sub.add_parser("move", help="how far a vehicle may move this action")
    p.add_argument("--card", required=True, metavar="SET")
    p.add_argument("--reverse", action="store_true", help="moving backward")
    p.add_argument("--turns", type=int, default=0, metavar="N", help="turns of up to 45°")
    p.add_argument("--rough", action="store_true", help="crossing rough ground")
    p.add_argument("--road", action="store_true", help="the whole move is on road")
    p.add_argument("--moved", type=int, default=0, metavar="CM",
                   help="cm already driven: prints what is left")
    p.add_argument("--status", metavar="LIST", help="immobilized and/or destroyed")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_move)

    p = sub.add_parser("reload", help="Tank Game reload action (+2) of an unloaded gun")
    p.add_argument("--card", required=True, metavar="SET")
    p.add_argument("--crew-below-half", action="store_true")
    p.add_argument("--status", metavar="LIST", help="default: unloaded")
    p.add_argument("--dice", metavar="FACES")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_reload)

    p = sub.add_parser("initiative", help="Easy level initiative roll-off (ties roll again)")
    p.add_argument("--dice", metavar="FACES", help="Axis, Allies, then again on a tie")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_initiative)

    p = sub.add_parser("overrun", help="Tank Game overrun (rule 9): a tank moving over "
                                       "figures and guns")
    p.add_argument("--tank", required=True, metavar="CARD",
                   help="the tank's set number or card id (a hard or open-top vehicle)")
    p.add_argument("--tank-status", metavar="LIST",
                   help=f"comma list of {', '.join(TANK_STATUS)}")
    p.add_argument("--under", action="append", required=True, metavar="SPEC",
                   help=f"a piece under the tank (repeat for each, in order): {OVERRUN_FORM}, "
                        f"COVER one of {', '.join(COVERS)} (default open), MARK one of "
                        f"{', '.join(OVERRUN_MARKS)}; like rifleman:3@soft or bofors-37mm")
    p.add_argument("--dice", metavar="FACES",
                   help="scripted faces in order, one for each visible figure (or 'ask' for "
                        "real dice); default: random")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_overrun)

    p = sub.add_parser("cards", help="list, show or check info cards")
    p.add_argument("action", choices=["list", "show", "check"])
    p.add_argument("set", nargs="?", metavar="SET|PATH",
                   help="show: a set number; check: a card file or folder")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_cards)

    p = sub.add_parser("run", help="the box: the daemon on the Pi's GPIO, OLED and buzzer")
    p.add_argument("--config", metavar="FILE", help="default: /etc/cobi-companion/config.toml")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("sim", help="the box in the terminal: mock pins driven by the keyboard")
    p.add_argument("--config", metavar="FILE")
    p.add_argument("--script", metavar="FILE", help="events: cw ccw ok back axis allies "
                                                    "axis_long allies_long 'wait MS'")
    p.add_argument("--keys", metavar="LIST", help="the same events, comma-separated")
    p.add_argument("--dice", metavar="FACES", help="scripted faces in order")
    p.add_argument("--state-dir", metavar="DIR",
                   help="where the sim keeps its battle (default: ~/.local/share/"
                        "cobi-companion/sim)")
    p.add_argument("--snapshot-dir", metavar="DIR", help="write every distinct frame as PNG")
    p.add_argument("--state-json", metavar="FILE", help="write the final battle state")
    p.set_defaults(func=cmd_sim)

    p = sub.add_parser("range", help="one measurement with a serial range sensor")
    p.add_argument("--sensor", metavar="NAME", help="a [[sensors]] table of the config")
    p.add_argument("--config", metavar="FILE", help="default: /etc/cobi-companion/config.toml")
    p.add_argument("--model", metavar="MODEL", help="a02yyuw, a01nyub, me007ys, jsn-sr04t, "
                   "aj-sr04m, us-100, maxbotix-lv, maxbotix-xl, maxbotix-hr, tfmini, tfmini-s, "
                   "tf-luna")
    p.add_argument("--port", metavar="PORT", help="like /dev/serial/by-id/... or /dev/serial0")
    p.add_argument("--baud", type=int, metavar="N", help="default: the model's")
    p.add_argument("--samples", type=int, metavar="N",
                   help="valid readings whose median is the result (default 7); with --raw, "
                        "frames to print (default: until Ctrl-C)")
    p.add_argument("--timeout", type=float, metavar="S",
                   help="give up after S seconds (default: half a second per sample, at "
                        "least 3)")
    p.add_argument("--raw", action="store_true", help="print each parsed frame as it arrives")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_range)

    p = sub.add_parser("play", help="interactive session: set up a battle and resolve shots")
    p.add_argument("--rules", choices=RULES)
    p.add_argument("--dice", metavar="FACES", help="scripted faces, or 'ask' for real dice")
    p.set_defaults(func=cmd_play)

    _cobra_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        default = "run" if on_raspberry_pi() else "sim"
        args = parser.parse_args([*(argv or sys.argv[1:]), default])
    try:
        code: int = args.func(args)
        return code
    except (RulesError, DiceError, UsageError, ConfigError, ScriptError, OSError) as exc:
        print(f"cobi-companion: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
