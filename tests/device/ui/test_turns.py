"""Text too long or too tall for its place is given the rows it needs or shown in turns, never
cut (renderer.py): a hint whose letters reach above its row, an outcome word too long to be big
whole, a menu item taller than the menu, a detail in turns beside its arrow, and a roll's
total beside many dice under two rows of text."""
from __future__ import annotations

from dataclasses import replace

from cobi_companion.device.core.views import BigWord, Header, Menu, Roll, View
from cobi_companion.device.ui import renderer
from cobi_companion.device.ui.big import MIN_BIG
from cobi_companion.device.ui.glyphs import font, text_width
from cobi_companion.device.ui.renderer import HEIGHT, Shown, frame, overflow, pages


def turns_of(view: View) -> list[View]:
    """The view at each of its turns."""
    return [replace(view, header=replace(view.header, page=turn)) for turn in range(pages(view))]


def shown(view: View, place: str) -> list[Shown]:
    """The pieces of `place` over every turn of the view."""
    return [piece for turn in turns_of(view) for piece in frame(turn).shown
            if piece.place == place]


def test_a_hint_with_letters_above_its_row_takes_the_rows_they_need() -> None:
    plain = Menu(Header("Settings"), ("Sound", "Language"), 0, "OK = choose")
    tall = replace(plain, hint="OK = Übersicht [1]")
    assert renderer.hint_height(plain.hint) == renderer.HINT_H          # as every English hint
    assert renderer.hint_height(tall.hint) > renderer.HINT_H
    assert renderer.hint_height("") == 0
    hint = shown(tall, "hint")[0]
    assert hint.box[1] == HEIGHT - renderer.hint_height(tall.hint)
    assert overflow(tall) == []
    items = shown(tall, "item")
    assert max(piece.box[3] for piece in items) <= hint.box[1]        # the menu above it


def test_an_outcome_word_too_long_to_be_big_whole_is_big_in_turns() -> None:
    word = "GÉRMÄŃŚ: ÖPÉRÄTIÖŃÄL VÍĆTÖRÝ"
    view = BigWord(Header("Victory"), word, "123 cm", "OK = next")
    assert pages(view) > 1
    pieces = shown(view, "word")
    assert " ".join(piece.text for piece in pieces) == word           # every word, in order
    assert all(piece.size >= MIN_BIG for piece in pieces)
    assert all(overflow(turn) == [] for turn in turns_of(view))


def test_a_word_that_fits_is_not_shown_in_turns() -> None:
    view = BigWord(Header("Fire"), "DESTROYED", "→ Tiger 1", "OK = next")
    assert pages(view) == 1 and [piece.text for piece in shown(view, "word")] == ["DESTROYED"]


def test_a_menu_item_taller_than_the_menu_is_shown_whole_in_turns() -> None:
    item = " ".join(["Take back: German full mechanised division in supply west of 3900"] * 2)
    view = Menu(Header("Victory points"), (item, "Back"), 0, "OK = choose")
    assert pages(view) > 1
    rows = [piece.text for piece in shown(view, "item") if piece.source == item]
    assert " ".join(rows).split() == item.split()
    assert all(overflow(turn) == [] for turn in turns_of(view))


def test_a_detail_in_turns_is_wrapped_beside_its_arrow() -> None:
    view = BigWord(Header("Sherman 1"), "UTKNĄŁ",
                   "→ Tigerwmwmw 1 · 9 − 8 = 1 · działo załadowane", "OK = dalej")
    assert pages(view) > 1
    for piece in shown(view, "detail"):
        assert piece.face is not None
        assert text_width(piece.text, font(*piece.face)) <= piece.box[2] - piece.box[0]


def test_a_total_beside_many_dice_under_two_rows_of_text_has_room() -> None:
    view = Roll(Header("Tiger 1"), (6, 5, 4, 3, 2, 1) * 2 + (6, 5, 4, 3, 2),
                "Dámágë lö lörëm ípsüm dölör", "12 díćë + 5 mörë lö", "= 17")
    assert overflow(view) == []
    assert [piece.text for piece in shown(view, "total")] == ["= 17"]
