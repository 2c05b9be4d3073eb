"""What the commands share: the dice, the cards in play, and printing a result as text or JSON.

Imported only once a command runs; the rules, the dice and the cards are imported by the
functions that need them, so that `cobi-companion run` reads no card before the box's title is
drawn, and `odds` imports no dice.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cobi_companion.device.cli.errors import UsageError
from cobi_companion.device.ports.safe_text import json_printable, printable

if TYPE_CHECKING:
    from cobi_companion.cards import CardBook
    from cobi_companion.rules.cobra.tables import CobraTables
    from cobi_companion.rules.dice import Dice, Need
    from cobi_companion.rules.house import HouseRules


def ask_face(need: Need) -> int:
    """Manual dice: ask the player for the face of a real die (`need` says it in words)."""
    from cobi_companion.rules.dice import DiceError, parse_faces

    while True:
        print(f"Roll a real die for {need} and type the face (1-6): ", end="",
              file=sys.stderr, flush=True)
        line = sys.stdin.readline()
        if not line:
            raise DiceError(f"no face given for {need}")
        try:
            faces = parse_faces(line)
        except DiceError as exc:
            print(exc, file=sys.stderr)
            continue
        if len(faces) == 1:
            return faces[0]
        print("type one face, a number from 1 to 6", file=sys.stderr)


def make_dice(text: str | None) -> Dice:
    """--dice: random without it, a real die asked for with 'ask', else the faces given."""
    from cobi_companion.rules.dice import ManualDice, RandomDice, ScriptedDice, parse_faces

    if text is None:
        return RandomDice()
    if text.strip().lower() == "ask":
        return ManualDice(ask_face)
    return ScriptedDice(parse_faces(text))


def note_unused(dice: Dice) -> None:
    """Scripted faces left over are likely a mistake in a script: say so, but do not fail."""
    from cobi_companion.rules.dice import ScriptedDice

    if isinstance(dice, ScriptedDice) and dice.left:
        print(f"note: {len(dice.left)} scripted dice not used: "
              f"{','.join(map(str, dice.left))}", file=sys.stderr)


def folders(args: argparse.Namespace) -> list[Path]:
    from cobi_companion.cards import default_folders

    return default_folders(Path(args.cards) if args.cards is not None else None)


def learned(args: argparse.Namespace) -> Path:
    """--learned FILE (checked by its option's type); else the learned file of the box's
    default state folder, if there is one."""
    from cobi_companion.cards import learned_file
    from cobi_companion.device.boot import default_state_dir

    given = getattr(args, "learned", None)
    if given is None:
        return learned_file(default_state_dir())
    return Path(given).expanduser()


# The command line's own snapshots of what the checks made of the card files (the box's are
# of its own folders and learned values): see cards/snapshot.py.
CARDS_SNAPSHOT, COBRA_SNAPSHOT = "cli-cards", "cli-cobra"


def cards(args: argparse.Namespace) -> CardBook:
    """The cards in play; problems in card files are warnings (the other cards still load).
    From the snapshot of the last check while no card file has changed."""
    from cobi_companion.cards import card_book
    from cobi_companion.cards.snapshot import snapshot_file

    book = card_book(folders(args), learned(args), snapshot_file(CARDS_SNAPSHOT))
    for problem in book.problems:
        print(printable(f"warning: {problem}"), file=sys.stderr)
    return book


def cobra_tables(args: argparse.Namespace) -> CobraTables:
    """--tables FILE (a broken one is refused), else the card folders' cobra/tables.toml
    (a broken one is a warning and the shipped template is used)."""
    from cobi_companion.cards import cobra_in_play
    from cobi_companion.cards.snapshot import snapshot_file

    if args.tables is not None:
        # The loader (and pydantic) only for a file given: the card folders' tables come from
        # their snapshot while none has changed.
        from cobi_companion.cards import CardFileError, load_cobra_tables

        try:
            return load_cobra_tables(Path(args.tables))
        except CardFileError as exc:    # every problem on its own line, each like the others
            raise UsageError("\ncobi-companion: ".join(str(p) for p in exc.problems)) from None
    tables, problems = cobra_in_play(folders(args), snapshot_file(COBRA_SNAPSHOT))
    for problem in problems:
        print(printable(f"warning: {problem}"), file=sys.stderr)
    return tables


def house_rules(args: argparse.Namespace) -> HouseRules:
    """The house rules of --house-rule NAME=VALUE (checked as argparse read them), over the
    rules' own readings."""
    from cobi_companion.rules.house import HouseRules, rule

    # A rule of the other level would change nothing: say so rather than ignore it (`reload`
    # is the Tank Game's; `play` without --rules plays the config's level).
    level = getattr(args, "rules", None) or ("tank" if args.command == "reload" else None)
    for name, value in args.house_rules:
        levels = rule(name).levels
        if level is not None and level not in levels:
            raise UsageError(f"--house-rule {name}={value}: it changes the "
                             f"{' and '.join(levels)} rules only, not {level}")
    return HouseRules().with_values(args.house_rules)


def print_result(args: argparse.Namespace, data: dict[str, Any],
                 text: str | Callable[[], str]) -> None:
    """One JSON object with --json, else the explanation: `text`, or what the function `text`
    makes, called only without --json (a script's --json then never builds the words)."""
    # What a file holds (a card's name) never acts on the terminal (ports/safe_text.py).
    if args.json:
        print(json_printable(json.dumps(data, indent=2, ensure_ascii=False)))
    else:
        print(printable(text() if callable(text) else text))
