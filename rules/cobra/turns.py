"""Cobra's turn record: scenarios, the sequence of play, the supply point tracks and the
victory point track (2.5, 4.0, 11.0, 16.0, 17.0)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Any

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..errors import RulesError, Value
from ..saved import Data
from .campaign import Ledger
from .combat import (
    CARPET_MISSIONS,
    Nation,
    Odds,
    carpet_odds,
    check_carpet_missions,
)
from .command import Command
from .exits import Exit
from .landing import Landing
from .notes import Note, Why
from .replacement_step import Replacement
from .scoresheet import Scoresheet
from .tables import Weather
from .weather import CARPET_FROM, GERMAN_SUPPLY, air_points, naval_points

GERMAN_SP_MAX = 12              # 11.0c
ATTACK_COST = {Nation.GERMAN: 2, Nation.ALLIED: 1}   # SP per supplied attack (11.0a, 11.0b)
VP_PER_LEVEL = 15               # 16.3.3
LEVELS = ("Decisive Allied", "Operational Allied", "Marginal Allied", "Draw",
          "Marginal German", "Operational German", "Decisive German")


@dataclass(frozen=True)
class Scenario:
    """A scenario of Cobra: its turns, supply points and set-up."""

    key: str
    title: str
    first: int
    last: int
    us_sp: int
    british_sp: int
    german_sp: int
    landing: bool             # the Allied Landing Phase before the German turn of GT 1
    may_extend: bool = False  # the campaign may go on to GT 28 (17.3a)

    @property
    def turns(self) -> int:
        return self.last - self.first + 1


SCENARIOS = {s.key: s for s in (
    Scenario("cobra", "Cobra", 15, 27, 3, 4, 4, landing=False),
    Scenario("alternate", "Alternate Cobra", 15, 27, 3, 4, 4, landing=False),
    Scenario("buildup", "Battle of the Build-Up", 1, 14, 0, 0, 6, landing=True),
    Scenario("campaign", "Campaign Game", 1, 27, 0, 0, 6, landing=True, may_extend=True),
)}

GERMAN_PHASES = ("weather", "replacement", "initial_movement", "combat", "mechanized_movement")
ALLIED_PHASES = ("supply", "replacement", "initial_movement", "combat", "mechanized_movement",
                 "turn_end")
LANDING = "landing"
PHASE_RULES = {"landing": "17.3.2", "weather": "4.0 G1, 5.3", "supply": "4.0 A1, 11.1",
               "replacement": "12.0", "initial_movement": "5.0", "combat": "8.0",
               "mechanized_movement": "5.2", "turn_end": "4.0 A6"}


def scenario(key: str) -> Scenario:
    try:
        return SCENARIOS[key]
    except KeyError:
        raise RulesError(CobraRefusal.UNKNOWN_SCENARIO, scenario=key,
                         choices=tuple(SCENARIOS)) from None


def check_carpet_turn(key: str, turn: int) -> None:
    """A carpet bombing on game turn `turn` of scenario `key`: one of its turns, and not its
    first, which has no turn before it to plan the mission in (14.3a)."""
    played = scenario(key)
    if not played.first <= turn <= played.last:
        raise RulesError(CobraRefusal.NOT_A_SCENARIO_TURN, scenario=played.key, turn=turn,
                         first=played.first, last=played.last)
    if turn == played.first:
        raise RulesError(CobraRefusal.CARPET_FIRST_TURN, scenario=played.key, turn=turn)


@dataclass(frozen=True)
class Tracks(Data):
    """The supply points and victory points on the game's tracks."""

    us: int = 0
    british: int = 0
    german: int = 0            # German attack supply points, at most 12
    german_vp: int = 0         # below zero once the German player has lost more than won
    allied_vp: int = 0

    @property
    def net_vp(self) -> int:
        """The Allied total minus the German, the number the level of victory is shifted by
        (16.3: "subtract the German total from the Allied total")."""
        return self.allied_vp - self.german_vp

# The tracks by name, in the order the game shows them: the fields of Tracks.
TRACKS = tuple(track.name for track in fields(Tracks))


@dataclass(frozen=True)
class Budget:
    """One kind of point of the game turn, as the tracks show it: what the turn gives, the
    most this phase may use, what is spent and what is left (14.0, 14.1a, 14.3f, 14.4).
    Carpet bombing counts missions: those of its period (GT 5-14, or 15 on) and those flown
    in it."""

    kind: str               # "air", "naval" or "carpet"
    given: int
    most: int
    used: int
    left: int
    rule: str

    def to_dict(self) -> dict[str, Value]:
        return {"kind": self.kind, "given": self.given, "most": self.most, "used": self.used,
                "left": self.left, "rule": self.rule}


