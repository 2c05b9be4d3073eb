"""The Tank Game's own refusals: the codes only its rules (turns, fire at soft targets, hiding,
overrun, spotting, scoring) raise, written as the shared ones are (rules/errors.py)."""
from __future__ import annotations

from cobi_companion.rules.errors import Coded, english


class TankRefusal(Coded):
    """Every kind of refusal only the Tank Game's rules make, one member each."""

    IMPOSSIBLE_CM = "impossible_cm", "quantity", "cm"
    AP_AT_GUN = "ap_at_gun"
    AP_AT_SOFT_TARGET = "ap_at_soft_target", "name"
    NO_RELOAD_ROLL = "no_reload_roll", "name"
    NOTHING_TO_RELOAD_GUN_LOST = "nothing_to_reload_gun_lost", "name"
    NO_GUN_TO_RELOAD = "no_gun_to_reload", "name"
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
    RIDE_ONLY_FIGURES = "ride_only_figures", "label"
    ALREADY_RIDING = "already_riding", "label", "vehicle"
    NOT_A_RIDE = "not_a_ride", "label", "vehicle"
    NOT_RIDING = "not_riding", "label"
    CARRIED_NO_FIRE = "carried_no_fire", "label", "vehicle"
    RIDER_NO_HIDE_OR_COVER = "rider_no_hide_or_cover", "label", "vehicle"
    MEASURE_WITH_TAPE = "measure_with_tape", "cm", "limit"
    ALREADY_HIDDEN = "already_hidden", "label"
    NO_COVER = "no_cover", "label"
    ENEMY_NEAR = "enemy_near", "label", "limit", "cm"
    ENEMY_NEAR_CALLED = "enemy_near_called", "label", "limit"
    SAME_SIDE_SPOTS = "same_side_spots", "label", "hidden"
    NOT_HIDDEN = "not_hidden", "label"
    NO_READINGS = "no_readings"
    OFFSET_BELOW_ZERO = "offset_below_zero", "cm"
    UNKNOWN_COMPARISON = "unknown_comparison", "comparison"
    UNKNOWN_QUESTION = "unknown_question", "question", "choices"
    NOT_FIRE_RANGE = "not_fire_range", "question"
    RANGE_TOO_CLOSE = "range_too_close", "cm", "limit"
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
    BAND_BACKWARDS = "band_backwards", "low", "high"
    BAND_OVERLAP = "band_overlap", "weapon", "span", "low", "high"
    BAND_MISSES_RANGE = "band_misses_range", "low", "high", "cm"
    NOT_A_TANK = "not_a_tank", "label"
    OWN_SIDE_UNDER = "own_side_under", "label"
    VEHICLE_BLOCKS = "vehicle_blocks", "label"
    RIDER_BLOCKS = "rider_blocks", "label", "vehicle"
    HARD_COVER_BLOCKS = "hard_cover_blocks", "label"
    GUN_RUN_OVER_WHOLE = "gun_run_over_whole", "label"
    TOO_MANY_UNDER = "too_many_under", "label", "left", "count"
    RUNS_OVER_NOTHING = "runs_over_nothing", "label"
    NAMED_TWICE_UNDER = "named_twice_under"
    BATTLE_NOT_OVER = "battle_not_over"
    NO_SUCH_BATTLE = "no_such_battle", "number", "battles"
    MATCH_OVER = "match_over"
    MATCH_INCOMPLETE = "match_incomplete", "recorded", "battles"
    TOO_MANY_BATTLES = "too_many_battles", "battles", "held"
    OPEN_TOP_CREW_PROTECTED = "open_top_crew_protected", "label", "figures"
    ONE_WEAPON = "one_weapon", "label", "figures"
    ONE_WEAPON_MODEL = "one_weapon_model", "label"
    FIRED_NO_MOVE = "fired_no_move", "label"
    WEAPON_VALUE_MISSING = "weapon_value_missing", "name", "weapon", "field", "source"
    TABLE_NO_TO_HIT = "table_no_to_hit", "weapon", "source"
    MAIN_GUN_HAS_HE = "main_gun_has_he", "name"
    FIGURES_LEFT_TO_ACTIVATE = "figures_left_to_activate", "label", "left", "count"
    GUN_AT_HARD = "gun_at_hard", "label"


