"""Every command and subcommand, given bad values (negative, zero, huge, NaN, digits that are
not ASCII, files that are not UTF-8, are missing, are folders or devices), answers with exit 2
and one line on stderr that names the value and what is allowed: never a traceback, never a
silently wrong answer, never a hang.

The commands are read from the parser itself: a new command, or a new option that takes a
value of its own kind, cannot be left out of the table below. The rows run through `main` in
this process (tests/conftest.py `run_cli`); a handful run again as real processes."""
from __future__ import annotations

import argparse
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.cli import CommandParser, build_parser

NINES = "9" * 5000                  # int() refuses 4,300 digits and more with its own error
SHOT = ["--rules", "tank", "--attacker", "2477", "--target", "2464", "--facing", "front"]
HE = ["--rules", "tank", "--attacker", "2477", "--weapon", "he", "--range-cm", "20"]
RIFLE = ["--rules", "tank", "--attacker", "rifleman", "--weapon", "rifle", "--target",
         "rifleman", "--range-cm", "45"]
UNITS = ["--attack", "12", "--defence", "1"]

# The files a row names: {latin1} is not UTF-8, {folder} a folder, {missing} not there, {text}
# a UTF-8 text file (where a folder belongs), {device} no regular file.
ROWS: dict[str, list[tuple[list[str], str]]] = {
    "resolve": [
        ([*SHOT, "--house-rule", "easy_round=always"],
         "--house-rule: house rule easy_round: 'always' is not allowed: choose one_each, "
         "both_pass"),
        ([*SHOT, "--range-cm", "nan"],
         "--range-cm: 'nan' is not allowed; allowed: a number of cm from 0 to 1000"),
        ([*SHOT, "--range-cm", "inf"], "--range-cm: 'inf' is not allowed"),
        ([*SHOT, "--range-cm", "-1"], "--range-cm: -1 is not allowed"),
        ([*SHOT, "--range-cm", "1e3"], "--range-cm: '1e3' is not allowed"),
        ([*SHOT, "--range-cm", "1000.5"], "--range-cm: 1000.5 is not allowed"),
        ([*SHOT, "--range-cm", NINES], "--range-cm: 9999999999"),
        ([*SHOT, "--range-cm", "٣٠"], "--range-cm: '٣٠' is not allowed"),
        ([*SHOT, "--dice", "²"], "--dice: '²' is not a D6 face: a face is a whole number from 1 "
                                 "to 6"),
        ([*SHOT, "--dice", "3,0"], "--dice: 0 is not a D6 face"),
        ([*SHOT, "--dice", f"3,{NINES}"], "is not a D6 face"),
        ([*SHOT, "--dice", "3,-1"], "--dice: -1 is not a D6 face"),
        (["--rules", "tank", "--attacker", "²", "--target", "2464", "--facing", "front"],
         "--attacker: '²' is not a set number or card id; allowed: a set number from 1 to "
         "999999"),
        (["--rules", "tank", "--attacker", NINES, "--target", "2464", "--facing", "front"],
         "--attacker: 9999"),
        ([*SHOT[:4], "--target", "0", "--facing", "front"], "--target: 0 is not a set number"),
        ([*HE, "--under", "rifleman:1000000"],
         "--under 'rifleman:1000000': FIGURES 1000000 is not allowed; allowed: a whole number "
         "of figures under the template from 1 to 10"),
        ([*HE, "--under", "rifleman:²"], "FIGURES '²' is not allowed"),
        ([*HE, "--under", "rifleman:-1"], "FIGURES -1 is not allowed"),
        ([*HE, "--under", f"rifleman:{NINES}"], "FIGURES 9999"),
        ([*HE, "--under", "²:1"], "CARD '²' is not a set number or card id"),
        ([*RIFLE, "--attacker-figures", "-1"],
         "--attacker-figures: -1 is not allowed; allowed: a whole number of figures from 0 "
         "to 10"),
        ([*RIFLE, "--attacker-figures", "11"], "--attacker-figures: 11 is not allowed"),
        ([*RIFLE, "--attacker-figures", "٣"], "--attacker-figures: '٣' is not allowed"),
        ([*SHOT, "--learned", "{missing}"], "--learned: {missing} does not exist; allowed: "
                                            "the learned values' file"),
        ([*SHOT, "--learned", "{folder}"], "--learned: {folder} is a folder"),
        ([*SHOT, "--learned", "{latin1}"], "--learned: {latin1} is not UTF-8 text (byte 0xe9"),
    ],
    "odds": [
        ([*SHOT, "--house-rule", "sherman_reload=paint"],
         "--house-rule: house rule sherman_reload: 'paint' is not allowed: choose card, text"),
        ([*SHOT, "--range-cm", "nan"], "--range-cm: 'nan' is not allowed"),
        ([*RIFLE[:-2], "--range-cm", "NaN"], "--range-cm: 'NaN' is not allowed"),
        ([*SHOT, "--range-cm", "-0.5"], "--range-cm: -0.5 is not allowed"),
        ([*HE, "--under", "rifleman:1000000"], "FIGURES 1000000 is not allowed"),
        ([*RIFLE, "--attacker-figures", NINES], "--attacker-figures: 9999"),
        ([*SHOT, "--learned", "{latin1}"], "--learned: {latin1} is not UTF-8 text"),
        ([*SHOT, "--learned", "{device}"], "--learned: {device} is not a regular file"),
    ],
    "move": [
        (["--card", "2477", "--turns", "-1"],
         "--turns: -1 is not allowed; allowed: a whole number of turns of up to 45° from 0 "
         "to 8"),
        (["--card", "2477", "--turns", "9"], "--turns: 9 is not allowed"),
        (["--card", "2477", "--turns", "²"], "--turns: '²' is not allowed"),
        (["--card", "2477", "--turns", "1.5"], "--turns: 1.5 is not allowed"),
        (["--card", "2477", "--moved", "-1"],
         "--moved: -1 is not allowed; allowed: a whole number of cm from 0 to 1000"),
        (["--card", "2477", "--moved", NINES], "--moved: 9999"),
        (["--card", "2477", "--moved", "nan"], "--moved: 'nan' is not allowed"),
        (["--card", "²"], "--card: '²' is not a set number or card id"),
        (["--card", "2477", "--rough", "0"],
         "--rough: 0 is not allowed; allowed: a whole number of patches of rough ground from 1 "
         "to 9"),
        (["--card", "2477", "--house-rule", "rough=twice"],
         "--house-rule: house rule rough: 'twice' is not allowed: choose once, each"),
    ],
    "reload": [
        (["--card", "2464", "--house-rule", "sherman"],
         "--house-rule: 'sherman' is not NAME=VALUE; allowed: NAME=VALUE, NAME one of "
         "sherman_reload, easy_fields, he_modifier, easy_round"),
        (["--card", "2477", "--dice", "²"], "--dice: '²' is not a D6 face"),
        (["--card", "2477", "--dice", "0"], "--dice: 0 is not a D6 face"),
        (["--card", NINES], "--card: 9999"),
        (["--card", "2477", "--figures", "11"],
         "--figures: 11 is not allowed; allowed: a whole number of figures from 0 to 10"),
        (["--card", "2477", "--figures", "-1"], "--figures: -1 is not allowed"),
    ],
    "initiative": [
        (["--dice", "²"], "--dice: '²' is not a D6 face: a face is a whole number from 1 to 6"),
        (["--dice", "٣,٤"], "--dice: '٣' is not a D6 face"),
        (["--dice", "0"], "--dice: 0 is not a D6 face"),
        (["--dice", "7"], "--dice: 7 is not a D6 face"),
        (["--dice", "-1"], "--dice: -1 is not a D6 face"),
        (["--dice", NINES], "--dice: 9999"),
    ],
    "overrun": [
        (["--tank", "2477", "--under", "rifleman:1000000"],
         "--under 'rifleman:1000000': FIGURES 1000000 is not allowed; allowed: a whole number "
         "of figures under the tank from 1 to 10, like :3"),
        (["--tank", "2477", "--under", "rifleman:11"], "FIGURES 11 is not allowed"),
        (["--tank", "2477", "--under", "rifleman:0"], "FIGURES 0 is not allowed"),
        (["--tank", "2477", "--under", "rifleman:-1"], "FIGURES -1 is not allowed"),
        (["--tank", "2477", "--under", "rifleman:²"], "FIGURES '²' is not allowed"),
        (["--tank", "2477", "--under", "rifleman", "--dice", "²"], "--dice: '²' is not a D6"),
        (["--tank", "²", "--under", "rifleman"], "--tank: '²' is not a set number"),
    ],
    "spot": [
        (["--spotter", "2477", "--hidden", "rifleman", "--distance-cm", "nan"],
         "--distance-cm: 'nan' is not allowed; allowed: a number of cm from 0 to 1000"),
        (["--spotter", "2477", "--hidden", "rifleman", "--distance-cm", "2000"],
         "--distance-cm: 2000 is not allowed"),
        (["--spotter", "²", "--hidden", "rifleman", "--distance-cm", "3"],
         "--spotter: '²' is not a set number"),
        (["--spotter", "2477", "--hidden", "²", "--distance-cm", "3"],
         "--hidden: '²' is not a set number"),
        (["--spotter", "2477", "--spotter-status", "hidden", "--hidden", "rifleman",
          "--distance-cm", "3"],
         "--spotter-status: 'hidden' is not allowed; allowed: commander_out, commander_killed"),
    ],
    "cards": [
        (["show", "²"], "cards show: '²' is not a set number or card id"),
        (["show", NINES], "cards show: 9999"),
        (["show", "0"], "cards show: 0 is not a set number or card id"),
        (["check", "{missing}"], "cards check: {missing} does not exist"),
        (["check", "{latin1}"], "cards check: {latin1} is not UTF-8 text"),
        (["check", "{device}"], "cards check: {device} is not a regular file"),
        (["list", "2477"], "cards list takes no set number or path"),
        (["list", "--learned", "{folder}"], "--learned: {folder} is a folder"),
    ],
    "run": [
        (["--config", "{missing}"],
         "--config: {missing} does not exist; allowed: a settings file, like config.toml, "
         "UTF-8 text of at most 256 KiB"),
        (["--config", "{folder}"], "--config: {folder} is a folder"),
        (["--config", "{latin1}"], "--config: {latin1} is not UTF-8 text"),
        (["--config", "{device}"], "--config: {device} is not a regular file"),
    ],
    "sim": [
        (["--keys", "ok", "--speech-dir", "{text}"],
         "--speech-dir: {text} is a file, not a folder; allowed: a folder for the spoken "
         "utterances"),
        (["--keys", "wait ²"],
         "script line 1: wait needs milliseconds from 0 to 60000, like wait 200"),
        (["--keys", "ok,wait -1"], "script line 2: wait needs milliseconds from 0 to 60000"),
        (["--keys", "wait 60001"], "wait needs milliseconds from 0 to 60000"),
        (["--keys", f"wait {NINES}"], "wait needs milliseconds from 0 to 60000"),
        (["--script", "{latin1}"], "--script: {latin1} is not UTF-8 text (byte 0xe9 at 6); "
                                   "allowed: a file of sim events"),
        (["--script", "{missing}"], "--script: {missing} does not exist"),
        (["--script", "{folder}"], "--script: {folder} is a folder"),
        (["--script", "{device}"], "--script: {device} is not a regular file"),
        (["--keys", "ok", "--dice", "²"], "--dice: '²' is not a D6 face"),
        (["--keys", "ok", "--dice", "ask"], "--dice: 'ask' is not a D6 face"),
        (["--keys", "ok", "--config", "{folder}"], "--config: {folder} is a folder"),
        (["--keys", "ok", "--state-dir", "{text}"], "--state-dir: {text} is a file, not a "
                                                    "folder"),
        (["--keys", "ok", "--state-dir", "{text}/battles"],
         "--state-dir: {text}/battles cannot be made: {text} is a file"),
        (["--keys", "ok", "--snapshot-dir", "{text}"], "--snapshot-dir: {text} is a file"),
        (["--keys", "ok", "--state-json", "{folder}"], "--state-json: {folder} is a folder"),
        (["--keys", "ok", "--state-json", "{missing}/state.json"],
         "--state-json: {missing}/state.json cannot be written: {missing} is not a folder"),
        (["--keys", "ok", "--dice", "4", "--dice-from", "-1"],
         "--dice-from: -1 is not allowed; allowed: a die's number (the box's count of dice "
         "drawn before it) from 0 to 1000000000"),
        (["--keys", "ok", "--dice-from", "²"], "--dice-from: '²' is not allowed"),
        (["--keys", "ok", "--dice-from", "0"],
         "--dice-from numbers the scripted faces of --dice FACES: give them"),
        (["--keys", "ok", "--trace", "{folder}"], "--trace: {folder} is a folder"),
        (["--keys", "ok", "--trace", "{device}"], "--trace: {device} is not a regular file"),
        # Scripted dice that run out: the script's mistake, said in one line.
        (["--keys", "axis,axis", "--dice", "4"],
         "too few scripted dice: 1 face given, ran out at the quick D6 roll; give more faces "
         "with --dice"),
    ],
    "range": [
        (["--baud", "0"], "--baud: 0 is not allowed; allowed: a baud rate from 1200 to 1000000"),
        (["--baud", "-9600"], "--baud: -9600 is not allowed"),
        (["--baud", NINES], "--baud: 9999"),
        (["--baud", "²"], "--baud: '²' is not allowed"),
        (["--baud", "9600.5"], "--baud: 9600.5 is not allowed"),
        (["--samples", "-1"],
         "--samples: -1 is not allowed; allowed: a whole number of readings from 1 to 31"),
        (["--samples", "0"], "--samples: 0 is not allowed"),
        (["--samples", "32"], "--samples: 32 is not allowed"),
        (["--samples", "٧"], "--samples: '٧' is not allowed"),
        (["--timeout", "nan"],
         "--timeout: 'nan' is not allowed; allowed: a number of seconds from 0.5 to 600"),
        (["--timeout", "-1"], "--timeout: -1 is not allowed"),
        (["--timeout", "0"], "--timeout: 0 is not allowed"),
        (["--timeout", "inf"], "--timeout: 'inf' is not allowed"),
        (["--timeout", "1e9"], "--timeout: '1e9' is not allowed"),
        (["--config", "{latin1}", "--sensor", "axis-end"], "--config: {latin1} is not UTF-8"),
    ],
    "play": [
        (["--house-rule", "smoke=on"],
         "--house-rule: unknown house rule 'smoke': choose sherman_reload, easy_fields, "
         "he_modifier, easy_round"),
        (["--dice", "²"], "--dice: '²' is not a D6 face: a face is a whole number from 1 to 6 "
                          "(or ask)"),
        (["--dice", "7"], "--dice: 7 is not a D6 face"),
        (["--config", "{missing}"], "--config: {missing} does not exist"),
        (["--state-dir", "{text}"], "--state-dir: {text} is a file, not a folder"),
        (["--speech-dir", "{text}"], "--speech-dir: {text} is a file, not a folder"),
        (["--dice", "4", "--dice-from", "1.5"], "--dice-from: 1.5 is not allowed"),
        (["--dice", "ask", "--dice-from", "0"], "--dice-from numbers the scripted faces"),
        (["--trace", "{missing}/trace.jsonl"],
         "--trace: {missing}/trace.jsonl cannot be written: {missing} is not a folder"),
    ],
    "speech": [
        ([], "speech needs a subcommand: render, say or check"),
    ],
    "speech render": [
        (["--cache", "{text}"], "--cache: {text} is a file, not a folder; allowed: a folder "
                                "for the phrase cache"),
        # the registry's codes are the choices (en, pl, de): any other is refused
        (["--language", "xx"], "--language: invalid choice: 'xx' (choose from 'en', 'pl', "
                               "'de')"),
    ],
    "speech say": [
        ([], "the following arguments are required: TEXT"),
        (["", "--language", "pl"], "say: TEXT is empty"),
        (["hello", "--language", "fr"], "--language: invalid choice: 'fr'"),
        (["hello", "--volume", "101"], "--volume: 101 is not allowed; allowed: a volume from "
                                       "0 to 100"),
        (["hello", "--volume", "²"], "--volume: '²' is not allowed"),
        (["hello", "--out", "{folder}"], "--out: {folder} is a folder"),
    ],
    "speech check": [
        (["--cache", "{text}"], "--cache: {text} is a file, not a folder"),
    ],
    "cobra": [
        ([], "cobra needs a subcommand"),
    ],
    "cobra odds": [
        (["--attack", NINES, "--defence", "1"],
         "unit 9999999999999999999999999999999999999999…: a printed strength is 1 to 99"),
        (["--attack", "²", "--defence", "1"], "unit '²': write its strength"),
        (["--attack", "٣", "--defence", "1"], "unit '٣': write its strength"),
        (["--attack", "0", "--defence", "1"], "unit 0: a printed strength is 1 to 99"),
        (["--attack", "100", "--defence", "1"], "unit 100: a printed strength is 1 to 99"),
        ([*UNITS, "--turn", "²"], "--turn: '²' is not allowed; allowed: a game turn from 1 to 28"),
        ([*UNITS, "--turn", "0"], "--turn: 0 is not allowed"),
        ([*UNITS, "--turn", "29"], "--turn: 29 is not allowed"),
        ([*UNITS, "--turn", NINES], "--turn: 9999"),
        ([*UNITS, "--shift", "terrain:-٣"], "shift 'terrain:-٣': the columns are a whole number"),
        ([*UNITS, "--shift", f"terrain:{NINES}"], "the columns are a whole number"),
        ([*UNITS, "--shift", "terrain:-1_0"], "shift 'terrain:-1_0': the columns are a whole"),
        ([*UNITS, "--tables", "{missing}"], "--tables: {missing} does not exist; allowed: a "
                                            "Cobra tables file"),
        ([*UNITS, "--tables", "{folder}"], "--tables: {folder} is a folder"),
        ([*UNITS, "--tables", "{latin1}"], "--tables: {latin1} is not UTF-8 text"),
        ([*UNITS, "--beach-marker", "0"],
         "--beach-marker: 0 is not allowed; allowed: beach marker columns from 1 to 9"),
    ],
    "cobra roll": [
        ([*UNITS, "--dice", "²"], "--dice: '²' is not a D6 face"),
        ([*UNITS, "--dice", "7"], "--dice: 7 is not a D6 face"),
        ([*UNITS, "--turn", "nan"], "--turn: 'nan' is not allowed"),
        ([*UNITS, "--tables", "{device}"], "--tables: {device} is not a regular file"),
        ([*UNITS, "--beach-marker", "²"], "--beach-marker: '²' is not allowed"),
    ],
    "cobra weather": [
        (["--turn", "²"], "--turn: '²' is not allowed; allowed: a game turn from 1 to 28"),
        (["--turn", "-1"], "--turn: -1 is not allowed"),
        (["--turn", "29"], "--turn: 29 is not allowed"),
        (["--turn", NINES], "--turn: 9999"),
        (["--turn", "3", "--dice", "²"], "--dice: '²' is not a D6 face"),
        (["--turn", "3", "--tables", "{folder}"], "--tables: {folder} is a folder"),
    ],
    "cobra crt": [
        (["check", "{missing}"], "FILE: {missing} does not exist; allowed: a Cobra tables file"),
        (["check", "{folder}"], "FILE: {folder} is a folder"),
        (["check", "{latin1}"], "FILE: {latin1} is not UTF-8 text"),
    ],
    "cobra victory": [
        (["--scenario", "cobra", "--frontline", "yes", "--german-vp", "1000"],
         "--german-vp: 1000 is not allowed; allowed: German VP from -999 to 999"),
        (["--scenario", "cobra", "--frontline", "yes", "--german-vp", "²"],
         "--german-vp: '²' is not allowed"),
        (["--scenario", "cobra", "--frontline", "no", "--allied-vp", "-1"],
         "--allied-vp: -1 is not allowed; allowed: Allied VP from 0 to 999"),
        (["--scenario", "cobra", "--frontline", "no", "--allied-vp", NINES],
         "--allied-vp: 9999"),
    ],
    "cobra points": [
        (["--turn", "0"], "--turn: 0 is not allowed; allowed: a game turn from 1 to 28"),
        (["--turn", "16", "--air-used", "7"],
         "--air-used: 7 is not allowed; allowed: air points from 0 to 6"),
        (["--turn", "16", "--naval-used", "-1"],
         "--naval-used: -1 is not allowed; allowed: naval support points from 0 to 6"),
    ],
    "cobra turn": [
        (["--turn", "0"], "--turn: 0 is not allowed; allowed: a game turn from 1 to 28"),
        (["--turn", "2", "--cherbourg", "10"],
         "--cherbourg: 10 is not allowed; allowed: attacks from 0 to 9"),
        (["--turn", "2", "--rail", "tank"], "--rail 'tank': each unit railed is foot"),
        (["--turn", "2", "--delays", "3"], "--delays '3': each a game turn from 1 to --turn 2"),
        (["--turn", "3", "--rail", "mech,mech"],
         "0 of 2 left to rail on game turn 3, this needs 2"),
        (["--turn", "16", "--scenario", "buildup"],
         "--turn 16: the buildup scenario plays game turns 1 to 14"),
    ],
    "cobra command": [
        (["--turn", "29", "--limit", "us=4,british=3"], "--turn: 29 is not allowed"),
        (["--turn", "14", "--limit", "us=21,british=3"],
         "--limit 'us=21': us= or british= then one command level (0 to 20)"),
        (["--turn", "14", "--limit", "us=4,british=3", "--made", "us=4"],
         "--made 'us=4': us= or british= then attacks/overruns made (0 to 99)"),
        (["--turn", "14", "--limit", "us=4,british=3", "--hq", "vii=asleep"],
         "--hq 'vii=asleep': HQ=STATE, STATE one of active, inactive, eliminated"),
        (["--turn", "14", "--limit", "us=4,british=3", "--use", "vii:+5"],
         "--use 'vii:+5': HQ:COLUMNS, +1 or +2 attacking, -1 defending"),
    ],
    "cobra vp": [
        (["--scenario", "cobra", "--event", "allied_hq", "--turn", "29"],
         "--turn: 29 is not allowed; allowed: a game turn from 1 to 28"),
        (["--scenario", "cobra", "--event", "allied_hq", "--turn", "20", "--count", "0"],
         "--count: 0 is not allowed; allowed: a number of units from 1 to 99"),
        (["--scenario", "cobra", "--event", "us_not_exited", "--turn", "26", "--scored", "²"],
         "--scored: '²' is not allowed; allowed: VP from 0 to 99"),
        (["--scenario", "cobra", "--event", "exit_us_mech", "--turn", "20", "--exits", "x"],
         "--exits 'x': each TURN:NATION:EDGE or TURN:NATION:EDGE:KIND"),
    ],
    "cobra release": [
        (["--turn", NINES], "--turn: 9999"),
        (["--turn", "22", "--first-us-exit", "0"], "--first-us-exit: 0 is not allowed"),
        (["--turn", "22", "--released", "5"],
         "--released: 5 is not allowed; allowed: divisions released from 0 to 4"),
        (["--turn", "22", "--dice", "7"], "--dice: 7 is not a D6 face"),
    ],
    "cobra brest": [
        (["--turn", "٣"], "--turn: '٣' is not allowed"),
        (["--turn", "26", "--us-west-exit", "-1"], "--us-west-exit: -1 is not allowed"),
        (["--turn", "26", "--dice", "²"], "--dice: '²' is not a D6 face"),
    ],
    "cobra leclerc": [
        (["--dice", "0"], "--dice: 0 is not a D6 face"),
    ],
    "cobra ma": [
        (["--printed", "0", "--nation", "us"],
         "--printed: 0 is not allowed; allowed: a printed MA from 1 to 20"),
        (["--printed", "²", "--nation", "us"], "--printed: '²' is not allowed"),
        (["--printed", NINES, "--nation", "us"], "--printed: 9999"),
        (["--printed", "6", "--nation", "us", "--turn", "29"], "--turn: 29 is not allowed"),
        (["--printed", "6", "--nation", "german", "--weather", "clear", "--increase", "third",
          "--dice", "7"], "--dice: 7 is not a D6 face"),
    ],
    "cobra replacements": [
        (["--turn", "0", "--side", "us"],
         "--turn: 0 is not allowed; allowed: a game turn from 1 to 28"),
        (["--turn", "٣", "--side", "us"], "--turn: '٣' is not allowed"),
        (["--turn", "3", "--side", "us", "--allied-steps", "-1"],
         "--allied-steps: -1 is not allowed; allowed: Allied steps from 0 to 999"),
        (["--turn", "3", "--side", "us", "--allied-steps", NINES], "--allied-steps: 9999"),
        (["--turn", "3", "--side", "german", "--taken", "mech=-1"],
         "--taken 'mech=-1': write KIND=N"),
    ],
    "cobra landing": [
        (["attrition", "--target", "omaha", "--committed", "-1"],
         "--committed: -1 is not allowed; allowed: German steps committed from 0 to 60"),
        (["attrition", "--target", "omaha", "--committed", "²"], "--committed: '²'"),
        (["beach", "--beach", "gold", "--landed", "0", "--lost", "0"],
         "--landed: 0 is not allowed; allowed: steps landed from 1 to 99"),
        (["beach", "--beach", "gold", "--landed", "2", "--lost", NINES], "--lost: 9999"),
        (["withdrawal", "--steps", "10"],
         "--steps: 10 is not allowed; allowed: the unit's steps from 1 to 9"),
        (["withdrawal", "--dice", "7"], "--dice: 7 is not a D6 face"),
        (["commit", "--tables", "{folder}"], "--tables: {folder} is a folder"),
    ],
}
# The options of the top-level parser, given before the command.
GLOBAL_ROWS = [
    (["--cards", "{missing}", "cards", "list"],
     "--cards: {missing} does not exist; allowed: a folder of your own cards that is there"),
    (["--cards", "{text}", "cards", "list"], "--cards: {text} is a file, not a folder"),
]
# A few rows again as a person runs them: a real process, nothing injected.
REAL = [("range", 0), ("initiative", 0), ("sim", 0), ("sim", 4), ("sim", 16),
        ("cobra odds", 0), ("odds", 0), ("overrun", 0), ("speech render", 1),
        ("speech say", 2)]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    base = tmp_path_factory.mktemp("bad")
    (base / "latin1.toml").write_bytes("ok\ncafé\n".encode("latin-1"))
    (base / "folder").mkdir()
    (base / "text.txt").write_text("ok\n")
    return {"latin1": str(base / "latin1.toml"), "folder": str(base / "folder"),
            "missing": str(base / "missing"), "text": str(base / "text.txt"),
            "device": os.devnull}


