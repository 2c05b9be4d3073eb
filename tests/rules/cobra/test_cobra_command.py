"""Cobra's HQs and the Allied command limits: each test quotes its rule (8.3.3, 9.1, 11.3,
17.3e)."""
from __future__ import annotations

from dataclasses import replace

import pytest
from cobi_companion.rules.cobra.combat import Nation, OverrunWhen
from cobi_companion.rules.cobra.command import (
    Army,
    Attempt,
    Command,
    HQEvent,
    HQState,
    attack_army,
    check_limit,
    hq,
    limits_apply,
)
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.cobra.turns import CobraGame
from cobi_companion.rules.errors import Refusal, RulesError

VII, XLVII, PATTON = hq("VII"), hq("xlvii"), hq("patton")


def refused(code: Refusal, call) -> RulesError:
    with pytest.raises(RulesError) as raised:
        call()
    assert raised.value.code is code, str(raised.value)
    return raised.value


def test_9_1i_an_inactive_hq_gives_no_shift():
    """9.1i "Inactive HQs may not contribute shifts to a combat"."""
    command, change = Command().flip(VII, HQEvent.MOVED, 16, 9)
    assert change.after is HQState.INACTIVE and change.rule == "9.1a"
    exc = refused(CobraRefusal.HQ_INACTIVE, lambda: command.check_shift(VII, 1, True, 16))
    assert str(exc) == "VII is inactive: inactive HQs may not contribute shifts to a combat " \
        "(9.1i)"


def test_8_3_3_an_hq_that_gave_its_shift_is_flipped_inactive():
    """8.3.3 Important: "Players must flip an HQ that has used its command benefits over to its
    inactive side"; before game turn 17 an Allied HQ gives one shift (8.3.3a)."""
    command, change = Command().use(VII, 1, True, 16)
    assert (change.before, change.after, change.rule) == (HQState.ACTIVE, HQState.INACTIVE,
                                                          "8.3.3")
    refused(CobraRefusal.HQ_INACTIVE, lambda: command.use(VII, 1, True, 16))


def test_8_3_3a_from_gt17_an_allied_hq_gives_one_shift_to_two_attacks():
    """8.3.3a Important: from GT 17 each Allied HQ may give one shift to two attacks, or two
    to one; "This does not apply to defensive shifts"."""
    command, first = Command().use(VII, 1, True, 17)
    assert first.after is HQState.ACTIVE and first.given == 1
    command, second = command.use(VII, 1, True, 17)
    assert second.after is HQState.INACTIVE
    both, _ = Command().use(VII, 2, True, 17)
    assert both.of(VII).state is HQState.INACTIVE
    exc = refused(CobraRefusal.HQ_COLUMNS_MOST, lambda: Command().use(VII, 2, True, 16))
    assert exc.values == {"name": "VII", "most": 1}
    assert str(exc) == "VII gives at most 1 column to one combat: two only to an Allied " \
        "attack from game turn 17 (8.3.3a)"
    exc = refused(CobraRefusal.HQ_COLUMNS_MOST, lambda: Command().use(XLVII, 2, True, 20))
    exc = refused(CobraRefusal.HQ_SHIFTS_GIVEN, lambda: Command().use(VII, 1, True, 17)[0].use(
        VII, 2, True, 17))
    assert exc.values == {"name": "VII", "given": 1, "most": 2}
    defended, _ = Command().use(VII, 1, False, 20)         # defensive: one, then flipped
    assert defended.of(VII).state is HQState.INACTIVE
    german, _ = Command().use(XLVII, 1, True, 20)          # the German HQ: always one
    assert german.of(XLVII).state is HQState.INACTIVE


def test_8_3_3g_patton_gives_two_shifts():
    """8.3.3g: Patton may confer two shifts to one US attack or one to two attacks."""
    command, _ = Command().use(PATTON, 1, True, 15)
    assert command.of(PATTON).state is HQState.ACTIVE
    command, _ = command.use(PATTON, 1, True, 15)
    assert command.of(PATTON).state is HQState.INACTIVE


def test_9_1b_displaced_twice_in_a_phase_is_eliminated():
    """9.1b: a displaced HQ is flipped inactive; "If forced to displace twice in the same
    phase, it is eliminated instead". Once in each of two phases: still in play."""
    command, once = Command().flip(VII, HQEvent.DISPLACED, 16, 2)
    assert once.after is HQState.INACTIVE and once.rule == "9.1b"
    later, _ = command.flip(VII, HQEvent.DISPLACED, 16, 4)
    assert later.of(VII).state is HQState.INACTIVE
    twice, change = command.flip(VII, HQEvent.DISPLACED, 16, 2)
    assert change.after is HQState.ELIMINATED and change.rule == "9.1b Important"
    refused(CobraRefusal.HQ_ELIMINATED, lambda: twice.check_shift(VII, 1, True, 16))
    refused(CobraRefusal.HQ_ELIMINATED, lambda: twice.flip(VII, HQEvent.MOVED, 16, 9))


def test_9_1a_the_friendly_replacement_phase_flips_the_hqs_back():
    """9.1a / 8.3.3 Important: "During each friendly Replacement Phase, flip the HQ back to
    its active side": the Allied Replacement Phase flips the Allied HQs, not the German, and
    never an eliminated one. The example of 8.3.3a: used defending in the German Combat
    Phase, active again to attack in the Allied player turn."""
    game = CobraGame.start("cobra")
    game = replace(game.with_weather(Weather.CLEAR)[0], step=3)          # German combat
    command, _ = game.command.use(VII, 1, False, 15)
    command, _ = command.use(XLVII, 1, True, 15)
    command, _ = command.flip(hq("V"), HQEvent.ELIMINATED, 15, 3)
    game = replace(game, command=command)
    for _ in range(3):                                       # to the Allied Replacement Phase
        game = game.advance()
    assert game.phase.name == "replacement" and game.phase.player is Nation.ALLIED
    assert game.command.of(VII).state is HQState.ACTIVE
    assert game.command.of(XLVII).state is HQState.INACTIVE
    assert game.command.of(hq("V")).state is HQState.ELIMINATED
    game.command.check_shift(VII, 1, True, 15)


