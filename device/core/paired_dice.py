"""The smart dice paired on the box (`Settings.smart_dice`): each saved row checked as a store
gives it back, the dice the port keeps connected, and each die in words: its colour (else its
maker and the end of its address), its side, its battery."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from cobi_companion.device.core.dice_board import LOW_BATTERY
from cobi_companion.device.core.worded import joined
from cobi_companion.device.ports import godice, pixels
from cobi_companion.device.ports.die_readings import GODICE, KINDS, PIXELS

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

SIDES = ("axis", "allies")                  # a paired die's side, by button side
FIELDS = ("kind", "name", "side", "colour")
LONGEST = 64                                # more than any address, name or colour key
# The colours the makers name (the protocols' COLOURS): each has its words in the
# catalogues, "die_colour_<name>", and its question "forget_die_<name>".
COLOURS = godice.COLOURS + pixels.COLOURS
MAKERS = {GODICE: "GoDice", PIXELS: "Pixels"}   # makers' names: the same in every language

Paired = dict[str, dict[str, str]]


def row_problem(row: object) -> str | None:
    """Why a saved die's row cannot be used, or None: a dict of strings with a known kind and
    side (its name and colour may be empty)."""
    if not isinstance(row, dict):
        return f"{type(row).__name__}, not a die's row"
    extra = [key for key in row if key not in FIELDS]
    if extra:
        return f"{str(extra[0])[:20]!r} is not one of {', '.join(FIELDS)}"
    if not all(isinstance(value, str) and len(value) <= LONGEST for value in row.values()):
        return f"its values must be text of at most {LONGEST} characters"
    if row.get("kind") not in KINDS:
        return f"kind {str(row.get('kind'))[:20]!r} is not one of {', '.join(KINDS)}"
    if row.get("side") not in SIDES:
        return f"side {str(row.get('side'))[:20]!r} is not one of {', '.join(SIDES)}"
    return None


def usable(saved: Mapping[str, object]) -> tuple[Paired, list[tuple[str, str]]]:
    """The saved dice that can be used (every field there), and each other one with why: one
    bad row never costs the others."""
    good: Paired = {}
    bad: list[tuple[str, str]] = []
    for die, row in saved.items():
        why = "its id is too long" if len(die) > LONGEST else row_problem(row)
        if why is None and isinstance(row, dict):
            good[die] = {name: str(row.get(name, "")) for name in FIELDS}
        else:
            bad.append((die[:LONGEST], why or "not a die's row"))
    return good, bad


def kept(paired: Mapping[str, Mapping[str, str]]) -> dict[str, str]:
    """What the port keeps connected: each paired die's id and maker (a row without a maker,
    as a simulator's script may give one, is left out)."""
    return {die: row["kind"] for die, row in paired.items()
            if isinstance(row, Mapping) and isinstance(row.get("kind"), str)}


def sides_follow(app: App, gained: str | None, lost: str | None) -> None:
    """Each side's dice after a die was paired, moved or forgotten: the side that `gained` a
    die, its dice the buttons', throws from now on; the side that `lost` one and has no die
    left, its dice smart, goes back to its button."""
    dice = app.settings.dice
    if gained is not None and dice.get(gained) == "buttons":
        dice[gained] = "smart"
    sides = {row.get("side") for row in app.settings.smart_dice.values()}
    if lost is not None and lost not in sides and dice.get(lost) == "smart":
        dice[lost] = "buttons"


def keep(app: App, gained: str | None = None, lost: str | None = None) -> None:
    """The paired dice saved (as every setting: after the frame) and handed to the port; each
    side's dice follow (`sides_follow`)."""
    sides_follow(app, gained, lost)
    app.on_settings(app.settings)
    app.smart.keep(kept(app.settings.smart_dice))


def colour(app: App, die: str) -> str:
    """The die's colour key as last heard (the die says it once connected), else as saved;
    "" where neither is known."""
    heard = app.dice_board.dice.get(die)
    if heard is not None and heard.colour:
        return heard.colour
    return app.settings.smart_dice.get(die, {}).get("colour", "")


def name(app: App, die: str, kind: str) -> str:
    """The die in words: its colour ("Red"; "Red 3F" where another paired die has its
    colour), else its maker and the end of its address ("GoDice 3F"), which tells two dice
    of a scan apart."""
    known = colour(app, die)
    short = "".join(c for c in die if c.isalnum())[-2:].upper()
    if known in COLOURS:
        twins = [other for other in app.settings.smart_dice
                 if other != die and colour(app, other) == known]
        # two dice of one colour (four Onyx Black Pixels): told apart by their address end
        return joined(" ", app.t("die_colour_" + known), short) if twins \
            else app.t("die_colour_" + known)
    return f"{MAKERS.get(kind, kind)[:12]} {short}".strip()


def label(app: App, die: str) -> str:
    """A paired die's row: "Red · Axis"."""
    row = app.settings.smart_dice[die]
    return joined(" · ", name(app, die, row["kind"]), app.t(row["side"]))


def forget_question(app: App, die: str) -> str:
    """"Forget the red die?", its colour in the form the question needs."""
    known = colour(app, die)
    if known in COLOURS:
        return app.t("forget_die_" + known)
    return app.t("forget_die", die=name(app, die, app.settings.smart_dice[die]["kind"]))


def battery(app: App, die: str) -> str:
    """How the die's battery is now: "80%", "80% · charging", "15% · battery low", "asleep"
    (not connected), or "" (connected, not said yet)."""
    now = app.dice_board.dice.get(die)
    if now is None or not now.online:
        return app.t("die_asleep")
    if now.battery is None:
        return ""
    words = [f"{now.battery}%"]
    if now.charging:
        words.append(app.t("die_charging"))
    elif now.battery < LOW_BATTERY:
        words.append(app.t("die_low"))
    return joined(" · ", *words)


def of_side(app: App, die: str) -> str:
    """A die and its side, "Red (Axis)" (the status board, the dice statistics); a die no
    longer paired, by its colour or address alone."""
    row = app.settings.smart_dice.get(die, {})
    shown = name(app, die, row.get("kind", ""))
    side = row.get("side", "")
    return app.t("die_of_side", die=shown, side=app.t(side)) if side else shown


def board_lines(app: App) -> list[str]:
    """The status board's lines of the paired dice: "Red (Axis): 80%"; none without any."""
    return [joined(": ", of_side(app, die), battery(app, die) or "-")
            for die in app.settings.smart_dice]