def filled(words: list[str] | str, files: dict[str, str]) -> Any:
    if isinstance(words, str):
        return words.format(**files) if "{" in words else words
    return [filled(word, files) for word in words]


def command_parsers() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every command and subcommand of the parser, with its options added."""
    def walk(parser: argparse.ArgumentParser, prefix: str) -> Iterator[Any]:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    built = sub.built() if isinstance(sub, CommandParser) else sub
                    yield f"{prefix}{name}", built
                    yield from walk(built, f"{prefix}{name} ")
    yield from walk(build_parser(), "")


def command_words(name: str) -> list[str]:
    return name.split()


def cases() -> Iterator[Any]:
    for name, rows in ROWS.items():
        for number, (args, words) in enumerate(rows):
            yield pytest.param([*command_words(name), *args], words, id=f"{name}-{number}")
    for number, (args, words) in enumerate(GLOBAL_ROWS):
        yield pytest.param(args, words, id=f"global-{number}")


def assert_one_line_refusal(code: int, out: str, err: str, words: str) -> None:
    assert "Traceback" not in err, err
    assert code == 2, (code, out, err)
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert words in err, err
    assert out == ""


def test_every_command_has_bad_value_rows() -> None:
    assert set(ROWS) == {name for name, _ in command_parsers()}


def test_every_option_with_a_value_of_its_own_kind_has_a_row() -> None:
    # An option of a number, a file, a folder, a card or dice is read by a checked type of
    # device/cli/checked.py (never int or float), and the table gives it a bad value.
    missing = []
    parsers = [("", build_parser()), *command_parsers()]
    for name, parser in parsers:
        given = {word for args, _ in (ROWS.get(name, []) if name else GLOBAL_ROWS)
                 for word in args}
        for action in parser._actions:
            assert action.type not in (int, float), f"{name} {action.dest}: unchecked number"
            if action.type is not None and action.option_strings and \
                    not set(action.option_strings) & given:
                missing.append(f"{name} {action.option_strings[0]}")
    assert not missing, f"options without a bad-value row: {missing}"


@pytest.mark.parametrize(("argv", "words"), list(cases()))
def test_a_bad_value_is_one_line_and_exit_2(argv: list[str], words: str, cli: Any,
                                            files: dict[str, str]) -> None:
    run = cli(*filled(argv, files))
    assert_one_line_refusal(run.code, run.out, run.err, filled(words, files))


# The real processes read the shipped cards from the card snapshots of a first run, as every
# start after the first does (tests/conftest.py `checked_cards`): the cards are not what these
# tests are about, and each fresh cache folder checked them all again.
@pytest.mark.usefixtures("checked_cards")
@pytest.mark.parametrize(("name", "number"), REAL, ids=[f"{n}-{i}" for n, i in REAL])
def test_a_real_process_refuses_the_same_way(name: str, number: int, cli_process: Any,
                                             files: dict[str, str]) -> None:
    args, words = ROWS[name][number]
    run = cli_process(*filled([*command_words(name), *args], files))
    assert_one_line_refusal(run.code, run.out, run.err, filled(words, files))


# ---- a reader that goes away: `cobi-companion cards list | head -1` ----


@pytest.mark.usefixtures("checked_cards")         # as above
@pytest.mark.parametrize("argv", [["cards", "list"], ["play"], ["sim", "--keys", "ok"]],
                         ids=["cards list", "play", "sim"])
def test_a_reader_gone_ends_the_command_quietly(argv: list[str], cli_path: str,
                                                tmp_path: Path) -> None:
    # The pipe's reading end is closed before the command starts, so that its first write
    # meets a reader that is gone, every time (a reader closing later races the writer).
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([cli_path, *argv], stdout=write_end, stderr=subprocess.PIPE,
                              input=b"ok\n", timeout=60,
                              env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr.decode()) == (141, "")
