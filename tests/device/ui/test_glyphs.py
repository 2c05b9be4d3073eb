"""Glyphs: the panel draws only characters the font has, laid out by Pillow's basic layout, so
that every system draws the same pixels.

Pillow lays text out with raqm only where libraqm and the system's libfribidi load; elsewhere (a
minimal Debian, many a Pi) with its basic layout. The two differ: raqm draws a space the font
lacks (U+2004) as a space, the basic layout draws the font's missing-glyph box, and advances
differ too. The screens load every font with the basic layout and hand FreeType only
characters the font has; these tests check both, for everything the box can show.
"""
from __future__ import annotations

import json
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from cobi_companion.cards import load_cards, snapshot
from cobi_companion.device import boot, box
from cobi_companion.device.config import Config, Game
from cobi_companion.device.core import i18n
from cobi_companion.device.core.views import BigWord, Header, Lines, Menu, Roll, View
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ui import atlas, big, dice, glyphs, wrap
from cobi_companion.device.ui import renderer as screens
from cobi_companion.device.ui.glyphs import font
from cobi_companion.device.ui.renderer import render
from cobi_companion.words import catalogue, languages
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image, ImageChops, ImageDraw, ImageFont

BASIC = ImageFont.Layout.BASIC
LACKED = "\ue000"            # private use: the font has no glyph for it, it draws the box
LANGUAGES = tuple(language.code for language in languages.LANGUAGES)
# A letter only each language's own words have: the texts looked at are that language's.
OWN_LETTER = {"en": "", "pl": "ż", "de": "ü"}
# Every font the screens load, as (weight, size).
FONTS = sorted({*screens.WARM_FONTS, screens.CAPTION, screens.NEEDED, screens.SMALL, dice.DIE,
                ("SemiBold", big.MIN_BIG), ("Bold", 12), ("Bold", big.GUESS_SIZE),
                *(("Bold", size) for size in (*big.BIG_SIZES, *big.SMALL_BIG_SIZES,
                                              *big.TOTAL_SIZES))})
# What the screens draw besides the strings: digits and signs of totals, distances and odds,
# a die's "?", and the bar that places glyphs.
SYMBOLS = "0123456789%+-−=·→(),.:<?" + glyphs.REFERENCE
# The tests that read the same work done once a process (`drawn_by_freetype`, `_first_start`,
# test_reference_glyphs.cut_from_the_shipped) run on one xdist worker, where it is done once.
FREETYPE_FRAMES = pytest.mark.xdist_group("glyphs-freetype-frames")
FIRST_START = pytest.mark.xdist_group("glyphs-first-start")


@cache
def _basic(path: str, size: int) -> ImageFont.FreeTypeFont:
    # The basic layout whatever the screens choose: raqm draws some characters the font lacks
    # as something else than the box (U+2004 as a space), and would hide them.
    return ImageFont.truetype(path, size, layout_engine=BASIC)


def _drawn(char: str, fnt: ImageFont.FreeTypeFont) -> tuple[float, bytes]:
    """The pen's advance over `char` and its pixels, drawn alone on a one-bit canvas."""
    size = int(fnt.size)
    canvas = Image.new("1", (4 * size, 3 * size), 0)
    ImageDraw.Draw(canvas).text((size, 2 * size), char, font=fnt, fill=1, anchor="ls")
    return fnt.getlength(char), canvas.tobytes()


@cache
def in_font(char: str, path: str, size: int) -> bool:
    """Whether the font file at `path` has a glyph for `char`: FreeType draws a character it
    lacks as the font's missing glyph, with the pixels and advance of LACKED. A blank glyph
    (a space) the font has differs from the box too: nothing drawn, its own advance."""
    fnt = _basic(path, size)
    return _drawn(char, fnt) != _missing(path, size)


@cache
def _missing(path: str, size: int) -> tuple[float, bytes]:
    """The missing-glyph box as `_drawn` draws it: once a font, not again for each character
    checked."""
    return _drawn(LACKED, _basic(path, size))


