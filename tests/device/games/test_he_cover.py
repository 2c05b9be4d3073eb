"""HE's -1 for cover at a vehicle under its template, one answer on the box and the command
line (issue 35, point 6, the review's two findings).

Seed 000: HE "must make a to-hit die roll with -1 if the target is in any cover", and "Use the
procedure for Fire at Hard targets for HE template fire", whose -1 is "if the target is "hull
down", it means that the target is partially protected by terrain or in Hard cover". Rule 11:
"Figures In open top hard vehicles are in hard cover if manning the main gun or keeping the
heads down". So an open-top's crew under the template give the -1 without a question, and a
hard vehicle (or an open-top whose crew are not attacked) is asked "Behind cover?" on the box,
`@hard_cover` or `--cover` on the command line. Box on gpiozero's mock pins; the command line
the real `cobi-companion` process."""
from __future__ import annotations

from fractions import Fraction

from cobi_companion.device.config import Config, Game, Paths

from tests.device.games.test_open_top_and_house_box import MARDER
from tests.device.games.test_tank_game_box import AXIS_FIRST, new_battle

TIGER_HE = ("odds", "--rules", "tank", "--attacker", "2477", "--weapon", "he")


def marder_cards(tmp_path, language: str = "en") -> Config:
    cards = tmp_path / "cards"
    cards.mkdir(exist_ok=True)
    (cards / "marder.toml").write_text(MARDER)
    return Config(paths=Paths(cards_dir=cards), game=Game(language=language, rules="tank"))


def he_at(table, target: str, crew: int | None = None) -> None:
    """Tiger 1 alone fires HE; the template over `target`, hit in front (and `crew` of its
    figures dialled)."""
    table.press("ok", "ok")                   # Tiger 1 alone; Fire
    table.choose(table.view.items[-1])        # the last row: the template
    table.choose(target)
    table.press("ok")                         # hit in front
    if crew is not None:
        table.press(*["ccw"] * (2 - crew), "ok")


def to_hit(table) -> str:
    """Fire!, not over 100 cm: the preview's details, the hit's chance."""
    table.choose(table.view.items[-1])        # Fire!
    table.press("ok", "ok")                   # not over 100 cm; the details
    return table.view.lines[0]


def test_an_open_tops_crew_under_he_are_in_hard_cover_on_the_box_and_the_cli(
        table_at, cli, tmp_path):
    """Rule 11: the two at the Marder's gun are in hard cover: HE rolls -1 (Tiger 3+: 3 in 6),
    nothing asked."""
    config = marder_cards(tmp_path)
    run = cli("--cards", str(tmp_path / "cards"), *TIGER_HE, "--under", "marder:2", "--json")
    assert run.code == 0, run.err
    assert Fraction(run.json["hit_exact"]) == Fraction(1, 2)
    table = table_at([*AXIS_FIRST], config=config)
    new_battle(table, ("Tiger I", "axis"), ("Marder", "allies"))
    he_at(table, "Marder 1", crew=2)
    assert table.view.items[0].startswith("• Marder 1")   # no question: back to the pieces
    assert to_hit(table) == "To hit: 3 in 6"


def test_the_sherman_at_the_marder_s_crew_needs_3_not_4(cli, tmp_path):
    """The review's command: the Sherman's HE (3+) at two of the Marder's crew."""
    marder_cards(tmp_path)
    run = cli("--cards", str(tmp_path / "cards"), "odds", "--rules", "tank", "--attacker",
              "2464", "--weapon", "he", "--under", "marder:2")
    assert run.code == 0, run.err
    assert "Hit              3 in 6" in run.out


def box_at_pz_i(table_at, behind: str, language: str = "en", tmp_path=None) -> str:
    config = marder_cards(tmp_path, language)
    table = table_at([*AXIS_FIRST], config=config)
    new_battle(table, ("Tiger I", "axis"), ("Pz 1b", "allies"))
    he_at(table, "Pz I 1")
    assert table.view.header.title in ("Behind cover?", "Za osłoną?", "Hinter Deckung?")
    table.choose(behind)
    return to_hit(table)


def test_a_tank_under_he_is_asked_behind_cover_on_the_box_as_at_hard_targets(
        table_at, tmp_path, cli):
    """The Tiger's HE (3+) at a Pz I: behind cover 3 in 6, in the open 4 in 6; the command
    line's @hard_cover and --cover say the same."""
    assert box_at_pz_i(table_at, "yes", tmp_path=tmp_path) == "To hit: 3 in 6"
    for spec in (("2474@hard_cover/front",), ("2474/front", "--cover")):
        run = cli(*TIGER_HE, "--under", spec[0], *spec[1:], "--json")
        assert run.code == 0, run.err
        assert Fraction(run.json["hit_exact"]) == Fraction(1, 2)


def test_a_tank_in_the_open_under_he_has_no_minus_one_on_either(table_at, tmp_path, cli):
    assert box_at_pz_i(table_at, "no", tmp_path=tmp_path) == "To hit: 4 in 6"
    run = cli(*TIGER_HE, "--under", "2474/front", "--json")
    assert run.code == 0 and Fraction(run.json["hit_exact"]) == Fraction(2, 3)


def test_in_polish_the_box_asks_it_too(table_at, tmp_path):
    assert box_at_pz_i(table_at, "tak", "pl", tmp_path) == "Trafienie: 3 z 6"


def test_cover_for_figures_must_say_which_and_hull_down_points_to_hard_cover(cli):
    """--cover means "the target is in cover" only where the box asks just that (one vehicle
    under the template); figures are soft or hard cover, said with @SITUATION."""
    squad = cli(*TIGER_HE, "--under", "rifleman:2", "--cover")
    assert squad.code == 2 and "@soft_cover or @hard_cover" in squad.err
    hull = cli(*TIGER_HE, "--under", "2474/front", "--hull-down")
    assert hull.code == 2 and "@hard_cover" in hull.err and "say --cover" not in hull.err
