"""`run`, `sim`, `play` and `range`: the box on the Pi, the box in the terminal (as pixels, or
as text), and one measurement with a range sensor.

Nothing is imported here at the top but what every one of them needs: `run` and `sim` draw the
box's title before the config (pydantic), the rules, the cards and gpiozero are imported.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cobi_companion.device.cli.checked import Decimal, Faces, Folder, NewFile, TextFile, Whole
from cobi_companion.device.cli.common import print_result
from cobi_companion.device.cli.errors import UsageError
from cobi_companion.device.cli.options import DICE, add_house_rules, rule_names

if TYPE_CHECKING:
    import queue

    from cobi_companion.device.config import Config, Loaded, Sensor
    from cobi_companion.device.core.draws import Numbered
    from cobi_companion.device.ports.range_reader import Sample


def run(args: argparse.Namespace) -> int:
    """The box as systemd starts it: it stays up whatever is wrong, and says so on the panel."""
    from cobi_companion.device.hardware import run_box

    return run_box(Path(args.config) if args.config else None)


# ---- the box in the terminal ----


def _settings_files(args: argparse.Namespace) -> tuple[Loaded, Callable[[], Loaded]]:
    """The settings files, read as the box reads them, and what reads them again (SIGHUP, OK
    on a settings problem). A --config file given here must be right (exit 2 with its
    problem); the files of the boot partition and the stick are shown on the screen, as on
    the box."""
    from cobi_companion.cards.snapshot import snapshot_file
    from cobi_companion.device.box import CONFIG_SNAPSHOT
    from cobi_companion.device.config import load_layers

    path = Path(args.config) if args.config else None

    def load() -> Loaded:
        return load_layers(path, snapshot_file(CONFIG_SNAPSHOT))
    loaded = load()
    for error in loaded.skipped:
        if path is not None and error.path == path:
            raise error
    return loaded, load


def _script(args: argparse.Namespace) -> list[tuple[str, int]] | None:
    """--script, --keys, or the events on standard input when it is not a terminal; None: a
    person at the keyboard."""
    from cobi_companion.device.sim import parse_script

    if args.script:
        return parse_script(Path(args.script).read_text())
    if args.keys is not None:
        return parse_script(args.keys)
    if not sys.stdin.isatty():
        return parse_script(sys.stdin.read())
    return None


def _path(text: str | None) -> Path | None:
    return Path(text) if text else None


def sim(args: argparse.Namespace) -> int:
    from cobi_companion.device.core.draws import ScriptedFrom
    from cobi_companion.device.sim import run_sim
    from cobi_companion.rules.dice import parse_faces

    script = _script(args)
    _numbered_faces(args)
    dice = ScriptedFrom(parse_faces(args.dice), args.dice_from) if args.dice else None
    display = None
    if script is None:   # a person at the terminal: the title now, the start menu when ready
        from cobi_companion.device.boot import terminal_title

        display = terminal_title()
    loaded, load = _settings_files(args)
    return run_sim(loaded.config, script=script, dice=dice, display=display, loaded=loaded,
                   load=load, state_dir=_path(args.state_dir),
                   snapshot_dir=_path(args.snapshot_dir), state_json=_path(args.state_json),
                   speech_dir=_path(args.speech_dir), trace=_path(args.trace))


def _numbered_faces(args: argparse.Namespace) -> None:
    """--dice-from numbers scripted faces: without them it means nothing."""
    if args.dice_from is not None and (not args.dice or args.dice.strip().lower() == "ask"):
        raise UsageError("--dice-from numbers the scripted faces of --dice FACES: give them")


PLAY_INTRO = ("COBI Battle Companion, the box as text: type its keys, one or more a line: "
              "{keys}; q or Ctrl-D ends")
PROMPT = "keys> "


def _play_dice(text: str | None, first: int | None) -> tuple[Numbered | None, dict[str, object]]:
    """--dice: scripted faces (numbered from `first`, --dice-from), or 'ask': the box's own
    dice set to real dice (dialled) on both sides, for this session."""
    from cobi_companion.device.core.draws import ScriptedFrom
    from cobi_companion.rules.dice import parse_faces

    if text is None:
        return None, {}
    if text.strip().lower() == "ask":
        return None, {"dice": {"axis": "dial", "allies": "dial"}}
    return ScriptedFrom(parse_faces(text), first), {}


def play(args: argparse.Namespace) -> int:
    """The box's app as text: the frames written as lines, the keys read as words."""
    from cobi_companion.device.sim import (
        TYPED_KEYS,
        TextDisplay,
        run_sim,
        typed_keys,
        typed_lines,
    )

    _numbered_faces(args)
    dice, settings = _play_dice(args.dice, args.dice_from)
    if args.rules:
        settings["rules"] = args.rules
    loaded, load = _settings_files(args)
    if args.house_rules:        # over the config's [house_rules], for this session
        settings["house_rules"] = {**loaded.config.house_rules, **dict(args.house_rules)}
    print(PLAY_INTRO.format(keys=" ".join(TYPED_KEYS)), flush=True)

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)
    lines = typed_lines(sys.stdin, PROMPT if sys.stdin.isatty() else "")
    return run_sim(loaded.config, script=typed_keys(lines, say), dice=dice,
                   display=TextDisplay(sys.stdout), loaded=loaded, load=load,
                   state_dir=_path(args.state_dir), settings=settings,
                   speech_dir=_path(args.speech_dir), trace=_path(args.trace))


