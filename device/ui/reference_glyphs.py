"""The reference glyphs: the box's letters as drawn where its screens were tested, shipped in
the package, so that every system shows the same pixels.

Pillow draws with the FreeType it was built with. Its wheels bring their own; but on 32-bit
Raspberry Pi OS there is no wheel, and Pillow is built against Debian's FreeType (2.12), which
hints some glyphs otherwise: on a dozen of the tested screens 2 to 9 pixels differed, and a
letter of a menu row reached a row into the next (bookworm-armhf, `run.py os-check`). So the
glyphs of every letter the box's texts use, in every face its screens use, are drawn once with
the FreeType the tests passed with, and shipped (reference-glyphs.json, written again by
`python3 run.py glyphs`). The glyphs come from them first (`glyphs.glyph`: after the atlas of
an earlier start, which keeps them too); a letter they lack (a card's own) is drawn by FreeType
as before. The file holds its font files' SHA-256: for other font files it is not used.
"""
from __future__ import annotations

import hashlib
import json
import logging
import sys
from functools import cache
from pathlib import Path
from typing import Any

import PIL
from cobi_companion.cards import snapshot
from cobi_companion.device.ui import atlas, glyphs
from cobi_companion.device.ui.atlas import Atlas
from PIL import ImageFont

log = logging.getLogger(__name__)

FILE = Path(__file__).with_name("reference-glyphs.json")
FORMAT = "cobi-companion reference glyphs 1"
SMALL_FACES: tuple[glyphs.Face, ...] = tuple(glyphs.ROWS)   # every small text's face


def faces() -> list[tuple[glyphs.Face, str]]:
    """Every face the screens draw in, with its mode: the small text's, and Bold at every big
    size (big words, totals, dice), and the narrowed big word's SemiBold."""
    from cobi_companion.device.ui import big

    sizes = sorted({*big.BIG_SIZES, *big.SMALL_BIG_SIZES, *big.TOTAL_SIZES, big.GUESS_SIZE})
    return [*((face, "1") for face in SMALL_FACES), *((("Bold", s), "1") for s in sizes),
            (("SemiBold", big.MIN_BIG), "1"), (("SemiBold", big.MIN_BIG), "L")]


def characters() -> str:
    """Every letter of LETTERS, of every language's texts and of the rules' refusals and notes
    in the box's words, of the shipped cards' names, and of the signs the screens add."""
    from cobi_companion.cards import load_cards
    from cobi_companion.words import catalogue, languages

    texts = [glyphs.LETTERS, glyphs.SIGNS, " "]
    for language in languages.LANGUAGES:        # the refusals' and notes' words among them
        texts += [catalogue.text(language.code, key) for key in catalogue.every_key()]
    texts += [text for card in load_cards([]).sorted() for language in languages.LANGUAGES
              for text in (card.name_in(language.code), card.short_in(language.code))]
    return "".join(sorted({char for text in texts for char in text}))


# The snapshot of the font files' digests (cards/snapshot.py), in the cache folder.
DIGESTS_SNAPSHOT = "font-digests"


def font_digests() -> dict[str, str]:
    """Each weight's font file's SHA-256; from their snapshot while none of the files has
    changed (hashing their 1.4 MB was most of the time it takes to read the reference glyphs,
    which a start does while the cache has no atlas, or one that lacks a glyph)."""
    def files() -> snapshot.Fingerprint:
        fingerprint = snapshot.Fingerprint().value("digest", "sha256")
        for weight in atlas.WEIGHTS:
            fingerprint.file(Path(glyphs.font_path(weight)))
        return fingerprint
    return snapshot.cached(snapshot.snapshot_file(DIGESTS_SNAPSHOT), files, _font_digests,
                           dict, _digests)


def _font_digests() -> dict[str, str]:
    return {weight: hashlib.sha256(Path(glyphs.font_path(weight)).read_bytes()).hexdigest()
            for weight in atlas.WEIGHTS}


def _digests(data: Any) -> dict[str, str]:
    """The digests of a snapshot's data; ValueError if it is not one digest a weight."""
    if set(data) != set(atlas.WEIGHTS) or not all(isinstance(v, str) for v in data.values()):
        raise ValueError("not the font files' digests")
    return {weight: str(data[weight]) for weight in atlas.WEIGHTS}


def draw() -> dict[str, Any]:
    """Every character in every face and mode at every phase, drawn by FreeType here, as the
    file's data (the faces' font files named by their weights, not their paths)."""
    glyphs.use_reference(False)
    glyphs.keep(None)
    try:
        glyphs.record()
        for (weight, size), mode in faces():
            fnt = glyphs.font(weight, size)
            for char in characters():
                for phase in range(glyphs.PHASES):
                    glyphs.glyph(char, fnt, mode, phase)
        drawn = glyphs.recorded()
    finally:
        glyphs.use_reference(True)
    data = atlas.to_data(Atlas().with_drawn(drawn))
    weights = {glyphs.font_path(weight): weight for weight in atlas.WEIGHTS}
    for part in (*data["faces"], *data["lengths"]):
        part["font"] = weights[part["font"]]
    return {"format": FORMAT, "fonts": font_digests(),
            "drawn_with": {"pillow": PIL.__version__,
                           "freetype": ImageFont.core.freetype2_version},
            "atlas": data}


def write(path: Path = FILE) -> Path:
    """Draw the reference glyphs and write them to `path`."""
    data = draw()
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n",
                    encoding="utf-8")
    return path


def drawn_with(path: Path = FILE) -> dict[str, str]:
    """The Pillow and FreeType versions the file's glyphs were drawn with."""
    return dict(json.loads(path.read_text(encoding="utf-8"))["drawn_with"])


@cache
def shipped(path: Path = FILE) -> Atlas | None:
    """The reference glyphs as an atlas of this system's font files, or None (said in the
    log): no file, not whole, or of other font files."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}, not {FORMAT!r}")
        if data["fonts"] != font_digests():
            log.info("%s: drawn from other font files; FreeType draws every glyph", path)
            return None
        paths = {weight: glyphs.font_path(weight) for weight in atlas.WEIGHTS}
        for part in (*data["atlas"]["faces"], *data["atlas"]["lengths"]):
            part["font"] = paths[part["font"]]
        return atlas.from_data(data["atlas"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        log.warning("%s cannot be used (%s); FreeType draws every glyph", path, exc)
        return None


def main(argv: list[str]) -> int:
    """`python -m cobi_companion.device.ui.reference_glyphs [FILE]`: draw them into FILE (by
    default the shipped one, as `python3 run.py glyphs` does)."""
    path = write(Path(argv[0]) if argv else FILE)
    with_ = drawn_with(path)
    print(f"{path}: {len(characters())} characters in {len(faces())} faces, drawn with "
          f"Pillow {with_['pillow']} and FreeType {with_['freetype']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
