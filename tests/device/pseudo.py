"""The pseudo-language "xx": every message of the English catalogue (words/locale/
companion.pot) with its letters accented and 40% longer, its placeholders as they are, so that
a screen that would cut a longer translation is found before a translator writes one
(ui/test_pseudo_tour.py takes the tour of the box in it).

"Roll the dice" is "Röll thë díćë lörëm": the accents are letters the box's font has (Latin-1
and Latin Extended-A: Fira Sans Condensed), those of the box's languages where they reach
higher or lower than a plain letter (ć, not ç; the capitals Ä É Ö Ü Ć Ń Ś Ż), as a translation
would write them; the filler words after them make the text 40% longer. A counted word keeps
its forms, each accented ({n:figure|figures} is {n:fígürë|fígürëś}); a placeholder's name and
any other spec ({n:+d}, {x:key}) are kept; the plural rule is English's."""
from __future__ import annotations

import math
import string
from collections.abc import Iterator
from contextlib import contextmanager

from cobi_companion.words import catalogue, compile, languages
from cobi_companion.words.languages import Language

CODE = "xx"
LANGUAGE = Language(CODE, "Pseudo", voice="en", decimal_mark=",")
PLURAL_FORMS = "nplurals=2; plural=(n != 1);"
LONGER = 1.4
ACCENTS = str.maketrans("aeiouycnszAEOUCNSZ", "áëíöüýćñśżÄÉÖÜĆŃŚŻ")
FILLER = "lörëm ípsüm dölör sít ámët ćönsëćtëtür ádípísćíñg ëlít "


def accented(text: str) -> str:
    return text.translate(ACCENTS)


def padding(count: int, upper: bool) -> str:
    """`count` letters of filler words (the capitals' for a text in capitals)."""
    words = (FILLER * (count // len(FILLER) + 1))[:count].rstrip()
    return words.upper() if upper else words


def escaped(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def pieces(template: str) -> Iterator[tuple[str, str | None]]:
    """A template as its literal text and its placeholders, each placeholder as written
    ("{n:figure|figures}")."""
    for literal, name, spec, conversion in string.Formatter().parse(template):
        if literal:
            yield literal, None
        if name is not None:
            written = name + (f"!{conversion}" if conversion else "")
            if spec:
                forms = spec.split("|") if "|" in spec else None
                written += ":" + ("|".join(accented(form) for form in forms) if forms else spec)
            yield "", "{" + written + "}"


def pseudo(template: str, longer: float = LONGER) -> str:
    """The template in the pseudo-language: its literal text accented and padded with filler
    words to `longer` times its English length (placeholders counted as written)."""
    parts = list(pieces(template))
    text = "".join(escaped(accented(literal)) if field is None else field
                   for literal, field in parts)
    letters = "".join(literal for literal, _ in parts)
    upper = letters.isupper()
    # A short word ("OK", "on") grows by a filler of a letter too, as a translation does.
    wanted = max(math.ceil(len(template) * longer) - len(template), 2 if template else 0)
    more = padding(wanted - 1, upper) if wanted > 1 else ""
    return f"{text} {more}" if more else text


def messages(longer: float = LONGER) -> dict[str, str]:
    """Every message of the English catalogue, by its key, in the pseudo-language."""
    source = compile.read(compile.template_path())
    return {entry.context: pseudo(entry.msgid, longer) for entry in source.entries}


@contextmanager
def speaking(longer: float = LONGER, changed: dict[str, str] | None = None) -> Iterator[str]:
    """The pseudo-language a language of the box while the block runs (the registry's row and
    its catalogue), taken out after; `changed`: messages of its own in place of some."""
    languages.register(LANGUAGE)
    try:
        catalogue.install(CODE, messages(longer) | (changed or {}), PLURAL_FORMS)
        yield CODE
    finally:
        catalogue.uninstall(CODE)
        languages.unregister(CODE)
