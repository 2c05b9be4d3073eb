"""The small languages of the command line: status lists, situations, and the pieces under a
template or a tank (`--under bofors-37mm:3@soft_cover`, `--under rifleman:2@soft+hidden`).

The words allowed are the rules' own (their enums and tables), read when a command runs; the
forms below are only text, for the parser's help, so that building the parser imports no rule.
Their patterns are compiled when an --under is read (the re module keeps them).
"""
from __future__ import annotations

import re
from argparse import ArgumentTypeError
from collections.abc import Callable
from typing import TYPE_CHECKING

from cobi_companion.device.cli.checked import card
from cobi_companion.device.cli.errors import UsageError
from cobi_companion.rules.numbers import echo, whole

if TYPE_CHECKING:
    from cobi_companion.cards import CardBook
    from cobi_companion.rules.battle import Piece, Ride
    from cobi_companion.rules.card import Facing, InfoCard
    from cobi_companion.rules.status import Status
    from cobi_companion.rules.tank.overrun import Under
    from cobi_companion.rules.tank.soft_fire import Covered

Label = Callable[["InfoCard"], str]

CREW = "crew"       # --under ...:N/crew: the template covers only the crew, not the model
RIDING = "riding"   # --under ...:N/riding: the squad rides the vehicle given before it
UNDER_FORM = ("CARD[:FIGURES][@SITUATION[+SITUATION]][/FACING or /crew or /riding or "
              "/riding=VEHICLE]")
_UNDER = (r"^(?P<card>[^:@/]*)(?::(?P<figures>[^@/]*))?(?:@(?P<situations>[^/]*))?"
          r"(?:/(?P<facing>.*))?$")
# The marks of a piece under the tank: hidden is a status mark, dug_in the overrun's own.
OVERRUN_MARKS = ("hidden", "dug_in")
OVERRUN_FORM = "CARD[:FIGURES][@COVER][+MARK[+MARK]]"
_OVERRUN_UNDER = (r"^(?P<card>[^:@+]*)(?::(?P<figures>[^@+]*))?(?:@(?P<cover>[^+]*))?"
                  r"(?P<marks>(?:\+[^+]*)*)$")
# The marks a firer and a target may carry (soft-target fire may also find a vehicle's
# commander out of the hatch).
ATTACKER_STATUS = ("unloaded", "gun_destroyed")
# With --weapon: a vehicle's commander out in the turret fires its external machine gun, and a
# killed one fires nothing.
SOFT_ATTACKER_STATUS = (*ATTACKER_STATUS, "commander_out", "commander_killed")
# A spotter: a closed vehicle spots only with its commander out in the turret (rule 11).
SPOTTER_STATUS = ("commander_out", "commander_killed")
TARGET_STATUS = ("weakened", "gun_destroyed", "immobilized")
SOFT_TARGET_STATUS = (*TARGET_STATUS, "commander_out")
# Marks a tank may carry but does not: a figure's (hidden) and a commander's sitting out.
_NOT_A_TANKS = ("hidden", "commander_out")


def tank_status_words() -> tuple[str, ...]:
    """--tank-status: the marks that matter to a tank's move, and the others it may carry."""
    from cobi_companion.rules.status import STATUS_WORDS

    return tuple(word for word in STATUS_WORDS if word not in _NOT_A_TANKS)


def status(text: str | None, allowed: tuple[str, ...], what: str) -> Status:
    """A comma list of status marks, each one of `allowed`."""
    from cobi_companion.rules.status import Status

    words = [w.strip() for w in (text or "").split(",") if w.strip()]
    bad = [w for w in words if w not in allowed]
    if bad:
        raise UsageError(f"{what}: {bad[0]!r} is not allowed; allowed: {', '.join(allowed)}")
    return Status.from_words(words)


