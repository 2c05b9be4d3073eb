"""What the screens keep between frames (device/core/memo.py) is kept only while it is right:
a new battle, turn, shot, card or log line is worked out again."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from cobi_companion.cards import CardBook
from cobi_companion.device.core import battle_log
from cobi_companion.device.core.battle_log import SavedLog, entry, said, saved
from cobi_companion.device.core.battle_state import LOG_SAVED, piece_dict
from cobi_companion.device.core.memo import ByIdentity, Latest
from cobi_companion.device.core.views import Lines, Menu
from cobi_companion.device.games import roster
from cobi_companion.device.games.roster import marks
from cobi_companion.device.games.tank.turn import again_alone
from cobi_companion.rules import shot
from cobi_companion.rules.card import Facing
from cobi_companion.rules.status import Side


class Calls:
    """A pure function that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, key: object) -> tuple[object, int]:
        self.calls += 1
        return key, self.calls


def test_by_identity_keeps_a_result_for_the_very_same_object() -> None:
    work = Calls()
    kept = ByIdentity(work)
    first, twin = ["a"], ["a"]                     # equal, but two objects
    assert kept(first) == (first, 1) and kept(first) == (first, 1) and work.calls == 1
    assert kept(twin) == (twin, 2)
    assert kept(first) == (first, 1) and work.calls == 2


def test_by_identity_forgets_everything_past_its_size() -> None:
    work = Calls()
    kept = ByIdentity(work, size=2)
    a, b, c = object(), object(), object()
    kept(a), kept(b)
    kept(c)                                        # the third key: the first two forgotten
    assert work.calls == 3
    kept(c)
    assert work.calls == 3
    kept(a)
    assert work.calls == 4


def test_latest_is_computed_again_when_any_input_is_another_object() -> None:
    latest: Latest[int] = Latest()
    a, b = object(), object()
    calls: list[int] = []

    def compute(value: int) -> int:
        calls.append(value)
        return value
    assert latest.get((a, b), lambda: compute(1)) == 1
    assert latest.get((a, b), lambda: compute(2)) == 1
    assert latest.get((a, object()), lambda: compute(3)) == 3
    assert latest.get((a,), lambda: compute(4)) == 4
    assert calls == [1, 3, 4]


def test_latest_keeps_nothing_from_a_computation_that_failed() -> None:
    latest: Latest[int] = Latest()
    a = object()
    assert latest.get((a,), lambda: 1) == 1

    def fails() -> int:
        raise ValueError("no")
    with pytest.raises(ValueError):
        latest.get((object(),), fails)
    assert latest.get((a,), lambda: 2) == 2         # not the old value for the old inputs


def test_a_cards_marks_follow_the_card_object(table_at) -> None:
    """A reload of the cards makes new card objects: the roster's marks are theirs."""
    table = table_at([])
    app = table.box.app
    tiger = next(card for card in app.book.sorted() if card.name == "Tiger I")
    assert marks(app, tiger) == []
    gunless = replace(tiger, gun_to_hit=None)
    assert marks(app, gunless) == [app.t("mark_no_gun")]
    assert marks(app, tiger) == []


def the_shot_offered_again(table) -> None:
    """The Tank Game: Sherman 1 misses the Tiger, the Tiger misses back: Sherman 1's next
    turn offers the same shot again."""
    table.press("ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok")
    table.press("axis", "allies", "ok")
    table.press("ok", "ok", "ok", "ok", "ok", "allies", "ok", "ok")
    table.press("ok", "ok", "ok", "ok", "ok", "axis", "ok", "ok")
    assert table.view.items[table.view.index] == "Sherman 1 → Tiger 1"


def test_the_shot_again_is_asked_anew_once_the_battle_changes(table_at) -> None:
    table = table_at([4, 2, 1, 5, 1, 5, 2, 5])
    the_shot_offered_again(table)
    app = table.box.app
    state = app.playing
    aim = again_alone(app)
    assert aim is not None and again_alone(app) is aim
    sherman = state.battle.get("Sherman 1")
    state.set_status("Sherman 1", replace(sherman.status, gun_destroyed=True))
    assert again_alone(app) is None                 # the firer lost its gun: no shot again
    assert "Sherman 1 → Tiger 1" not in table.view.items
    state.set_status("Sherman 1", sherman.status)
    assert again_alone(app) == aim
    state.last_shot[Side.ALLIES] = replace(aim, facing=Facing.REAR)   # the same battle
    assert again_alone(app) == replace(aim, facing=Facing.REAR)
    del state.last_shot[Side.ALLIES]
    assert again_alone(app) is None


