"""The tour's journeys through the Tank Game: a battle, fights resumed from saved battles (every
outcome of a shot, templates, each refusal), squads riding on vehicles, the Soft Targets Table
learned at the table, pieces under every mark and the slips of a battle."""
from __future__ import annotations

import errno
import os
from dataclasses import replace

from cobi_companion.cards import learned_file, load_cards
from cobi_companion.device.core.battle_state import LastShot, TankBattle
from cobi_companion.device.core.views import Lines, Menu
from cobi_companion.device.games.tank import learn
from cobi_companion.rules.battle import Battle
from cobi_companion.rules.card import Facing, Kind
from cobi_companion.rules.house import HouseRules
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank import turns
from cobi_companion.rules.tank.soft_table import Lack, Wanted
from tour import Tour, back_to, labels, seed_battle

from journeys.easy import house_rules_tried, resumed


def journey_tank(tour: Tour) -> None:
    """A Tank Game battle with every card, figures and guns too (the roster's Rules row turned
    to it; each side needs a piece); then the box starts again and it is resumed."""
    guide = tour.guide(tour.box("tank"), "tank", seed=7)
    guide.choose(tour.t("new"))
    guide.go_to(guide.row_of("rules"))
    guide.press("ok")
    house_rules_tried(guide, "tank")
    guide.go_to(guide.row_of("rules"))
    guide.press("cw", "ok")                             # no pieces yet: the roster says so
    guide.play(900)
    resumed(tour, "tank", 100)


