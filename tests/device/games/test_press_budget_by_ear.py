"""A whole Easy battle played by ear (voice "all"): a child who cannot read turns the knob until
the box says the item wanted ("Tiger one, Axis", "Fire at Sherman one") and presses OK, and
presses a dice button when the box says whose it is. Reading the menus aloud adds no press:
the budgets of test_press_budget.py hold, counted the same way."""
from __future__ import annotations

import pytest
from cobi_companion.device.ports.speech import RecordingSpeech
from cobi_companion.device.ui.widgets import said_item

from .test_press_budget import NEW_BOX, Count

# Turns of the knob a child may make listening for one item before the test calls it lost.
MOST_TURNS = 12


class Ear(Count):
    """A finger that knows only what the box said."""

    @property
    def speech(self) -> RecordingSpeech:
        speech = self.table.box.app.speech
        assert isinstance(speech, RecordingSpeech)
        return speech

    @property
    def last(self) -> str:
        return self.speech.said[-1].text if self.speech.said else ""

    def hear(self, wanted: str) -> None:
        # a sentence's first letter is a capital ("Seven T P"): the words are what counts
        assert self.last.lower().endswith(wanted.lower()), (wanted, self.speech.texts[-3:])

    def pick(self, wanted: str) -> None:
        """Turn until `wanted` is heard last (the item under the cursor), then OK."""
        for _ in range(MOST_TURNS):
            if self.last.lower().endswith(wanted.lower()):
                self.press("ok")
                return
            self.press("cw")
        raise AssertionError(f"never heard {wanted!r}: {self.speech.texts[-MOST_TURNS:]}")

    def put(self, card: str, side: str, times: int) -> None:
        """The roster: turn until the card's name is heard, then its side's button."""
        for _ in range(MOST_TURNS):
            if self.last == card:
                self.press(*[side] * times)
                return
            self.press("cw")
        raise AssertionError(f"never heard {card!r}: {self.speech.texts[-MOST_TURNS:]}")

    def roll_when(self, prompt: str, side: str) -> None:
        """Roll `side`'s die once the box has asked for it."""
        assert prompt in self.last, (prompt, self.speech.texts[-3:])
        self.roll(side)


def listening_table(table_at, dice: list[int]):
    table = table_at(dice, config=NEW_BOX)
    app = table.box.app
    app.speech = RecordingSpeech()
    assert app.settings.voice == "all"          # a new box reads its menus aloud
    return table


# Round 1: initiative 5 : 2, the Axis; Tiger 1 hits Sherman 1 (5, D6+ 3, armour 1):
# destroyed. Sherman 2 misses Tiger 1 (1). Round 2: initiative 5 : 2; Tiger 1 destroys
# Sherman 2 the same way: the Axis win.
BATTLE_DICE = [5, 2, 5, 3, 1, 1, 5, 2, 5, 3, 1]


def initiative(ear: Ear) -> None:
    """Both roll when asked (5 : 2: the Axis go first)."""
    ear.roll_when("Both: press your buttons.", "axis")
    ear.roll("allies")


def tiger_destroys(ear: Ear, target: str) -> None:
    """The Tiger picked by ear fires at `target`, heard by its spoken name: destroyed."""
    ear.pick("Tiger one, Axis")
    ear.pick(f"Fire at {target}")
    ear.hear("Axis: press your button to fire. Front")      # the armour lit: the front
    ear.roll("axis")
    ear.roll_when("Allies: press your button for armour.", "allies")
    assert f"{target} is destroyed" in ear.last


def test_a_whole_easy_battle_is_played_by_ear_within_the_press_budget(table_at):
    table = listening_table(table_at, BATTLE_DICE)
    ear = Ear(table)
    ear.press("ok")                                   # New battle: the first row
    ear.hear("seven T P")                             # the roster reads its first card
    ear.put("Sherman", "allies", 2)
    ear.put("Tiger", "axis", 2)
    ear.press("ok")                                   # start
    initiative(ear)
    ear.hear("Tiger one, Axis")                       # the Axis go first: their first tank
    tiger_destroys(ear, "Sherman one")
    first = len(ear.presses)
    assert first <= 12, ear.presses                   # the budget of test_press_budget.py
    assert first == 11 and len(ear.rolls) == 4        # as many as by eye

    ear.press("ok")                                   # the outcome heard: the Allies' turn
    ear.pick("Sherman two, Allies")
    ear.pick("Fire at Tiger one")
    ear.roll_when("Allies: press your button to fire.", "allies")
    assert "misses" in ear.last.lower()
    ear.press("ok")                                   # round 2: the initiative
    initiative(ear)
    tiger_destroys(ear, "Sherman two")
    ear.press("ok")                                   # the battle's end: its winner
    assert ear.last.endswith("Axis win!"), ear.speech.texts[-2:]
    # The rest of the battle: OK on each outcome, OK on the piece heard first and on its
    # target (Sherman two is lit, Sherman one being gone; the Tiger that acted last is lit
    # again), OK to the battle's end: no knob turn at all.
    assert ear.presses[first:] == ["ok"] * 7
    assert len(ear.rolls) == 9


def test_by_eye_and_by_ear_press_alike(table_at):
    # The same battle's first outcome by eye (test_press_budget.py's presses), with the voice
    # off: the presses are the ones by ear.
    table = table_at(BATTLE_DICE, config=NEW_BOX)
    table.box.app.settings.voice = "off"
    count = Count(table)
    count.press("ok", "cw", "allies", "allies", "cw", "cw", "axis", "axis", "ok")
    count.roll("axis", "allies")
    count.press("ok", "ok")
    count.roll("axis", "allies")
    assert len(count.presses) == 11


@pytest.mark.parametrize(("label", "said"), [
    ("Fire → Sherman 1", "Fire, Sherman one"),
    ("Voice: all · no sound out", "Voice: all, no sound out"),
    ("▸ Tiger 2", "Tiger two"),
    ("Volume: 80%", "Volume: 80%"),
    ("Rifle 1 (2)", "Rifle one: two figures"),          # a squad's figures in words
    ("Rifle 1 (1)", "Rifle one: one figure"),
])
def test_a_rows_marks_are_pauses_never_said(label, said):
    from cobi_companion.device.core.spoken import utterance

    spoken = said_item(label)
    assert spoken.kind == "item"
    assert utterance(spoken, "en").text == said


@pytest.mark.parametrize(("language", "said"), [
    ("pl", ["Rifle jeden: jedna figurka", "Rifle jeden: dwie figurki",
            "Rifle jeden: pięć figurek"]),
    ("de", ["Rifle eins: eine Figur", "Rifle eins: zwei Figuren", "Rifle eins: fünf Figuren"]),
])
def test_a_squads_figures_are_counted_in_each_languages_grammar(language, said):
    from cobi_companion.device.core.spoken import utterance

    assert [utterance(said_item(f"Rifle 1 ({n})"), language).text for n in (1, 2, 5)] == said
