"""Screens: a pure function from a view model to a 128×64 one-bit image for the OLED.

Equal views draw identical pixels. No text is ever cut: lines of text wrap onto the rows below
(a Lines view's rows scroll with the knob, see `rows`), a menu item too long for one row takes
two or more, and a line that has only one row (the header's title, the hint) is drawn in turns
(`Header.page`) when even its smallest face is too wide; so is a menu item taller than the
menu, an outcome word too long to be big whole (in turns of its words) and a detail under it
too long for the rows it leaves. Each piece of text is drawn inside its own box, tall enough
for every letter the box shows (glyphs.ROWS; the hint's row from its own letters), so that
nothing spills over its neighbours. `overflow` says which text of a view does not fit its box
all the same.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from math import lcm

from cobi_companion.device.core.views import BigWord, Header, Lines, Menu, Roll, View
from cobi_companion.device.ports.panel import HEIGHT as HEIGHT
from cobi_companion.device.ports.panel import WIDTH as WIDTH
from cobi_companion.device.ui import dice, reference_glyphs
from cobi_companion.device.ui.big import (
    BIG_SIZES,
    GUESS_SIZE,
    SMALL_BIG_SIZES,
    TOTAL_SIZES,
    Big,
    Sizes,
    Turns,
    big_ink,
    big_turns,
    biggest,
    two_lines,
)
from cobi_companion.device.ui.glyphs import (
    PHASES,
    ROWS,
    Face,
    font,
    glyph,
    holds,
    ink,
    ink_box,
    lay,
    pitch,
    refer_to,
    stamp,
    text_width,
)
from cobi_companion.device.ui.wrap import fits, wrap
from PIL import Image, ImageDraw

# Every screen is drawn here: its glyphs come from the reference glyphs where the atlas of an
# earlier start lacks them, FreeType only for what they lack too (reference_glyphs.py).
refer_to(reference_glyphs.shipped)

BAND = 13                    # header band: rows 0..12, as tall as its letters reach
TOP = BAND + 1               # first body row (one black row under the band)
HINT_H = 9                   # hint line at the bottom (taller for tall letters: hint_height)
HINT_BASELINE = HINT_H - 2   # its baseline, counted from the hint row's top
MARKS_W = 10                 # the scroll marks' column at the right
PAGE_MARK_W = 5              # the mark after a line shown in turns that goes on
GAP = 5                      # between a roll's caption and what it needs on one row
TOTAL_ROOM = 37              # px kept right of the dice for a roll's total
ELLIPSIS = "…"               # never added to a text: the tests look for it

Box = tuple[int, int, int, int]          # left, top, right, bottom (exclusive)

# The faces of the small text, as (weight, size). The header is one row in a band as tall as
# its letters reach (9 px where 10 px is too wide); the body's text is 11 px, 13 rows from one
# baseline to the next (glyphs.pitch), and 9 px where 11 px has no room; the hint is 9 px.
HEADER: Face = ("SemiBold", 10)
HEADER_SMALL: Face = ("Medium", 9)
HINT: Face = ("Medium", 9)
MENU: Face = ("Medium", 11)
MENU_NARROW: Face = ("Medium", 10)       # same rows as 11 px, a little narrower
LINE: Face = ("Medium", 11)
SMALL: Face = ("Medium", 9)
CAPTION, NEEDED = LINE, ("SemiBold", 11)
DETAIL: Face = ("Medium", 10)
DIE = dice.DIE
WARM_FONTS = (HEADER, HEADER_SMALL, MENU, MENU_NARROW, LINE, NEEDED, DETAIL)  # see warm_up
CUT_STEP = 16                # glyphs cut from the atlas in one step of the warm-up (~0.1 ms)


# ---- what a frame shows ----

@dataclass(frozen=True, slots=True)
class Shown:
    """One piece of text as a frame shows it: a row of small text with its face and pen (its
    pixels are clipped to `box`), or big text pasted as an image (`face` None, `size` its Bold
    size). `source` is the whole text the piece is a row (or a turn) of."""

    place: str                     # "title", "info", "item", "row", "hint", "caption", ...
    text: str
    box: Box
    source: str
    face: Face | None = None
    x: float = 0.0                 # where the pen starts (small text)
    baseline: int = 0
    size: int = 0


@dataclass
class Frame:
    """A view drawn: the image, every text on it, what did not fit (see `overflow`), and how
    many turns its paged lines take."""

    image: Image.Image
    shown: list[Shown] = field(default_factory=list)
    misfits: list[str] = field(default_factory=list)
    pages: int = 1
    paged: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)


def render(view: View) -> Image.Image:
    """Draw `view` on a new 128×64 mode "1" image (1 = lit pixel)."""
    return frame(view).image.copy()


def shared(view: View) -> Image.Image:
    """`render` without the copy, for the main loop's displays: the frame kept for `view`
    (read it, never change it). A copy of the whole frame on every press is worth saving."""
    return frame(view).image


@lru_cache(maxsize=16)
def frame(view: View) -> Frame:
    """`view` drawn, with what it shows; kept for the last views (the image is shared: copy it
    before changing it)."""
    headed = _headed(view.header)
    drawn = Frame(headed.image.copy(), list(headed.shown), [], headed.pages,
                  list(headed.paged))
    match view:
        case Menu():
            _menu(drawn, view)
        case Roll():
            _roll(drawn, view)
        case BigWord():
            _big_word(drawn, view)
        case Lines():
            _lines(drawn, view)
    return drawn


@lru_cache(maxsize=32)
def _headed(header: Header) -> Frame:
    """A frame with only its header drawn: most frames in a row share theirs."""
    drawn = Frame(Image.new("1", (WIDTH, HEIGHT), 0))
    _header(drawn, header)
    return drawn


def overflow(view: View) -> list[str]:
    """What of `view` does not fit its box: text whose pixels would leave it (and are cut off),
    and text, dice or words the layout found no room for. Empty for every screen of the box;
    a line shown in turns (`pages`) is shown whole, and is not counted."""
    drawn = frame(view)
    cut = [f"{piece.place}: {piece.text!r} leaves {piece.box}" for piece in drawn.shown
           if piece.face is not None and not _inside(piece)]
    return [*drawn.misfits, *cut]


def pages(view: View) -> int:
    """How many turns the lines of `view` that are too long for their one row take
    (`Header.page` picks the turn); 1 when everything fits."""
    return frame(view).pages


def _inside(piece: Shown) -> bool:
    assert piece.face is not None
    where = ink_box(piece.text, font(*piece.face), piece.x, piece.baseline)
    left, top, right, bottom = piece.box
    return where is None or (where[0] >= left and where[1] >= top and where[2] <= right
                             and where[3] <= bottom)


# ---- small text ----

def _put(drawn: Frame, place: str, text: str, face: Face, box: Box, baseline: int,
         align: str = "left", fill: int = 1, source: str | None = None) -> None:
    """Draw one row of text clipped to `box`; `baseline` is counted from the box's top."""
    left, top, right, bottom = box
    fnt = font(*face)
    room = right - left - (text_width(text, fnt) - 1)
    x = {"left": 0.0, "right": room, "centre": room / 2}[align]
    mask = _text_mask(text, face, right - left, bottom - top, baseline, x)
    stamp(drawn.image, fill, left, top, mask)
    drawn.shown.append(Shown(place, text, box, text if source is None else source, face,
                             left + x, top + baseline))


