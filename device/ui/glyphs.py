"""The panel's letters: the font, each glyph rasterised once, and lines of text laid out by
pasting glyphs at their pen positions.

The font is Fira Sans Condensed (SIL Open Font License 1.1) from the PyPI package
`fontpkg-fira-sans-condensed`: it has every Polish letter and stays crisp when FreeType renders
it without anti-aliasing, as Pillow does on mode "1" images.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib.resources import files
from math import ceil, floor
from typing import Protocol

from PIL import Image, ImageDraw, ImageFont

# Pillow's own text layout, chosen for every font: its other one (raqm) needs libraqm and
# libfribidi, which a minimal system lacks, and then draws other pixels. The basic layout
# does the same on every system: no kerning, and advances hinted to whole pixels.
LAYOUT = ImageFont.Layout.BASIC
MEASURE_SIZE = 1000          # px: the size at which the advances are measured, see `_length`
WORD_SPACE_EM = 1 / 3        # a space between words in small text: the font's own is too thin
BIG_TEXT = 16                # from this size on, text needs no tracking nor wider word spaces
_FONT_PACKAGE = "fontpkg_fira_sans_condensed"

FreeFont = ImageFont.FreeTypeFont
Face = tuple[str, int]       # a font as (weight, size): ("Medium", 11)

# The letters a line of small text must leave room for, above and below its baseline: every
# letter of English, Polish and German (its quotes „“ too), digits and the signs the box
# shows. `ROWS` is measured over them; a card may use other letters (Å, Ő), which reach a row
# higher and are checked where they are shown.
LETTERS = ("".join(chr(c) for c in range(0x21, 0x7F)) + "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ" + "äöüßÄÖÜéÉ„“"
           + "…·→±≤≥×½¼−–°")
# What the screens put in small text besides the word tables and the cards: numbers, odds
# ("<1%" under one per cent), distances, sums, the bullet of a hidden or chosen piece. A sign
# missed here is drawn on the press (box.warm_up_for draws them ahead).
SIGNS = "0123456789%+-−=·→(),.:<•"
# Of the small text's faces: how many rows the ink of LETTERS reaches above the baseline (Ó,
# "(") and below it (the tail of ą), as the font draws them here (tests/device/ui/test_glyphs.py
# measures them again). Sizes 10 and 11 reach as far: hinting rounds both to the same rows.
ROWS: dict[Face, tuple[int, int]] = {
    ("SemiBold", 9): (9, 1), ("Medium", 9): (9, 1),
    ("SemiBold", 10): (10, 2), ("Medium", 10): (10, 2), ("Bold", 10): (10, 2),
    ("SemiBold", 11): (10, 2), ("Medium", 11): (10, 2),
}


def pitch(face: Face) -> int:
    """Rows from one baseline to the next in a block of text in `face`: no two rows' letters
    can touch."""
    above, below = ROWS[face]
    return above + below + 1


@cache
def font_path(weight: str) -> str:
    # A file path lets FreeType map the font file instead of Pillow keeping a copy of it for
    # every size (about 0.5 MB each); the font package is always installed as plain files.
    return str(files(_FONT_PACKAGE) / "files" / f"FiraSansCondensed-{weight}.ttf")


@cache
def font(weight: str, size: int) -> FreeFont:
    """Fira Sans Condensed in `weight` ("Medium", "SemiBold", "Bold") at `size` px, loaded once,
    laid out by Pillow's basic layout (LAYOUT)."""
    return ImageFont.truetype(font_path(weight), size, layout_engine=LAYOUT)


# ---- glyphs ----
# FreeType takes ~0.1 ms to rasterise one glyph here (several ms on a Pi Zero). Each glyph is
# drawn once per font and half-pixel position and kept; a line of text is then laid out by
# pasting glyph images at their pen positions, which costs microseconds. Kerning is left out:
# at these sizes it moves a few pairs by less than a pixel; small text gets a quarter pixel of
# tracking instead, so that letters like "ci" do not merge into a "d", and wider spaces between
# words (`word_space`). The pen moves by the font's own advances, not by the whole pixels that
# the basic layout rounds each of them to (see `_length`). Only characters the font has are
# handed to FreeType: one it lacks would be drawn as the font's missing-glyph box.

@dataclass(frozen=True, slots=True)
class Glyph:
    """One character as a font draws it at one half-pixel phase: its ink and where it goes."""

    mask: Image.Image | None       # the glyph's ink, cropped; None for a blank (a space)
    left: int                      # from the pen's whole pixel to the ink's left edge
    top: int                       # from the baseline to the ink's top row (negative: above)
    advance: float                 # pen movement to the next glyph