def test_11_3_four_attacks_and_four_overruns_on_gt14():
    """11.3's example: "4/4 ... the player may conduct a total of four attacks and four
    overruns with US forces"; the British are counted apart (11.3a)."""
    command = Command().with_levels(14, 4, 2)
    for _ in range(4):
        command, check = command.count(14, Army.US, Attempt.ATTACK)
    assert (check.made, check.level, check.allowed) == (3, 4, True)
    exc = refused(CobraRefusal.ATTACK_LIMIT, lambda: command.count(14, Army.US, Attempt.ATTACK))
    assert str(exc) == "US attacks: 4 of 4 made this game turn, the command limit (11.3)"
    command, _ = command.count(14, Army.US, Attempt.OVERRUN)            # overruns apart
    command, _ = command.count(14, Army.BRITISH, Attempt.ATTACK)
    assert command.tally(14, Army.US).overruns == 1
    assert command.tally(14, Army.BRITISH).attacks == 1


def test_11_3_advance_after_combat_overruns_do_not_count():
    """11.3 Important: "Overruns due to advance after combat do not count against those
    limits"."""
    command = Command().with_levels(16, 0, 0)
    refused(CobraRefusal.OVERRUN_LIMIT, lambda: command.count(16, Army.US, Attempt.OVERRUN,
                                                         OverrunWhen.MOVEMENT))
    after, check = command.count(16, Army.US, Attempt.OVERRUN, OverrunWhen.ADVANCE)
    assert check.allowed and not check.counted and after.tally(16, Army.US).overruns == 0


def test_11_3_a_new_game_turn_counts_again_and_keeps_the_levels_for_the_knob():
    """11.3: the limits are "each game turn": the counts start again, the levels must be
    dialled again (the last ones are kept to start the knob)."""
    command, _ = Command().with_levels(15, 3, 2).count(15, Army.US, Attempt.ATTACK)
    assert command.level(16, Army.US) is None
    assert command.on(16).levels == (3, 2) and command.tally(16, Army.US).attacks == 0
    refused(CobraRefusal.COMMAND_LEVEL, lambda: command.with_levels(16, 21, 0))


def test_17_3e_no_command_limits_on_gt_1_and_2():
    """17.3e "The Allied player receives no SP and has no command limits on GTs 1 and 2"."""
    assert not limits_apply(1, landing=True) and not limits_apply(2, landing=True)
    assert limits_apply(3, landing=True) and limits_apply(15, landing=False)


def test_11_3_only_the_allies_have_command_limits():
    """11.3 "ALLIED COMMAND LIMITS": the German player has none."""
    refused(CobraRefusal.NO_GERMAN_LIMITS, lambda: check_limit(Army.GERMAN, Attempt.ATTACK, 4, 0))


def test_8_3_3d_the_hq_and_the_supply_track_tell_the_army():
    """8.3.3d/e: a British HQ benefits only British units, a US HQ only US; 11.2: the US and
    British supply points are not interchangeable. Either tells whose attack it is."""
    assert attack_army("us", None) is Army.US
    assert attack_army(None, hq("XXX")) is Army.BRITISH
    assert attack_army(None, None) is None
    exc = refused(CobraRefusal.HQ_OTHER_ARMY, lambda: attack_army("british", VII))
    assert exc.values == {"name": "VII", "army": "us", "paid": "british"}


def test_9_0_the_hqs_the_rules_name():
    """17.1.1's set-up chart, 15.2f's released corps and 8.3.3g's Patton: two VIII Corps told
    apart by their army; an unknown HQ is refused."""
    assert hq("VIII US").army is Army.US and hq("viii_br").army is Army.BRITISH
    assert hq("II SS Pz").army is Army.GERMAN and hq("lxxxix").army is Army.GERMAN
    refused(CobraRefusal.UNKNOWN_HQ, lambda: hq("XV"))


def test_9_1_the_command_is_saved_and_an_older_save_loads():
    """9.1, 11.3: the HQs' sides and the turn's counts survive a save; a game saved before
    they were kept loads with every HQ active and no limit dialled."""
    command, _ = Command().flip(VII, HQEvent.DISPLACED, 16, 2)
    command, _ = command.with_levels(16, 4, 3).count(16, Army.BRITISH, Attempt.OVERRUN)
    game = replace(CobraGame.start("cobra"), turn=16, command=command)
    again = CobraGame.from_dict(game.to_dict())
    assert again.command == command
    old = game.to_dict()
    del old["command"]
    assert CobraGame.from_dict(old).command == Command()


def test_8_3_3g_patton_is_never_a_defensive_shift():
    """8.3.3g: "It may not be used defensively": refused as `cobra odds` refuses patton:-1."""
    from cobi_companion.rules.cobra.command import PATTON, Command

    with pytest.raises(RulesError, match=r"shift patton -1: not allowed, only \+1, \+2 "
                                         r"\(8.3.3g\)") as refused:
        Command().check_shift(PATTON, -1, False, 20)
    assert refused.value.code is CobraRefusal.SHIFT_NOT_ALLOWED
    Command().check_shift(PATTON, 2, True, 20)
