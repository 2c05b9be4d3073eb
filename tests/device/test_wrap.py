"""The word wrap measures each letter once per text (device/ui/wrap.py); it breaks every text
where measuring each row anew with text_width breaks it."""
from __future__ import annotations

from cobi_companion.device.core import i18n
from cobi_companion.device.ui.glyphs import FreeFont, font, text_width
from cobi_companion.device.ui.wrap import _longest_start, wrap
from hypothesis import given, settings
from hypothesis import strategies as st

FONTS = [font("Medium", 11), font("Medium", 10), font("Medium", 9), font("SemiBold", 11)]


def measured_anew(text: str, fnt: FreeFont, width: int) -> tuple[str, ...]:
    """The wrap as it reads: each row tried measured whole by text_width."""
    rows: list[str] = []
    row = ""
    for word in text.split(" "):
        joined = f"{row} {word}" if row else word
        if not row or text_width(joined, fnt) <= width:
            row = joined
        else:
            rows.append(row.rstrip())
            row = word
        while text_width(row, fnt) > width and len(row) > 1:
            cut = _longest_start(row, fnt, width)
            rows.append(row[:cut])
            row = row[cut:]
    return (*rows, row.rstrip()) if row.strip() or not rows else tuple(rows)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab cdWijl  mn/o_p-q.r:s,ŁóźiW…", max_size=90),
       st.sampled_from(FONTS), st.integers(min_value=1, max_value=130))
def test_any_text_breaks_as_measured_row_by_row(text: str, fnt: FreeFont, width: int) -> None:
    wrap.cache_clear()
    assert wrap(text, fnt, width) == measured_anew(text, fnt, width)


def test_every_text_of_the_box_breaks_as_measured_row_by_row() -> None:
    for language in ("en", "pl"):
        for text in i18n.every_text(language):
            for fnt in FONTS:
                for width in (40, 86, 118, 126):
                    assert wrap(text, fnt, width) == measured_anew(text, fnt, width), text
