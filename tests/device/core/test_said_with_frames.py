"""Each outcome is said once its own frame is drawn, in the frames' order (issue 34, point 6): a
shot's steps say their parts as each is drawn, settled (never while its dice tumble); OK that
skips to the outcome says only the outcome; the knob back through the steps says nothing again;
whose turn it is waits for the outcome. On the real box with a recording voice, its ticks given
one at a time (Tick events with chosen times): no test here depends on a thread's timing."""
from __future__ import annotations

from typing import Any, cast

from cobi_companion.device.core.saying import outcome
from cobi_companion.device.core.views import BigWord, Roll, View
from cobi_companion.device.ports.events import Key, Tick
from cobi_companion.device.ports.speech import RecordingSpeech
from cobi_companion.device.ui.widgets import Show

from ..conftest import EASY
from ..test_box import TIGER_VS_SHERMAN

NO_APP = cast(Any, None)        # Show's sayings read nothing of the app


def header() -> Any:
    from cobi_companion.device.core.views import Header

    return Header("Tiger 1")


def steps_show(**more: Any) -> Show:
    views: list[View] = [Roll(header(), (5,), "To hit", total="HIT"),
                         Roll(header(), (1,), "Reload", total="UNLOADED"),
                         BigWord(header(), "DESTROYED")]
    says = [outcome("say_hit", firer="Tiger 1"), outcome("say_must_reload", label="Tiger 1"),
            outcome("say_destroyed", target="Sherman 1")]
    return Show(views, lambda: NO_APP, animate=True, steps=True, play=True, says=says, **more)


def played(show: Show, ticks: int) -> list[tuple[int, str | None]]:
    """The view shown and what it said, tick by tick (the app asks after each event)."""
    found = []
    for _ in range(ticks):
        show.tick(NO_APP, 0.0)
        said = show.said(NO_APP)
        found.append((show.index, said.key if said else None))
    return found


def test_each_step_is_said_once_its_dice_stop_in_the_frames_order():
    show = steps_show()
    assert show.said(NO_APP) is None            # its first die tumbles: nothing yet
    heard = [(index, key) for index, key in played(show, 60) if key]
    assert heard == [(0, "say_hit"), (1, "say_must_reload"), (2, "say_destroyed")]
    assert not show.to_say


def test_ok_skips_to_the_outcome_and_says_only_it():
    show = steps_show()
    show.on(NO_APP, Key.OK)
    said = show.said(NO_APP)
    assert said is not None and said.key == "say_destroyed"
    assert played(show, 30) == [(2, None)] * 30


def test_the_knob_back_through_the_steps_says_nothing_again():
    show = steps_show()
    played(show, 60)
    for key in (Key.CCW, Key.CCW, Key.CW, Key.CW):
        show.on(NO_APP, key)
        assert show.said(NO_APP) is None


def test_a_show_begun_at_a_later_step_says_from_there():
    # Easy: the firer's steps were shown (and said) before the armour's player pressed
    show = steps_show(index=2)
    said = show.said(NO_APP)
    assert said is not None and said.key == "say_destroyed"


def test_a_big_miss_after_its_dice_miss_is_said_once():
    views: list[View] = [Roll(header(), (1,), "To hit", total="MISS"),
                         BigWord(header(), "MISS")]
    miss = outcome("say_miss", firer="Tiger 1")
    show = Show(views, lambda: NO_APP, animate=True, steps=True, play=True, says=[miss, miss])
    assert [key for _, key in played(show, 40) if key] == ["say_miss"]
    skipped = Show(views, lambda: NO_APP, animate=True, steps=True, play=True,
                   says=[miss, miss])
    skipped.on(NO_APP, Key.OK)                  # the die skipped: the miss said with the word
    assert skipped.said(NO_APP) == miss


def frames_and_words(table: Any, taps: list[str]) -> list[tuple[View, list[str]]]:
    """Each frame the box draws after `taps`, tick by tick, with what was said once it was
    drawn: the presses handled at once, then Ticks of chosen times until nothing moves."""
    app, loop = table.box.app, table.box.loop
    speech = app.speech
    assert isinstance(speech, RecordingSpeech)
    found: list[tuple[View, list[str]]] = []
    for word in taps:
        speech.said.clear()
        table.tap(word)
        found.append((app.view(), speech.texts))
    now = 1000.0
    while app.screen.animating:
        speech.said.clear()
        now += 0.08
        loop.step(Tick(now))
        found.append((app.view(), speech.texts))
    return found


def test_a_tank_game_shot_says_each_step_with_its_frame(table_at):
    # Kelly's Heroes: the Sherman fires at the Tiger: hit, reload, damage, weakened
    table = table_at([4, 2, 3, 5, 3, 6, 4, 4, 6, 3, 1, 2, 4, 4, 2])
    table.box.app.speech = RecordingSpeech()
    table.press(*TIGER_VS_SHERMAN, "axis", "allies", "ok")
    table.press("ok", "ok", "ok", "ok", "ok", "cw", "cw")
    frames = frames_and_words(table, ["allies"])
    said = [(view, words) for view, words in frames if words]
    assert [words for _, words in said] == [["Sherman one hits!"], ["Sherman one reloads."],
                                            ["Tiger one is weakened."]]
    hit, reload, weakened = (view for view, _ in said)
    assert isinstance(hit, Roll) and not hit.rolling and hit.total == "HIT"
    assert isinstance(reload, Roll) and not reload.rolling and reload.total == "RELOADED"
    assert isinstance(weakened, BigWord) and weakened.word == "WEAKENED"
    # nothing is said ahead of its frame: the frames before the hit's were its dice tumbling
    before = frames[:next(i for i, (_, words) in enumerate(frames) if words)]
    assert all(isinstance(view, Roll) and view.rolling for view, _ in before)


def test_whose_turn_waits_for_the_outcome(table_at):
    # Easy: the Axis wins the initiative, the Tiger misses: the Allies' turn is said once the
    # big MISS is drawn, after the miss said with its die (not at the shot's first frame)
    table = table_at([5, 2, 1, 1, 1, 1, 1, 1], config=EASY)
    table.box.app.speech = RecordingSpeech()
    table.press("ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok")
    table.press("axis", "allies")
    table.press("ok", "ok")
    frames = frames_and_words(table, ["axis"])
    said = [(view, words) for view, words in frames if words]
    assert [words for _, words in said] == [["Tiger one misses."], ["Allies: your turn."]]
    assert isinstance(said[0][0], Roll) and said[0][0].total == "MISS"
    assert isinstance(said[1][0], BigWord) and said[1][0].word == "MISS"


def test_an_outcome_shown_again_after_a_restart_is_not_said_again(table_at):
    # the plug may have been pulled after the sentence: a hit said twice sounds like two hits
    first = table_at([4, 2, 3, 5, 3, 6, 4, 4, 6, 3, 1, 2, 4, 4, 2])
    first.press(*TIGER_VS_SHERMAN, "axis", "allies", "ok",
                "ok", "ok", "ok", "ok", "ok", "cw", "cw", "allies")
    first.close()
    again = table_at([6, 6])
    speech = again.box.app.speech = RecordingSpeech()
    again.press("ok")                        # Resume: the Sherman's shot shown again
    assert isinstance(again.view, BigWord) and again.view.word == "WEAKENED"
    assert [u for u in speech.said if u.kind == "outcome"] == []
