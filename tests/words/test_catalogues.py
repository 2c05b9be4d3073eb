"""The catalogues (words/locale): the compiled .mo files are what their .po files make now, the
standard library's gettext reads them as the box does, every language has every message with
the English's placeholders, the .po reader and the merge do what a translator's tools do, and
the plural rules count as the languages do."""
from __future__ import annotations

import gettext
import re
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest
from cobi_companion.device.core.battle_log import SIDED
from cobi_companion.words import catalogue, compile, languages, po
from cobi_companion.words.grammar import Number

CODES = languages.codes()
TRANSLATED = tuple(code for code in CODES if code != languages.SOURCE)
FIX = "python3 run.py catalogues"


def template() -> po.Catalogue:
    return compile.read(compile.template_path())


def own(code: str) -> po.Catalogue:
    """The catalogue of `code` as a translator edits it (English: the template)."""
    return template() if code == languages.SOURCE else compile.read(compile.po_path(code))


def english() -> dict[str, str]:
    return {entry.context: entry.msgid for entry in template().entries}


def key_of(context: str) -> tuple[str, str | None]:
    """A context as its key and form: "say_destroyed|f" is ("say_destroyed", "f")."""
    key, bar, form = context.partition("|")
    return key, form if bar else None


def fields(template_text: str) -> list[tuple[str, str]]:
    """The placeholders of a template: (name, spec) each, the name without its .attribute or
    [index]."""
    return [(re.split(r"[.\[]", name)[0], spec or "")
            for _, name, spec, _ in string.Formatter().parse(template_text) if name is not None]


# ---- the compiled files ----

@pytest.mark.parametrize("code", CODES)
def test_the_committed_mo_is_what_its_catalogue_makes_now(code: str) -> None:
    shipped = catalogue.mo_path(code).read_bytes()
    assert shipped == compile.compiled(code), (
        f"words/locale/{code}/companion.mo is not what its catalogue makes: run `{FIX}` and "
        f"commit the .mo")


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_po_is_merged_with_the_template(code: str) -> None:
    path = compile.po_path(code)
    assert path.read_text(encoding="utf-8") == po.write(compile.merged(template(), own(code))), (
        f"{path.name} of {code!r} is not merged with companion.pot: run `{FIX}`")


@pytest.mark.parametrize("code", CODES)
def test_gettext_reads_each_mo_as_the_box_does(code: str) -> None:
    """The standard library's reader, not ours, finds every message by context and msgid,
    with the words `catalogue.text` gives, and counts with the same plural rule."""
    with catalogue.mo_path(code).open("rb") as file:
        reader = gettext.GNUTranslations(file)
    source = english()
    for context in [*source, *(entry.context for entry in own(code).entries)]:
        key, form = key_of(context)
        assert reader.pgettext(context, source[key]) == catalogue.text(code, key, form), context
    words = catalogue.load(code)
    for count in range(0, 250):
        assert reader.plural(count) == words.form(count), count   # type: ignore[attr-defined]


# ---- complete, and placeholders ----

@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated(code: str) -> None:
    """Every message of the template is in the language's catalogue, translated and not
    fuzzy (a translation whose English changed since)."""
    messages = own(code).by_context()
    missing = [key for key in english() if key not in messages]
    empty = [key for key in english() if key in messages and not messages[key].msgstr]
    fuzzy = [key for key in english() if key in messages and "fuzzy" in messages[key].flags]
    assert (missing, empty[:20], fuzzy) == ([], [], []), (
        f"{code}: {len(missing)} missing, {len(empty)} untranslated, {len(fuzzy)} fuzzy")


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_language_s_own_contexts_are_forms_of_the_template_s_keys(code: str) -> None:
    source = english()
    extra = [entry.context for entry in own(code).entries if entry.context not in source]
    assert [context for context in extra
            if key_of(context)[1] is None or key_of(context)[0] not in source] == []


