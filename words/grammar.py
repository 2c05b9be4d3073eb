"""The values a template is filled with, each written as its language writes it: a number with
the language's decimal mark and the counted word in the form the catalogue's plural rule picks
({n:figure|figures}, {n:figurka|figurki|figurek}); a side with the words that agree with it
({side:gives|give}: the Axis is one, the Allies are many); several names in a list with the
language's "and"."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cobi_companion.words import catalogue, languages


def plural(value: float, forms: Sequence[str], language: str) -> str:
    """The form of a counted word for `value`, by the plural rule of `language`'s catalogue
    (English one/other; Polish one, few (2-4, 22-24, ...) and many)."""
    index = catalogue.load(language).form(value)
    return forms[min(index, len(forms) - 1)]


@dataclass(frozen=True)
class Number:
    """A number in a template: {n} as the language writes it, {n:+d} signed, {n:word|words}
    with its counted word after it, {n:padła #|padły #|padło #} in the form's # (a verb that
    agrees with the number before it)."""

    value: int | float
    language: str

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            # {n:f:figurka|figurki|figurek}: the numeral's form (the voice's, core/spoken.py)
            # means nothing to digits
            forms = spec.split(":", 1)[-1]
            return counted(self.shown(""), plural(self.value, forms.split("|"), self.language))
        return self.shown(spec)

    def shown(self, spec: str) -> str:
        text = format(self.value, spec or ("d" if isinstance(self.value, int) else "g"))
        return with_decimal_mark(text, self.language)

    def __str__(self) -> str:
        return self.shown("")


def with_decimal_mark(text: str, language: str) -> str:
    """A number written with a point, as `language` writes it: its registry's decimal mark
    (a comma in Polish and German)."""
    mark = languages.get(language).decimal_mark
    return text if mark == "." else text.replace(".", mark)


# Where a counted word's form puts the number: "padły #" (the verb first), else the number
# comes first ("2 figurki").
NUMBER_MARK = "#"


def counted(number: str, form: str) -> str:
    """The number and its counted word's form: in the form's # ("padły 2") or before it."""
    return form.replace(NUMBER_MARK, number) if NUMBER_MARK in form else f"{number} {form}"


def number(value: float, language: str, spec: str = "") -> str:
    return Number(value, language).shown(spec)


# The sides whose names are plural, as the rules write them: the Allies (Alianci, die
# Alliierten) and Cobra's Germans (Niemcy, die Deutschen) and Allies; the Axis (Oś, die Achse) is
# one, in every language of the box. A word that agrees with a side takes the form this picks.
MANY_SIDES = frozenset({"allies", "allied", "german"})


def side_is_many(side: str) -> bool:
    """Whether the side the rules call `side` ("axis", "allies", Cobra's "german") is many."""
    return side in MANY_SIDES


@dataclass(frozen=True)
class SideName:
    """A side in a template, as its name ({side}) or as the form of a word that agrees with it
    ({side:gives|give}, {side:poddaje|poddają}): the Axis is one (Oś, die Achse), the Allies
    are many (Alianci, die Alliierten), in every language."""

    name: str
    many: bool
    key: str = ""            # as the rules write it: {side:key} in the log's English

    def __format__(self, spec: str) -> str:
        if spec == "key":
            return self.key
        if "|" in spec:
            one, many = spec.split("|")
            return many if self.many else one
        return format(self.name, spec)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Listed:
    """Several words or names in a template: {labels} joined with commas, {labels:and} with
    the language's "and" before the last; none at all is the word for none."""

    words: tuple[str, ...]
    language: str

    def __format__(self, spec: str) -> str:
        if not self.words:
            return catalogue.text(self.language, "none")
        if spec == "and" and len(self.words) > 1:
            return f"{', '.join(self.words[:-1])} {catalogue.text(self.language, 'and')} " \
                   f"{self.words[-1]}"
        return ", ".join(self.words)

    def __str__(self) -> str:
        return format(self, "")
