"""Screens: a pure function from a view model to a 128×64 one-bit image for the OLED.

Equal views draw identical pixels. Every piece of text is drawn inside its own box and cut short
with "…" when it is too long, so nothing spills over its neighbours or off the screen.

The font is Fira Sans Condensed (SIL Open Font License 1.1) from the PyPI package
`fontpkg-fira-sans-condensed`: it has every Polish letter and stays crisp when FreeType renders
it without anti-aliasing, as Pillow does on mode "1" images.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from math import ceil, floor

from cobi_companion.device.core.views import BigWord, Header, Lines, Menu, Roll, View
from cobi_companion.device.ports.panel import HEIGHT as HEIGHT
from cobi_companion.device.ports.panel import WIDTH as WIDTH
from PIL import Image, ImageDraw, ImageFont

BAND = 12                    # header band: rows 0..11
TOP = BAND + 1               # first body row (one black row under the band)
HINT_H = 9                   # hint line at the bottom
ROW_H = 14                   # one menu item
MIN_BIG = 23                 # Bold size whose capitals are 16 px tall
# The Bold sizes big text is tried at, largest first: outcome words; shortened long words; a
# roll's total. Few sizes, so that the warm-up can draw their digits and letters ahead, and
# shared: FreeType maps the font file once per size, ~0.45 MB of the box's memory each once
# its glyphs are drawn. No word or number the box shows is drawn between 36 and 29. A total
# takes the big words' sizes up to 29, then 20, 16 (GUESS_SIZE) and 12 (the size `big_ink`
# cuts long words at); one that fits none of them is drawn in the small text's font.
BIG_SIZES = (40, 36, 29, 26, MIN_BIG)
SMALL_BIG_SIZES = (20, 17, 14)
TOTAL_SIZES = (29, 26, MIN_BIG, 20, 16, 12)
ELLIPSIS = "…"
# Pillow's own text layout, chosen for every font: its other one (raqm) needs libraqm and
# libfribidi, which a minimal system lacks, and then draws other pixels. The basic layout
# does the same on every system: no kerning, and advances hinted to whole pixels.
LAYOUT = ImageFont.Layout.BASIC
MEASURE_SIZE = 1000          # px: the size at which the advances are measured, see `_length`
WORD_SPACE_EM = 1 / 3        # a space between words in small text: the font's own is too thin
BIG_TEXT = 16                # from this size on, text needs no tracking nor wider word spaces
_FONT_PACKAGE = "fontpkg_fira_sans_condensed"

Box = tuple[int, int, int, int]          # left, top, right, bottom (exclusive)
FreeFont = ImageFont.FreeTypeFont
Sizes = tuple[int, ...]

# The fonts of the small text, as (weight, size).
HEADER, MENU, LINE, HINT, DETAIL = ("SemiBold", 11), ("Medium", 12), ("Medium", 11), \
    ("Medium", 9), ("Medium", 10)
CAPTION, NEEDED, DIE = LINE, HEADER, ("Bold", 10)
WARM_FONTS = (HEADER, MENU, LINE, HINT, DETAIL)   # the warm-up draws their letters ahead


def render(view: View) -> Image.Image:
    """Draw `view` on a new 128×64 mode "1" image (1 = lit pixel)."""
    return _render(view).copy()


@lru_cache(maxsize=16)
def _render(view: View) -> Image.Image:
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    _header(img, view.header)
    match view:
        case Menu():
            _menu(img, view)
        case Roll():
            _roll(img, view)
        case BigWord():
            _big_word(img, view)
        case Lines():
            _lines(img, view)
    return img


# ---- fonts and text ----

@cache
def _font_path(weight: str) -> str:
    # A file path lets FreeType map the font file instead of Pillow keeping a copy of it for
    # every size (about 0.5 MB each); the font package is always installed as plain files.
    return str(files(_FONT_PACKAGE) / "files" / f"FiraSansCondensed-{weight}.ttf")


@cache
def font(weight: str, size: int) -> FreeFont:
    """Fira Sans Condensed in `weight` ("Medium", "SemiBold", "Bold") at `size` px, loaded once,
    laid out by Pillow's basic layout (LAYOUT)."""
    return ImageFont.truetype(_font_path(weight), size, layout_engine=LAYOUT)


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
    mask: Image.Image | None       # the glyph's ink, cropped; None for a blank (a space)
    left: int                      # from the pen's whole pixel to the ink's left edge
    top: int                       # from the baseline to the ink's top row (negative: above)
    advance: float                 # pen movement to the next glyph