@lru_cache(maxsize=256)
def _text_mask(text: str, face: Face, width: int, height: int, baseline: int,
               x: float) -> Image.Image:
    mask = Image.new("1", (max(width, 0), height), 0)
    lay(mask, x, baseline, text, font(*face))
    return mask


def _block(drawn: Frame, place: str, rows: Iterable[str], face: Face, box: Box,
           align: str = "left", fill: int = 1, source: str | None = None) -> None:
    """Rows of text (of `source`) from the top of `box`, one `pitch(face)` apart."""
    left, top, right, _ = box
    step, above = pitch(face), ROWS[face][0]
    for number, row in enumerate(rows):
        y = top + number * step
        _put(drawn, place, row, face, (left, y, right, y + step), above, align, fill, source)


def _paged(drawn: Frame, place: str, text: str, face: Face, box: Box, baseline: int,
           page: int, align: str = "left", fill: int = 1) -> None:
    """A line with only one row: whole when it fits, else in turns of whole words (`page`
    picks the turn), each turn but the last marked with a small arrow."""
    fnt, (left, top, right, bottom) = font(*face), box
    if fits(text, fnt, right - left):
        _put(drawn, place, text, face, box, baseline, align, fill)
        return
    turns = wrap(text, fnt, right - left - PAGE_MARK_W)
    drawn.pages = lcm(drawn.pages, len(turns))
    drawn.paged.append((place, text, turns))
    turn = page % len(turns)
    _put(drawn, place, turns[turn], face, (left, top, right - PAGE_MARK_W, bottom), baseline,
         align, fill, text)
    if turn < len(turns) - 1:
        _more(drawn.image, right - 4, top + baseline, fill)


