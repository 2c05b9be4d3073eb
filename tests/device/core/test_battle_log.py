"""The battle log in the box's language: each line saved as a typed entry (a key of the word
tables and its values) and put into words when the log is shown, so a Polish box shows it in
Polish and a switch of the language re-words it all; the journal keeps the English, and a
battle saved before entries, with sentences for lines, still resumes and shows them."""
from __future__ import annotations

import json
import logging
import re
import string
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.config import Config
from cobi_companion.device.core import i18n, reasons
from cobi_companion.device.core.battle_log import (
    LogEntry,
    by_side,
    english,
    entry,
    loaded,
    said,
    saved,
)
from cobi_companion.device.core.views import Lines
from cobi_companion.device.games.cobra.session import CobraSession
from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.cobra.turns import CobraGame
from cobi_companion.words import catalogue, languages

from ..conftest import EASY, QUICK_HOLDS

# The roster of New battle: the cursor starts on the 7TP; three clicks on is the Tiger, two
# back the Sherman. The Tiger for the Axis, the Sherman for the Allies.
TIGER_VS_SHERMAN = ("ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok")
EASY_MISS = [5, 2, 1, 3, 4]       # the Axis have the initiative; the Tiger's to-hit 1 misses
TANK_TURNS = [4, 2]               # the Axis attack: the Allies defend and play first


def in_language(config: Config, language: str) -> Config:
    return replace(config, game=replace(config.game, language=language))


def read_log(table: Any) -> tuple[str, ...]:
    """The long press menu's Battle log, as the panel shows it; then back to the battle."""
    table.press("back")
    table.choose(i18n.text(table.box.app.settings.language, "battle_log"))
    view = table.view
    assert isinstance(view, Lines)
    lines: tuple[str, ...] = view.lines
    table.press("ok")
    return lines


TIGER = {"en": "Tiger 1", "pl": "Tygrys 1"}     # the Tiger I's piece, by the cards' labels


def easy_round(table: Any, language: str) -> None:
    """Round 1 of an Easy battle: the Axis Tiger misses the Sherman's front, the Allied
    Sherman moves forward a turn of 45° on a road; then round 2's roll-off waits."""
    def t(key: str, **values: object) -> str:
        return i18n.text(language, key, **values)
    table.press(*TIGER_VS_SHERMAN, "axis", "allies")
    table.choose(TIGER[language])           # a piece is labelled in the box's language
    table.choose(t("fire_at", target="Sherman 1"))
    table.press("axis")
    assert table.view.word == t("MISS")
    table.press("ok")
    table.choose("Sherman 1")
    table.choose(t("move"))
    table.press("ok", "cw", "ok", "ok", "cw", "ok")    # forward, 1 turn, not rough, road
    table.press("ok")
    assert table.view.header.title == t("initiative")


def test_the_log_of_an_easy_battle_in_polish(table_at, caplog):
    table = table_at(EASY_MISS, config=in_language(EASY, "pl"))
    with caplog.at_level(logging.INFO, logger="cobi-companion"):
        easy_round(table, "pl")
    assert read_log(table) == (
        "Alianci: Sherman 1: ruch do 27 cm",
        "Oś: Tygrys 1 strzela do Sherman 1 (przód): pudło",
        "runda 1: inicjatywa – Oś",
        "nowa bitwa (Łatwy): Tygrys 1 (Oś), Sherman 1 (Alianci)")
    # the journal keeps the English, as the box has always written it
    journal = [r.getMessage() for r in caplog.records if r.getMessage().startswith("battle ")]
    battle = table.box.app.playing.id
    assert journal == [f"battle {battle}: {line}" for line in (
        "new easy battle: Tygrys 1 (axis), Sherman 1 (allies)",
        "round 1: axis has the initiative",
        "axis Tygrys 1 fires at Sherman 1 (front): miss",
        "allies Sherman 1 moves up to 27 cm")]


def test_switching_the_language_re_words_the_whole_log(table_at):
    table = table_at(EASY_MISS, config=EASY)
    easy_round(table, "en")
    assert read_log(table) == ("allies Sherman 1 moves up to 27 cm",
                               "axis Tiger 1 fires at Sherman 1 (front): miss",
                               "round 1: axis has the initiative",
                               "new easy battle: Tiger 1 (axis), Sherman 1 (allies)")
    table.press("back")
    table.choose("Settings")
    table.choose("Language")                    # English → Polski
    table.press("back")
    assert read_log(table)[1:] == ("Oś: Tiger 1 strzela do Sherman 1 (przód): pudło",
                                   "runda 1: inicjatywa – Oś",
                                   "nowa bitwa (Łatwy): Tiger 1 (Oś), Sherman 1 (Alianci)")
    # saved as entries, not as the words of either language
    first = table.box.store.load_battle()["log"][0]
    assert first["key"] == "log_new_battle" and first["values"]["level"] == "easy"