# Each code's English, the one place it is written: the rules' message (`str(exc)`) and
# the catalogues' English (refusal_<code> in words/locale/companion.pot, extracted by
# `python3 run.py catalogues`) are both made from it.
ENGLISH: dict[TankRefusal, str] = english({
    TankRefusal.IMPOSSIBLE_CM: "a {quantity} of {cm} cm is not possible",
    TankRefusal.AP_AT_GUN: "AP is not effective against guns: fire HE or a machine gun",
    TankRefusal.AP_AT_SOFT_TARGET: (
        "{name} is a soft target: fire HE or a weapon of the Soft Targets Table at it"),
    TankRefusal.NO_RELOAD_ROLL: "{name} has no reload roll on its card",
    TankRefusal.NOTHING_TO_RELOAD_GUN_LOST: "{name} has lost its gun: there is nothing to reload",
    TankRefusal.NO_GUN_TO_RELOAD: "{name} has no gun to reload: its card says none",
    TankRefusal.NOT_YOUR_PIECE: "{label} is an {side} piece: it is the {playing} turn",
    TankRefusal.OUT_OF_FIGHT: "{label} is out of the fight",
    TankRefusal.OFF_MAP: "{label} is off the map",
    TankRefusal.OFF_MAP_PLACE_FIRST: "{label} is off the map: place it at its edge first",
    TankRefusal.PLACED_THIS_TURN: (
        "{label} was placed this turn: it is not active until a later turn"),
    TankRefusal.ALREADY_ACTIVATED: "{label} has already been activated this turn",
    TankRefusal.END_ACTIVATION_FIRST: "end the activation of {labels} first",
    TankRefusal.ACTIVATIONS_USED: (
        "{side} has had its activation and its extra activation: end the turn"),
    TankRefusal.FIRED_NO_EXTRA: (
        "{side} has had its activation (it fired, so no extra activation): end the turn"),
    TankRefusal.PICK_PIECES: "pick 1 to {most} pieces to activate",
    TankRefusal.PICKED_TWICE: "{label} is picked twice",
    TankRefusal.ONE_MODEL: (
        "only one model (vehicle or gun) may be activated at a time: {labels:and} are both "
        "models"),
    TankRefusal.TOO_MANY_PIECES: (
        "an activation holds at most {most} figures and models, a squad counting its figures: "
        "{counted} make {size}"),
    TankRefusal.NO_ACTIVATION: "no activation is open",
    TankRefusal.NO_ACTIVATION_FOR: "no activation is open: activate {label} first",
    TankRefusal.NOT_IN_ACTIVATION: "{label} is not in this activation ({labels})",
    TankRefusal.LEFT_MAP: "{label} has left the map",
    TankRefusal.ALREADY_DONE: (
        "{label} has already {action} in this activation: each piece does each action once"),
    TankRefusal.COMMANDER_LOST: (
        "{label} has lost its commander: it may only move off a friendly edge"),
    TankRefusal.IMMOBILIZED: "{label} is immobilized: it cannot move",
    TankRefusal.RELOADING_NO_MOVE_OR_FIRE: (
        "{label} reloaded in this activation: a reloading piece neither moves nor fires"),
    TankRefusal.EXTRA_NO_FIRE: "{label} is in the extra activation: its pieces may not fire",
    TankRefusal.MOVED_NO_FIRE: (
        "{label} has moved in this activation: only pieces that have not moved may fire"),
    TankRefusal.HIDE_ONLY_FIGURES: (
        "{label} cannot hide now: only figures hide in play; a vehicle or gun may only start "
        "hidden at set-up, in cover"),
    TankRefusal.MOVED_NO_HIDE: (
        "{label} has moved in this activation: only figures that have not moved may hide"),
    TankRefusal.COVER_ONLY_FIGURES: "{label} is a {kind}: only figures take cover",
    TankRefusal.MOVED_NO_COVER: (
        "{label} has moved in this activation: only figures that have not moved may take cover"),
    TankRefusal.SQUAD_NO_RELOAD: "{label} is a squad of figures: only a vehicle or gun reloads",
    TankRefusal.ACTED_NO_RELOAD: (
        "{label} has {action} in this activation: only a vehicle or gun that has not moved or "
        "fired may reload"),
    TankRefusal.LOADED: "{label} is loaded: there is nothing to reload",
    TankRefusal.COMMANDER_NOT_ACTIVE: (
        "{label} is not active: its commander moves in its activation"),
    TankRefusal.NO_COMMANDER_TO_PUT_OUT: (
        "{label} has no commander to put out: only a closed vehicle's commander sits out in the "
        "turret (an open-top's crew are figures)"),
    TankRefusal.NO_COMMANDER_ON_MAP: "{label} has no commander on the map",
    TankRefusal.HAS_COMMANDER: (
        "{label} has its commander: only a vehicle whose commander was killed leaves the map"),
    TankRefusal.IMMOBILIZED_CANNOT_LEAVE: "{label} is immobilized: it cannot move off the map",
    TankRefusal.NOT_OFF_MAP: "{label} is not off the map",
    TankRefusal.COMMANDER_COMES_BACK: (
        "{label} is replacing its commander: it comes back at the end of turn {turn}"),
    TankRefusal.COMMANDER_LEAVES_FIRST: (
        "{label} is replacing its commander: it comes back after it has left the map"),
    TankRefusal.VEHICLE_PLACED_ALONE: "{label} is a vehicle: it is placed on its own",
    TankRefusal.VEHICLES_PLACED: (
        "{side} has placed {most} vehicles this turn: at most {most} a turn"),
    TankRefusal.GUN_TOWED: "{label} is a gun: it comes on towed by a vehicle placed this turn",
    TankRefusal.NOT_A_CARRIER: (
        "{label} is not a vehicle placed this turn: figures ride and guns are towed only with a "
        "vehicle placed this turn"),
    TankRefusal.GUN_FIRED: (
        "{label} has fired its main gun in this activation: each weapon fires once in an "
        "activation"),
    TankRefusal.WEAPON_FIRED: (
        "{label} has fired its {weapon} {figures:time|times} in this activation: each weapon "
        "fires once, a squad's once a figure"),
    TankRefusal.GRENADE_THROWN: (
        "{label} has thrown {figures:grenade|grenades} in this activation, one a figure: "
        "figures armed with hand grenades can throw one per activation"),
    TankRefusal.NOTHING_TO_FIRE: "{label} has no weapon it can fire now",
    TankRefusal.RIDE_ONLY_FIGURES: (
        "{label} is not a squad of figures: only figures ride on vehicles"),
    TankRefusal.ALREADY_RIDING: "{label} already rides {vehicle}: it gets off first",
    TankRefusal.NOT_A_RIDE: (
        "{label} cannot ride {vehicle}: figures ride only a vehicle of their side on the map, "
        "not destroyed"),
    TankRefusal.NOT_RIDING: "{label} is not riding a vehicle: there is nothing to get off",
    TankRefusal.CARRIED_NO_FIRE: (
        "{label} rode along as {vehicle} moved in this activation: only pieces that have not "
        "moved may fire"),
    TankRefusal.RIDER_NO_HIDE_OR_COVER: (
        "{label} rides {vehicle}: a rider neither hides nor takes cover; it gets off first"),
    TankRefusal.MEASURE_WITH_TAPE: (
        "{cm} cm is too close to {limit} cm to call: measure with the tape and enter the "
        "distance"),
    TankRefusal.ALREADY_HIDDEN: "{label} is already hidden",
    TankRefusal.NO_COVER: (
        "{label} cannot hide here: there is no cover (decided when the map was set up)"),
    TankRefusal.ENEMY_NEAR: (
        "{label} cannot hide: the nearest enemy figure is not more than {limit} cm away ({cm} "
        "cm)"),
    TankRefusal.ENEMY_NEAR_CALLED: (
        "{label} cannot hide: the nearest enemy figure is not more than {limit} cm away (the "
        "players' call)"),
    TankRefusal.SAME_SIDE_SPOTS: (
        "{label} and {hidden} are on the same side: only an enemy spots a hidden piece"),
    TankRefusal.NOT_HIDDEN: "{label} is not hidden: there is nothing to spot",
    TankRefusal.NO_READINGS: "no valid readings to measure from",
    TankRefusal.OFFSET_BELOW_ZERO: (
        "the offset of {cm} cm makes a reading below 0 cm: check the sensor's offset_cm"),
    TankRefusal.UNKNOWN_COMPARISON: "unknown comparison '{comparison}': over, within or at_least",
    TankRefusal.UNKNOWN_QUESTION: "unknown distance question '{question}': {choices}",
    TankRefusal.NOT_FIRE_RANGE: "'{question}' is not the fire range question: no to-hit modifier",
    TankRefusal.RANGE_TOO_CLOSE: (
        "range {cm} cm is too close to {limit} cm to call: measure with a tape and answer over "
        "{limit} cm yes or no"),
    TankRefusal.NO_HE: "{name} has no HE: its card says none",
    TankRefusal.NO_TARGET: "pick at least one target",
    TankRefusal.ONE_TARGET_ONLY: (
        "a {weapon} fires at one figure or vehicle: only template weapons attack several"),
    TankRefusal.FIRER_OUT: "{label} is out of the fight and cannot fire",
    TankRefusal.NO_FIGURE_TO_FIRE: "{label} has no figure left to fire",
    TankRefusal.ALREADY_OUT: "{label} is already out of the fight",
    TankRefusal.HIDDEN_TARGET: "{label} is hidden: it cannot be fired at",
    TankRefusal.FIGURES_TO_ATTACK: (
        "{label} has {figures:figure|figures}: attack 1 to {figures} of them"),
    TankRefusal.CREW_INSIDE: (
        "{label}'s crew is inside: attack the vehicle (only a commander sitting out in the "
        "turret is a figure to fire at)"),
    TankRefusal.ONE_COMMANDER: "{label} has one figure outside, its commander: attack 1",
    TankRefusal.CREW_INSIDE_SOFT: (
        "{label}'s crew is inside: attack the vehicle (figures riding on it are squads of their "
        "own)"),
    TankRefusal.CREW_LEFT: "{label} has {figures:crew figure|crew figures} left",
    TankRefusal.GUN_NEEDS_TEMPLATE: (
        "a gun is hit only by HE or a machine gun's template (AP is not effective against "
        "guns): aim at one of its crew"),
    TankRefusal.HARD_TARGET: "{label} is a hard target: {weapon} fire cannot harm it",
    TankRefusal.CREW_IN_HARD_COVER: "{label}'s crew is in hard cover: only HE or grenades reach it",
    TankRefusal.COAXIAL_LOST: (
        "{label} has lost its gun, and its turret machine gun ({weapon}, coaxial) with it"),
    TankRefusal.EXTERNAL_NEEDS_COMMANDER: (
        "{label}'s {weapon} is on the turret: only its commander sitting out in the turret "
        "fires it (put him out first)"),
    TankRefusal.RIDERS_IN_HARD_COVER: (
        "{label} rides in {vehicle}, an open-top vehicle: in hard cover like its crew, only HE "
        "or grenades reach it"),
    TankRefusal.TABLE_NO_ROW: (
        "the Soft Targets Table{source} has no row for {weapon:key}: add it from your printed "
        "table"),
    TankRefusal.TABLE_NO_RANGE: (
        "the Soft Targets Table{source} has no {weapon:key} value for {cm} cm (it has {bands}): "
        "add it from your printed table"),
    TankRefusal.TABLE_NO_RANGES: (
        "the Soft Targets Table{source} has no {weapon:key} value for {cm} cm (it has no "
        "ranges): add it from your printed table"),
    TankRefusal.TABLE_NO_TEMPLATE: (
        "the Soft Targets Table{source} has no template modifier for {weapon:key}: add it from "
        "your printed table"),
    TankRefusal.TABLE_NO_SITUATION: (
        "the Soft Targets Table{source} has no value for a target {situation}: add it from your "
        "printed table"),
    TankRefusal.RANGE_NEEDED: "a {weapon} shot needs the range in cm for the Soft Targets Table",
    TankRefusal.UNKNOWN_SITUATION: "unknown situation '{situation}': allowed are {choices}",
    TankRefusal.BAND_BACKWARDS: "the band {low}-{high} cm ends before it starts",
    TankRefusal.BAND_OVERLAP: (
        "{weapon:key} already has {span}: a band from {low} to {high} cm would overlap it"),
    TankRefusal.BAND_MISSES_RANGE: "the band {low}-{high} cm does not hold the shot's {cm} cm",
    TankRefusal.NOT_A_TANK: (
        "{label} is not a tank: only a hard or open-top vehicle runs over figures and guns"),
    TankRefusal.OWN_SIDE_UNDER: (
        "{label} is on the tank's own side: a tank does not run over its own pieces"),
    TankRefusal.VEHICLE_BLOCKS: "{label} is a vehicle: other vehicles block a tank's move",
    TankRefusal.RIDER_BLOCKS: (
        "{label} rides {vehicle}: the vehicle under it blocks the tank's move"),
    TankRefusal.HARD_COVER_BLOCKS: "{label} is in hard cover: hard cover blocks the tank's move",
    TankRefusal.GUN_RUN_OVER_WHOLE: "{label} is a gun: it is run over whole, with its crew",
    TankRefusal.TOO_MANY_UNDER: (
        "{label} has {left:figure|figures} left: {count} cannot be under the tank"),
    TankRefusal.RUNS_OVER_NOTHING: "{label} runs over nothing: name the pieces under it",
    TankRefusal.NAMED_TWICE_UNDER: (
        "a piece is named twice under the tank: give each piece once, with its number of figures"),
    TankRefusal.BATTLE_NOT_OVER: (
        "the battle is not over: both sides have pieces left and neither gave up"),
    TankRefusal.NO_SUCH_BATTLE: "a match has battles 1 and {battles}, not {number}",
    TankRefusal.MATCH_OVER: "the match is over: both battles are recorded",
    TankRefusal.MATCH_INCOMPLETE: "the match needs both battles: {recorded} of {battles} recorded",
    TankRefusal.TOO_MANY_BATTLES: "a match has {battles} battles, the record holds {held}",
    TankRefusal.OPEN_TOP_CREW_PROTECTED: (
        "{label}: only the {figures:figure|figures} at its gun can be hit, the other crew are "
        "protected as a tank's crew"),
    TankRefusal.ONE_WEAPON: (
        "{label} has fired: one weapon a {figures:figure|figures} in an activation (house rule)"),
    TankRefusal.ONE_WEAPON_MODEL: (
        "{label} has fired: a vehicle or gun fires one weapon in an activation (house rule)"),
    TankRefusal.FIRED_NO_MOVE: "{label} has fired: it may not move now (house rule)",
    TankRefusal.WEAPON_VALUE_MISSING: (
        "card {name}{source} has no value for its {weapon}'s {field:key} ({field}): add it "
        "from the printed card"),
    TankRefusal.TABLE_NO_TO_HIT: (
        "the Infantry Weapon Table{source} has no To hit for {weapon:key}: add it from your "
        "printed table"),
    TankRefusal.MAIN_GUN_HAS_HE: (
        "{name}'s main gun has HE: it fires HE at figures, guns and soft vehicles"),
    TankRefusal.FIGURES_LEFT_TO_ACTIVATE: (
        "{label} has {left:figure|figures} left to activate this turn: {count} cannot go"),
    TankRefusal.GUN_AT_HARD: (
        "{label} is a hard target: the main gun fires AP at it, as at any tank"),
})
