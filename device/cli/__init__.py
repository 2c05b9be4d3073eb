"""The `cobi-companion` command line: a stable scripting interface to the rules engine, and the
box's start (`run` on the Pi, `sim` and `play` in a terminal).

Each command is a row of `COMMANDS`: its name, its help, the function that adds its options and
the function that runs it, both in the command's module of this package, imported only when
that command runs. A command's parser is set up, and its options added, when it first parses,
so `--help` lists the commands without building them or importing their modules, `odds` builds
only its own parser, and `run` draws the box's title before the rules, the cards, the config
(pydantic) and gpiozero are imported.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from cobi_companion.device.cli import streams
from cobi_companion.device.cli.checked import Folder
from cobi_companion.device.cli.errors import OneLineParser, UsageError

Arguments = Callable[[argparse.ArgumentParser], None]
SIGPIPE_EXIT = 128 + 13      # how a shell sees a tool ended by SIGPIPE (13), like `yes | head`


class Command(NamedTuple):
    """A row of the command table. `arguments` and `runs` name functions of this package's
    modules as "module.function": strings, so that the table imports no command's module (a
    command of subcommands gives the function that adds them). (A named tuple, not a
    dataclass: creating one costs a millisecond at import, ~15 ms on a Pi Zero.)"""

    name: str
    help: str                    # its line in `cobi-companion --help`
    arguments: str | Arguments   # adds its options to its parser
    runs: str


def function(name: str) -> Callable[..., Any]:
    """The function "module.function" of this package, its module imported now."""
    module, _, attribute = name.rpartition(".")
    found: Callable[..., Any] = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    return found


class CommandParser(OneLineParser):
    """A command's parser, set up and given its arguments when it first parses (its --help
    too). argparse makes one for every command as the main parser is built, and only keeps it
    until its command is on the command line; setting one up (its groups and its help option,
    each a gettext look-up in the locale folders) costs ~0.2 ms here, ~3 ms on a Pi Zero 2 W."""

    def __init__(self, *args: Any, arguments: str | Arguments | None = None,
                 runs: str | None = None, **kwargs: Any) -> None:
        # not set up yet: built() does it, with what it is made of
        self._setup: tuple[Any, Any, str | Arguments | None, str | None] | None = (
            args, kwargs, arguments, runs)

    def built(self) -> CommandParser:
        """This parser, set up with its command's arguments added (once)."""
        if self._setup is not None:
            args, kwargs, arguments, runs = self._setup
            self._setup = None
            super().__init__(*args, **kwargs)
            if isinstance(arguments, str):     # its command's module, imported now
                function(arguments)(self)
            elif arguments is not None:
                arguments(self)
            if runs is not None:
                self.set_defaults(runs=runs)
        return self

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        # The command's parser is asked by argparse's subcommand action, only for the command
        # on the command line: the other commands' options are never built.
        self.built()
        return super().parse_known_args(*args, **kwargs)


def _subcommands(dest: str, table: Callable[[], tuple[Command, ...]]
                 ) -> Callable[[argparse.ArgumentParser], None]:
    """The options of a command of subcommands (cobra, speech), whose bad arguments are one
    line like its refusals; `table` gives them (the tables come after the commands'). Each
    subcommand's parser is set up like a command's: only the one on the command line, with
    its module imported then."""
    def add(parser: argparse.ArgumentParser) -> None:
        commands = parser.add_subparsers(dest=dest, metavar="SUBCOMMAND",
                                         parser_class=CommandParser)
        for command in table():
            commands.add_parser(command.name, help=command.help, arguments=command.arguments,
                                runs=command.runs)
    return add


