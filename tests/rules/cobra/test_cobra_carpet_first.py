"""Carpet bombing before any other attack (14.3, 14.3d), a plan only for one of the game's
turns, never on a scenario's first turn (14.3a), and the beach shift marker on overruns
(17.3.2 step 5f, 5.4f, 5.4.1c, 5.4.1d, 17.3.1b): the fixes of the review of issue 35."""
from __future__ import annotations

from dataclasses import replace

import pytest
from cobi_companion.rules.cobra.combat import (
    Nation,
    OverrunWhen,
    Shift,
    ShiftKind,
    Unit,
    carpet_odds,
    odds,
)
from cobi_companion.rules.cobra.command import ALLIED_ARMIES, Attempt
from cobi_companion.rules.cobra.overrun import overrun_odds
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.turns import CobraGame, check_carpet_turn, sequence
from cobi_companion.rules.errors import RulesError

from .test_cobra_carpet_plan import at_combat, next_turn


def due() -> CobraGame:
    """GT 16's Allied Combat Phase, its carpet bombing planned on GT 15."""
    return next_turn(at_combat(15).plan_carpet())


def test_a_carpet_bombing_after_an_allied_attack_is_refused_and_may_only_be_cancelled():
    """14.3: "resolved in the Allied Combat Phase before any other attacks take place"; 14.3d:
    "prior to conducting any other attacks, the Allied player cancels or conducts the carpet
    bombing mission"."""
    attack = odds([Unit.parse("8")], [Unit.parse("2")], attacker=Nation.ALLIED, turn=16)
    attacked, _ = due().pay_attack(attack, None)
    assert attacked.attacked == 16 and attacked.allied_attacked_now
    with pytest.raises(RulesError, match="can only be cancelled") as refused:
        attacked.check_support(carpet_odds())
    assert refused.value.code is CobraRefusal.CARPET_AFTER_ATTACKS
    assert attacked.cancel_carpet().carpet_cancelled == 16
    assert CobraGame.from_dict(attacked.to_dict()).attacked == 16
    assert not next_turn(attacked).allied_attacked_now          # a new turn: none made yet


def test_a_german_phase_attack_does_not_count_and_an_old_save_tells_by_its_command_counts():
    german = replace(due(), step=next(i for i, p in enumerate(sequence("cobra", 16))
                                      if p.name == "combat" and p.player is Nation.GERMAN))
    attack = odds([Unit.parse("8")], [Unit.parse("2")], attacker=Nation.GERMAN, turn=16)
    assert german.pay_attack(attack, None)[0].attacked is None
    game = due()
    command, _ = game.command.with_levels(16, 3, 3).count(16, ALLIED_ARMIES[0], Attempt.ATTACK)
    data = replace(game, command=command).to_dict()
    del data["attacked"]                                  # saved before it was kept
    old = CobraGame.from_dict(data)
    assert old.attacked is None and old.allied_attacked_now
    with pytest.raises(RulesError, match="can only be cancelled"):
        old.check_support(carpet_odds())


def test_carpet_odds_refuse_after_attacks():
    with pytest.raises(RulesError, match="can only be cancelled"):
        carpet_odds(turn=16, planned=True, after_attacks=True)


def test_a_plan_is_for_one_of_the_game_s_turns_and_never_for_a_first_turn():
    """plan_carpet refuses a turn after the game's last; a scenario's first turn has no turn
    before it to plan in (14.3a)."""
    last = at_combat(27)
    assert not last.carpet_plannable
    with pytest.raises(RulesError, match="plays game turns 15 to 27, not 28") as refused:
        last.plan_carpet()
    assert refused.value.code is CobraRefusal.NOT_A_SCENARIO_TURN
    assert at_combat(15).carpet_plannable and not at_combat(3, "campaign").carpet_plannable
    with pytest.raises(RulesError, match="cobra scenario's first") as first:
        check_carpet_turn("cobra", 15)
    assert first.value.code is CobraRefusal.CARPET_FIRST_TURN
    check_carpet_turn("campaign", 15)                     # GT 14 comes before it there
    with pytest.raises(RulesError, match="not 14"):
        check_carpet_turn("alternate", 14)


def test_a_moving_overrun_from_a_marked_hex_takes_its_marker_an_advancing_one_never():
    """17.3.2 step 5f1: "All Allied attacks originating from that hex"; 5.4f: "conduct an
    overrun from a hex"; a scenario rule takes precedence (17.3.1b) over 5.4.1c's list. 5f2:
    "As soon as Allied units advance after combat out of such a hex, the beach shift markers
    are removed"."""
    marker = [Shift(ShiftKind.MARKER, -1)]
    moving = overrun_odds([Unit.parse("12")], [Unit.parse("2")], marker,
                          when=OverrunWhen.MOVEMENT, turn=3)
    assert (moving.base, moving.column) == ("6:1", "5:1")
    with pytest.raises(RulesError, match="advance out of it") as refused:
        overrun_odds([Unit.parse("12")], [Unit.parse("2")], marker,
                     when=OverrunWhen.ADVANCE, turn=3)
    assert refused.value.code is CobraRefusal.OVERRUN_MARKER_ADVANCE
    with pytest.raises(RulesError, match=r"\(5\.4\.1d\)"):
        overrun_odds([Unit.parse("12")], [Unit.parse("2")], [Shift(ShiftKind.HQ, 1)],
                     when=OverrunWhen.ADVANCE, turn=3)