def defence_air_points(given: int) -> int:
    """The most of the turn's `given` Allied AP used on defence: "up to one half" (14.1a),
    rounded up as every fraction is (2.6 "Fractional and decimal values are rounded up unless
    specified otherwise"): overcast 3 AP gives 2."""
    return math.ceil(given / 2)


def allied_receipt(printed: int, weather: Weather | None, first_storm: bool,
                   turn: int, landing: bool) -> tuple[int, Why]:
    """Supply points the Allies add this turn from the printed track (11.1), and why."""
    if landing and turn <= 2:
        return 0, Why.NO_SUPPLY_LANDING
    if weather == Weather.STORM and first_storm:
        return 0, Why.NO_SUPPLY_FIRST_STORM
    if weather == Weather.STORM:
        return math.ceil(printed / 2), Why.HALF_SUPPLY_STORM
    return printed, Why.SUPPLY_AS_PRINTED


@dataclass(frozen=True)
class Phase:
    """One phase of a turn: whose, and which."""

    player: Nation
    name: str

    @property
    def rule(self) -> str:
        return PHASE_RULES[self.name]


def player_turn(key: str, turn: int, player: Nation) -> list[Phase]:
    """The phases of one player turn: the Allied Landing Phase is in neither, it comes
    before the German player turn of GT 1 (17.3.2: "the German player turn on GT 1 is
    preceded by a unique Allied Landing Phase")."""
    return [p for p in sequence(key, turn) if p.player == player and p.name != LANDING]


def sequence(key: str, turn: int) -> tuple[Phase, ...]:
    """The phases of one game turn in order: the German player turn, then the Allied (4.0);
    the Allied Landing Phase first on game turn 1 of the longer scenarios (17.3.2)."""
    return _sequence(key, turn == 1)


@lru_cache(maxsize=16)
def _sequence(key: str, first_turn: bool) -> tuple[Phase, ...]:
    # made once: a game's phase is asked for by every row the hub offers, on every frame
    first = (Phase(Nation.ALLIED, LANDING),) if first_turn and scenario(key).landing else ()
    return first + tuple(Phase(Nation.GERMAN, p) for p in GERMAN_PHASES) + \
        tuple(Phase(Nation.ALLIED, p) for p in ALLIED_PHASES)


def extends(die: int) -> bool:
    """At the end of game turn 27 of the campaign: 4–6 plays one more turn (17.3a)."""
    return die >= 4


