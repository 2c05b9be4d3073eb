"""Every list is written once: the sensor models, the display drivers, the voice and rules
settings, Cobra's armies and tracks each have one source, and the other places derive theirs
from it. A list kept twice drifts: a sensor model added to the parsers' list was refused by the
settings' check, which kept a list of its own."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections import defaultdict
from dataclasses import fields
from pathlib import Path
from typing import Any, get_args

import pytest
from cobi_companion.device import config, config_check
from cobi_companion.device.config import parse_config
from cobi_companion.device.core.app import VOICES
from cobi_companion.device.core.battle_state import BATTLE_TYPES, battle_type
from cobi_companion.device.games.registry import BOX_GAMES
from cobi_companion.device.ports import panel, range_sensor, wiring
from cobi_companion.device.ports.errors import ConfigError
from cobi_companion.rules.cobra.movement import ARMIES
from cobi_companion.rules.cobra.replacement_step import SIDES
from cobi_companion.rules.cobra.turns import TRACKS, Tracks
from cobi_companion.rules.levels import RULE_SETS

ROOT = Path(__file__).resolve().parents[2]
SMALLEST = 3          # two words together (a language pair, a side pair) are often no list
# A table's keys (a dict written at a module's top) are a list of what it maps: two keys are a
# list already (the two rules levels, "easy" and "tank", were keys of four tables in four
# modules). A dict written in a function is a record (`to_dict`), not a list.
SMALLEST_KEYS = 2


def word_lists(source: str) -> list[tuple[frozenset[str], int]]:
    """Each list of words written in `source` with its line: a `Literal[...]`, a tuple, list or
    set of SMALLEST or more strings, and a table's keys when SMALLEST_KEYS or more are strings
    (`**` in it spreads another: the keys written are counted)."""
    found = []
    inside_literal: set[int] = set()
    module = ast.parse(source)
    tables = {id(statement.value) for statement in module.body
              if isinstance(statement, (ast.Assign, ast.AnnAssign))}
    for node in ast.walk(module):
        words: list[ast.expr] | None = None
        smallest = SMALLEST
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                and node.value.id == "Literal":
            words = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
            inside_literal.add(id(node.slice))
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and id(node) not in inside_literal:
            words = list(node.elts)
        elif isinstance(node, ast.Dict) and id(node) in tables:
            words, smallest = [key for key in node.keys if key is not None], SMALLEST_KEYS
        texts = [w.value for w in words or () if isinstance(w, ast.Constant)
                 and isinstance(w.value, str)]
        if words and len(words) >= smallest and len(texts) == len(words):
            found.append((frozenset(texts), node.lineno))
    return found


def places_of_lists(files: list[Path], root: Path) -> dict[frozenset[str], set[str]]:
    """Where each list of words is written: "file:line" (the file from `root`)."""
    places: dict[frozenset[str], set[str]] = defaultdict(set)
    for path in files:
        for words, line in word_lists(path.read_text(encoding="utf-8")):
            places[words].add(f"{path.relative_to(root)}:{line}")
    return places


def test_every_list_of_words_is_written_in_one_module() -> None:
    files = [p for part in ("rules", "words", "cards", "device")
             for p in (ROOT / part).rglob("*.py")]
    assert len(files) > 100
    twice = {", ".join(sorted(words)): sorted(where)
             for words, where in places_of_lists(files, ROOT).items()
             if len({place.split(":")[0] for place in where}) > 1}
    assert twice == {}, f"lists written in more than one module (derive one from the other): " \
                        f"{twice}"


def test_the_list_finder_sees_a_list_written_twice(tmp_path: Path) -> None:
    one, other = tmp_path / "one.py", tmp_path / "other.py"
    one.write_text('from typing import Literal\nKind = Literal["a", "b", "c"]\n'
                   'PAIR = ("x", "y")\n', encoding="utf-8")
    other.write_text('KINDS = ("c", "b", "a")\nNOT_WORDS = ("a", "b", 3)\nD = {"x": 1, "y": 2}'
                     '\nKIND = ["a", "b", "c"]\n', encoding="utf-8")
    assert word_lists(one.read_text()) == [(frozenset("abc"), 2)]
    assert sorted(line for _, line in word_lists(other.read_text())) == [1, 3, 4]
    assert places_of_lists([one, other], tmp_path) == {
        frozenset("abc"): {"one.py:2", "other.py:1", "other.py:4"}, frozenset("xy"): {"other.py:3"}}


LEVEL_TABLES = {
    "state.py": 'BATTLES = {"easy": EasyBattle, "tank": TankBattle}\n',
    "roster.py": 'LEVELS: dict[str, Level] = {"easy": Level(False), "tank": Level(True)}\n',
    "explain.py": 'def titled(level):\n    return {"easy": "Easy level", **NAMES}[level]\n'
                  'LEVEL_TITLES = {"easy": "Easy level", "tank": "Tank Game", **{}}\n',
    "record.py": 'def to_dict(self):\n    return {"easy": self.easy, "tank": self.tank}\n',
}


def test_the_list_finder_sees_a_table_s_keys_written_twice(tmp_path: Path) -> None:
    """The rules levels were the keys of a table in four modules: two keys a table maps are a
    list; a dict made in a function is a record, and a dict spread (`**`) adds no key."""
    for name, source in LEVEL_TABLES.items():
        (tmp_path / name).write_text(source, encoding="utf-8")
    files = sorted(tmp_path.iterdir())
    assert places_of_lists(files, tmp_path) == {
        frozenset({"easy", "tank"}): {"state.py:1", "roster.py:1", "explain.py:3"}}


def test_the_settings_allow_every_sensor_model_the_parsers_know_and_no_other() -> None:
    assert tuple(range_sensor.MODELS) == wiring.SENSOR_MODELS
    for model in range_sensor.MODELS:
        sensor = {"name": "a", "port": "/dev/ttyUSB0", "model": model}
        assert parse_config({"sensors": [sensor]}).sensors[0].model == model
    with pytest.raises(ConfigError) as refused:
        parse_config({"sensors": [{"name": "a", "port": "/dev/ttyUSB0", "model": "sonar-9"}]})
    assert "sensors.0.model" in str(refused.value)
    assert all(model in str(refused.value) for model in range_sensor.MODELS)


ADDED = """
import json
from dataclasses import replace
from cobi_companion.device.ports import range_sensor
range_sensor.MODELS["sonar-9"] = replace(range_sensor.MODELS["a02yyuw"], name="sonar-9")
from cobi_companion.device.config import parse_config
from cobi_companion.device.ports.errors import ConfigError
try:
    got = parse_config({"sensors": [{"name": "a", "port": "/dev/ttyUSB0", "model": "sonar-9"}]})
    print(json.dumps(got.sensors[0].model))