def _paged_block(drawn: Frame, place: str, text: str, rows: tuple[str, ...], shown: int,
                 face: Face, box: Box, page: int) -> None:
    """Centred rows of `text`: all of them, or `shown` at a time in turns (`page` picks the
    turn), each turn but the last marked with a small arrow at the right."""
    turns = [rows[at:at + shown] for at in range(0, len(rows), max(shown, 1))]
    if len(turns) > 1:
        drawn.pages = lcm(drawn.pages, len(turns))
        drawn.paged.append((place, text, tuple(" ".join(turn) for turn in turns)))
    number = page % len(turns) if turns else 0
    left, top, right, bottom = box
    mark = PAGE_MARK_W if len(turns) > 1 else 0
    _block(drawn, place, turns[number] if turns else (), face,
           (left, top, right - mark, bottom), "centre", source=text)
    if number < len(turns) - 1:
        _more(drawn.image, right - 4, bottom - pitch(face) + ROWS[face][0], 1)


def _more(img: Image.Image, x: int, baseline: int, fill: int) -> None:
    """The small arrow after a turn of text that another turn follows."""
    stamp(img, fill, x, baseline - 6, _shape(((0, 0), (0, 4), (2, 2))))


# Shapes every frame has some of (the chosen item's highlight, the scroll marks, the arrow of a
# paged line): drawn once on a mask of their own, then pasted where they go, with the same
# pixels as drawn in place: ImageDraw's rounded rectangles and polygons of whole pixels move
# pixel for pixel. Drawing them in place cost more than the rest of a menu's frame together.
Points = tuple[tuple[int, int], ...]


@lru_cache(maxsize=16)
def _shape(points: Points) -> Image.Image:
    """A filled polygon whose top left is at (0, 0)."""
    mask = Image.new("1", (max(x for x, _ in points) + 1, max(y for _, y in points) + 1), 0)
    ImageDraw.Draw(mask).polygon(list(points), fill=1)
    return mask


@lru_cache(maxsize=32)
def _highlight(width: int, height: int) -> Image.Image:
    """The rounded highlight behind a chosen item."""
    mask = Image.new("1", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=3, fill=1)
    return mask


# ---- header, hint, scroll marks ----

