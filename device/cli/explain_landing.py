"""The command line's English for `cobra landing`: what was rolled, then the rules' notes, from
the traces' JSON data (rules/cobra/landing.py), one thing a line."""
from __future__ import annotations

from typing import Any


def lines(data: dict[str, Any]) -> str:
    """The trace of a drop, a beach defence roll, an attrition, a beach check or a withdrawal
    attack, said in lines."""
    return "\n".join([_headline(data), *data.get("odds", {}).get("explanation", []),
                      *data["explanation"]])


def _headline(data: dict[str, Any]) -> str:
    if "division" in data:
        on = "-".join(str(f) for f in (data["scatters_on"][0], data["scatters_on"][-1])) \
            if len(data["scatters_on"]) > 1 else str(data["scatters_on"][0])
        text = f"{data['division']} Airborne drop: die {data['die']} (scatters on {on})"
        if not data["scattered"]:
            return text + ": lands on its counter's hex"
        where = data["direction"] or "read map B's Scatter Diagram"
        return text + f": scattered, direction die {data['direction_die']}: {where}"
    if "may_commit" in data:
        return f"Beach defence: die {data['die']}: " + (
            "may commit steps" if data["may_commit"] else "no steps")
    if "landed_steps" in data:
        return f"{data['beach']}: " + ("abandoned" if data["abandoned"] else "held")
    result = data["result"]["allied"] if data["result"] else "read your CRT"
    if "odds" in data:
        odds = data["odds"]
        return f"Landing attrition on {odds['target']}: {odds['start_column']} " \
               f"{odds['shift']:+d} → {odds['column']}, die {data['die']}: {result}"
    return f"Withdrawal attack {data['column']} (unmodified), die {data['die']}: {result}"
