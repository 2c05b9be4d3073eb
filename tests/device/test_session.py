"""The interactive terminal battle, driven through stdin of the real command."""
from __future__ import annotations


def test_a_short_battle_to_the_end(cli):
    answers = "\n".join([
        "2",          # Tank Game
        "2477",       # Axis: a Tiger
        "2474",       # Allies: a Pz 1b (unarmed, it can only be shot)
        "f", "1", "1", "front", "n", "", "n", "",   # Tiger 1 fires at Pz I 1, front
    ]) + "\n"
    # to hit 4, reload 6, 16 damage dice all 2: 16 - 2 = 14 >= Destroy 1.
    run = cli("play", "--dice", "4,6" + ",2" * 16, stdin=answers)
    assert run.code == 0, run.err
    assert "Tiger 1 (ready)" in run.out and "Pz I 1 (ready)" in run.out
    assert "Odds: hit 4 in 6 · kill" in run.out
    assert "==> DESTROYED" in run.out
    assert "*** AXIS WIN! ***" in run.out


def test_refusals_are_explained_and_play_goes_on(cli):
    answers = "\n".join([
        "1", "2474", "2464",
        "f", "1",              # the Pz I has no gun
        "m", "1", "n", "2", "n", "n",  # Pz I moves with two turns: 24 - 10 = 14 cm
        "q",
    ]) + "\n"
    run = cli("play", stdin=answers)
    assert run.code == 0, run.err
    assert "Not possible: 2474 Pz 1b has no gun" in run.out
    assert "move up to 14 cm" in run.out
    assert "Bye!" in run.out


def test_end_of_input_ends_the_session(cli):
    run = cli("play", stdin="")
    assert run.code == 0 and "Bye!" in run.out


def test_the_bare_command_runs_the_simulator_off_the_pi(cli):
    # Not on a Raspberry Pi: the box's simulator; with no terminal it reads a script from stdin.
    run = cli(stdin="cw\n")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert set("".join(lines)) <= set(" ▀▄█")
