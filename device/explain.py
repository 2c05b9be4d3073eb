"""Plain-text explanations of the rules engine's traces, for the terminal."""
from __future__ import annotations

from fractions import Fraction

from cobi_companion.rules.card import PRINTED, InfoCard
from cobi_companion.rules.movement import Allowance
from cobi_companion.rules.odds import OUTCOMES, Odds
from cobi_companion.rules.status import Effect, Status
from cobi_companion.rules.trace import DieCheck, Modifier, ReloadAction, Shot

LEVEL_TITLES = {"easy": "Easy level", "tank": "Tank Game"}
BIG_WORDS = {
    Effect.MISS: "MISS",
    Effect.NONE: "NO EFFECT",
    Effect.IMMOBILIZED: "IMMOBILIZED",
    Effect.WEAKENED: "WEAKENED",
    Effect.GUN_DESTROYED: "GUN LOST",
    Effect.DESTROYED: "DESTROYED",
}


def _mods(mods: tuple[Modifier, ...]) -> str:
    return "".join(f" {m.value:+d} ({m.reason})" for m in mods)


def _check(label: str, check: DieCheck, yes: str, no: str, exact: bool = False) -> str:
    rolled = f"rolled {check.roll}{_mods(check.modifiers)}"
    if check.modifiers:
        rolled += f" = {check.modified}"
    needs = f"needs {check.needed}" if exact else f"needs {check.needed.low} or more"
    return f"  {label:<9}{rolled}, {needs}: {yes if check.success else no}"


def _faces(faces: tuple[int, ...]) -> str:
    return " ".join(str(f) for f in faces)


def status_text(status: Status) -> str:
    words = status.words()
    return ", ".join(w.replace("_", " ") for w in words) if words else "ready"


def shot(s: Shot) -> str:
    lines = [f"{LEVEL_TITLES.get(s.level, s.level)}: {s.attacker.title} fires at "
             f"{s.target.title} ({s.facing.value})"]
    if s.target_before.words():
        lines.append(f"  Target:  {status_text(s.target_before)}")
    lines.append(_check("To hit:", s.to_hit, "HIT", "MISS", exact=s.level == "easy"))
    if s.reload is not None:
        lines.append(_check("Reload:", s.reload, "loaded", "UNLOADED"))
    if s.damage is not None:
        d = s.damage
        if s.level == "easy":
            lines.append(f"  Damage:  card {d.base} + D6+ ({_faces(d.rolls)} → {d.rolled})"
                         f" = {d.total}")
        else:
            first, extra = d.rolls[:d.dice], d.rolls[d.dice:]
            more = f", extra {_faces(extra)}" if extra else ""
            lines.append(f"  Damage:  {d.dice} dice {_faces(first)}{more} = {d.total}")
    if s.armour is not None:
        a = s.armour
        if a.rolls:
            lines.append(f"  Armour:  {a.facing.value} {a.value} + D6+ ({_faces(a.rolls)} → "
                         f"{a.rolled}) = {a.total}")
        else:
            lines.append(f"  Armour:  {a.facing.value} {a.value}")
    if s.hit:
        lines.append(f"  Result:  {s.reason}")
    lines.append(f"  ==> {BIG_WORDS[s.effect]}")
    if s.target_after != s.target_before:
        lines.append(f"  {s.target.name} is now: {status_text(s.target_after)}")
    if s.attacker_after != s.attacker_before:
        lines.append(f"  {s.attacker.name} is now: {status_text(s.attacker_after)}")
    lines.append(f"  Dice used: {_faces(s.faces)}")
    return "\n".join(lines)


def percent(p: Fraction) -> str:
    value = float(p) * 100
    if p == 0:
        return "0%"
    if value < 0.1:
        return "<0.1%"
    return f"{value:.1f}%"


def in_six(p: Fraction) -> str:
    """'4 in 6' where the chance is a whole number of faces, else a percentage."""
    sixes = p * 6
    return f"{sixes.numerator} in 6" if sixes.denominator == 1 else percent(p)


def odds(o: Odds, level: str, attacker: InfoCard, target: InfoCard, facing: str) -> str:
    lines = [f"{LEVEL_TITLES.get(level, level)}: odds for {attacker.title} firing at "
             f"{target.title} ({facing})"]
    needs = f"needs {o.needed}" if level == "easy" else f"needs {o.needed.low} or more"
    lines.append(f"  Hit            {in_six(o.hit):>8}  ({needs}{_mods(o.modifiers)})")
    if o.reload is not None:
        lines.append(f"  Reload         {in_six(o.reload):>8}")
    for effect in reversed(OUTCOMES):
        lines.append(f"  {BIG_WORDS[effect].capitalize():<14} {percent(o.effects[effect]):>8}")
    lines.append(f"  In short: hit {in_six(o.hit)} · kill {percent(o.kill)}")
    return "\n".join(lines)


def allowance(a: Allowance) -> str:
    parts = [f"{a.base}"] + [f"{'+' if s.value >= 0 else '−'} {abs(s.value)} ({s.reason})"
                             for s in a.steps]
    amount = f"{a.cm} cm left to move" if a.moved else f"move up to {a.cm} cm"
    return f"{a.card.title}: {' '.join(parts)} → {amount}"


def reload(r: ReloadAction) -> str:
    return "\n".join([f"Tank Game: {r.card.title} reloads instead of moving or firing",
                      _check("Reload:", r.check, "RELOADED", "still UNLOADED")])


def card(c: InfoCard) -> str:
    lines = [f"{c.title}" + (f"  (also printed as {', '.join(c.other_names)})"
                             if c.other_names else "")]
    for name, (label, _unit) in PRINTED.items():
        lines.append(f"  {label:<34} {c.printed(name)}")
    if c.source:
        lines.append(f"  from {c.source}")
    return "\n".join(lines)


def card_row(c: InfoCard) -> str:
    armour = "/".join(c.printed(f"armour_{f}") for f in ("front", "side", "rear", "top"))
    return (f"{c.set_number:>6}  {c.name[:22]:<22} {c.printed('gun_to_hit'):<6} "
            f"{c.printed('reload'):<6} {c.printed('damage'):<6} {armour:<12} "
            f"{c.printed('destroy')}")
