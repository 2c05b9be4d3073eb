"""The glyph atlas: the glyphs the box's screens need, drawn once and kept on disk.

FreeType takes ~0.1 ms to draw a glyph here and several ms on a Pi Zero; the box draws about
2,000 ahead while it is idle after a start (the letters of its texts in every small face, the
digits and outcome words at every big size: `box.warm_up_for`), which cost most of a second of
CPU here at every start. The first start draws them and keeps them in the atlas; the next starts
read the atlas instead: each glyph is cut from it when a screen first needs it, with the same
pixels, place and advance as drawn (`glyphs.glyph`), and FreeType is never asked.

The file is a snapshot (cards/snapshot.py: written whole, checked whole): for each face (font
file, size and mode), a strip image of its glyphs side by side and each glyph's place in it; and
the advances measured. Its key is the font files (their sizes and times), the code that draws
glyphs, and the versions of Python, Pillow and FreeType: a change to any of them makes a new
atlas, drawn at the next start. A broken atlas is ignored, and drawn again. Letters it lacks
(another language, a card with a new letter) are drawn as before, and added to it.
"""
from __future__ import annotations

import base64
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import repeat
from operator import add
from pathlib import Path
from typing import Any

import PIL
from cobi_companion.cards import snapshot
from cobi_companion.device.ui import glyphs
from cobi_companion.device.ui.glyphs import Drawn, FreeFont, Glyph, GlyphKey, LengthKey
from PIL import Image, ImageFont

ATLAS_NAME = "glyph-atlas.json"
WEIGHTS = ("Medium", "SemiBold", "Bold")      # the box's fonts (renderer, big, dice)
Box = tuple[int, int, int, int, int]           # x in the strip, width, height, left, top


def atlas_file() -> Path:
    return snapshot.cache_folder() / ATLAS_NAME


def key() -> list[Any]:
    """What the glyphs' pixels depend on: the font files, the code that draws them and the
    reference glyphs, Python, Pillow and FreeType."""
    fingerprint = snapshot.Fingerprint()
    for weight in WEIGHTS:
        fingerprint.file(Path(glyphs.font_path(weight)))
    here = Path(__file__).parent
    # The reference glyphs too: the atlas keeps what it cut from them, and a new file must
    # not leave the old glyphs in use.
    fingerprint.code([here / "glyphs.py", here / "atlas.py", here / "reference_glyphs.py",
                      here / "reference-glyphs.json"])
    fingerprint.value("pillow", [PIL.__version__, ImageFont.core.freetype2_version])
    return fingerprint.key


@dataclass
class Atlas:
    """Glyphs by (font file, size, mode, character, phase): each a box in its face's strip;
    and advances by (font file, size, character)."""

    strips: dict[tuple[str, int, str], Image.Image] = field(default_factory=dict)
    boxes: dict[GlyphKey, Box] = field(default_factory=dict)
    lengths: dict[LengthKey, float] = field(default_factory=dict)

    def glyph(self, char: str, fnt: FreeFont, mode: str, phase: int) -> Glyph | None:
        """The glyph as it was drawn, cut from its strip; None if the atlas lacks it."""
        path, size = str(fnt.path), int(fnt.size)
        box = self.boxes.get((path, size, mode, char, phase))
        if box is None:
            return None
        x, width, height, left, top = box
        advance = glyphs.char_advance(char, fnt)
        if not width:
            return Glyph(None, 0, 0, advance)
        twin = self.boxes.get((path, size, mode, char, 0)) if phase else None
        if twin is not None and twin[:3] == box[:3]:          # the same pixels: one image
            mask = glyphs.glyph(char, fnt, mode, 0).mask
        else:
            mask = self.strips[path, size, mode].crop((x, 0, x + width, height))
        return Glyph(mask, left, top, advance)

    def holds(self, char: str, fnt: FreeFont, mode: str, phase: int) -> bool:
        return (str(fnt.path), int(fnt.size), mode, char, phase) in self.boxes

    def length(self, char: str, fnt: FreeFont) -> float | None:
        return self.lengths.get((str(fnt.path), int(fnt.size), char))

    def with_drawn(self, drawn: Drawn) -> Atlas:
        """This atlas and the glyphs and advances drawn since it was read, in new strips."""
        every = {key: self._cut(key) for key in self.boxes}
        return pack({**every, **drawn.glyphs}, {**self.lengths, **drawn.lengths})

    def _cut(self, key: GlyphKey) -> Glyph:
        path, size, mode, _, _ = key
        x, width, height, left, top = self.boxes[key]
        mask = self.strips[path, size, mode].crop((x, 0, x + width, height)) if width else None
        return Glyph(mask, left, top, 0.0)


def pack(drawn: dict[GlyphKey, Glyph], lengths: dict[LengthKey, float]) -> Atlas:
    """Glyphs in strips, a face each; glyphs of the same pixels share their place."""
    atlas = Atlas(lengths=dict(lengths))
    faces: dict[tuple[str, int, str], list[GlyphKey]] = {}
    for key in drawn:
        faces.setdefault(key[:3], []).append(key)
    for face, keys in faces.items():
        places: dict[tuple[tuple[int, int], bytes], int] = {}    # pixels -> x in the strip
        masks = [m for k in keys if (m := drawn[k].mask) is not None]
        width = 0
        for mask in masks:
            if (mask.size, mask.tobytes()) not in places:
                places[mask.size, mask.tobytes()] = width
                width += mask.width
        strip = Image.new(face[2], (max(1, width), max((m.height for m in masks), default=1)))
        for mask in masks:
            strip.paste(mask, (places[mask.size, mask.tobytes()], 0))
        atlas.strips[face] = strip
        for key in keys:
            g = drawn[key]
            atlas.boxes[key] = (0, 0, 0, 0, 0) if g.mask is None else \
                (places[g.mask.size, g.mask.tobytes()], *g.mask.size, g.left, g.top)
    return atlas


