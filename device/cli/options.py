"""The options several commands share; each command's own are in its module (`odds_options`
in fire.py, ...), added to its parser when that parser is first used (see `CommandParser`), so
that the choices the rules define can be read from the rules themselves (their enums and
tables) while `cobi-companion --help`, `run` and `sim` import none of them. The order of the
options, their words and their help are the command line's contract with scripts and the
README.
"""
from __future__ import annotations

import argparse

from cobi_companion.device.cli.checked import Decimal, Faces, TextFile, Whole, house_rule

DIE = "the die's face (or 'ask' for a real die); default: random"
# The ranges of the numbers (docs/cli.md lists them): what a table could really have.
TABLE_CM = Decimal(0, 1000, "a number of cm")       # ten metres of table
DICE = Faces()
LEARNED_FILE = TextFile("the learned values' file, like /var/lib/cobi-companion/learned/"
                        "soft-targets.toml")


def rule_names() -> list[str]:
    from cobi_companion.rules.levels import RULE_SETS

    return list(RULE_SETS)


def add_house_rules(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--house-rule", action="append", dest="house_rules", default=[],
                        type=house_rule, metavar="NAME=VALUE",
                        help=f"a house rule the players agreed on, like sherman_reload=text "
                             f"(repeat for each; {what})")


def add_learned(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--learned", metavar="FILE", type=LEARNED_FILE,
                        help="the Soft Targets Table's values the box learned at the table "
                             "(default: learned/soft-targets.toml in ~/.local/share/"
                             "cobi-companion, the box's state folder when run as you; the "
                             "service's is /var/lib/cobi-companion, the simulator's "
                             "~/.local/share/cobi-companion/sim)")


def game_turn() -> Whole:
    from cobi_companion.rules.cobra.combat import LAST_TURN

    return Whole(1, LAST_TURN, "a game turn")


def add_tables(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", metavar="FILE", type=TextFile("a Cobra tables file"),
                        help="your Cobra tables file (default: cobra/tables.toml of the card "
                             "folders, else the shipped empty template)")
