"""Tank Game overrun: a tank moving over figures and guns."""
from __future__ import annotations

import json

import pytest
from cobi_companion.rules.battle import Battle, Piece
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.dice import Aim, DiceExhausted, Need, Roller, ScriptedDice
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.status import Side, Status
from cobi_companion.rules.tank.overrun import Cover, Under, candidates, overrun
from hypothesis import given
from hypothesis import strategies as st

RIFLE = validated_card({"id": "rifleman", "name": "Rifleman", "kind": "figure",
                                 "crew": 1})
GUN = validated_card({"id": "pak-36", "name": "Pak 36", "kind": "gun", "crew": 3})
TRUCK = validated_card({"id": "truck", "name": "Truck", "kind": "soft"})
HALFTRACK = validated_card({"id": "sdkfz-251", "name": "SdKfz 251",
                                     "kind": "open_top", "crew": 2})


class Recording(ScriptedDice):
    def __init__(self, faces: list[int]) -> None:
        super().__init__(faces)
        self.needs: list[Need] = []

    @property
    def purposes(self) -> list[str]:
        return [n.words for n in self.needs]

    def roll(self, need: Need) -> int:
        self.needs.append(need)
        return super().roll(need)


@pytest.fixture
def tiger(book) -> Piece:
    return Piece("Tiger 1", Side.AXIS, book.get(2477), figures=5)


def squad(figures: int = 3, status: Status | None = None, label: str = "Rifleman 1",
          side: Side = Side.ALLIES) -> Piece:
    return Piece(label, side, RIFLE, status or Status(), figures)


def pak(status: Status | None = None) -> Piece:
    return Piece("Pak 1", Side.ALLIES, GUN, status or Status(), 3)


def test_faces_5_2_6_eliminate_figures_1_and_3(tiger):
    dice = Recording([5, 2, 6])
    result = overrun(tiger, (Under(squad()),), dice)
    run = result.pieces[0]
    assert [(r.figure, r.roll, r.eliminated) for r in run.rolls] == \
        [(1, 5, True), (2, 2, False), (3, 6, True)]
    assert run.eliminated == 2 and run.after.figures == 1 and not run.after.gone
    assert run.outcome == "rolled 3, 2 eliminated (5-6); 1 is placed beside the tank"
    assert result.summary == "rolled 3, eliminated 2"
    assert dice.purposes[0].startswith("defender D6 for Rifleman 1 figure 1")
    assert dice.purposes[2].startswith("defender D6 for Rifleman 1 figure 3")
    assert all(n.roller is Roller.DEFENDER and n.aim is Aim.OVERRUN for n in dice.needs)
    assert [(n.piece, n.figure) for n in dice.needs[:3]] == [
        ("Rifleman 1", 1), ("Rifleman 1", 2), ("Rifleman 1", 3)]
    assert result.faces == (5, 2, 6)


def test_the_move_counts_as_rough_ground(tiger):
    result = overrun(tiger, (Under(squad(1)),), ScriptedDice([1]))
    assert result.rough == "moving over pieces counts as rough ground: Move in Rough -5 cm " \
                           "on 2477 Tiger I"
    data = json.loads(json.dumps(result.to_dict()))
    assert data["rough"] == result.rough and data["summary"] == "rolled 1, eliminated 0"
    assert data["pieces"][0]["rolls"] == [{"figure": 1, "roll": 1, "eliminated": False}]


def test_a_squad_wiped_out_is_out_of_the_fight(tiger):
    result = overrun(tiger, (Under(squad(2)),), ScriptedDice([6, 5]))
    assert result.pieces[0].after.gone and result.pieces[0].after.status.destroyed


def test_only_the_figures_under_the_tank_roll(tiger):
    result = overrun(tiger, (Under(squad(5), figures=2),), ScriptedDice([5, 4]))
    assert result.rolled == 2 and result.pieces[0].after.figures == 4


def test_dug_in_survivors_stay_in_place(tiger):
    result = overrun(tiger, (Under(squad(2), dug_in=True),), ScriptedDice([3, 6]))
    assert result.pieces[0].outcome.endswith("1 stays in place, dug in, and pops up after the tank")


def test_hidden_figures_survive_without_a_roll(tiger):
    dice = ScriptedDice([])
    hidden = squad(4, Status(hidden=True))
    result = overrun(tiger, (Under(hidden, cover=Cover.SOFT),), dice)
    run = result.pieces[0]
    assert run.rolls == () and run.eliminated == 0 and run.after == hidden
    assert "survive without a roll" in run.outcome
    assert result.summary == "rolled 0, eliminated 0"


