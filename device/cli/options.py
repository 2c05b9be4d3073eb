"""Each command's options: one function a command, which adds them to its parser.

A function runs only when its command's parser is used (see `CommandParser`), so that the
choices the rules define can be read from the rules themselves (their enums and tables) while
`cobi-companion --help`, `run` and `sim` import none of them. The order of the options, their
words and their help are the command line's contract with scripts and the README.
"""
from __future__ import annotations

import argparse
from collections.abc import Callable

from cobi_companion.device.cli.checked import (
    Decimal,
    Faces,
    Folder,
    NewFile,
    TextFile,
    Whole,
    card,
    house_rule,
)
from cobi_companion.device.cli.specs import (
    ATTACKER_STATUS,
    OVERRUN_FORM,
    OVERRUN_MARKS,
    SPOTTER_STATUS,
    TARGET_STATUS,
    UNDER_FORM,
    tank_status_words,
)

SHOT_DICE = "scripted faces in order, like 3,5,6 (or 'ask' for real dice); default: random"
DIE = "the die's face (or 'ask' for a real die); default: random"
CONFIG = "default: /etc/cobi-companion/config.toml"
# The ranges of the numbers (docs/cli.md lists them): what a table could really have.
TABLE_CM = Decimal(0, 1000, "a number of cm")       # ten metres of table
CM_MOVED = Whole(0, 1000, "a whole number of cm")
TURNS = Whole(0, 8, "a whole number of turns of up to 45°")     # 8: a whole circle
BAUD = Whole(1200, 1_000_000, "a baud rate")                   # as the config's [[sensors]]
SAMPLES = Whole(1, 31, "a whole number of readings")           # as the config's [[sensors]]
TIMEOUT = Decimal(0.5, 600, "a number of seconds")
SETTINGS_FILE = TextFile("a settings file, like config.toml")
DICE = Faces()
LEARNED_FILE = TextFile("the learned values' file, like /var/lib/cobi-companion/learned/"
                        "soft-targets.toml")


def _figures(low: int) -> Callable[[str], int]:
    """Figures of a squad or a crew: as many as the box dials for a squad. The rules' bound is
    read when the option is given: building the parser imports no battle (its dataclasses)."""
    def figures(text: str) -> int:
        from cobi_companion.rules.battle import SQUAD_MAX

        return Whole(low, SQUAD_MAX, "a whole number of figures")(text)
    return figures


def _rules() -> list[str]:
    from cobi_companion.rules.levels import RULE_SETS

    return list(RULE_SETS)


# ---- resolve, odds ----


def _hard_target(parser: argparse.ArgumentParser) -> None:
    """The options of a shot at a hard target (and the firer's, which soft fire shares)."""
    from cobi_companion.rules.card import Facing

    parser.add_argument("--rules", choices=_rules(), required=True,
                        help="easy (COBI Easy level) or tank (Cobi WWII Tank Game)")
    parser.add_argument("--attacker", required=True, metavar="CARD", type=card,
                        help="firer's set number or card id")
    parser.add_argument("--target", metavar="CARD", type=card,
                        help="target's set number or card id")
    parser.add_argument("--facing", choices=[facing.value for facing in Facing],
                        help="which armour the shot hits (with --weapon: a vehicle's, "
                             "default front)")
    parser.add_argument("--range-cm", type=TABLE_CM, metavar="N",
                        help="measured range (Tank Game: over 100 cm is -1 to hit; with a "
                             "weapon without a template: its band of the Soft Targets Table)")
    parser.add_argument("--hull-down", action="store_true",
                        help="target hull down or in hard cover (Tank Game: -1 to hit)")
    parser.add_argument("--crew-below-half", action="store_true",
                        help="firer's crew below half (Tank Game: -1 to reload)")
    parser.add_argument("--target-status", metavar="LIST",
                        help=f"comma list of {', '.join(TARGET_STATUS)}")
    parser.add_argument("--attacker-status", metavar="LIST",
                        help=f"comma list of {', '.join(ATTACKER_STATUS)}")