# ---- range sensors ----


def _config(args: argparse.Namespace) -> Config:
    from cobi_companion.cards.snapshot import snapshot_file
    from cobi_companion.device.config import load_config

    return load_config(Path(args.config) if args.config else None, snapshot_file("cli-config"))


def _sensor(args: argparse.Namespace) -> Sensor:
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


def measure(args: argparse.Namespace) -> int:
    """`range`: one measurement (the median of several readings), or each frame with --raw."""
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
            _median(args, events, sample, args.timeout or max(3.0, samples * 0.5))
    finally:
        reader.close()


def _raw(events: queue.Queue[Any], frames: int | None) -> int:
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


def _median(args: argparse.Namespace, events: queue.Queue[Any], sample: Sample,
            timeout: float) -> int:
    """The readings until there are enough or the time is up; exit 1 without a result."""
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
    print_result(args, result.to_dict(), text)
    return 0 if result.cm is not None else 1


# ---- the options: added to the command's parser when it is first used ----

CONFIG = "default: /etc/cobi-companion/config.toml"
SETTINGS_FILE = TextFile("a settings file, like config.toml")
# The ranges of the numbers (docs/cli.md lists them): what a sensor could really have.
BAUD = Whole(1200, 1_000_000, "a baud rate")                   # as the config's [[sensors]]
SAMPLES = Whole(1, 31, "a whole number of readings")           # as the config's [[sensors]]
TIMEOUT = Decimal(0.5, 600, "a number of seconds")
# The box's count of dice drawn goes up to one a roll; a million battles' worth is plenty.
DIE_NUMBER = Whole(0, 10**9, "a die's number (the box's count of dice drawn before it)")


def run_options(parser: argparse.ArgumentParser) -> None:
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


def _dice_from(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice-from", metavar="N", type=DIE_NUMBER,
                        help="--dice are the faces of the box's dice numbered from N on (a "
                             "restart after a kill then draws the same face for the same "
                             "die); default: from the next die")


def _trace(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trace", metavar="FILE", type=NewFile("a file for the views", pipes=True),
                        help="write each frame's view as a JSON line, and a line each time "
                             "the box takes the next key")


def sim_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", type=SETTINGS_FILE)
    parser.add_argument("--script", metavar="FILE", type=TextFile("a file of sim events"),
                        help="events: cw ccw ok back axis allies axis_long allies_long "
                             "axis_die allies_die (a smart die thrown; axis_die=4: on a 4) "
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


def play_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", choices=rule_names(),
                        help="the rules the New battle menu starts at (the box's Rules "
                             "setting, for this session)")
    parser.add_argument("--dice", metavar="FACES", type=DICE,
                        help="scripted faces in order, or 'ask': real dice, dialled on the "
                             "box's screens (both sides' dice set to Real, for this session)")
    _dice_from(parser)
    parser.add_argument("--config", metavar="FILE", type=SETTINGS_FILE, help=CONFIG)
    _state_dir(parser)
    _trace(parser)
    _speech_dir(parser)
    add_house_rules(parser, "a new battle starts with them, over the config's [house_rules]")


def range_options(parser: argparse.ArgumentParser) -> None:
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
