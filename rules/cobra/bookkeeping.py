"""The campaign's bookkeeping on a game in play (rules/cobra/campaign.py has the counts and the
reminders): each count kept in the game's ledger for its game turn, refused in a phase it does
not belong to or beyond what the turn allows, with the rule's reason."""
from __future__ import annotations

from dataclasses import replace

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..errors import RulesError
from .campaign import DELAY_UNITS, MOVEMENT, delay_turn, rail_capacity, reminders
from .combat import Nation
from .notes import Note, Why
from .turns import CobraGame, scenario


def landing(game: CobraGame) -> bool:
    """The campaign's rules hold: the Campaign Game and the Battle of the Build-Up (17.4a)."""
    return scenario(game.scenario).landing


def phase_counts(game: CobraGame) -> tuple[Note, ...]:
    """The counts this phase keeps: its delay unit, its rail, Cherbourg's attack."""
    counts = [delay_note(game)] if delay_offered(game) else []
    if rail_offered(game):
        counts.append(rail_note(game))
    if (cherbourg := cherbourg_note(game)) is not None:
        counts.append(cherbourg)
    return tuple(counts)


def phase_reminders(game: CobraGame) -> tuple[Note, ...]:
    """The rules to remember in this phase of this game turn (17.3.3a, 17.3.3d, 17.3.9,
    17.3.11g, 13.2e)."""
    return reminders(landing(game), game.turn, game.phase.player, game.phase.name)


# ---- the German delay units (17.3.11) ----

def delay_offered(game: CobraGame) -> bool:
    """The German Initial Movement Phase of GT 2 to 7, where a delay unit appears."""
    return german_phase(game, "initial_movement") and delay_turn(game.turn, landing(game))


def delay_note(game: CobraGame) -> Note:
    return Note(Why.DELAY_APPEARS, {"placed": len(game.ledger.delays), "most": DELAY_UNITS})


def place_delay(game: CobraGame) -> CobraGame:
    if not german_phase(game, "initial_movement"):
        raise RulesError(CobraRefusal.DELAY_PHASE)
    return replace(game, ledger=game.ledger.place_delay(game.turn, landing(game)))


# ---- rail movement (17.3.12) ----

def rail_offered(game: CobraGame) -> bool:
    """The German Movement Phases of GT 2 to 4 (17.3.12a)."""
    return german_phase(game, *MOVEMENT) and rail_capacity(game.turn, landing(game)) > 0


def rail_note(game: CobraGame) -> Note:
    why = Why.RAIL_MECH_ONLY if mechanized_only(game) else Why.RAIL_LEFT
    return Note(why, {"left": rail_left(game), "most": rail_most(game), "turn": game.turn})


def rail_most(game: CobraGame) -> int:
    return rail_capacity(game.turn, landing(game))


def rail_left(game: CobraGame) -> int:
    return game.ledger.rail_left(game.turn, landing(game))


def rail(game: CobraGame, mechanized: bool) -> CobraGame:
    """One German unit railed in this phase, if this game turn's capacity has room."""
    if not german_phase(game, *MOVEMENT):
        raise RulesError(CobraRefusal.RAIL_PHASE)
    if mechanized_only(game) and not mechanized:
        raise RulesError(CobraRefusal.RAIL_FOOT_MECHANIZED_PHASE)
    return replace(game, ledger=game.ledger.rail(game.turn, landing(game), mechanized))


def mechanized_only(game: CobraGame) -> bool:
    """The German Mechanized Movement Phase: "The German player may move any or all of his
    panzer, panzergrenadier or headquarters units ... No other units may be moved during this
    phase" (4.0 G5a, b), by rail too; an HQ is mechanized (5.2a, b) and counts two."""
    return german_phase(game, "mechanized_movement")


def unrail(game: CobraGame) -> CobraGame:
    return replace(game, ledger=game.ledger.unrail(game.turn))


# ---- Cherbourg's one supplied attack a game turn (17.3.5g) ----

def cherbourg_offered(game: CobraGame, attacker: Nation) -> bool:
    """A German attack of the campaign or the Build-Up may be Cherbourg's."""
    return attacker is Nation.GERMAN and landing(game)


def cherbourg_note(game: CobraGame) -> Note | None:
    """The German Combat Phase of the campaign and the Build-Up: Cherbourg's one attack."""
    if german_phase(game, "combat") and landing(game):
        return Note(Why.CHERBOURG_ONE)
    return None


def check_cherbourg(game: CobraGame) -> None:
    game.ledger.check_cherbourg(game.turn, landing(game))


def supply_from_cherbourg(game: CobraGame) -> CobraGame:
    return replace(game, ledger=game.ledger.supply_from_cherbourg(game.turn, landing(game)))


def german_phase(game: CobraGame, *names: str) -> bool:
    return game.phase.player is Nation.GERMAN and game.phase.name in names
