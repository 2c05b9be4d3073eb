"""The box's dice by number (device/core/draws.py): the face of a die is fixed by the box's
secret and the die's number, the count is saved with every action, so a die shown before a
pulled plug comes out the same after it; and a resumed battle shows its last outcome again."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from cobi_companion.device.box import build
from cobi_companion.device.core.draws import ScriptedFrom, SecretDice, secret_face
from cobi_companion.device.core.views import BigWord, Roll
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.events import Key, Press
from cobi_companion.device.ports.store import DATABASE_NAME, MemoryStore, SqliteStore
from cobi_companion.rules.dice import Aim, DiceExhausted, Need, Roller

from ..conftest import EASY, tap_pins

QUICK = Need(Roller.EITHER, Aim.QUICK, "quick D6")


def test_a_dies_face_is_its_number_under_the_secret_and_fair():
    secret = bytes(range(32))
    faces = [secret_face(secret, n) for n in range(60_000)]
    assert faces == [SecretDice(secret).face(n, QUICK) for n in range(60_000)]
    counts = Counter(faces)
    assert set(counts) == set(range(1, 7))
    assert all(9_500 < counts[face] < 10_500 for face in range(1, 7)), counts
    other = [secret_face(b"another box", n) for n in range(60)]
    assert other != faces[:60]                 # another box, other dice


def test_scripted_faces_are_numbered_from_the_first_die_asked_or_given():
    next_ones = ScriptedFrom([4, 2])
    assert [next_ones.face(n, QUICK) for n in (7, 8)] == [4, 2]
    dice = ScriptedFrom([4, 2, 6], first=10)
    assert [dice.face(n, QUICK) for n in (12, 10, 10)] == [6, 4, 4]   # the same die: the same
    with pytest.raises(DiceExhausted, match="ran out at the quick D6 roll"):
        dice.face(13, QUICK)
    with pytest.raises(DiceExhausted, match="before the first given"):
        dice.face(9, QUICK)


def test_the_store_keeps_its_secret_and_the_count_with_each_save(tmp_path):
    path = tmp_path / DATABASE_NAME
    store = SqliteStore(path)
    secret, drawn = store.dice()
    assert len(secret) == 32 and drawn == 0
    store.save_battle({"id": "b1"}, [("axis", "to hit", 4)], drawn=3)
    assert store.dice() == (secret, 3)
    store.save_rolls([("allies", "quick D6", 6)], drawn=5)
    store.save_battle({"id": "b1"}, [])                  # a save with no count keeps it
    assert store.dice() == (secret, 5)
    store.clear_battle(drawn=8)
    store.close()
    again = SqliteStore(path)
    assert again.dice() == (secret, 8)                   # the same box: the same dice
    again.close()
    assert MemoryStore().dice()[0] != secret             # another box


def own_dice_box(state: Path):
    """A box with its own dice (its store's secret), as on the Pi."""
    factory = tap_pins()
    box = build(EASY, MemoryDisplay(), pin_factory=factory, state_dir=state,
                input_clock=factory.clock)
    box.loop.draw()
    return box, factory


def quick_faces(box, presses: int, saved: bool) -> list[int]:
    """Quick dice from the start menu; each face drawn, and saved after its frame or not (a
    plug pulled between the frame and the save)."""
    faces = []
    for _ in range(presses):
        box.loop.handle(Press(Key.AXIS))
        box.loop.draw()
        if saved:
            box.app.save()
        else:
            box.app.unsaved.clear()            # the writes a pulled plug loses
        faces.append(box.app.view().faces[0])
    return faces


def test_a_die_shown_then_lost_to_a_pulled_plug_comes_out_the_same(tmp_path):
    state = tmp_path / "state"
    box, factory = own_dice_box(state)
    kept = quick_faces(box, 3, saved=True)
    shown = quick_faces(box, 12, saved=False)            # shown, the plug pulled: not saved
    box.close()
    factory.reset()
    box, factory = own_dice_box(state)
    try:
        assert quick_faces(box, 12, saved=True) == shown      # the same twelve faces again
        assert box.store.dice()[1] == 15
        assert kept + shown == [secret_face(box.store.dice()[0], n) for n in range(15)]
    finally:
        box.close()
        factory.reset()


def test_a_battle_resumed_shows_the_shot_the_plug_hid_then_its_end(table_at, tmp_path):
    """The plug is pulled once the last shot is saved but while its armour die still tumbles:
    the players never saw it. Started again, the box offers the battle (it is won), plays the
    shot's steps again, armour and outcome, then says who won."""
    dice = [5, 2, 4, 5, 1]         # initiative 5 : 2; to hit 4, damage 16 + 5; armour 2 + 1
    first = table_at(dice, config=EASY)
    first.press("ok", "allies", "cw", "cw", "cw", "axis", "ok")      # 7TP v Tiger
    first.press("axis", "allies", "ok", "ok", "axis")                # Tiger 1 fires: HIT, 21
    first.tap("allies")                                              # the armour die rolls
    assert first.view.rolling and first.box.store.load_battle()["winner"] == "axis"
    first.close()
    again = table_at([], state_dir=tmp_path / "state", config=EASY)
    assert again.view.items[0] == "Resume battle"
    again.press("ok")
    steps = again.steps
    assert [v.total if isinstance(v, Roll) else v.word for v in steps] == \
        ["HIT", "= 21", "= 3", "DESTROYED"]
    assert again.view == steps[-1] and isinstance(again.view, BigWord)
    again.press("ok")
    assert again.view.word == "AXIS WIN!"
    again.press("ok")
    assert again.view.items[0] == "New battle"          # the battle is over and forgotten
