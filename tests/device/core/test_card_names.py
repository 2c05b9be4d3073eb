"""Card names by language: a card may carry its name and label in each language of the box but
its own (a table named by the language's code: `pl`, `de`), every shipped card does, and a box
in that language shows them wherever a card's name is shown: the roster's rows and hint, the
labels of the pieces it adds ("Strzelec 1", "Schütze 1"), the refusals that name a card. A
broken table, or one of a language the box does not speak, is reported (the file, the field,
what is allowed) and the card loads without it; the command line keeps the card's own names."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from cobi_companion.cards import check, load_cards
from cobi_companion.cards.loader import shipped_folder
from cobi_companion.device.core.app import App
from cobi_companion.rules.card import InfoCard
from cobi_companion.rules.errors import Refusal, RulesError

from tests.conftest import run_cli

from ..conftest import EASY


def test_every_shipped_card_has_its_name_and_label_in_polish() -> None:
    for path in sorted(shipped_folder().glob("*.toml")):
        cards, problems = check(path)
        assert problems == [], path
        for card in cards:
            for language in ("pl", "de"):
                names = card.names_for(language)
                assert names is not None and names.name and names.label, (path.name, language)
    book = load_cards([shipped_folder()])
    polish = {card.key: (card.name_in("pl"), card.short_in("pl")) for card in book.sorted()}
    assert polish["pistol-soldier"] == ("Piechur z pistoletem", "Pistolet")
    assert polish["bofors-37mm"] == ("Działo ppanc Bofors 37 mm", "Bofors")
    assert polish["rifleman"][1] == "Strzelec" and polish["2477"][1] == "Tygrys"
    tiger = book.get("2477")
    assert (tiger.name_in("en"), tiger.short_in("en")) == ("Tiger I", "Tiger")  # English: own


def test_a_broken_polish_table_is_reported_and_the_card_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "odd.toml"
    path.write_text('set_number = 9003\nname = "Odd tank"\nlabel = "Odd"\n'
                    'pl = { name = "", label = "Bardzo dziwny", loud = 1 }\n', encoding="utf-8")
    book = load_cards([tmp_path])
    card = book.cards["9003"]
    assert card.names_for("pl") is None and card.short_in("pl") == "Odd"   # its own names
    problems = {(p.field, p.message) for p in book.problems if p.path == str(path)}
    assert ("pl.label", "'Bardzo dziwny' is not allowed; allowed: a short name in that "
            "language for the small screen, up to 10 letters, like Tygrys") in problems
    assert any(field == "pl.name" and "up to 60 letters" in message
               for field, message in problems)
    assert any(field == "pl.loud" and "allowed fields: name, label" in message
               for field, message in problems)
    cards, found = check(path)
    assert [one.key for one in cards] == ["9003"] and len(found) == 3


def at_the_roster_row(table: Any, key: str) -> tuple[App, int]:
    """New battle's roster, its knob turned to the row of the card `key`: the app and the
    row."""
    table.press("ok")
    app: App = table.box.app
    rows = app.screen.rows(app)
    row = next(i for i, (kind, card) in enumerate(rows) if kind == "card" and card.key == key)
    while table.view.index != row:
        table.press("cw")
    return app, row


def test_a_polish_roster_shows_polish_names_and_labels_its_pieces_in_polish(table_at) -> None:
    table = table_at([], config=replace(EASY, game=replace(EASY.game, language="pl",
                                                           rules="tank")))
    app, row = at_the_roster_row(table, "pistol-soldier")    # Nowa bitwa: the roster
    assert table.view.items[row].startswith("Pistolet")
    assert table.view.hint == "Piechur z pistoletem"
    table.press("axis", "ok")                                # one figure
    assert [piece.label for piece in app.screen.battle.pieces] == ["Pistolet 1"]


def test_a_polish_refusal_names_the_card_in_polish(table_at) -> None:
    app: App = table_at([], config=replace(EASY, game=replace(EASY.game, language="pl"))).box.app
    card: InfoCard = app.book.get("bofors-37mm")
    said = app.say(RulesError(Refusal.DESTROYED, name=card.title))
    assert "Działo ppanc Bofors 37 mm" in said and "AT gun" not in said
    app.settings.language = "en"
    assert "37 mm Bofors AT gun" in app.say(RulesError(Refusal.DESTROYED, name=card.title))


def test_the_command_line_keeps_the_cards_own_names() -> None:
    result = run_cli("cards", "show", "pistol-soldier", "--json")
    assert result.code == 0, result.err
    shown = json.loads(result.out)
    assert shown["name"] == "Soldier with pistol" and shown["label"] == "Pistol"
    assert shown["pl"] == {"name": "Piechur z pistoletem", "label": "Pistolet"}
    assert shown["de"] == {"name": "Pistolenschütze", "label": "Pistole"}


def test_every_shipped_card_has_german_names_and_speech() -> None:
    book = load_cards([shipped_folder()])
    german = {card.key: (card.short_in("de"), card.speech.name("de") if card.speech else None)
              for card in book.sorted()}
    assert german["2477"] == ("Tiger", "Tiger") and german["2456"] == ("7TP", "sieben T P")
    assert german["2474"] == ("Pz I", "Panzer eins") and german["2508"][1] == "Panzer vier"
    assert german["rifleman"][0] == "Schütze" and german["mg-gunner"] == ("MG-Schütze",
                                                                         "Maschinengewehr")
    assert book.get("motorcycle-sidecar").name_in("de") == "Beiwagenkrad"
    assert book.get("pistol-soldier").name_in("de") == "Pistolenschütze"


def test_a_german_roster_shows_a_cards_german_names(table_at, tmp_path: Path) -> None:
    (tmp_path / "odd.toml").write_text(
        'id = "odd-gun"\nname = "Odd gun"\nlabel = "Odd"\nkind = "figure"\n'
        'pl = { name = "Dziwne działo", label = "Dziwne" }\n'
        'de = { name = "Seltsame Kanone", label = "Seltsam" }\n', encoding="utf-8")
    table = table_at([], config=replace(EASY, game=replace(EASY.game, language="de",
                                                           rules="tank"),
                                        paths=replace(EASY.paths, cards_dir=tmp_path)))
    app, row = at_the_roster_row(table, "odd-gun")           # Neue Schlacht: the roster
    assert table.view.items[row].startswith("Seltsam")
    assert table.view.hint == "Seltsame Kanone"
    table.press("axis", "ok")                                # one figure
    assert [piece.label for piece in app.screen.battle.pieces] == ["Seltsam 1"]


def test_a_table_in_a_language_the_box_does_not_speak_is_refused_the_rest_load(
        tmp_path: Path) -> None:
    path = tmp_path / "odd.toml"
    path.write_text('set_number = 9005\nname = "Odd tank"\nlabel = "Odd"\n'
                    'xx = { name = "Zzz", label = "Zz" }\n'
                    'speech = { en = "odd", xx = "zz" }\n', encoding="utf-8")
    (tmp_path / "fine.toml").write_text('set_number = 9006\nname = "Fine tank"\n',
                                        encoding="utf-8")
    book = load_cards([tmp_path])
    problems = {(p.field, p.message) for p in book.problems if p.path == str(path)}
    assert problems == {
        ("xx", "is not a language of the box (the card is played without it); allowed: a "
               "table of names in pl, de"),
        ("speech.xx", "is not a speech field; allowed fields: en, pl, de, gender, gender_en, "
                      "gender_pl, gender_de")}
    odd = book.cards["9005"]                                 # played with its own names
    assert (odd.names, odd.speech, odd.short_in("xx")) == ((), None, "Odd")
    assert "9006" in book.cards and book.get("2477").short_in("pl") == "Tygrys"


def test_a_snapshot_of_a_card_with_pl_names_loads_the_same() -> None:
    # The plain form a snapshot keeps (and an older box kept): the names table by its code.
    old = {"set_number": 9007, "name": "Old tank", "pl": {"label": "Stary"},
           "speech": {"en": "old", "pl": "stary", "gender": "m"}}
    card = InfoCard.from_plain(old)
    assert (card.short_in("pl"), card.short_in("de"), card.speech and card.speech.name("pl")) \
        == ("Stary", "Old", "stary")
    assert card.to_plain() == old and InfoCard.from_plain(card.to_plain()) == card
