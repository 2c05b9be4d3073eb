"""A saved battle that cannot be resumed now is never deleted: it stays in the database, the
start menu says why (the card that is missing, the save format another version wrote) and
offers to keep it or put it away (asked); with the card back, it resumes. And saving that
stops or works again during play is shown over the screen of the moment and said. On the real
box: its app, store (a real SQLite file), screens, gpiozero's mock pins."""
from __future__ import annotations

import json
import logging
import sqlite3
from contextlib import closing
from dataclasses import replace
from pathlib import Path

from cobi_companion.device.config import Loaded
from cobi_companion.device.ports.speech import RecordingSpeech
from cobi_companion.device.ports.store import DATABASE_NAME, read_battle

from ..conftest import QUICK_HOLDS

GOOD = 'set_number = 9100\nname = "Good"\ndamage = 3\n'


def with_cards(folder: Path):
    return replace(QUICK_HOLDS, game=replace(QUICK_HOLDS.game, rules="easy"),
                   paths=replace(QUICK_HOLDS.paths, cards_dir=folder))


def loader(config):
    return lambda: Loaded(config, (), (), ())


def battle_row(state: Path) -> str:
    with closing(sqlite3.connect(state / DATABASE_NAME)) as conn:
        row = conn.execute("SELECT state FROM battle").fetchone()
    return "" if row is None else str(row[0])


def flat(view) -> str:
    return " ".join(" ".join(view.lines).split())


def play_with_the_stick_card(table_at, stick: Path) -> str:
    stick.mkdir(parents=True)
    (stick / "9100-good.toml").write_text(GOOD)
    first = table_at([4, 2, 6, 6, 6], config=with_cards(stick))
    first.press("ok")
    first.to_card("Good")
    first.press("axis")
    first.to_card("Sherman M4A1")
    first.press("allies", "ok", "axis", "allies")
    saved = first.box.store.load_battle()
    assert saved is not None and "9100" in json.dumps(saved["pieces"])
    first.close()
    return battle_row(first.box.store.path.parent)


def test_a_battle_with_a_card_of_a_stick_that_is_out_stays_and_resumes_when_it_is_back(
        table_at, tmp_path, caplog):
    stick = tmp_path / "stick" / "cards"
    row = play_with_the_stick_card(table_at, stick)
    stick.rename(tmp_path / "stick" / "away")                # the stick is out
    config = with_cards(stick)
    with caplog.at_level(logging.ERROR, "cobi-companion"):
        table = table_at([6, 6], config=config, load=loader(config))
    assert table.box.app.kept is not None and table.box.app.kept.card == "9100"
    assert "cannot be resumed now (it stays saved): it needs the card '9100'" in caplog.text
    items = table.view.items
    assert "Resume battle" not in items and "Saved battle" in items
    table.choose("Saved battle")
    assert "needs the card 9100, which is not here now" in flat(table.view)
    assert battle_row(tmp_path / "state") == row              # not deleted, not changed
    table.press("ok")
    assert list(table.view.items) == ["Keep it", "Put it away"]
    table.press("ok")                                         # keep it
    assert "Saved battle" in table.view.items
    (tmp_path / "stick" / "away").rename(stick)              # the stick is back
    table.reload()
    assert table.box.app.kept is None and table.box.app.state is not None
    assert table.view.header.title == "Settings read again"
    table.press("ok")
    assert table.view.items[0] == "Resume battle"
    table.press("ok")
    assert table.view.header.title != "COBI Companion"       # the battle goes on


