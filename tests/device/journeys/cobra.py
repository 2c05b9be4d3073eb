"""The tour's journeys through Cobra: its phases, the command, movement, the landing, attacks
and levels of victory; and the sayings and log lines of Cobra the words journey shows."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from cobi_companion.device.core.battle_log import LogEntry, entry
from cobi_companion.device.core.views import Menu
from cobi_companion.device.games.cobra.session import CobraSession
from cobi_companion.device.games.cobra.victory import vp_item
from cobi_companion.rules.cobra import victory_points as vps
from cobi_companion.rules.cobra.combat import BY_LETTER, Nation, OverrunWhen, Role, ShiftKind
from cobi_companion.rules.cobra.command import ALLIED_ARMIES, Army, Command, HQEvent, HQState, hq
from cobi_companion.rules.cobra.exits import Exit
from cobi_companion.rules.cobra.landing import (
    BEACHES,
    DIVISIONS,
    Landed,
    Landing,
    Marker,
    Target,
)
from cobi_companion.rules.cobra.notes import Note, Why
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.replacements import KINDS, SIDES, Replacement
from cobi_companion.rules.cobra.scoresheet import Scoresheet, SpecialRoll
from cobi_companion.rules.cobra.tables import COLUMNS, Direction, Weather
from cobi_companion.rules.cobra.turns import SCENARIOS, TRACKS, CobraGame
from cobi_companion.rules.errors import RulesError
from tour import Guide, Tour, words_of

C, S = Weather.CLEAR, Weather.STORM


def journey_cobra(tour: Tour) -> None:
    """Cobra from its start, and resumed at the weather of game turn 16 (with the owner's
    tables and without), in storms, at the Allied supply and combat, at the end of the last
    game turn of the campaign and of Cobra, and with the victory points of each level of
    victory."""
    guide = tour.guide(tour.box("cobra"), "cobra", seed=5)
    guide.choose(tour.t("cobra"))
    guide.play(200)
    tables = owners_tables(tour.folder / "owner")
    start = CobraGame.start("cobra")
    owner = {"paths": {"cards_dir": str(tables)}}
    games = {"weather": (at(16, 0, [C]), owner, 5), "reading": (at(16, 0, [C]), {}, 3),
             "storms": (at(16, 1, [C, S]), {}, 2), "combat": (at(16, 3, [C, C]), owner, 4),
             "crt": (at(16, 3, [C, C]), {}, 6), "supply": (at(16, 5, [C, C]), {}, 1),
             "allied": (at(16, 8, [C, C]), {}, 1),
             "extended": (at_turn_end("campaign", 27), {}, 5),
             "campaign": (at_turn_end("campaign", 27), {}, 2),
             "last": (at_turn_end("cobra", 27), {}, 3)}
    for seed, (name, (game, more, face)) in enumerate(games.items()):
        tour.save(name, CobraSession(game).to_dict())
        guide = tour.guide(tour.box(name, [face, 4, 2, 5, 3, 6] * 200, config=more), "cobra",
                           seed=seed)
        guide.choose(tour.t("resume_cobra"))
        guide.play(60)
    for supply in ("pay_us", "pay_british", "pay_german"):
        step = 3 if supply == "pay_german" else 8       # the German or the Allied Combat Phase
        # planned on game turn 15 (14.3a): flown before the US attack (14.3d), refused after
        # the British one
        tour.save("attack", CobraSession(replace(at(16, step, [C, C]), carpet_plan=16)).to_dict())
        guide = tour.guide(tour.box("attack", [4] * 50), "cobra")
        guide.choose(tour.t("resume_cobra"))
        if supply == "pay_us":                  # the planned mission first (14.3d): flown
            guide.follow(tour.t("carpet"))
            guide.play(12, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
        guide.follow(tour.t("attack"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"))
        if supply == "pay_us":
            # naval +1, +2, then +1 far: 4 to 6 hexes, two NSP a column (14.4d), in its hint
            guide.follow(*[tour.t("shift_naval", n="").strip()] * 3)
            for shift in ("shift_patton", "shift_air"):
                guide.follow(tour.t(shift, n="").strip())
        guide.follow(tour.t("roll_attack"), tour.t(supply, cost="", have="").split(":")[0])
        guide.play(12, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
        if supply == "pay_british":             # after an attack: refused, only cancelled
            guide.follow(tour.t("carpet"))
            guide.play(12, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
        guide.press("back")                             # the log: the result to read
        guide.follow(tour.t("battle_log"))
        guide.play(8, until=lambda guide=guide: isinstance(guide.view, Menu))
    journey_command(tour)
    journey_landing(tour)
    journey_plans(tour)
    for step in (2, 8):             # an overrun: German moving (5.4a), Allied advancing (5.4b)
        tour.save("overrun", CobraSession(at(16, step, [C, C])).to_dict())
        guide = tour.guide(tour.box("overrun", [4] * 50), "cobra")
        guide.choose(tour.t("resume_cobra"))
        guide.follow(tour.t("overrun"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"), tour.t("roll_attack"))
        guide.play(12, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
    # game turn 2 of the campaign: overcast, forced (5.3)
    tour.save("forced", CobraSession(on("campaign", 2, 0)).to_dict())
    guide = tour.guide(tour.box("forced"), "cobra")
    guide.choose(tour.t("resume_cobra"))
    guide.follow(tour.t("roll_weather"))
    guide.play(6, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
    # the turn's budgets on the tracks, each read: on defence in the German Combat Phase
    # (14.1a), in storms (14.4), with a carpet mission flown (14.3f)
    budgets = (at(16, 3, [C, C]), at(16, 8, [C, S]),
               replace(at(16, 8, [C, C]), carpets=(16,), air_used=3, naval_used=1))
    for game in budgets:
        tour.save("budgets", CobraSession(game).to_dict())
        guide = tour.guide(tour.box("budgets"), "cobra")
        guide.choose(tour.t("resume_cobra"))
        for kind in ("air", "naval", "carpet"):
            guide.choose(tour.t("tracks"))
            guide.choose(tour.t("budget_" + kind, left="", most="").split(":")[0])
            guide.play(8, until=lambda guide=guide: type(guide.app.screen).__name__ == "Phased")
            guide.press("back")
    # (German VP, Allied VP, the answer, the scenario): each level, the longest net VP either
    # way (the German VP below zero), and the Build-Up's own question (17.4.2)
    levels = ((0, 30, "no", start), (0, 15, "no", start), (0, 0, "no", start),
              (15, 0, "no", start), (0, 0, "yes", start), (15, 0, "yes", start),
              (30, 0, "yes", start), (-199, 199, "no", start), (199, 0, "yes", start),
              (0, 0, "yes", CobraGame.start("buildup")))
    for german, allied, intact, game in levels:
        tracks = replace(game.tracks, german_vp=german, allied_vp=allied)
        tour.save("victory", CobraSession(replace(game, tracks=tracks)).to_dict())
        guide = tour.guide(tour.box("victory"), "cobra")
        guide.choose(tour.t("resume_cobra"))
        guide.choose(tour.t("tracks"))
        guide.choose(tour.t("victory_level"))
        guide.choose(tour.t(intact))
        guide.play(3)
    for _ in range(3):                                  # the game's menu: it ends
        guide.press("back")
        if guide.choose(tour.t("end_game")):
            guide.choose(tour.t("yes"))
            guide.play(4)
            break


def journey_command(tour: Tour) -> None:
    """Cobra's HQs and command limits (8.3.3, 9.1, 11.3): an Allied attack with the HQ of its
    shift asked (an inactive one refused) and its army asked when no track tells, the limits
    on the tracks, and the HQs flipped on their screen (moved, displaced, eliminated)."""
    moved, _ = Command().flip(hq("VII"), HQEvent.MOVED, 16, 9)
    gone, _ = moved.flip(hq("XIX"), HQEvent.ELIMINATED, 16, 3)
    limited = gone.with_levels(16, 20, 20)
    for pick in ("VII", "V:", tour.t("hq_other")):
        tour.save("command", CobraSession(replace(at(16, 8, [C, C]), command=limited)).to_dict())
        guide = tour.guide(tour.box("command", [4] * 50), "cobra")
        guide.choose(tour.t("resume_cobra"))
        guide.follow(tour.t("attack"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"), tour.t("shift_att_hq", n="").strip())
        guide.follow(pick)
        guide.follow(tour.t("roll_attack"), tour.t("unsupplied"))
        guide.play(12, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
        guide.follow(tour.t("tracks"))
        guide.play(6)
    # a level dialled 0 refuses the attack, and says where it is put right (11.3)
    tour.save("command", CobraSession(replace(at(16, 8, [C, C]), command=gone.with_levels(
        16, 0, 0))).to_dict())
    guide = tour.guide(tour.box("command", [4] * 50), "cobra")
    guide.choose(tour.t("resume_cobra"))
    guide.follow(tour.t("attack"), tour.t("add_unit"))
    guide.follow(tour.t("units_done"), tour.t("add_unit"))
    guide.follow(tour.t("units_done"), tour.t("roll_attack"), tour.t("unsupplied"))
    guide.play(8, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
    for step in (3, 9):                 # German combat, Allied mechanized movement
        tour.save("hqs", CobraSession(replace(at(16, step, [C, C]), command=gone)).to_dict())
        guide = tour.guide(tour.box("hqs"), "cobra")
        guide.choose(tour.t("resume_cobra"))
        for name, event in (("XIX", "hqevent_displaced"), ("VII", "hqevent_moved"),
                            ("V:", "hqevent_displaced"), ("V:", "hqevent_displaced"),
                            ("I:", "hqevent_eliminated")):
            guide.follow(tour.t("hqs"), name)
            guide.follow(tour.t(event))
            guide.play(4, until=lambda guide=guide: isinstance(guide.view, Menu))
            guide.press("back")
            guide.play(4, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")


def journey_cobra_movement(tour: Tour) -> None:
    """Cobra's movement allowance in each Movement Phase (German in clear with its toggles,
    the increase and its air attack lost and not, after an Allied exit, overcast and storms;
    Allied British infantry, the landing turns), the replacements of each side (a refusal, the
    British limit, the tenth Allied step's VP) and the replacement tracks on the Tracks
    screen."""
    exited = (Exit(16, "us", "south"),)
    landing = CobraGame.start("campaign")
    games = {"clear": at(16, 2, [C, C]), "exit": replace(at(17, 2, [C, C, C]), exits=exited),
             "overcast": at(16, 4, [C, Weather.OVERCAST]), "storms": at(16, 2, [C, S]),
             "allied": at(16, 9, [C, C]),
             "landing": replace(landing, turn=2, step=7, weather=(C, Weather.OVERCAST)),
             "landing-mech": replace(landing, turn=2, step=9, weather=(C, Weather.OVERCAST))}
    for name, game in games.items():
        tour.save(name, CobraSession(game).to_dict())
        guide = tour.guide(tour.box(name, [3, 5] * 20), "cobra")
        guide.choose(tour.t("resume_cobra"))
        guide.follow(tour.t("movement"))
        guide.press("ok")                               # the printed MA the knob starts on
        for toggle in ("ma_landed", "ma_out_of_supply", "ma_replaced", "ma_british_infantry"):
            guide.choose("- " + tour.t(toggle))
        guide.choose(tour.t("ma_show", ma="").split(" ")[0])
        guide.play(6, until=lambda guide=guide: isinstance(guide.view, Menu))
        for thirds in (2, 1):                           # 3 on 1-4: lost; 5 on 1-2: not
            if guide.choose(tour.t("ma_increase", n=thirds, low="").split(",")[0]):
                guide.press("axis")
                guide.play(6, until=lambda guide=guide: isinstance(guide.view, Menu))
    steps = tuple(Replacement(19, "us", "inf") for _ in range(8))
    for name, game in {"german-steps": at(16, 1, [C, C]),
                       "allied-steps": replace(at(20, 6, [C] * 6), replacements=steps)}.items():
        tour.save(name, CobraSession(game).to_dict())
        guide = tour.guide(tour.box(name), "cobra")
        guide.choose(tour.t("resume_cobra"))
        guide.follow(tour.t("replacements"))
        for key in ("repl_german_mech", "repl_german_mech", "repl_german_inf", "repl_us_inf",
                    "repl_british_inf", "repl_british_inf", "repl_british_inf", "repl_us_mech",
                    "repl_british_mech", "repl_track", "repl_allied"):
            item = tour.t(key, n="", mech="", inf="", next="")
            item = item.split(" ")[0] if key in ("repl_track", "repl_allied") else item.strip()
            if guide.choose(item):
                guide.play(8, until=lambda guide=guide: isinstance(guide.view, Menu))
        guide.press("back")
        guide.follow(tour.t("tracks"), tour.t("repl_track", mech="", inf="").split(" ")[0])
        guide.play(8, until=lambda guide=guide: isinstance(guide.view, Menu))


def journey_victory(tour: Tour) -> None:
    """Cobra's victory points reported from the tracks' menu in each scenario and game turn
    that has sources of its own (the longest items, every reason a value is what it is, a
    refusal, an entry taken back), and the special rolls at their phases with each outcome:
    Brest on GT 26 and 27 (15.3), the 15th Army with and without a corps HQ (15.2), Leclerc
    (15.1)."""
    four = tuple(Exit(20, "us", "west", "mech_division") for _ in range(4))
    menus = ((on("cobra", 20, 1, exits=four), ("exit_us_mech", "variant_4th_panzer",
                                                "variant_4th_panzer", "allied_regiment",
                                                "exit_us_west")),
             (on("cobra", 27, 1), ("exit_british_mech", "us_not_exited", "exit_us_mech")),
             (on("cobra", 19, 1), ("brest_entry",)), (on("campaign", 1, 1), ()),
             (on("campaign", 8, 1), ()), (on("campaign", 15, 1), ()),
             (on("buildup", 14, 1), ("caen",)))
    for seed, (game, keys) in enumerate(menus):
        tour.save("vp", CobraSession(game).to_dict())
        guide = tour.guide(tour.box("vp"), "cobra", seed=seed)
        guide.choose(tour.t("resume_cobra"))
        guide.choose(tour.t("tracks"))
        guide.choose(tour.t("victory_points"))
        for key in keys:
            guide.choose(vp_item(guide.app, vps.SOURCES[key], game.turn))
            if key == "us_not_exited":
                guide.press("cw", "cw", "cw", "cw", "ok")  # 5 × 3 VP: 12 at most (16.1)
            guide.play(8, until=lambda guide=guide: isinstance(guide.view, Menu) and
                       guide.view.header.title == tour.t("victory_points"))
        guide.choose(tour.t("vp_take_back", what="").split(":")[0])
        guide.play(30)
    released = Scoresheet(rolls=(SpecialRoll(22, "release", 1, True),))
    specials = (("brest", on("cobra", 26, 0), 2), ("brest", on("cobra", 27, 0), 5),
                ("release", on("cobra", 22, 2), 2), ("release", on("cobra", 23, 2, released), 1),
                ("release", on("cobra", 22, 2), 5), ("leclerc", on("cobra", 20, 7), 1),
                ("leclerc", on("cobra", 20, 7), 4))
    for key, game, face in specials:
        tour.save("special", CobraSession(game).to_dict())
        guide = tour.guide(tour.box("special", [face] * 10), "cobra")
        guide.choose(tour.t("resume_cobra"))
        guide.follow(tour.t(key))
        guide.play(12, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")


def on(key: str, turn: int, step: int, scoresheet: Scoresheet | None = None,
       exits: tuple[Exit, ...] = ()) -> CobraGame:
    """A game of scenario `key` at `step` of game turn `turn`, the weather known from its
    first turn on (none yet at the weather phase)."""
    game = CobraGame.start(key)
    played = tuple([Weather.OVERCAST] * (turn - game.first_turn + (1 if step else 0)))
    return replace(CobraGame(game.scenario, turn, step, played, game.tracks, game.last),
                   exits=exits, scoresheet=scoresheet or Scoresheet())


def journey_landing(tour: Tour) -> None:
    """The campaign's Allied Landing Phase (17.3.2), with the owner's tables and without: each
    drop landed and scattered, a resumed scatter, beach defence, attrition on a beach and on a
    paratroop unit, a beach held and abandoned, the nine drops done, the phase left before
    them; the withdrawal attack (17.3.4) at the end of an Allied turn, destroyed, withdrawn
    and read."""
    folder = owners_tables(tour.folder / "owner-landing")
    crt = "\n".join(f'"{c}" = ["", "{"-/1" if c == "3:1" else ""}", "", '
                    f'"{"1/2" if c == "2:1" else ""}", "", ""]' for c in COLUMNS)
    (folder / "cobra" / "tables.toml").write_text(f'[crt]\n{crt}\n[scatter]\n"4" = "south"\n')
    owner = {"paths": {"cards_dir": str(folder)}}
    start = CobraGame.start("campaign")
    pending = Landing(drops=((Target.US_82, 5, None),))
    nine = Landing(drops=tuple((Target.US_101, 1, 1) for _ in range(9)),
                   attritions=(Landed(Target.OMAHA, "4:1", 6, "3", 3),))
    withdrawal = CobraGame("campaign", 3, 10, (C, C, C), start.tracks, start.last)
    # (name, game, tables, dice, the items to choose, the keys to press then)
    runs = [("drop", start, {}, [1], ("para_drop", "landing_82nd"), ()),
            ("scatter", start, owner, [6, 4], ("para_drop", "landing_6th"), ()),
            ("scatter-read", replace(start, landing=pending), {}, [2], (), ()),
            ("defence", start, {}, [6], ("beach_defence",), ()),
            ("attrition", start, owner, [4], ("landing_attrition", "landing_juno"),
             ("cw", "cw", "ok")),
            ("para", start, {}, [2], ("landing_attrition", "landing_101st"), ("ccw", "ok")),
            ("held", replace(start, landing=nine), {}, [], ("beach_check", "landing_gold"),
             ("cw", "ok", "ok")),
            ("abandoned", replace(start, landing=nine), {}, [],
             ("beach_check", "landing_omaha"), ("ok", "ok")),
            ("nine", replace(start, landing=nine), {}, [], ("para_drop",), ()),
            ("leave", start, {}, [], ("next_phase",), ()),     # none dropped: asked first
            ("withdrawn", withdrawal, owner, [2], ("withdrawal",), ("ok",)),
            ("destroyed", withdrawal, {}, [6], ("withdrawal",), ("ok",)),
            ("leaving", start, {}, [], ("next_phase",), ())]    # drops left: asked first
    for name, game, more, faces, path, keys in runs:
        tour.save(name, CobraSession(game).to_dict())
        guide = tour.guide(tour.box(name, faces * 20, config=more), "cobra")
        guide.choose(tour.t("resume_cobra"))
        for key in path:        # the drops' item counts them: its first word
            text = tour.t(key, n=1, most=9)
            guide.follow(text.split(" ")[0] if key == "para_drop" else text)
        guide.press(*keys)
        guide.play(12)
    # two steps more lost in a hex with a marker: added to it (17.3.2 step 5f), then the log
    tour.save("marker-add", CobraSession(replace(
        start, landing=Landing(markers=(Marker(Target.JUNO, 1),)))).to_dict())
    guide = tour.guide(tour.box("marker-add", [4] * 20, config=owner), "cobra")
    guide.choose(tour.t("resume_cobra"))
    guide.follow(tour.t("landing_attrition"), tour.t("landing_juno"))
    guide.press("cw", "cw", "ok", "axis", "ok", "ok")
    guide.follow(tour.t("marker_add", n=-1, total=-3))
    guide.play(4, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
    read_log(guide)
    tour.save("landing", CobraSession(start).to_dict())
    guide = tour.guide(tour.box("landing", [5, 3, 6, 2, 4, 1] * 100), "cobra", seed=11)
    guide.choose(tour.t("resume_cobra"))
    guide.play(120)


def journey_plans(tour: Tour) -> None:
    """Carpet bombing refused unplanned, planned, its plan read, cancelled (14.3a, c, d); the
    beach shift marker placed after landing losses and on an Allied attack, then removed
    (17.3.2 step 5f); All beaches lost? at an Allied turn of the Build-Up, answered yes
    (17.3.13, 17.4.3)."""
    planned = replace(at(16, 8, [C, C]), carpet_plan=16)
    marked = replace(on("campaign", 2, 8), landing=Landing(markers=(Marker(Target.JUNO, 1),)))
    # the German mechanized movement, a beach abandoned in the landing: asked at the Allied
    # turn's start; any Allied phase: the row (17.3.13)
    german = replace(on("buildup", 3, 4), landing=Landing(abandoned=(Target.OMAHA,)))
    runs = [("unplanned", at(15, 8, [C]), ("carpet_plan",)),
            ("planned", planned, ("carpet_cancel",)),
            ("skipped", planned, ("next_phase",)),       # asked before it is dropped (14.3d)
            ("marked", marked, ("attack",)),
            ("beaches", german, ("next_phase",)),
            ("beaches-row", on("buildup", 3, 8), ("beaches_lost_row",))]
    for name, game, path in runs:
        tour.save(name, CobraSession(game).to_dict())
        guide = tour.guide(tour.box(name, [4] * 50), "cobra")
        guide.choose(tour.t("resume_cobra"))
        for key in path:
            guide.follow(tour.t(key))
        guide.play(24)
    # the log's lines of a plan made, then cancelled (asked, yes), read from the menu
    tour.save("plan-log", CobraSession(at(15, 8, [C])).to_dict())
    guide = tour.guide(tour.box("plan-log", []), "cobra")
    guide.choose(tour.t("resume_cobra"))
    guide.follow(tour.t("carpet_plan"))
    guide.play(4, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
    guide.app.game.game = replace(guide.app.game.game, turn=16, weather=(C, C))
    guide.follow(tour.t("tracks"))
    guide.press("back")
    guide.follow(tour.t("carpet_cancel"), tour.t("yes"))
    read_log(guide)
    tour.save("marker-row", CobraSession(marked).to_dict())
    guide = tour.guide(tour.box("marker-row", []), "cobra")
    guide.choose(tour.t("resume_cobra"))
    guide.follow(tour.t("tracks"), tour.t("marker_row", beach=tour.t("landing_juno"), n=-1))
    guide.follow(tour.t("yes"))                          # removed: units advanced out (5f2)
    guide.play(4, until=lambda guide=guide: isinstance(guide.view, Menu))
    guide.press("back")                                  # the tracks, then the hub
    read_log(guide)


def read_log(guide: Guide) -> None:
    """The game's log read from the long press's menu, as after the attacks."""
    guide.press("back")
    guide.follow(guide.t("battle_log"))
    guide.play(8, until=lambda: isinstance(guide.view, Menu))


def at(turn: int, step: int, history: list[Weather]) -> CobraGame:
    game = CobraGame.start("cobra")
    return CobraGame(game.scenario, turn, step, tuple(history), game.tracks, game.last)


def at_turn_end(key: str, turn: int) -> CobraGame:
    game = CobraGame.start(key)
    played = tuple([Weather.OVERCAST] * (turn - game.first_turn + 1))
    return CobraGame(game.scenario, turn, 10, played, game.tracks, game.last)


def owners_tables(folder: Path) -> Path:
    """A cards folder with an owner's tables file (as tests/device/games/test_cobra_box.py's)."""
    (folder / "cobra").mkdir(parents=True, exist_ok=True)
    crt = "\n".join(f'"{c}" = ["", "", "", "{"1/2" if c == "2:1" else ""}", "", ""]'
                    for c in COLUMNS)
    (folder / "cobra" / "tables.toml").write_text(
        f'[crt]\n{crt}\n[weather.C]\n"1" = "storm"\n"4" = "clear"\n[terrain]\ntown = -1\n')
    return folder


def cobra_sayings() -> list[RulesError | Note]:
    """A refusal or note of Cobra that names each of Cobra's words it may name (a role, a
    modifier, a kind of shift, a nation, a level of victory, the weather)."""
    r, w = CobraRefusal, Why
    return [
        *(RulesError(r.NEEDS_A_UNIT, role=role.value) for role in Role),
        *(RulesError(r.MODIFIER_WRONG_ROLE, unit="40", modifier=letter,
                     role=Role.DEFENCE.value) for letter in BY_LETTER),
        *(RulesError(r.SHIFTS_DISAGREE, shift_kind=kind.value, columns=-3,
                     nation=nation.value, said=other.value)
          for kind in ShiftKind for nation, other in zip(Nation, reversed(Nation), strict=True)),
        *(RulesError(r.OVERRUN_MODIFIER, unit="40", modifier=letter)
          for letter in BY_LETTER),
        *(RulesError(r.OVERRUN_ADVANCE_SHIFT, shift_kind=kind.value) for kind in ShiftKind),
        *(Note(w.VICTORY_TOWARD_ALLIES, {"start": start, "allied": 199, "german": 199,
                                               "difference": -199, "levels": 3})
          for start in words_of("levelname_")),
        *(Note(w.GERMAN_SUPPLY_STOPS, {"gain": 3, "weather": weather.value, "most": 12})
          for weather in Weather),
        *(RulesError(r.HQ_OTHER_ARMY, name="LXXXIX", army=army.value, paid=paid.value)
          for army in Army for paid in ALLIED_ARMIES),
        *(RulesError(code, army=army.value, made=20, most=20)
          for code in (r.ATTACK_LIMIT, r.OVERRUN_LIMIT) for army in ALLIED_ARMIES),
        *(RulesError(r.VP_NOT_THIS_TURN, vp_source=key, turn=28, first=28, last=28,
                     article="17.3.2 step 5e") for key in vps.SOURCES),
        *(RulesError(r.NO_REPLACEMENT_STEP, turn=20, step_kind=kind, on_track="1½")
          for kind in KINDS),
        # the landing (17.3.2): each direction of the Scatter Diagram, each beach and division
        *(Note(w.PARA_SCATTERED, {"die": 6, "direction": d.value}) for d in Direction),
        *(RulesError(r.LANDING_SHIFT_WRONG_TARGET, landing=t.value) for t in Target),
    ]


def cobra_log() -> list[LogEntry]:
    """Every kind of line a Cobra game's log has, each word of the rules it names, with the
    longest values."""
    supply = Note(Why.GERMAN_SUPPLY_STOPS, {"gain": 3, "weather": "storm", "most": 12})
    rolled = entry("log_weather_roll", column="C", die=6, modifier=-2, modified=4)
    odds = entry("log_odds", attack=199, defence=199, base="1:1", net=-3, column="1:5")
    attacks = [entry("log_attack", nation=nation.value, odds=odds_of, die=6, result=result)
               for nation in Nation for odds_of in (odds, entry("log_carpet_odds"))
               for result in ("1/2", entry("read_crt"))]
    overruns = [entry("log_overrun", nation=nation.value, when=when.value, odds=odds, die=6,
                      result=result)
                for nation in Nation for when in OverrunWhen
                for result in ("1/2", entry("read_crt"))]
    lines = [
        *(entry("log_cobra_start", scenario=key, title=scenario.title, first=scenario.first,
                last=scenario.last) for key, scenario in SCENARIOS.items()),
        *(entry("log_cobra_phase", nation=nation.value, phase=phase)
          for nation in Nation for phase in words_of("phase_")),
        entry("log_cobra_turn_end"),
        *(entry("log_extension", die=6, result=entry(outcome))
          for outcome in ("one_more_turn", "game_ends")),
        *(entry("log_weather", weather=weather.value, how=how, supply=supply)
          for weather in Weather
          for how in (rolled, Note(Why.AFTER_THREE_STORMS, {}))),
        entry("log_allied_supply", note=Note(Why.HALF_SUPPLY_STORM,
                                             {"us": 10, "british": 10})),
        *attacks,
        *overruns,
        entry("log_unsupplied", line=attacks[0]),
        *(entry("log_support", line=entry("log_paid", line=attacks[0], cost=2, track=track),
                air=1, naval=2) for track in ("us", "british", "german")),
        *(entry("log_carpet", die=6, result=result, air=3) for result in ("2", entry("read_crt"))),
        *(entry("log_track", track=track, old=199, new=199) for track in TRACKS),
        entry("log_hqs", line=attacks[0], hqs=("II SS Pz", "XLVII Pz")),
        *(entry("log_hq", name="II SS Pz", hq_event=event.value, hq_state=state.value)
          for event in HQEvent for state in HQState),
        entry("log_levels", us=20, british=20),
        *(entry(key, vp_source=source, vp=-15, track="german_vp")
          for key in ("log_vp", "log_vp_undo") for source in vps.SOURCES),
        *(entry("log_leclerc", die=6, result=entry(result))
          for result in ("log_mutiny", "log_no_mutiny")),
        *(entry("log_release", die=6, result=result)
          for result in (entry("log_not_released"), *(
              entry(key, division=347, units=3) for key in ("log_released",
                                                            "log_released_hq")))),
        *(entry("log_brest", die=6, modifier=-1, modified=5, result=entry(result))
          for result in ("log_fj_released", "log_not_released")),
        *(entry("log_air_attack", increase=2, ma=20, die=6, result=entry(outcome))
          for outcome in ("STEP_LOST", "NO_LOSS")),
        *(entry("log_replacement", army=army, step_kind=kind)
          for army in SIDES for kind in KINDS),
        entry("log_replacement_vp", line=entry("log_replacement", army="british",
                                               step_kind="mech"),
              note=Note(Why.REPLACEMENT_VP, {"steps": 990})),
        *(entry("log_replacement_back", army=army, step_kind=kind)
          for army in SIDES for kind in KINDS),
        entry("log_replacement_back_vp", line=entry("log_replacement_back", army="british",
                                                    step_kind="mech")),
        # the Allied Landing Phase (17.3.2) and the withdrawal attack (17.3.4)
        *(entry(key, landing=t.value, die=6) for key in ("log_para_landed", "log_para_scattered")
          for t in DIVISIONS),
        *(entry("log_para_direction", landing=t.value, die=6, where=where) for t in DIVISIONS
          for where in (*(entry("log_direction", direction=d.value) for d in Direction),
                        entry("log_read_diagram"))),
        *(entry("log_commit", die=6, result=entry(r)) for r in ("log_may_commit",
                                                                "log_no_commit")),
        *(entry("log_attrition", landing=t.value, start="1:3", column="10:1", die=6,
                result=result) for t in Target for result in ("2", entry("read_crt"))),
        *(entry("log_beach_check", landing=t.value, lost=99, landed=99, result=entry(r))
          for t in BEACHES for r in ("log_abandoned", "log_held")),
        *(entry("log_withdrawal", die=6, result=result) for result in ("2", entry("read_crt"))),
        # carpet bombing planned and cancelled (14.3a, c), the beach shift markers (17.3.2 step
        # 5f), the automatic German victory (17.3.13)
        entry("log_carpet_plan", turn=28), entry("log_carpet_cancel"),
        *(entry(key, landing=t.value, lost=9) for key in ("log_marker", "log_marker_removed")
          for t in BEACHES),
        entry("log_beaches_lost"),
        *bookkeeping_log(),         # the campaign's bookkeeping (17.3)
    ]
    return [entry("log_game_turn", turn=28, line=line) for line in lines]


def bookkeeping_log() -> list[LogEntry]:
    """The log lines of the campaign's bookkeeping (17.3), with the longest values."""
    attack = entry("log_attack", nation="german", odds=entry(
        "log_odds", attack=199, defence=199, base="1:1", net=-3, column="1:5"), die=6,
        result="1/2")
    return [entry("log_delay_unit", n=6, most=6),
            *(entry(key, left=4, most=4) for key in ("log_rail_foot", "log_rail_mech",
                                                      "log_rail_back")),
            entry("log_cherbourg", line=attack)]
