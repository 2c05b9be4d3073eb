"""No text is ever cut on the panel, in English or Polish: every frame of the tour (tour.py: the
real box on mock pins, cards with the longest names and labels, two-digit pieces and rounds,
a Tiger's damage dice) is checked for text that does not fit its box, for glyphs cut by their
box, for text left out or cut short with "…", and for outcome words drawn small; and every
string of i18n is shown on the tour, or listed below with the reason it is not on the panel.

Most strings are reached by playing the box. The words it says only inside its sentences are
shown in sentences of the box's own making, with the longest values, where the box shows
them (tour.py's journey_words): the words of the rules a refusal or a Cobra note names (a
card's fields, the distances, the actions, kinds of piece and weapons, Cobra's roles, modifiers
and shifts, the levels of victory, "and" and "none" in a list) in a notice of a battle and under
Cobra's header; every kind of line of the battle log (log_words.py: each of its templates and
the words of the rules it names) in the log of a battle and of a Cobra game, saved with those
lines and read from the menu; and the die of every kind of roll on the real-dice dial (the
need_* words). Those frames are checked like every other.
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.core import i18n
from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll, View
from cobi_companion.device.ui import renderer
from cobi_companion.device.ui.big import MIN_BIG
from cobi_companion.device.ui.glyphs import PHASES, FreeFont, font, glyph, lay, tracking
from cobi_companion.device.ui.renderer import (
    ELLIPSIS,
    HEIGHT,
    WIDTH,
    Frame,
    Shown,
    frame,
    last_row,
    overflow,
    rows,
    rows_shown,
)
from PIL import Image
from tour import LANGUAGES, each_language, in_language

TOUCH = 1       # pixels two neighbouring glyphs may share: see `overlaps`
DEVICE = Path(__file__).resolve().parents[3] / "device"
# The strings of i18n the panel never shows, and why.
NOT_ON_THE_PANEL = {
    "need_initiative": "never asked for: the roll-off's dial names its own question, "
                       "\"Axis: Initiative\" or \"Axis: Who attacks?\" (games/battle.py)",
    # The settings row shows each language by the registry's name (games/settings.py): the
    # catalogues' two words for it are left for the integrator to remove.
}


def distinct(seen: list[Any]) -> list[View]:
    """Each view of the tour once, in the order first drawn, every turn of a paged title."""
    views: dict[View, None] = {}
    for one in seen:
        if one.drawn is not None:           # the frame the tour drew it with
            FRAMES.setdefault(one.view, one.drawn)
        turns = drawn(one.view).pages
        for turn in range(turns):
            views[replace(one.view, header=replace(one.view.header, page=turn))] = None
    return list(views)


@pytest.fixture
def views(tour_frames: Mapping[str, list[Any]], language: str) -> dict[str, list[View]]:
    """The distinct views of the tour in the test's language, found once a process."""
    if language not in VIEWS:
        VIEWS[language] = distinct(tour_frames[language])
    return {language: VIEWS[language]}


VIEWS: dict[str, list[View]] = {}


def drawn(view: View) -> Frame:
    """`frame(view)`, kept for the process: the tests below read the frame of each of the
    tour's ten thousand views, and the renderer keeps only the last few (a box draws a
    view once). The frame is the renderer's, drawn once; nothing here changes it."""
    found = FRAMES.get(view)
    if found is None:
        found = FRAMES[view] = frame(view)
    return found


FRAMES: dict[View, Frame] = {}


# ---- what the tour went through ----

@pytest.mark.parametrize("language", each_language(LANGUAGES))
def test_the_tour_shows_every_kind_of_screen_with_the_longest_texts(
        language: str, views: dict[str, list[View]], tour: Any,
        taken_tour: Mapping[str, Any]) -> None:
    shown = views[language]
    assert {type(view) for view in shown} == {Menu, Roll, BigWord, Lines}
    assert max(view.header.round or 0 for view in shown) >= 12
    assert any(re.search(r"\w{10} 12\b", text) for view in shown
               for text in tour.view_texts(view))                          # a long label
    cards = [card for app in taken_tour[language].said.apps.values()
             for card in app.book.sorted() if len(card.name_in(language)) >= tour.NAME_MAX - 2]
    names = {card.name_in(language) for card in cards}
    titles = {card.title_in(language) for card in cards if card.set_number is not None}
    roster = i18n.text(language, "roster")
    assert any(view.hint in names for view in shown                    # a long card name:
               if isinstance(view, Menu) and view.header.title == roster)  # the roster's hint
    assert any(title in line for view in shown if isinstance(view, Lines)  # and a card's
               for line in view.lines for title in titles)             # title in a reason
    assert max(len(view.faces) for view in shown if isinstance(view, Roll)) >= 17
    assert any(renderer.pages(view) > 1 for view in shown)       # a title shown in turns
    assert any(last_row(view) > 0 for view in shown if isinstance(view, Lines))