def journey_fights(tour: Tour) -> None:
    """Saved battles resumed and fought: tanks at tanks (every outcome of a shot, the armour
    turned on the knob), squads at squads, guns and a soft vehicle (fire at soft targets,
    templates), a tank whose enemies are all hidden or off the map (no target), a damaged
    target at the Easy level, and the last shot again, fired by the firer's button."""
    none: dict[str, bool] = {}
    label = labels()
    fights = {
        "tanks": ({Side.AXIS: [("2477", none), ("2474", none), ("pz-iv-d", none)],
                   Side.ALLIES: [("2464", none), ("2456", none), ("2508", none)]},
                  (tour.t("fire"),)),
        "squads": ({Side.AXIS: [("rifleman", none), ("mg-gunner", none),
                                ("pistol-soldier", none), ("bofors-37mm", none)],
                    Side.ALLIES: [("rifleman", none), ("motorcycle-sidecar", none),
                                  ("rifleman", {"hidden": True}), ("2456", none)]},
                   (tour.t("fire"),)),
        "alone": ({Side.AXIS: [("2477", none)],
                   Side.ALLIES: [("2464", {"hidden": True}), ("2456", {"off_map": True})]},
                  (tour.t("fire"),)),
        "placing": ({Side.AXIS: [("2456", {"off_map": True}), ("rifleman", {"off_map": True}),
                                 ("2477", none)],
                     Side.ALLIES: [("2464", none)]},
                    (tour.t("place_off_map", n=2), tour.t("place_off_map", n=1),
                     tour.t("on_its_own"), label["2456"] + " 1")),
    }
    for seed, (name, (sides, wanted)) in enumerate(fights.items()):
        seed_battle(tour, name, sides)
        guide = tour.guide(tour.box(name), name, seed=seed)
        guide.choose(tour.t("resume"))
        guide.prefer = wanted.__contains__
        guide.play(150)
        guide.prefer = lambda item: False
        guide.play(250)
    hits = {"immobilized": [6, 6, *[2] * 9], "weakened": [6, 6, 6, *[2] * 9],
            "gun-lost": [6, 6, 6, 6, 6, *[2] * 9], "no-effect": [6, 1, *[1] * 9]}
    for name, faces in hits.items():          # a Sherman at a Tiger's side: 9 dice v 8
        seed_battle(tour, name, {Side.AXIS: [("2464", none)], Side.ALLIES: [("2477", none)]})
        guide = tour.guide(tour.box(name, faces * 20), name)
        guide.choose(tour.t("resume"))
        guide.follow(label["2464"], tour.t("fire"), label["2477"], tour.t("no"), tour.t("no"))
        guide.aim(Facing.SIDE)
        guide.play(30)
    seed_battle(tour, "tiger", {Side.AXIS: [("2477", none)], Side.ALLIES: [("2464", none)]})
    guide = tour.guide(tour.box("tiger", [6, 6, 6, *[2] * 16] * 20), "tiger")
    guide.choose(tour.t("resume"))                # 16 damage dice and one more for the six
    guide.follow(label["2477"], tour.t("fire"), label["2464"], tour.t("no"), tour.t("no"))
    guide.aim(Facing.FRONT)
    guide.play(30)
    for level, firer, number in (("easy", "2477", 2), ("tank", "2464", 1)):   # the last shot
        name = f"again-{level}"      # fired in the Axis' last turn (round 3's is turn 5),
        seed_battle(tour, name, {Side.AXIS: [(firer, none)], Side.ALLIES: [("2477", none)]},
                    level, last_shot=LastShot(f"{label[firer]} 1", f"{label['2477']} {number}",
                                              Facing.REAR, hull_down=level == "tank",
                                              turn=3))   # nothing moved since: kept
        guide = tour.guide(tour.box(name, [6, 6, 6, *[2] * 16] * 20), name)
        guide.choose(tour.t("resume"))
        guide.press("axis")                       # again, on its row: fired at once
        guide.play(20)
    seed_battle(tour, "turn-end", {Side.AXIS: [("rifleman", none), ("pistol-soldier", none)],
                                   Side.ALLIES: [("rifleman", none)]})
    guide = tour.guide(tour.box("turn-end"), "turn-end")
    guide.choose(tour.t("resume"))                # a move, no fire: the extra activation,
    guide.follow(label["rifleman"], tour.t("move"), tour.t("end_activation"),
                 tour.t("yes"), tour.t("pass"), tour.t("no"), tour.t("pass"), tour.t("yes"))
    guide.play(10)                                # then the turn ended: asked first
    for name, face in (("reload-fails", 1), ("reloads", 6)):    # the piece's menu says which
        seed_battle(tour, name, {Side.AXIS: [("2477", {"loaded": False})],
                                 Side.ALLIES: [("2464", none)]})
        guide = tour.guide(tour.box(name, [face] * 20), name)
        guide.choose(tour.t("resume"))
        guide.follow(label["2477"], tour.t("reload"))
        guide.play(3, until=lambda guide=guide: isinstance(guide.view, Menu))
    seed_battle(tour, "damaged", {Side.AXIS: [("2477", none)],
                                  Side.ALLIES: [("2464", {"weakened": True})]}, "easy")
    guide = tour.guide(tour.box("damaged", [6, 2] * 50), "damaged")
    guide.choose(tour.t("resume"))                # at the Easy level any hit destroys it
    guide.follow(label["2477"], tour.t("fire_at", target=label["2464"] + " 1"))
    guide.aim(Facing.FRONT)
    guide.play(10)
    scenes = {      # a firer, its target, and what to pick on the way: a screen each
        "no-target": ("2477", ("2456", {"off_map": True}), ()),
        "hidden": ("2477", ("2464", {"hidden": True}), (label["2464"],)),
        "no-weapon": ("unarmed", ("rifleman", none), (label["rifleman"],)),
        "templates": ("mg-gunner", ("rifleman", none), (label["rifleman"],)),
        "weapons": ("pistol-soldier", ("rifleman", none), (label["rifleman"],)),
        "squad": ("rifleman", ("rifleman", none), (label["rifleman"], tour.t("sit_open"))),
        "vehicle": ("rifleman", ("motorcycle-sidecar", none),
                    (label["motorcycle-sidecar"], tour.t("sit_open"), tour.t("front"))),
        "mg": ("mg-gunner", ("rifleman", none),
               (tour.t("template", weapon=tour.t("weapon_medium mg")), label["rifleman"],
                tour.t("sit_open"), tour.t("fire_now"))),
        "mg-cover": ("mg-gunner", ("rifleman", none),
                     (tour.t("template", weapon=tour.t("weapon_medium mg")), label["rifleman"],
                      tour.t("sit_hard_cover"), tour.t("fire_now"))),
        "mg-vehicle": ("mg-gunner", ("rifleman", none),
                       (tour.t("template", weapon=tour.t("weapon_medium mg")), label["rifleman"],
                        tour.t("sit_soft_vehicle"), tour.t("fire_now"))),
    }
    for seed, (name, (firer, (enemy, marks), picks)) in enumerate(scenes.items()):
        seed_battle(tour, name, {Side.AXIS: [(firer, none)], Side.ALLIES: [(enemy, marks)]})
        guide = tour.guide(tour.box(name, [6, 2, 3] * 200 if name == "vehicle" else None),
                           name, seed=seed)
        guide.choose(tour.t("resume"))
        guide.follow(label[firer], tour.t("fire"), *picks)
        if type(guide.app.screen).__name__ == "RangeDial":
            guide.press("ok")                   # the range the table has a value for
        guide.play(40)
    seed_battle(tour, "dialled", {Side.AXIS: [("2477", none)], Side.ALLIES: [("2464", none)]})
    guide = tour.guide(tour.box("dialled"), "dialled")
    guide.choose(tour.t("settings"))            # real dice: each face is dialled
    guide.choose(tour.t("axis_dice"))           # each side: Buttons → Real
    guide.choose(tour.t("allies_dice"))
    guide.press("back")
    guide.choose(tour.t("resume"))
    guide.follow(label["2477"], tour.t("fire"), label["2464"], tour.t("no"), tour.t("no"))
    guide.aim(Facing.FRONT)
    guide.play(20)
    seed_battle(tour, "leaving", {Side.AXIS: [("2464", {"commander_killed": True})],
                                  Side.ALLIES: [("2477", none)]})
    guide = tour.guide(tour.box("leaving"), "leaving")
    guide.choose(tour.t("resume"))
    guide.press("back")                     # only figures hide in play: a tank is refused
    guide.follow(tour.t("hidden_pieces"), label["2477"])
    guide.play(3, until=lambda: guide.view.header.title == tour.t("hidden_pieces"))
    guide.press("back")
    guide.follow(label["2464"], tour.t("leave_map"))
    guide.play(10)
    # a hidden figure spotted by a tank's commander out in the turret; one nobody can spot
    seed_battle(tour, "spotting", {Side.AXIS: [("2477", {"commander_out": True})],
                                   Side.ALLIES: [("rifleman", {"hidden": True})]})
    guide = tour.guide(tour.box("spotting"), "spotting")
    guide.choose(tour.t("resume"))
    guide.press("back")
    guide.follow(tour.t("hidden_pieces"), "• " + label["rifleman"], tour.t(
        "commander_of", label=f"{label['2477']} 1"))
    guide.play(3, until=lambda: guide.view.header.title == tour.t("hidden_pieces"))
    seed_battle(tour, "no-spotter", {Side.AXIS: [("2477", none)],
                                     Side.ALLIES: [("rifleman", {"hidden": True})]})
    guide = tour.guide(tour.box("no-spotter"), "no-spotter")
    guide.choose(tour.t("resume"))
    guide.press("back")
    guide.follow(tour.t("hidden_pieces"), "• " + label["rifleman"])
    guide.play(3, until=lambda: guide.view.header.title == tour.t("hidden_pieces"))


