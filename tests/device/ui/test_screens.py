"""Screens: every view type drawn, compared pixel for pixel with PNG snapshots.

The snapshots in `snapshots/` are stored at 4× scale so a person can look at them. A missing
snapshot, or any snapshot when UPDATE_SNAPSHOTS=1, is written and its test skipped with a
message; a mismatch fails and writes `<name>.actual.png` beside the snapshot.
"""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from cobi_companion.device.core.views import BigWord, Header, Lines, Menu, Roll, View
from cobi_companion.device.ports.terminal import to_halfblocks
from cobi_companion.device.ui import big, dice, glyphs, wrap
from cobi_companion.device.ui import renderer as screens
from cobi_companion.device.ui.glyphs import font
from cobi_companion.device.ui.renderer import BAND, HEIGHT, TOP, WIDTH, overflow, render
from PIL import Image, ImageChops, ImageDraw

SNAPSHOTS = Path(__file__).parents[1] / "snapshots"
SCALE = 4

EN = Header("Fire", 3, "axis", "Axis")
PL = Header("Ogień", 2, "allies", "Alianci")
DAMAGE = (6, 1, 3, 5, 2, 4, 6, 6, 1, 2, 5, 3, 4, 4, 6, 2)

VIEWS: dict[str, View] = {
    "menu_en_start": Menu(Header("COBI Companion"),
                          ("Resume battle", "New battle", "Quick dice", "Settings", "Rules"),
                          0, "OK = choose"),
    "menu_pl_scrolled_to_end": Menu(
        Header("Ustawienia", 3, "axis", "Oś"),
        ("Dźwięk: wł.", "Język: polski", "Jasność: 80%", "Prawdziwe kości: nie",
         "Uczciwość kości", "Wróć do bitwy"), 5, "OK = wybierz"),
    "menu_en_long_items": Menu(
        Header("Which vehicle? Choose the one that fires", 12, "allies", "Allies"),
        ("Sherman M4A1 (76) W with a very long name", "T-34/85", "Cromwell"), 0),
    "roll_en_one_die": Roll(EN, (5,), "To hit", "needs 4+", "= 5"),
    "roll_pl_four_dice": Roll(PL, (6, 3, 1, 4), "Obrażenia", "trzeba 4+", "= 14"),
    "roll_en_six_dice": Roll(EN, (1, 2, 3, 4, 5, 6), "Damage", "needs 5+", "2 hits"),
    "roll_en_sixteen_dice": Roll(EN, DAMAGE, "Damage", "needs 5+", "5"),
    "roll_pl_twenty_dice": Roll(PL, (*DAMAGE, 3, 6, 1, 2), "Obrażenia", "trzeba 6+", "4"),
    "roll_pl_rolloff_rolling": Roll(Header("Inicjatywa"), (2, 5), "Obaj: wciśnijcie przycisk",
                                    "Oś 2 · Alianci 5", "", rolling=True),
    "roll_en_tie": Roll(Header("Initiative"), (4, 4), "Both: press your button",
                        "Axis 4 · Allies 4", "Tie: roll again"),
    "bigword_en_hit": BigWord(EN, "HIT", "needs 4+ · rolled 5"),
    "bigword_pl_hit": BigWord(PL, "TRAFIONY", "trzeba 4+ · wyrzucono 5"),
    "bigword_en_immobilized": BigWord(EN, "IMMOBILIZED", "Panzer IV cannot move"),
    "bigword_pl_unieruchomiony": BigWord(PL, "UNIERUCHOMIONY", "Pantera nie może jechać"),
    "bigword_pl_two_words": BigWord(Header("Koniec gry", 9), "WYGRYWA: Alianci"),
    "lines_en_scrolled": Lines(
        Header("Battle log", 4),
        ("R4 Sherman fires at Panzer IV: HIT", "R4 Panzer IV immobilized",
         "R3 T-34 moves 20 cm", "R3 Panzer IV reloads", "R2 Tiger fires at T-34: MISS",
         "R2 Sherman moves 15 cm", "R1 Axis starts"), 2, "OK = next"),
    "lines_pl_status": Lines(
        Header("Stan pojazdów", 2, "allies", "Alianci"),
        ("Żbik Oś: gotowy", "Pantera Oś: niezaładowany, osłabiony",
         "Łoś Alianci: unieruchomiony", "Sherman Alianci: bez działa", "T-34 Alianci: gotowy")),
}


def scaled(image: Image.Image) -> Image.Image:
    return image.resize((WIDTH * SCALE, HEIGHT * SCALE), Image.Resampling.NEAREST)