except ConfigError as exc:
    print(json.dumps(str(exc)))
"""


def test_a_sensor_model_added_to_the_parsers_list_is_one_the_settings_allow() -> None:
    """The model list is the parsers' (`sensor_models.MODELS`): one added there, before the
    settings' check is loaded, is a model the settings allow, with nothing else edited."""
    proc = subprocess.run([sys.executable, "-c", ADDED], capture_output=True, text=True,
                          check=True, timeout=120)
    assert json.loads(proc.stdout) == "sonar-9"


def test_every_laser_model_has_its_codes_and_no_other() -> None:
    lasers = {name for name, model in range_sensor.MODELS.items() if model.family == "benewake"}
    assert set(range_sensor._LASERS) == lasers


def literal_fields() -> list[tuple[str, Any]]:
    """The settings' fields whose values are words: (place, field info)."""
    found = []
    for section, info in config_check.ConfigSchema.model_fields.items():
        schema = info.annotation
        if section == "sensors":
            schema = get_args(schema)[0]
        for name, field in getattr(schema, "model_fields", {}).items():
            if field.annotation is not None and get_args(field.annotation) and \
                    all(isinstance(word, str) for word in get_args(field.annotation)):
                found.append((f"{section}.{name}", field))
    return found


def test_each_setting_s_description_names_every_word_it_allows() -> None:
    fields_ = dict(literal_fields())
    assert {"display.driver", "game.rules", "game.voice", "pins.factory",
            "sensors.model"} <= set(fields_)
    for place, field in fields_.items():
        said = [word for word in get_args(field.annotation) if word not in field.description]
        assert said == [], f"{place}'s description does not name {said}"


def test_the_settings_words_are_the_boxes() -> None:
    assert get_args(config_check.DisplaySchema.model_fields["driver"].annotation) == \
        panel.DRIVERS == get_args(config.Driver)
    assert get_args(config.Voice) == VOICES
    assert get_args(config.Rules) == tuple(RULE_SETS)


def test_each_rules_level_has_its_battle_type_and_its_game() -> None:
    """The rules levels are RULE_SETS's; each battle type names its level once (a class
    constant, saved as "level"), and the box's game of that id plays that type."""
    levels = tuple(RULE_SETS)
    assert tuple(kind.level for kind in BATTLE_TYPES) == levels
    for level in levels:
        assert BOX_GAMES.get(level).state_type() is battle_type(level)
        assert "level" not in {f.name for f in fields(battle_type(level))}
    with pytest.raises(ValueError, match="'cobra'"):
        battle_type("cobra")


def test_cobra_s_armies_and_tracks_are_written_once() -> None:
    assert SIDES is ARMIES
    assert TRACKS == tuple(f.name for f in fields(Tracks)) == tuple(Tracks().to_dict())
