"""Where Cobra's victory points come from (16.1 the German player's, 16.2 the Allied player's,
15.2b and 15.3 the special rules', 17.3.2 step 5e an abandoned beach, 18.0 the variant counters), as
typed data, and the VP of one event the players report: a unit eliminated, a unit exited off a
map edge in a game turn, a condition at the beginning of a game turn, a scenario's objective,
a variant counter brought in. The box only adds: the players say what happened on the map."""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..english import Word
from ..errors import RulesError
from .combat import LAST_TURN, Nation
from .exits import Exit, first_exit
from .scoresheet import Award
from .turns import SCENARIOS, CobraGame, scenario

ALL = tuple(SCENARIOS)
LONG = ("buildup", "campaign")          # 16.1 "Campaign or Battle of the Buildup"
ANY_TURN = (1, 28)                      # the campaign may go on to GT 28 (17.3a)
MOST_DIVISIONS = 4                      # 16.2 "(Maximum of Four Divisions)"
TRACK = {nation.value: f"{nation.value}_vp" for nation in Nation}   # each side's VP track


class When(StrEnum):
    """When a source may be scored."""

    EVENT = "event"            # each time it happens (a unit eliminated, a unit exited)
    EACH_TURN = "each_turn"    # at the beginning of a game turn: once a game turn
    ONCE = "once"              # once a game (a variant counter, a scenario's objective)


class Why(StrEnum):
    """Why an event is worth what it is worth: said in the trace, the box and the CLI."""

    AS_LISTED = "as_listed"                 # the source's value, times the count
    EXIT_BY_TURN = "exit_by_turn"           # 16.2: 5 by GT 20 ... 1 after GT 25
    EXIT_FIFTH_DIVISION = "exit_fifth"      # 16.2: four divisions at most
    EXIT_TOO_LATE = "exit_too_late"         # 16.2: the British division after GT 26
    EXIT_NO_VP = "exit_no_vp"               # an exit no rule gives VP for: recorded only
    CAPPED = "capped"                       # 16.1: 12 VP at most


@dataclass(frozen=True)
class Source:
    """One source of VP: whose track it moves, by how much for one unit or event (below zero:
    the German player loses VP, 15.2b, 18.0), its rule, the scenarios and game turns it may
    be scored in, how often, and the exit it is (nation, edge, kind), if one."""

    key: str
    side: str                  # "german" or "allied"
    vp: int
    rule: str
    text: str                  # its English name (the box's words are i18n's vp_<key>)
    scenarios: tuple[str, ...] = ALL
    turns: tuple[int, int] = ANY_TURN
    when: When = When.EVENT
    exit: tuple[str, str, str] | None = None
    most: int | None = None    # the VP it gives in a game at most
    menu: bool = True          # False: scored by the box itself (a 15th Army attempt)

    @property
    def word(self) -> Word:
        """The source as a refusal names it: its key, in English its name."""
        return Word(self.key, self.text)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "side": self.side, "vp": self.vp, "rule": self.rule,
                "text": self.text, "scenarios": list(self.scenarios),
                "turns": list(self.turns), "when": self.when.value,
                "exit": list(self.exit) if self.exit else None, "most": self.most}


def _s(key: str, side: str, vp: int, rule: str, text: str, **more: Any) -> Source:
    return Source(key, side, vp, rule, text, **more)


