"""The knob scrolls the rows of a Lines view, one row a detent, and stops where the last row
is at the bottom of a full screen: a further turn would change nothing on the panel."""
from __future__ import annotations

from cobi_companion.device.core.views import Lines, View
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ui.renderer import last_row


def scrolled(view: View, index: int, key: Key) -> int:
    """The first row shown once `key` turns the knob on `view` (at row `index`); `index` for
    any other key, and for a view that is no Lines."""
    if not isinstance(view, Lines):
        return index
    if key is Key.CW:
        return min(index + 1, last_row(view))
    if key is Key.CCW:
        return max(index - 1, 0)
    return index