def test_a_battle_kept_is_put_away_only_when_the_players_say_yes(table_at, tmp_path):
    stick = tmp_path / "stick" / "cards"
    play_with_the_stick_card(table_at, stick)
    stick.rename(tmp_path / "stick" / "away")
    table = table_at([6, 6], config=with_cards(stick))
    table.choose("Saved battle")
    table.press("ok", "cw", "ok")                             # Put it away
    assert table.view.header.title == "Put the saved battle away for good?"
    table.press("ok")                                         # no is lit: no
    assert battle_row(tmp_path / "state") != "" and "Saved battle" in table.view.items
    table.choose("New battle")                               # a new one asks too
    assert table.view.header.title == "New game: put the saved battle away?"
    table.press("ok")
    assert battle_row(tmp_path / "state") != ""
    table.choose("Saved battle")
    table.press("ok", "cw", "ok", "cw", "ok")                 # put it away: yes
    assert "Saved battle" not in table.view.items
    assert battle_row(tmp_path / "state") == ""


def a_battle_begun(table_at, tmp_path):
    """A state folder whose store holds an Easy battle just begun (its box closed)."""
    state = tmp_path / "state"
    first = table_at([4, 2, 6, 6], state_dir=state)
    first.press("ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok", "axis", "allies")
    first.close()
    return state


def test_a_battle_another_version_wrote_says_its_format_and_stays(table_at, tmp_path):
    state = a_battle_begun(table_at, tmp_path)
    with closing(sqlite3.connect(state / DATABASE_NAME)) as conn, conn:
        data = json.loads(conn.execute("SELECT state FROM battle").fetchone()[0])
        assert data["format"] == 2                          # written with each save
        data["format"] = 7
        conn.execute("UPDATE battle SET state = ?", (json.dumps(data),))
    row = battle_row(state)
    table = table_at([6], state_dir=state)
    assert table.box.app.kept is not None and table.box.app.kept.format == "7"
    table.choose("Saved battle")
    assert "another version of the box (save format 7)" in flat(table.view)
    assert battle_row(state) == row


def test_a_battle_saved_as_format_1_still_resumes(table_at, tmp_path):
    """Format 1 (every list in the battle row, as boxes before format 2 wrote it) resumes."""
    state = a_battle_begun(table_at, tmp_path)
    with closing(sqlite3.connect(state / DATABASE_NAME)) as conn, conn:
        found = read_battle(conn)
        assert found is not None
        whole = {**found[0], "format": 1}                 # its log back in the row, format 1
        conn.execute("DELETE FROM grown")
        conn.execute("UPDATE battle SET state = ?", (json.dumps(whole),))
    table = table_at([6], state_dir=state)
    assert table.box.app.kept is None
    assert table.box.app.state is not None
    assert len(table.box.app.state.log) == len(found[0]["log"]) > 0
    assert "Resume battle" in table.view.items


def test_saving_that_stops_and_works_again_is_a_notice_over_play_and_is_said(
        table_at, tmp_path, caplog):
    voice = RecordingSpeech()
    table = table_at([4, 2] + [6] * 30, speech=voice)
    table.press("ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok", "axis")
    store = table.box.store
    conn = store._conn
    # SQLite refuses every write on this connection, as on a card remounted read-only; a
    # new connection (the store's next try) writes again, as after the remount back.
    conn.execute("PRAGMA query_only = 1")
    playing = table.box.app.screen
    with caplog.at_level(logging.WARNING, "cobi-companion"):
        table.press("allies")                                  # the roll-off: saved
        assert not store.can_save
        assert table.view.header.title == "Cannot save!"
        assert "The box cannot save now" in flat(table.view)
        assert "cannot save" in " ".join(u.text for u in voice.said).lower()
        under = table.box.app.screen.under
        assert under is not None and under is not playing      # the outcome of the roll-off
        table.tap("ok")
        assert table.box.app.screen is under                    # exactly where play was
        table.press("back")
        table.choose("Quick dice")
        for _ in range(20):                 # each die saved, in memory; the file tried again
            table.press("axis")
            if store.can_save:
                break
        assert store.can_save
        assert table.view.header.title == "Saving again"
        assert "Saving works again" in voice.said[-1].text
        table.press("ok")
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "cannot save" in errors[0].getMessage()
    assert any("saving works again" in r.getMessage() for r in caplog.records)
