"""A plug pulled at every frame of a scripted battle never changes a die the players saw, and
never hides an outcome: `cobi-companion play` as real processes (kill_frames.py), SIGKILLed
right after each frame is drawn, started again in the same state folder, and played on."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HELPER = Path(__file__).with_name("kill_frames.py")

# Easy: the Tiger misses the 7TP, the 7TP misses back, round 2: the Tiger fires again with
# one press, hits (damage 16 + 5), and the 7TP's armour (2 + 1) does not hold: destroyed.
EASY = {"args": ["--rules", "easy"], "dice": "5,2,2,1,4,3,4,5,1",
        "set_up": ["ok", "allies", "cw", "cw", "cw", "axis", "ok"],   # 7TP v Tiger
        "keys": ["ok", "axis", "allies",                            # resume; initiative 5 : 2
                 "ok", "ok", "axis", "ok",                          # Tiger 1 fires: 2, MISS
                 "ok", "ok", "allies", "ok",                        # 7TP 1 fires: 1, MISS
                 "axis", "allies",                                  # round 2: 4 : 3
                 "axis", "allies", "ok"]}                           # again: 4, 5; armour 1
# The Tank Game: the Sherman (Allies, the defender) fires at the Tiger: to hit 5, reload 6,
# nine damage dice and two extras for the sixes, 10 against the front 12: no effect.
TANK = {"args": ["--rules", "tank"], "dice": "4,2,5,6,3,6,4,4,6,3,1,2,4,2,5",
        "set_up": ["ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok"],
        "keys": ["ok", "axis", "allies", "ok",                      # resume; 4 : 2, Allies first
                 "ok", "ok", "ok", "ok", "ok",                      # Sherman 1, Fire, Tiger 1,
                 "allies", "ok", "ok"]}                             # not hull down, not over


def outcome(view: dict[str, Any]) -> bool:
    """A view that shows how a roll came out: a settled die with its result, a big word."""
    return view["kind"] == "big_word" or (view["kind"] == "roll" and not view["rolling"]
                                          and bool(view["total"]))


def killed_at_every_frame(tmp_path: Path, battle: dict[str, Any]) -> dict[str, Any]:
    spec = tmp_path / "battle.json"
    spec.write_text(json.dumps(battle))
    done = subprocess.run([sys.executable, str(HELPER), str(tmp_path), str(spec)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


@pytest.mark.long
@pytest.mark.parametrize("battle", [EASY, TANK], ids=["easy", "tank"])
def test_a_plug_pulled_at_any_frame_changes_no_die_and_hides_no_outcome(tmp_path, battle):
    run = killed_at_every_frame(tmp_path, battle)
    ref, children = run["reference"], run["children"]
    assert not ref["clashes"]                   # the reference's way through is one key a view
    reference = set(ref["views"])
    drawn = [view for child in children for view in child["views"]]
    # Every child but the last was killed as soon as it drew a frame no child had drawn
    # before, and the last one played to the reference's end.
    assert [child["end"] for child in children[:-1]] == ["killed"] * (len(children) - 1)
    assert children[-1]["end"] == "done", children[-1]
    assert len(children) > len(reference) // 3
    # No die seen before a kill differs after it: every view drawn, tumbling dice and settled
    # ones alike, is one the battle without kills drew, but the start menu a restart shows.
    strange = [view for view in set(drawn) - reference
               if "Resume battle" not in json.loads(view).get("items", [])]
    assert not strange, strange
    # Every outcome was seen at least once: none was passed over by a restart.
    unseen = [view for view in reference - set(drawn) if outcome(json.loads(view))]
    assert not unseen, unseen