G, A = "german", "allied"
SOURCES_LISTED = (
    # 16.1 German VP: Allied units eliminated
    _s("allied_regiment", G, 1, "16.1", "Allied inf. regiment or brigade eliminated"),
    _s("allied_hq", G, 2, "16.1", "Allied HQ eliminated"),
    _s("allied_division", G, 3, "16.1", "Allied inf. division or armoured brigade eliminated"),
    # 16.1's "1: For every 10 Allied replacement steps used during play" is no source to
    # report: the box counts the Allied steps taken and adds it (rules/cobra/replacements.py)
    # 16.1 Allied failure to exit: counted at the end of GT 26, and by GT 25
    _s("us_not_exited", G, 3, "16.1", "US divisional unit not exited west by GT 26",
       turns=(26, 28), most=12),
    _s("no_us_hq_exited", G, 3, "16.1", "No US HQ exited west by GT 25", turns=(25, 28),
       when=When.ONCE),
    # 16.1 German units at the end of the game
    _s("german_division", G, 1, "16.1", "German full division in supply west of 3900"),
    _s("german_mech_division", G, 2, "16.1",
       "German full mech. division in supply west of 3900"),
    # 16.1 Campaign or Battle of the Build-Up
    _s("commando_on_map", G, 1, "16.1", "Commando or ranger on the map at GT 8",
       scenarios=LONG, turns=(8, 8)),
    _s("para_on_map", G, 1, "16.1", "US para regiment on the map at GT 15",
       scenarios=LONG, turns=(15, 15)),
    _s("para_eliminated", G, 1, "16.1", "Allied para or commando eliminated", scenarios=LONG),
    _s("cherbourg_held", G, 1, "16.1", "Cherbourg German at the start of the turn",
       scenarios=LONG, turns=(2, 28), when=When.EACH_TURN),
    _s("cherbourg_road", G, 1, "16.1", "Cherbourg supply line by primary road",
       scenarios=LONG, when=When.EACH_TURN),
    _s("frontline", G, 15, "16.1", "Intact frontline, north to south edge of map A",
       scenarios=LONG, when=When.ONCE),
    # 17.3.2 step 5e's 10 VP for a beach abandoned is no source to report either: the Landing
    # Phase's "Beach abandoned?" adds it (rules/cobra/landing.py)
    # 16.2 Allied VP: German units eliminated or unsupplied
    _s("german_division_hq", A, 1, "16.2", "German full division or HQ eliminated"),
    _s("german_panzer", A, 1, "16.2", "Panzer, PG regiment or Tiger bn. eliminated"),
    # 16.2 exits (and the exits that give no VP, which 5.3c, 15.2, 15.3 and 16.1 read)
    _s("exit_us_mech", A, 5, "16.2", "US mech. division exits west",
       exit=("us", "west", "mech_division")),
    _s("exit_british_mech", A, 4, "16.2", "British mech. division exits east",
       exit=("british", "east", "mech_division")),
    _s("exit_us_hq", A, 0, "16.1", "US HQ exits west", exit=("us", "west", "hq")),
    _s("exit_us_west", A, 0, "15.3", "Other US unit exits west", exit=("us", "west", "unit")),
    _s("exit_us_south", A, 0, "5.8a", "US unit exits south", exit=("us", "south", "unit")),
    _s("exit_british", A, 0, "5.3c", "Other British unit exits east",
       exit=("british", "east", "unit")),
    # 16.2 the campaign's withdrawals, the Build-Up's objectives at the end
    _s("commando_withdrawn", A, 1, "16.2", "Commando brigade withdrawn by GT 5",
       scenarios=("campaign",), turns=(1, 5)),
    _s("para_withdrawn", A, 1, "16.2", "US para regiment withdrawn by GT 14",
       scenarios=("campaign",), turns=(1, 14)),
    _s("caen", A, 20, "16.2", "All of Caen Allied", scenarios=("buildup",), when=When.ONCE),
    _s("cherbourg", A, 10, "16.2", "All of Cherbourg Allied", scenarios=("buildup",),
       when=When.ONCE),
    _s("st_lo", A, 15, "16.2", "Both hexes of St. Lo Allied", scenarios=("buildup",),
       when=When.ONCE),
    # 15.2b, 15.3: the special rules
    _s("release_attempt", G, -1, "15.2b", "15th Army release attempt", menu=False),
    _s("brest_entry", A, 7, "15.3", "2nd FJ enters on GT 19 (optional)", turns=(19, 19),
       when=When.ONCE),
    # 18.0 the variant counters: the German player loses VP for each group brought in
    _s("variant_4th_panzer", G, -15, "18.0", "4th Panzer Division brought in",
       turns=(20, 20), when=When.ONCE),
    _s("variant_507", G, -3, "18.0", "507th Tiger battalion brought in", turns=(20, 20),
       when=When.ONCE),
    _s("variant_505", G, -3, "18.0", "505th Tiger battalion brought in", turns=(20, 20),
       when=When.ONCE),
    _s("variant_654", G, -2, "18.0", "654th heavy tank battalion brought in",
       turns=(16, 28), when=When.ONCE),
    _s("variant_fjv", G, -10, "18.0", "Friedenthal battalion (FJV) brought in",
       turns=(16, 28), when=When.ONCE),
)
SOURCES = {s.key: s for s in SOURCES_LISTED}
EXIT_SOURCES = {s.exit: s for s in SOURCES_LISTED if s.exit is not None}


def source(key: str) -> Source:
    try:
        return SOURCES[key]
    except KeyError:
        raise RulesError(CobraRefusal.VP_UNKNOWN_SOURCE, vp_source=key,
                         choices=tuple(SOURCES)) from None


