"""The shipped reference glyphs (device/ui/reference_glyphs.py): drawn as FreeType draws here,
of the installed fonts, covering every letter of every face, and what the screens use, so that
a system whose Pillow has another FreeType (32-bit Raspberry Pi OS) shows the same pixels."""
from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.ui import glyphs, reference_glyphs
from cobi_companion.device.ui.renderer import render
from PIL import ImageFont

from .test_glyphs import (
    FREETYPE_FRAMES,
    LANGUAGES,
    clear_caches,
    drawn_by_freetype,
    shown_texts,
    views,
)


@pytest.fixture
def fresh() -> Iterator[None]:
    """Empty glyph caches and no atlas of an earlier start, before and after."""
    glyphs.keep(None)
    clear_caches()
    reference_glyphs.shipped.cache_clear()
    yield
    glyphs.use_reference(True)
    glyphs.keep(None)
    clear_caches()
    reference_glyphs.shipped.cache_clear()


@dataclass(frozen=True)
class Command:
    """What the command that draws the reference glyphs said, and the file it drew."""

    path: Path              # the file it was given (gone since)
    said: str               # its output
    drawn: dict[str, Any]   # the file's data


@cache
def command() -> Command:
    """`python -m cobi_companion.device.ui.reference_glyphs FILE`, run once a process as
    `python3 run.py glyphs` runs it on the shipped file, in a cache folder of its own: the
    glyphs as FreeType draws them here, in a process of their own, for the command's test and
    the check of the shipped file (each drew them all)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "glyphs.json"
        done = subprocess.run([sys.executable, "-m", "cobi_companion.device.ui.reference_glyphs",
                               str(path)], capture_output=True, text=True, check=True,
                              env={**os.environ, "XDG_CACHE_HOME": str(Path(folder) / "cache")})
        return Command(path, done.stdout.strip(), json.loads(path.read_text(encoding="utf-8")))


# The two tests that read the command's file run on one worker, where it is drawn once.
@pytest.mark.xdist_group("reference-glyphs-command")
def test_the_shipped_file_is_what_freetype_draws_here() -> None:
    # A change to how glyphs are drawn (glyphs.py), to the faces or to the letters fails here
    # until `python3 run.py glyphs` draws them again; on another FreeType there is nothing to
    # compare with (there, the shipped glyphs are the point).
    made, here = reference_glyphs.drawn_with()["freetype"], ImageFont.core.freetype2_version
    if made != here:
        pytest.skip(f"drawn with FreeType {made}, this is {here}")
    shipped = json.loads(reference_glyphs.FILE.read_text(encoding="utf-8"))
    drawn = command().drawn                 # as `python3 run.py glyphs` draws them here
    assert shipped["fonts"] == drawn["fonts"], "other font files: python3 run.py glyphs"
    assert shipped["atlas"] == drawn["atlas"], "glyphs drawn otherwise: python3 run.py glyphs"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_shipped_glyphs_are_of_the_installed_fonts_and_have_every_letter(
        fresh, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    # Every character the box can show (test_glyphs.shown_texts: the texts it draws ahead, each
    # source of them again, the refusals and notes, the cards' names), in every face and mode.
    atlas = reference_glyphs.shipped()
    assert atlas is not None, "not usable: python3 run.py glyphs"
    shown = {char for text in shown_texts(language, monkeypatch) for char in text}
    shown -= set(glyphs.REFERENCE)  # the bar the test's symbols add, drawn only to place glyphs
    shown |= set(glyphs.LETTERS)
    missing = [(weight, size, mode, char, phase)
               for (weight, size), mode in reference_glyphs.faces()
               for char in sorted(shown) for phase in range(glyphs.PHASES)
               if not atlas.holds(char, glyphs.font(weight, size), mode, phase)]
    assert not missing, f"{len(missing)} missing, e.g. {missing[:5]}: python3 run.py glyphs"


def no_freetype(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """FreeType's drawing and measuring, refused (and noted): what another FreeType would
    draw otherwise."""
    asked: list[str] = []

    def refused(self: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(text)
        raise AssertionError(f"FreeType asked for {text!r}")
    for name in ("getmask2", "getlength", "getbbox"):
        monkeypatch.setattr(ImageFont.FreeTypeFont, name, refused)
    return asked


@cache
def cut_from_the_shipped(language: str) -> tuple[list[bytes], list[str]]:
    """`views(language)` rendered with FreeType refused, from empty caches, no atlas and the
    shipped reference glyphs read again (as under `fresh`): their frames, and what FreeType
    was asked for. Once a process, for the test that they need no FreeType and the test that
    they are the frames FreeType draws here (each rendered them all). The glyphs module's
    atlas and reference switch are put back after, the caches emptied again."""
    earlier, reference = glyphs.kept(), glyphs._earlier.reference
    glyphs.keep(None)
    glyphs.use_reference(True)
    clear_caches()
    reference_glyphs.shipped.cache_clear()
    try:
        with pytest.MonkeyPatch.context() as monkeypatch:
            asked = no_freetype(monkeypatch)
            frames = [render(view).tobytes() for view in views(language)]
    finally:
        glyphs.keep(earlier)
        glyphs.use_reference(reference)
        clear_caches()
    return frames, asked


@FREETYPE_FRAMES
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_screens_need_no_freetype(fresh, language: str) -> None:
    # Every string of the language in every small face, the outcome words big (squashed too),
    # the cards' names, dice and totals: drawn with FreeType refused.
    assert len(views(language)) > 100
    _, asked = cut_from_the_shipped(language)
    assert asked == []


@FREETYPE_FRAMES
def test_screens_cut_from_the_shipped_glyphs_are_the_screens_freetype_draws_here(fresh) -> None:
    made = reference_glyphs.drawn_with()
    if made["freetype"] != ImageFont.core.freetype2_version:
        pytest.skip(f"drawn with FreeType {made['freetype']}, this is "
                    f"{ImageFont.core.freetype2_version}")
    shown = [view for language in LANGUAGES for view in views(language)]
    cut = [frame for language in LANGUAGES for frame in cut_from_the_shipped(language)[0]]
    drawn = [frame for language in LANGUAGES for frame in drawn_by_freetype(language).frames]
    differing = [view for view, a, b in zip(shown, cut, drawn, strict=True) if a != b]
    assert not differing, f"{len(differing)} screens differ, e.g. {differing[0]}"


def test_shipped_glyphs_go_into_the_atlas_of_a_start(fresh, monkeypatch, tmp_path) -> None:
    # A first start asks FreeType for nothing its texts use; what it cut is kept in the atlas
    # of the start as drawn glyphs are, and the next start reads only that.
    from .test_glyphs import start_box

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert start_box(tmp_path / "state") == 0
    from cobi_companion.device.ui import atlas
    kept = atlas.read()
    assert kept is not None and len(kept.boxes) > 1000
    glyphs.use_reference(False)                 # the next start: the atlas has them all
    assert start_box(tmp_path / "state") == 0


@pytest.mark.parametrize("how", ["missing", "not JSON", "other format", "other fonts",
                                 "a strip too short"])
def test_an_unusable_file_leaves_every_glyph_to_freetype(fresh, tmp_path: Path, how: str,
                                                           caplog) -> None:
    path = tmp_path / "reference-glyphs.json"
    data = json.loads(reference_glyphs.FILE.read_text(encoding="utf-8"))
    if how == "not JSON":
        path.write_bytes(b"\x89PNG")
    elif how == "other format":
        path.write_text(json.dumps({**data, "format": "something else"}))
    elif how == "other fonts":
        path.write_text(json.dumps({**data, "fonts": {**data["fonts"], "Bold": "0" * 64}}))
    elif how == "a strip too short":
        data["atlas"]["faces"][0]["pixels"] = data["atlas"]["faces"][0]["pixels"][:8]
        path.write_text(json.dumps(data))
    with caplog.at_level(logging.INFO, logger=reference_glyphs.__name__):
        assert reference_glyphs.shipped(path) is None
    assert str(path) in caplog.text                       # said, with the file's name


@pytest.mark.xdist_group("reference-glyphs-command")
def test_the_command_draws_them_into_a_file() -> None:
    # `python3 run.py glyphs` runs this module on the shipped file; here on a file of the test.
    done = command()
    assert done.said.startswith(f"{done.path}: ")
    assert " characters in 19 faces, drawn with Pillow " in done.said
    assert done.drawn["fonts"] == reference_glyphs.font_digests()
    if done.drawn["drawn_with"] == reference_glyphs.drawn_with():
        assert done.drawn == json.loads(reference_glyphs.FILE.read_text(encoding="utf-8"))


def test_the_font_digests_are_kept_until_a_font_file_changes(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import hashlib
    import shutil

    from cobi_companion.cards import snapshot
    from cobi_companion.device.ui import atlas

    copies = {weight: tmp_path / Path(glyphs.font_path(weight)).name for weight in atlas.WEIGHTS}
    for weight, copy in copies.items():
        shutil.copyfile(glyphs.font_path(weight), copy)
        os.utime(copy, (1_000_000_000, 1_000_000_000))  # well before the racy window
    monkeypatch.setattr(glyphs, "font_path", lambda weight: str(copies[weight]))

    def digest(path: Path) -> str:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    first = reference_glyphs.font_digests()
    assert first == {weight: digest(copy) for weight, copy in copies.items()}
    kept = snapshot.snapshot_file(reference_glyphs.DIGESTS_SNAPSHOT)
    assert kept.is_file()
    # A font file changed (an upgrade of the font package): its digest is taken again.
    weight, changed = next(iter(copies.items()))
    data = changed.read_bytes()
    changed.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    os.utime(changed, (1_000_000_100, 1_000_000_100))
    again = reference_glyphs.font_digests()
    assert again[weight] == digest(changed) != first[weight]
    # A snapshot that is not one digest a weight is not used.
    kept.write_text(json.dumps({"key": "x", "data": {weight: 5}}))
    assert reference_glyphs.font_digests() == again
