"""The rules' English, extracted into the catalogues' template (companion.pot) as xgettext
extracts a program's strings: each refusal's and Cobra note's template is written once, beside
its code in the rules (`ENGLISH` in rules/errors.py and in each game's refusals.py and
cobra/notes.py), and its message in the template (msgctxt "refusal_<code>", "note_<code>") takes
its msgid from there. `python3 run.py catalogues` extracts before it merges; a test checks the
template agrees with the rules (tests/words/test_rules_english.py)."""
from __future__ import annotations

import string

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


def _flags(msgid: str, kept: list[str]) -> list[str]:
    """python-brace-format where the English has a placeholder, and the other flags kept."""
    braced = any(name for _, name, _, _ in string.Formatter().parse(msgid))
    return [*([BRACES] if braced else []), *(flag for flag in kept if flag != BRACES)]


def extracted(template: po.Catalogue) -> po.Catalogue:
    """The template with the rules' English: each refusal's and note's msgid as the rules
    write it (its comments kept), a new code's message after the last of its kind, a code the
    rules no longer have dropped; every other message as it was."""
    english = messages()
    entries: list[po.Entry] = []
    for entry in template.entries:
        if not entry.context.startswith(("refusal_", "note_")):
            entries.append(entry)
        elif entry.context in english:
            msgid = english[entry.context]
            entries.append(po.Entry(entry.context, msgid, entry.msgstr, list(entry.comments),
                                    _flags(msgid, entry.flags)))
    known = {entry.context for entry in entries}
    for key, msgid in english.items():
        if key not in known:
            kind = key.split("_", 1)[0] + "_"
            at = max((i for i, e in enumerate(entries) if e.context.startswith(kind)),
                     default=len(entries) - 1)
            entries.insert(at + 1, po.Entry(key, msgid, "", [], _flags(msgid, [])))
    return po.Catalogue(dict(template.header), entries)
