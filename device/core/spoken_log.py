"""What the box says of the battle log's lines (the catalogues' "log_..." keys have them all): the
outcomes a player listens for — a hit and what it did, a miss, figures down, a reload, who goes
first, a piece spotted, and Cobra's results: the combat table's cell in words, the weather, the
special rolls, the landing (attrition, the beach defence die, where scattered paratroops
drift), victory points. Moves, settings and house rules are not said.

A line whose outcome the frames that show it say (a shot's steps, a roll-off's result: logged
under `App.frames_say`) is not said as it is logged; nor is the winner of a battle, which game
over's big word says as it is drawn.

A line that only wraps another (one side's action, a Cobra game turn, an attack's costs) is said
as the line inside it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cobi_companion.device.core.battle_log import LogEntry, LogValue
from cobi_companion.device.core.saying import Spoken, outcome
from cobi_companion.rules.status import Effect

if TYPE_CHECKING:       # Cobra's tables: imported once a Cobra result is said
    from cobi_companion.rules.cobra.tables import Loss

# Lines that hold the line that is said (as `line`), with their costs or context around it.
WRAPPERS = frozenset({"log_side", "log_game_turn", "log_paid", "log_unsupplied", "log_support",
                      "log_hqs", "log_replacement_vp"})

# A shot's effect on the piece hit, by the rules' Effect.
EFFECTS: dict[str, str] = {Effect.DESTROYED.value: "say_destroyed",
                           Effect.WEAKENED.value: "say_weakened",
                           Effect.IMMOBILIZED.value: "say_immobilized",
                           Effect.GUN_DESTROYED.value: "say_gun_destroyed",
                           Effect.NONE.value: "say_no_effect"}

# Results the log keeps as a line of their own key: what is said of each.
RESULTS: dict[str, str] = {
    "one_more_turn": "say_one_more_turn", "game_ends": "say_game_ends",
    "STEP_LOST": "say_air_attack_lost", "NO_LOSS": "say_air_attack_safe",
    "log_held": "say_beach_held", "log_abandoned": "say_beach_abandoned",
    "log_mutiny": "say_mutiny", "log_no_mutiny": "say_no_mutiny",
    "log_released": "say_released", "log_released_hq": "say_released",
    "log_fj_released": "say_released", "log_not_released": "say_not_released",
    "read_crt": "say_read_table",
}


def said_of(line: LogEntry) -> Spoken | None:
    """What is said of `line`, or None: it is no outcome."""
    if line.key in WRAPPERS:
        inner = line.values["line"]
        return said_of(inner) if isinstance(inner, LogEntry) else None
    if line.key == "log_won":
        return _won(line)
    saying = SAYINGS.get(line.key)
    return saying(line) if saying is not None else None


def _won(line: LogEntry) -> Spoken | None:
    """The battle's last action: the winner is said by the frame that shows it (game over's
    big word, games/battle.py), once it is drawn, after the action's own outcome."""
    inner = line.values["line"]
    return said_of(inner) if isinstance(inner, LogEntry) else None


def _text(line: LogEntry, name: str) -> str:
    return str(line.values[name])


def _whole(line: LogEntry, name: str) -> int:
    value = line.values[name]
    return value if isinstance(value, int) else int(str(value))


def _fires_at(line: LogEntry) -> Spoken:
    said = _shot(line)
    if line.values.get("reload") != "unloaded":
        return said
    # the Tank Game's reload roll after the shot failed: it cannot fire until it reloads
    return outcome("say_and", first=said,
                   then=outcome("say_must_reload", label=_text(line, "firer")))


def _shot(line: LogEntry) -> Spoken:
    firer, effect = _text(line, "firer"), _text(line, "effect")
    if effect == Effect.MISS.value:
        return outcome("say_miss", firer=firer)
    said = EFFECTS.get(effect)
    if said is None:
        return outcome("say_hit", firer=firer)
    return outcome("say_hit_effect", firer=firer,
                   effect=outcome(said, target=_text(line, "target")))


def _down(line: LogEntry) -> Spoken:
    said = outcome("say_down", firer=_text(line, "firer"), down=_whole(line, "down"),
                   of=_whole(line, "of"))
    return _with_guns(said, line)


def _runs_over(line: LogEntry) -> Spoken:
    said = outcome("say_runs_over", tank=_text(line, "tank"), down=_whole(line, "eliminated"))
    return _with_guns(said, line)


def _with_guns(said: Spoken, line: LogEntry) -> Spoken:
    if "guns" not in line.values:
        return said
    return outcome("say_and", first=said, then=outcome("say_guns_destroyed",
                                                       guns=_whole(line, "guns")))


def combat_result(value: LogValue) -> Spoken:
    """A combat table's cell ("1/2", "-/e", "e") in words: each side's loss; a cell the box
    could not read (the owner reads it on the printed table) says so."""
    from cobi_companion.rules.cobra.tables import parse_cell

    if isinstance(value, str) and value:
        cell = parse_cell(value)
        return outcome("say_crt", attacker=_loss(cell.attacker), defender=_loss(cell.defender))
    return outcome("say_read_table")


