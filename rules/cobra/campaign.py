"""The campaign's bookkeeping a family would otherwise keep on paper (17.3, 13.2e): what is
counted in a game turn (the German delay units, 17.3.11; the rail capacity, 17.3.12; the one
German attack Cherbourg supplies, 17.3.5g), kept in the game's `Ledger`, and the reminders of
the rules that hold in one phase on some game turns (17.3.3a, 17.3.3d, 17.3.9, 17.3.11g,
13.2e), as notes for the phase that they apply to.

The campaign's rules hold in the Battle of the Build-Up too (17.4a: "All stand rules and those
listed in the Campaign Scenario rules are in affect"): `landing` is True in both (the scenarios
with the Allied Landing Phase)."""
from __future__ import annotations

from dataclasses import dataclass, replace

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..errors import RulesError
from ..saved import Data
from .combat import Nation
from .notes import Note, Why

DELAY_FIRST, DELAY_LAST = 2, 7     # one a turn from GT 2 (17.3.11a), removed after GT 7 (g)
DELAY_UNITS = 6                    # "The six German delay units" (17.3.11)
RAIL = {2: 4, 3: 2, 4: 1}          # non-mechanized units railed on GT 2, 3 and 4 (17.3.12a)
MECHANIZED_RAIL = 2                # a mechanized unit is two non-mechanized (17.3.12b)
GT1_OTHER_UNITS = 7                # "up to seven other units" move on GT 1 (17.3.3d)
LANDING_HALF_MA_LAST = 14          # "From GT 1 through 14" units land with half MA (17.3.9)
PARATROOP_TURNS = 2                # no move on GT 1, one hex on GT 2 (17.3.3a)
MOVEMENT = ("initial_movement", "mechanized_movement")


@dataclass(frozen=True)
class Railed(Data):
    """One unit railed: in which game turn, and whether it was mechanized (17.3.12b)."""

    turn: int
    mechanized: bool = False

    @property
    def cost(self) -> int:
        return MECHANIZED_RAIL if self.mechanized else 1


@dataclass(frozen=True)
class Ledger(Data):
    """The campaign's counts, kept by game turn so a new turn starts with nothing used: the
    game turns a delay unit appeared in (17.3.11a), the units railed (17.3.12) and the game
    turns Cherbourg supplied a German attack in (17.3.5g). A game saved before they were kept
    reads them empty."""

    delays: tuple[int, ...] = ()
    railed: tuple[Railed, ...] = ()
    cherbourg: tuple[int, ...] = ()

    # ---- German delay units (17.3.11) ----

    def delay_placed(self, turn: int) -> bool:
        return turn in self.delays

    def place_delay(self, turn: int, landing: bool) -> Ledger:
        """This game turn's delay unit appears (17.3.11a: "Starting on GT 2, one delay unit
        appears each game turn during the German Initial Movement Phase")."""
        if not landing or not DELAY_FIRST <= turn <= DELAY_LAST:
            raise RulesError(CobraRefusal.DELAY_TURNS, turn=turn, first=DELAY_FIRST,
                             last=DELAY_LAST)
        if self.delay_placed(turn):
            raise RulesError(CobraRefusal.DELAY_ALREADY, turn=turn,
                             placed=len(self.delays), most=DELAY_UNITS)
        return replace(self, delays=(*self.delays, turn))

    # ---- rail movement (17.3.12) ----

    def rail_used(self, turn: int) -> int:
        return sum(r.cost for r in self.railed if r.turn == turn)

    def rail_left(self, turn: int, landing: bool) -> int:
        return max(0, rail_capacity(turn, landing) - self.rail_used(turn))

    def rail(self, turn: int, landing: bool, mechanized: bool) -> Ledger:
        """One German unit railed this game turn, if the turn's capacity has room for it
        (17.3.12a, b); refused with what is left and what it needs."""
        most = rail_capacity(turn, landing)
        if not most:
            raise RulesError(CobraRefusal.RAIL_TURNS, turn=turn)
        unit = Railed(turn, mechanized)
        left = self.rail_left(turn, landing)
        if unit.cost > left:
            raise RulesError(CobraRefusal.RAIL_CAPACITY, left=left, most=most, turn=turn,
                             need=unit.cost)
        return replace(self, railed=(*self.railed, unit))

    def unrail(self, turn: int) -> Ledger:
        """The last unit railed this game turn taken back (railed by mistake)."""
        at = max((i for i, r in enumerate(self.railed) if r.turn == turn), default=None)
        if at is None:
            return self
        return replace(self, railed=self.railed[:at] + self.railed[at + 1:])

    # ---- Cherbourg (17.3.5g) ----

    def cherbourg_used(self, turn: int) -> bool:
        return turn in self.cherbourg

    def check_cherbourg(self, turn: int, landing: bool) -> None:
        """Refuse a second German attack supplied by Cherbourg in one game turn (17.3.5g:
        "Cherbourg may supply one German attack per game turn once the peninsula has been cut
        off"), or one outside the scenarios with Cherbourg's garrison (17.3.5)."""
        if not landing:
            raise RulesError(CobraRefusal.CHERBOURG_CAMPAIGN)
        if self.cherbourg_used(turn):
            raise RulesError(CobraRefusal.CHERBOURG_USED, turn=turn)

    def supply_from_cherbourg(self, turn: int, landing: bool) -> Ledger:
        self.check_cherbourg(turn, landing)
        return replace(self, cherbourg=(*self.cherbourg, turn))