def test_the_previews_odds_follow_the_facing(table_at) -> None:
    """The preview's odds are kept for its battle and aim: the knob's next facing has its
    own."""
    table = table_at([4, 2, 1, 5, 1, 5, 2, 5])
    the_shot_offered_again(table)
    table.press("ok")                               # the shot again, as a preview
    assert isinstance(table.view, Lines)

    def exact() -> tuple[str, ...]:
        """The preview's details: its exact odds (OK there, OK back)."""
        table.press("ok")
        lines = table.view.lines
        table.press("ok")
        return lines
    odds = exact()
    table.press("cw")                               # the Tiger's side
    assert exact() != odds
    table.press("ccw")
    assert exact() == odds


def test_a_saved_log_line_is_the_lines_data(table_at) -> None:
    table = table_at([4, 2])
    table.press("ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok", "axis", "allies")
    state = table.box.app.playing
    before = state.to_dict()["log"]
    line = entry("log_passes")
    state.log.append(line)
    after = state.to_dict()["log"]
    assert after[:-1] == before and after[-1] == saved(line) == {"key": "log_passes",
                                                                 "values": {}}
    state.log[-1] = "an old battle's sentence"
    assert state.to_dict()["log"][-1] == "an old battle's sentence"


def test_a_saved_piece_and_turn_are_their_data(table_at) -> None:
    """A piece or a turn saved again is the same data; a changed one (a new object) is its
    own."""
    table = table_at([4, 2, 1, 5, 1, 5, 2, 5])
    the_shot_offered_again(table)
    state = table.box.app.playing
    before = state.to_dict()
    sherman = state.battle.get("Sherman 1")
    state.set_status("Sherman 1", replace(sherman.status, loaded=False))
    after = state.to_dict()
    changed = [p for p in after["pieces"] if p["label"] == "Sherman 1"]
    assert changed == [{**piece_dict(sherman), "status": ["unloaded"]}]
    assert [p for p in after["pieces"] if p["label"] != "Sherman 1"] == \
        [p for p in before["pieces"] if p["label"] != "Sherman 1"]
    assert after["turn"] == state.turn.to_dict()
    state.turn = replace(state.turn, number=state.turn.number + 1)
    assert state.to_dict()["turn"]["number"] == after["turn"]["number"] + 1