PHASES = 2                   # glyph positions are kept to half a pixel
REFERENCE = "|  "             # drawn before each glyph to find its row: see `glyph`

# ---- glyphs drawn at an earlier start ----
# The atlas (atlas.py) keeps the glyphs and advances the box drew at an earlier start, so that
# this one cuts them from it instead of asking FreeType (same pixels, place and advance). What
# is drawn that the atlas lacks is recorded from the first glyph on (the title's, the start
# menu's), until the box has drawn ahead after its start and written the atlas again with it.

GlyphKey = tuple[str, int, str, str, int]      # font file, size, mode, character, phase
LengthKey = tuple[str, int, str]               # font file, size, character


class Kept(Protocol):
    """Glyphs drawn at an earlier start: each as it was drawn, or None if it was not."""

    def glyph(self, char: str, fnt: FreeFont, mode: str, phase: int) -> Glyph | None: ...

    def holds(self, char: str, fnt: FreeFont, mode: str, phase: int) -> bool: ...

    def length(self, char: str, fnt: FreeFont) -> float | None: ...


@dataclass
class Drawn:
    """The glyphs drawn and the advances measured while recording."""

    glyphs: dict[GlyphKey, Glyph] = field(default_factory=dict)
    lengths: dict[LengthKey, float] = field(default_factory=dict)


@dataclass
class _Earlier:
    """The atlas the glyphs are cut from, and the glyphs drawn since the start that it lacks."""

    kept: Kept | None = None        # the atlas in use
    drawn: Drawn | None = None      # recording, or not
    reference: bool = True          # the shipped glyphs used (reference_glyphs.py)
    shipped: Callable[[], Kept | None] | None = None    # their loader (see `refer_to`)


_earlier = _Earlier(drawn=Drawn())      # recording from the start


def keep(kept: Kept | None) -> None:
    """Cut glyphs from `kept` (an atlas) when it has them; None: draw every glyph."""
    _earlier.kept = kept


def kept() -> Kept | None:
    return _earlier.kept


def holds(char: str, fnt: FreeFont, mode: str = "1", phase: int = 0) -> bool:
    """Whether the atlas in use has the glyph (it is cut from it when first needed)."""
    return _earlier.kept is not None and _earlier.kept.holds(char, fnt, mode, phase)


def use_reference(on: bool) -> None:
    """Cut glyphs the atlas in use lacks from the shipped reference glyphs (on, as the box
    does), or draw them with FreeType (off: how the reference glyphs are drawn)."""
    _earlier.reference = on
    _forget()


def refer_to(shipped: Callable[[], Kept | None]) -> None:
    """Cut glyphs the atlas in use lacks from what `shipped()` gives (the reference glyphs:
    the renderer hands over their loader, as it imports them; this module imports nothing of
    the screens')."""
    _earlier.shipped = shipped
    _forget()


def _forget() -> None:
    """The glyphs and advances drawn so far, forgotten: their source changed."""
    glyph.cache_clear()
    _length.cache_clear()


def _reference() -> Kept | None:
    if not _earlier.reference or _earlier.shipped is None:
        return None
    return _earlier.shipped()


def record() -> Drawn:
    """Record every glyph drawn and advance measured from now on (afresh), until
    `recorded`."""
    _earlier.drawn = Drawn()
    return _earlier.drawn


def recorded() -> Drawn:
    """What was drawn and measured since the recording started (nothing if none is on); the
    recording stops."""
    drawn, _earlier.drawn = _earlier.drawn or Drawn(), None
    return drawn


@lru_cache(maxsize=8192)
def glyph(char: str, fnt: FreeFont, mode: str = "1", phase: int = 0) -> Glyph:
    """One character of `fnt` in `mode` ("1" one-bit, "L" anti-aliased), with its pen `phase`
    / PHASES of a pixel right of a whole pixel: from the atlas in use, else from the
    reference glyphs, else rasterised; once."""
    found = _earlier.kept.glyph(char, fnt, mode, phase) if _earlier.kept else None
    if found is not None:
        return found
    reference = _reference()
    shipped = reference.glyph(char, fnt, mode, phase) if reference else None
    drawn = shipped if shipped is not None else _rasterised(char, fnt, mode, phase)
    if _earlier.drawn is not None:
        _earlier.drawn.glyphs[str(fnt.path), int(fnt.size), mode, char, phase] = drawn
    return drawn


