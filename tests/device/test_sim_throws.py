"""The simulator's smart dice: a die of a side thrown on a key or a script's word."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from cobi_companion.device.config import Config
from cobi_companion.device.ports.die_readings import Rolling, Settled
from cobi_companion.device.ports.events import DieSaid
from cobi_companion.device.sim import KEYS, ScriptError, parse_script, run_sim, split_keys
from cobi_companion.device.sim_throws import SimThrows

PAIRED = {"AX:01": {"side": "axis", "colour": "red"}, "AX:02": {"side": "axis"},
          "AL:01": {"side": "allies", "colour": "blue"}}


def test_a_script_throws_a_side_s_dice_in_turn_on_the_faces_it_gives() -> None:
    steps = parse_script("throw_axis 6, throw_axis 2\nthrow_allies")
    assert steps == [("throw_axis", 6), ("throw_axis", 2), ("throw_allies", 0)]
    throws = SimThrows()
    assert throws.throw(PAIRED, "throw_axis", 6) == [DieSaid("AX:01", Rolling()),
                                                     DieSaid("AX:01", Settled(6))]
    assert throws.throw(PAIRED, "throw_axis", 2)[-1] == DieSaid("AX:02", Settled(2))
    assert throws.throw(PAIRED, "throw_axis", 4)[-1] == DieSaid("AX:01", Settled(4))
    fair = throws.throw(PAIRED, "throw_allies")[-1]
    assert fair.die == "AL:01" and isinstance(fair.reading, Settled)
    assert 1 <= fair.reading.face <= 6
    assert SimThrows().throw({}, "throw_allies") == []      # no die paired: nothing thrown


@pytest.mark.parametrize("line", ["throw_axis 7", "throw_allies 0", "throw_axis 1 2"])
def test_a_face_that_is_none_is_refused_with_its_line(line: str) -> None:
    with pytest.raises(ScriptError, match="takes a face from 1 to 6"):
        parse_script(line)


def test_keys_t_and_y_throw_an_axis_and_an_allies_die() -> None:
    assert (KEYS["t"], KEYS["y"]) == ("throw_axis", "throw_allies")
    assert split_keys("ty") == (["throw_axis", "throw_allies"], "")


def test_an_easy_battle_is_played_in_the_simulator_with_smart_dice(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    script = parse_script(
        "ok, cw, allies, cw, cw, axis, ok\n"        # a Tiger against a Sherman
        "throw_axis 5, throw_allies 2\n"            # the initiative
        "ok, ok, axis\n"                            # Tiger 1 fires at Sherman 1
        "throw_axis 5, throw_axis 3, throw_allies 1")
    run_sim(Config.model_validate({"game": {"rules": "easy"}}), script=script, dice=None,
            state_dir=tmp_path / "sim", state_json=state,
            settings={"dice": {"axis": "smart", "allies": "smart"}, "smart_dice": PAIRED})
    battle = json.loads(state.read_text(encoding="utf-8"))["battle"]
    assert [p["status"] for p in battle["pieces"] if p["label"] == "Sherman 1"] == [
        ["destroyed"]]
    assert battle["log"][-1]["values"]["winner"] == "axis"
