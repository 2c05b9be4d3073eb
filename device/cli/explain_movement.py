"""Plain-text explanations of Cobra's movement allowance (5.3, 10.6, 12.1b), the air attack
after an MA increase (5.3d) and the replacements (12.2, 16.1), for the terminal."""
from __future__ import annotations

from typing import Any

from cobi_companion.rules.cobra.movement import AirAttack, Allowance
from cobi_companion.rules.cobra.replacements import KINDS
from cobi_companion.rules.cobra.replacements import Allowance as Steps

LABEL = 14          # the width of a line's label


def _line(label: str, text: str) -> str:
    return f"  {label:<{LABEL}}{text}"


def ma_text(result: Allowance, attack: AirAttack | None) -> str:
    """The MA step by step, then the air attack where the MA was increased."""
    lines = [f"Cobra: movement allowance of a {result.army} unit, {result.phase} movement phase"]
    for step in result.steps:
        said = f"{step.ma:>2} MP  {step.text}" if step.applied else f"    {step.text}"
        lines.append(_line(step.key.replace("_", " "), said + (f" ({step.rule})" if step.rule
                                                                else "")))
    lines.append(_line("MA", f"{result.ma:>2} MP"))
    if result.increase_most:
        lines.append(_line("increase", f"up to {result.increase_most} third"
                                       f"{'s' if result.increase_most > 1 else ''} more, with "
                                       f"an air attack (5.3d)"))
    if result.hq:
        lines.append(_line("overrun", "none: an HQ moves in the Mechanized Movement Phase but "
                                      "never overruns (5.4)"))
    elif not result.may_overrun:
        lines.append(_line("overrun", "none: only armoured, panzer, panzer-grenadier and US "
                                      "truck units (--mechanized), in the Initial Movement "
                                      "Phase, in supply, without an MA increase, not on GT 1 "
                                      "(5.4, 10.6c, 5.3d, 17.3.3c)"))
    lines.append(_line("", "a unit may always move one hex, unless in an EZOC (5.0)"))
    if attack is not None:
        lost = "1 STEP LOST" if attack.lost else "NO LOSS"
        lines.append(_line("air attack", f"die {attack.die}, a step lost on 1-{attack.risk}: "
                                         f"{lost} (5.3d)"))
    return "\n".join(lines)


def replacements_text(steps: Steps, vp_added: int) -> str:
    """What the side may still take this game turn, and the German VP of the Allied steps."""
    data: dict[str, Any] = steps.to_dict()
    lines = [f"Cobra: {steps.side} replacements, game turn {steps.turn}"]
    if steps.side == "german":
        for name in ("carried", "received", "on_track"):
            lines.append(_line(name.replace("_", " "), ", ".join(
                f"{kind} {data[name][kind]}" for kind in KINDS)))
    lines.append(_line("used", ", ".join(f"{kind} {steps.used[kind]}" for kind in KINDS)))
    lines.append(_line("left", ", ".join(
        f"{kind} {'as many as wished' if steps.left[kind] is None else steps.left[kind]}"
        for kind in KINDS)))
    if steps.side != "german":
        lines.append(_line("allied steps", f"{steps.allied_steps} in the game: German VP "
                                           f"{steps.german_vp}, the next at "
                                           f"{data['next_vp_at']} (16.1)"))
        if vp_added:
            lines.append(_line("german VP", f"+{vp_added} this turn (16.1)"))
    return "\n".join(lines)
