"""Tank Game spotting through the real `cobi-companion spot` command: an enemy figure, or a
closed vehicle's commander out in the turret (rule 11), reveals a hidden piece."""
from __future__ import annotations

import pytest


def spot(*args: str) -> list[str]:
    return ["spot", *args, "--json"]


@pytest.mark.parametrize(("cm", "binoculars", "spotted"), [
    ("30", False, True), ("30.5", False, False), ("40", True, True), ("40.5", True, False)])
def test_a_figure_spots_within_30_cm_or_40_with_binoculars(cli, cm, binoculars, spotted):
    """Rule 5: a hidden piece is revealed when "an enemy figure (not vehicles) moves within
    30 cm (or 40 cm with binoculars)"."""
    glasses = ["--binoculars"] if binoculars else []
    run = cli(*spot("--spotter", "rifleman", "--hidden", "2477", "--distance-cm", cm, *glasses))
    assert run.code == 0, run.err
    data = run.json
    assert (data["level"], data["action"], data["spotter"], data["hidden"]) == (
        "tank", "spot", "Rifle 1", "Tiger 1")
    assert data["spotted"] is spotted and data["commander"] is False
    assert data["status_after"] == ([] if spotted else ["hidden"])


def test_the_commander_out_in_the_turret_spots_as_a_figure(cli):
    """Rule 11: the commander "may sit in the turret and act as a figure for spotting"."""
    run = cli(*spot("--spotter", "2477", "--spotter-status", "commander_out", "--hidden",
                    "rifleman", "--distance-cm", "35", "--binoculars"))
    assert run.code == 0, run.err
    data = run.json
    assert data["spotted"] is True and data["commander"] is True
    assert data["spotter_kind"] == "hard" and data["distance"]["threshold_cm"] == 40
    assert data["reason"] == ("Tiger 1's commander (out in the turret) (binoculars) at 35 cm "
                              "(entered) is within 40 cm: yes; Rifle 1 is revealed")


@pytest.mark.parametrize(("status", "why"), [
    ([], "its commander is inside"),
    (["--spotter-status", "commander_out,commander_killed"], "its commander was killed")])
def test_a_tank_with_its_commander_inside_or_killed_does_not_spot(cli, status, why):
    run = cli("spot", "--spotter", "2477", *status, "--hidden", "rifleman", "--distance-cm", "1")
    assert run.code == 0, run.err
    assert run.out == (f"Tiger 1 is a vehicle and {why}: only an enemy figure spots a hidden "
                       "piece (vehicles cannot see hidden figures)\n")
    data = cli(*spot("--spotter", "2477", *status, "--hidden", "rifleman",
                     "--distance-cm", "1")).json
    assert data["spotted"] is False and data["commander"] is False and data["distance"] is None


def test_the_external_mg_is_fired_by_the_commander_out_on_the_command_line(cli, tmp_path):
    """Rule 11: "firing the external machinegun"; rule 10: Destroy Gun "disables the main gun
    and the turret machine gun (coaxial) if any"."""
    (tmp_path / "tables").mkdir()
    (tmp_path / "panzer.toml").write_text(
        'id = "panzer"\nname = "Panzer"\nkind = "hard"\ncrew = 5\n'
        'weapons = [{ name = "roof MG", template = "mg", shots = 2, mount = "external" },\n'
        '           { name = "coax MG", template = "mg", shots = 2, mount = "coaxial" }]\n')
    (tmp_path / "tables" / "soft-targets.toml").write_text(
        '[weapons."roof mg"]\ntemplate = { modifier = 2 }\n'
        '[weapons."coax mg"]\ntemplate = { modifier = 2 }\n')
    fire = ["--cards", str(tmp_path), "resolve", "--rules", "tank", "--attacker", "panzer",
            "--under", "rifleman:1", "--dice", "6,1"]
    inside = cli(*fire, "--weapon", "roof MG")
    assert (inside.code, inside.out) == (2, "")
    assert inside.err == ("cobi-companion: Panzer 1's roof MG is on the turret: only its "
                          "commander sitting out in the turret fires it (put him out first)\n")
    out = cli(*fire, "--weapon", "roof MG", "--attacker-status", "commander_out", "--json")
    assert out.code == 0, out.err
    assert out.json["down"] == 1 and out.json["weapon"] == "roof MG"
    lost = cli(*fire, "--weapon", "coax MG", "--attacker-status", "gun_destroyed")
    assert lost.code == 2 and "turret machine gun (coax MG, coaxial)" in lost.err
