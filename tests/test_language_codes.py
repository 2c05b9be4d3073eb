"""Adding a language is a catalogue and a row of the registry (words/languages.py), nothing
else: no code of the product names a language by its code. A string that is a language's code
("pl", "de", and the source's "en") written anywhere in the package's code but the registry is
a place a new language would be forgotten (a toggle of two, a decimal comma for one, a
command line's two choices). The cards' TOML tables by language are data, not code."""
from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

from cobi_companion.words import languages

ROOT = Path(__file__).resolve().parent.parent
# The package's code: everything but its tests, the bench and the install script.
PACKAGES = ("device", "rules", "cards", "words")
REGISTRY = ROOT / "words" / "languages.py"


def code_strings(path: Path) -> list[tuple[int, str]]:
    """Every plain string literal of a Python file, with its line (f-strings' parts aside:
    they hold no whole code)."""
    found = []
    text = path.read_text(encoding="utf-8")
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.STRING:
            try:
                value = ast.literal_eval(token.string)
            except (ValueError, SyntaxError):
                continue
            if isinstance(value, str):
                found.append((token.start[0], value))
    return found


def written_codes(codes: set[str]) -> list[str]:
    return [f"{path.relative_to(ROOT)}:{line}: {value!r}"
            for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
            if path != REGISTRY
            for line, value in code_strings(path) if value in codes]


def test_no_language_code_is_written_in_the_code_outside_the_registry() -> None:
    assert written_codes(set(languages.codes())) == []


def test_the_scan_finds_a_code_where_one_is_written(tmp_path: Path) -> None:
    # The test above can fail: a toggle of the old kind is found, a comment is not.
    path = tmp_path / "toggle.py"
    path.write_text('# "pl" in a comment is no code\n'
                    'language = "en" if now == "pl" else f"{x}"\n', encoding="utf-8")
    assert code_strings(path) == [(2, "en"), (2, "pl")]


def test_a_number_is_written_with_each_languages_decimal_mark() -> None:
    # The panel's percentages and averages (ui/wording.py, ui/details.py) take the mark from
    # the registry: a comma in Polish and German, a point in English.
    from cobi_companion.device.ui.wording import decimal

    assert [decimal("12.5", code) for code in ("en", "pl", "de")] == ["12.5", "12,5", "12,5"]
    for language in languages.LANGUAGES:          # a language added later: its own row's mark
        assert decimal("12.5", language.code) == f"12{language.decimal_mark}5"
