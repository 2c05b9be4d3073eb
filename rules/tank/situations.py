"""The situations of a target that change the attacker's roll at soft targets (rows of the Soft
Targets Table), and how a screen says them.

A module of its own, so that the command line's help names them without importing the table
(`soft_table.py`, whose dataclasses cost milliseconds to create at import).
"""
from __future__ import annotations

SITUATIONS = {
    "soft_vehicle": "in a soft vehicle",
    "soft_cover": "in soft cover",
    "hard_cover": "in hard cover",
}
