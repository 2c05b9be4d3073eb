"""The gettext formats as translators' tools write them: what a translator keeps (their own
notes, references, the English a fuzzy message was made for), C's escapes, a keyword and its
string apart by a tab, text with any Unicode line separator; a damaged .mo refused by name,
and a box whose catalogue cannot be read says English."""
from __future__ import annotations

import logging
from pathlib import Path

import pytest
from cobi_companion.words import catalogue, compile, languages, po

TRANSLATED = '''# Translator: Anna, 2026
msgid ""
msgstr ""
"Language: fr\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

# ask Tom about this one
#. the start screen's first row
#: device/games/home.py
#, fuzzy
#| msgid "New game"
msgctxt "new"
msgid "New battle"
msgstr "Nouvelle partie"

msgctxt\t"quick_dice"
msgid "Quick dice"
msgstr "Dés\\trapides\\r\\001 \\101\\x42 \u2028fin"
'''


def test_a_translator_s_notes_and_the_tools_own_lines_are_kept() -> None:
    read = po.parse(TRANSLATED)
    assert read.notes == ["Translator: Anna, 2026"]
    new = read.by_context()["new"]
    assert (new.notes, new.comments, new.references, new.flags, new.previous) == (
        ["ask Tom about this one"], ["the start screen's first row"],
        ["device/games/home.py"], ["fuzzy"], ['msgid "New game"'])
    assert po.write(po.parse(po.write(read))) == po.write(read)


def test_escapes_tabs_and_unicode_separators_are_read_and_written_back() -> None:
    quick = po.parse(TRANSLATED).by_context()["quick_dice"]
    assert quick.msgstr == "Dés\trapides\r\x01 AB \u2028fin"
    written = po.write(po.parse(TRANSLATED))
    assert 'msgstr "Dés\\trapides\\r\\001 AB \u2028fin"' in written
    assert po.parse(written).by_context()["quick_dice"].msgstr == quick.msgstr


def test_an_unknown_escape_is_named_with_those_allowed() -> None:
    with pytest.raises(po.PoError, match=r"line 3: the escape \\q is not one of \\n \\t .*"
                                         r"\\ooo \(octal\) or \\xhh \(hex\)"):
        po.parse('msgctxt "k"\nmsgid "a"\nmsgstr "b\\q"\n')


def test_a_translator_s_notes_stay_when_the_catalogue_is_merged() -> None:
    template = po.Catalogue({}, [po.Entry("new", "New battle!", ""),
                                 po.Entry("quick_dice", "Quick dice", "")])
    merged = compile.merged(template, po.parse(TRANSLATED))
    assert merged.notes == ["Translator: Anna, 2026"]
    new, quick = merged.entries
    assert new.notes == ["ask Tom about this one"] and "fuzzy" in new.flags
    assert new.previous == ['msgid "New battle"']           # the English it was made for
    assert quick.previous == [] and "fuzzy" not in quick.flags


@pytest.mark.parametrize("cut", [0, 10, 27, 60, -3])
def test_a_damaged_mo_is_refused_by_name(cut: int) -> None:
    data = catalogue.mo_path("pl").read_bytes()
    with pytest.raises(po.PoError):
        po.read_mo(data[:cut])


def test_a_box_whose_catalogue_cannot_be_read_says_english(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A German .mo cut short: the German screens say English and the journal says why; the
    English .mo gone too: English comes from its template."""
    locale = tmp_path / "locale"
    (locale / "de").mkdir(parents=True)
    (locale / "de" / "companion.mo").write_bytes(catalogue.mo_path("de").read_bytes()[:100])
    (locale / "companion.pot").write_bytes((catalogue.LOCALE / "companion.pot").read_bytes())
    monkeypatch.setattr(catalogue, "LOCALE", locale)
    monkeypatch.setattr(catalogue, "_LOADED", {})
    with caplog.at_level(logging.ERROR, logger="cobi-companion"):
        assert catalogue.text("de", "new") == "New battle"
    assert any("the words of 'de' cannot be read" in r.getMessage() for r in caplog.records)
    assert catalogue.load(languages.SOURCE).messages["new"] == "New battle"
