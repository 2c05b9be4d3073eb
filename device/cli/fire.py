"""`resolve` and `odds`: one shot at a hard target, or fire at soft targets and templates
(`--weapon`), rolled and explained, or its exact chances."""
from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from cobi_companion.device.cli.checked import Whole, card
from cobi_companion.device.cli.common import (
    cards,
    house_rules,
    make_dice,
    note_unused,
    print_result,
)
from cobi_companion.device.cli.errors import UsageError
from cobi_companion.device.cli.options import (
    DICE,
    TABLE_CM,
    add_house_rules,
    add_learned,
    rule_names,
)
from cobi_companion.device.cli.reload_crew import reload_crew
from cobi_companion.device.cli.specs import (
    ATTACKER_STATUS,
    SOFT_ATTACKER_STATUS,
    SOFT_TARGET_STATUS,
    TARGET_STATUS,
    UNDER_FORM,
    Label,
    covered,
    labeller,
    situations,
    status,
    target_piece,
)

if TYPE_CHECKING:
    from cobi_companion.cards import CardBook
    from cobi_companion.rules.card import InfoCard, Weapon
    from cobi_companion.rules.shot import ShotPlan
    from cobi_companion.rules.status import Status
    from cobi_companion.rules.tank.soft_fire import Covered, SoftPlan

# The explanations (device/cli/explain.py, which imports every rule it explains) are imported
# only to print one: a command with --json answers without them.

def resolve(args: argparse.Namespace) -> int:
    from cobi_companion.rules.levels import rule_set

    check_options(args)
    book = cards(args)
    dice = make_dice(args.dice)
    if args.weapon is not None:
        from cobi_companion.rules.tank import soft_fire

        soft = soft_plan(args, book)
        fired = soft_fire.fire(soft, dice)

        def fired_text() -> str:
            from cobi_companion.device.cli import explain

            return explain.soft_fire(fired, soft)
        print_result(args, fired.to_dict(), fired_text)
    else:
        plan = hard_plan(args, book)
        shot = rule_set(args.rules).fire(plan, dice)

        def shot_text() -> str:
            from cobi_companion.device.cli import explain

            return explain.shot(shot)
        print_result(args, shot.to_dict(), shot_text)
    note_unused(dice)
    return 0


def odds(args: argparse.Namespace) -> int:
    from cobi_companion.rules.levels import rule_set

    check_options(args)
    book = cards(args)
    if args.weapon is not None:
        from cobi_companion.rules.tank import soft_odds

        soft = soft_plan(args, book)
        chances = soft_odds.odds(soft)

        def chances_text() -> str:
            from cobi_companion.device.cli import explain

            return explain.soft_odds(chances, soft)
        print_result(args, chances.to_dict(), chances_text)
        return 0
    plan = hard_plan(args, book)
    result = rule_set(args.rules).odds(plan)

    def odds_text() -> str:
        from cobi_companion.device.cli import explain

        return explain.odds(result, args.rules, plan.attacker, plan.target, args.facing)
    print_result(args, result.to_dict(), odds_text)
    return 0


# ---- which options go together ----


def check_options(args: argparse.Namespace) -> None:
    """Which options go together: fire at a hard target, or soft-target fire (--weapon)."""
    if args.weapon is None:
        _check_hard(args)
    else:
        _check_soft(args)
        _check_soft_targets(args)


def _check_hard(args: argparse.Namespace) -> None:
    soft_only = (("--under", bool(args.under)), ("--in", args.situations is not None),
                 ("--cover", args.cover), ("--crew", args.crew))
    for name, given in soft_only:
        if given:
            raise UsageError(f"{name} is for soft-target and template fire: add --weapon "
                             f"NAME (a weapon on the attacker's card) or --weapon he")
    missing = [name for name, value in (("--target", args.target),
                                        ("--facing", args.facing)) if value is None]
    if missing:
        raise UsageError(f"{args.command} needs {' and '.join(missing)} (or --weapon NAME "
                         f"for soft-target fire)")