def has(char: str, fnt: ImageFont.FreeTypeFont) -> bool:
    """Whether `fnt`'s file has `char`, checked at its size (at most 64 px: the screens
    measure advances at MEASURE_SIZE, and a glyph is in the file at every size or none)."""
    assert isinstance(fnt.path, str)
    return in_font(char, fnt.path, min(int(fnt.size), 64))


@pytest.mark.parametrize("weight_size", [("Medium", 9), ("SemiBold", 11), ("Bold", 40)])
def test_the_check_tells_glyphs_from_the_missing_glyph_box(weight_size: tuple[str, int]) -> None:
    fnt = font(*weight_size)
    for char in "Aaąż7…· \u00a0":              # letters, signs, a space and a no-break space
        assert has(char, fnt), char
    for char in "\u2004\u2009\u200a\u2002\uffff\U0001f600":   # spaces and signs it lacks
        assert not has(char, fnt), hex(ord(char))


def shown_texts(language: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string the box can show in `language`: the texts it draws ahead when idle
    (`box.warm_up_for`), and again each source of them: every string of i18n, placeholders
    and all, the outcome words, the shipped cards' names and the symbols; and the refusals and
    Cobra notes of the rules in the box's words."""
    book = load_cards([])
    warmed: list[str] = []

    def record(texts: list[str], big_texts: list[str], words: list[str]) -> Iterator[bool]:
        warmed.extend([*texts, *big_texts, *words])
        return iter(())
    monkeypatch.setattr(box, "warm_up", record)
    app: Any = SimpleNamespace(settings=SimpleNamespace(language=language), book=book)
    box.warm_up_for(app)
    names = [text for card in book.sorted() for text in (card.name, card.short)]
    assert warmed and names
    said = [catalogue.text(language, key) for key in catalogue.every_key()
            if key.startswith(("refusal_", "note_"))]
    return [*warmed, *i18n.every_text(language), *i18n.outcome_words(language), *names,
            *said, SYMBOLS]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_character_the_box_can_show_is_in_the_font(
        language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    chars = sorted({char for text in shown_texts(language, monkeypatch) for char in text})
    assert OWN_LETTER[language] in "".join(chars)
    for weight_size in FONTS:
        fnt = font(*weight_size)
        lacked = [f"{char!r} U+{ord(char):04X}" for char in chars if not has(char, fnt)]
        assert not lacked, f"{weight_size} lacks {', '.join(lacked)}"


def clear_caches() -> None:
    for cached in (glyphs.glyph, glyphs._length, glyphs._laid_length, glyphs._bar,
                   glyphs._kept_width, glyphs.ink, wrap._kept_wrap, screens._text_mask,
                   screens._headed, big.biggest, big.big_ink, screens._wrapped, screens.frame,
                   dice.die_image):
        cached.cache_clear()


def views(language: str) -> list[View]:
    """Screens showing every string of `language` in every small font, the outcome words big,
    the card names in a menu, and dice with totals, a "?" face and forty dice."""
    texts = i18n.every_text(language)
    t = i18n.text
    side = t(language, "axis")
    shown: list[View] = []
    for at in range(0, len(texts), 4):
        a, b, c, d = (*texts[at:at + 4], "", "", "")[:4]
        shown += [Lines(Header(a, 3, "axis", side), (a, b, c, d), 0, b),
                  Menu(Header(b, 12), (c, d, a), 1, c),
                  Roll(Header(c), (4, 2), d, a, "= 6")]
    words = i18n.outcome_words(language)
    for at, word in enumerate(words):
        shown.append(BigWord(Header(texts[at]), word, texts[-at]))
    names = tuple(card.name for card in load_cards([]).sorted())
    shown += [Menu(Header("COBI"), names, i, "OK") for i in range(len(names))]
    said = [catalogue.text(language, key)           # the refusals and notes („MG”)
            for key in catalogue.every_key() if key.startswith(("refusal_", "note_"))]
    shown += [Lines(Header(side), tuple(said[at:at + 3]), 0, "OK")
              for at in range(0, len(said), 3)]
    shown.append(Menu(Header(side), ("• Tiger 1: Front", "Sherman 1"), 0, "OK"))  # chosen
    shown += [Roll(Header("Dice"), faces, "Damage", "needs 5+", total)
              for faces, total in [((1, 2, 3, 4, 5, 6), "= 21"), ((0, 7, 9), "12 cm"),
                                   ((3,) * 40, "−3"), ((6,), "100%"), ((5,), "= 1234567")]]
    return shown


@pytest.fixture
def freetype_draws() -> Iterator[None]:
    """Every glyph drawn by FreeType, none cut from the shipped reference glyphs: as on a
    system whose font files are not those the reference glyphs were drawn from, and as the
    reference glyphs themselves are drawn (test_reference_glyphs.py tests them). Nor from
    the atlas a box of an earlier test of the process put in use (the glyphs module keeps it
    for the process: after the Polish tour, its Polish letters were cut from the tour's
    atlas, and the tests of what FreeType is handed saw none); it is put back after."""
    earlier = glyphs.kept()
    glyphs.keep(None)
    glyphs.use_reference(False)
    clear_caches()
    yield
    glyphs.keep(earlier)
    glyphs.use_reference(True)
    clear_caches()                   # nothing drawn by FreeType stays in a later cache


# What FreeType is handed to draw or measure: its drawing and measuring methods.
FREETYPE_METHODS = ("getmask2", "getlength", "getbbox")


@pytest.fixture
def freetype_calls(monkeypatch: pytest.MonkeyPatch,
                   freetype_draws: None) -> Iterator[list[tuple[str, Any]]]:
    """Every text the screens hand to FreeType to draw or measure, with its font, from
    empty caches (so that nothing is pasted from an earlier test)."""
    calls: list[tuple[str, Any]] = []
    for name in FREETYPE_METHODS:
        original = getattr(ImageFont.FreeTypeFont, name)

        def recording(self: Any, text: str, *args: Any, _original: Any = original,
                      **kwargs: Any) -> Any:
            calls.append((text, self))
            return _original(self, text, *args, **kwargs)
        monkeypatch.setattr(ImageFont.FreeTypeFont, name, recording)
    clear_caches()
    yield calls
    monkeypatch.undo()
    clear_caches()                   # glyphs drawn while recording need not stay


@dataclass(frozen=True)
class FreeTypeDrawn:
    """The screens of `views(language)` drawn by FreeType from empty caches."""

    frames: list[bytes]                   # each view's frame
    calls: list[tuple[str, Any]]          # each text handed to FreeType, with its font
    drawing: glyphs.Drawn                 # every glyph drawn and advance measured


@cache
def drawn_by_freetype(language: str) -> FreeTypeDrawn:
    """`views(language)` rendered with every glyph drawn by FreeType (as under
    `freetype_calls`: no atlas, no reference glyphs, empty caches), what it was handed, and
    what was drawn, recorded: once a process, for the tests that read them (what FreeType is
    handed, the layout it is asked for, the frames to compare with those cut from an atlas,
    from the reference glyphs or drawn without raqm), which each drew the very same frames
    again from empty caches. The glyphs module's atlas, reference switch and recording, and
    FreeType's methods, are put back after; the caches emptied again."""
    earlier = (glyphs.kept(), glyphs._earlier.reference, glyphs._earlier.drawn)
    calls: list[tuple[str, Any]] = []
    originals = {name: getattr(ImageFont.FreeTypeFont, name) for name in FREETYPE_METHODS}
    for name, original in originals.items():
        def recording(self: Any, text: str, *args: Any, _original: Any = original,
                      **kwargs: Any) -> Any:
            calls.append((text, self))
            return _original(self, text, *args, **kwargs)
        setattr(ImageFont.FreeTypeFont, name, recording)
    try:
        glyphs.keep(None)
        glyphs.use_reference(False)
        clear_caches()
        glyphs.record()
        frames = drawn_frames(views(language))
        drawing = glyphs.recorded()
    finally:
        for name, original in originals.items():
            setattr(ImageFont.FreeTypeFont, name, original)
        glyphs.keep(earlier[0])
        glyphs.use_reference(earlier[1])
        glyphs._earlier.drawn = earlier[2]
        clear_caches()
    return FreeTypeDrawn(frames, calls, drawing)


@FREETYPE_FRAMES
@pytest.mark.parametrize("language", LANGUAGES)
def test_screens_hand_freetype_only_characters_the_font_has(language: str) -> None:
    calls = drawn_by_freetype(language).calls
    assert any(OWN_LETTER[language] in text for text, _ in calls)
    lacked = {(char, fnt.path.rsplit("/", 1)[-1], fnt.size) for text, fnt in calls
              for char in set(text) if not has(char, fnt)}
    assert not lacked, f"drawn as the missing-glyph box: {sorted(lacked)}"


@FREETYPE_FRAMES
def test_every_font_is_laid_out_by_the_basic_layout() -> None:
    for weight_size in FONTS:
        assert font(*weight_size).layout_engine == BASIC, weight_size
    used = {fnt for _, fnt in drawn_by_freetype("pl").calls}
    assert len(used) >= 10 and any(fnt.size == glyphs.MEASURE_SIZE for fnt in used)
    assert all(fnt.layout_engine == BASIC for fnt in used)


@pytest.fixture
def fresh_fonts(freetype_draws: None) -> Iterator[None]:
    """Fonts loaded again, before and after, and empty caches."""
    glyphs.font.cache_clear()
    clear_caches()
    yield
    glyphs.font.cache_clear()
    clear_caches()


@FREETYPE_FRAMES
def test_a_system_without_raqm_draws_the_same_pixels(
        fresh_fonts: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # A minimal Debian without libfribidi: Pillow cannot use raqm there, and a font loaded
    # without a layout chosen gets the basic one. (Left to that default, the screens drew the
    # word space U+2004 as the missing-glyph box there, and 20 snapshots failed.)
    shown = [view for language in LANGUAGES for view in views(language)]
    here = [frame for language in LANGUAGES for frame in drawn_by_freetype(language).frames]
    monkeypatch.setattr(ImageFont.core, "HAVE_RAQM", False)
    glyphs.font.cache_clear()
    clear_caches()
    with warnings.catch_warnings():
        warnings.simplefilter("error")       # raqm asked for, unavailable: Pillow warns
        elsewhere = [render(view).tobytes() for view in shown]
    differing = [view for view, a, b in zip(shown, here, elsewhere, strict=True) if a != b]
    assert not differing, f"{len(differing)} screens differ without raqm, e.g. {differing[0]}"


@pytest.mark.parametrize("face", sorted(glyphs.ROWS))
def test_the_rows_kept_for_small_text_are_the_rows_its_letters_reach(
        face: tuple[str, int]) -> None:
    # Every box of small text is as tall as ROWS says, so that no accent (Ó, Ż) nor tail (ą,
    # j) is cut: the rows must be those the letters reach, drawn at each half-pixel phase.
    fnt = font(*face)
    tops, bottoms = [], []
    for char in glyphs.LETTERS:
        for phase in range(glyphs.PHASES):
            drawn = glyphs.glyph(char, fnt, "1", phase)
            if drawn.mask is not None:
                tops.append(drawn.top)
                bottoms.append(drawn.top + drawn.mask.height - 1)
    assert (-min(tops), max(bottoms)) == glyphs.ROWS[face]


# ---- the glyph atlas ----

def as_a_new_process() -> None:
    """Nothing drawn yet, no atlas in use, everything drawn from now on recorded."""
    glyphs.keep(None)
    clear_caches()
    glyphs.record()


@pytest.fixture
def no_atlas(freetype_draws: None) -> Iterator[None]:
    as_a_new_process()
    yield
    as_a_new_process()


def drawn_frames(shown: list[View]) -> list[bytes]:
    return [render(view).tobytes() for view in shown]


@FREETYPE_FRAMES
def test_frames_drawn_from_the_atlas_are_the_frames_drawn_by_rasterising(
        no_atlas: None, freetype_calls: list[tuple[str, Any]], tmp_path: Path) -> None:
    shown = [view for language in LANGUAGES for view in views(language)]
    by_freetype = [drawn_by_freetype(language) for language in LANGUAGES]
    rasterised = [frame for drawn in by_freetype for frame in drawn.frames]
    assert all(any(text for text, _ in drawn.calls) for drawn in by_freetype)
    drawing = glyphs.Drawn()                   # every glyph drawn by FreeType, recorded
    for drawn in by_freetype:
        drawing.glyphs.update(drawn.drawing.glyphs)
        drawing.lengths.update(drawn.drawing.lengths)
    path = tmp_path / "atlas.json"
    assert snapshot.save(path, atlas.key(), atlas.to_data(atlas.pack(drawing.glyphs,
                                                                      drawing.lengths)))
    clear_caches()
    freetype_calls.clear()
    assert atlas.use(path) is not None
    from_atlas = drawn_frames(shown)
    assert freetype_calls == []                # nothing drawn nor measured: all cut
    differing = [view for view, a, b in zip(shown, rasterised, from_atlas, strict=True)
                 if a != b]
    assert not differing, f"{len(differing)} frames differ, e.g. {differing[0]}"
    assert {mode for (_, _, mode, _, _) in drawing.glyphs} == {"1", "L"}   # squashed words


def start_box(state: Path, language: str = "en") -> int:
    """A box started on mock pins, its warm-up run to its end as the idle loop runs it: how
    many glyphs FreeType drew meanwhile."""
    as_a_new_process()
    config = Config(game=Game(language=language))   # type: ignore[arg-type]
    made = box.build(config, MemoryDisplay(), pin_factory=MockFactory(pin_class=MockPWMPin),
                     state_dir=state)
    drawn = []
    real = ImageFont.FreeTypeFont.getmask2

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append(1)
        return real(self, *args, **kwargs)
    ImageFont.FreeTypeFont.getmask2 = counted  # type: ignore[method-assign]
    try:
        made.loop.draw()
        while made.loop.warm_up is not None:
            made.loop.wait(0.01)
    finally:
        ImageFont.FreeTypeFont.getmask2 = real  # type: ignore[method-assign]
        made.close()
    return len(drawn)


@cache
def _first_start() -> tuple[bytes, dict[str, bytes]]:
    """The atlas file a box's first start writes (no atlas, every glyph drawn by FreeType, as
    under `no_atlas`) and the files it leaves in its state folder: started once a process, in
    folders of its own; the glyphs module left as `no_atlas` leaves it."""
    reference = glyphs._earlier.reference
    glyphs.use_reference(False)
    try:
        with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
            patch.setenv("XDG_CACHE_HOME", str(Path(folder) / "cache"))
            state = Path(folder) / "state"
            assert start_box(state) > 1000
            return atlas.atlas_file().read_bytes(), {
                str(path.relative_to(state)): path.read_bytes()
                for path in sorted(state.rglob("*")) if path.is_file()}
    finally:
        glyphs.use_reference(reference)
        as_a_new_process()


def first_started(state: Path) -> None:
    """The test's cache and `state` folders as a box's first start leaves them: the atlas it
    drew, and its state. (Each test that started a box only to have them drew the same
    atlas again: `test_the_first_start_draws_the_atlas_and_the_next_cut_from_it` is the test
    of that start.)"""
    atlas_file, files = _first_start()
    atlas.atlas_file().parent.mkdir(parents=True, exist_ok=True)
    atlas.atlas_file().write_bytes(atlas_file)
    for name, data in files.items():
        (state / name).parent.mkdir(parents=True, exist_ok=True)
        (state / name).write_bytes(data)


def test_the_first_start_draws_the_atlas_and_the_next_cut_from_it(
        no_atlas: None, tmp_path: Path) -> None:
    assert start_box(tmp_path / "state") > 1000        # ~2,000 glyphs drawn ahead
    assert atlas.atlas_file().is_file() and atlas.read() is not None
    assert start_box(tmp_path / "state") == 0          # all cut from the atlas
    assert start_box(tmp_path / "state", "pl") > 0     # Polish letters: drawn, then kept too
    assert start_box(tmp_path / "state", "pl") == 0
    assert start_box(tmp_path / "state", "en") == 0


@FIRST_START
def test_the_title_is_cut_from_the_atlas_too(no_atlas: None, tmp_path: Path,
                                             freetype_calls: list[tuple[str, Any]]) -> None:
    first_started(tmp_path / "state")                  # a first start drew the atlas
    as_a_new_process()
    freetype_calls.clear()
    shown = MemoryDisplay()
    boot.show_title(shown)
    assert shown.frames == 1 and freetype_calls == []
    as_a_new_process()                                 # and rasterised: the same pixels
    assert render(boot.title_view()).tobytes() == shown.image.tobytes()


def corrupt_atlas(path: Path, how: str) -> None:
    header, body = path.read_bytes().split(b"\n", 1)
    if how == "garbage":
        path.write_bytes(b"\x89PNG not an atlas")
    elif how == "truncated":
        path.write_bytes(header + b"\n" + body[:len(body) // 3])
    elif how == "a strip too short":          # whole JSON, right CRC, wrong pixels
        data = json.loads(body)
        data["faces"][0]["pixels"] = data["faces"][0]["pixels"][:8]
        text = json.dumps(data).encode()
        fields = json.loads(header)
        fields["crc"] = snapshot.zlib.crc32(text)
        path.write_bytes(json.dumps(fields).encode() + b"\n" + text)
    elif how == "other fonts":                # the atlas of other font files
        fields = json.loads(header)
        fields["key"][1][0] = None
        path.write_bytes(json.dumps(fields).encode() + b"\n" + body)


@FIRST_START
@pytest.mark.parametrize("how", ["garbage", "truncated", "a strip too short", "other fonts"])
def test_a_corrupt_or_stale_atlas_is_ignored_and_drawn_again(
        no_atlas: None, tmp_path: Path, how: str) -> None:
    first_started(tmp_path / "state")
    path = atlas.atlas_file()
    whole = atlas.read()
    assert whole is not None
    corrupt_atlas(path, how)
    assert atlas.read() is None                        # never trusted
    assert start_box(tmp_path / "state") > 1000        # drawn again, as on a first start
    again = atlas.read()
    assert again is not None and again.boxes.keys() == whole.boxes.keys()
    assert start_box(tmp_path / "state") == 0


def test_a_cache_that_cannot_be_written_only_means_drawing_at_each_start(
        no_atlas: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))    # not a folder
    assert start_box(tmp_path / "state") > 1000
    assert start_box(tmp_path / "state") > 1000


# The letters a sentence may end on before "!" or "?": every letter the box shows but "f",
# whose arm reaches into the next letter's room by design (as over the "i" of "fire").
SENTENCE_ENDS = "abcdeghijklmnopqrstuvwxyząćęłńóśźżABCDEFGHIJKLMNOPQRSTUVWXYZĄĆĘŁŃÓŚŹŻ"


# The faces of the text that ends on a "!" or "?": hints, menus, lines, captions, titles.
@pytest.mark.parametrize("face", [("Medium", 9), ("Medium", 10), ("Medium", 11),
                                  ("SemiBold", 10)])
def test_a_mark_that_ends_a_sentence_stands_apart_from_the_letter_before_it(
        face: tuple[str, int]) -> None:
    """A "!" or "?" laid out after a letter, at every half-pixel pen position, leaves at
    least one blank column between its ink and the letter's: hinted to whole pixels, its ink
    started at the pen, where a letter's may end, and "Rozjedź!" read as "Rozjedź" with a
    smudge (the hints of the Tank Game's templates and overruns)."""
    fnt = font(*face)
    touching = []
    for mark in "!?":
        for letter in SENTENCE_ENDS:
            for start in (2.0, 2.5):
                alone = Image.new("1", (40, 24), 0)
                glyphs.lay(alone, start, 16, letter, fnt)
                both = Image.new("1", (40, 24), 0)
                glyphs.lay(both, start, 16, letter + mark, fnt)
                letter_box = alone.getbbox()
                # The pixels lit with the mark and not without it: the mark's ink.
                mark_ink = ImageChops.logical_xor(both, ImageChops.logical_and(both, alone))
                mark_box = mark_ink.getbbox()
                assert letter_box is not None and mark_box is not None
                if mark_box[0] <= letter_box[2]:          # no blank column between them
                    touching.append(f"{letter}{mark}@{start}")
    assert touching == [], touching