def to_data(atlas: Atlas) -> dict[str, Any]:
    """The atlas as JSON data, a face at a time: its strip's pixels in base64; its glyphs'
    characters, phases and boxes (five numbers each) in three flat lists; and the advances of
    each font and size, their characters and values (flat lists read fastest)."""
    faces = []
    for (path, size, mode), strip in atlas.strips.items():
        keys = [k for k in atlas.boxes if k[:3] == (path, size, mode)]
        faces.append({"font": path, "size": size, "mode": mode, "width": strip.width,
                      "height": strip.height,
                      "pixels": base64.b64encode(strip.tobytes()).decode("ascii"),
                      "chars": "".join(k[3] for k in keys),
                      "phases": "".join(str(k[4]) for k in keys),
                      "boxes": [number for k in keys for number in atlas.boxes[k]]})
    fonts: dict[tuple[str, int], list[tuple[str, float]]] = {}
    for (path, size, char), value in atlas.lengths.items():
        fonts.setdefault((path, size), []).append((char, value))
    lengths = [{"font": path, "size": size, "chars": "".join(c for c, _ in values),
                "values": [v for _, v in values]} for (path, size), values in fonts.items()]
    return {"faces": faces, "lengths": lengths}


def from_data(data: Any) -> Atlas:
    """The atlas of `to_data`'s data; ValueError (or KeyError, TypeError) if it is not one
    whole: every list as long as its characters, every box inside its strip, every strip of
    its size."""
    atlas = Atlas()
    for face in data["faces"]:
        path, size, mode = str(face["font"]), int(face["size"]), str(face["mode"])
        strip = Image.frombytes(mode, (int(face["width"]), int(face["height"])),
                                base64.b64decode(face["pixels"], validate=True))
        chars, phases, numbers = str(face["chars"]), str(face["phases"]), face["boxes"]
        if not len(chars) == len(phases) == len(numbers) // 5 or len(numbers) % 5:
            raise ValueError("the glyphs' lists differ in length")
        xs, widths, heights = numbers[0::5], numbers[1::5], numbers[2::5]
        if chars and (min(xs) < 0 or max(map(add, xs, widths)) > strip.width
                      or min(heights) < 0 or max(heights) > strip.height):
            raise ValueError("a glyph outside its strip")
        atlas.strips[path, size, mode] = strip
        # The lists' lengths are checked above (`repeat` never ends: strict=False).
        keys = zip(repeat(path), repeat(size), repeat(mode), chars, map(int, phases),
                   strict=False)
        boxes = zip(xs, widths, heights, numbers[3::5], numbers[4::5], strict=True)
        atlas.boxes.update(zip(keys, boxes, strict=False))
    for font in data["lengths"]:
        path, size, chars, values = str(font["font"]), int(font["size"]), font["chars"], \
            font["values"]
        if len(chars) != len(values):
            raise ValueError("the advances' lists differ in length")
        places = zip(repeat(path), repeat(size), chars, strict=False)
        atlas.lengths.update(zip(places, map(float, values), strict=True))
    return atlas


def read(path: Path | None = None) -> Atlas | None:
    """The atlas on disk, if it is whole and of these fonts and this code; else None."""
    data = snapshot.load(path or atlas_file(), key())
    try:
        return from_data(data) if isinstance(data, dict) else None
    except (KeyError, TypeError, ValueError):           # not what the box wrote
        return None


@dataclass
class _Read:
    """The atlas file read last, and its stamp then."""

    path: Path | None = None
    stamp: list[Any] | None = None
    atlas: Atlas | None = None


_read = _Read()      # the atlas file read last: the title reads it, the box uses it again


def use(path: Path | None = None) -> Atlas | None:
    """Read the atlas and let the screens cut their glyphs from it (None: there is none). An
    atlas in use that is still the one on disk is used on, not read again."""
    path = path or atlas_file()
    stamp = snapshot.stamp(path)
    if (path, stamp) == (_read.path, _read.stamp) and glyphs.kept() is _read.atlas \
            and _read.atlas is not None:
        return _read.atlas
    atlas = read(path)
    _read.path, _read.stamp, _read.atlas = path, stamp, atlas
    glyphs.keep(atlas)
    return atlas


def drawn_ahead(steps: Iterator[bool], path: Path | None = None) -> Iterator[bool]:
    """`steps` (the warm-up, drawing ahead), then the atlas written again if anything was
    drawn since the start that it lacked (glyphs.recorded). A disk that cannot be written only
    means the same again next time."""
    yield from steps
    drawn = glyphs.recorded()
    if drawn.glyphs or drawn.lengths:
        kept = glyphs.kept()
        atlas = (kept if isinstance(kept, Atlas) else Atlas()).with_drawn(drawn)
        snapshot.save(path or atlas_file(), key(), to_data(atlas))
        glyphs.keep(atlas)
        yield True