def _header(drawn: Frame, header: Header) -> None:
    drawn.image.paste(1, (0, 0, WIDTH, BAND))      # the band: ImageDraw's rectangle, cheaper
    side = header.side_label or (header.side or "").capitalize()
    info = " ".join(p for p in (f"R{header.round}" if header.round is not None else "", side) if p)
    for face in (HEADER, HEADER_SMALL):     # 9 px where the title does not fit at 10 px
        fnt = font(*face)
        info_w = min(text_width(info, fnt), WIDTH // 2) if info else 0
        title_right = WIDTH - 2 - info_w - (6 if info else 0)
        if fits(header.title, fnt, title_right - 2):
            break
    baseline = ROWS[HEADER][0]              # the 9 px letters are shorter: the same baseline
    if info:
        _paged(drawn, "info", info, face, (WIDTH - 2 - info_w, 0, WIDTH - 2, BAND), baseline,
               header.page, "right", fill=0)
    _paged(drawn, "title", header.title, face, (2, 0, title_right, BAND), baseline,
           header.page, fill=0)


def hint_height(hint: str) -> int:
    """Rows the hint takes at the bottom of the panel (0 without one): see `_hint_row`."""
    return _hint_row(hint)[0] if hint else 0


@lru_cache(maxsize=64)
def _hint_row(hint: str) -> tuple[int, int]:
    """The hint's row: its height and its baseline from the row's top. HINT_H rows, and as
    many more as the hint's letters reach above or below them (an accented capital, a
    bracket: "Ü", "["), so that they are drawn whole. The glyphs decide, not the language:
    most hints have none of them, and take the row every English hint takes."""
    where = ink_box(hint, font(*HINT), 0.0, HINT_BASELINE)
    if where is None:
        return HINT_H, HINT_BASELINE
    above, below = max(0, -where[1]), max(0, where[3] - HINT_H)
    return HINT_H + above + below, HINT_BASELINE + above


def _hint(drawn: Frame, hint: str, page: int) -> None:
    if hint:
        height, baseline = _hint_row(hint)
        _paged(drawn, "hint", hint, HINT, (1, HEIGHT - height, WIDTH - 1, HEIGHT), baseline,
               page, "centre")


UP_MARK: Points = ((0, 3), (6, 3), (3, 0))
DOWN_MARK: Points = ((0, 0), (6, 0), (3, 3))


def _scroll_marks(img: Image.Image, top: int, bottom: int, up: bool, down: bool) -> None:
    x = WIDTH - 8
    if up:
        stamp(img, 1, x, top + 1, _shape(UP_MARK))
    if down:
        stamp(img, 1, x, bottom - 5, _shape(DOWN_MARK))


# ---- menu ----

Item = tuple[Face, tuple[str, ...]]         # a menu item's face and rows


def _item(text: str, width: int, room: int) -> Item:
    """A menu item's face and rows: one row at 11 px, or at 10 px; else wrapped, at 11 px
    where its rows fit the menu, or 10 px, or 9 px; at 9 px beside the arrow of a turn where
    even they do not fit (the item is shown in turns, see `_turn_rows`)."""
    for face in (MENU, MENU_NARROW):
        if fits(text, font(*face), width):
            return face, (text,)
    for face in (MENU, MENU_NARROW, SMALL):
        rows = wrap(text, font(*face), width)
        if len(rows) * pitch(face) <= room:
            return face, rows
    return SMALL, wrap(text, font(*SMALL), width - PAGE_MARK_W)


def _turn_rows(item: Item, room: int) -> int:
    """How many rows of the item are shown at a time: all of them, or as many as the menu
    holds for an item taller than the menu, which is shown in turns."""
    face, rows = item
    return min(len(rows), max(1, room // pitch(face)))


@lru_cache(maxsize=32)
def _items(texts: tuple[str, ...], room: int) -> tuple[tuple[Item, ...], int]:
    """Every item's face and rows, and the right edge of the highlight: the full width when
    all items fit the screen, else beside the scroll marks. Kept: a turn of the knob moves
    the highlight over the same items."""
    for right in (WIDTH - 1, WIDTH - MARKS_W):
        items = tuple(_item(text, right - 7, room) for text in texts)
        if sum(_height(item, room) for item in items) <= room:
            break
    return items, right


def _height(item: Item, room: int) -> int:
    return _turn_rows(item, room) * pitch(item[0])


@lru_cache(maxsize=32)
def _heights(texts: tuple[str, ...], room: int) -> tuple[int, ...]:
    """Each item's height in `_items(texts, room)`, kept with them: a turn of the knob through
    a long list does not measure every item again."""
    return tuple(_height(item, room) for item in _items(texts, room)[0])


def _first_item(heights: tuple[int, ...], index: int, room: int) -> int:
    """The first item shown: the one above the highlighted item where both fit, and at the end
    of the list as many above as fit."""
    first = index - 1 if index > 0 and heights[index - 1] + heights[index] <= room else index
    below = sum(heights[first:])            # the height of the items from `first` on
    while first > 0 and below + heights[first - 1] <= room:
        first -= 1
        below += heights[first]
    return first


def _menu(drawn: Frame, view: Menu) -> None:
    bottom = HEIGHT - hint_height(view.hint)
    _hint(drawn, view.hint, view.header.page)
    if not view.items:
        return
    room = bottom - TOP
    items, right = _items(view.items, room)
    heights = _heights(view.items, room)
    index = min(max(view.index, 0), len(items) - 1)
    first = _first_item(heights, index, room)
    y, last = TOP, first
    for number in range(first, len(items)):
        if y + heights[number] > bottom:
            if number == first:
                drawn.misfits.append(f"item: {view.items[number]!r} is taller than the menu")
            else:
                break
        selected, last = number == index, number
        if selected:
            stamp(drawn.image, 1, 0, y, _highlight(right, heights[number]))
        _menu_item(drawn, view.items[number], items[number], (4, y, right - 3, bottom),
                   _turn_rows(items[number], room), view.header.page, 0 if selected else 1)
        if number in view.dimmed:          # every other pixel of its letters put out
            stamp(drawn.image, 1 if selected else 0, 0, y, _dots(right, heights[number]))
        y += heights[number]
    _scroll_marks(drawn.image, TOP, bottom, first > 0, last < len(items) - 1)


def _menu_item(drawn: Frame, text: str, item: Item, box: Box, shown: int, page: int,
               fill: int) -> None:
    """One item's rows from the top of `box`: all of them, or `shown` at a time in turns
    (`page` picks the turn), each turn but the last marked with the small arrow."""
    face, rows = item
    turns = [rows[at:at + shown] for at in range(0, len(rows), shown)]
    turn = page % len(turns)
    if len(turns) > 1:
        drawn.pages = lcm(drawn.pages, len(turns))
        drawn.paged.append(("item", text, tuple(" ".join(one) for one in turns)))
    _block(drawn, "item", turns[turn], face, box, fill=fill, source=text)
    if turn < len(turns) - 1:
        _more(drawn.image, box[2] - 4, box[1] + (shown - 1) * pitch(face) + ROWS[face][0],
              fill)


@lru_cache(maxsize=8)
def _dots(width: int, height: int) -> Image.Image:
    """A mask of one pixel in four (every other one of every other row): a dimmed item's
    letters with holes in them, still to be read."""
    mask = Image.new("1", (width, height), 0)
    mask.putdata([int(y % 2 == 0 and x % 2 == 0) for y in range(height) for x in range(width)])
    return mask


# ---- lines ----

def _lines_room(view: Lines) -> tuple[int, int]:
    """Rows of text a Lines view shows at once, and the bottom of its text."""
    bottom = HEIGHT - hint_height(view.hint)
    return (bottom - TOP) // pitch(LINE), bottom


@lru_cache(maxsize=64)
def _wrapped(lines: tuple[str, ...], shown: int) -> tuple[tuple[str, ...], int]:
    """The lines in rows, and the rows' right edge: the full width when they fit the screen,
    else beside the scroll marks."""
    fnt = font(*LINE)
    for right in (WIDTH - 2, WIDTH - MARKS_W):
        rows = tuple(row for line in lines for row in wrap(line, fnt, right - 2))
        if len(rows) <= shown:
            break
    return rows, right


def rows(view: Lines) -> tuple[str, ...]:
    """The rows of a Lines view: its lines wrapped to the panel. `Lines.index` counts them."""
    return _wrapped(view.lines, _lines_room(view)[0])[0]


def rows_shown(view: Lines) -> int:
    """How many rows of a Lines view the panel shows at once."""
    return _lines_room(view)[0]


def last_row(view: Lines) -> int:
    """The greatest `Lines.index` that changes what the panel shows: its last row at the
    bottom of a full screen."""
    return max(0, len(rows(view)) - _lines_room(view)[0])


def _lines(drawn: Frame, view: Lines) -> None:
    shown, bottom = _lines_room(view)
    wrapped, right = _wrapped(view.lines, shown)
    first = min(max(view.index, 0), last_row(view))
    _block(drawn, "row", wrapped[first:first + shown], LINE, (2, TOP, right, bottom))
    _scroll_marks(drawn.image, TOP, bottom, first > 0, first + shown < len(wrapped))
    _hint(drawn, view.hint, view.header.page)


def _paste_centred(img: Image.Image, drawn: Image.Image, box: Box) -> None:
    left, top, right, bottom = box
    stamp(img, 1, left + (right - left - drawn.width) // 2,
          top + (bottom - top - drawn.height) // 2, drawn)


def _big(drawn: Frame, place: str, text: str, box: Box, big: Big | None,
         smaller: Sizes) -> None:
    """Big text in `box`: `big` when it came out, else in Bold at the `smaller` sizes on one or
    two lines, else wrapped in the body's face; what does not fit even so is a misfit."""
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    if big is None:
        big = biggest(text, width, height, smaller)
    if big is None and " " in text.strip():
        big = two_lines(text.strip(), width, height, smaller)
    if big is not None:
        _paste_centred(drawn.image, big[0], box)
        drawn.shown.append(Shown(place, text, box, text, size=big[1]))
        return
    for face in (LINE, SMALL):
        wrapped = wrap(text.strip(), font(*face), width)
        if len(wrapped) * pitch(face) <= height or face == SMALL:
            break
    used = len(wrapped) * pitch(face)
    if used > height:
        drawn.misfits.append(f"{place}: {text!r} needs {used} rows, has {height}")
    _block(drawn, place, wrapped, face, (left, top + max(0, (height - used) // 2), right,
                                         bottom), "centre", source=text)


# ---- big word ----

def _whole(word: str, height: int) -> bool:
    """Whether the outcome word is drawn big on the width of the panel, `height` rows high."""
    return big_ink(word, WIDTH - 4, height) is not None


def _in_turns(word: str, height: int) -> bool:
    """Whether it is drawn big in turns of its words (beside the arrow of a turn)."""
    return big_turns(word, WIDTH - 4 - PAGE_MARK_W, height) is not None


def _detail_rows(view: BigWord, bottom: int) -> tuple[Face, tuple[str, ...], int]:
    """The detail's face and rows, and how many rows it shows at a time: all of them at 10 px
    or 9 px while the word above stays big; else as many as leave the word big, in turns
    (beside their arrow). Big whole if it can be, else big in turns of its words.
    `bottom`: the row under the detail (the hint's top, if the view has one)."""
    word = view.word.strip()
    if not view.detail:
        return DETAIL, (), 0
    narrow: tuple[str, ...] = ()
    for stays_big in (_whole, _in_turns):
        for face in (DETAIL, SMALL):
            wrapped = wrap(view.detail, font(*face), WIDTH - 2)
            if stays_big(word, bottom - TOP - len(wrapped) * pitch(face)):
                return face, wrapped, len(wrapped)
        narrow = wrap(view.detail, font(*SMALL), WIDTH - 2 - PAGE_MARK_W)
        for shown in range(len(narrow) - 1, 0, -1):
            if stays_big(word, bottom - TOP - shown * pitch(SMALL)):
                return SMALL, narrow, shown
    return SMALL, narrow, 1


def _big_word(drawn: Frame, view: BigWord) -> None:
    bottom = HEIGHT - hint_height(view.hint)
    _hint(drawn, view.hint, view.header.page)
    face, detail, shown = _detail_rows(view, bottom)
    top = bottom - shown * pitch(face)
    _paged_block(drawn, "detail", view.detail, detail, shown, face,
                 (1, top, WIDTH - 1, bottom), view.header.page)
    box = (2, TOP, WIDTH - 2, top)
    word = view.word.strip()
    width, height = box[2] - box[0], box[3] - box[1]
    whole = big_ink(word, width, height)
    turns = big_turns(word, width - PAGE_MARK_W, height) if whole is None else None
    if turns is not None:
        _big_turns(drawn, word, turns, box, view.header.page)
    else:
        _big(drawn, "word", word, box, whole, SMALL_BIG_SIZES)


def _big_turns(drawn: Frame, word: str, turns: Turns, box: Box, page: int) -> None:
    """A big word in turns of its words (`page` picks the turn), each turn but the last marked
    with the small arrow at the right."""
    drawn.pages = lcm(drawn.pages, len(turns))
    drawn.paged.append(("word", word, tuple(text for text, _ in turns)))
    number = page % len(turns)
    text, (pixels, size) = turns[number]
    left, top, right, bottom = box
    _paste_centred(drawn.image, pixels, (left, top, right - PAGE_MARK_W, bottom))
    drawn.shown.append(Shown("word", text, box, word, size=size))
    if number < len(turns) - 1:
        _more(drawn.image, right - 4, (top + bottom) // 2 + 3, 1)


# ---- roll ----

TEXT_ROWS = 2                # rows a roll's caption and what it needs take, at most


def _roll_text(view: Roll) -> tuple[Face, Face, list[tuple[str, str, int]]] | None:
    """The caption (left) and what the roll needs (right), as (text, align, row): on one row
    when both fit, else each wrapped, what it needs beside the caption's last row where it
    fits; at 11 px, else at 9 px. None when they take more than TEXT_ROWS even so."""
    for caption_face, needed_face in ((CAPTION, NEEDED), (SMALL, SMALL)):
        width = WIDTH - 2
        caption = list(wrap(view.caption, font(*caption_face), width)) if view.caption else []
        needed = list(wrap(view.needed, font(*needed_face), width)) if view.needed else []
        placed = [(row, "left", number) for number, row in enumerate(caption)]
        after = len(caption)
        if caption and len(needed) == 1 and text_width(caption[-1], font(*caption_face)) \
                + GAP + text_width(needed[0], font(*needed_face)) <= width:
            after -= 1                                     # beside the caption's last row
        placed += [(row, "right", after + number) for number, row in enumerate(needed)]
        if max((row for _, _, row in placed), default=-1) < TEXT_ROWS:
            return caption_face, needed_face, placed
    return None


def _roll_rows(drawn: Frame, view: Roll) -> int:
    """Draw the caption and what the roll needs; return the first row under them. Where they
    would take more than TEXT_ROWS, each has one row of its own, in turns."""
    laid = _roll_text(view)
    step = pitch(CAPTION)
    if laid is None:
        both = (("caption", view.caption, CAPTION, "left"), ("needed", view.needed, NEEDED,
                                                              "right"))
        shown = [p for p in both if p[1]]
        for row, (place, text, face, align) in enumerate(shown):
            y = TOP + row * step
            _paged(drawn, place, text, face, (1, y, WIDTH - 1, y + step), ROWS[face][0],
                   view.header.page, align)
        return TOP + step * len(shown)
    caption_face, needed_face, placed = laid
    step = pitch(caption_face)
    for text, align, row in placed:
        face, source = (caption_face, view.caption) if align == "left" else \
            (needed_face, view.needed)
        y = TOP + row * step
        _put(drawn, "caption" if align == "left" else "needed", text, face,
             (1, y, WIDTH - 1, y + step), ROWS[face][0], align, source=source)
    return TOP + step * (1 + max((row for _, _, row in placed), default=0))


def _roll(drawn: Frame, view: Roll) -> None:
    top = _roll_rows(drawn, view)
    keep = TOTAL_ROOM if view.total or view.rolling else 0
    # where the dice leave no TOTAL_ROOM, they leave what the total needs at its smallest
    least = ink(view.total.strip(), font("Bold", TOTAL_SIZES[-1])).width if view.total else 0
    area = (1, top, WIDTH - 1, HEIGHT)
    if view.total and least > keep:
        # where the total would not fit beside the dice laid out as usual (a long word in a
        # longer language), they make room for it on one line where they can
        right = dice.draw(Image.new("1", (WIDTH, HEIGHT)), view.faces, area, keep,
                          view.rolling, [], least)
        if not _fits_beside(view.total.strip(), WIDTH - 1 - (right + 3), HEIGHT - top):
            keep, least = least, keep
    dice_right = dice.draw(drawn.image, view.faces, area, keep, view.rolling, drawn.misfits,
                           least)
    if view.total:
        box = (dice_right + 3, top, WIDTH - 1, HEIGHT)
        width, height = box[2] - box[0], box[3] - box[1]
        _big(drawn, "total", view.total.strip(),
             box, biggest(view.total.strip(), width, height, TOTAL_SIZES), TOTAL_SIZES[-3:])


def _fits_beside(total: str, room: int, height: int) -> bool:
    """Whether a roll's total is drawn big, on one or two lines, in `room` px beside the dice."""
    return biggest(total, room, height, TOTAL_SIZES) is not None \
        or (" " in total and two_lines(total, room, height, TOTAL_SIZES[-3:]) is not None)


# ---- warm-up ----

def warm_up(texts: Iterable[str], big_texts: Iterable[str],
            words: Iterable[str]) -> Iterator[bool]:
    """Draw ahead, one glyph or word per step: the letters of `texts` in every small-text
    font, those of `big_texts` (totals, distances) at every big size, and the outcome `words`
    as their screens show them, so that later frames mostly paste. Glyphs the atlas in use
    holds are cut from it instead (see glyphs.keep), CUT_STEP to a step: cheap, but the first
    battle's presses would each cut theirs. Each step yields True; the caller runs steps
    while the box has nothing to do."""
    def letters(strings: Iterable[str]) -> list[str]:
        return sorted({" ", *(c for text in strings for c in text)})

    small, big = letters(texts), letters(big_texts)
    fonts = [(font(*weight_size), small) for weight_size in WARM_FONTS]
    sizes = sorted({*BIG_SIZES, *TOTAL_SIZES, GUESS_SIZE}, reverse=True)
    fonts += [(font("Bold", size), big) for size in sizes]
    for fnt, chars in fonts:
        cut = 0
        for char in chars:
            for phase in range(PHASES):
                held = holds(char, fnt, "1", phase)
                glyph(char, fnt, "1", phase)
                cut += held
                if not held or cut % CUT_STEP == 0:     # a glyph drawn, or a few cut
                    yield True
        yield True                            # a font's glyphs looked up: a short step
    for word in words:
        for rows in (1, 0):                   # with and without a row of detail
            height = HEIGHT - TOP - rows * pitch(DETAIL)
            if big_ink(word.strip(), WIDTH - 4, height) is None:      # a word shown in turns
                big_turns(word.strip(), WIDTH - 4 - PAGE_MARK_W, height)
            yield True

