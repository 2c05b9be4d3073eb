"""Issue 35 on the box: an open-top's crew (rule 11) and the house rules of the turn, the move
and the match, played through the buttons with scripted dice."""
from __future__ import annotations

from cobi_companion.device.config import Config, Paths
from cobi_companion.device.core.views import Menu

from .test_tank_game_box import AXIS_FIRST, new_battle

MARDER = """id = "marder"
name = "Marder"
label = "Marder"
kind = "open_top"
crew = 6
move_forward = 15
move_backward = 10
turn_45 = "-5 cm"
rough = "-5 cm"
road = "+10 cm"
gun_to_hit = "3-6"
reload = "4-6"
damage = 4
he_modifier = "+2"
armour_front = 2
armour_side = 1
armour_rear = 1
armour_top = 0
destroy = 3
destroy_gun = 2
weaken = "-"
immobilize = 1
"""


def own_cards(tmp_path, house: dict[str, str] | None = None) -> Config:
    cards = tmp_path / "cards"
    cards.mkdir(exist_ok=True)
    (cards / "marder.toml").write_text(MARDER)
    return Config(paths=Paths(cards_dir=cards), house_rules=house or {})


def test_he_at_an_open_top_reaches_the_two_at_its_gun(table_at, tmp_path):
    """Rule 11: "The other crew are protected as normal tank crew": of the Marder's six, the
    dial of the figures under the template stops at the two manning its gun."""
    table = table_at([*AXIS_FIRST], config=own_cards(tmp_path))
    new_battle(table, ("Tiger I", "axis"), ("Marder", "allies"))
    table.press("ok", "ok")                   # Tiger 1 alone; Fire
    table.choose("shell at a group")
    table.press("ok", "ok")                   # Marder 1; hit in front
    assert table.view.word == "2"
    table.press("cw")
    assert table.view.word == "2"


def move_tiger(table, *answers: str) -> None:
    table.choose("Move")
    for answer in answers:
        table.choose(answer)


def test_the_house_rules_of_the_turn_on_the_box(table_at, tmp_path):
    """extra_activation = same_pieces and rough = each."""
    house = {"extra_activation": "same_pieces", "rough": "each"}
    table = table_at([*AXIS_FIRST, 1, 1], config=own_cards(tmp_path, house))
    new_battle(table, ("Tiger I", "axis"), ("Marder", "allies"))
    table.press("ok")                          # Tiger 1 alone
    move_tiger(table, "no", "0", "yes")        # forward, no turn, rough ground: how many?
    assert table.view.header.title == "How many rough patches?"
    table.choose("2")
    assert table.view.word == "12 cm"          # 22 − 2 × 5
    table.press("ok")
    table.choose("All done")                   # no fire: the extra activation, Tiger again
    assert table.view.header.title == "One more go? No firing"
    table.choose("yes")
    assert "Tiger 1" in table.view.items
    table.choose("Tiger 1")
    table.choose("Move")
    assert table.view.header.title == "Backward?"
    saved = table.box.store.load_battle()
    assert saved["house_rules"]["extra_activation"] == "same_pieces"
    assert saved["turn"]["activations"][1]["house_rules"] == {
        "extra_activation": "same_pieces"}


def test_a_piece_that_fired_stays_by_the_house_rule(table_at, tmp_path):
    refused = table_at([*AXIS_FIRST, 1, 1], config=own_cards(
        tmp_path, {"fire_then_move": "refused"}))
    new_battle(refused, ("Tiger I", "axis"), ("Marder", "allies"))
    refused.press("ok")
    assert refused.view.items == ("Fire", "Move", "All done", "Commander out")
    refused.choose("Fire")
    refused.choose("Marder 1")
    refused.press("ok", "ok")                  # not behind cover, not over 100 cm
    refused.press("axis")                      # to hit 1: a miss; reload 1
    for _ in range(6):
        if isinstance(refused.view, Menu) and refused.view.header.title == "Tiger 1":
            break
        refused.press("ok")
    assert isinstance(refused.view, Menu) and "Move" not in refused.view.items