def rail_capacity(turn: int, landing: bool) -> int:
    """The non-mechanized units the German player may rail this game turn (17.3.12a); none
    after GT 4, none in Cobra and Alternate Cobra (a campaign rule)."""
    return RAIL.get(turn, 0) if landing else 0


def delay_turn(turn: int, landing: bool) -> bool:
    """A game turn a delay unit appears in (17.3.11a), until they are removed (17.3.11g)."""
    return landing and DELAY_FIRST <= turn <= DELAY_LAST


def reminders(landing: bool, turn: int, player: Nation, phase: str) -> tuple[Note, ...]:
    """The rules to remember in this phase of this game turn, in the order the phase meets
    them: none of them a count (those are the Ledger's)."""
    notes: list[Note] = []
    german = player is Nation.GERMAN
    if landing and phase in MOVEMENT and turn == 1 and german:
        notes.append(Note(Why.GT1_GERMAN_MOVES, {"most": GT1_OTHER_UNITS}))
    # 17.3.3a's one hex is the game turn's, and paratroops move only in the Initial Movement
    # Phase anyway (4.0 A5b: only mechanized and HQ units in the Mechanized one)
    if landing and phase == "initial_movement" and not german and turn <= PARATROOP_TURNS:
        paratroops = Why.PARAS_STAY if turn == 1 else Why.PARAS_ONE_HEX
        notes.append(Note(paratroops))
    if landing and phase in MOVEMENT and not german and turn <= LANDING_HALF_MA_LAST:
        notes.append(Note(Why.LAND_HALF_MA, {"last": LANDING_HALF_MA_LAST}))
    if in_column(landing, german, phase):
        notes.append(Note(Why.IN_COLUMN))
    if landing and phase == "turn_end" and turn == DELAY_LAST:
        notes.append(Note(Why.DELAYS_REMOVED, {"turn": DELAY_LAST}))
    return tuple(notes)


def in_column(landing: bool, german: bool, phase: str) -> bool:
    """Where reinforcements may enter by road (13.2e): the German ones in the Initial Movement
    Phase, where they are placed (4.0 G3a); the Allied ones in either Movement Phase (13.2c),
    but not in the landing scenarios, where they are placed on beach hexes (17.3.9)."""
    if german:
        return phase == "initial_movement"
    return not landing and phase in MOVEMENT
