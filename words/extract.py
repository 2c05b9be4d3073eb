"""The rules' English, extracted into the catalogues' template (companion.pot) as xgettext
extracts a program's strings: each refusal's and Cobra note's template is written once, beside
its code in the rules (`ENGLISH` in rules/errors.py and in each game's refusals.py and
cobra/notes.py), and its message in the template (msgctxt "refusal_<code>", "note_<code>") takes
its msgid from there. `python3 run.py catalogues` extracts before it merges; a test checks the
template agrees with the rules (tests/words/test_rules_english.py)."""
from __future__ import annotations

from cobi_companion.rules.cobra.notes import Why
from cobi_companion.rules.errors import Coded
from cobi_companion.words import po

BRACES = "python-brace-format"


def enums() -> tuple[type[Coded], ...]:
    """Every enum of codes the rules give English for: the shared refusals, each game's, the
    notes. Imported when asked: the box says a refusal by its key (`key_of`) without loading
    every game's rules at its start (device/box.py warms them up later)."""
    from cobi_companion.rules.cobra.refusals import CobraRefusal
    from cobi_companion.rules.easy.refusals import EasyRefusal
    from cobi_companion.rules.errors import Refusal
    from cobi_companion.rules.tank.refusals import TankRefusal
    return Refusal, EasyRefusal, TankRefusal, CobraRefusal, Why


def key_of(code: Coded) -> str:
    """The catalogues' key of a refusal's or a note's template: "refusal_no_such_piece",
    "note_turn_1_clear"."""
    return ("note_" if isinstance(code, Why) else "refusal_") + code.value


def messages() -> dict[str, str]:
    """The rules' English by key, in the enums' order."""
    return {key_of(code): code.english for enum in enums() for code in enum}


def _flags(kept: list[str]) -> list[str]:
    """The flags kept, but python-brace-format: the box's templates write forms inside a
    placeholder ({n:figure|figures}), which gettext's own check of that format refuses (its
    tools would refuse every such message); the box's tests check the placeholders instead
    (tests/words/test_catalogues.py)."""
    return [flag for flag in kept if flag != BRACES]


def extracted(template: po.Catalogue) -> po.Catalogue:
    """The template with the rules' English: each refusal's and note's msgid as the rules
    write it (its comments kept), a new code's message after the last of its kind, a code the
    rules no longer have dropped; every other message as it was. One pass over each."""
    english = messages()
    entries: list[po.Entry] = []
    last_of: dict[str, int] = {}              # where each kind's last message is, so far
    for entry in template.entries:
        if entry.context.startswith(("refusal_", "note_")):
            if entry.context not in english:
                continue
            entry = po.Entry(entry.context, english[entry.context], entry.msgstr,
                             list(entry.comments), _flags(entry.flags), 0, list(entry.notes),
                             list(entry.references))
            last_of[_kind(entry.context)] = len(entries)
        entries.append(entry)
    known = {entry.context for entry in entries}
    added: dict[int, list[po.Entry]] = {}
    for key, msgid in english.items():
        if key not in known:
            after = last_of.get(_kind(key), len(entries) - 1)
            added.setdefault(after, []).append(po.Entry(key, msgid, ""))
    merged = [one for at, entry in enumerate(entries) for one in (entry, *added.get(at, ()))]
    return po.Catalogue(dict(template.header), [*added.get(-1, ()), *merged], template.notes)


def _kind(key: str) -> str:
    return key.split("_", 1)[0] + "_"
