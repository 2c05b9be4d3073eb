"""The shapes the renderer pastes from masks drawn once (device/ui/renderer.py: the chosen item's
highlight, the scroll marks, the arrow of a paged line) have the pixels they had drawn in place,
wherever they go."""
from __future__ import annotations

import pytest
from cobi_companion.device.core.views import Header, Menu
from cobi_companion.device.ui import renderer
from cobi_companion.device.ui.renderer import HEIGHT, WIDTH
from PIL import Image, ImageDraw


def blank() -> Image.Image:
    return Image.new("1", (WIDTH, HEIGHT), 0)


@pytest.mark.parametrize("right", [WIDTH - 1, WIDTH - renderer.MARKS_W])
@pytest.mark.parametrize("height", [9, 11, 13, 22, 26, 39, 60])
def test_the_highlight_pasted_is_the_rounded_rectangle(right: int, height: int) -> None:
    for y in range(renderer.TOP, HEIGHT):              # the last ones run off the panel
        drawn, pasted = blank(), blank()
        ImageDraw.Draw(drawn).rounded_rectangle((0, y, right - 1, y + height - 1), radius=3,
                                                fill=1)
        pasted.paste(1, (0, y), renderer._highlight(right, height))
        assert pasted.tobytes() == drawn.tobytes(), (right, height, y)


@pytest.mark.parametrize("bottom", [HEIGHT, HEIGHT - renderer.HINT_H, 40])
def test_the_scroll_marks_pasted_are_the_triangles(bottom: int) -> None:
    top, x = renderer.TOP, WIDTH - 8
    drawn, pasted = blank(), blank()
    draw = ImageDraw.Draw(drawn)
    draw.polygon([(x, top + 4), (x + 6, top + 4), (x + 3, top + 1)], fill=1)
    draw.polygon([(x, bottom - 5), (x + 6, bottom - 5), (x + 3, bottom - 2)], fill=1)
    renderer._scroll_marks(pasted, top, bottom, True, True)
    assert pasted.tobytes() == drawn.tobytes()


@pytest.mark.parametrize("fill", [0, 1])
def test_the_arrow_of_a_paged_line_is_the_triangle(fill: int) -> None:
    for x, baseline in ((WIDTH - 4, 10), (WIDTH - 4, 62), (60, 30)):
        drawn, pasted = Image.new("1", (WIDTH, HEIGHT), 1 - fill), Image.new(
            "1", (WIDTH, HEIGHT), 1 - fill)
        y = baseline - 6
        ImageDraw.Draw(drawn).polygon([(x, y), (x, y + 4), (x + 2, y + 2)], fill=fill)
        renderer._more(pasted, x, baseline, fill)
        assert pasted.tobytes() == drawn.tobytes()


def test_a_menus_items_are_laid_out_again_when_they_change() -> None:
    """The items' layout is kept by their texts: a turn of the knob reuses it, other texts
    get their own."""
    short = Menu(Header("Menu"), ("One", "Two"), 0)
    longer = Menu(Header("Menu"), ("One", "Two", "Three", "Four", "Five", "Six"), 0)
    assert renderer._items(short.items, 50)[1] == WIDTH - 1          # all fit: full width
    assert renderer._items(longer.items, 50)[1] == WIDTH - renderer.MARKS_W
    assert renderer.render(longer) != renderer.render(Menu(Header("Menu"), longer.items, 1))


def test_the_header_band_is_the_rectangle() -> None:
    drawn = blank()
    ImageDraw.Draw(drawn).rectangle((0, 0, WIDTH - 1, renderer.BAND - 1), fill=1)
    band = renderer.render(Menu(Header(""), (), 0))      # a header with nothing in it
    assert band.tobytes() == drawn.tobytes()