PHASES = 2                   # glyph positions are kept to half a pixel
REFERENCE = "|  "             # drawn before each glyph to find its row: see `glyph`


@lru_cache(maxsize=8192)
def glyph(char: str, fnt: FreeFont, mode: str = "1", phase: int = 0) -> Glyph:
    """One character of `fnt` in `mode` ("1" one-bit, "L" anti-aliased), rasterised once, with
    its pen `phase` / PHASES of a pixel right of a whole pixel."""
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
    return Glyph(mask, bar_right + 1 + box[0] - pen, box[1] + drift - 2 * size, advance)


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
    rounding is negligible, and scaled; the font is measured there, never drawn."""
    assert isinstance(fnt.path, str), "fonts are loaded from files"
    return _measuring_font(fnt.path).getlength(char) * fnt.size / MEASURE_SIZE


def word_space(fnt: FreeFont) -> float:
    """The advance of a space: a third of an em in small text, where the font's own (a fifth)
    hardly parts the words at one bit per pixel; the font's own in big text."""
    return fnt.size * WORD_SPACE_EM if fnt.size < BIG_TEXT else _length(" ", fnt)


def char_advance(char: str, fnt: FreeFont) -> float:
    """How far the pen moves over one character, tracking left out."""
    return word_space(fnt) if char == " " else _length(char, fnt)


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


def advance(text: str, fnt: FreeFont) -> float:
    """How far the pen moves over `text`: its glyphs' advances and the tracking."""
    return sum(char_advance(char, fnt) for char in text) + tracking(fnt) * len(text)


def _lay(img: Image.Image, x: float, baseline: int, text: str, fnt: FreeFont,
         fill: int = 1) -> None:
    """Paste the glyphs of `text` on `img`, the pen starting at (x, baseline)."""
    mode, track = "L" if img.mode == "L" else "1", tracking(fnt)
    for char in text:
        whole, phase = divmod(round(x * PHASES), PHASES)
        g = glyph(char, fnt, mode, phase)
        if g.mask is not None:
            img.paste(fill, (whole + g.left, baseline + g.top), g.mask)
        x += g.advance + track


def fit_text(text: str, fnt: FreeFont, width: int) -> str:
    """`text`, cut short with "…" so that it is at most `width` pixels long."""
    if advance(text, fnt) <= width:
        return text
    room, used, cut = width - advance(ELLIPSIS, fnt), 0.0, 0
    for char in text:                         # the longest start that fits with "…"
        used += advance(char, fnt)
        if used > room:
            break
        cut += 1
    return text[:cut].rstrip() + ELLIPSIS if room >= 0 else ""


def text_width(text: str, fnt: FreeFont) -> int:
    """Pixels that `_text` needs for `text` in `fnt`, word spaces included."""
    return ceil(advance(text, fnt)) + 1


def _text(img: Image.Image, box: Box, text: str, fnt: FreeFont, baseline: int, *,
          align: str = "left", fill: int = 1) -> None:
    """Draw one line of text clipped to `box`; `baseline` is counted from the box's top."""
    left, top, right, bottom = box
    mask = _text_mask(text, fnt, right - left, bottom - top, baseline, align)
    img.paste(fill, (left, top), mask)


@lru_cache(maxsize=256)
def _text_mask(text: str, fnt: FreeFont, width: int, height: int, baseline: int,
               align: str) -> Image.Image:
    line = fit_text(text, fnt, width)
    room = width - advance(line, fnt)
    x = {"left": 0.0, "right": room, "centre": room / 2}[align]
    mask = Image.new("1", (width, height), 0)
    _lay(mask, x, baseline, line, fnt)
    return mask