def _rasterised(char: str, fnt: FreeFont, mode: str, phase: int) -> Glyph:
    # Pillow places a whole string by rounding its tallest glyph's outline, so a lone "t"
    # lands a row higher than the "t" of "it". The glyph is drawn after a bar whose row on
    # its own is known; where the bar moved, the glyph moved with it, and is moved back.
    size, lead = int(fnt.size), _laid_length(REFERENCE, fnt)
    start = (phase / PHASES - lead) % 1                 # so that the glyph's pen lands on phase
    pen = size + floor(start + lead)                    # the pen's whole pixel
    canvas = Image.new(mode, (pen + 3 * size, 3 * size), 0)
    ImageDraw.Draw(canvas).text((size + start, 2 * size), REFERENCE + char, font=fnt,
                                fill=255, anchor="ls")
    bar_right, bar_top = _bar(fnt, mode, start)
    drift = bar_top - (canvas.crop((0, 0, bar_right + 1, canvas.height)).getbbox() or
                       (0, bar_top))[1]
    ink = canvas.crop((bar_right + 1, 0, canvas.width, canvas.height))
    box = ink.getbbox()
    advance = char_advance(char, fnt)
    if box is None:
        return Glyph(None, 0, 0, advance)
    mask = ink.crop(box)
    # Glyphs with the same pixels at both phases share one image (each image kept costs ~1 KB
    # with Pillow's bookkeeping): the basic layout puts a glyph on a whole pixel, so at phase
    # 1 most glyphs are their phase-0 image one pixel further right.
    twin = glyph(char, fnt, mode, 0).mask if phase else None
    if twin is not None and twin.size == mask.size and twin.tobytes() == mask.tobytes():
        mask = twin
    left = bar_right + 1 + box[0] - pen + mark_lead(char, fnt)
    return Glyph(mask, left, box[1] + drift - 2 * size, advance)


@lru_cache(maxsize=64)
def _laid_length(text: str, fnt: FreeFont) -> float:
    """How far Pillow's own layout moves the pen over `text` in `fnt`."""
    return fnt.getlength(text)


@cache
def _measuring_font(path: str) -> FreeFont:
    return ImageFont.truetype(path, MEASURE_SIZE, layout_engine=LAYOUT)


@lru_cache(maxsize=4096)
def _length(char: str, fnt: FreeFont) -> float:
    """The advance of `char` in `fnt` as the font designs it, to a thousandth of an em: the basic
    layout rounds each advance to a whole pixel, which at 9 to 12 px leaves a letter a pixel
    too far from the next here and there ("Weathe r"). Measured at MEASURE_SIZE, where that
    rounding is negligible, and scaled; the font is measured there, never drawn. The atlas in
    use has the advances measured at an earlier start."""
    assert isinstance(fnt.path, str), "fonts are loaded from files"
    found = _earlier.kept.length(char, fnt) if _earlier.kept else None
    if found is not None:
        return found
    reference = _reference()
    shipped = reference.length(char, fnt) if reference else None
    length: float = shipped if shipped is not None else \
        _measuring_font(fnt.path).getlength(char) * fnt.size / MEASURE_SIZE
    if _earlier.drawn is not None:
        _earlier.drawn.lengths[fnt.path, int(fnt.size), char] = length
    return length


def word_space(fnt: FreeFont) -> float:
    """The advance of a space: a third of an em in small text, where the font's own (a fifth)
    hardly parts the words at one bit per pixel; the font's own in big text."""
    return fnt.size * WORD_SPACE_EM if fnt.size < BIG_TEXT else _length(" ", fnt)


# Marks that end a sentence, set a pixel off the letter before them in small text: hinted to
# whole pixels, their ink starts right at the pen, where a letter's own ink may end ("ź!",
# "a!" touched and read as one letter). The glyph carries the pixel: its ink starts that much
# later and its advance is that much longer, so every measure agrees with what is drawn.
LEAD = {"!": 1, "?": 1}


def mark_lead(char: str, fnt: FreeFont) -> int:
    return LEAD.get(char, 0) if fnt.size < BIG_TEXT else 0


def char_advance(char: str, fnt: FreeFont) -> float:
    """How far the pen moves over one character (a mark's lead included), tracking left
    out."""
    return word_space(fnt) if char == " " else _length(char, fnt) + mark_lead(char, fnt)


