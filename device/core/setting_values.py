"""The words a setting of the box may take, once: the settings files' types (`config.py`), their
check (`config_check.py`) and the box's own settings (`core/app.py`'s VOICES, the settings
screen) all read them here. Apart, so that the config reads them without the app.
"""
from __future__ import annotations

from typing import Literal, get_args

Rules = Literal["easy", "tank"]                 # the rules levels (rules/levels.py RULE_SETS)
# What the box says aloud: nothing, the outcomes, or the outcomes and the prompts (whose turn).
Voice = Literal["off", "outcomes", "all"]
# How fast the voice speaks (ports/espeak.py WPM: eSpeak's words a minute).
Speed = Literal["normal", "slower"]
# How long a quiet pause is before a prompt is said again, in seconds: never (0), 20 or 60.
Remind = Literal[0, 20, 60]
PinKind = Literal["real", "mock"]               # the Pi's GPIO, or gpiozero's mock pins

VOICES: tuple[str, ...] = get_args(Voice)
SPEEDS: tuple[str, ...] = get_args(Speed)
REMINDS: tuple[int, ...] = get_args(Remind)
# Where a side's dice come from: the box rolls on its button, real dice dialled with the knob,
# or smart dice over Bluetooth (ports/smart_dice.py).
DiceSource = Literal["buttons", "dial", "smart"]
DICE_SOURCES: tuple[str, ...] = get_args(DiceSource)
# How the box reaches smart dice: the Pi's Bluetooth (ports/ble_dice.py), or virtual dice
# (ports/fake_dice.py: the simulator's, and tests').
DiceAdapter = Literal["bluetooth", "fake"]