def test_the_log_of_a_tank_game_turn_in_polish(table_at):
    table = table_at(TANK_TURNS, config=in_language(QUICK_HOLDS, "pl"))
    table.press(*TIGER_VS_SHERMAN, "axis", "allies", "ok")
    table.choose("Sherman 1")                   # alone: activated at once
    table.choose("Ruch")
    table.press("ok", "ok", "ok", "ok")          # forward, no turn, not rough, no road
    assert table.view.word == "22 cm"
    table.press("ok")
    table.choose("Gotowe")            # no other piece: the turn ends
    table.choose("Tygrys 1")
    table.choose("Dowódca na wieżę")
    table.choose("Gotowe")
    assert read_log(table) == (
        "Oś: koniec tury",
        "Oś: Tygrys 1: dowódca na wieży",
        "Oś: aktywacja: Tygrys 1",
        "Alianci: koniec tury",
        "Alianci: Sherman 1: ruch do 22 cm",
        "Alianci: aktywacja: Sherman 1",
        "Oś atakuje, Alianci bronią się",
        "nowa bitwa (Gra czołgowa): Tygrys 1 (Oś), Sherman 1 (Alianci)")


def old_store(tmp_path: Path) -> SqliteStore:
    return SqliteStore(tmp_path / "state" / DATABASE_NAME)


def test_an_old_battle_with_sentences_for_lines_resumes_and_shows_them(table_at, tmp_path):
    store = old_store(tmp_path)
    store.save_battle({"id": "old1", "level": "easy", "round": 1, "first": "axis",
                       "active": "allies", "acted": ["axis"], "defender": None,
                       "winner": None, "log": ["round 1: axis has the initiative",
                                               "axis passes"],
                       "vehicles": [{"label": "Tiger 1", "side": "axis", "set": 2477,
                                     "status": []},
                                    {"label": "Sherman 1", "side": "allies", "set": 2464,
                                     "status": []}]}, [])
    store.close()
    table = table_at([6, 1], config=in_language(EASY, "pl"))
    table.press("ok")                           # Wznów bitwę
    assert read_log(table) == ("axis passes", "round 1: axis has the initiative")
    table.choose("Pas")
    table.choose("tak")                         # the Allies pass: round 2's roll-off
    assert read_log(table) == ("Alianci: pas", "axis passes",
                               "round 1: axis has the initiative")
    log = table.box.store.load_battle()["log"]
    assert log[:2] == ["round 1: axis has the initiative", "axis passes"]
    assert log[2] == {"key": "log_side", "values": {
        "side": "allies", "line": {"key": "log_passes", "values": {}}}}


def test_an_old_cobra_game_with_sentences_for_lines_resumes_and_shows_them(table_at,
                                                                         tmp_path):
    store = old_store(tmp_path)
    store.save_battle({**CobraSession(CobraGame.start("cobra"), "old2").to_dict(),
                       "log": ["GT15 Cobra: game turns 15-27"]}, [])
    store.close()
    table = table_at([], config=in_language(QUICK_HOLDS, "pl"))
    table.press("ok")                           # Wznów Cobrę
    table.press("back")
    table.choose("Co się działo")
    assert " ".join(table.view.lines) == "GT15 Cobra: game turns 15-27"


# ---- the word tables of the log ----

# A value for every name a log template fills, as the box writes them.
SAMPLES: dict[str, Any] = {
    "side": "axis", "winner": "allies", "attacker": "axis", "defender": "allies",
    "line": entry("log_passes"), "turn": 16, "level": "tank", "round": 2, "n": 2,
    "rules": (entry("log_house_rule", rule="easy_round", choice="easy_round_both_pass"),),
    "rule": "sherman_reload", "choice": "sherman_reload_text",
    "pieces": (entry("log_roster_piece", name="Tiger 1", side="axis"),),
    "name": "Rifle 1 (3)", "label": "Tiger 1", "firer": "Tiger 1", "target": "Sherman 1",
    "targets": ("Rifle 1 (3)", "MG 1 (1)"), "members": ("Tiger 1", "Rifle 1 (3)"),
    "facing": "rear", "effect": "gun_destroyed", "weapon": "medium MG", "down": 2, "of": 3,
    "cm": 30.5, "tank": "Tiger 1", "rolled": 3, "eliminated": 2, "guns": 2, "spotter": "Tiger 1",
    "carrier": "Sherman 1", "question": "fire_range", "sign": ">", "threshold": 100,
    "spread": 0.5, "call": "too_close", "value": -2, "low": 28, "high": 40,
    "situation": "soft_cover", "scenario": "buildup", "title": "Battle of the Build-Up",
    "first": 1, "last": 14, "nation": "german", "phase": "initial_movement", "die": 4,
    "result": entry("read_crt"), "weather": "storm", "how": entry(
        "log_weather_roll", column="A", die=3, modifier=-1, modified=2),
    "supply": CobraGame.start("cobra").with_weather(Weather.STORM)[1],
    "note": CobraGame.start("cobra").with_weather(Weather.CLEAR)[1], "column": "2:1",
    "odds": entry("log_carpet_odds"), "attack": 9, "defence": 3, "base": "3:1", "net": -1,
    "track": "german_vp", "old": 5, "new": 6, "modifier": 1, "modified": 5,
    "vehicle": "Sherman 1", "when": "advance", "cost": 2, "air": 1, "naval": 2,
    "hqs": ("II SS Pz", "XLVII Pz"), "hq_event": "displaced", "hq_state": "eliminated",
    "us": 4, "british": 3,
    "vp_source": "exit_us_mech", "vp": -15, "division": 347, "units": 2,
    "increase": 2, "ma": 6, "army": "british", "step_kind": "mech",
    "landing": "omaha", "start": "1:2", "lost": 4, "landed": 6, "direction": "south",
    "where": entry("log_read_diagram"), "most": 6, "left": 2,
}
# The log's templates, and the words of the values only the log names (a shot's effect).
KEYS = sorted(key for key in i18n.panel_keys() if key.startswith(("log_", "effect_")))


