"""Polish card names: a card may carry its name and label in Polish (its `pl` table), every
shipped card does, and a Polish box shows them wherever a card's name is shown: the roster's
rows and hint, the labels of the pieces it adds ("Strzelec 1"), the refusals that name a card.
A broken `pl` table is reported (the file, the field, what is allowed) and the card loads
without it; the command line keeps the card's own names."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

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
            assert card.pl is not None and card.pl.name and card.pl.label, path.name
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
    assert card.pl is None and card.short_in("pl") == "Odd"      # played with its own names
    problems = {(p.field, p.message) for p in book.problems if p.path == str(path)}
    assert ("pl.label", "'Bardzo dziwny' is not allowed; allowed: a short name in Polish for "
            "the small screen, up to 10 letters, like Tygrys") in problems
    assert any(field == "pl.name" and "up to 60 letters" in message
               for field, message in problems)
    assert any(field == "pl.loud" and "allowed fields: name, label" in message
               for field, message in problems)
    cards, found = check(path)
    assert [one.key for one in cards] == ["9003"] and len(found) == 3


def test_a_polish_roster_shows_polish_names_and_labels_its_pieces_in_polish(table_at) -> None:
    table = table_at([], config=replace(EASY, game=replace(EASY.game, language="pl",
                                                           rules="tank")))
    table.press("ok")                                        # Nowa bitwa: the roster
    app = table.box.app
    rows = app.screen.rows(app)
    row = next(i for i, (kind, card) in enumerate(rows)
               if kind == "card" and card.key == "pistol-soldier")
    while table.view.index != row:
        table.press("cw")
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