def lit(image: Image.Image) -> int:
    """How many pixels of a mode "1" image are lit."""
    return image.histogram()[255]


def dark(image: Image.Image) -> int:
    return image.histogram()[0]


def differing_pixels(a: Image.Image, b: Image.Image) -> int:
    return lit(ImageChops.logical_xor(a, b))


def lit_box(image: Image.Image, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    bbox = image.crop(box).getbbox()
    assert bbox is not None, f"nothing lit in {box}"
    return bbox


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_snapshot(name: str) -> None:
    image = render(VIEWS[name])
    path, actual = SNAPSHOTS / f"{name}.png", SNAPSHOTS / f"{name}.actual.png"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1" or not path.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        scaled(image).save(path)
        pytest.skip(f"snapshot written: {path}; look at it, then run again to compare")
    with Image.open(path) as stored:
        expected = stored.convert("1").resize((WIDTH, HEIGHT), Image.Resampling.NEAREST)
    diff = differing_pixels(image, expected)
    if diff:
        scaled(image).save(actual)
        pytest.fail(f"{name}: {diff} pixels differ from {path.name}; see {actual.name}")
    actual.unlink(missing_ok=True)


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_frame_is_one_bit_and_deterministic(name: str) -> None:
    first, second = render(VIEWS[name]), render(replace(VIEWS[name]))   # an equal copy
    assert (first.mode, first.size) == ("1", (WIDTH, HEIGHT))
    assert first.tobytes() == second.tobytes()


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_header_band_shows_its_text(name: str) -> None:
    band = render(VIEWS[name]).crop((0, 0, WIDTH, BAND))
    assert 20 < dark(band) < WIDTH * BAND // 2        # black text on a white band


def test_header_shows_round_and_side() -> None:
    bare = render(BigWord(Header("Fire"), "HIT"))
    full = render(BigWord(Header("Fire", 3, "axis", "Axis"), "HIT"))
    right = (WIDTH // 2, 0, WIDTH, BAND)
    assert bare.crop(right).tobytes() != full.crop(right).tobytes()


@pytest.mark.parametrize("word", ["HIT", "TRAFIONY", "IMMOBILIZED", "UNIERUCHOMIONY",
                                  "NIEZAŁADOWANE", "WYGRYWA: Alianci"])
def test_big_words_are_at_least_16_px_tall(word: str) -> None:
    image = render(BigWord(PL, word, "detail"))
    left, top, right, bottom = lit_box(image, (0, TOP, WIDTH, HEIGHT - 13))
    assert bottom - top >= 16
    assert left >= 1 and right <= WIDTH - 1


def test_total_is_at_least_16_px_tall() -> None:
    image = render(Roll(PL, (6, 3, 1, 4), "Obrażenia", "", "= 14"))
    _, top, _, bottom = lit_box(image, (90, TOP + 13, WIDTH, HEIGHT))
    assert bottom - top >= 16


def test_dice_show_their_pips() -> None:
    one, six = (render(Roll(EN, (face,), "To hit")) for face in (1, 6))
    die = (1, TOP + 13, 21, HEIGHT)
    pips = [dark(img.crop(die)) for img in (one, six)]
    assert pips[1] > pips[0] > 0


LONG = "Ż" + "very long text without end " * 20


@pytest.mark.parametrize("view", [
    Lines(Header(LONG, 999, "axis", LONG), (LONG,) * 9, 1, LONG),
    Roll(Header(LONG), (1, 2, 3, 4), LONG, LONG, LONG),
    BigWord(Header(LONG), LONG, LONG),
    Menu(Header(LONG), (LONG,), 0, LONG),
], ids=["lines", "roll", "bigword", "menu"])
def test_long_text_stays_inside_its_boxes(view: View) -> None:
    image = render(view)
    band = image.crop((WIDTH - 2, 0, WIDTH, BAND))
    assert dark(band) == 0, "header text runs into the band's right margin"
    assert lit(image.crop((WIDTH - 1, TOP, WIDTH, HEIGHT))) == 0, "text at the screen's edge"


@pytest.mark.parametrize("view", [
    Menu(Header(""), (), 0), Menu(Header(""), ("a", "b"), -3, "x"), Menu(Header(""), ("a",), 7),
    Lines(Header(""), ()), Lines(Header(""), ("a",), 9), Roll(Header(""), (), ""),
    Roll(Header(""), (0, 7, -1), "?"), Roll(Header(""), (3,) * 100, "many", "n", "9"),
    BigWord(Header(""), ""), BigWord(Header(""), "A B C D E F G H I J K L M N O P Q R S"),
], ids=lambda v: type(v).__name__)
def test_odd_views_still_draw_a_frame(view: View) -> None:
    image = render(view)
    assert (image.mode, image.size) == ("1", (WIDTH, HEIGHT))
    assert lit(image.crop((WIDTH - 1, TOP, WIDTH, HEIGHT))) == 0


def test_a_long_line_wraps_onto_the_rows_below_and_scrolls() -> None:
    line = "Both: press your button, then the knob scrolls what is left of this long line"
    view = Lines(Header("Log"), (line, "last"))
    rows = screens.rows(view)
    assert len(rows) > screens.rows_shown(view) and rows[-1] == "last"
    assert " ".join(rows[:-1]) == line                   # broken between words, nothing left out
    assert all(glyphs.text_width(row, font(*screens.LINE)) <= WIDTH - 12 for row in rows)
    assert screens.last_row(view) == len(rows) - screens.rows_shown(view)
    first, last = (render(replace(view, index=i)) for i in (0, screens.last_row(view)))
    beyond = render(replace(view, index=screens.last_row(view) + 5))
    assert first.tobytes() != last.tobytes() and beyond.tobytes() == last.tobytes()
    assert overflow(view) == []


def test_a_word_longer_than_a_row_is_broken_not_cut() -> None:
    path = "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A10K1234-if00-port0"
    rows = wrap.wrap(path, font(*screens.LINE), 100)
    assert len(rows) > 1 and "".join(rows) == path
    assert wrap.wrap("", font(*screens.LINE), 100) == ("",)
    assert wrap.wrap("1:0  2:0", font(*screens.LINE), 100) == ("1:0  2:0",)


def test_a_title_too_long_for_the_band_is_shown_in_turns_of_whole_words() -> None:
    title = "Panzerwerf 12 → Panzerwerf 13 fires at the long names"
    header = Header(title, 12, "allies", "Alianci")
    view = BigWord(header, "HIT")
    turns = screens.pages(view)
    assert turns > 1 and overflow(view) == []
    shown = [screens.frame(replace(view, header=replace(header, page=turn))) for turn in
             range(turns)]
    titles = [next(p.text for p in drawn.shown if p.place == "title") for drawn in shown]
    assert " ".join(titles) == title
    assert render(replace(view, header=replace(header, page=turns))).tobytes() == \
        render(view).tobytes()                                    # round and round


def test_polish_letters_are_real_glyphs() -> None:
    def drawn(text: str) -> bytes:
        canvas = Image.new("1", (40, 40), 0)
        ImageDraw.Draw(canvas).text((8, 30), text, font=font("Medium", 12), fill=1, anchor="ls")
        return canvas.tobytes()

    tofu = drawn("\uffff")
    for letter in "ąęłśćżźńóĄĘŁŚĆŻŹŃÓ":
        assert drawn(letter) != tofu, f"{letter!r} is drawn as the missing-glyph box"
        assert drawn(letter) != drawn(letter.upper() if letter.islower() else letter.lower())


def test_menu_keeps_the_highlight_visible() -> None:
    items = tuple(f"Item {i}" for i in range(10))
    for index in (0, 4, 9):
        image = render(Menu(Header("Menu"), items, index))
        white_rows = [y for y in range(TOP, HEIGHT) if image.getpixel((2, y))]
        assert white_rows, f"no highlighted item for index {index}"


def test_halfblocks_shape_and_pattern() -> None:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    image.putpixel((0, 0), 1)          # upper half of the first character
    image.putpixel((1, 1), 1)          # lower half of the second
    image.putpixel((2, 0), 1)
    image.putpixel((2, 1), 1)          # both halves of the third
    lines = to_halfblocks(image).split("\n")
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert lines[0][:4] == "▀▄█ "
    assert set("".join(lines[1:])) == {" "}


def test_halfblocks_of_a_screen() -> None:
    text = to_halfblocks(render(VIEWS["bigword_en_hit"]))
    lines = text.split("\n")
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert set(text) <= {" ", "▀", "▄", "█", "\n"}
    assert lines[0][0] == lines[5][0] == "█"     # the header band fills rows 0..12
    assert lines[6][0] == "▀"                    # row 13 under it is black


def clear_caches() -> None:
    for cached in (glyphs.glyph, glyphs._length, glyphs._kept_width, glyphs.ink, wrap._kept_wrap,
                   screens._text_mask, screens._headed, big.biggest, big.big_ink, screens._wrapped,
                   screens.frame, dice.die_image):
        cached.cache_clear()


def test_warm_up_draws_the_same_pixels_and_leaves_nothing_to_rasterise() -> None:
    views = [VIEWS["lines_pl_status"], VIEWS["bigword_pl_hit"], VIEWS["roll_pl_four_dice"]]
    clear_caches()
    cold = [render(view).tobytes() for view in views]
    clear_caches()
    texts = ["Stan pojazdów", "R2 Alianci", "Ogień", "Obrażenia", "trzeba 4+", "…",
             *VIEWS["lines_pl_status"].lines, "trzeba 4+ · wyrzucono 5"]
    steps = sum(1 for _ in screens.warm_up(texts, ["= 14"], ["TRAFIONY"]))
    assert steps > 100
    misses = glyphs.glyph.cache_info().misses, glyphs._length.cache_info().misses
    assert [render(view).tobytes() for view in views] == cold
    assert (glyphs.glyph.cache_info().misses, glyphs._length.cache_info().misses) == misses


def test_a_letter_alone_sits_on_the_row_it_has_in_a_word() -> None:
    # Pillow draws a lone "t" a row higher than the "t" of "it"; laid-out text must not.
    fnt = font("SemiBold", 11)
    alone, word = Image.new("1", (30, 16)), Image.new("1", (30, 16))
    glyphs.lay(alone, 4, 12, "t", fnt)
    glyphs.lay(word, 4, 12, "xt", fnt)
    assert alone.getbbox()[3] == word.getbbox()[3] == 12   # the last ink row: the baseline's


def shapes(image: Image.Image) -> int:
    """How many separate (8-connected) shapes of lit pixels the image holds."""
    lit = {(x, y) for x in range(image.width) for y in range(image.height)
           if image.getpixel((x, y))}
    count = 0
    while lit:
        count += 1
        todo = [lit.pop()]
        while todo:
            x, y = todo.pop()
            for near in [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]:
                if near in lit:
                    lit.remove(near)
                    todo.append(near)
    return count


@pytest.mark.parametrize("weight_size", screens.WARM_FONTS)
def test_small_letters_keep_a_gap(weight_size: tuple[str, int]) -> None:
    # Pairs that close up at one bit per pixel without tracking ("ci" reads as "d", "rn" as
    # "m") stay apart wherever the line starts.
    fnt = font(*weight_size)
    for eighth in range(8):
        for pair, count in (("ci", 3), ("cl", 2), ("rn", 2)):
            image = Image.new("1", (30, 16))
            glyphs.lay(image, 2 + eighth / 8, 12, pair, fnt)
            assert shapes(image) == count, (pair, eighth)


@pytest.mark.parametrize("wide", [False, True], ids=["10px", "9px"])
def test_every_letter_fits_the_header_band(wide: bool) -> None:
    # Accents above (Ó Ż), tails below (ą j y) and brackets: every letter of both languages
    # in the header band, at 10 px and, where the title is too wide for that, at 9 px.
    pad = " Wwwwwwwwww Wwwwwwwwww" if wide else ""
    for at in range(0, len(glyphs.LETTERS), 8):
        header = Header(glyphs.LETTERS[at:at + 8] + pad, 12, "allies", "Alianci")
        for page in range(screens.pages(BigWord(header, "HIT"))):
            view = BigWord(replace(header, page=page), "HIT")
            assert overflow(view) == [], view.header.title
            for piece in screens.frame(view).shown:
                if piece.place in ("title", "info"):
                    assert piece.face == (screens.HEADER_SMALL if wide else screens.HEADER)
                    top, bottom = glyphs.ink_box(piece.text, font(*piece.face), piece.x,
                                                 piece.baseline)[1::2]
                    assert top >= 0 and bottom <= BAND, piece.text


def test_every_letter_fits_its_row_of_text() -> None:
    words = tuple(glyphs.LETTERS[at:at + 6] for at in range(0, len(glyphs.LETTERS), 6))
    letters = " ".join(words)
    items = tuple(" ".join(words[at:at + 3]) for at in range(0, len(words), 3))
    views: list[View] = [Lines(PL, (letters,), 0, "OK"), Roll(PL, (6,), letters, "", "= 6"),
                         BigWord(PL, "HIT", letters)]
    views += [Menu(PL, items, index, "OK") for index in range(len(items))]
    for view in views:
        assert overflow(view) == [], type(view).__name__