COMMANDS = (
    Command("resolve", "resolve one shot and explain it", "fire.resolve_options", "fire.resolve"),
    Command("odds", "exact chances of a planned shot", "fire.odds_options", "fire.odds"),
    Command("move", "how far a vehicle may move this action", "moves.move_options", "moves.move"),
    Command("reload", "Tank Game reload action (+2) of an unloaded gun", "moves.reload_options",
            "moves.reload"),
    Command("initiative", "Easy level initiative roll-off (ties roll again)",
            "moves.initiative_options", "moves.initiative"),
    Command("overrun", "Tank Game overrun (rule 9): a tank moving over figures and guns",
            "moves.overrun_options", "moves.overrun"),
    Command("spot", "Tank Game spotting: does an enemy figure (or a commander out in the "
                    "turret) reveal a hidden piece", "moves.spot_options", "moves.spot"),
    Command("cards", "list, show or check info cards", "cards.cards_options", "cards.cards"),
    Command("run", "the box: the daemon on the Pi's GPIO, OLED and buzzer", "box.run_options",
            "box.run"),
    Command("sim", "the box in the terminal: mock pins driven by the keyboard", "box.sim_options",
            "box.sim"),
    Command("range", "one measurement with a serial range sensor", "box.range_options",
            "box.measure"),
    Command("play", "the box in the terminal as text: its screens as lines, its keys typed "
                    "as words", "box.play_options", "box.play"),
    Command("cobra", "Cobra (Normandy 1944): combat odds and rolls, the weather, your tables "
                     "file, victory, the turn's points, command limits and HQs, movement, "
                     "replacements, victory points and the special rolls",
            _subcommands("cobra_command", lambda: COBRA_COMMANDS),
            "cobra.cobra"),
    Command("speech", "the box's voice: render its phrase cache, say a sentence, check the "
                      "engine, the player and the cache",
            _subcommands("speech_command", lambda: SPEECH_COMMANDS), "speech.speech"),
)
SPEECH_COMMANDS: tuple[Command, ...] = (
    Command("render", "render every phrase the box can say that its cache lacks",
            "speech.render_options", "speech.render"),
    Command("say", "say one sentence (or write it as a WAV)", "speech.say_options",
            "speech.say"),
    Command("check", "is there an engine, a player, a whole cache? (exit 1 if not)",
            "speech.check_options", "speech.check"),
)
COBRA_COMMANDS: tuple[Command, ...] = (
    Command("odds", "the CRT column of an attack, every step explained", "cobra.odds_options",
            "cobra.odds"),
    Command("roll", "resolve an attack: the odds, the die and the result", "cobra.roll_options",
            "cobra.roll"),
    Command("weather", "the weather of a game turn (5.3)", "cobra.weather_options",
            "cobra.weather"),
    Command("crt", "check your Cobra tables file (CRT, weather, terrain, scatter)",
            "cobra.crt_options",
            "cobra.crt"),
    Command("victory", "the level of victory at the end of a game, or the automatic one "
                       "when all beaches are lost (16.3, 17.4.2, 17.4.3)",
            "cobra.victory_options", "cobra.victory"),
    Command("points", "the air points, naval support points and carpet bombing missions a "
                      "game turn has left (14.0, 14.1a, 14.3f, 14.4)", "cobra.points_options",
            "cobra.points"),
    Command("command", "the Allied command limits of a game turn and an HQ's shift (11.3, "
                       "9.1, 8.3.3)", "cobra_command.command_options", "cobra_command.command"),
    Command("vp", "the victory points of what happened: a unit eliminated or exited, "
                  "Cherbourg, a variant counter (16.1, 16.2, 18.0)", "cobra_victory.vp_options",
            "cobra_victory.vp"),
    Command("release", "a 15th Army release attempt (15.2)", "cobra_victory.release_options",
            "cobra_victory.release"),
    Command("brest", "the 2nd FJ Division's release from Brest (15.3)",
            "cobra_victory.brest_options", "cobra_victory.brest"),
    Command("leclerc", "does Leclerc head for Paris? (15.1)", "cobra_victory.leclerc_options",
            "cobra_victory.leclerc"),
    Command("ma", "a unit's movement allowance, and the air attack of an MA increase (5.3, "
                  "10.6, 12.1b)", "cobra_movement.ma_options", "cobra_movement.ma"),
    Command("replacements", "the replacement steps a side may take in a game turn (12.2, "
                            "16.1)", "cobra_movement.replacements_options",
            "cobra_movement.replacements"),
    Command("landing", "the Allied Landing Phase (17.3.2): scatter, beach defence, landing "
                       "attrition, a beach abandoned; the 3:1 withdrawal attack (17.3.4)",
            "cobra_landing.landing_options", "cobra_landing.landing"),
    Command("turn", "a game turn's bookkeeping, phase by phase: delay units, rail, Cherbourg's "
                    "attack, the reminders (17.3, 13.2e)", "cobra_turn.turn_options",
            "cobra_turn.turn"),
)