def templates(key: str) -> tuple[str, str]:
    return catalogue.text("en", key), catalogue.text("pl", key)
# Words a Polish template may share with the English one: centimetres, a place's name.
SHARED = {"cm", "brest"}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def words(template: str) -> set[str]:
    """The words of a template outside its placeholders, lower case."""
    return {w.lower() for w in re.findall(r"[^\W\d_]{2,}", re.sub(r"\{[^}]*\}", " ", template))}


def polish(line: LogEntry) -> str:
    return said(line, "pl", partial(i18n.text, "pl"), partial(reasons.say, "pl"))


@pytest.mark.parametrize("key", KEYS)
def test_the_polish_words_of_the_log_are_polish(key: str) -> None:
    english_template, polish_template = templates(key)
    assert english_template and polish_template
    assert words(polish_template) & words(english_template) <= SHARED


@pytest.mark.parametrize("key", [key for key in KEYS if key.startswith("log_")])
def test_every_log_template_is_filled_in_every_language(key: str) -> None:
    names = set().union(*map(placeholders, templates(key)))
    line = entry(key, **{name: SAMPLES[name] for name in names})
    for language in languages.codes():
        text = said(line, language, partial(i18n.text, language), partial(reasons.say, language))
        assert text and "{" not in text and "}" not in text


def test_an_entry_is_saved_as_data_and_loads_the_same() -> None:
    line = by_side("allies", entry("log_fires_weapon", firer="MG 1", weapon="medium MG",
                                   targets=("Rifle 1 (3)", "Bofors 1 (3)"), down=1, of=6))
    weather = entry("log_game_turn", turn=16, line=entry(
        "log_weather", weather="storm", how=SAMPLES["how"], supply=SAMPLES["supply"]))
    for each in (line, weather):
        kept = json.loads(json.dumps(saved(each)))
        assert loaded(kept) == each
    assert english(line) == "allies MG 1 fires medium MG at Rifle 1 (3), Bofors 1 (3): 1 of 6 " \
                            "down"
    assert english(weather) == "GT16 weather storm (A: 3-1 = 2); German attack supply +3 in " \
                               "storm weather (11.0d)"
    assert polish(weather) == "T16 pogoda: Burze (A: 3-1 = 2); zaopatrzenie ataku Niemców " \
                               "+3, pogoda: Burze (11.0d)"
    assert loaded("axis passes") == "axis passes"


def test_numbers_and_words_of_the_rules_in_the_polish_log() -> None:
    remembered = entry("log_learned_range", weapon="he", cm=30.5, value=-2, low=28, high=40)
    assert english(remembered) == "Soft Targets Table: he value for 30.5 cm -2 remembered " \
                                  "for 28-40 cm"
    assert polish(remembered) == "Tabela celów miękkich: pocisk, 30,5 cm: zapamiętano -2 dla " \
                                  "28–40 cm"
    guns = entry("log_runs_over_guns", tank="Tiger 1", pieces=("Bofors 1 (3)",), rolled=0,
                 eliminated=3, guns=1)
    assert english(guns).endswith("eliminated 3, 1 gun eliminated")
    shot = entry("log_fires_at", firer="Tiger 1", target="Sherman 1", facing="side",
                 effect="immobilized")
    assert english(shot) == "Tiger 1 fires at Sherman 1 (side): immobilized"
    assert polish(shot) == "Tiger 1 strzela do Sherman 1 (bok): unieruchomiony"
