"""Each rules level's battle type names its level (a class constant, not a value a caller
passes): a battle of one type at another level cannot be made, nor loaded; the saves keep
writing "level", and an older save's "level" still loads. A squad's shot is the Tank Game's."""
from __future__ import annotations

import json

import pytest
from cobi_companion.device.core.battle_state import (
    BattleState,
    EasyBattle,
    TankBattle,
    battle_type,
)
from cobi_companion.rules.battle import Battle
from cobi_companion.rules.status import Side

# A battle saved before the battle types named their levels (its keys as written then).
OLD_SAVE = {"id": "0123456789ab", "level": "easy", "round": 2, "first": "axis",
            "active": "allies", "acted": ["axis"], "winner": None, "log": ["Axis fires"],
            "vehicles": [{"label": "Tiger 1", "side": "axis", "set": "2477", "status": []}]}


@pytest.mark.parametrize("kind", [EasyBattle, TankBattle])
def test_a_battle_type_names_its_level_and_saves_it_as_before(kind: type[BattleState],
                                                                book) -> None:
    battle = Battle(kind.level, ()).add(book.get("2477"), Side.AXIS)
    state = kind(battle, round=2, first=Side.AXIS)
    saved = json.loads(json.dumps(state.to_dict()))
    assert saved["level"] == kind.level == battle_type(kind.level).level
    again = kind.from_dict(saved, book)
    assert again.level == kind.level and again.to_dict() == state.to_dict()


def test_the_level_is_no_value_a_caller_can_mismatch(book) -> None:
    with pytest.raises(TypeError):
        TankBattle("easy", Battle("easy", ()))              # type: ignore[arg-type,call-arg]
    with pytest.raises(ValueError, match="'tank' level, not 'easy'"):
        TankBattle(Battle("easy", ()))
    with pytest.raises(ValueError, match="'easy' level, not 'tank'"):
        EasyBattle(Battle("tank", ()))
    with pytest.raises(ValueError, match="'tank' level is no EasyBattle"):
        EasyBattle.from_dict({**OLD_SAVE, "level": "tank"}, book)


def test_an_older_save_with_its_level_still_loads(book) -> None:
    state = battle_type(OLD_SAVE["level"]).from_dict(dict(OLD_SAVE), book)
    assert isinstance(state, EasyBattle) and state.battle.level == "easy"
    assert [p.label for p in state.battle.pieces] == ["Tiger 1"]
    assert state.to_dict()["level"] == "easy"


def test_a_squad_s_shot_is_kept_by_a_tank_game_battle_only(book) -> None:
    assert not hasattr(EasyBattle(Battle("easy", ())), "aims")
    tank = TankBattle(Battle("tank", ()))
    assert tank.aims == {} and "aims" not in tank.to_dict()
    assert "aims" in TankBattle.__dataclass_fields__ and \
        "aims" not in BattleState.__dataclass_fields__
