"""No row of the database can stop the box from starting: random settings rows and battle
rows (JSON of any shape, text that is not JSON, nesting thousands deep) under the real box
(build: its SQLite store on a real file, app, screens, gpiozero's mock pins). It starts, shows
a first screen, and a bad row is reported and kept rather than used or deleted."""
from __future__ import annotations

import json
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from cobi_companion.device.box import build, setting_problem, usable_settings
from cobi_companion.device.config import parse_config
from cobi_companion.device.core.app import Settings
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.speech import NoSpeech
from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hypothesis import given, settings
from hypothesis import strategies as st

NAMES = [*Settings.__dataclass_fields__, "nonsense", ""]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=8)
deep = st.integers(min_value=1, max_value=6000).map(lambda n: "[" * n + "]" * n)
row_text = json_values.map(json.dumps) | st.text(max_size=30) | deep | st.just("{\"a\": ")


def battles(ids: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """A battle row: any JSON object (some near a battle's shape) or any text."""
    near = st.fixed_dictionaries({"id": ids, "level": st.sampled_from(["easy", "tank", "x"])},
                                 optional={"pieces": json_values, "round": json_values,
                                           "game": st.just("cobra"), "format": json_values,
                                           "outcome": json_values})
    return near.map(json.dumps) | row_text


def start_on(state: Path) -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    box = build(parse_config({"display": {"driver": "dummy"}}), MemoryDisplay(),
                pin_factory=factory, state_dir=state, speech=NoSpeech())
    try:
        box.loop.draw()
        assert box.loop.frames == 1
        assert box.app.view().header.title
    finally:
        box.close()
        factory.reset()


@settings(max_examples=60)
@given(rows=st.lists(st.tuples(st.sampled_from(NAMES), row_text), max_size=6),
       battle=st.none() | battles(st.text(max_size=4)))
def test_the_box_starts_on_any_rows(rows: list[tuple[str, str]], battle: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        state = Path(folder)
        SqliteStore(state / DATABASE_NAME).close()
        with closing(sqlite3.connect(state / DATABASE_NAME)) as conn, conn:
            conn.executemany("INSERT OR REPLACE INTO settings VALUES (?, ?)", rows)
            if battle is not None:
                conn.execute("INSERT INTO battle VALUES (1, 'b1', ?, 'now')", (battle,))
        start_on(state)
        with closing(sqlite3.connect(state / DATABASE_NAME)) as conn:
            kept = conn.execute("SELECT state FROM battle").fetchone()
        assert (kept is None) == (battle is None)         # a battle row is never deleted
        if battle is not None:
            assert kept[0] == battle


def test_a_settings_row_of_the_wrong_kind_comes_from_the_files_and_is_listed(tmp_path):
    SqliteStore(tmp_path / DATABASE_NAME).close()
    with closing(sqlite3.connect(tmp_path / DATABASE_NAME)) as conn, conn:
        conn.executemany("INSERT INTO settings VALUES (?, ?)", [
            ("language", '"pl"'), ("volume", '"loud"'), ("voice", '"shout"'),
            ("brightness", "true"), ("screen_off_min", "-5"), ("armies", "[1]")])
    store = SqliteStore(tmp_path / DATABASE_NAME)
    assert usable_settings(store) == {"language": "pl"}
    assert sorted(bad.key for bad in store.bad_rows) == [
        "armies", "brightness", "screen_off_min", "voice", "volume"]
    store.close()
    factory = MockFactory(pin_class=MockPWMPin)
    box = build(parse_config({}), MemoryDisplay(), pin_factory=factory, state_dir=tmp_path,
                speech=NoSpeech())
    try:
        assert box.app.settings.volume == 100 and box.app.settings.language == "pl"
        listed = [line for line in box.app.sources.skipped if "settings row" in line]
        assert len(listed) == 5 and all(str(tmp_path / DATABASE_NAME) in line
                                        for line in listed)
    finally:
        box.close()
        factory.reset()


def test_each_setting_takes_only_its_own_kind() -> None:
    assert setting_problem("volume", True) == "bool, not int"
    assert setting_problem("sound", 1) == "int, not bool"
    assert setting_problem("language", "de") is None              # the registry's codes
    assert setting_problem("language", "xx") == "'xx' is not one of en, pl, de"
    assert setting_problem("volume", 101) == "101 is not from 0 to 100"
    assert setting_problem("armies", {"easy": [{"label": "Tiger 1"}]}) is None