# ---- every frame ----

@pytest.mark.parametrize("language", each_language(LANGUAGES))
def test_no_text_of_the_tour_leaves_its_box(language: str, views: dict[str, list[View]],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # overflow reads the renderer's frame of each view: the one drawn once (`drawn`)
    monkeypatch.setattr(renderer, "frame", drawn)
    misfits = {f"{view.header.title}: {problem}" for view in views[language]
               for problem in overflow(view)}
    assert not misfits, "\n".join(sorted(misfits))


def cut_glyphs(piece: Shown) -> int:
    """Lit pixels of `piece` outside its box: its text drawn where the frame draws it, on a
    canvas wider than the panel, unclipped."""
    assert piece.face is not None
    margin = 40
    canvas = Image.new("1", (WIDTH + 2 * margin, HEIGHT + 2 * margin), 0)
    lay(canvas, piece.x + margin, piece.baseline + margin, piece.text, font(*piece.face))
    left, top, right, bottom = piece.box
    inside = canvas.crop((left + margin, top + margin, right + margin, bottom + margin))
    return canvas.histogram()[255] - inside.histogram()[255]


@pytest.mark.parametrize("language", each_language(LANGUAGES))
def test_no_glyph_is_cut_by_its_box(language: str, views: dict[str, list[View]]) -> None:
    pieces = {replace(piece, place="", source="") for view in views[language]
              for piece in drawn(view).shown if piece.face is not None}  # each drawn once
    cut = {f"{piece.text!r} in {piece.box}: {count} px" for piece in pieces
           if (count := cut_glyphs(piece))}
    assert not cut, "\n".join(sorted(cut))


def glyph_inks(text: str, fnt: FreeFont, x: float = 0.0,
               baseline: int = 0) -> Iterator[tuple[int, set[tuple[int, int]]]]:
    """Each glyph of `text` with the pixels its ink lights where `lay` puts it."""
    for number, char in enumerate(text):
        whole, phase = divmod(round(x * PHASES), PHASES)
        g = glyph(char, fnt, "1", phase)
        if g.mask is not None:
            left, top = whole + g.left, baseline + g.top
            yield number, {(left + column, top + row) for column, row in lit(g.mask)}
        x += g.advance + tracking(fnt)


def lit(mask: Image.Image) -> tuple[tuple[int, int], ...]:
    """The (column, row) of each lit pixel of a glyph's mask, read once a mask: the tour's
    texts are laid out of the same few hundred glyphs (the mask is kept with them, so that
    its id is not another mask's)."""
    kept = LIT.get(id(mask))
    if kept is None or kept[0] is not mask:
        width = mask.width
        kept = LIT[id(mask)] = (mask, tuple(
            (at % width, at // width) for at, on in enumerate(mask.get_flattened_data()) if on))
    return kept[1]


LIT: dict[int, tuple[Image.Image, tuple[tuple[int, int], ...]]] = {}


def overlaps(text: str, fnt: FreeFont, x: float = 0.0) -> list[str]:
    """The glyphs of `text` drawn over another, as `lay` lays them out from pen `x` (a "!"
    over the letter before it): two glyphs sharing more than TOUCH pixels of ink. One pixel is
    where the font joins two letters by design (the crossbars of "ft", the arms of "XX")."""
    inks = [(number, ink, min(x for x, _ in ink), max(x for x, _ in ink))
            for number, ink in glyph_inks(text, fnt, x) if ink]
    # two glyphs whose columns of ink do not meet share no pixel: only the others are compared
    return [f"{text[a]!r} and {text[b]!r}: {len(shared)} px"
            for at, (a, mine, left, right) in enumerate(inks)
            for b, theirs, their_left, their_right in inks[at + 1:]
            if left <= their_right and their_left <= right
            and len(shared := mine & theirs) > TOUCH]


def test_a_glyph_drawn_over_the_one_before_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above finds a "!" put on the letter before it, as a pen that did not move
    over that letter would put it; and none where the pen moves as `lay` moves it."""
    hint = font(*renderer.HINT)
    assert overlaps("Go!", hint) == []
    real = glyph

    def unmoved(char: str, fnt: FreeFont, mode: str = "1", phase: int = 0) -> Any:
        found = real(char, fnt, mode, phase)
        return replace(found, advance=0.0) if char == "o" else found
    monkeypatch.setitem(globals(), "glyph", unmoved)
    assert any(problem.startswith("'o' and '!'") for problem in overlaps("Go!", hint))


def piece_ink(piece: Shown) -> frozenset[tuple[int, int]]:
    """The lit pixels of a row of small text in the frame: its glyphs, clipped to its box."""
    return laid_ink(replace(piece, place="", source=""))


@cache        # the tour's frames show the same rows in the same places thousands of times
def laid_ink(piece: Shown) -> frozenset[tuple[int, int]]:
    assert piece.face is not None
    left, top, right, bottom = piece.box
    return frozenset((x, y) for _, lit in glyph_inks(piece.text, font(*piece.face), piece.x,
                                                     piece.baseline)
                     for x, y in lit if left <= x < right and top <= y < bottom)


def pieces_over(view: View) -> list[str]:
    """Two rows of small text of one frame (a title and its side, an item and the hint) that
    light the same pixel."""
    inks = [(piece, piece_ink(piece)) for piece in drawn(view).shown if piece.face is not None]
    return [f"{one.text!r} and {other.text!r} in {view.header.title!r}"
            for at, (one, mine) in enumerate(inks) for other, theirs in inks[at + 1:]
            if mine & theirs]


@pytest.mark.parametrize("language", each_language(LANGUAGES))
def test_no_glyph_is_drawn_over_another(language: str, views: dict[str, list[View]]) -> None:
    """Every text of every frame, small and big, laid out glyph by glyph where the frame puts
    it: no glyph is drawn over another of its text, nor over another text of the frame."""
    pieces = {(piece.text, piece.face or ("Bold", piece.size), piece.x)
              for view in views[language] for piece in drawn(view).shown}
    over = {f"{text!r} ({face[0]} {face[1]}): {pair}" for text, face, x in pieces
            for pair in overlaps(text, font(*face), x)}
    over |= {problem for view in views[language] for problem in pieces_over(view)}
    assert not over, "\n".join(sorted(over))


def texts(view: View) -> dict[str, list[str]]:
    """The texts of a view by the place the renderer draws them in (Lines: see rows)."""
    header = view.header
    side = header.side_label or (header.side or "").capitalize()
    info = " ".join(p for p in (f"R{header.round}" if header.round is not None else "", side)
                    if p)
    placed: dict[str, list[str]] = {"title": [header.title], "info": [info]}
    match view:
        case Menu():
            placed |= {"hint": [view.hint]}
        case Roll():
            placed |= {"caption": [view.caption], "needed": [view.needed],
                       "total": [view.total.strip()]}
        case BigWord():
            placed |= {"word": [view.word.strip()], "detail": [view.detail]}
        case Lines():
            placed |= {"hint": [view.hint]}
    return {place: [text for text in found if text] for place, found in placed.items()}


def bare(text: str) -> str:
    return "".join(text.split())


def left_out(view: View) -> list[str]:
    """What of a view's texts is not shown whole: each text of its frame (a paged title over
    its turns), a menu's highlighted item (over its turns where it is taller than the menu),
    a Lines view's rows (which hold every line); and a text cut short with an ellipsis."""
    problems = []
    made = drawn(view)
    pieces: dict[tuple[str, str], list[str]] = defaultdict(list)
    for piece in made.shown:
        pieces[piece.place, piece.source].append(piece.text)
        if ELLIPSIS in piece.text and ELLIPSIS not in piece.source:
            problems.append(f"{piece.text!r} cut short in {view.header.title}")
    turns = {(place, text): list(parts) for place, text, parts in made.paged}
    for place, found in texts(view).items():
        for text in found:
            shown = turns.get((place, text)) or pieces.get((place, text), [])
            if bare(" ".join(shown)) != bare(text):
                problems.append(f"{place} {text!r} shown as {shown!r}")
    if isinstance(view, Menu) and view.items:
        item = view.items[min(max(view.index, 0), len(view.items) - 1)]
        # two items of one text (two Cobra units of strength 1) are two pieces of it
        whole = {bare(" ".join([item] * n)) for n in range(1, view.items.count(item) + 1)}
        shown = turns.get(("item", item)) or pieces.get(("item", item), [])   # in turns
        if bare(" ".join(shown)) not in whole:
            problems.append(f"highlighted item {item!r} not shown whole")
    if isinstance(view, Lines):
        wrapped = rows(view)
        first = min(max(view.index, 0), last_row(view))
        on_screen = [piece.text for piece in made.shown if piece.place == "row"]
        if bare("".join(wrapped)) != bare("".join(view.lines)) or \
                on_screen != list(wrapped[first:first + rows_shown(view)]):
            problems.append(f"the rows of {view.lines!r}")
    return problems


@pytest.mark.parametrize("language", each_language(LANGUAGES))
def test_nothing_is_left_out_or_cut_short(language: str, views: dict[str, list[View]]) -> None:
    problems = [problem for view in views[language] for problem in left_out(view)]
    assert not problems, "\n".join(dict.fromkeys(problems))


def too_small(view: View) -> list[str]:
    """An outcome word drawn smaller than capitals of MIN_BIG px (made small to fit)."""
    return [f"{view.word!r} drawn {piece.size} px" for piece in drawn(view).shown
            if isinstance(view, BigWord) and piece.place == "word" and piece.size < MIN_BIG]


@pytest.mark.parametrize("language", each_language(LANGUAGES))
def test_outcome_words_stay_big(language: str, views: dict[str, list[View]]) -> None:
    small = {view.word for view in views[language] if too_small(view)}
    assert not small, f"drawn smaller than 16 px capitals: {sorted(small)}"


# ---- every string ----

def searched(tour: Any, template: str) -> re.Pattern[str]:
    """tour.pattern(template), or for a template that starts with a placeholder a pattern
    found in the very same texts, sooner: ".+?" then the rest is found in a text exactly
    where the rest is, after a character of its line ("(?<=.)": "." is any but a newline).
    (Searched for from every character of all the tour's texts, a pattern that starts with
    ".+?" takes the rest of the line at each: seconds.)"""
    parts = re.split(r"\{[^}]*\}", template)
    if parts[0] or len(parts) == 1:
        return tour.pattern(template)
    return re.compile("(?<=.)" + ".+?".join(re.escape(part) for part in parts[1:]))


@pytest.mark.parametrize("language", each_language(LANGUAGES))
def test_every_string_is_shown_on_the_tour_or_listed(
        language: str, views: dict[str, list[View]], tour: Any) -> None:
    shown = "\n".join(dict.fromkeys(text for view in views[language]
                                    for text in tour.view_texts(view)))
    missing = [key for key in i18n.panel_keys() if key not in NOT_ON_THE_PANEL
               and not searched(tour, i18n.text(language, key)).search(shown)]
    assert not missing, f"never on the panel in the tour: {missing}"
    assert set(NOT_ON_THE_PANEL) <= set(i18n.panel_keys())


@in_language("pl")
def test_a_frame_of_the_tour_is_drawn_as_the_renderer_draws_its_view(
        tour_frames: Mapping[str, list[Any]]) -> None:
    for one in tour_frames["pl"][::97]:
        assert one.image.tobytes() == renderer.render(one.view).tobytes()


def test_the_strings_listed_as_unused_are_used_nowhere() -> None:
    sources = "\n".join(path.read_text(encoding="utf-8") for path in DEVICE.rglob("*.py")
                        if path.name != "i18n.py")
    for key, why in NOT_ON_THE_PANEL.items():
        if why.startswith("not used"):
            assert not re.search(rf"\bt\(\s*[\"']{key}[\"']", sources), key