def _loss(loss: Loss) -> Spoken:
    if loss.eliminated:
        return outcome("say_loss_all")
    if loss.steps:
        return outcome("say_loss_steps", steps=loss.steps)
    return outcome("say_loss_none")


def _result(line: LogEntry, name: str = "result") -> Spoken:
    """A result the log keeps as a line of its own (one more turn, held, no mutiny...)."""
    value = line.values[name]
    key = value.key if isinstance(value, LogEntry) else str(value)
    return outcome(RESULTS[key])


def _defender_part(line: LogEntry) -> Spoken:
    """A result that logs the defender's part of the cell alone ("2", "e", "-"), or none
    read: carpet bombing, the withdrawal attack."""
    from cobi_companion.rules.cobra.tables import Loss

    value = line.values["result"]
    if isinstance(value, str) and value:
        return outcome("say_defender", loss=_loss(Loss(
            text=value, eliminated=value == "e", steps=int(value) if value.isdigit() else 0)))
    return outcome("say_read_table")


def _carpet(line: LogEntry) -> Spoken:
    return outcome("say_carpet", result=_defender_part(line))


def _vp(line: LogEntry) -> Spoken | None:
    vp = _whole(line, "vp")
    if vp == 0:                      # an exit recorded for no VP (a fifth US division)
        return None
    side = "german" if _text(line, "track") == "german_vp" else "allied"
    if abs(vp) == 1:                 # "one victory point", not "one victory points"
        return outcome("say_vp_gained_one" if vp > 0 else "say_vp_lost_one", side=side)
    return outcome("say_vp_gained" if vp > 0 else "say_vp_lost", side=side, vp=abs(vp))


def _attrition(line: LogEntry) -> Spoken:
    """Cobra's landing attrition: the defender's part of the cell, or none read."""
    from cobi_companion.rules.cobra.tables import Loss

    value = line.values["result"]
    if not (isinstance(value, str) and value):
        return outcome("say_read_table")
    return outcome("say_attrition", loss=_loss(Loss(
        text=value, eliminated=value == "e", steps=int(value) if value.isdigit() else 0)))


def _direction(line: LogEntry) -> Spoken:
    """The direction die of scattered paratroops: the way they drift, or the diagram's."""
    where = line.values["where"]
    if isinstance(where, LogEntry) and where.key == "log_direction":
        return outcome("say_scatter_direction", direction=_text(where, "direction"))
    return outcome("say_scatter_diagram")


def _commit(line: LogEntry) -> Spoken:
    result = line.values["result"]
    may = isinstance(result, LogEntry) and result.key == "log_may_commit"
    return outcome("say_may_commit" if may else "say_no_commit")


def _combat(key: str) -> Callable[[LogEntry], Spoken]:
    # the die is on the panel; the ear wants what it did
    return lambda line: outcome(key, result=combat_result(line.values["result"]))


SAYINGS: dict[str, Callable[[LogEntry], Spoken | None]] = {
    "log_fires_at": _fires_at,
    "log_fires_weapon": _down,
    "log_fires_weapon_guns": _down,
    "log_fires_weapon_miss": lambda line: outcome("say_miss", firer=_text(line, "firer")),
    "log_runs_over": _runs_over,
    "log_runs_over_guns": _runs_over,
    "log_reloaded": lambda line: outcome("say_reloaded", label=_text(line, "label")),
    "log_reload_failed": lambda line: outcome("say_unloaded", label=_text(line, "label")),
    "log_initiative": lambda line: outcome("say_initiative", side=_text(line, "side")),
    "log_attacks": lambda line: outcome("say_attacks", attacker=_text(line, "attacker"),
                                        defender=_text(line, "defender")),
    "log_attack": _combat("say_attack"),
    "log_overrun": _combat("say_overrun"),
    "log_withdrawal": lambda line: outcome("say_withdrawal", result=_defender_part(line)),
    "log_carpet": _carpet,
    "log_weather": lambda line: outcome("say_weather", weather=_text(line, "weather")),
    "log_extension": _result,
    "log_air_attack": _result,
    "log_para_landed": lambda line: outcome("say_para_landed"),
    "log_para_scattered": lambda line: outcome("say_para_scattered"),
    "log_para_direction": _direction,
    "log_attrition": _attrition,
    "log_commit": _commit,
    "log_spotted_by": lambda line: outcome("say_spotted", target=_text(line, "label")),
    "log_spotted_by_commander": lambda line: outcome("say_spotted",
                                                     target=_text(line, "label")),
    "log_beach_check": lambda line: outcome("say_beach", lost=_whole(line, "lost"),
                                            landed=_whole(line, "landed"),
                                            result=_result(line)),
    "log_leclerc": _result,
    "log_release": _result,
    "log_brest": _result,
    "log_vp": _vp,
}