@lru_cache(maxsize=128)
def _ink(text: str, fnt: FreeFont, mode: str = "1") -> Image.Image:
    """The text's pixels (one-bit, or anti-aliased in mode "L"), cropped to its bounding box."""
    size = int(fnt.size)
    canvas = Image.new(mode, (ceil(advance(text, fnt)) + 2 * size, 2 * size), 0)
    _lay(canvas, size // 2, 3 * size // 2, text, fnt, 255)
    return canvas.crop(canvas.getbbox() or (0, 0, 1, 1))


def _squashed(text: str, width: int) -> Image.Image:
    """The text at the smallest big size, anti-aliased, narrowed to `width` and thresholded."""
    grey = _ink(text, font("SemiBold", MIN_BIG), "L")
    narrow = grey.resize((width, grey.height), Image.Resampling.LANCZOS)
    return narrow.point(lambda v: 255 if v >= 110 else 0).convert("1")


GUESS_SIZE = 16              # size at which a big word is measured to guess its best size


def _surely_too_big(guess: tuple[int, int], size: int, width: int, height: int) -> bool:
    """Whether ink of `guess` pixels at GUESS_SIZE, grown to `size`, overflows width × height
    by more than hinting and tracking could explain: such sizes are not worth rasterising."""
    scale = size / GUESS_SIZE
    return guess[0] * scale > width * 1.1 + 2 or guess[1] * scale > height * 1.1 + 2


@lru_cache(maxsize=64)
def _biggest(text: str, width: int, height: int, sizes: Sizes) -> Image.Image | None:
    """The text in Bold at the largest size in `sizes` whose ink fits width × height."""
    guess = _ink(text, font("Bold", GUESS_SIZE))       # ink grows about in step with the size
    for size in sizes:
        if _surely_too_big(guess.size, size, width, height):
            continue
        ink = _ink(text, font("Bold", size))
        if ink.width <= width and ink.height <= height:
            return ink
    return None


def _paste_centred(img: Image.Image, ink: Image.Image, box: Box) -> None:
    left, top, right, bottom = box
    ink = ink.crop((0, 0, min(ink.width, right - left), min(ink.height, bottom - top)))
    x = left + (right - left - ink.width) // 2
    y = top + (bottom - top - ink.height) // 2
    img.paste(1, (x, y), ink)


# ---- header, hint, scroll marks ----

def _header(img: Image.Image, header: Header) -> None:
    ImageDraw.Draw(img).rectangle((0, 0, WIDTH - 1, BAND - 1), fill=1)
    fnt = font(*HEADER)
    side = header.side_label or (header.side or "").capitalize()
    info = " ".join(p for p in (f"R{header.round}" if header.round is not None else "", side) if p)
    info_w = min(text_width(info, fnt), WIDTH // 2) if info else 0
    _text(img, (WIDTH - 2 - info_w, 0, WIDTH - 2, BAND), info, fnt, 10, align="right", fill=0)
    title_right = WIDTH - 2 - info_w - (6 if info else 0)
    _text(img, (2, 0, title_right, BAND), header.title, fnt, 10, fill=0)


def _hint(img: Image.Image, hint: str) -> None:
    _text(img, (1, HEIGHT - HINT_H, WIDTH - 1, HEIGHT), hint, font(*HINT), 7,
          align="centre")


def _scroll_marks(img: Image.Image, top: int, bottom: int, up: bool, down: bool) -> None:
    draw, x = ImageDraw.Draw(img), WIDTH - 8
    if up:
        draw.polygon([(x, top + 4), (x + 6, top + 4), (x + 3, top + 1)], fill=1)
    if down:
        draw.polygon([(x, bottom - 5), (x + 6, bottom - 5), (x + 3, bottom - 2)], fill=1)


# ---- menu and lines ----

def _menu(img: Image.Image, view: Menu) -> None:
    bottom = HEIGHT - (HINT_H if view.hint else 0)
    shown = max(1, (bottom - TOP) // ROW_H)
    count = len(view.items)
    index = min(max(view.index, 0), max(count - 1, 0))
    first = min(max(index - (shown - 1) // 2, 0), max(count - shown, 0))
    right = WIDTH - 10 if count > shown else WIDTH - 1
    fnt, draw = font(*MENU), ImageDraw.Draw(img)
    for row, item in enumerate(view.items[first:first + shown]):
        top, selected = TOP + row * ROW_H, first + row == index
        if selected:
            draw.rounded_rectangle((0, top, right - 1, top + ROW_H - 1), radius=3, fill=1)
        _text(img, (4, top, right - 3, top + ROW_H), item, fnt, 11, fill=0 if selected else 1)
    _scroll_marks(img, TOP, bottom, first > 0, first + shown < count)
    _hint(img, view.hint)


def _lines(img: Image.Image, view: Lines) -> None:
    bottom = HEIGHT - (HINT_H if view.hint else 0)
    pitch = (bottom - TOP) // 4
    count = len(view.lines)
    first = min(max(view.index, 0), max(count - 1, 0))
    shown = view.lines[first:first + 4]
    more = first + len(shown) < count
    right = WIDTH - 10 if first > 0 or more else WIDTH - 1
    for row, line in enumerate(shown):
        top = TOP + row * pitch
        _text(img, (2, top, right, top + pitch + 1), line, font(*LINE), 9)
    _scroll_marks(img, TOP, bottom, first > 0, more)
    _hint(img, view.hint)


# ---- big word ----

def _big_word(img: Image.Image, view: BigWord) -> None:
    box = (2, TOP, WIDTH - 2, HEIGHT - 11 if view.detail else HEIGHT)
    _paste_centred(img, big_ink(view.word.strip(), box[2] - box[0], box[3] - box[1]), box)
    if view.detail:
        _text(img, (1, HEIGHT - 11, WIDTH - 1, HEIGHT), view.detail, font(*DETAIL), 9,
              align="centre")


@lru_cache(maxsize=64)
def big_ink(word: str, width: int, height: int) -> Image.Image:
    """An outcome word as large as width × height allows: Bold on one line, else on two,
    else narrowed, else smaller and cut short."""
    ink = _biggest(word, width, height, BIG_SIZES)
    if ink is None and " " in word:
        ink = _two_lines(word, width, height)
    if ink is None and _ink(word, font("SemiBold", MIN_BIG)).width * 0.6 <= width:
        ink = _squashed(word, width)
    if ink is None:                       # very long: smaller, and cut short if even that fails
        short = fit_text(word, font("Bold", 12), width)
        ink = _biggest(short, width, height, SMALL_BIG_SIZES) or _ink(
            short, font("Bold", 12))
    return ink


def _two_lines(word: str, width: int, height: int,
               sizes: Sizes = BIG_SIZES) -> Image.Image | None:
    """The word broken at its most central space into two lines in Bold, or None."""
    cut = min((i for i, c in enumerate(word) if c == " "), key=lambda i: abs(len(word) - 2 * i))
    parts = word[:cut].strip(), word[cut:].strip()
    inks = [_ink(part, font("Bold", GUESS_SIZE)) for part in parts]
    guess = max(ink.width for ink in inks), sum(ink.height for ink in inks)
    for size in sizes:
        if _surely_too_big(guess, size, width, height - 3):
            continue
        upper, lower = (_ink(part, font("Bold", size)) for part in parts)
        both = Image.new("1", (max(upper.width, lower.width), upper.height + 3 + lower.height))
        if both.width <= width and both.height <= height:
            both.paste(upper, ((both.width - upper.width) // 2, 0))
            both.paste(lower, ((both.width - lower.width) // 2, upper.height + 3))
            return both
    return None


# ---- dice ----

PIPS = {1: "c", 2: "ad", 3: "acd", 4: "abde", 5: "abcde", 6: "abdefg"}
# a top-left, b top-right, c centre, d bottom-right, e bottom-left, f middle-left, g middle-right
PIP_SIZE = {36: (6, 5), 30: (6, 4), 24: (4, 3), 20: (4, 2), 18: (4, 2), 12: (2, 2)}  # pip, margin
DICE_ROW = {1: (36, 0, 0, 1, 1), 2: (30, 4, 0, 2, 1), 3: (24, 3, 0, 3, 1), 4: (20, 2, 0, 4, 1)}


def _dice_grid(count: int) -> tuple[int, int, int, int, int]:
    """Die size, gaps across and down, columns and rows for `count` dice, 38 px high at most."""
    if count <= 4:
        return DICE_ROW[max(count, 1)]
    if count <= 8:
        return 18, 3, 2, 4, 2
    return 12, 2, 1, 6, 3


def _die(img: Image.Image, x: int, y: int, size: int, face: int, rolling: bool) -> None:
    img.paste(1, (x, y), _die_image(size, face, rolling))


@lru_cache(maxsize=64)
def _die_image(size: int, face: int, rolling: bool) -> Image.Image:
    """One die, size × size: lit with dark pips, or outlined with lit pips while rolling."""
    img = Image.new("1", (size, size), 0)
    draw = ImageDraw.Draw(img)
    body, pip = (0, 1) if rolling else (1, 0)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 5, fill=body, outline=1)
    if face not in PIPS:
        _text(img, (1, 1, size - 1, size - 1), "?" if face < 1 else str(face), font(*DIE),
              size // 2 + 2, align="centre", fill=pip)
        return img
    d, near = PIP_SIZE.get(size, (2, 2))
    mid, far = (size - d) // 2, size - near - d
    spots = {"a": (near, near), "b": (far, near), "c": (mid, mid), "d": (far, far),
             "e": (near, far), "f": (near, mid), "g": (far, mid)}
    for name in PIPS[face]:
        px, py = spots[name]
        draw.ellipse((px, py, px + d - 1, py + d - 1), fill=pip)
    return img


def _dice(img: Image.Image, faces: tuple[int, ...], top: int, rolling: bool) -> int:
    """Draw the dice from `top`, centred in 38 rows; return the right edge they use."""
    if not faces:
        return 0
    size, across, down, cols, rows = _dice_grid(len(faces))
    slots = cols * rows
    shown = faces if len(faces) <= slots else faces[:slots - 1]
    y0 = top + (38 - rows * size - (rows - 1) * down) // 2
    for i, face in enumerate(shown):
        col, row = i % cols, i // cols
        _die(img, 1 + col * (size + across), y0 + row * (size + down), size, face, rolling)
    if len(shown) < len(faces):
        x, y = 1 + (cols - 1) * (size + across), y0 + (rows - 1) * (size + down)
        _text(img, (x, y, x + size + 3, y + size), f"+{len(faces) - len(shown)}",
              font(*DIE), size - 2)
    return 1 + cols * size + (cols - 1) * across


def _roll(img: Image.Image, view: Roll) -> None:
    small, bold = font(*CAPTION), font(*NEEDED)
    needed_w = text_width(view.needed, bold) if view.needed else 0
    room = WIDTH - 7 - text_width(view.caption, small)
    if needed_w > room:                   # too long together: each gets at least half a line
        needed_w = max(room, min(needed_w, WIDTH // 2 - 3))
    _text(img, (WIDTH - 1 - needed_w, TOP, WIDTH - 1, TOP + 12), view.needed, bold, 9,
          align="right")
    _text(img, (1, TOP, WIDTH - 1 - needed_w - (5 if needed_w else 0), TOP + 12), view.caption,
          small, 9)
    dice_right = _dice(img, view.faces, TOP + 13, view.rolling)
    box = (dice_right + 3, TOP + 13, WIDTH - 1, HEIGHT)
    if view.total:
        width, height = box[2] - box[0], box[3] - box[1]
        ink = _biggest(view.total, width, height, TOTAL_SIZES)
        if ink is None and " " in view.total.strip():
            ink = _two_lines(view.total.strip(), width, height, TOTAL_SIZES[-3:])
        if ink is None:
            _text(img, box, view.total, small, 22, align="centre")
        else:
            _paste_centred(img, ink, box)


# ---- warm-up ----

def warm_up(texts: Iterable[str], big_texts: Iterable[str],
            words: Iterable[str]) -> Iterator[bool]:
    """Draw ahead, one glyph or word per step: the letters of `texts` in every small-text
    font, those of `big_texts` (totals, distances) at every big size, and the outcome `words`
    as their screens show them, so that later frames mostly paste. Each step yields True; the
    caller runs steps while the box has nothing to do."""
    def letters(strings: Iterable[str]) -> list[str]:
        return sorted({" ", *(c for text in strings for c in text)})

    small, big = letters([*texts, ELLIPSIS]), letters(big_texts)
    fonts = [(font(*weight_size), small) for weight_size in WARM_FONTS]
    sizes = sorted({*BIG_SIZES, *TOTAL_SIZES, GUESS_SIZE}, reverse=True)
    fonts += [(font("Bold", size), big) for size in sizes]
    for fnt, chars in fonts:
        for char in chars:
            for phase in range(PHASES):
                glyph(char, fnt, "1", phase)
                yield True
    for word in words:
        for height in (HEIGHT - 11 - TOP, HEIGHT - TOP):     # with and without a detail line
            big_ink(word.strip(), WIDTH - 4, height)
            yield True