@dataclass(frozen=True)
class CobraGame:
    """Where a Cobra game stands: game turn, phase, each turn's weather and the tracks."""

    scenario: str
    turn: int
    step: int = 0                          # index into sequence(scenario, turn)
    weather: tuple[Weather, ...] = ()      # each game turn's weather so far, oldest first
    tracks: Tracks = field(default_factory=Tracks)
    last: int = 0                          # the last game turn (28 once the campaign extends)
    over: bool = False
    extension_die: int | None = None
    air_used: int = 0                      # Allied air points spent this game turn (14.0)
    naval_used: int = 0                    # naval support points spent this game turn (14.4)
    carpets: tuple[int, ...] = ()          # the game turns of the carpet missions flown
    exits: tuple[Exit, ...] = ()           # Allied units exited off a map edge, oldest first
    command: Command = field(default_factory=Command)   # the HQs, the command limits (11.3)
    scoresheet: Scoresheet = field(default_factory=Scoresheet)   # VP reported, special rolls
    replacements: tuple[Replacement, ...] = ()   # the replacement steps taken (12.0), oldest first
    landing: Landing = field(default_factory=Landing)   # the Allied Landing Phase (17.3.2)
    ledger: Ledger = field(default_factory=Ledger)   # delay units, rail, Cherbourg (17.3)
    carpet_plan: int | None = None         # the game turn a planned carpet bombing is for (14.3a)
    carpet_cancelled: int | None = None    # the game turn a planned mission was cancelled (14.3c)
    automatic: bool = False                # ended by the automatic German victory (17.3.13)
    attacked: int | None = None            # the game turn of the last Allied attack (14.3d)

    @classmethod
    def start(cls, key: str) -> CobraGame:
        s = scenario(key)
        return cls(s.key, s.first, 0, (), Tracks(s.us_sp, s.british_sp, s.german_sp), s.last)

    @property
    def phase(self) -> Phase:
        return sequence(self.scenario, self.turn)[self.step]

    @property
    def first_turn(self) -> int:
        return scenario(self.scenario).first

    @property
    def allied_supply_free(self) -> bool:
        """The Allies need no supply points to attack on game turns 1 and 2 (17.3e)."""
        return self.turn <= 2 and self.first_turn == 1

    @property
    def this_weather(self) -> Weather | None:
        played = self.turn - self.first_turn
        return self.weather[played] if len(self.weather) > played else None

    def history(self) -> list[Weather]:
        """The weather of the turns before this one, oldest first."""
        return list(self.weather[: self.turn - self.first_turn])

    @property
    def needs_extension_roll(self) -> bool:
        s = scenario(self.scenario)
        return s.may_extend and self.turn == s.last and self.phase.name == "turn_end" and \
            self.extension_die is None

    def advance(self, extension_die: int | None = None) -> CobraGame:
        """The next phase; after the last phase of the last game turn the game is over."""
        if self.over:
            raise RulesError(CobraRefusal.GAME_OVER)
        if self.phase.name == "weather" and self.this_weather is None:
            raise RulesError(CobraRefusal.WEATHER_FIRST)
        return self._reactivated(self._next(extension_die))

    def _reactivated(self, game: CobraGame) -> CobraGame:
        """Every friendly Replacement Phase flips the phasing player's HQs back to their
        active side (8.3.3 Important, 9.1a)."""
        if game.over or game.phase.name != "replacement":
            return game
        return replace(game, command=game.command.reactivate(game.phase.player))

    def _next(self, extension_die: int | None) -> CobraGame:
        if self.step + 1 < len(sequence(self.scenario, self.turn)):
            return replace(self, step=self.step + 1)
        if self.needs_extension_roll:
            if extension_die is None:
                raise RulesError(CobraRefusal.EXTENSION_ROLL_NEEDED)
            if not extends(extension_die):
                return replace(self, extension_die=extension_die, over=True)
            return replace(self, turn=self.turn + 1, step=0, last=self.last + 1,
                           extension_die=extension_die, air_used=0, naval_used=0)
        if self.turn >= self.last:
            return replace(self, over=True)
        # air and naval points are not saved from turn to turn (14.1b, 14.4)
        return replace(self, turn=self.turn + 1, step=0, air_used=0, naval_used=0)

    @property
    def air_left(self) -> int:
        """The Allied air points left for this phase: the turn's (14.0, 17.3.10), at most half
        of them in the German Combat Phase, where they are "expended and may not be used
        during the Allied Combat Phase" (14.1a)."""
        points = air_points(self.this_weather, self.turn)
        if self.phase.player is Nation.GERMAN:
            points = defence_air_points(points)
        return max(0, points - self.air_used)

    @property
    def naval_left(self) -> int:
        """The naval support points left this game turn, one at most in storms (14.4)."""
        return max(0, naval_points(self.turn, self.this_weather) - self.naval_used)

    def budgets(self) -> tuple[Budget, ...]:
        """The air points, the naval support points and the carpet bombing missions: given,
        usable in this phase, spent and left (14.0, 14.1a, 14.3f, 14.4, 17.3.10)."""
        given = air_points(self.this_weather, self.turn)
        most = defence_air_points(given) if self.phase.player is Nation.GERMAN else given
        air = Budget("air", given, most, self.air_used, self.air_left,
                     "14.1a" if most < given else "17.3.10" if self.turn == 1 else "14.0")
        naval = Budget("naval", naval_points(self.turn), naval_points(self.turn,
                                                                      self.this_weather),
                       self.naval_used, self.naval_left, "14.4")
        allowed, flown = next(((n, sum(1 for t in self.carpets if first <= t <= last))
                               for first, last, n in CARPET_MISSIONS
                               if first <= self.turn <= last), (0, 0))
        # the missions left of the period, this turn's or later (14.3f): one flown this turn
        # leaves the period's others to come, it does not leave none
        carpet = Budget("carpet", allowed, allowed, flown, max(0, allowed - flown), "14.3f")
        return air, naval, carpet

    @property
    def carpet_flown_now(self) -> bool:
        """A carpet bombing was flown this game turn: the other three AP may not be used on
        its front (14.3e)."""
        return self.turn in self.carpets

    @property
    def carpet_planned_now(self) -> bool:
        """This game turn's carpet bombing was planned in the turn before (14.3a, 14.3d)."""
        return self.carpet_plan == self.turn

    @property
    def allied_attacked_now(self) -> bool:
        """An Allied attack was made this game turn, so in this Allied Combat Phase: its
        planned carpet bombing is too late, "before any other attacks" (14.3, 14.3d). A game
        saved before `attacked` was kept tells by its command limits' counts (11.3)."""
        made = self.command.on(self.turn).made
        return self.attacked == self.turn or any(tally.attacks for tally in made)

    @property
    def carpet_plannable(self) -> bool:
        """The next game turn may fly a carpet bombing (14.3f) and is one of this game's: the
        one turn test of plan_carpet and of the box's row."""
        return CARPET_FROM <= self.turn + 1 <= self.last

    def plan_carpet(self) -> CobraGame:
        """The target hex of next game turn's carpet bombing written down, at the start of the
        Allied Combat Phase (14.3a); not in the phase a mission was cancelled (14.3c), and
        only for a turn that may fly one (14.3f)."""
        if self.phase != Phase(Nation.ALLIED, "combat"):
            raise RulesError(CobraRefusal.CARPET_PLAN_PHASE)
        if self.carpet_cancelled == self.turn:
            raise RulesError(CobraRefusal.CARPET_CANCELLED_WAIT)
        if self.carpet_planned_now:         # one plan kept: this turn's is decided first
            raise RulesError(CobraRefusal.CARPET_DECIDE_FIRST)
        following = self.turn + 1
        if self.carpet_plan == following:
            raise RulesError(CobraRefusal.CARPET_PLANNED_ALREADY, turn=following)
        if not self.carpet_plannable:
            if following < CARPET_FROM:
                raise RulesError(CobraRefusal.CARPET_TOO_EARLY, first=CARPET_FROM)
            raise RulesError(CobraRefusal.NOT_A_SCENARIO_TURN, scenario=self.scenario,
                             turn=following, first=self.first_turn, last=self.last)
        check_carpet_missions(following, self.carpets)
        return replace(self, carpet_plan=following)

    def cancel_carpet(self) -> CobraGame:
        """This turn's planned mission cancelled (14.3c): the next is planned no sooner than
        the next Allied Combat Phase."""
        if not self.carpet_planned_now:
            raise RulesError(CobraRefusal.CARPET_NONE_TO_CANCEL)
        return replace(self, carpet_plan=None, carpet_cancelled=self.turn)

    def beaches_lost(self) -> CobraGame:
        """No beach hex friendly to the Allied player at the beginning of an Allied player
        turn: the game ends, a decisive German victory (17.3.13, 17.4.3). Told in any phase
        of that player turn: the players may see it, or say it, after its first phase."""
        if not scenario(self.scenario).landing:
            raise RulesError(CobraRefusal.NO_LANDING_SCENARIO, scenario=self.scenario)
        if self.phase.player is not Nation.ALLIED or self.phase.name not in ALLIED_PHASES:
            raise RulesError(CobraRefusal.AUTOMATIC_VICTORY_WHEN)
        return replace(self, over=True, automatic=True)

    def check_support(self, planned: Odds) -> None:
        """Refuse an attack whose air or naval points this turn has not left, or a carpet
        bombing the turn does not allow (14.0, 14.1a, 14.3, 14.4, 17.3.10)."""
        if planned.carpet:      # the turn, its weather, the missions flown and the plan (14.3)
            carpet_odds(turn=self.turn, weather=self.this_weather, flown=self.carpets,
                        planned=self.carpet_planned_now, after_attacks=self.allied_attacked_now)
        if planned.air_points > self.air_left:
            raise RulesError(CobraRefusal.AIR_POINTS_LEFT, left=self.air_left,
                             need=planned.air_points)
        if planned.naval_points > self.naval_left:
            raise RulesError(CobraRefusal.NAVAL_POINTS_LEFT, left=self.naval_left,
                             need=planned.naval_points)

    def pay_attack(self, planned: Odds, track: str | None) -> tuple[CobraGame, bool]:
        """The attack made: its supply points from `track` (none: unsupplied, 11.0c), its air
        and naval points, and a carpet bombing mission counted (14.3f). Paid when the attack
        is rolled, not when it is planned; whether the supply points were paid."""
        self.check_support(planned)
        game, paid = self.spend(track) if track is not None else (self, False)
        carpets = (*self.carpets, self.turn) if planned.carpet else self.carpets
        plan = None if planned.carpet else self.carpet_plan     # the plan carried out
        # an Allied attack or overrun of this Combat Phase: a carpet bombing is too late now
        attacked = self.turn if not planned.carpet and \
            self.phase == Phase(Nation.ALLIED, "combat") else self.attacked
        return replace(game, air_used=self.air_used + planned.air_points,
                       naval_used=self.naval_used + planned.naval_points,
                       carpets=carpets, carpet_plan=plan, attacked=attacked), paid

    def exit_unit(self, nation: str, edge: str, kind: str = "unit") -> CobraGame:
        """An Allied unit of `nation` exits off `edge` in this game turn (5.3c, 15.2, 15.3,
        16.1, 16.2 read the record)."""
        return replace(self, exits=(*self.exits, Exit(self.turn, nation, edge, kind)))

    def with_weather(self, weather: Weather) -> tuple[CobraGame, Note]:
        """This turn's weather, and the German attack supply points it brings (11.0d)."""
        if self.phase.name != "weather":
            raise RulesError(CobraRefusal.WEATHER_PHASE_ONLY)
        if self.this_weather is not None:
            raise RulesError(CobraRefusal.WEATHER_ALREADY, turn=self.turn)
        gain = GERMAN_SUPPLY[weather]
        german = min(GERMAN_SP_MAX, self.tracks.german + gain)
        note = Note(Why.GERMAN_SUPPLY, {"gain": gain, "weather": weather.value})
        if german < self.tracks.german + gain:
            note = Note(Why.GERMAN_SUPPLY_STOPS, {**note.values, "most": GERMAN_SP_MAX})
        return replace(self, weather=(*self.weather, weather),
                       tracks=replace(self.tracks, german=german)), note

    def receive_allied(self, us: int, british: int) -> tuple[CobraGame, Note]:
        """The Allied supply phase: the printed supply points, halved or none in storms."""
        if self.phase.name != "supply":
            raise RulesError(CobraRefusal.SUPPLY_PHASE_ONLY)
        first_storm = self.this_weather == Weather.STORM and \
            Weather.STORM not in self.history()
        landing = scenario(self.scenario).landing
        got_us, why = allied_receipt(us, self.this_weather, first_storm, self.turn,
                                           landing)
        got_british, _ = allied_receipt(british, self.this_weather, first_storm, self.turn,
                                           landing)
        tracks = replace(self.tracks, us=self.tracks.us + got_us,
                         british=self.tracks.british + got_british)
        return replace(self, tracks=tracks), Note(
            why, {"us": got_us, "british": got_british})

    def spend(self, track: str) -> tuple[CobraGame, bool]:
        """Pay for one supplied attack from `track` (us, british or german); False when the
        track cannot pay: the attack goes ahead with its attackers halved (11.0c)."""
        cost = ATTACK_COST[Nation.GERMAN if track == "german" else Nation.ALLIED]
        have = self._track(track)
        if have < cost:
            return self, False
        return replace(self, tracks=replace(self.tracks, **{track: have - cost})), True

    def adjust(self, track: str, delta: int) -> CobraGame:
        """Move a track marker by hand (supply points or victory points). Only the German VP
        go below zero: the German player loses VP (15.2b, "each attempt ... costs the German
        player one VP"; 18.0, the variant counters' cost), the Allied player never does."""
        value = self._track(track) + delta
        if track != "german_vp":
            value = max(0, value)
        if track == "german":
            value = min(GERMAN_SP_MAX, value)
        return replace(self, tracks=replace(self.tracks, **{track: value}))

    def _track(self, track: str) -> int:
        if track not in Tracks.__dataclass_fields__:
            raise RulesError(CobraRefusal.UNKNOWN_TRACK, track=track,
                             choices=tuple(Tracks.__dataclass_fields__))
        value: int = getattr(self.tracks, track)
        return value

    # Saved by hand, not by its types (rules/saved.py): its phase and player are written too.
    def to_dict(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "turn": self.turn, "step": self.step,
                "weather": [w.value for w in self.weather], "tracks": self.tracks.to_dict(),
                "last": self.last, "over": self.over, "extension_die": self.extension_die,
                "phase": self.phase.name, "player": self.phase.player.value,
                "air_used": self.air_used, "naval_used": self.naval_used,
                "carpets": list(self.carpets), "exits": [e.to_dict() for e in self.exits],
                "command": self.command.to_dict(), "scoresheet": self.scoresheet.to_dict(),
                "replacements": [r.to_dict() for r in self.replacements],
                "landing": self.landing.to_dict(), "ledger": self.ledger.to_dict(),
                "carpet_plan": self.carpet_plan,
                "carpet_cancelled": self.carpet_cancelled, "automatic": self.automatic,
                "attacked": self.attacked}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CobraGame:
        game = cls(scenario(data["scenario"]).key, int(data["turn"]), int(data["step"]),
                   tuple(Weather(w) for w in data["weather"]), Tracks(**data["tracks"]),
                   int(data["last"]), bool(data["over"]), data.get("extension_die"),
                   # a game saved before these were kept: nothing spent yet this turn
                   int(data.get("air_used", 0)), int(data.get("naval_used", 0)),
                   tuple(int(t) for t in data.get("carpets", ())),
                   tuple(Exit.from_dict(e) for e in data.get("exits", ())),
                   # a game saved before the HQs were kept: every HQ active, no limit dialled
                   Command.from_dict(data.get("command", {})),
                   Scoresheet.from_dict(data.get("scoresheet")),
                   tuple(Replacement.from_dict(r) for r in data.get("replacements", ())),
                   # a game saved before the landing was kept: nothing of it done yet
                   Landing.from_dict(data.get("landing", {})),
                   # a game saved before the campaign's counts were kept: none used yet
                   Ledger.from_dict(data.get("ledger", {})),
                   # a game saved before these were kept: no carpet bombing planned, none
                   # cancelled, not ended by the automatic victory
                   _turn_or_none(data.get("carpet_plan")),
                   _turn_or_none(data.get("carpet_cancelled")),
                   bool(data.get("automatic", False)),
                   # a game saved before it was kept: its command counts tell (11.3)
                   _turn_or_none(data.get("attacked")))
        game.phase  # noqa: B018 - refuses a step outside the turn's sequence
        return game