def exit_source(nation: str, edge: str, kind: str) -> Source:
    """The source of an exit said as nation, edge and kind (us, west, mech_division)."""
    Exit(1, nation, edge, kind)                 # refuses a nation or an edge not known
    found = EXIT_SOURCES.get((nation, edge, kind))
    if found is None:
        exits = tuple(":".join(e) for e in EXIT_SOURCES)
        raise RulesError(CobraRefusal.UNKNOWN_EXIT, field="kind", value=f"{nation}:{edge}:{kind}",
                         choices=exits)
    return found


def in_scenario(found: Source, key: str, last: int | None = None) -> bool:
    """Whether `found` may be scored in scenario `key` at all: a scenario it names, and a
    game turn of the scenario's inside its window (18.0: "any scenario that their dates of
    arrival are part of")."""
    s = scenario(key)
    end = last if last is not None else s.last + (1 if s.may_extend else 0)
    return key in found.scenarios and found.turns[0] <= end and s.first <= found.turns[1]


def offered(key: str, turn: int) -> tuple[Source, ...]:
    """The sources the players may report in scenario `key` on game turn `turn`, in the
    order the rules list them."""
    return tuple(s for s in SOURCES_LISTED if s.menu and in_scenario(s, key)
                 and s.turns[0] <= turn <= s.turns[1])


@dataclass(frozen=True)
class Scored:
    """The VP of one reported event, and why: the trace the box, the CLI and tests read."""

    source: Source
    turn: int
    count: int
    vp: int
    why: Why
    exit: Exit | None = None

    @property
    def track(self) -> str:
        return TRACK[self.source.side]

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source.key, "text": self.source.text, "side": self.source.side,
                "track": self.track, "rule": self.source.rule, "turn": self.turn,
                "count": self.count, "vp": self.vp, "why": self.why.value,
                "exit": self.exit.to_dict() if self.exit else None}


def exit_vp(turn: int) -> int:
    """A US mechanized division off the west edge (16.2): 5 on or before GT 20, 4 on 21, 3
    on 22, 2 on 23 or 24, 1 later (GT 25 is read with "after GT 25": docs/rules-notes.md)."""
    return 5 if turn <= 20 else 4 if turn == 21 else 3 if turn == 22 else \
        2 if turn <= 24 else 1


def score(key: str, turn: int, event: str, count: int = 1, exits: tuple[Exit, ...] = (),
          awards: tuple[Award, ...] = ()) -> Scored:
    """The VP of `count` of event `event` (a source's key) reported in game turn `turn` of
    scenario `key`, given the exits and awards recorded before: refused where the scenario,
    the game turn or the record rule it out."""
    found = source(event)
    _check(found, key, turn, count, exits, awards)
    if found.exit is not None:
        return _exit(found, turn, exits)
    before = sum(a.vp for a in awards if a.source == found.key)
    vp = found.vp * count
    if found.most is not None and before + vp > found.most:
        return Scored(found, turn, count, found.most - before, Why.CAPPED)
    return Scored(found, turn, count, vp, Why.AS_LISTED)


def _check(found: Source, key: str, turn: int, count: int, exits: tuple[Exit, ...],
           awards: tuple[Award, ...]) -> None:
    if not in_scenario(found, key):
        raise RulesError(CobraRefusal.VP_NOT_IN_SCENARIO, vp_source=found.word, scenario=key,
                         article=found.rule)
    _check_turn(key, turn, exits)
    first, last = found.turns
    if not first <= turn <= last:
        raise RulesError(CobraRefusal.VP_NOT_THIS_TURN, vp_source=found.word,
                         turn=turn, first=first, last=last, article=found.rule)
    done = [a for a in awards if a.source == found.key]
    if found.when is When.EACH_TURN and any(a.turn == turn for a in done):
        raise RulesError(CobraRefusal.VP_ONCE_A_TURN, vp_source=found.word, turn=turn,
                         article=found.rule)
    if found.when is When.ONCE and done:
        raise RulesError(CobraRefusal.VP_ONCE_A_GAME, vp_source=found.word,
                         turn=done[0].turn, article=found.rule)
    if found.most is not None and sum(a.vp for a in done) >= found.most:
        raise RulesError(CobraRefusal.VP_MOST, vp_source=found.word, most=found.most,
                         article=found.rule)
    hq = first_exit(tuple(e for e in exits if e.kind == "hq"), nation="us", edge="west")
    if found.key == "no_us_hq_exited" and hq is not None and hq <= 25:
        raise RulesError(CobraRefusal.VP_HQ_EXITED, turn=hq)
    if count < 1 or ((found.exit is not None or found.when is not When.EVENT) and count != 1):
        raise RulesError(CobraRefusal.VP_ONE_AT_A_TIME, vp_source=found.word, count=count,
                         article=found.rule)


