"""Cobra's notes typed: why the weather or the supply is what it is, what each side does with
a combat result, how the victory level was found. Like a refusal, a note has its English
sentence (the command line prints it) and a code with the values it names (`Why`, `Note`), for
a box to say in its own words."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Coded, Value


class Why(Coded):
    """Every kind of note, one member each: its code, then the names of its values."""

    # weather that is not rolled for (5.3)
    TURN_1_CLEAR = "turn_1_clear"
    TURN_2_OVERCAST = "turn_2_overcast"
    AFTER_THREE_STORMS = "after_three_storms"
    TURN_6_STORMS = "turn_6_storms"
    # the German attack supply points the weather brings (11.0c, 11.0d)
    GERMAN_SUPPLY = "german_supply", "gain", "weather"
    GERMAN_SUPPLY_STOPS = "german_supply_stops", "gain", "weather", "most"
    # the Allied supply points received (11.1, 17.3)
    NO_SUPPLY_LANDING = "no_supply_landing", "us", "british"
    NO_SUPPLY_FIRST_STORM = "no_supply_first_storm", "us", "british"
    HALF_SUPPLY_STORM = "half_supply_storm", "us", "british"
    SUPPLY_AS_PRINTED = "supply_as_printed", "us", "british"
    # a combat result (8.5, 8.6, 8.7, 14.3)
    READ_PRINTED_CRT = "read_printed_crt", "column", "die"
    SPLIT_RESULT = "split_result"
    ATTACKER_ELIMINATED = "attacker_eliminated"
    ATTACKER_NO_EFFECT = "attacker_no_effect"
    ATTACKER_ONE_STEP = "attacker_one_step"
    ATTACKER_STEPS = "attacker_steps", "steps"
    DEFENDER_ELIMINATED = "defender_eliminated"
    DEFENDER_NO_EFFECT = "defender_no_effect"
    DEFENDER_CARPET = "defender_carpet", "steps"
    DEFENDER_STEPS = "defender_steps", "steps"
    AT_LEAST_ONE_STEP = "at_least_one_step"
    WHOLE_STACK = "whole_stack"
    NO_RETREAT_IS_A_STEP = "no_retreat_is_a_step"
    # what an overrun's result does to the overrunning units' move (5.4.2, 5.4.3)
    OVERRUN_READ = "overrun_read"
    OVERRUN_SPLIT = "overrun_split"
    OVERRUN_HALTED = "overrun_halted"
    OVERRUN_VACATED = "overrun_vacated"
    OVERRUN_IF_VACATED = "overrun_if_vacated"
    OVERRUN_FAILED = "overrun_failed"
    # the Allied Landing Phase (17.3.2) and the withdrawal attack (17.3.4)
    PARA_LANDED = "para_landed", "die", "span"
    PARA_SCATTERED = "para_scattered", "die", "direction"
    PARA_READ_DIAGRAM = "para_read_diagram", "die"
    PARA_STEP_LOSS = "para_step_loss"
    PARA_GERMAN_ATTACK = "para_german_attack"
    COMMIT_NONE = "commit_none", "die"
    COMMIT_STEPS = "commit_steps", "die"
    ATTRITION_READ = "attrition_read"
    ATTRITION_ELIMINATED = "attrition_eliminated"
    ATTRITION_STEPS = "attrition_steps", "steps"
    ATTRITION_NO_LOSS = "attrition_no_loss"
    BEACH_MARKER = "beach_marker"
    BEACH_ABANDONED = "beach_abandoned", "lost", "landed"
    BEACH_HELD = "beach_held", "lost", "landed"
    WITHDRAWAL_READ = "withdrawal_read"
    WITHDRAWAL_STEPS = "withdrawal_steps", "steps"
    WITHDRAWAL_DESTROYED = "withdrawal_destroyed"
    WITHDRAWAL_IF_DESTROYED = "withdrawal_if_destroyed"
    WITHDRAWAL_SURVIVES = "withdrawal_survives"
    # the level of victory (16.3)
    VICTORY_TOWARD_ALLIES = ("victory_toward_allies", "start", "allied", "german", "difference",
                             "levels")
    VICTORY_TOWARD_GERMANS = ("victory_toward_germans", "start", "allied", "german",
                              "difference", "levels")
    VICTORY_AS_FRONTLINE = "victory_as_frontline", "start", "allied", "german", "difference"
    # the German VP for every 10 Allied replacement steps (16.1)
    REPLACEMENT_VP = "replacement_vp", "steps"


@dataclass(frozen=True)
class Note:
    """A note: the rules' English sentence, its code and the values it names."""

    text: str
    why: Why
    values: dict[str, Value] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text