def forms_wrong(code: str, context: str, text: str) -> list[str]:
    """What is wrong with the counted words of a template: a side agrees in two forms (one,
    many), a number in as many as the language's plural rule has."""
    nplurals = catalogue.load(code).nplurals
    wrong = []
    for name, spec in fields(text):
        if "|" not in spec:
            continue
        wanted = 2 if name in SIDED else nplurals
        if len(spec.split("|")) != wanted or not all(spec.split("|")):
            wrong.append(f"{context}: {{{name}:{spec}}} has not {wanted} forms")
    return wrong


@pytest.mark.parametrize("code", CODES)
def test_every_translation_has_the_english_s_placeholders(code: str) -> None:
    source = english()
    wrong: list[str] = []
    for entry in own(code).entries:
        text = entry.msgid if code == languages.SOURCE else entry.msgstr
        if not text:
            continue                          # untranslated: said in English
        key, _ = key_of(entry.context)
        names = {name for name, _ in fields(text)}
        wanted = {name for name, _ in fields(source[key])}
        if names != wanted:
            wrong.append(f"{entry.context}: {sorted(names)} not {sorted(wanted)}")
        wrong += forms_wrong(code, entry.context, text)
    assert wrong == []


def test_a_wrong_count_of_forms_is_found() -> None:
    assert forms_wrong("pl", "k", "{n:figura|figury}") == ["k: {n:figura|figury} has not 3 forms"]
    assert forms_wrong("pl", "k", "{side:a|b|c}") == ["k: {side:a|b|c} has not 2 forms"]
    assert forms_wrong("en", "k", "{n:figure|figures} {side:gives|give}") == []


# ---- the .po reader and writer, the merge, the command ----

@pytest.mark.parametrize(("text", "line", "what"), [
    ('msgctxt "a"\nmsgid "A\nmsgstr ""\n', 2, "quoted string"),
    ('msgctxt "a"\nmsgid "A"\nmsgstr ""\n\nmsgctxt "b"\nmsgid_plural "B"\n', 6, "is not one of"),
    ('msgctxt "a"\nmsgid "A"\nmsgstr ""\n\n#. again\nmsgctxt "a"\nmsgid "B"\nmsgstr ""\n', 6,
     "there already, on line 1"),
    ('msgid ""\nmsgstr ""\n\nmsgid "A"\nmsgstr "a"\n', 4, "needs a msgctxt"),
])
def test_a_po_error_names_its_line(text: str, line: int, what: str) -> None:
    with pytest.raises(po.PoError, match=rf"^line {line}: .*{what}"):
        po.parse(text)


@pytest.mark.parametrize("path", [compile.template_path(), *map(compile.po_path, TRANSLATED)],
                         ids=lambda path: path.parent.name)
def test_a_catalogue_read_and_written_is_itself(path: Path) -> None:
    first = po.parse(path.read_text(encoding="utf-8"))
    written = po.write(first)
    assert po.parse(written) == first
    assert written == path.read_text(encoding="utf-8")


def entry(context: str, msgid: str, msgstr: str = "", *flags: str) -> po.Entry:
    return po.Entry(context, msgid, msgstr, [], list(flags))


def test_a_merge_brings_a_catalogue_up_to_the_template() -> None:
    new = po.Catalogue({}, [entry("kept", "Kept"), entry("new", "New"),
                            entry("changed", "Changed now"), entry("say", "{x} is here.")])
    old = po.Catalogue({"Language": "pl"}, [
        entry("kept", "Kept", "Zostaje"), entry("changed", "Changed", "Zmienione"),
        entry("gone", "Gone", "Nie ma"), entry("say", "{x} is here.", "{x} jest."),
        entry("say|f", "{x} is here.", "{x} jest tu.")])
    merged = compile.merged(new, old)
    assert merged.header == {"Language": "pl"}
    assert [(e.context, e.msgid, e.msgstr, e.flags) for e in merged.entries] == [
        ("kept", "Kept", "Zostaje", []), ("new", "New", "", []),
        ("changed", "Changed now", "Zmienione", ["fuzzy"]),
        ("say", "{x} is here.", "{x} jest.", []), ("say|f", "{x} is here.", "{x} jest tu.", [])]
    compiled = po.read_mo(po.compile_mo({}, {
        e.context: e.msgstr for e in merged.entries if e.msgstr and "fuzzy" not in e.flags}))[1]
    assert "changed" not in compiled and compiled["say|f"] == "{x} jest tu."