def _check_soft(args: argparse.Namespace) -> None:
    from cobi_companion.rules.levels import rule_set

    if not rule_set(args.rules).soft_fire:
        raise UsageError("--weapon: fire at soft targets and templates is a Tank Game rule: "
                         "use --rules tank")
    if args.hull_down:
        raise UsageError("--hull-down is for fire at hard targets; with --weapon he a vehicle "
                         "under the template says it in its --under SPEC: 2474@hard_cover "
                         "(or --cover for one vehicle), figures @soft_cover or @hard_cover "
                         "(--in with --target)")
    if args.crew_below_half:
        raise UsageError("--crew-below-half is for fire at hard targets; with --weapon give "
                         "--attacker-figures N, the crew left")
    if args.weapon.strip().lower() == "ap":
        raise UsageError("--weapon ap: AP is the main gun's shot at hard targets: leave out "
                         "--weapon (and AP is not effective against guns)")


def _check_soft_targets(args: argparse.Namespace) -> None:
    if (args.target is None) == (not args.under):
        raise UsageError("--weapon fires at one --target CARD, or at every piece given with "
                         "--under SPEC: give one of the two")
    if args.under:
        for name, given in (("--in", args.situations is not None), ("--crew", args.crew),
                            ("--facing", args.facing is not None),
                            ("--target-status", args.target_status is not None)):
            if given:
                raise UsageError(f"{name} goes with --target; under a template each piece "
                                 f"says it in its --under {UNDER_FORM}")
    if args.cover and args.weapon.strip().lower() != "he":
        raise UsageError("--cover is HE's -1 to hit (the target is in any cover): it needs "
                         "--weapon he; the attacks' own cover is --in or @SITUATION")
    if args.attacker_figures is not None and args.attacker_figures < 0:
        raise UsageError(f"--attacker-figures: {args.attacker_figures} is not allowed; "
                         f"allowed: a whole number of figures, 0 or more")


# ---- the plans ----


def _attacker_status(args: argparse.Namespace) -> Status:
    allowed = ATTACKER_STATUS if args.weapon is None else SOFT_ATTACKER_STATUS
    return status(args.attacker_status, allowed, "--attacker-status")


def hard_plan(args: argparse.Namespace, book: CardBook) -> ShotPlan:
    """A shot at a hard target, as the options describe it."""
    from cobi_companion.rules.card import Facing
    from cobi_companion.rules.shot import ShotPlan

    attacker, house = book.get(args.attacker), house_rules(args)
    below_half, by_house = reload_crew(attacker, args.attacker_figures, args.crew_below_half,
                                       house, "--attacker-figures")
    return ShotPlan(
        attacker=attacker,
        target=book.get(args.target),
        facing=Facing(args.facing),
        hull_down=args.hull_down,
        range_cm=args.range_cm,
        crew_below_half=below_half,
        crew_by_house=by_house,
        attacker_status=_attacker_status(args),
        target_status=status(args.target_status, TARGET_STATUS, "--target-status"),
        house=house,
    )


def _firing_figures(args: argparse.Namespace, card: InfoCard) -> int | None:
    """--attacker-figures, else the card's crew, else one figure for a figure, a gun or an
    open-top vehicle (a closed vehicle's crew is not counted)."""
    from cobi_companion.rules.card import Kind

    if args.attacker_figures is not None:
        figures: int | None = args.attacker_figures
        return figures
    if card.crew is not None:
        return card.crew
    return 1 if card.kind in (Kind.FIGURE, Kind.GUN, Kind.OPEN_TOP) else None