class ShowVersion(argparse.Action):
    """`--version`: print the version (and a checkout's commit) and exit 0. argparse's own
    version action takes a ready string: this one works it out only when asked."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: Any = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from cobi_companion.device.cli.version import version_line

        print(version_line())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="cobi-companion",
        description="Dice, sums and bookkeeping for the COBI WWII wargames. "
                    "Without a command: an interactive session in the terminal.")
    parser.add_argument("--cards", metavar="DIR", type=Folder("a folder of your own cards"),
                        help="your own card folder (default: ~/.config/cobi-companion/cards)")
    parser.add_argument("--version", action=ShowVersion,
                        help="the version, and the git commit when run from a checkout")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND",
                                     parser_class=CommandParser)
    for command in COMMANDS:
        commands.add_parser(command.name, help=command.help, arguments=command.arguments,
                            runs=command.runs)
    return parser


def on_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text().lower()
    except OSError:
        return False


def _run(args: argparse.Namespace) -> int:
    """Import the command's module, and run it."""
    command: Callable[[argparse.Namespace], int] = function(args.runs)
    return command(args)


def main(argv: Sequence[str] | None = None) -> int:
    streams.guard()      # started with a standard stream closed (`>&-`, `<&-`)
    try:
        return _main(argv)
    except BrokenPipeError:     # OutputClosed too: the output closed before the start
        return _reader_gone()


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        default = "run" if on_raspberry_pi() else "sim"
        given = sys.argv[1:] if argv is None else list(argv)
        args = parser.parse_args([*given, default])
    try:
        code = _run(args)
        sys.stdout.flush()      # a reader gone is found here, not by Python at exit
        return code
    except BrokenPipeError:
        raise
    except Exception as exc:
        if not _refusal(exc):
            raise
        print(f"cobi-companion: {_said(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _refusal(exc: Exception) -> bool:
    """Whether `exc` is a refusal, said in one line (exit 2). Its classes are imported only
    now, when something went wrong: a command imports only the modules it uses (`odds` no
    dice, `run` no rule before the box's title)."""
    from cobi_companion.device.ports.errors import ConfigError, ScriptError
    from cobi_companion.rules.dice import DiceError
    from cobi_companion.rules.errors import RulesError

    return isinstance(exc, (RulesError, DiceError, UsageError, ConfigError, ScriptError,
                            OSError)) or _too_long(exc)


def _too_long(exc: Exception) -> bool:
    """Python's refusal of a number of more than 4,300 digits, should a value reach int()
    unread by rules.numbers: it is the number given, refused in one line like the others."""
    from cobi_companion.cards.tomlfile import plain

    return isinstance(exc, ValueError) and plain(str(exc)) != str(exc)


def _said(exc: Exception) -> str:
    """The refusal's words, as a terminal shows them (a card's name may hold an ESC)."""
    from cobi_companion.cards.tomlfile import plain
    from cobi_companion.device.ports.safe_text import printable

    return printable(plain(str(exc)) if isinstance(exc, ValueError) else str(exc))


def _reader_gone() -> int:
    """The reader of the output has gone (`cobi-companion cards list | head -1`), or there was
    none (`cobi-companion cards list >&-`, streams.OutputClosed): end quietly,
    with the status of a Unix tool ended by SIGPIPE. Python would flush standard output once
    more at exit, and complain: it is pointed at /dev/null first (the Python docs' way:
    SIGPIPE itself is left ignored, so that no write ends the box halfway)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):        # no file descriptor to point elsewhere
        pass
    return SIGPIPE_EXIT
