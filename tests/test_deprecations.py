"""pyproject.toml's filterwarnings: a DeprecationWarning or PendingDeprecationWarning that the
project's own code causes (the warning is attributed to the calling module, a cobi_companion
one) fails the test that made it; one a library causes inside itself only shows in pytest's
summary. The warnings are raised from code run as if it were a module of the project, or of a
library, exactly as `warnings.warn` in an API called from there would attribute them.
"""
from __future__ import annotations

import warnings

import pytest

CALL = "import warnings\nwarnings.warn('this call goes away', category, stacklevel=1)\n"


def warn_from(module: str, category: type[Warning]) -> None:
    """Run a deprecated call from code whose module is named `module`."""
    exec(compile(CALL, f"<{module}>", "exec"), {"__name__": module, "category": category})


@pytest.mark.parametrize("category", [DeprecationWarning, PendingDeprecationWarning])
@pytest.mark.parametrize("module", ["cobi_companion.device.ports.display",
                                    "cobi_companion.rules.dice"])
def test_a_deprecated_call_from_the_project_fails(module: str,
                                                  category: type[Warning]) -> None:
    with pytest.raises(category, match="this call goes away"):
        warn_from(module, category)


def test_one_inside_a_library_is_only_recorded() -> None:
    with warnings.catch_warnings(record=True) as seen:     # the filters as pytest set them
        warn_from("luma.oled.device", DeprecationWarning)
        warn_from("PIL.Image", PendingDeprecationWarning)
    assert [str(w.message) for w in seen] == ["this call goes away"] * 2
