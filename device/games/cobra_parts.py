"""Cobra with all its parts: the game's hub (games/cobra.py) and the parts in modules of their
own, which import it (the movement allowance, the replacements). The start screen starts and
resumes Cobra through this module, so that every part is on its phases' hubs."""
from __future__ import annotations

from cobi_companion.device.games import cobra, cobra_movement, cobra_replacements

cobra.PARTS[:] = [cobra_movement.PART, cobra_replacements.PART]
CobraSession = cobra.CobraSession
hub = cobra.hub
new_game = cobra.new_game
