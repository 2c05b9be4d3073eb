"""`python3 run.py catalogues`: the rules' English extracted into the template, every
language's `.po` merged with it and compiled into the `.mo` the box reads.
The English catalogue is the template (companion.pot): its msgid is its own text; the
refusals' and Cobra notes' msgid are the rules' own English (words/extract.py).
A test compiles them again and checks the files match (tests/words/test_catalogues.py)."""
from __future__ import annotations

import sys
from pathlib import Path

from cobi_companion.words import extract, languages, po
from cobi_companion.words.catalogue import DOMAIN, LOCALE, mo_path


def template_path() -> Path:
    return LOCALE / f"{DOMAIN}.pot"


def po_path(code: str) -> Path:
    return LOCALE / code / f"{DOMAIN}.po"


def read(path: Path) -> po.Catalogue:
    try:
        return po.parse(path.read_text(encoding="utf-8"))
    except po.PoError as error:
        raise po.PoError(f"{path}: {error}") from None


def compiled(code: str) -> bytes:
    """The .mo file of `code` as its catalogue makes it now."""
    template = read(template_path())
    return mo_of(template, None if code == languages.SOURCE else read(po_path(code)))


def mo_of(template: po.Catalogue, catalogue: po.Catalogue | None) -> bytes:
    """The .mo file of a language's catalogue (None: of English, the template itself)."""
    if catalogue is None:
        english = {entry.context: entry.msgid for entry in template.entries}
        return po.compile_mo(template.header, english, english)
    messages = {entry.context: entry.msgstr for entry in catalogue.entries if entry.msgstr
                and "fuzzy" not in entry.flags}
    originals = {entry.context: entry.msgid for entry in catalogue.entries}
    return po.compile_mo(catalogue.header, messages, originals)


def merged(template: po.Catalogue, catalogue: po.Catalogue) -> po.Catalogue:
    """A language's catalogue brought up to the template, as gettext's msgmerge does: a new
    key comes in untranslated, a key whose English changed keeps its translation marked
    fuzzy (not used until a translator looks at it again), a key the template no longer has
    leaves; the template's comments and order are taken. A form of a key ("say_destroyed|f")
    stays after its key while the key does."""
    own = catalogue.by_context()
    forms: dict[str, list[po.Entry]] = {}
    for entry in catalogue.entries:
        base, bar, _ = entry.context.partition("|")
        if bar:
            forms.setdefault(base, []).append(entry)
    entries: list[po.Entry] = []
    for source in template.entries:
        first = own.get(source.context) or po.Entry(source.context, source.msgid, "")
        for kept in (first, *forms.get(source.context, ())):
            entries.append(_brought_up(kept, source, kept is first))
    return po.Catalogue(catalogue.header, entries, catalogue.notes)


def _brought_up(kept: po.Entry, source: po.Entry, own: bool) -> po.Entry:
    """A translation with the template's English: marked fuzzy, with the English it was
    made for ("#| msgid"), when that changed; the translator's own notes kept."""
    changed = kept.msgid != source.msgid and bool(kept.msgstr)
    fuzzy = "fuzzy" in kept.flags or changed
    previous = [f"msgid {line}" for line in po.quoted_lines(kept.msgid)] if changed \
        else kept.previous
    flags = [*(flag for flag in kept.flags if flag != "fuzzy"), *(["fuzzy"] if fuzzy else [])]
    return po.Entry(kept.context, source.msgid, kept.msgstr,
                    list(source.comments if own else kept.comments), flags, 0, list(kept.notes),
                    list(source.references if own else kept.references),
                    previous if fuzzy else [])


def main() -> int:
    """The rules' English extracted into the template, every language's .po merged with
    it, then each compiled into its .mo."""
    try:
        template = extract.extracted(read(template_path()))
        text = po.write(template)
        if text != template_path().read_text(encoding="utf-8"):
            template_path().write_text(text, encoding="utf-8")
            print(f"extracted the rules' English into "
                  f"{template_path().relative_to(LOCALE.parent.parent)}")
        # each language's catalogue, as merged (English: None, the template itself), read once
        catalogues: dict[str, po.Catalogue | None] = {languages.SOURCE: None}
        for language in languages.LANGUAGES:
            if language.code == languages.SOURCE:
                continue
            path = po_path(language.code)
            catalogue = catalogues[language.code] = merged(template, read(path))
            text = po.write(catalogue)
            if text != path.read_text(encoding="utf-8"):
                path.write_text(text, encoding="utf-8")
                print(f"merged {path.relative_to(LOCALE.parent.parent)} with the template")
        for language in languages.LANGUAGES:
            path = mo_path(language.code)
            path.parent.mkdir(parents=True, exist_ok=True)
            data = mo_of(template, catalogues[language.code])
            if not path.exists() or path.read_bytes() != data:
                path.write_bytes(data)
                print(f"wrote {path.relative_to(LOCALE.parent.parent)}")
    except (OSError, po.PoError) as error:
        print(f"catalogues: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
