"""Errors the rules raise when a request cannot be resolved.

A refusal says why twice: in one English sentence (the command line prints it), and as a typed
reason a box can put in its own words in any language: a `Refusal` code and the values the
sentence names (labels, card titles, numbers, card field names, facings, sides...). A box never
reads the sentence.
"""
from __future__ import annotations

from enum import StrEnum
from typing import Self

# A value a refusal names: a label or a title, a number, a word the rules use (a card field,
# a facing, a side, an action...), or several labels or names. A `source` is the file a card or
# table came from ("" when it was built in code).
Value = str | int | float | tuple[str, ...]


class Coded(StrEnum):
    """An enum of codes, each member written as its code and then the names of the values it
    comes with (`names`): the refusals here, Cobra's notes in cobra/notes.py."""

    names: tuple[str, ...]

    def __new__(cls, code: str, *names: str) -> Self:
        member = str.__new__(cls, code)
        member._value_ = code
        member.names = names
        return member


class Refusal(Coded):
    """Every kind of refusal, one member each: its code, then the names of the values every
    refusal of that kind comes with (`names`)."""

    # the battle, the cards and the rules levels
    SQUAD_NEEDS_FIGURE = "squad_needs_figure", "name"  # the card's name
    NO_SUCH_PIECE = "no_such_piece", "label"
    NO_SUCH_WEAPON = "no_such_weapon", "name", "weapon", "weapons"
    NO_CARD_VALUE = "no_card_value", "name", "field", "source"
    UNKNOWN_RULES = "unknown_rules", "rules", "choices"
    UNKNOWN_CARD = "unknown_card", "card", "choices"
    UNKNOWN_HOUSE_RULE = "unknown_house_rule", "rule", "choices"
    HOUSE_RULE_VALUE = "house_rule_value", "rule", "value", "choices"

    # firing at hard targets, reloading, moving (both levels)
    DESTROYED = "destroyed", "name"
    FIRER_DESTROYED = "firer_destroyed", "name"
    GUN_LOST = "gun_lost", "name"
    NO_GUN = "no_gun", "name"
    UNLOADED = "unloaded", "name"
    TARGET_DESTROYED = "target_destroyed", "name"
    EASY_NO_MODIFIERS = "easy_no_modifiers"
    EASY_NO_TOP = "easy_no_top"
    IMPOSSIBLE_CM = "impossible_cm", "quantity", "cm"
    AP_AT_GUN = "ap_at_gun"
    AP_AT_SOFT_TARGET = "ap_at_soft_target", "name"
    NO_RELOAD_ROLL = "no_reload_roll", "name"
    NOTHING_TO_RELOAD_GUN_LOST = "nothing_to_reload_gun_lost", "name"
    NO_GUN_TO_RELOAD = "no_gun_to_reload", "name"
    IMMOBILIZED_FOR_GOOD = "immobilized_for_good", "name"
    NEGATIVE_MOVE = "negative_move"
    ROAD_AND_ROUGH = "road_and_rough"
    MOVING_NEEDS_NO_DICE = "moving_needs_no_dice"

    # Tank Game turns: activations and the actions of active pieces
    NOT_YOUR_PIECE = "not_your_piece", "label", "side", "playing"
    OUT_OF_FIGHT = "out_of_fight", "label"
    OFF_MAP = "off_map", "label"
    OFF_MAP_PLACE_FIRST = "off_map_place_first", "label"
    PLACED_THIS_TURN = "placed_this_turn", "label"
    ALREADY_ACTIVATED = "already_activated", "label"
    END_ACTIVATION_FIRST = "end_activation_first", "labels"
    ACTIVATIONS_USED = "activations_used", "side"
    FIRED_NO_EXTRA = "fired_no_extra", "side"
    PICK_PIECES = "pick_pieces", "most"
    PICKED_TWICE = "picked_twice", "label"
    ONE_MODEL = "one_model", "labels"
    TOO_MANY_PIECES = "too_many_pieces", "most", "counted", "size"
    NO_ACTIVATION = "no_activation"
    NO_ACTIVATION_FOR = "no_activation_for", "label"
    NOT_IN_ACTIVATION = "not_in_activation", "label", "labels"
    LEFT_MAP = "left_map", "label"
    ALREADY_DONE = "already_done", "label", "action"
    COMMANDER_LOST = "commander_lost", "label"
    IMMOBILIZED = "immobilized", "label"
    RELOADING_NO_MOVE_OR_FIRE = "reloading_no_move_or_fire", "label"
    EXTRA_NO_FIRE = "extra_no_fire", "label"
    MOVED_NO_FIRE = "moved_no_fire", "label"
    HIDE_ONLY_FIGURES = "hide_only_figures", "label"
    MOVED_NO_HIDE = "moved_no_hide", "label"
    COVER_ONLY_FIGURES = "cover_only_figures", "label", "kind"
    MOVED_NO_COVER = "moved_no_cover", "label"
    SQUAD_NO_RELOAD = "squad_no_reload", "label"
    ACTED_NO_RELOAD = "acted_no_reload", "label", "action"
    LOADED = "loaded", "label"
    COMMANDER_NOT_ACTIVE = "commander_not_active", "label"
    NO_COMMANDER_TO_PUT_OUT = "no_commander_to_put_out", "label"
    NO_COMMANDER_ON_MAP = "no_commander_on_map", "label"
    HAS_COMMANDER = "has_commander", "label"
    IMMOBILIZED_CANNOT_LEAVE = "immobilized_cannot_leave", "label"
    NOT_OFF_MAP = "not_off_map", "label"
    COMMANDER_COMES_BACK = "commander_comes_back", "label", "turn"
    COMMANDER_LEAVES_FIRST = "commander_leaves_first", "label"
    VEHICLE_PLACED_ALONE = "vehicle_placed_alone", "label"
    VEHICLES_PLACED = "vehicles_placed", "side", "most"
    GUN_TOWED = "gun_towed", "label"
    NOT_A_CARRIER = "not_a_carrier", "label"
    GUN_FIRED = "gun_fired", "label"
    WEAPON_FIRED = "weapon_fired", "label", "weapon", "figures"
    GRENADE_THROWN = "grenade_thrown", "label", "figures"
    NOTHING_TO_FIRE = "nothing_to_fire", "label"
    # figures riding on vehicles
    RIDE_ONLY_FIGURES = "ride_only_figures", "label"
    ALREADY_RIDING = "already_riding", "label", "vehicle"
    NOT_A_RIDE = "not_a_ride", "label", "vehicle"
    NOT_RIDING = "not_riding", "label"
    CARRIED_NO_FIRE = "carried_no_fire", "label", "vehicle"
    RIDER_NO_HIDE_OR_COVER = "rider_no_hide_or_cover", "label", "vehicle"

    # hiding and spotting
    MEASURE_WITH_TAPE = "measure_with_tape", "cm", "limit"
    ALREADY_HIDDEN = "already_hidden", "label"
    NO_COVER = "no_cover", "label"
    ENEMY_NEAR = "enemy_near", "label", "limit", "cm"
    ENEMY_NEAR_CALLED = "enemy_near_called", "label", "limit"
    SAME_SIDE_SPOTS = "same_side_spots", "label", "hidden"
    NOT_HIDDEN = "not_hidden", "label"

    # distances
    NO_READINGS = "no_readings"
    OFFSET_BELOW_ZERO = "offset_below_zero", "cm"
    UNKNOWN_COMPARISON = "unknown_comparison", "comparison"
    UNKNOWN_QUESTION = "unknown_question", "question", "choices"
    NOT_FIRE_RANGE = "not_fire_range", "question"
    RANGE_TOO_CLOSE = "range_too_close", "cm", "limit"

    # soft targets and templates
    NO_HE = "no_he", "name"
    NO_TARGET = "no_target"
    ONE_TARGET_ONLY = "one_target_only", "weapon"
    FIRER_OUT = "firer_out", "label"
    NO_FIGURE_TO_FIRE = "no_figure_to_fire", "label"
    ALREADY_OUT = "already_out", "label"
    HIDDEN_TARGET = "hidden_target", "label"
    FIGURES_TO_ATTACK = "figures_to_attack", "label", "figures"
    CREW_INSIDE = "crew_inside", "label"
    ONE_COMMANDER = "one_commander", "label"
    CREW_INSIDE_SOFT = "crew_inside_soft", "label"
    CREW_LEFT = "crew_left", "label", "figures"
    GUN_NEEDS_TEMPLATE = "gun_needs_template"
    HARD_TARGET = "hard_target", "label", "weapon"
    CREW_IN_HARD_COVER = "crew_in_hard_cover", "label"
    COAXIAL_LOST = "coaxial_lost", "label", "weapon"
    EXTERNAL_NEEDS_COMMANDER = "external_needs_commander", "label", "weapon"
    RIDERS_IN_HARD_COVER = "riders_in_hard_cover", "label", "vehicle"
    TABLE_NO_ROW = "table_no_row", "weapon", "source"
    TABLE_NO_RANGE = "table_no_range", "weapon", "cm", "bands", "source"
    TABLE_NO_RANGES = "table_no_ranges", "weapon", "cm", "source"
    TABLE_NO_TEMPLATE = "table_no_template", "weapon", "source"
    TABLE_NO_SITUATION = "table_no_situation", "situation", "source"
    RANGE_NEEDED = "range_needed", "weapon"
    UNKNOWN_SITUATION = "unknown_situation", "situation", "choices"
    # a range band of the table, dialled at the table
    BAND_BACKWARDS = "band_backwards", "low", "high"
    BAND_OVERLAP = "band_overlap", "weapon", "span", "low", "high"
    BAND_MISSES_RANGE = "band_misses_range", "low", "high", "cm"

    # a tank running over figures and guns
    NOT_A_TANK = "not_a_tank", "label"
    OWN_SIDE_UNDER = "own_side_under", "label"
    VEHICLE_BLOCKS = "vehicle_blocks", "label"
    RIDER_BLOCKS = "rider_blocks", "label", "vehicle"
    HARD_COVER_BLOCKS = "hard_cover_blocks", "label"
    GUN_RUN_OVER_WHOLE = "gun_run_over_whole", "label"
    TOO_MANY_UNDER = "too_many_under", "label", "left", "count"
    RUNS_OVER_NOTHING = "runs_over_nothing", "label"
    NAMED_TWICE_UNDER = "named_twice_under"

    # the end of a battle, and matches
    BATTLE_NOT_OVER = "battle_not_over"
    NO_SUCH_BATTLE = "no_such_battle", "number", "battles"
    MATCH_OVER = "match_over"
    MATCH_INCOMPLETE = "match_incomplete", "recorded", "battles"
    TOO_MANY_BATTLES = "too_many_battles", "battles", "held"

    # Cobra
    UNIT_FORMAT = "unit_format", "unit"
    UNIT_UNKNOWN_MODIFIER = "unit_unknown_modifier", "unit", "letter"
    UNIT_MODIFIER_TWICE = "unit_modifier_twice", "unit"
    NEEDS_A_UNIT = "needs_a_unit", "role"
    UNIT_STRENGTH = "unit_strength", "unit", "most"
    MODIFIER_WRONG_ROLE = "modifier_wrong_role", "unit", "modifier", "role"
    MODIFIER_WRONG_SIDE = "modifier_wrong_side", "unit", "modifier", "nation"
    SHIFT_COLUMNS = "shift_columns", "shift"
    SHIFT_FORMAT = "shift_format", "shift"
    SHIFT_NOT_ALLOWED = "shift_not_allowed", "shift_kind", "columns"
    HQ_SHIFTS_TOO_EARLY = "hq_shifts_too_early", "turn", "first"
    NO_AIR_IN_STORMS = "no_air_in_storms"
    NAVAL_IN_STORMS = "naval_in_storms"
    SHIFT_TWICE = "shift_twice", "shift_kind"
    SHIFTS_DISAGREE = "shifts_disagree", "shift_kind", "columns", "nation", "said"
    TURN_OUT_OF_RANGE = "turn_out_of_range", "turn", "last"
    CARPET_SHIFTED = "carpet_shifted"
    CARPET_TOO_EARLY = "carpet_too_early", "first"
    CARPET_NOT_CLEAR = "carpet_not_clear"
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


class RulesError(Exception):
    """The rules refuse: the message says why, in one line a player can read; `code` and
    `values` say it as a typed reason, for a box to put in its own words."""

    def __init__(self, message: str, code: Refusal, **values: Value) -> None:
        super().__init__(message)
        self.code = code
        self.values = values