@pytest.mark.parametrize("cover", [Cover.OPEN, Cover.SOFT])
def test_a_gun_in_the_open_or_soft_cover_is_eliminated_and_its_crew_roll(tiger, cover):
    """Rule 9: "Anti-tank guns and the like in the open or soft cover are automatically
    eliminated" -- the gun; its crew are figures: "Figures roll a dice (5-6 and they are
    eliminated), if not the figure is placed just to the side of the tank"."""
    dice = Recording([5, 2, 6])
    result = overrun(tiger, (Under(pak(), cover=cover),), dice)
    run = result.pieces[0]
    assert run.gun_eliminated and run.after.status.destroyed
    assert [(r.figure, r.roll, r.eliminated) for r in run.rolls] == \
        [(1, 5, True), (2, 2, False), (3, 6, True)]
    assert dice.purposes[0].startswith("defender D6 for Pak 1 crew figure 1")
    assert all(n.roller is Roller.DEFENDER and n.aim is Aim.OVERRUN for n in dice.needs)
    assert run.eliminated == 2 and run.after.figures == 1
    assert run.after.crew_only and not run.after.gone       # the survivor fights on
    where = "in soft cover" if cover is Cover.SOFT else "in the open"
    assert run.outcome == (f"a gun {where}: eliminated, no roll; crew rolled 3, 2 eliminated "
                           "(5-6); 1 is placed beside the tank")
    assert result.summary == "rolled 3, eliminated 2, 1 gun eliminated"
    assert result.to_dict()["pieces"][0]["crew_fights_on"] is True


def test_a_gun_whose_crew_all_roll_5_or_6_is_out_of_the_fight(tiger):
    run = overrun(tiger, (Under(pak()),), ScriptedDice([5, 6, 5])).pieces[0]
    assert run.after.gone and not run.after.crew_only and run.after.figures == 0


def test_a_hidden_gun_is_eliminated_and_its_crew_survive_without_a_roll(tiger):
    """Rule 9: "Hidden figures always survive, they don't need to roll a die."."""
    result = overrun(tiger, (Under(pak(Status(hidden=True))),), ScriptedDice([]))
    run = result.pieces[0]
    assert run.rolls == () and run.gun_eliminated and run.after.status.destroyed
    assert run.after.figures == 3 and run.after.crew_only and run.after.status.hidden
    assert run.outcome == ("a gun in the open: eliminated, no roll; hidden: its crew survive "
                           "without a roll (vehicles cannot see hidden figures)")
    assert result.summary == "rolled 0, eliminated 0, 1 gun eliminated"


@pytest.mark.parametrize("hidden", [False, True])
def test_a_gun_whose_card_gives_no_crew_is_eliminated_and_no_crew_is_said_to_survive(tiger,
                                                                                     hidden):
    """Rule 9: "Anti-tank guns and the like in the open or soft cover are automatically
    eliminated". A card file without its crew: nobody is known to be left, so the gun is out
    (rules-notes: "A destroyed gun whose card file does not give its crew is out of the
    fight"), and the outcome does not say a crew survives or has none."""
    card = validated_card({"id": "nocrew-gun", "name": "Gun", "kind": "gun"})
    gun = Piece("Gun 1", Side.ALLIES, card, Status(hidden=hidden), None)
    run = overrun(tiger, (Under(gun),), ScriptedDice([])).pieces[0]
    assert run.gun_eliminated and run.rolls == () and run.after.gone
    assert run.outcome == "a gun in the open: eliminated, no roll; its card gives no crew"


def test_the_crew_of_a_destroyed_gun_are_run_over_as_figures(tiger):
    """The crew of a gun destroyed before are figures: they roll, and may be partly under."""
    crew = Piece("Pak 1", Side.ALLIES, GUN, Status(destroyed=True), 2)
    result = overrun(tiger, (Under(crew, figures=1),), ScriptedDice([6]))
    run = result.pieces[0]
    assert not run.gun_eliminated and run.eliminated == 1 and run.after.figures == 1
    assert result.summary == "rolled 1, eliminated 1"


def test_several_pieces_in_order_and_applied_to_the_battle(tiger):
    battle = Battle("tank", (tiger, squad(2), squad(1, label="Rifleman 2"), pak()))
    result = overrun(tiger, (Under(battle.get("Rifleman 1")), Under(battle.get("Pak 1")),
                             Under(battle.get("Rifleman 2"))),
                     ScriptedDice([1, 5, 6, 6, 6, 6]))
    after = result.apply(battle)
    assert after.get("Rifleman 1").figures == 1
    assert after.get("Rifleman 2").gone
    assert after.get("Pak 1").status.destroyed and after.get("Pak 1").gone
    assert after.get("Tiger 1") == tiger
    assert result.summary == "rolled 6, eliminated 5, 1 gun eliminated"


