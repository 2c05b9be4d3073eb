"""Cobra's own refusals: the codes only Cobra's rules (rules/cobra/) raise, written as the
shared ones are (rules/errors.py: a code, then the names of the values it comes with)."""
from __future__ import annotations

from cobi_companion.rules.errors import Coded, english


class CobraRefusal(Coded):
    """Every kind of refusal only Cobra's rules make, one member each."""

    UNIT_FORMAT = "unit_format", "unit"
    UNIT_UNKNOWN_MODIFIER = "unit_unknown_modifier", "unit", "letter"
    UNIT_MODIFIER_TWICE = "unit_modifier_twice", "unit"
    NEEDS_A_UNIT = "needs_a_unit", "role"
    UNIT_STRENGTH = "unit_strength", "unit", "most"
    MODIFIER_WRONG_ROLE = "modifier_wrong_role", "unit", "modifier", "role"
    MODIFIER_WRONG_SIDE = "modifier_wrong_side", "unit", "modifier", "nation"
    SHIFT_COLUMNS = "shift_columns", "shift"
    SHIFT_FORMAT = "shift_format", "shift"
    SHIFT_NOT_ALLOWED = "shift_not_allowed", "shift_kind", "columns", "allowed", "article"
    HQ_SHIFTS_TOO_EARLY = "hq_shifts_too_early", "turn", "first"
    NO_AIR_IN_STORMS = "no_air_in_storms"
    NAVAL_IN_STORMS = "naval_in_storms"
    SHIFT_TWICE = "shift_twice", "shift_kind"
    SHIFTS_DISAGREE = "shifts_disagree", "shift_kind", "columns", "nation", "said"
    TURN_OUT_OF_RANGE = "turn_out_of_range", "turn", "last"
    CARPET_SHIFTED = "carpet_shifted"
    CARPET_TOO_EARLY = "carpet_too_early", "first"
    CARPET_NOT_CLEAR = "carpet_not_clear"
    CARPET_NOT_PLANNED = "carpet_not_planned"
    CARPET_PLAN_PHASE = "carpet_plan_phase"
    CARPET_PLANNED_ALREADY = "carpet_planned_already", "turn"
    CARPET_CANCELLED_WAIT = "carpet_cancelled_wait"
    CARPET_NONE_TO_CANCEL = "carpet_none_to_cancel"
    CARPET_DECIDE_FIRST = "carpet_decide_first"
    NO_LANDING_SCENARIO = "no_landing_scenario", "scenario"
    AUTOMATIC_VICTORY_WHEN = "automatic_victory_when"
    OVERRUN_TURN_1 = "overrun_turn_1"
    OVERRUN_DOUBLED = "overrun_doubled", "unit"
    OVERRUN_UNSUPPLIED = "overrun_unsupplied", "unit"
    OVERRUN_MODIFIER = "overrun_modifier", "unit", "modifier"
    OVERRUN_NO_AIR = "overrun_no_air"
    OVERRUN_ONE_HQ_SHIFT = "overrun_one_hq_shift"
    OVERRUN_ADVANCE_SHIFT = "overrun_advance_shift", "shift_kind"
    CARPET_MISSIONS_SPENT = "carpet_missions_spent", "turn"
    NO_AIR_ON_TURN_1 = "no_air_on_turn_1"
    NAVAL_POINTS_TURN = "naval_points_turn", "turn", "most"
    AIR_POINTS_LEFT = "air_points_left", "left", "need"
    NAVAL_POINTS_LEFT = "naval_points_left", "left", "need"
    NOT_A_DIE_FACE = "not_a_die_face", "die", "faces"
    NO_TERRAIN = "no_terrain", "terrain", "known"
    UNKNOWN_SCENARIO = "unknown_scenario", "scenario", "choices"
    GAME_OVER = "game_over"
    WEATHER_FIRST = "weather_first"
    WEATHER_PHASE_ONLY = "weather_phase_only"
    WEATHER_ALREADY = "weather_already", "turn"
    SUPPLY_PHASE_ONLY = "supply_phase_only"
    UNKNOWN_TRACK = "unknown_track", "track", "choices"
    EXTENSION_ROLL_NEEDED = "extension_roll_needed"
    UNKNOWN_WEATHER = "unknown_weather", "weather"
    WEATHER_HISTORY_NEEDED = "weather_history_needed"
    WEATHER_HISTORY_LONG = "weather_history_long", "turn", "before", "named"
    UNKNOWN_EXIT = "unknown_exit", "field", "value", "choices"
    UNKNOWN_HQ = "unknown_hq", "hq", "choices"
    HQ_ELIMINATED = "hq_eliminated", "name"
    HQ_INACTIVE = "hq_inactive", "name"
    HQ_SHIFTS_GIVEN = "hq_shifts_given", "name", "given", "most"
    HQ_OTHER_ARMY = "hq_other_army", "name", "army", "paid"
    NO_GERMAN_LIMITS = "no_german_limits"
    ATTACK_LIMIT = "attack_limit", "army", "made", "most"
    OVERRUN_LIMIT = "overrun_limit", "army", "made", "most"
    COMMAND_LEVEL = "command_level", "level", "most"
    VP_UNKNOWN_SOURCE = "vp_unknown_source", "vp_source", "choices"
    VP_NOT_IN_SCENARIO = "vp_not_in_scenario", "vp_source", "scenario", "article"
    VP_NOT_THIS_TURN = "vp_not_this_turn", "vp_source", "turn", "first", "last", "article"
    VP_ONCE_A_TURN = "vp_once_a_turn", "vp_source", "turn", "article"
    VP_ONCE_A_GAME = "vp_once_a_game", "vp_source", "turn", "article"
    VP_MOST = "vp_most", "vp_source", "most", "article"
    VP_HQ_EXITED = "vp_hq_exited", "turn"
    VP_ONE_AT_A_TIME = "vp_one_at_a_time", "vp_source", "count", "article"
    VP_NOTHING_TO_UNDO = "vp_nothing_to_undo"
    RELEASE_NOT_YET = "release_not_yet", "turn", "first"
    RELEASE_ONCE_A_TURN = "release_once_a_turn", "turn"
    RELEASE_ALL_OUT = "release_all_out"
    BREST_NOT_YET = "brest_not_yet", "turn"
    BREST_US_EXITED = "brest_us_exited", "turn"
    BREST_RELEASED = "brest_released", "turn"
    LECLERC_MUTINIED = "leclerc_mutinied", "turn"
    SPECIAL_ONCE_A_TURN = "special_once_a_turn", "turn"
    UNKNOWN_MOVEMENT = "unknown_movement", "field", "value", "choices"
    MA_PRINTED = "ma_printed", "printed", "most"
    NOT_MECHANIZED = "not_mechanized"
    LANDED_TURNS = "landed_turns", "last"
    MA_NEEDS_WEATHER = "ma_needs_weather"
    MA_INCREASE_TOO_MUCH = "ma_increase_too_much", "increase", "most"
    MA_INCREASE_GERMAN_ONLY = "ma_increase_german_only"
    MA_INCREASE_THIRDS = "ma_increase_thirds", "increase"
    UNKNOWN_REPLACEMENT = "unknown_replacement", "field", "value", "choices"
    BRITISH_INFANTRY_LIMIT = "british_infantry_limit", "first", "most"
    REPLACEMENT_TURN_LIMIT = "replacement_turn_limit"
    NO_REPLACEMENT_STEP = "no_replacement_step", "turn", "step_kind", "on_track"
    REPLACEMENT_PHASE_ONLY = "replacement_phase_only"
    NO_STEP_TO_TAKE_BACK = "no_step_to_take_back"
    MA_ALREADY_FULL = "ma_already_full"
    HQ_COLUMNS_MOST = "hq_columns_most", "name", "most"
    NOT_A_SCENARIO_TURN = "not_a_scenario_turn", "scenario", "turn", "first", "last"
    EXIT_AFTER_TURN = "exit_after_turn", "turn", "exited"
    UNKNOWN_LANDING_TARGET = "unknown_landing_target", "landing", "choices"
    NOT_A_PARATROOP_DIVISION = "not_a_paratroop_division", "landing"
    ALL_PARATROOPS_DROPPED = "all_paratroops_dropped", "most"
    LANDING_SHIFT_WRONG_TARGET = "landing_shift_wrong_target", "landing"
    LANDING_SHIFT_RANGE = "landing_shift_range"
    NOT_A_BEACH = "not_a_beach", "landing"
    BEACH_STEPS = "beach_steps", "lost", "landed"
    BEACH_ALREADY_ABANDONED = "beach_already_abandoned", "landing"
    WITHDRAWAL_STEPS = "withdrawal_steps", "steps"
    # the campaign's bookkeeping (rules/cobra/campaign.py)
    DELAY_TURNS = "delay_turns", "turn", "first", "last"
    DELAY_ALREADY = "delay_already", "turn", "placed", "most"
    DELAY_PHASE = "delay_phase"
    RAIL_TURNS = "rail_turns", "turn"
    RAIL_CAPACITY = "rail_capacity", "left", "most", "turn", "need"
    RAIL_PHASE = "rail_phase"
    RAIL_FOOT_MECHANIZED_PHASE = "rail_foot_mechanized_phase"
    CHERBOURG_CAMPAIGN = "cherbourg_campaign"
    CHERBOURG_USED = "cherbourg_used", "turn"
    NAVAL_FAR_MOST = "naval_far_most", "columns", "need", "most"
    NAVAL_FAR_IN_STORMS = "naval_far_in_storms"
    NOT_A_DIVISION = "not_a_division"
    ALWAYS_IN_SUPPLY = "always_in_supply", "turn"
    MARKER_STEPS = "marker_steps", "lost", "most"
    CARPET_AFTER_ATTACKS = "carpet_after_attacks"
    OVERRUN_MOVEMENT_SHIFT = "overrun_movement_shift", "shift_kind"
    OVERRUN_MARKER_ADVANCE = "overrun_marker_advance"
    CARPET_FIRST_TURN = "carpet_first_turn", "scenario", "turn"