@lru_cache(maxsize=256)
def _bar(fnt: FreeFont, mode: str, start: float) -> tuple[int, int]:
    """The last column and the top row of the reference bar drawn on its own."""
    size = int(fnt.size)
    canvas = Image.new(mode, (3 * size, 3 * size), 0)
    ImageDraw.Draw(canvas).text((size + start, 2 * size), "|", font=fnt, fill=255, anchor="ls")
    _, top, right, _ = canvas.getbbox() or (0, 0, size, 0)
    return right - 1, top


def tracking(fnt: FreeFont) -> float:
    """Extra space after each glyph: at one bit per pixel, small letters touch without it."""
    return 0.0 if fnt.size >= BIG_TEXT else 0.25 if fnt.size > 10 else 0.5


def advances(text: str, fnt: FreeFont) -> list[float]:
    """Each character's `char_advance` in `text`: each different one measured once (a long
    text has few different letters)."""
    each = {char: char_advance(char, fnt) for char in set(text)}
    return [each[char] for char in text]


def advance(text: str, fnt: FreeFont) -> float:
    """How far the pen moves over `text`: its glyphs' advances and the tracking."""
    return sum(advances(text, fnt)) + tracking(fnt) * len(text)


# Texts longer than this are measured afresh each time instead of kept (here and in the word
# wrap): a cache keyed by texts of any length would keep any amount of memory.
KEPT_LENGTH = 4096


def text_width(text: str, fnt: FreeFont) -> int:
    """Pixels that a line of `text` in `fnt` needs, word spaces included."""
    return _kept_width(text, fnt) if len(text) <= KEPT_LENGTH else ceil(advance(text, fnt)) + 1


@lru_cache(maxsize=4096)
def _kept_width(text: str, fnt: FreeFont) -> int:
    return ceil(advance(text, fnt)) + 1


def stamp(img: Image.Image, fill: int, left: int, top: int, mask: Image.Image) -> None:
    """`img.paste(fill, (left, top), mask)`, made by the core paste that Image.paste ends in.

    Image.paste checks its arguments and makes two pixel-access objects at every call: for
    the glyphs of a line, the rows of a frame and its marks, that was most of their time on a
    press. The frames' images and their masks are plain images in memory, made here, so the
    checks have nothing to find: the same call with the whole box, the same pixels. (They are
    never opened from files, so there is nothing to load either: Image.load would only make
    one more pixel-access object.)"""
    width, height = mask.size
    img.im.paste(fill, (left, top, left + width, top + height), mask.im)


def lay(img: Image.Image, x: float, baseline: int, text: str, fnt: FreeFont,
        fill: int = 1) -> None:
    """Paste the glyphs of `text` on `img`, the pen starting at (x, baseline)."""
    mode, track = "L" if img.mode == "L" else "1", tracking(fnt)
    core = img.im                   # each glyph as `stamp` pastes it, without a call each
    for char in text:
        whole, phase = divmod(round(x * PHASES), PHASES)
        g = glyph(char, fnt, mode, phase)
        if g.mask is not None:
            left, top = whole + g.left, baseline + g.top
            width, height = g.mask.size
            core.paste(fill, (left, top, left + width, top + height), g.mask.im)
        x += g.advance + track


def ink_box(text: str, fnt: FreeFont, x: float, baseline: int) -> tuple[int, int, int, int] | None:
    """Where `lay` puts the ink of `text` (left, top, right, bottom, exclusive), from the glyphs'
    sizes, without drawing; None for blank text."""
    track, box = tracking(fnt), None
    for char in text:
        whole, phase = divmod(round(x * PHASES), PHASES)
        g = glyph(char, fnt, "1", phase)
        if g.mask is not None:
            left, top = whole + g.left, baseline + g.top
            mine = (left, top, left + g.mask.width, top + g.mask.height)
            box = mine if box is None else (min(box[0], mine[0]), min(box[1], mine[1]),
                                            max(box[2], mine[2]), max(box[3], mine[3]))
        x += g.advance + track
    return box


@lru_cache(maxsize=128)
def ink(text: str, fnt: FreeFont, mode: str = "1") -> Image.Image:
    """The text's pixels (one-bit, or anti-aliased in mode "L"), cropped to its bounding box."""
    size = int(fnt.size)
    canvas = Image.new(mode, (ceil(advance(text, fnt)) + 2 * size, 2 * size), 0)
    lay(canvas, size // 2, 3 * size // 2, text, fnt, 255)
    return canvas.crop(canvas.getbbox() or (0, 0, 1, 1))
