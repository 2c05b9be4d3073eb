"""`cards list`, `cards show SET` and `cards check [PATH]`: read and check the info cards."""
from __future__ import annotations

import argparse
from argparse import ArgumentTypeError
from pathlib import Path

from cobi_companion.device.cli.checked import FileOrFolder, card
from cobi_companion.device.cli.common import cards as cards_in_play
from cobi_companion.device.cli.common import folders, learned, print_result
from cobi_companion.device.cli.errors import UsageError
from cobi_companion.device.cli.options import add_learned
from cobi_companion.device.ports.safe_text import printable

LIST_HEADER = (f"{'card':<18} {'kind':<8} {'name':<22} {'to hit':<6} {'reload':<6} "
               f"{'damage':<6} {'armour f/s/r/t':<12} destroy")


CARD_FILE = FileOrFolder("a card file or a Soft Targets Table")


def cards(args: argparse.Namespace) -> int:
    if args.set is not None:    # a set number for show, a path for check: checked as such
        if args.action == "list":
            raise UsageError("cards list takes no set number or path; allowed: cards list, "
                             "cards show SET, cards check [PATH]")
        checked = card if args.action == "show" else CARD_FILE
        try:
            checked(args.set)
        except ArgumentTypeError as exc:
            raise UsageError(f"cards {args.action}: {exc}") from None
    if args.action == "check":
        return check(args)
    if args.action == "show":
        return show(args)
    return listing(args)


def show(args: argparse.Namespace) -> int:
    from cobi_companion.device.cli import explain

    book = cards_in_play(args)
    if not args.set:
        raise UsageError("cards show needs a set number, like: cards show 2477")
    card = book.get(args.set)
    print_result(args, {**card.to_plain(),
                        "source": card.source}, explain.card(card))
    return 0


def listing(args: argparse.Namespace) -> int:
    from cobi_companion.device.cli import explain

    book = cards_in_play(args)
    rows = [LIST_HEADER, *(explain.card_row(c) for c in book.sorted())]
    print_result(args, {"cards": [{"set": c.set_number, "name": c.name, "source": c.source}
                                  for c in book.sorted()]}, "\n".join(rows))
    return 0


def check(args: argparse.Namespace) -> int:
    """Every problem on a line of its own (at most book.MOST_PROBLEMS a file, then a line
    saying how many more), then a summary counting them all; exit 1 when there is one."""
    from cobi_companion.cards import check as check_path
    from cobi_companion.cards import is_table, load_cards
    from cobi_companion.cards.book import problem_count

    if args.set:
        loaded, problems = check_path(Path(args.set))
    else:
        book = load_cards(folders(args), learned(args))
        loaded, problems = book.sorted(), book.problems
    for problem in problems:
        print(printable(str(problem)))
    count = problem_count(problems)
    plural = "s" if count != 1 else ""
    if args.set and is_table(Path(args.set)):
        print(f"Soft Targets Table {'ok' if not problems else f'{count} problem{plural}'}")
    else:
        print(f"{len(loaded)} card{'s' if len(loaded) != 1 else ''} ok, {count} problem{plural}")
    return 1 if problems else 0


# ---- the options: added to the command's parser when it is first used ----

def cards_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["list", "show", "check"])
    parser.add_argument("set", nargs="?", metavar="SET|PATH",  # checked by its action
                        help="show: a set number; check: a card file or folder")
    add_learned(parser)
    parser.add_argument("--json", action="store_true")
