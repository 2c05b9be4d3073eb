"""In Polish the box shows no English: every frame of the tour of the box (tour.py: the real box
on mock pins, every kind of screen, the battles' and the Cobra game's logs, the refusals, the
real-dice dial, what is wrong with the box), taken in Polish, and every word of every view
checked against the words the box put there from its word tables.

What a view may show, word by word (letters only; numbers, signs and punctuation are free):
- the words of the Polish templates the screens asked for (`app.t`, the battle log's lines
  too, each put into words from its typed entry), and the refusals and Cobra notes said in
  Polish (`app.say`, from device/core/reasons.py);
- the cards' names and labels, as the card files write them (a model's name, "Tiger I", is a
  proper noun; a label, "Rifle", is what the players read on their own roster). The tour's
  cards have long names and labels of English-looking words: they count only where the whole
  name or label is shown;
- paths of the files the box reads (settings, card folders, card files and the Soft Targets
  Table: shown on "Files in use", and in a refusal that names the file a value is missing
  from);
- the cells of the owner's Cobra tables ("1/2", "e"), written as on the printed chart;
- Cobra's HQs named as their counters print their corps ("II SS Pz", "VIII US"): proper nouns;
- the smart dice makers' names ("GoDice 3F" names a die before its colour is heard): proper
  nouns;
- what the system says and what the owner wrote, shown as they are: a pin's, a part's or the
  saved battle's problem in the system's words, a settings file's problem, a range sensor's
  name from the settings (the tour names each one it gives a box).
Every value a template was filled with must itself be such words: an English word slipped into
a Polish template fails too. Words compare without case (a side's name in capitals is the
table's word). The frames a box drew while it spoke English (the tour switches the language in
the settings and back) are not checked.
"""
from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any

from cobi_companion.device.core import i18n
from cobi_companion.device.core.paired_dice import MAKERS
from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll
from cobi_companion.device.games.cobra.session import tables_read
from cobi_companion.rules.cobra.command import HQS
from cobi_companion.words import catalogue, languages
from tour import in_language

WORD = re.compile(r"[^\W\d_]+")


def words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(text)}


def template_words(key: str) -> set[str]:
    """The words of the Polish template of `key`, without its placeholders, but with the
    forms a placeholder picks from ({side:poddaje|poddają}: a verb that agrees with it)."""
    polish = catalogue.text("pl", key)
    parsed = list(string.Formatter().parse(polish))
    literal = "".join(text for text, _, _, _ in parsed)
    forms = " ".join(spec.replace("|", " ") for _, _, spec, _ in parsed if spec and "|" in spec)
    return words(literal) | words(forms)


def names_and_paths(said: Any) -> tuple[list[str], list[str]]:
    """The names and labels of the cards, the cells of the owner's Cobra tables and the
    languages (each by its own name, the registry's: "Deutsch" on every screen); and the
    paths of the files the boxes read, with the system's and the owner's words, which are
    shown as they are."""
    names: set[str] = set()
    paths: set[str] = {word.lower() for word in said.system}
    for app in said.apps.values():
        cards = app.book.sorted()
        names |= {text for card in cards for language in languages.codes()
                  for text in (card.name_in(language), card.short_in(language))}
        paths |= {card.source.lower() for card in cards if card.source}
        paths.add(app.book.table.source.lower())
        if (tables := tables_read(app)) is not None:
            names |= {cell for cells in tables.crt.values() for cell in cells}
        paths |= {str(path).lower() for path in (
            *app.sources.files, *app.sources.card_folders, *(app.card_folders or []))}
    names |= {one.name for one in HQS}
    names |= set(MAKERS.values())
    names |= {language.name for language in languages.every()}
    return sorted(names, key=len, reverse=True), sorted(paths, key=len, reverse=True)


@in_language("pl")
def test_in_polish_every_word_on_the_panel_comes_from_the_word_tables(
        taken_tour: Mapping[str, Any], tour: Any) -> None:
    taken = taken_tour["pl"]
    said = taken.said
    seen = [one for one in taken.seen if one.language == "pl"]
    known = set().union(*(template_words(key) for key in said.keys),
                        *(words(text) for text in said.refusals))
    names, paths = names_and_paths(said)

    def strangers(text: str) -> list[str]:
        return sorted(words(without(names, without_paths(text, paths))) - known)
    shown: dict[str, Any] = {}
    for one in seen:
        for text in tour.view_texts(one.view):
            shown.setdefault(text, one)
    wrong = [f"{one.journey}: {strangers(text)} in {text!r} ({type(one.view).__name__})"
             for text, one in shown.items() if strangers(text)]
    assert wrong == [], "\n".join(wrong)
    filled = sorted({f"{key}: {value!r}" for key, value in said.values if strangers(value)})
    assert filled == [], "\n".join(filled)
    # and the tour went everywhere it says
    assert {type(one.view) for one in seen} == {Menu, Roll, BigWord, Lines}
    assert said.refusals, "no refusal was said"
    titles = {one.view.header.title for one in seen}
    for key in ("dial_face", "dice_stats", "status_board", "battle_log", "not_possible",
                "run_over", "files_in_use", "victory_level", "match", "check_distance",
                "roster", "table_says", "not_remembered", "pass_ask", "end_turn_ask"):
        assert i18n.text("pl", key) in titles, key


def without(names: list[str], text: str) -> str:
    """`text` without the names in it, each a whole name (longest first): the letters of a
    name count only where the whole name is shown."""
    lowered = text.lower()
    for name in names:
        # a look for its letters first: a text holds few of the hundreds of names (a name
        # whose letters are not there cannot be taken out)
        if name and name.lower() in lowered:
            text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text, flags=re.IGNORECASE)
            lowered = text.lower()
    return text


def without_paths(text: str, paths: list[str]) -> str:
    """`text` without the paths in it; a line that is part of a path (a long one, wrapped
    over lines) is no words at all."""
    lowered = text.lower()
    if lowered.strip() and any(lowered.strip() in path for path in paths):
        return ""
    for path in paths:
        lowered = lowered.replace(path, " ")
    return lowered