# Each code's English, the one place it is written: the rules' message (`str(exc)`) and
# the catalogues' English (refusal_<code> in words/locale/companion.pot, extracted by
# `python3 run.py catalogues`) are both made from it.
ENGLISH: dict[CobraRefusal, str] = english({
    CobraRefusal.UNIT_FORMAT: (
        "unit '{unit}': write its strength then modifier letters, like 12 or 6h"),
    CobraRefusal.UNIT_UNKNOWN_MODIFIER: "unit '{unit}': unknown modifier '{letter}'",
    CobraRefusal.UNIT_MODIFIER_TWICE: "unit '{unit}': a modifier may be given once per unit",
    CobraRefusal.NEEDS_A_UNIT: "the {role} needs at least one unit",
    CobraRefusal.UNIT_STRENGTH: "unit {unit}: a printed strength is 1 to {most}",
    CobraRefusal.MODIFIER_WRONG_ROLE: "unit {unit}: {modifier} applies only in {role}",
    CobraRefusal.MODIFIER_WRONG_SIDE: "unit {unit}: {modifier} is only for {nation} units",
    CobraRefusal.SHIFT_COLUMNS: "shift '{shift}': the columns are a whole number like -1 or +2",
    CobraRefusal.SHIFT_FORMAT: (
        "shift '{shift}': write KIND:COLUMNS (like terrain:-1), or a terrain named in the Cobra "
        "tables file"),
    CobraRefusal.SHIFT_NOT_ALLOWED: (
        "shift {shift_kind} {columns:+d}: not allowed, only {allowed} ({article})"),
    CobraRefusal.HQ_SHIFTS_TOO_EARLY: (
        "shift hq:+2 on game turn {turn}: two HQ shifts only from game turn {first} (8.3.3a)"),
    CobraRefusal.NO_AIR_IN_STORMS: "no air points in storms (14.0b)",
    CobraRefusal.NAVAL_IN_STORMS: "in storms at most one naval point: +1 at most (14.4)",
    CobraRefusal.SHIFT_TWICE: (
        "{shift_kind} is given twice for the same side: one {shift_kind} shift per side"),
    CobraRefusal.SHIFTS_DISAGREE: (
        "shift {shift_kind} {columns:+d} means the {nation} side attacks, but another shift "
        "says the {said} side does"),
    CobraRefusal.TURN_OUT_OF_RANGE: "game turn {turn}: Cobra's game turns are 1 to {last}",
    CobraRefusal.CARPET_SHIFTED: "carpet bombing is never shifted left or right (14.3g)",
    CobraRefusal.CARPET_TOO_EARLY: "no carpet bombing before game turn {first} (14.3f)",
    CobraRefusal.CARPET_NOT_CLEAR: "carpet bombing only in clear weather (14.3b)",
    CobraRefusal.CARPET_NOT_PLANNED: (
        "carpet bombing must be planned one game turn before: its target hex written down in "
        "the Allied Combat Phase of the turn before (14.3a, 14.3d)"),
    CobraRefusal.CARPET_PLAN_PHASE: (
        "carpet bombing is planned at the start of the Allied Combat Phase (14.3a)"),
    CobraRefusal.CARPET_PLANNED_ALREADY: (
        "a carpet bombing is planned already for game turn {turn} (14.3a)"),
    CobraRefusal.CARPET_CANCELLED_WAIT: (
        "a mission was cancelled this turn: plan another in the next Allied Combat Phase "
        "(14.3c)"),
    CobraRefusal.CARPET_NONE_TO_CANCEL: "no carpet bombing is planned for this turn (14.3d)",
    CobraRefusal.CARPET_DECIDE_FIRST: (
        "first conduct or cancel this turn's planned carpet bombing (14.3d)"),
    CobraRefusal.NO_LANDING_SCENARIO: (
        "the {scenario} scenario has no landing: the automatic victory is the Campaign's and "
        "the Build-Up's (17.3.13, 17.4.3)"),
    CobraRefusal.AUTOMATIC_VICTORY_WHEN: (
        "the automatic victory is checked at the beginning of an Allied player turn "
        "(17.3.13, 17.4.3)"),
    CobraRefusal.OVERRUN_TURN_1: "no overruns on game turn 1 (17.3.3c)",
    CobraRefusal.OVERRUN_DOUBLED: (
        "unit {unit}: an overrun is at printed strength, not doubled for divisional integrity "
        "(5.4.1a)"),
    CobraRefusal.OVERRUN_UNSUPPLIED: (
        "unit {unit}: units out of supply may not overrun (5.4e, 10.6c)"),
    CobraRefusal.OVERRUN_MODIFIER: (
        "unit {unit}: {modifier} does not apply to an overrun: printed strength, halved only "
        "into marsh (5.4.1, 5.4.1b)"),
    CobraRefusal.OVERRUN_NO_AIR: "air points may not aid an overrun (14.2c)",
    CobraRefusal.OVERRUN_ONE_HQ_SHIFT: (
        "an HQ gives an overrun one shift at most; only Patton gives two (5.4.1c3, 5.4.1c5)"),
    CobraRefusal.OVERRUN_ADVANCE_SHIFT: (
        "an overrun when advancing after combat takes only terrain and supply: no "
        "{shift_kind:key} shift (5.4.1d)"),
    CobraRefusal.CARPET_MISSIONS_SPENT: (
        "game turn {turn}: no carpet bombing mission left: one during GT 5 to 14, two more from "
        "GT 15, one a game turn (14.3f)"),
    CobraRefusal.NO_AIR_ON_TURN_1: "the Allied player receives no AP on GT 1 (17.3.10)",
    CobraRefusal.NAVAL_POINTS_TURN: "game turn {turn} has {most} naval support points (14.4)",
    CobraRefusal.AIR_POINTS_LEFT: "{left} air points left, this needs {need} (14.0, 14.1a)",
    CobraRefusal.NAVAL_POINTS_LEFT: (
        "{left} naval support points left this game turn, this needs {need} (14.4)"),
    CobraRefusal.NOT_A_DIE_FACE: "a die shows 1 to {faces}, not {die}",
    CobraRefusal.NO_TERRAIN: (
        "no terrain '{terrain}' in the Cobra tables: add it under [terrain] with its shift from "
        "your Terrain Effects Chart (known: {known})"),
    CobraRefusal.UNKNOWN_SCENARIO: "unknown scenario '{scenario}': choose {choices}",
    CobraRefusal.GAME_OVER: "the game is over",
    CobraRefusal.WEATHER_FIRST: "the weather phase needs the weather first (5.3)",
    CobraRefusal.WEATHER_PHASE_ONLY: (
        "the weather is found in the Weather & German Supply Phase (4.0)"),
    CobraRefusal.WEATHER_ALREADY: "game turn {turn} already has its weather",
    CobraRefusal.SUPPLY_PHASE_ONLY: "Allied supply points come in the Allied Supply Phase (4.0)",
    CobraRefusal.UNKNOWN_TRACK: "unknown track '{track}': choose {choices}",
    CobraRefusal.EXTENSION_ROLL_NEEDED: (
        "the end of game turn 27 needs the Allied die roll: 4-6 plays game turn 28 (17.3a)"),
    CobraRefusal.UNKNOWN_WEATHER: "weather '{weather}': allowed: clear, overcast, storm",
    CobraRefusal.WEATHER_HISTORY_NEEDED: (
        "game turn 6 needs the weather of turns 1 to 5: storms come on turn 6 if none came "
        "before (5.3)"),
    CobraRefusal.WEATHER_HISTORY_LONG: (
        "game turn {turn} has only {before} turns before it, but the history names {named}"),
    CobraRefusal.UNKNOWN_EXIT: "an exit's {field} is one of {choices}, not '{value}'",
    CobraRefusal.UNKNOWN_HQ: "unknown HQ '{hq}': choose {choices}",
    CobraRefusal.HQ_ELIMINATED: "{name} is eliminated (9.1e)",
    CobraRefusal.HQ_INACTIVE: (
        "{name} is inactive: inactive HQs may not contribute shifts to a combat (9.1i)"),
    CobraRefusal.HQ_SHIFTS_GIVEN: (
        "{name} has given {given} of its {most} shifts since it was flipped active (8.3.3a)"),
    CobraRefusal.HQ_OTHER_ARMY: (
        "{name} is a {army} HQ: it benefits only {army} units, and this attack pays from the "
        "{paid} track (8.3.3d, 8.3.3e, 11.2)"),
    CobraRefusal.NO_GERMAN_LIMITS: "only the Allied player has command limits (11.3)",
    CobraRefusal.ATTACK_LIMIT: (
        "{army} attacks: {made} of {most} made this game turn, the command limit (11.3)"),
    CobraRefusal.OVERRUN_LIMIT: (
        "{army} overruns: {made} of {most} made this game turn, the command limit (11.3)"),
    CobraRefusal.COMMAND_LEVEL: "a command level is 0 to {most}, not {level}",
    CobraRefusal.VP_UNKNOWN_SOURCE: (
        "unknown victory point source '{vp_source:key}': choose {choices}"),
    CobraRefusal.VP_NOT_IN_SCENARIO: "{vp_source}: not in the {scenario} scenario ({article})",
    CobraRefusal.VP_NOT_THIS_TURN: (
        "{vp_source}: game turn {first} to {last}, not {turn} ({article})"),
    CobraRefusal.VP_ONCE_A_TURN: "{vp_source}: already scored in game turn {turn} ({article})",
    CobraRefusal.VP_ONCE_A_GAME: "{vp_source}: already scored, in game turn {turn} ({article})",
    CobraRefusal.VP_MOST: "{vp_source}: {most} VP at most ({article})",
    CobraRefusal.VP_HQ_EXITED: "a US HQ exited off the west edge on game turn {turn} (16.1)",
    CobraRefusal.VP_ONE_AT_A_TIME: "{vp_source}: one at a time, not {count} ({article})",
    CobraRefusal.VP_NOTHING_TO_UNDO: "no victory points reported to take back",
    CobraRefusal.RELEASE_NOT_YET: (
        "the 15th Army may be asked from game turn {first}, not {turn} (15.2)"),
    CobraRefusal.RELEASE_ONCE_A_TURN: (
        "one attempt each game turn: game turn {turn} has had its (15.2b)"),
    CobraRefusal.RELEASE_ALL_OUT: "the four divisions of the 15th Army are all released (15.2e)",
    CobraRefusal.BREST_NOT_YET: (
        "the 2nd FJ Division is rolled for from game turn 26, not {turn} (15.3a)"),
    CobraRefusal.BREST_US_EXITED: (
        "a US unit exited off the west edge on game turn {turn}: no roll for Brest (15.3)"),
    CobraRefusal.BREST_RELEASED: "the 2nd FJ Division came in on game turn {turn} (15.3)",
    CobraRefusal.LECLERC_MUTINIED: (
        "Leclerc mutinied on game turn {turn}: the division heads for Paris (15.1b)"),
    CobraRefusal.SPECIAL_ONCE_A_TURN: "this roll is made once in game turn {turn}",
    CobraRefusal.UNKNOWN_MOVEMENT: "a unit's {field} is one of {choices}, not '{value}'",
    CobraRefusal.MA_PRINTED: "a printed MA is 1 to {most}, not {printed}",
    CobraRefusal.LANDED_TURNS: (
        "only Allied units land with half their MA, on game turns 1 to {last} of the campaign "
        "and the Build-Up (17.3.9)"),
    CobraRefusal.NOT_MECHANIZED: (
        "only mechanized units move in the Mechanized Movement Phase (4.0, 5.2); British and "
        "Canadian infantry two thirds of their MA (5.2c)"),
    CobraRefusal.MA_NEEDS_WEATHER: "a German unit's MA needs the weather (5.3b)",
    CobraRefusal.MA_INCREASE_TOO_MUCH: (
        "an increase of {increase:third|thirds} would take the MA above the printed MA: {most} "
        "at most (5.3d)"),
    CobraRefusal.MA_INCREASE_GERMAN_ONLY: (
        "only German units increase their MA, in overcast or clear weather (5.3d)"),
    CobraRefusal.MA_INCREASE_THIRDS: "an MA increase is one or two thirds, not {increase} (5.3d)",
    CobraRefusal.UNKNOWN_REPLACEMENT: "a replacement's {field} is one of {choices}, not '{value}'",
    CobraRefusal.BRITISH_INFANTRY_LIMIT: (
        "from game turn {first} the British replace no more than {most} infantry steps a turn "
        "(12.2)"),
    CobraRefusal.REPLACEMENT_TURN_LIMIT: (
        "no more than one mechanized or two infantry steps may be used in a game turn (12.2d)"),
    CobraRefusal.NO_REPLACEMENT_STEP: (
        "game turn {turn}: {on_track} {step_kind:key} step on the German replacement track, a "
        "whole step is needed (12.2)"),
    CobraRefusal.REPLACEMENT_PHASE_ONLY: (
        "replacements are taken in the side's own Replacement Phase (12.0)"),
    CobraRefusal.NO_STEP_TO_TAKE_BACK: (
        "no replacement step taken in this phase to take back (12.0)"),
    CobraRefusal.MA_ALREADY_FULL: (
        "the MA is already the full printed MA: nothing to increase (5.3d)"),
    CobraRefusal.HQ_COLUMNS_MOST: (
        "{name} gives at most {most:column|columns} to one combat: two only to an Allied attack "
        "from game turn 17 (8.3.3a)"),
    CobraRefusal.NOT_A_SCENARIO_TURN: (
        "the {scenario} scenario plays game turns {first} to {last}, not {turn} (2.5, 17.0)"),
    CobraRefusal.EXIT_AFTER_TURN: (
        "an exit is recorded on game turn {exited}, after game turn {turn}"),
    CobraRefusal.UNKNOWN_LANDING_TARGET: (
        "unknown landing target '{landing}': choose {choices} (17.3.2)"),
    CobraRefusal.NOT_A_PARATROOP_DIVISION: (
        "{landing:key} is a beach: paratroop units are of the 6th, 82nd or 101st Airborne "
        "Divisions (17.3.2 step 2)"),
    CobraRefusal.ALL_PARATROOPS_DROPPED: "all {most} paratroop units have dropped (17.3.2 step 1a)",
    CobraRefusal.LANDING_SHIFT_WRONG_TARGET: (
        "{landing:key}: a beach shifts for the German steps committed, a paratroop unit for its "
        "terrain (17.3.2 step 4b3)"),
    CobraRefusal.LANDING_SHIFT_RANGE: (
        "committed steps are 0 or more, a terrain shift 0 to -5 (17.3.2 step 4b3, 8.3.2)"),
    CobraRefusal.NOT_A_BEACH: (
        "{landing:key} is not a beach: choose utah, omaha, gold, juno, sword (17.3.2 step 5)"),
    CobraRefusal.BEACH_STEPS: (
        "{lost} steps lost of {landed} landed: a beach has 1 or more steps landed and lost 0 to "
        "all of them (17.3.2 step 5a)"),
    CobraRefusal.BEACH_ALREADY_ABANDONED: (
        "{landing:key} is abandoned already: 10 VP for each beach (17.3.2 step 5e)"),
    CobraRefusal.WITHDRAWAL_STEPS: (
        "a unit being withdrawn has 1 step or more, not {steps} (17.3.4)"),
    CobraRefusal.DELAY_TURNS: (
        "a delay unit appears on game turns {first} to {last} of the campaign and the Build-Up, "
        "not on game turn {turn} (17.3.11a, 17.3.11g)"),
    CobraRefusal.DELAY_ALREADY: (
        "game turn {turn}'s delay unit is placed already ({placed} of {most}): one a game turn "
        "(17.3.11a)"),
    CobraRefusal.DELAY_PHASE: (
        "a delay unit appears in the German Initial Movement Phase (17.3.11a)"),
    CobraRefusal.RAIL_TURNS: (
        "no German rail movement on game turn {turn}: only on game turns 2 to 4 of the campaign "
        "and the Build-Up (17.3.12a)"),
    CobraRefusal.RAIL_CAPACITY: (
        "{left} of {most} left to rail on game turn {turn}, this needs {need}: a mechanized "
        "unit counts as two (17.3.12a, 17.3.12b)"),
    CobraRefusal.RAIL_PHASE: (
        "only the German player rails units, in his Movement Phases (17.3.12)"),
    CobraRefusal.RAIL_FOOT_MECHANIZED_PHASE: (
        "in the German Mechanized Movement Phase only panzer, panzer-grenadier and HQ units "
        "move: rail a foot unit in the Initial Movement Phase (4.0 G5b, 17.3.12)"),
    CobraRefusal.CHERBOURG_CAMPAIGN: (
        "Cherbourg supplies an attack in the campaign and the Build-Up only (17.3.5g)"),
    CobraRefusal.CHERBOURG_USED: (
        "Cherbourg has supplied a German attack on game turn {turn} already: one a game turn "
        "(17.3.5g)"),
    CobraRefusal.NAVAL_FAR_MOST: (
        "naval {columns:+d} at 4 to 6 hexes needs {need} naval points, two a column (14.4d); "
        "one attack takes {most} at most (14.4b): +1 at most"),
    CobraRefusal.NAVAL_FAR_IN_STORMS: (
        "in storms at most one naval point, and a target 4 to 6 hexes away needs two for a "
        "column: no naval shift (14.4, 14.4d)"),
    CobraRefusal.NOT_A_DIVISION: (
        "only British and Canadian infantry divisions move two thirds of their MA in the "
        "Mechanized Movement Phase (5.2c); other infantry does not move in it (4.0, 5.2)"),
    CobraRefusal.ALWAYS_IN_SUPPLY: (
        "game turn {turn}: every unit is in supply on GT 1 and 2, Allied (17.3.6d) and German "
        "(17.3.6)"),
    CobraRefusal.MARKER_STEPS: (
        "a beach shift marker is one column for each step lost in its hex: 1 to {most}, not "
        "{lost} (17.3.2 step 5f)"),
    CobraRefusal.CARPET_AFTER_ATTACKS: (
        "an Allied attack was made this Combat Phase: carpet bombing comes before any other "
        "attack, so this turn's can only be cancelled (14.3, 14.3d)"),
    CobraRefusal.OVERRUN_MOVEMENT_SHIFT: (
        "an overrun in the Initial Movement Phase takes the shifts 5.4.1c lists (terrain, "
        "supply, naval, HQ; air never, 14.2c) and a Tiger's (8.3.1): no {shift_kind:key} "
        "shift (5.4.1c)"),
    CobraRefusal.OVERRUN_MARKER_ADVANCE: (
        "an overrun when advancing after combat has left the marked hex: the beach shift "
        "marker is removed as Allied units advance out of it (17.3.2 step 5f2)"),
    CobraRefusal.CARPET_FIRST_TURN: (
        "game turn {turn} is the {scenario} scenario's first: there is no turn before it to "
        "plan a carpet bombing in (14.3a)"),
})