def journey_riders(tour: Tour) -> None:
    """Figures riding on vehicles: a squad gets on a tank (the box asks which vehicle), a
    squad loaded in a soft vehicle is picked with it and gets off, then the enemy fires at the
    squad on the tank; the battle is played on."""
    label = labels()
    rifle, tank = label["rifleman"], label["2464"]
    seed_battle(tour, "riders", {Side.AXIS: [("rifleman", {}), ("2464", {}), ("rifleman", {}),
                                             ("motorcycle-sidecar", {})],
                                 Side.ALLIES: [("rifleman", {})]}, riding={2: 3})
    guide = tour.guide(tour.box("riders"), "riders")
    guide.choose(tour.t("resume"))
    guide.follow(f"{rifle} 1", tour.t("go"), tour.t("get_on"), f"{tank} 1",
                 tour.t("end_activation"), tour.t("yes"), f"{rifle} 2", tour.t("go"),
                 tour.t("get_off"), tour.t("end_activation"), f"{rifle} 3", tour.t("fire"))
    guide.play(150)


def journey_learn(tour: Tour) -> None:
    """The Soft Targets Table learned at the table: a rifle shot at a range the table lacks
    (it knows 45 cm), the value dialled and remembered for a band, then a band that overlaps
    it; a template the table lacks remembered for good; a box whose learned file is broken;
    and the notice of each reason a value is not saved (as learn.py says them)."""
    label = labels()
    grenade = tour.t("template", weapon=tour.t("weapon_grenade"))
    yours = HouseRules(soft_table="printed")     # your table: a value it lacks is asked
    for name in ("learn", "learn-broken"):
        seed_battle(tour, name, {Side.AXIS: [("rifleman", {})],
                                 Side.ALLIES: [("rifleman", {})]}, house=yours)
        if name == "learn-broken":
            path = learned_file(tour.folder / name)
            path.parent.mkdir(parents=True)
            path.write_text("[weapons.rifle]\nranges = [{ from_cm = 28, to_cm = 40 }]\n")
        guide = tour.guide(tour.box(name, [4, 3] * 100), name)
        if name == "learn-broken":               # the box says so first; hold: play on
            tour.system(*map(str, guide.app.book.problems))
            guide.press("back")
        guide.choose(tour.t("resume"))
        guide.follow(label["rifleman"], tour.t("fire"), label["rifleman"], tour.t("sit_open"))
        guide.dial_to("30 cm")
        guide.press("ok", "cw", "ok")           # the range; the table says +1
        guide.choose(tour.t("remember_band"))
        guide.press("ccw", "ccw", "ok", *["cw"] * 7, "ok")         # for 28-37 cm
        if name == "learn-broken":
            guide.play(12)
            continue
        # the squad's next shot: the first one's again, held for another range
        again = tour.t("shot_of", n=2, of=3)
        guide.play(30, until=lambda guide=guide, again=again: isinstance(guide.view, Lines)
                   and guide.view.header.title == again)
        guide.press("back")
        guide.follow(label["rifleman"], tour.t("sit_open"))
        guide.dial_to("40 cm")
        guide.press("ok", "ok")                 # the table says 0
        guide.choose(tour.t("remember_band"))
        guide.press("ccw", "ccw", "ccw", "ok", "ok")                 # 37-40 cm: overlaps
        guide.play(6, until=lambda guide=guide: type(guide.app.screen).__name__ == "BandDial")
        guide.press("cw", "cw", "cw", "ok", "ok")                    # 40-40 cm
        guide.play(12)
    seed_battle(tour, "learn-template", {Side.AXIS: [("mg-gunner", {})],
                                         Side.ALLIES: [("rifleman", {})]}, house=yours)
    guide = tour.guide(tour.box("learn-template", [4, 3] * 100), "learn")
    guide.choose(tour.t("resume"))
    guide.follow(label["mg-gunner"], tour.t("fire"), grenade, label["rifleman"])
    guide.play(4, until=lambda: isinstance(guide.view, Menu))
    guide.follow(tour.t("sit_open"), tour.t("fire_now"))
    guide.press("ok")                           # the template's value: 0
    guide.choose(tour.t("remember_always"))
    guide.play(12)
    app = guide.app
    wanted = Wanted(weapon="rifle", lack=Lack.RANGE, cm=30.0)
    for why in (errno.EROFS, errno.ENOSPC, errno.EIO):
        said = learn.cannot_write(app, OSError(why, os.strerror(why)))
        guide.show(learn.not_remembered(app, said, -6, back_to(app.screen)))
    guide.show(learn.ValueDial(wanted, back_to(app.screen),
                               back_to(app.screen), value=-6))