def situations(text: str, what: str) -> tuple[str, ...]:
    """A list of the Soft Targets Table's situations, joined by commas or plus signs."""
    from cobi_companion.rules.tank.situations import SITUATIONS

    words = tuple(w.strip() for w in re.split(r"[,+]", text) if w.strip())
    bad = [w for w in words if w not in SITUATIONS] or ([] if words else [text])
    if bad:
        raise UsageError(f"{what}: {bad[0]!r} is not allowed; allowed: {', '.join(SITUATIONS)}")
    return words


def labeller() -> Label:
    """Labels pieces as the box does: "Bofors 1", then "Bofors 2" for the next of that card."""
    taken: dict[str, int] = {}

    def label(card: InfoCard) -> str:
        taken[card.short] = taken.get(card.short, 0) + 1
        return f"{card.short} {taken[card.short]}"
    return label


def target_piece(card: InfoCard, figures: int, label: Label,
                 marks: Status | None = None) -> Piece:
    """A squad of the figures attacked, or a gun or vehicle with its card's crew."""
    from cobi_companion.rules.battle import Piece
    from cobi_companion.rules.card import Kind
    from cobi_companion.rules.status import Side, Status

    crew = figures if card.kind is Kind.FIGURE or card.crew is None else card.crew
    return Piece(label(card), Side.ALLIES, card, marks or Status(), crew if crew else None)


def _parts(spec: str, form: str, write: str,
           under: str) -> tuple[re.Match[str], int | None]:
    """An --under SPEC's parts, and its FIGURES (None when not given); a missing CARD or bad
    FIGURES is refused."""
    from cobi_companion.rules.battle import SQUAD_MAX

    what = f"--under {echo(spec)}"
    match = re.match(form, spec.strip())
    if match is None or not match["card"].strip():
        raise UsageError(f"{what}: the CARD part is missing; write {write}")
    try:
        card(match["card"])
    except ArgumentTypeError as exc:
        raise UsageError(f"{what}: CARD {exc}") from None
    if match["figures"] is None:
        return match, None
    text = match["figures"].strip()
    figures = whole(text, 1, SQUAD_MAX)
    if figures is None:
        raise UsageError(f"{what}: FIGURES {echo(text)} is not allowed; allowed: a whole "
                         f"number of figures under {under} from 1 to {SQUAD_MAX}, like :3")
    return match, figures


# ---- soft-target and template fire: `resolve --weapon ... --under SPEC` ----


def _facing(text: str | None, what: str) -> tuple[Facing, bool]:
    """/FACING or /crew: the armour a vehicle is hit on, and whether the model is covered
    (False: only its crew)."""
    from cobi_companion.rules.card import Facing

    if text is None:
        return Facing.FRONT, True
    word = text.strip().lower()
    facings = [facing.value for facing in Facing]
    if word not in (*facings, CREW):
        raise UsageError(f"{what}: FACING {word!r} is not allowed; allowed: "
                         f"{', '.join(facings)}, {CREW} (only the crew is covered), or "
                         f"{RIDING} (a squad riding the vehicle given before it)")
    return (Facing.FRONT, False) if word == CREW else (Facing(word), True)


def _ride(card: InfoCard, named: str, vehicles: list[Piece], book: CardBook, label: Label,
          what: str) -> Ride:
    """/riding: the squad rides the last vehicle given before it under the template;
    /riding=VEHICLE, a vehicle of that card (the last one given before it, or one the template
    does not cover)."""
    from cobi_companion.rules.battle import Ride
    from cobi_companion.rules.card import Kind

    if card.kind is not Kind.FIGURE:
        raise UsageError(f"{what}: /{RIDING} is for a squad of figures; {card.title} is not "
                         f"one")
    if named:
        carrier = book.get(named)
        if not carrier.kind.vehicle:
            raise UsageError(f"{what}: /{RIDING}={echo(named)}: {carrier.title} is not a "
                             f"vehicle; figures ride only on vehicles")
        given = [v for v in vehicles if v.card.key == carrier.key]
        vehicle = given[-1] if given else target_piece(carrier, 0, label)
    elif vehicles:
        vehicle = vehicles[-1]
    else:
        raise UsageError(f"{what}: /{RIDING} says the squad rides the vehicle given before it: "
                         f"give that vehicle's --under first (like --under 2464/side --under "
                         f"{card.key}:3/{RIDING}), or name it: /{RIDING}=VEHICLE")
    return Ride(vehicle.label, vehicle.kind)