def _turn_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


@dataclass(frozen=True)
class Marginal:
    """The question a scenario asks at the end of the game for the initial level of victory,
    and the level each answer gives."""

    key: str                # "frontline" or "objectives"
    rule: str
    question: str
    yes: str                # the level when the answer is yes
    no: str


FRONTLINE = Marginal(
    "frontline", "16.3.1, 16.3.2", "can the German player trace a frontline of continuous "
    "units or their ZOC from hex 4901 to 0823 on map A?", "Marginal German", "Marginal Allied")
OBJECTIVES = Marginal(
    "objectives", "17.4.2", "are Bayeux (all three hexes), Isigny and Carentan all Allied "
    "controlled, and Cherbourg not connected by primary road to a south or east map edge?",
    "Marginal Allied", "Marginal German")
# The Battle of the Build-Up modifies 16.3.1 and 16.3.2 (17.4.2); the campaign keeps them.
MARGINAL = {"buildup": OBJECTIVES}


def marginal(key: str) -> Marginal:
    """What scenario `key` asks for its initial level of victory."""
    return MARGINAL.get(scenario(key).key, FRONTLINE)


AUTOMATIC_LEVEL = "Decisive German"      # 17.3.13, 17.4.3: "an automatic decisive victory"


def automatic_victory(key: str) -> tuple[str, Note]:
    """The level when no beach hex is friendly to the Allied player at the beginning of an
    Allied player turn: a decisive German victory, whatever the VP (17.3.13, 17.4.3); only in
    the scenarios with the landing."""
    if not scenario(key).landing:
        raise RulesError(CobraRefusal.NO_LANDING_SCENARIO, scenario=key)
    return AUTOMATIC_LEVEL, Note(Why.AUTOMATIC_VICTORY)


def victory(key: str, answer: bool, german_vp: int, allied_vp: int) -> tuple[str, Note]:
    """The level of victory: the marginal level the scenario's question gives (16.3.1,
    16.3.2; 17.4.2 in the Battle of the Build-Up), shifted one level for every full 15 VP of
    difference (16.3.3)."""
    asked = marginal(key)
    start = LEVELS.index(asked.yes if answer else asked.no)
    difference = allied_vp - german_vp
    shift = int(difference / VP_PER_LEVEL)          # whole fifteens, toward zero
    level = min(max(start - shift, 0), len(LEVELS) - 1)
    why = Why.VICTORY_TOWARD_ALLIES if shift > 0 else Why.VICTORY_TOWARD_GERMANS if shift < 0 \
        else Why.VICTORY_AS_FRONTLINE
    values: dict[str, Value] = {"start": LEVELS[start], "allied": allied_vp,
                                "german": german_vp, "difference": difference}
    if shift:
        values["levels"] = abs(shift)
    return LEVELS[level], Note(why, values)