def test_a_form_whose_key_s_english_changed_is_fuzzy_too() -> None:
    merged = compile.merged(po.Catalogue({}, [entry("say", "{x} is there.")]), po.Catalogue(
        {}, [entry("say", "{x} is here.", "{x} jest."), entry("say|f", "{x} is here.", "ta")]))
    assert [e.flags for e in merged.entries] == [["fuzzy"], ["fuzzy"]]


def run_catalogues(locale: Path) -> subprocess.CompletedProcess[str]:
    """`python3 run.py catalogues` (its module, as run.py starts it) on a copy of the
    catalogues, in a process of its own."""
    program = ("import sys; from pathlib import Path; "
               "from cobi_companion.words import catalogue, compile; "
               "compile.LOCALE = catalogue.LOCALE = Path(sys.argv[1]); "
               "raise SystemExit(compile.main())")
    return subprocess.run([sys.executable, "-c", program, str(locale)], capture_output=True,
                          text=True, timeout=120, check=False)


def test_the_command_leaves_a_clean_tree_as_it_is(tmp_path: Path) -> None:
    locale = shutil.copytree(catalogue.LOCALE, tmp_path / "locale")
    before = {path: path.read_bytes() for path in locale.rglob("*") if path.is_file()}
    done = run_catalogues(locale)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert {path: path.read_bytes() for path in locale.rglob("*") if path.is_file()} == before


def test_the_command_merges_and_compiles_an_edited_catalogue(tmp_path: Path) -> None:
    locale = shutil.copytree(catalogue.LOCALE, tmp_path / "locale")
    pot = locale / "companion.pot"
    pot.write_text(pot.read_text(encoding="utf-8").replace(
        'msgid "Resume battle"', 'msgid "Go on with the battle"', 1), encoding="utf-8")
    done = run_catalogues(locale)
    assert done.returncode == 0, done.stderr
    assert "locale/pl/companion.po with the template" in done.stdout
    merged = po.parse((locale / "pl" / "companion.po").read_text(encoding="utf-8"))
    assert "fuzzy" in merged.by_context()["resume"].flags
    header, messages = po.read_mo((locale / "pl" / "companion.mo").read_bytes())
    assert "resume" not in messages and header["Language"] == "pl"


def test_the_command_names_the_line_of_a_broken_catalogue(tmp_path: Path) -> None:
    locale = shutil.copytree(catalogue.LOCALE, tmp_path / "locale")
    path = locale / "pl" / "companion.po"
    path.write_text(path.read_text(encoding="utf-8") + '\nmsgctxt "x"\nmsgid "x\n',
                    encoding="utf-8")
    done = run_catalogues(locale)
    assert done.returncode == 1
    assert re.search(r"catalogues: .*companion\.po: line \d+: a quoted string", done.stderr)


# ---- the plural rules ----

@pytest.mark.parametrize(("code", "count", "said"), [
    ("pl", 1, "1 figurka"), ("pl", 2, "2 figurki"), ("pl", 5, "5 figurek"),
    ("pl", 12, "12 figurek"), ("pl", 22, "22 figurki"), ("pl", 2.5, "2,5 figurki"),
    ("pl", 0, "0 figurek"), ("pl", 112, "112 figurek"), ("pl", 104, "104 figurki"),
    ("de", 1, "1 Figur"), ("de", 2, "2 Figuren"), ("de", 0, "0 Figuren"),
    ("de", 1.5, "1,5 Figuren"),
    ("en", 1, "1 figure"), ("en", 2.5, "2.5 figures")])
def test_a_counted_word_takes_its_language_s_form(code: str, count: float, said: str) -> None:
    forms = {"pl": "figurka|figurki|figurek", "de": "Figur|Figuren", "en": "figure|figures"}
    assert format(Number(count, code), forms[code]) == said