def _check_turn(key: str, turn: int, exits: tuple[Exit, ...]) -> None:
    """A game turn of the scenario (its last, 28 once the campaign goes on, 17.3a), and no
    exit recorded after it."""
    played = scenario(key)
    last = LAST_TURN if played.may_extend else played.last
    if not played.first <= turn <= last:
        raise RulesError(CobraRefusal.NOT_A_SCENARIO_TURN,
                         scenario=played.key, turn=turn, first=played.first, last=last)
    later = [e.turn for e in exits if e.turn > turn]
    if later:
        raise RulesError(CobraRefusal.EXIT_AFTER_TURN, turn=turn, exited=later[0])


def _exit(found: Source, turn: int, exits: tuple[Exit, ...]) -> Scored:
    assert found.exit is not None
    nation, edge, kind = found.exit
    out = Exit(turn, nation, edge, kind)
    if found.key == "exit_us_mech":
        earlier = [e for e in exits if (e.nation, e.edge, e.kind) == found.exit]
        if len(earlier) >= MOST_DIVISIONS:
            return Scored(found, turn, 1, 0, Why.EXIT_FIFTH_DIVISION, out)
        return Scored(found, turn, 1, exit_vp(turn), Why.EXIT_BY_TURN, out)
    if found.key == "exit_british_mech":
        if turn > 26:                             # "by the end of GT 26"
            return Scored(found, turn, 1, 0, Why.EXIT_TOO_LATE, out)
        return Scored(found, turn, 1, found.vp, Why.EXIT_BY_TURN, out)
    return Scored(found, turn, 1, 0, Why.EXIT_NO_VP, out)


def record(game: CobraGame, event: str, count: int = 1) -> tuple[CobraGame, Scored]:
    """The event scored in the game's current game turn: its exit recorded, its VP on the
    German or Allied track (the German may go below zero, the Allied never: `adjust`), and
    the award kept so that it can be taken back."""
    scored = score(game.scenario, game.turn, event, count, game.exits,
                   game.scoresheet.awards)
    return award(game, scored), scored


def award(game: CobraGame, scored: Scored) -> CobraGame:
    """Put a scored event on the game: its exit, its VP, its award."""
    if scored.exit is not None:
        game = game.exit_unit(scored.exit.nation, scored.exit.edge, scored.exit.kind)
    game = game.adjust(scored.track, scored.vp)
    kept = Award(game.turn, scored.source.key, scored.source.side, scored.vp, scored.count,
                 scored.exit)
    return replace(game, scoresheet=replace(
        game.scoresheet, awards=(*game.scoresheet.awards, kept)))


def undo(game: CobraGame) -> tuple[CobraGame, Award]:
    """Take back the last event the players reported (not the VP of a special roll, which
    goes with its die): its VP off the track and its exit off the record."""
    awards = game.scoresheet.awards
    index = next((i for i in range(len(awards) - 1, -1, -1)
                  if SOURCES[awards[i].source].menu), None)
    if index is None:
        raise RulesError(CobraRefusal.VP_NOTHING_TO_UNDO)
    taken = awards[index]
    exits = game.exits
    if taken.exit is not None and taken.exit in exits:
        at = len(exits) - 1 - exits[::-1].index(taken.exit)
        exits = exits[:at] + exits[at + 1:]
    game = replace(game.adjust(TRACK[taken.side], -taken.vp), exits=exits)
    return replace(game, scoresheet=replace(
        game.scoresheet, awards=awards[:index] + awards[index + 1:])), taken


def parse_event(text: str) -> str:
    """A source's key from the command line: the key itself, or an exit said as
    exit:NATION:EDGE:KIND (exit:us:west:mech_division)."""
    if text.startswith("exit:"):
        parts = text.split(":")[1:]
        if len(parts) == 2:
            parts.append("unit")
        if len(parts) != 3:
            raise RulesError(CobraRefusal.UNKNOWN_EXIT, field="kind", value=text[5:],
                             choices=tuple(":".join(e) for e in EXIT_SOURCES))
        return exit_source(*parts).key
    return source(text).key
