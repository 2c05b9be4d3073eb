"""Cobra's notes are typed: each has the rules' English sentence, a `Why` code and the values
that code names, for a box to say in its own words. Every code is reached here through the
real rules."""
from __future__ import annotations

from dataclasses import replace

from cobi_companion.rules.cobra.combat import (
    Unit,
    carpet_odds,
    explain_notes,
    odds,
    overrun_note,
    roll,
)
from cobi_companion.rules.cobra.notes import Note, Why
from cobi_companion.rules.cobra.replacements import Replacement, take
from cobi_companion.rules.cobra.tables import Loss, Result, Weather
from cobi_companion.rules.cobra.turns import CobraGame, automatic_victory, victory
from cobi_companion.rules.cobra.weather import determine, forced
from cobi_companion.rules.dice import ScriptedDice

C, OV, S = Weather.CLEAR, Weather.OVERCAST, Weather.STORM


def _forced(turn: int, history: list[Weather]) -> Note:
    fixed = forced(turn, history)
    assert fixed is not None
    return fixed[1]


def _supply(scenario: str, *weathers: Weather) -> Note:
    """The note of the Allied supply phase after `weathers` (the last is this turn's)."""
    game = CobraGame.start(scenario)
    while game.phase.name != "weather":
        game = game.advance()
    for number, weather in enumerate(weathers, start=1):
        game, _ = game.with_weather(weather)
        while game.phase.name != "supply":
            game = game.advance()
        game, note = game.receive_allied(3, 2)
        if number == len(weathers):
            return note
        while game.phase.name != "weather":
            game = game.advance()
    raise AssertionError("no weather given")


def _german_supply(weather: Weather, german: int = 4) -> Note:
    """The note of the German supply the weather brings, the track at `german` before."""
    game = CobraGame.start("cobra")
    game = game.adjust("german", german - game.tracks.german)
    while game.phase.name != "weather":
        game = game.advance()
    return game.with_weather(weather)[1]


def _result(attacker: str, defender: str) -> Result:
    def loss(text: str) -> Loss:
        return Loss(text=text, eliminated=text == "e", steps=int(text) if text.isdigit() else 0)
    return Result(text=f"{attacker}/{defender}", attacker=loss(attacker), defender=loss(defender))


def notes() -> list[Note]:
    """A note of every kind, each from the rules that write it."""
    return [
        _forced(1, []), _forced(2, [C]), _forced(17, [S, S, S]), _forced(6, [C, OV, C, OV, OV]),
        _supply("campaign", C), _supply("cobra", C, S), _supply("cobra", C, S, S),
        _supply("cobra", C), _german_supply(S), _german_supply(OV, german=11),
        *roll(odds([Unit(26)], [Unit(9)]), ScriptedDice([4])).notes,
        *explain_notes(_result("1", "4")), *explain_notes(_result("e", "e")),
        *explain_notes(_result("-", "-")), *explain_notes(_result("2", "-")),
        *explain_notes(_result("-", "2"), carpet=True),
        # an overrun's move after its result (5.4.2, 5.4.3), without and with the owner's CRT
        overrun_note(None), *(overrun_note(_result(a, d)) for a, d in (
            ("1", "2"), ("1", "-"), ("-", "e"), ("-", "2"), ("-", "-"))),
        victory("cobra", True, 10, 50)[1], victory("cobra", False, 50, 10)[1],
        victory("cobra", False, 10, 20)[1], _replacement_vp(), *_landing(), *_campaign(),
        automatic_victory("campaign")[1], *roll(carpet_odds(), ScriptedDice([4])).notes,
    ]


def _campaign() -> list[Note]:
    """The campaign's reminders and counts (rules/cobra/campaign.py, bookkeeping.py)."""
    from cobi_companion.rules.cobra import bookkeeping
    from cobi_companion.rules.cobra.campaign import reminders
    from cobi_companion.rules.cobra.combat import Nation

    from tests.rules.cobra.test_cobra_campaign import at
    german, allied = Nation.GERMAN, Nation.ALLIED
    return [*reminders(True, 1, german, "initial_movement"),
            *reminders(True, 1, allied, "initial_movement"),
            *reminders(True, 2, allied, "initial_movement"),
            *reminders(True, 7, allied, "turn_end"),
            bookkeeping.delay_note(at(2, german, "initial_movement")),
            bookkeeping.rail_note(at(2, german, "initial_movement")),
            bookkeeping.rail_note(at(2, german, "mechanized_movement")),
            bookkeeping.cherbourg_note(at(5, german, "combat"))]


def _replacement_vp() -> Note:
    """The tenth Allied replacement step's German VP (16.1)."""
    game = CobraGame.start("cobra")
    while game.phase.name != "replacement" or game.phase.player.value != "allied":
        game = game.with_weather(C)[0].advance() if game.phase.name == "weather" else \
            game.advance()
    game = replace(game, replacements=tuple(Replacement(15, "us", "inf") for _ in range(9)))
    note = take(game, "british", "inf")[1].vp
    assert note is not None
    return note


def _landing() -> list[Note]:
    """The landing's notes (17.3.2, 17.3.4): drops, beach defence, attrition, beaches, the
    withdrawal attack, with the owner's diagram and CRT and without."""
    from cobi_companion.rules.cobra import landing
    from cobi_companion.rules.cobra.tables import CobraTables

    cells = ["-/1", "e", "-/2", "1/-", "-/-", "-/e"]
    owner = CobraTables(crt={"1:2": cells, "3:1": cells}, scatter={"4": "south"})
    target = landing.Target
    made = [*landing.scatter(target.US_82, ScriptedDice([2])).notes,
            *landing.scatter(target.US_82, ScriptedDice([5, 4]), owner).notes,
            *landing.scatter(target.US_82, ScriptedDice([6, 3]), owner).notes,
            *(landing.commitment(ScriptedDice([die])).note for die in (4, 5)),
            *(landing.beach_check(target.OMAHA, 6, lost).note for lost in (3, 4))]
    for die, tables in ((1, None), (1, owner), (2, owner), (6, owner)):
        made += landing.attrition(landing.attrition_odds(target.GOLD), ScriptedDice([die]),
                                  tables).notes
    for die, tables, steps in ((1, None, 2), (1, owner, 2), (3, owner, 2), (1, owner, None),
                               (6, owner, 2)):
        made += landing.withdrawal(ScriptedDice([die]), tables, steps).notes
    return made


def test_every_kind_of_note_is_reached_with_the_values_its_code_names() -> None:
    made = notes()
    assert {note.why for note in made} == set(Why)
    for note in made:
        assert set(note.values) == set(note.why.names), note


def test_the_sentences_are_the_rules_own() -> None:
    assert _forced(1, []).text == "game turn 1 is always clear (5.3)"
    assert determine(1, [], ScriptedDice([])).forced == _forced(1, [])
    assert _supply("cobra", C, S, S).text == "US +2, British +1: half, rounded up, in " \
                                            "storms (11.1b)"
    combat = roll(odds([Unit(26)], [Unit(9)]), ScriptedDice([4]))
    assert combat.explanation == tuple(str(note) for note in combat.notes) == (
        "read column 2:1, die 4 on your printed CRT",)
    assert victory("cobra", False, 10, 40)[1].text == \
        "Marginal Allied, Allied VP 40 − German VP 10 = +30: 2 levels toward the Allies (16.3.3)"
    assert carpet_odds().carpet
    assert _german_supply(S).text == "German attack supply +3 in storm weather (11.0d)"
    assert _german_supply(OV, german=11).text == "German attack supply +2 in overcast " \
                                                 "weather (11.0d); the track stops at 12 (11.0c)"
