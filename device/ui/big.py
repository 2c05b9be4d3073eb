"""Big text: outcome words, totals and numbers, as large as their box allows and never cut:
Bold at the largest size that fits, on one line or two, else narrowed."""
from __future__ import annotations

from functools import lru_cache

from cobi_companion.device.ui.glyphs import font, ink
from PIL import Image

MIN_BIG = 23                 # Bold size whose capitals are 16 px tall
SQUASH = 0.6                 # big text is narrowed to no less than this of its width
LINE_GAP = 1                 # rows between the two lines of a big word
# The Bold sizes big text is tried at, largest first: outcome words; shortened long words; a
# roll's total. Few sizes, so that the warm-up can draw their digits and letters ahead, and
# shared: FreeType maps the font file once per size, ~0.45 MB of the box's memory each once
# its glyphs are drawn. No word or number the box shows is drawn between 36 and 29. A total
# takes the big words' sizes up to 29, then 20, 16 (GUESS_SIZE) and 12; one that fits none of
# them is wrapped in the small text's face.
BIG_SIZES = (40, 36, 29, 26, MIN_BIG)
SMALL_BIG_SIZES = (20, 17, 14)
TOTAL_SIZES = (29, 26, MIN_BIG, 20, 16, 12)

Sizes = tuple[int, ...]
Big = tuple[Image.Image, int]            # big text's pixels and its Bold size


GUESS_SIZE = 16              # size at which a big word is measured to guess its best size


def _surely_too_big(guess: tuple[int, int], size: int, width: int, height: int) -> bool:
    """Whether ink of `guess` pixels at GUESS_SIZE, grown to `size`, overflows width × height
    by more than hinting and tracking could explain: such sizes are not worth rasterising."""
    scale = size / GUESS_SIZE
    return guess[0] * scale > width * 1.1 + 2 or guess[1] * scale > height * 1.1 + 2


@lru_cache(maxsize=64)
def biggest(text: str, width: int, height: int, sizes: Sizes) -> Big | None:
    """The text in Bold at the largest size in `sizes` whose ink fits width × height."""
    guess = ink(text, font("Bold", GUESS_SIZE))       # ink grows about in step with the size
    for size in sizes:
        if _surely_too_big(guess.size, size, width, height):
            continue
        drawn = ink(text, font("Bold", size))
        if drawn.width <= width and drawn.height <= height:
            return drawn, size
    return None


def _squashed(text: str, width: int) -> Image.Image:
    """The text at the smallest big size, anti-aliased, narrowed to `width` and thresholded."""
    grey = ink(text, font("SemiBold", MIN_BIG), "L")
    narrow = grey.resize((width, grey.height), Image.Resampling.LANCZOS)
    return narrow.point(lambda v: 255 if v >= 110 else 0).convert("1")


def two_lines(word: str, width: int, height: int, sizes: Sizes = BIG_SIZES) -> Big | None:
    """The word broken at its most central space into two lines in Bold, or None."""
    parts = _halves(word)
    inks = [ink(part, font("Bold", GUESS_SIZE)) for part in parts]
    guess = max(one.width for one in inks), sum(one.height for one in inks)
    for size in sizes:
        if _surely_too_big(guess, size, width, height - LINE_GAP):
            continue
        upper, lower = (ink(part, font("Bold", size)) for part in parts)
        both = Image.new("1", (max(upper.width, lower.width),
                               upper.height + LINE_GAP + lower.height))
        if both.width <= width and both.height <= height:
            both.paste(upper, ((both.width - upper.width) // 2, 0))
            both.paste(lower, ((both.width - lower.width) // 2, upper.height + LINE_GAP))
            return both, size
    return None


@lru_cache(maxsize=64)
def big_ink(word: str, width: int, height: int) -> Big | None:
    """An outcome word as large as width × height allows, with capitals at least 16 px tall:
    Bold on one line, else on two, else narrowed on one or two; None when none of them
    fits."""
    drawn = biggest(word, width, height, BIG_SIZES)
    if drawn is None and " " in word:
        drawn = two_lines(word, width, height)
    if drawn is not None:
        return drawn
    # only now, not for every word: drawing it in SemiBold may rasterise glyphs on a press
    wide = ink(word, font("SemiBold", MIN_BIG))
    if wide.width * SQUASH <= width and wide.height <= height:
        drawn = _squashed(word, width), MIN_BIG
    if drawn is None and " " in word:
        drawn = _two_squashed(word, width, height)
    return drawn


def _halves(word: str) -> tuple[str, str]:
    """The word broken at its most central space."""
    cut = min((i for i, c in enumerate(word) if c == " "), key=lambda i: abs(len(word) - 2 * i))
    return word[:cut].strip(), word[cut:].strip()


def _two_squashed(word: str, width: int, height: int) -> Big | None:
    """The word on two lines at the smallest big size, each narrowed to the width if it must
    be (to no less than SQUASH of its own); None when that does not fit either."""
    lines = []
    for part in _halves(word):
        wide = ink(part, font("SemiBold", MIN_BIG))
        if wide.width * SQUASH > width:
            return None
        lines.append(wide if wide.width <= width else _squashed(part, width))
    upper, lower = lines
    both = Image.new("1", (max(upper.width, lower.width), upper.height + LINE_GAP + lower.height))
    if both.height > height:
        return None
    both.paste(upper, ((both.width - upper.width) // 2, 0))
    both.paste(lower, ((both.width - lower.width) // 2, upper.height + LINE_GAP))
    return both, MIN_BIG


Turns = tuple[tuple[str, Big], ...]      # a word's turns: each turn's text and its pixels


@lru_cache(maxsize=64)
def big_turns(word: str, width: int, height: int) -> Turns | None:
    """A word too long for width × height as big_ink draws it, shown in turns of whole words
    instead: a big word read in two or three looks reads better than one made small. Each
    turn is as many words as fit in Bold at a big size on one line or two; a single word too
    wide for that is narrowed (big_ink). None when a single word does not fit even so."""
    turns: list[tuple[str, Big]] = []
    shown, drawn = "", None
    for part in word.split():
        longer = f"{shown} {part}" if shown else part
        found = _unsquashed(longer, width, height) if shown else big_ink(part, width, height)
        if found is None and drawn is not None:          # the turn so far is full
            turns.append((shown, drawn))
            longer, found = part, big_ink(part, width, height)
        if found is None:
            return None
        shown, drawn = longer, found
    return (*turns, (shown, drawn)) if drawn is not None else None


def _unsquashed(text: str, width: int, height: int) -> Big | None:
    """The text in Bold at a big size on one line, else on two, as its letters are drawn."""
    drawn = biggest(text, width, height, BIG_SIZES)
    return two_lines(text, width, height) if drawn is None and " " in text else drawn