def _one_target(args: argparse.Namespace, book: CardBook, label: Label) -> Covered:
    """--target CARD with its --in, --facing, --crew and --target-status."""
    from cobi_companion.rules.card import Facing, Kind
    from cobi_companion.rules.tank.soft_fire import Covered

    target = book.get(args.target)
    if args.crew and target.kind is Kind.FIGURE:
        raise UsageError(f"--crew is for a gun's or a vehicle's crew; {target.title} is "
                         f"a figure")
    count = 1 if args.crew or target.kind is Kind.FIGURE else 0
    marks = status(args.target_status, SOFT_TARGET_STATUS, "--target-status")
    where = () if args.situations is None else situations(args.situations, "--in")
    return Covered(target_piece(target, count, label, marks), count, where,
                   Facing(args.facing or "front"), model=not args.crew)


def _under(specs: list[str], book: CardBook, label: Label) -> tuple[Covered, ...]:
    """Each --under SPEC in turn: a squad /riding rides the last vehicle given before it."""
    targets: list[Covered] = []
    for spec in specs:
        vehicles = [c.piece for c in targets if c.piece.kind.vehicle]
        targets.append(covered(spec, book, label, vehicles))
    return tuple(targets)


def _behind_cover(weapon: Weapon, targets: tuple[Covered, ...]) -> tuple[Covered, ...]:
    """--cover: the one vehicle under HE is behind cover, the box's "Behind cover?" answered
    yes (hard cover, as at hard targets). Said of figures, or of several pieces, it would not
    say which cover or whose: refused unless their situations already show it."""
    from cobi_companion.rules.tank.soft_fire import asks_behind_cover, behind_cover, he_in_cover

    if len(targets) == 1 and asks_behind_cover(weapon, targets[0]):
        return (behind_cover(targets[0]),)
    if not he_in_cover(targets):
        raise UsageError("--cover is one vehicle under the template behind cover (the box's "
                         "Behind cover?); figures say where they are, with @soft_cover or "
                         "@hard_cover (--in with --target): HE's -1 to hit is read from that")
    return targets


def soft_plan(args: argparse.Namespace, book: CardBook) -> SoftPlan:
    """Fire of a weapon (or HE) at one --target or at the pieces --under its template."""
    from cobi_companion.rules.battle import Piece
    from cobi_companion.rules.card import Kind
    from cobi_companion.rules.status import Side
    from cobi_companion.rules.tank.soft_fire import (
        HE,
        MAIN_GUN,
        SoftPlan,
        gun_weapon,
        he_weapon,
    )

    label = labeller()
    card = book.get(args.attacker)
    firer = Piece(label(card), Side.AXIS, card, _attacker_status(args),
                  _firing_figures(args, card))
    asked = " ".join(args.weapon.lower().split())
    weapon = he_weapon(card) if asked == HE else gun_weapon(card) if asked == MAIN_GUN \
        else card.weapon(args.weapon)
    if weapon.template is None and args.range_cm is None:
        raise UsageError(f"a {weapon.name} shot needs --range-cm N, for its band of the Soft "
                         f"Targets Table")
    if args.target is not None:
        targets: tuple[Covered, ...] = (_one_target(args, book, label),)
        aimed = targets[0]
        if asked == MAIN_GUN and aimed.model and aimed.piece.kind in (Kind.HARD, Kind.OPEN_TOP):
            raise UsageError(f"{aimed.label} is a hard target: the main gun fires AP at it: "
                             f"leave out --weapon")
    else:
        targets = _under(args.under, book, label)
    if args.cover:
        targets = _behind_cover(weapon, targets)
    # cover=None: HE's -1 read from the situations (he_in_cover), as the box reads it
    return SoftPlan(firer, weapon, targets, book.table, range_cm=args.range_cm,
                    house=house_rules(args))


# ---- the options: added to the command's parser when it is first used ----

SHOT_DICE = "scripted faces in order, like 3,5,6 (or 'ask' for real dice); default: random"