def journey_marks(tour: Tour) -> None:
    """A Tank Game battle saved with a piece under every mark a piece can have: the status
    board, and the actions of pieces off the map, hidden, with their commander out or killed."""
    book = load_cards()
    battle = Battle("tank")
    marks = [{}, {"loaded": False}, {"weakened": True}, {"gun_destroyed": True},
             {"immobilized": True}, {"destroyed": True}, {"hidden": True},
             {"commander_out": True}, {"commander_killed": True}, {"off_map": True}]
    for number, card in enumerate(book.sorted()):
        for side in Side:
            battle = battle.add(card, side, 3 if card.kind is Kind.FIGURE else None)
            piece = battle.pieces[-1]
            mark = marks[(number + (side is Side.ALLIES)) % len(marks)]
            battle = battle.replace_piece(replace(piece, status=replace(piece.status, **mark)))
    state = TankBattle(battle, round=3, first=Side.AXIS, active=Side.AXIS,
                        defender=Side.AXIS, turn=turns.Turn(5, Side.AXIS))
    tour.save("marks", state.to_dict())
    guide = tour.guide(tour.box("marks"), "marks", seed=13)
    guide.choose(tour.t("resume"))
    guide.press("back")
    guide.choose(tour.t("status_board"))
    guide.play(400)


