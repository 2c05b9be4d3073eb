"""Cobra with all its parts: the game's hub (games/cobra.py) and the parts in modules of their
own, which import it (the landing, the movement allowance, the replacements, the victory
points and the special rolls). The start screen starts and resumes Cobra through this module,
so that every part is on its phases' hubs and its tracks."""
from __future__ import annotations

# cobra_victory and cobra_landing join the hub when imported
from cobi_companion.device.games import (  # noqa: F401
    cobra,
    cobra_landing,
    cobra_movement,
    cobra_replacements,
    cobra_victory,
)

cobra.PARTS[:] = [cobra_movement.PART, cobra_replacements.PART]
CobraSession = cobra.CobraSession
hub = cobra.hub
new_game = cobra.new_game