def test_an_open_top_vehicle_overruns(book):
    halftrack = Piece("SdKfz 1", Side.AXIS, HALFTRACK, figures=2)
    assert overrun(halftrack, (Under(squad(1)),), ScriptedDice([6])).eliminated == 1


def test_every_check_comes_before_any_roll(tiger):
    dice = ScriptedDice([6, 6, 6])
    with pytest.raises(RulesError, match="hard cover blocks"):
        overrun(tiger, (Under(squad()), Under(pak(), cover=Cover.HARD)), dice)
    assert dice.used == 0


@pytest.mark.parametrize(("under", "why"), [
    ((Under(pak(), cover=Cover.HARD),), "Pak 1 is in hard cover: hard cover blocks"),
    ((Under(squad(), cover=Cover.HARD),), "Rifleman 1 is in hard cover"),
    ((Under(squad(side=Side.AXIS)),), "own side"),
    ((Under(squad(0)),), "already out of the fight"),
    ((Under(squad(status=Status(off_map=True))),), "Rifleman 1 is off the map"),
    ((Under(squad(2), figures=3),), "Rifleman 1 has 2 figures left: 3 cannot be under"),
    ((Under(squad(2), figures=0),), "0 cannot be under"),
    ((Under(pak(), figures=1),), "run over whole, with its crew"),
    ((Under(squad()), Under(squad())), "named twice"),
    ((), "runs over nothing"),
])
def test_refusals_about_the_pieces_under(tiger, under, why):
    with pytest.raises(RulesError, match=why):
        overrun(tiger, under, ScriptedDice([]))


def test_a_vehicle_is_not_run_over(tiger, book):
    sherman = Piece("Sherman 1", Side.ALLIES, book.get(2464), figures=5)
    with pytest.raises(RulesError, match="other vehicles block"):
        overrun(tiger, (Under(sherman),), ScriptedDice([]))


@pytest.mark.parametrize(("status", "why"), [
    (Status(immobilized=True), "Tiger 1 is immobilized"),
    (Status(destroyed=True), "Tiger 1 is destroyed"),
    (Status(off_map=True), "Tiger 1 is off the map"),
    (Status(commander_killed=True), "only move off a friendly edge"),
])
def test_a_tank_that_cannot_move_does_not_overrun(book, status, why):
    tank = Piece("Tiger 1", Side.AXIS, book.get(2477), status, 5)
    with pytest.raises(RulesError, match=why):
        overrun(tank, (Under(squad()),), ScriptedDice([6]))


def test_a_soft_vehicle_is_not_a_tank():
    truck = Piece("Truck 1", Side.AXIS, TRUCK)
    with pytest.raises(RulesError, match="Truck 1 is not a tank"):
        overrun(truck, (Under(squad()),), ScriptedDice([6]))


def test_too_few_dice_name_the_figure(tiger):
    with pytest.raises(DiceExhausted, match="defender D6 for Rifleman 1 figure 2"):
        overrun(tiger, (Under(squad(2)),), ScriptedDice([3]))


@given(faces=st.lists(st.integers(1, 6), min_size=1, max_size=10), hidden=st.booleans())
def test_a_figure_dies_exactly_on_5_or_6_and_hidden_ones_never(faces, hidden):
    tank = Piece("Tank 1", Side.AXIS, HALFTRACK, figures=2)
    piece = squad(len(faces), Status(hidden=hidden))
    dice = ScriptedDice(faces)
    result = overrun(tank, (Under(piece),), dice)
    killed = 0 if hidden else sum(f >= 5 for f in faces)
    assert result.eliminated == killed
    assert dice.used == (0 if hidden else len(faces))
    assert result.pieces[0].after.figures == len(faces) - killed


def test_the_candidates_are_the_enemy_figures_and_guns_on_the_map(tiger, book):
    battle = Battle("tank", (tiger, squad(), pak(), squad(0, label="Rifleman 2"),
                             squad(2, Status(off_map=True), "Rifleman 3"),
                             squad(1, label="Rifleman 4", side=Side.AXIS),
                             Piece("Sherman 1", Side.ALLIES, book.get(2464), figures=5)))
    assert [p.label for p in candidates(battle, tiger)] == ["Rifleman 1", "Pak 1"]


def test_run_over_counts_each_figure_and_each_gun_once(tiger):
    result = overrun(tiger, (Under(squad(3)), Under(pak())), ScriptedDice([5, 2, 6, 1, 1, 5]))
    assert (result.run_over, result.down) == (7, 4)      # 3 + 3 crew + the gun; 2 + 1 + gun