def _soft_targets(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.tank.situations import SITUATIONS

    soft = parser.add_argument_group(
        "soft-target and template fire (Tank Game)",
        "fire a weapon of the attacker's card, or its main gun's HE, at figures, guns and "
        "vehicles by the Soft Targets Table")
    soft.add_argument("--weapon", metavar="NAME",
                      help="a weapon on the attacker's card, or he: its main gun firing HE")
    soft.add_argument("--attacker-figures", type=_figures(0), metavar="N",
                      help="figures of the firing squad, or crew left of a gun or vehicle "
                           "(default: the card's crew)")
    soft.add_argument("--in", dest="situations", metavar="SITUATIONS",
                      help=f"the --target's situations, comma list of {', '.join(SITUATIONS)}")
    soft.add_argument("--crew", action="store_true",
                      help="fire at one of the --target's crew figures, not at the gun or "
                           "vehicle itself")
    soft.add_argument("--under", action="append", metavar="SPEC", default=[],
                      help=f"a piece under the template (repeat for each): {UNDER_FORM}, "
                           f"like bofors-37mm:3@soft_cover or 2477/side")
    soft.add_argument("--cover", action="store_true",
                      help="HE: the target is in any cover (-1 to hit)")


def _house_rules(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--house-rule", action="append", dest="house_rules", default=[],
                        type=house_rule, metavar="NAME=VALUE",
                        help=f"a house rule the players agreed on, like sherman_reload=text "
                             f"(repeat for each; {what})")


def _learned(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--learned", metavar="FILE", type=LEARNED_FILE,
                        help="the Soft Targets Table's values the box learned at the table "
                             "(default: learned/soft-targets.toml in ~/.local/share/"
                             "cobi-companion, the box's state folder when run as you; the "
                             "service's is /var/lib/cobi-companion, the simulator's "
                             "~/.local/share/cobi-companion/sim)")


def odds(parser: argparse.ArgumentParser) -> None:
    _hard_target(parser)
    _soft_targets(parser)
    _learned(parser)
    _house_rules(parser, "the rules' readings by default, docs/rules-notes.md")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def resolve(parser: argparse.ArgumentParser) -> None:
    odds(parser)
    parser.add_argument("--dice", metavar="FACES", type=DICE, help=SHOT_DICE)


# ---- move, reload, initiative, overrun ----


def move(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--card", required=True, metavar="SET", type=card)
    parser.add_argument("--reverse", action="store_true", help="moving backward")
    parser.add_argument("--turns", type=TURNS, default=0, metavar="N",
                        help="turns of up to 45°")
    parser.add_argument("--rough", action="store_true", help="crossing rough ground")
    parser.add_argument("--road", action="store_true", help="the whole move is on road")
    parser.add_argument("--moved", type=CM_MOVED, default=0, metavar="CM",
                        help="cm already driven: prints what is left")
    parser.add_argument("--status", metavar="LIST", help="immobilized and/or destroyed")
    parser.add_argument("--json", action="store_true")


def reload(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--card", required=True, metavar="SET", type=card)
    parser.add_argument("--crew-below-half", action="store_true")
    parser.add_argument("--status", metavar="LIST",
                        help="unloaded (the default), loaded and/or gun_destroyed")
    parser.add_argument("--dice", metavar="FACES", type=DICE)
    _house_rules(parser, "the rules' readings by default, docs/rules-notes.md")
    parser.add_argument("--json", action="store_true")


def initiative(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice", metavar="FACES", type=DICE,
                        help="Axis, Allies, then again on a tie")
    parser.add_argument("--json", action="store_true")


def overrun(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.tank.overrun import Cover

    parser.add_argument("--tank", required=True, metavar="CARD", type=card,
                        help="the tank's set number or card id (a hard or open-top vehicle)")
    parser.add_argument("--tank-status", metavar="LIST",
                        help=f"comma list of {', '.join(tank_status_words())}")
    parser.add_argument("--under", action="append", required=True, metavar="SPEC",
                        help=f"a piece under the tank (repeat for each, in order): "
                             f"{OVERRUN_FORM}, COVER one of "
                             f"{', '.join(cover.value for cover in Cover)} (default open), "
                             f"MARK one of {', '.join(OVERRUN_MARKS)}; like rifleman:3@soft "
                             f"or bofors-37mm")
    parser.add_argument("--dice", metavar="FACES", type=DICE,
                        help="scripted faces in order, one for each visible figure (or 'ask' "
                             "for real dice); default: random")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def spot(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--spotter", required=True, metavar="CARD", type=card,
                        help="the enemy piece that may spot: a figure's card, or a closed "
                             "vehicle's with --spotter-status commander_out")
    parser.add_argument("--spotter-status", metavar="LIST",
                        help=f"comma list of {', '.join(SPOTTER_STATUS)}")
    parser.add_argument("--hidden", required=True, metavar="CARD", type=card,
                        help="the hidden piece's set number or card id")
    parser.add_argument("--distance-cm", required=True, type=TABLE_CM, metavar="N",
                        help="the distance between them, measured with the tape")
    parser.add_argument("--binoculars", action="store_true",
                        help="the spotting figure has binoculars (40 cm instead of 30 cm)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


# ---- cards ----


def cards(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["list", "show", "check"])
    parser.add_argument("set", nargs="?", metavar="SET|PATH",  # checked by its action
                        help="show: a set number; check: a card file or folder")
    _learned(parser)
    parser.add_argument("--json", action="store_true")


# ---- the box: run, sim, play, range ----


def run(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", type=SETTINGS_FILE, help=CONFIG)


def _state_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--state-dir", metavar="DIR",
                        type=Folder("a folder for the sim's battles", new=True),
                        help="where the sim keeps its battle (default: ~/.local/share/"
                             "cobi-companion/sim)")


def _speech_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--speech-dir", metavar="DIR",
                        type=Folder("a folder for the spoken utterances", new=True),
                        help="write each utterance the box says as 0001.wav and 0001.txt (its "
                             "text), besides saying it")


# The box's count of dice drawn goes up to one a roll; a million battles' worth is plenty.
DIE_NUMBER = Whole(0, 10**9, "a die's number (the box's count of dice drawn before it)")


def _dice_from(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice-from", metavar="N", type=DIE_NUMBER,
                        help="--dice are the faces of the box's dice numbered from N on (a "
                             "restart after a kill then draws the same face for the same "
                             "die); default: from the next die")


def _trace(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trace", metavar="FILE", type=NewFile("a file for the views", pipes=True),
                        help="write each frame's view as a JSON line, and a line each time "
                             "the box takes the next key")


def sim(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", type=SETTINGS_FILE)
    parser.add_argument("--script", metavar="FILE", type=TextFile("a file of sim events"),
                        help="events: cw ccw ok back axis allies axis_long allies_long "
                             "'wait MS'")
    parser.add_argument("--keys", metavar="LIST", help="the same events, comma-separated")
    parser.add_argument("--dice", metavar="FACES", type=Faces(ask=False),
                        help="scripted faces in order")
    _dice_from(parser)
    _state_dir(parser)
    parser.add_argument("--snapshot-dir", metavar="DIR",
                        type=Folder("a folder for the frames", new=True),
                        help="write every distinct frame as PNG")
    parser.add_argument("--state-json", metavar="FILE", type=NewFile("a file for the final state"),
                        help="write the final battle state")
    _trace(parser)
    _speech_dir(parser)


def play(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", choices=_rules(),
                        help="the rules the New battle menu starts at (the box's Rules "
                             "setting, for this session)")
    parser.add_argument("--dice", metavar="FACES", type=DICE,
                        help="scripted faces in order, or 'ask': real dice, dialled on the "
                             "box's screens (its Real dice setting, for this session)")
    _dice_from(parser)
    parser.add_argument("--config", metavar="FILE", type=SETTINGS_FILE, help=CONFIG)
    _state_dir(parser)
    _trace(parser)
    _speech_dir(parser)
    _house_rules(parser, "a new battle starts with them, over the config's [house_rules]")


def range_sensor(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.device.ports.range_sensor import MODELS

    parser.add_argument("--sensor", metavar="NAME", help="a [[sensors]] table of the config")
    parser.add_argument("--config", metavar="FILE", type=SETTINGS_FILE, help=CONFIG)
    parser.add_argument("--model", metavar="MODEL", help=", ".join(MODELS))
    parser.add_argument("--port", metavar="PORT",
                        help="like /dev/serial/by-id/... or /dev/serial0")
    parser.add_argument("--baud", type=BAUD, metavar="N", help="default: the model's")
    parser.add_argument("--samples", type=SAMPLES, metavar="N",
                        help="valid readings whose median is the result (default 7); with "
                             "--raw, frames to print (default: until Ctrl-C)")
    parser.add_argument("--timeout", type=TIMEOUT, metavar="S",
                        help="give up after S seconds (default: half a second per sample, at "
                             "least 3)")
    parser.add_argument("--raw", action="store_true",
                        help="print each parsed frame as it arrives")
    parser.add_argument("--json", action="store_true")


# ---- cobra ----


def _game_turn() -> Whole:
    from cobi_companion.rules.cobra.combat import LAST_TURN

    return Whole(1, LAST_TURN, "a game turn")


def _tables(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", metavar="FILE", type=TextFile("a Cobra tables file"),
                        help="your Cobra tables file (default: cobra/tables.toml of the card "
                             "folders, else the shipped empty template)")


def cobra_odds(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.combat import (
        UNIT_MODIFIERS,
        Nation,
        OverrunWhen,
        ShiftKind,
    )
    from cobi_companion.rules.cobra.tables import Weather

    letters = " ".join(modifier.letter for modifier in UNIT_MODIFIERS)
    units = (f"comma list of units: each the printed strength then its modifier letters "
             f"({letters}; see the README)")
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
    parser.add_argument("--turn", type=_game_turn(), metavar="N",
                        help="the game turn (two HQ shifts from game turn 17)")
    parser.add_argument("--weather", choices=[weather.value for weather in Weather],
                        help="this game turn's weather (no air points in storms)")
    parser.add_argument("--carpet", action="store_true",
                        help="carpet bombing, an air mission of 3 AP: always 6:1, never "
                             "shifted (14.3g)")
    parser.add_argument("--flown", metavar="TURNS",
                        help="with --carpet and --turn: comma list of the game turns of the "
                             "carpet bombing missions flown before (one during GT 5-14, two "
                             "more from GT 15, 14.3f)")
    parser.add_argument("--overrun", nargs="?", const=OverrunWhen.MOVEMENT.value,
                        choices=[when.value for when in OverrunWhen], metavar="WHEN",
                        help="an overrun (5.4) at printed strength: in the Initial Movement "
                             "Phase (movement, the default: terrain, HQ, Patton, naval and "
                             "Tiger shifts, 5.4.1c) or when advancing after combat (advance: "
                             "terrain and Tiger only, 5.4.1d); never air (14.2c)")
    _tables(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def cobra_roll(parser: argparse.ArgumentParser) -> None:
    cobra_odds(parser)
    parser.add_argument("--dice", metavar="FACES", type=DICE, help=DIE)


def cobra_weather(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.tables import Weather

    parser.add_argument("--turn", type=_game_turn(), required=True, metavar="N",
                        help="the game turn")
    parser.add_argument("--history", metavar="LIST",
                        help=f"the weather of the turns before, oldest first, comma list of "
                             f"{', '.join(weather.value for weather in Weather)} (the last is "
                             f"the turn before)")
    parser.add_argument("--dice", metavar="FACES", type=DICE, help=DIE)
    _tables(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def cobra_victory(parser: argparse.ArgumentParser) -> None:
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
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def cobra_points(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.combat import Nation
    from cobi_companion.rules.cobra.tables import Weather

    parser.add_argument("--turn", type=_game_turn(), required=True, metavar="N",
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


def cobra_landing(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.landing import BEACHES, DIVISIONS, Target

    parser.add_argument("action", choices=["scatter", "commit", "attrition", "beach",
                                           "withdrawal"],
                        help="scatter: one paratroop unit's drop (17.3.2 step 2); commit: a "
                             "German unit's beach defence roll (step 4a); attrition: landing "
                             "attrition (step 4b); beach: is a beach abandoned (step 5); "
                             "withdrawal: the 3:1 attack on a unit withdrawn from a beach hex "
                             "in an EZOC (17.3.4)")
    parser.add_argument("--division", choices=[d.value for d in DIVISIONS],
                        help="scatter: the paratroop unit's airborne division")
    parser.add_argument("--target", choices=[t.value for t in Target],
                        help="attrition: the beach, or the paratroop unit's division")
    parser.add_argument("--committed", type=Whole(0, 60, "German steps committed"),
                        metavar="N", help="attrition on a beach: the German steps committed "
                                          "to its hex (one column right each)")
    parser.add_argument("--terrain", metavar="TERRAIN",
                        help="attrition on a paratroop unit: its terrain's shift (0 to -5) "
                             "or a terrain named in the Cobra tables file; bocage: none")
    parser.add_argument("--beach", choices=[b.value for b in BEACHES],
                        help="beach: the beach checked")
    parser.add_argument("--landed", type=Whole(1, 99, "steps landed"), metavar="N",
                        help="beach: the Allied steps landed on it")
    parser.add_argument("--lost", type=Whole(0, 99, "steps lost"), metavar="N",
                        help="beach: the Allied steps eliminated there")
    parser.add_argument("--steps", type=Whole(1, 9, "the unit's steps"), metavar="N",
                        help="withdrawal: the steps the withdrawing unit has (tells whether "
                             "the result destroys it)")
    parser.add_argument("--dice", metavar="FACES", type=DICE, help=DIE)
    _tables(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _cache(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cache", metavar="DIR", type=Folder("a folder for the phrase cache",
                                                              new=True),
                        help="the voice's phrase cache (default: $CACHE_DIRECTORY/voice on the "
                             "box, else ~/.cache/cobi-companion/voice)")


def speech_render(parser: argparse.ArgumentParser) -> None:
    _cache(parser)
    parser.add_argument("--language", choices=["en", "pl"],
                        help="only this language (default: both)")


def speech_say(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", metavar="TEXT", help="a sentence to say")
    parser.add_argument("--language", choices=["en", "pl"], default="en",
                        help="its language (default: en)")
    parser.add_argument("--out", metavar="FILE", type=NewFile("a file for the WAV"),
                        help="write it as a WAV file instead of playing it")
    parser.add_argument("--volume", type=Whole(0, 100, "a volume"), default=80, metavar="N",
                        help="0-100 (default 80)")


def speech_check(parser: argparse.ArgumentParser) -> None:
    _cache(parser)


def cobra_crt(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["check"])
    parser.add_argument("file", metavar="FILE", type=TextFile("a Cobra tables file"),
                        help="a Cobra tables file, like cobra/tables.toml")


def cobra_command(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.command import HQS, HQState

    parser.add_argument("--turn", type=_game_turn(), required=True, metavar="N",
                        help="the game turn (no command limits on game turns 1 and 2, 17.3e)")
    parser.add_argument("--limit", action="append", metavar="LEVELS",
                        help="the command levels printed on the turn record track for this "
                             "game turn, like us=4,british=3: each is the number of attacks "
                             "and the number of overruns that army may make (11.3a)")
    parser.add_argument("--made", action="append", metavar="COUNTS",
                        help="the attacks/overruns made so far this game turn, like "
                             "us=4/1,british=2/0 (an overrun when advancing after combat is not "
                             "counted, 11.3)")
    parser.add_argument("--hq", action="append", metavar="HQ=STATE",
                        help=f"an HQ's side, STATE one of "
                             f"{', '.join(state.value for state in HQState)}, active:1 when it "
                             f"has given one of its two shifts (8.3.3a); HQ one of "
                             f"{', '.join(one.key for one in HQS)} (like vii=inactive)")
    parser.add_argument("--use", metavar="HQ:COLUMNS",
                        help="may this HQ give this shift now: +1 or +2 attacking, -1 "
                             "defending (like vii:+1); refused for an inactive HQ (9.1i)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


# ---- cobra: victory points and the special rolls (15.1-15.3, 16.1, 16.2, 18.0) ----

def cobra_vp(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.turns import SCENARIOS

    parser.add_argument("--scenario", choices=list(SCENARIOS), required=True,
                        help="the scenario played: some sources are its own (16.1, 16.2)")
    parser.add_argument("--turn", type=_game_turn(), required=True, metavar="N",
                        help="the game turn it happened in")
    parser.add_argument("--event", required=True, metavar="EVENT",
                        help="what happened: a source's key (allied_hq, cherbourg_held, "
                             "variant_654...; a wrong one lists them all) or an exit "
                             "as exit:NATION:EDGE:KIND, like exit:us:west:mech_division")
    parser.add_argument("--count", type=Whole(1, 99, "a number of units"), default=1,
                        metavar="N", help="how many units of that kind (default 1)")
    parser.add_argument("--exits", metavar="LIST",
                        help="the exits recorded before, comma list of TURN:NATION:EDGE:KIND "
                             "(like 20:us:west:mech_division): four US divisions score at "
                             "most, a US HQ off the west edge by GT 25 (16.1, 16.2)")
    parser.add_argument("--scored", type=Whole(0, 99, "VP"), default=0, metavar="VP",
                        help="the VP this source has given before (16.1: 12 at most for US "
                             "units not exited)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def cobra_release(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--turn", type=_game_turn(), required=True, metavar="N",
                        help="the game turn of the attempt")
    parser.add_argument("--first-us-exit", type=_game_turn(), metavar="N",
                        help="the game turn the first US unit exited a map edge (attempts "
                             "from the next, or from GT 22, 15.2)")
    parser.add_argument("--released", type=Whole(0, 4, "divisions released"), default=0,
                        metavar="N", help="the divisions released before (0-4, 15.2e)")
    parser.add_argument("--dice", metavar="FACES", type=DICE, help=DIE)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def cobra_brest(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--turn", type=_game_turn(), required=True, metavar="N",
                        help="the game turn beginning (from GT 26, 15.3a)")
    parser.add_argument("--us-west-exit", type=_game_turn(), metavar="N",
                        help="the game turn a US unit first exited off the west edge, if "
                             "any (15.3)")
    parser.add_argument("--dice", metavar="FACES", type=DICE, help=DIE)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def cobra_leclerc(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice", metavar="FACES", type=DICE, help=DIE)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def cobra_ma(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.movement import ARMIES, INCREASES, PHASES, PRINTED_MAX
    from cobi_companion.rules.cobra.tables import Weather

    parser.add_argument("--printed", type=Whole(1, PRINTED_MAX, "a printed MA"), required=True,
                        metavar="N", help="the unit's printed MA")
    parser.add_argument("--nation", choices=ARMIES, required=True,
                        help="whose unit (british: British, Canadian and Polish)")
    parser.add_argument("--phase", choices=PHASES, default="initial",
                        help="the Initial (default) or the Mechanized Movement Phase")
    parser.add_argument("--mechanized", action="store_true",
                        help="a mechanized unit (5.2a, 5.2b; a US division with a truck, "
                             "5.7d): the only ones that move in the Mechanized Movement Phase, "
                             "with British and Canadian infantry at two thirds (5.2c)")
    parser.add_argument("--weather", choices=[weather.value for weather in Weather],
                        help="this game turn's weather: needed for a German unit (5.3b)")
    parser.add_argument("--out-of-supply", action="store_true",
                        help="out of supply: the MA halved first (10.6, 5.3b)")
    parser.add_argument("--after-exit", action="store_true",
                        help="German: the first German player turn after the first Allied "
                             "unit exited a map edge (5.3c)")
    parser.add_argument("--replaced", action="store_true",
                        help="received a replacement this turn: half the current MA in the "
                             "Initial Movement Phase (12.1b)")
    parser.add_argument("--turn", type=_game_turn(), metavar="N",
                        help="the game turn: the Allied MA is halved on GT 1 and 2 (17.3.3b)")
    parser.add_argument("--increase", choices=list(INCREASES),
                        help="German, overcast or clear: increase the MA by a third or two, "
                             "then roll the air attack (5.3d)")
    parser.add_argument("--dice", metavar="FACES", type=DICE,
                        help="with --increase: the air attack's die (or 'ask'); default: "
                             "random")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def cobra_replacements(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.cobra.replacements import SIDES

    parser.add_argument("--turn", type=_game_turn(), required=True, metavar="N",
                        help="the game turn")
    parser.add_argument("--side", choices=SIDES, required=True,
                        help="whose Replacement Phase (us and british: the Allied player)")
    parser.add_argument("--taken", metavar="STEPS",
                        help="the steps taken this game turn, like mech=1,inf=2: each is "
                             "checked against the allowance (12.2)")
    parser.add_argument("--carried", metavar="STEPS",
                        help="German: what the replacement tracks carried from the turns "
                             "before, like mech=0.5,inf=1 (one step of each at most, 12.2d)")
    parser.add_argument("--allied-steps", type=Whole(0, 999, "Allied steps"), default=0,
                        metavar="N",
                        help="the Allied replacement steps used in the game before this turn "
                             "(1 German VP for every 10, 16.1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