def covered(spec: str, book: CardBook, label: Label,
            vehicles: list[Piece] | None = None) -> Covered:
    """One --under SPEC: a piece the template covers, its figures, situations and facing;
    `vehicles`, those given before it, the ones a squad /riding may ride."""
    from dataclasses import replace

    from cobi_companion.rules.card import Kind
    from cobi_companion.rules.status import Status
    from cobi_companion.rules.tank.soft_fire import Covered

    what = f"--under {echo(spec)}"
    match, figures = _parts(spec, _UNDER, f"{UNDER_FORM}, like bofors-37mm:3@soft_cover",
                            "the template")
    card = book.get(match["card"])
    where = () if match["situations"] is None else \
        situations(match["situations"], f"{what}: SITUATION")
    word, _, named = (match["facing"] or "").partition("=")
    if word.strip().lower() == RIDING:
        ride = _ride(card, named.strip(), vehicles or [], book, label, what)
        piece = replace(target_piece(card, figures or 1, label), riding=ride)
        return Covered(piece, figures or 1, where)
    facing, model = _facing(match["facing"], what)
    if card.kind is Kind.FIGURE:
        if not model:
            raise UsageError(f"{what}: /{CREW} is for a gun's or a vehicle's crew; "
                             f"{card.title} is a figure")
        figures = figures or 1
    elif not model and figures is None:
        raise UsageError(f"{what}: /{CREW} needs the number of crew figures covered, like "
                         f"{card.key}:2/{CREW}")
    # A figure of a closed vehicle under the template is its commander, out of the hatch.
    marks = Status(commander_out=True) if card.kind is Kind.HARD and figures else None
    return Covered(target_piece(card, figures or 0, label, marks), figures or 0, where,
                   facing, model)


# ---- Tank Game overrun (rule 9): `overrun --under SPEC` ----


def _cover(text: str | None, what: str) -> str:
    from cobi_companion.rules.tank.overrun import Cover

    if text is None:
        return Cover.OPEN.value
    word = text.strip().lower()
    covers = [cover.value for cover in Cover]
    if word not in covers:
        raise UsageError(f"{what}: COVER {word!r} is not allowed; allowed: {', '.join(covers)}")
    return word


def _marks(text: str, what: str) -> list[str]:
    marks = [m.strip().lower() for m in text.split("+")[1:]]
    bad = [m for m in marks if m not in OVERRUN_MARKS]
    if bad:
        raise UsageError(f"{what}: MARK {bad[0]!r} is not allowed; allowed: "
                         f"{', '.join(OVERRUN_MARKS)}")
    return marks


def under_tank(spec: str, book: CardBook, label: Label) -> Under:
    """One overrun --under SPEC: a piece under the tank, its figures, cover and marks."""
    from cobi_companion.rules.card import Kind
    from cobi_companion.rules.status import Status
    from cobi_companion.rules.tank.overrun import Cover, Under

    what = f"--under {echo(spec)}"
    match, figures = _parts(spec, _OVERRUN_UNDER,
                            f"{OVERRUN_FORM}, like rifleman:3@soft or mg-gunner:2+dug_in",
                            "the tank")
    cover = Cover(_cover(match["cover"], what))
    marks = _marks(match["marks"], what)
    card = book.get(match["card"])
    if card.kind is Kind.FIGURE:
        figures = figures or 1       # a squad of as many figures as are under the tank
    piece = target_piece(card, figures or 0, label, Status(hidden="hidden" in marks))
    return Under(piece, figures, cover, dug_in="dug_in" in marks)
