"""The house rules of a battle in the box's words: the roster's row, a rule and its value, and
the log's line at the start of a battle (rules/house.py has the rules and their readings)."""
from __future__ import annotations

from cobi_companion.device.core.app import App
from cobi_companion.device.core.battle_log import LogEntry, entry
from cobi_companion.device.core.worded import joined
from cobi_companion.rules.house import HouseRules


def house_row(app: App, house: HouseRules, level: str) -> str:
    """The roster's row: how many of the level's house rules differ from the rules' readings."""
    changed = len(house.changed(level))
    return app.t("house_changed", n=changed) if changed else app.t("house_none")


def house_value(app: App, house: HouseRules, name: str) -> str:
    """A house rule and its value in words: "Sherman reload: text 4-6"."""
    return joined(": ", app.t("house_" + name), app.t(f"house_{name}_{house.value(name)}"))


def house_entry(house: HouseRules, level: str) -> LogEntry | None:
    """The log's line of the house rules that differ from the rules' readings, if any."""
    changed = house.changed(level)
    if not changed:
        return None
    return entry("log_house_rules", rules=tuple(
        entry("log_house_rule", rule=name, choice=f"{name}_{value}")
        for name, value in changed.items()))
