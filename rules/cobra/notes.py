"""Cobra's notes typed: why the weather or the supply is what it is, what each side does with
a combat result, how the victory level was found. Like a refusal, a note is a code with the
values it names (`Why`, `Note`), for a box to say in its own words; its English is the code's
template (`ENGLISH`), filled for the command line and the journal."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..english import fill
from ..errors import Coded, Value, english


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
    # the campaign's reminders, each in the phase it applies to (rules/cobra/campaign.py)
    GT1_GERMAN_MOVES = "gt1_german_moves", "most"
    PARAS_STAY = "paras_stay"
    PARAS_ONE_HEX = "paras_one_hex"
    LAND_HALF_MA = "land_half_ma", "last"
    IN_COLUMN = "in_column"
    DELAYS_REMOVED = "delays_removed", "turn"
    DELAY_APPEARS = "delay_appears", "placed", "most"
    RAIL_LEFT = "rail_left", "left", "most", "turn"
    RAIL_MECH_ONLY = "rail_mech_only", "left", "most", "turn"
    CHERBOURG_ONE = "cherbourg_one"
    AUTOMATIC_VICTORY = "automatic_victory"
    CARPET_OTHER_FRONT = "carpet_other_front"


# Each code's English, the one place it is written: the rules' message (`str(exc)`) and
# the catalogues' English (note_<code> in words/locale/companion.pot, extracted by
# `python3 run.py catalogues`) are both made from it.
ENGLISH: dict[Why, str] = english({
    Why.TURN_1_CLEAR: "game turn 1 is always clear (5.3)",
    Why.TURN_2_OVERCAST: "game turn 2 is always overcast (5.3)",
    Why.AFTER_THREE_STORMS: "after three storm turns in a row the weather is overcast (5.3a)",
    Why.TURN_6_STORMS: "no storm on turns 1 to 5: game turn 6 is storms (5.3)",
    Why.GERMAN_SUPPLY: "German attack supply +{gain} in {weather:key} weather (11.0d)",
    Why.GERMAN_SUPPLY_STOPS: (
        "German attack supply +{gain} in {weather:key} weather (11.0d); the track stops at "
        "{most} (11.0c)"),
    Why.NO_SUPPLY_LANDING: (
        "US +{us}, British +{british}: no Allied supply points on game turns 1 and 2 (17.3)"),
    Why.NO_SUPPLY_FIRST_STORM: (
        "US +{us}, British +{british}: the first storm turn brings no Allied supply points "
        "(11.1b)"),
    Why.HALF_SUPPLY_STORM: "US +{us}, British +{british}: half, rounded up, in storms (11.1b)",
    Why.SUPPLY_AS_PRINTED: (
        "US +{us}, British +{british}: as printed on the turn record track (11.1a)"),
    Why.READ_PRINTED_CRT: "read column {column}, die {die} on your printed CRT",
    Why.SPLIT_RESULT: (
        "Split result: the attacker takes his result first, then the defender; the defender may "
        "not advance, and an overrun stops (8.6c, 8.6e)"),
    Why.ATTACKER_ELIMINATED: "Attacker: every attacking step is lost, no retreat (8.6a)",
    Why.ATTACKER_NO_EFFECT: "Attacker: no effect",
    Why.ATTACKER_ONE_STEP: (
        "Attacker: lose 1 step; the attacker always takes at least one as a step (8.6b5)"),
    Why.ATTACKER_STEPS: (
        "Attacker: {steps}: lose at least 1 step (8.6b5); each other one is a step or a hex of "
        "retreat (8.6b1). If the attacker retreats 1 hex or more, the defender's result drops "
        "by one (8.6b4)"),
    Why.DEFENDER_ELIMINATED: "Defender: every defending step is lost",
    Why.DEFENDER_NO_EFFECT: "Defender: no effect",
    Why.DEFENDER_CARPET: (
        "Defender: lose {steps:step|steps}: carpet bombing losses are all steps, no retreats "
        "(14.3g)"),
    Why.DEFENDER_STEPS: (
        "Defender: {steps}: lose steps and/or retreat; each hex retreated satisfies one step "
        "(8.6b1). Retreat is optional (8.7)"),
    Why.AT_LEAST_ONE_STEP: "More than 2: at least one must be a step loss (8.6b3)",
    Why.WHOLE_STACK: (
        "Steps come from the whole stack: every unit loses one before any loses a second (8.6b2)"),
    Why.NO_RETREAT_IS_A_STEP: "A hex that cannot be retreated is a step instead (8.7a)",
    Why.OVERRUN_READ: (
        "Overrun: a loss or a retreat for the overrunning units, or a split result, halts them "
        "for the phase (5.4.3); if the hex is vacated, they must all move into it (5.4.2)"),
    Why.OVERRUN_SPLIT: (
        "Overrun: a split result halts it: the overrunning units stay out of the hex, take "
        "their loss in place, the first hit as a step, and move no more this phase (5.4.3a)"),
    Why.OVERRUN_HALTED: (
        "Overrun: the overrunning units take a loss, so they halt for the phase; their first "
        "hit is a step loss, not a retreat (5.4.3b)"),
    Why.OVERRUN_VACATED: (
        "Overrun: the hex is vacated: every overrunning unit must move into it (5.4.2); in the "
        "Initial Movement Phase they may go on with the MP left, if not in an EZOC (5.4.2a)"),
    Why.OVERRUN_IF_VACATED: (
        "Overrun: if the defender leaves the hex vacant, every overrunning unit must move into "
        "it (5.4.2); if the hex is still held, they halt for the phase (5.4.3)"),
    Why.OVERRUN_FAILED: (
        "Overrun: the hex is still held: the overrunning units halt for the phase (5.4.3)"),
    Why.PARA_LANDED: (
        "Die {die}: no scatter, the unit lands in the hex on its counter; it scatters on {span} "
        "(17.3.2 step 2)"),
    Why.PARA_SCATTERED: "Die {die}: move the unit one hex {direction:key} (17.3.2 step 2c)",
    Why.PARA_READ_DIAGRAM: (
        "Die {die}: move the unit one hex as the Scatter Diagram on map B shows for {die} "
        "(17.3.2 step 2c)"),
    Why.PARA_STEP_LOSS: (
        "On a beach or coastal hex, or stacked with Allied units over the limit, it loses one "
        "step (17.3.2 step 3a)"),
    Why.PARA_GERMAN_ATTACK: (
        "Into a German unit: that unit attacks it at its combat strength against 1, no shifts; "
        "if it survives, the Allied player places it in an adjacent hex free of German units "
        "(17.3.2 step 3b)"),
    Why.COMMIT_NONE: (
        "Die {die}: this unit cannot contribute to the beach defence (17.3.2 step 4a1)"),
    Why.COMMIT_STEPS: (
        "Die {die}: say now how many of its steps defend which one beach hex: each shifts that "
        "hex's landing attrition one column right and is removed from the unit (17.3.2 step "
        "4a2, 4a3)"),
    Why.ATTRITION_READ: (
        "The defender's part is Allied steps lost, no retreat; the German units are not "
        "affected (17.3.2 step 4b4)"),
    Why.ATTRITION_ELIMINATED: (
        "Allied: every step of the target is lost; the German units are not affected (17.3.2 "
        "step 4b4)"),
    Why.ATTRITION_STEPS: (
        "Allied: lose {steps:step|steps}, no retreat; the German units are not affected (17.3.2 "
        "step 4b4)"),
    Why.ATTRITION_NO_LOSS: "Allied: no loss; the German units are not affected (17.3.2 step 4b4)",
    Why.BEACH_MARKER: (
        "Put a beach shift marker on the hex, one column for each step lost there: Allied "
        "attacks from it shift left by it until they advance out (17.3.2 step 5f)"),
    Why.BEACH_ABANDONED: (
        "{lost} of {landed} steps lost, more than half: the beach is abandoned. Remove its "
        "units from play (no VP for them); German +10 VP; its reinforcements land on another "
        "beach (17.3.2 step 5a-e)"),
    Why.BEACH_HELD: (
        "{lost} of {landed} steps lost, not more than half: the beach is held (17.3.2 step 5a)"),
    Why.WITHDRAWAL_READ: (
        "The defender's part is steps, not retreats; the German units are not affected. "
        "Destroyed, the unit counts for VP; else it is withdrawn (17.3.4a-c)"),
    Why.WITHDRAWAL_STEPS: (
        "The withdrawing unit loses {steps:step|steps}, as steps, not retreats; the German "
        "units are not affected (17.3.4a)"),
    Why.WITHDRAWAL_DESTROYED: (
        "The unit is destroyed: it goes to the Destroyed Units Box and counts for VP instead of "
        "being withdrawn (17.3.4b)"),
    Why.WITHDRAWAL_IF_DESTROYED: (
        "If that destroys it, it counts for VP; else it is withdrawn (17.3.4b, 17.3.4c)"),
    Why.WITHDRAWAL_SURVIVES: (
        "The unit survives: it is withdrawn, no VP to the German player (17.3.4c)"),
    Why.VICTORY_TOWARD_ALLIES: (
        "{start}, Allied VP {allied} − German VP {german} = {difference:+d}: "
        "{levels:level|levels} toward the Allies (16.3.3)"),
    Why.VICTORY_TOWARD_GERMANS: (
        "{start}, Allied VP {allied} − German VP {german} = {difference:+d}: "
        "{levels:level|levels} toward the Germans (16.3.3)"),
    Why.VICTORY_AS_FRONTLINE: (
        "{start}, Allied VP {allied} − German VP {german} = {difference:+d}: 0 levels (16.3.3)"),
    Why.REPLACEMENT_VP: "{steps} Allied replacement steps: German VP +1 (16.1)",
    Why.GT1_GERMAN_MOVES: (
        "Game turn 1: the German player may move only the 12th SS Panzer and 711th Infantry "
        "Divisions, and up to {most} other units not next to Allied units: {most} for the "
        "whole turn, the same ones in both Movement Phases (17.3.3d)"),
    Why.PARAS_STAY: (
        "Game turn 1: paratroop units may not move; they may retreat and advance in combat "
        "(17.3.3a)"),
    Why.PARAS_ONE_HEX: (
        "Game turn 2: paratroop units move one hex this turn at most; they may retreat and "
        "advance in combat (17.3.3a)"),
    Why.LAND_HALF_MA: (
        "Allied units that land this turn have only half their MA (17.3.9, game turns 1 to "
        "{last})"),
    Why.IN_COLUMN: (
        "Reinforcements on one road enter in column: each pays half an MP more for every unit "
        "that came on that road before it this turn (13.2e)"),
    Why.DELAYS_REMOVED: (
        "The end of game turn {turn}: remove every German delay unit from play (17.3.11g)"),
    Why.DELAY_APPEARS: (
        "One delay unit appears ({placed} of {most} so far): in supply, next to a friendly "
        "unit that is not an HQ or a delay unit, not in an EZOC (17.3.11a-c)"),
    Why.RAIL_LEFT: (
        "Rail on game turn {turn}: {left} of {most} non-mechanized units left; a mechanized "
        "unit counts as two; none within six hexes of an all-sea hex on map B (17.3.12)"),
    Why.RAIL_MECH_ONLY: (
        "Rail on game turn {turn}: {left} of {most} non-mechanized units left; in the "
        "Mechanized Movement Phase only panzer, panzer-grenadier and HQ units move, each counts "
        "as two (4.0 G5b, 17.3.12b)"),
    Why.CHERBOURG_ONE: (
        "Once the peninsula is cut off, Cherbourg supplies one German attack a game turn, "
        "with no supply points (17.3.5g)"),
    Why.AUTOMATIC_VICTORY: (
        "No beach hex friendly to the Allied player at the beginning of an Allied player turn: "
        "the game ends, an automatic decisive German victory (17.3.13, 17.4.3)"),
    Why.CARPET_OTHER_FRONT: (
        "This turn the other three AP may not be used on this front (this side of the AAB), "
        "only on the other side (14.3e)"),
})


@dataclass(frozen=True)
class Note:
    """A note: its code and the values it names; its English sentence (the command line and
    the journal print it) is the code's English template filled with them."""

    why: Why
    values: dict[str, Value] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return fill(self.why.english, self.values)

    def __str__(self) -> str:
        return self.text