def journey_slips(tour: Tour) -> None:
    """Nothing lost to a slip: in a match, End battle asks (no); the box started again with
    the match saved, New battle, Cobra and New match ask (no, each); New battle, yes, then a
    roster left with a piece on it asks (no, then yes)."""
    guide = tour.guide(tour.box("slips"), "slips", seed=6)
    guide.choose(tour.t("new_match"))
    guide.play(40, until=lambda: guide.app.state is not None)
    for _ in range(8):                  # long presses: back to the battle, then its menu
        if guide.view.header.title == guide.t("menu"):
            break
        guide.press("back")
    guide.choose(tour.t("end_battle"))
    guide.choose(tour.t("no"))
    guide = tour.guide(tour.box("slips"), "slips", seed=7)
    for item in ("new", "cobra", "new_match"):
        guide.choose(tour.t(item))
        guide.choose(tour.t("no"))
    guide.choose(tour.t("new"))
    guide.choose(tour.t("yes"))
    guide.press("axis")
    guide.play_squad()
    guide.press("back")
    guide.choose(tour.t("no"))
    guide.press("back")
    guide.choose(tour.t("yes"))


def journey_house(tour: Tour) -> None:
    """A move by the house rule rough = each: after "Rough ground? yes" the box asks how many
    patches the move crosses (with the rules' reading it asks nothing more)."""
    label = labels()
    each = HouseRules(rough="each")
    seed_battle(tour, "house-rough", {Side.AXIS: [("2477", {})], Side.ALLIES: [("2464", {})]},
                house=each)
    guide = tour.guide(tour.box("house-rough", [4, 3] * 20), "house")
    guide.choose(tour.t("resume"))
    guide.follow(label["2477"], tour.t("move"), tour.t("no"), "0", tour.t("yes"), "2")
    guide.play(8)


def journey_big_squads(tour: Tour) -> None:
    """A squad of 8 is asked how many of its figures go (5, the most that fit), those hide
    (the squad is hidden once all of it has), the other 3 go in the extra activation."""
    label = labels()
    rifle = label["rifleman"]
    seed_battle(tour, "big-squads", {Side.AXIS: [("rifleman", {}), ("2464", {})],
                                     Side.ALLIES: [("rifleman", {})]}, figures={0: 8})
    guide = tour.guide(tour.box("big-squads"), "big-squads")
    guide.choose(tour.t("resume"))
    guide.choose(f"{rifle} 1")
    guide.press("ok")                                # 5 of the 8; the Sherman could join
    guide.press("ok")                                # Go! (lit): the 5 alone
    guide.follow(tour.t("hide"), tour.t("yes"), tour.t("no"))
    guide.play(3, until=lambda: isinstance(guide.view, Menu))
    guide.follow(tour.t("end_activation"), tour.t("yes"), f"{rifle} 1")
    guide.play(60)