class Counted:
    """battle_state's `saved`, counting the lines it makes data."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, line: object) -> object:
        self.calls += 1
        return saved(line)  # type: ignore[arg-type]


battle_log_saved = Counted()


def test_the_saved_log_is_made_again_only_where_it_changed(monkeypatch) -> None:
    """Lines added since the last save are made data; lines changed in place, a shorter log
    or another log are made again whole; past LOG_SAVED lines the first fall off."""
    monkeypatch.setattr(battle_log, "saved", battle_log_saved)
    made: list[int] = []
    log_data = SavedLog(LOG_SAVED)
    lines = [entry("log_passes", n=n) for n in range(5)]

    def data(log: list) -> list:
        before = battle_log_saved.calls
        result = log_data(log)
        made.append(battle_log_saved.calls - before)
        return result
    assert data(lines) == [saved(line) for line in lines] and made[-1] == 5
    lines.append(entry("log_ends_turn"))
    assert data(lines) == [saved(line) for line in lines] and made[-1] == 1
    assert data(lines) == [saved(line) for line in lines] and made[-1] == 0
    lines[2] = "an old battle's sentence"                          # changed in place
    assert data(lines) == [saved(line) for line in lines] and made[-1] == 6
    shorter = lines[:3]
    assert data(shorter) == [saved(line) for line in shorter] and made[-1] == 3
    long = [entry("log_passes", n=n) for n in range(LOG_SAVED + 30)]
    assert data(long) == [saved(line) for line in long[-LOG_SAVED:]]
    long += [entry("log_ends_turn")] * 3
    assert data(long) == [saved(line) for line in long[-LOG_SAVED:]] and made[-1] == 3
    long += [entry("log_passes", n=n) for n in range(2 * LOG_SAVED)]   # more than it keeps
    assert data(long) == [saved(line) for line in long[-LOG_SAVED:]]


def test_the_logs_words_are_kept_per_line_and_language(table_at) -> None:
    """The log screen's lines are put into words once per line and language: switching the
    language words the whole log anew."""
    table = table_at([4, 2])
    app = table.box.app
    line = entry("log_side", side="axis", line=entry("log_passes"))
    english = app.log_words(line)
    assert english == said(line, "en", app.t, app.say) == app.log_words(line)
    app.settings.language = "pl"
    polish = app.log_words(line)
    assert polish == said(line, "pl", app.t, app.say) != english
    assert app.log_words("an old battle's sentence") == "an old battle's sentence"
    app.settings.language = "en"
    assert app.log_words(line) == english


def test_a_commit_saves_the_battle_as_it_was_at_the_commit(table_at) -> None:
    """The save is made data after the frame, from a snapshot: what the battle does after the
    commit (in the same event, or another of the same batch) is not in it."""
    table = table_at([4, 2, 1, 5, 1, 5, 2, 5])
    the_shot_offered_again(table)
    app = table.box.app
    state = app.playing
    saves: list[dict] = []
    # the store's save replaced by one that keeps what it is given (a test double's method)
    app.store.save_battle = lambda data, rolls, drawn=None, grows=(): saves.append(  # type: ignore[method-assign]
        data)
    app.commit(entry("log_passes"))
    expected = {**state.to_dict(), "format": 2}         # the save says its format
    state.log.append(entry("log_ends_turn"))
    state.acted.append(Side.AXIS)
    state.shots["Rifle 1"] = [1, 3]
    state.last_shot[Side.AXIS] = replace(state.last_shot[Side.ALLIES], firer="Tiger 1")
    state.last_actor[Side.AXIS] = "Tiger 1"
    state.round += 1
    state.set_status("Sherman 1", replace(state.battle.get("Sherman 1").status, loaded=False))
    app.save()
    assert saves == [expected]
    app.commit()
    app.save()
    assert saves[-1] == {**state.to_dict(), "format": 2} != expected


def test_the_warm_up_works_out_every_cards_readiness(table_at) -> None:
    table = table_at([])
    loop = table.box.loop
    while loop.warm_up is not None and next(loop.warm_up, False):
        pass
    app = table.box.app
    kept = roster.readiness_of(app)._kept
    models = [card for card in app.book.sorted() if card.kind.model]
    assert models and all(kept[id(card)][0] is card for card in models)


def many_cards(count: int, book: CardBook) -> CardBook:
    """`count` cards: the shipped ones again and again, each with a set number of its own."""
    shipped = book.sorted()
    cards = [replace(shipped[n % len(shipped)], set_number=90_000 + n, id=None,
                     name=f"{shipped[n % len(shipped)].name} {n}") for n in range(count)]
    return CardBook({card.key: card for card in cards})


def test_a_turn_through_a_thousand_cards_works_out_no_card_again(table_at, monkeypatch) -> None:
    """Past 256 cards the roster's readiness cache forgot every card at each pass over the
    book, and each turn of the knob worked out every card's rows again (10 ms a turn at 1,000
    cards): now the cards' readiness, the rows and their texts are kept while they are the
    same, and a turn works out none of them."""
    table = table_at([])
    app = table.box.app
    app.book = many_cards(1_000, app.book)
    checked: list[object] = []
    check_firer = shot.check_firer
    def counted(card: object, *args: Any, **kwargs: Any) -> Any:
        checked.append(card)
        return check_firer(card, *args, **kwargs)
    monkeypatch.setattr(shot, "check_firer", counted)
    table.press("ok")                               # New battle: every card's marks
    assert isinstance(table.view, Menu) and len(table.view.items) > 1_000
    models = sum(card.kind.model for card in app.book.cards.values())
    assert len(checked) >= models > 256
    first = table.view.items[table.view.index]
    checked.clear()
    table.press("cw", "cw", "cw", "ccw")
    assert checked == []
    assert table.view.index == 2 and table.view.items[0] == first
    table.press("axis")                             # a piece: that row's text anew, no card
    assert table.view.items[2].endswith(f"{app.side_name(Side.AXIS)} 1")
    assert checked == []


def test_the_roster_rows_follow_the_language_and_the_book(table_at) -> None:
    table = table_at([])
    app = table.box.app
    table.press("ok")
    english = table.view.items
    app.settings.language = "pl"
    table.press("cw", "ccw")
    assert table.view.items != english              # the same rows, said in Polish
    app.settings.language = "en"
    table.press("cw", "ccw")
    assert table.view.items == english
    app.book = many_cards(3, app.book)
    table.press("cw", "ccw")
    assert len(table.view.items) == 3 + 2           # the three cards, House rules, Rules