def _figures(low: int) -> Callable[[str], int]:
    """Figures of a squad or a crew: as many as the box dials for a squad. The rules' bound is
    read when the option is given: building the parser imports no battle (its dataclasses)."""
    def figures(text: str) -> int:
        from cobi_companion.rules.battle import SQUAD_MAX

        return Whole(low, SQUAD_MAX, "a whole number of figures")(text)
    return figures


def _hard_target(parser: argparse.ArgumentParser) -> None:
    """The options of a shot at a hard target (and the firer's, which soft fire shares)."""
    from cobi_companion.rules.card import Facing

    parser.add_argument("--rules", choices=rule_names(), required=True,
                        help="easy (COBI Easy level) or tank (Cobi WWII Tank Game)")
    parser.add_argument("--attacker", required=True, metavar="CARD", type=card,
                        help="firer's set number or card id")
    parser.add_argument("--target", metavar="CARD", type=card,
                        help="target's set number or card id")
    parser.add_argument("--facing", choices=[facing.value for facing in Facing],
                        help="which armour the shot hits (with --weapon: a vehicle's, "
                             "default front)")
    parser.add_argument("--range-cm", type=TABLE_CM, metavar="N",
                        help="measured range (Tank Game: over 100 cm is -1 to hit; with a "
                             "weapon without a template: its band of the Soft Targets Table)")
    parser.add_argument("--hull-down", action="store_true",
                        help="target hull down or in hard cover (Tank Game: -1 to hit)")
    parser.add_argument("--crew-below-half", action="store_true",
                        help="the firer has too few crew to reload without -1 (Tank Game: "
                             "under half its crew; an open-top, fewer than two figures); or "
                             "give --attacker-figures N and the -1 is worked out")
    parser.add_argument("--target-status", metavar="LIST",
                        help=f"comma list of {', '.join(TARGET_STATUS)}")
    parser.add_argument("--attacker-status", metavar="LIST",
                        help=f"comma list of {', '.join(ATTACKER_STATUS)}")


def _soft_targets(parser: argparse.ArgumentParser) -> None:
    from cobi_companion.rules.tank.situations import SITUATIONS

    soft = parser.add_argument_group(
        "soft-target and template fire (Tank Game)",
        "fire a weapon of the attacker's card, or its main gun's HE, at figures, guns and "
        "vehicles by the Soft Targets Table")
    soft.add_argument("--weapon", metavar="NAME",
                      help="a weapon on the attacker's card, or he: its main gun firing HE, or "
                           "'main gun': a main gun without HE at one figure or soft vehicle")
    soft.add_argument("--attacker-figures", type=_figures(0), metavar="N",
                      help="figures of the firing squad, or crew left of a gun or vehicle "
                           "(default: the card's crew); a main gun's shot works out its -1 "
                           "to reload from it (an open-top needs two, rule 11)")
    soft.add_argument("--in", dest="situations", metavar="SITUATIONS",
                      help=f"the --target's situations, comma list of {', '.join(SITUATIONS)}")
    soft.add_argument("--crew", action="store_true",
                      help="fire at one of the --target's crew figures, not at the gun or "
                           "vehicle itself")
    soft.add_argument("--under", action="append", metavar="SPEC", default=[],
                      help=f"a piece under the template (repeat for each): {UNDER_FORM}, "
                           f"like bofors-37mm:3@soft_cover or 2477/side")
    soft.add_argument("--cover", action="store_true",
                      help="HE: the one vehicle under the template is behind cover (-1 to "
                           "hit, the box's Behind cover?); figures say their cover with "
                           "@SITUATION, read without it as the box does")


def odds_options(parser: argparse.ArgumentParser) -> None:
    _hard_target(parser)
    _soft_targets(parser)
    add_learned(parser)
    add_house_rules(parser, "the rules' readings by default, docs/rules-notes.md")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def resolve_options(parser: argparse.ArgumentParser) -> None:
    odds_options(parser)
    parser.add_argument("--dice", metavar="FACES", type=DICE, help=SHOT_DICE)
