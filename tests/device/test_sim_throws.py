"""The simulator's smart dice: a die of a side thrown on a script's word, a whole Easy battle
played with them (the virtual dice of ports/fake_dice.py, paired as the settings keep them)."""
from __future__ import annotations

import json
from pathlib import Path

from cobi_companion.device.config import Config
from cobi_companion.device.ports.fake_dice import SIM_DICE
from cobi_companion.device.sim import parse_script, run_sim

RED, BLUE = SIM_DICE[0], SIM_DICE[1]
PAIRED = {RED.die: {"kind": RED.kind, "name": RED.name, "side": "axis", "colour": "red"},
          BLUE.die: {"kind": BLUE.kind, "name": BLUE.name, "side": "allies", "colour": "blue"}}


def test_an_easy_battle_is_played_in_the_simulator_with_smart_dice(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    script = parse_script(
        "ok, cw, allies, cw, cw, axis, ok\n"        # a Tiger against a Sherman
        "axis_die=5, allies_die=2\n"                # the initiative
        "ok, ok, axis\n"                            # Tiger 1 fires at Sherman 1
        "axis_die=5, axis_die=3, allies_die=1")
    run_sim(Config.model_validate({"game": {"rules": "easy"}}), script=script, dice=None,
            state_dir=tmp_path / "sim", state_json=state,
            settings={"dice": {"axis": "smart", "allies": "smart"}, "smart_dice": PAIRED})
    battle = json.loads(state.read_text(encoding="utf-8"))["battle"]
    assert [p["status"] for p in battle["pieces"] if p["label"] == "Sherman 1"] == [
        ["destroyed"]]
    assert battle["log"][-1]["values"]["winner"] == "axis"
