"""The games of the box, in the order of their rows on the home menu (core/games.py): each game
declares itself in a module of its own; this list names them."""
from __future__ import annotations

from cobi_companion.device.core.games import Registry
from cobi_companion.device.games.cobra.game import COBRA
from cobi_companion.device.games.easy_game import EASY
from cobi_companion.device.games.tank.game import TANK

# The home menu's own rows (a new battle's roster, the menus, the settings, checking a
# distance) and what every COBI battle shares, each module after those it imports. (The
# packages rules.easy and rules.tank come at start, with their refusal codes' words.)
SHARED = (
    "rules.house", "rules.battle", "rules.distance", "rules.tank.hiding", "rules.tank.turns",
    "rules.tank.scoring",
    "device.core.replay", "rules.trace", "rules.movement", "rules.dice_maths",
    "rules.shot", "rules.odds", "rules.tank.hard_fire", "rules.easy", "rules.easy.refusals",
    "rules.easy.fire",
    "device.core.battle_state",
    "rules.levels", "device.games.house", "device.games.roster", "rules.tank.soft_fire",
    "rules.tank.soft_odds", "device.ui.outcome_words", "device.ui.wording", "device.ui.details",
    "device.games.throw", "device.games.rolling", "device.games.menus", "device.games.shots",
    "device.ports.range_sensor", "device.ports.range_reader", "device.ui.measure",
    "device.games.battle", "device.games.system", "device.games.pairing",
    "device.games.settings")

BOX_GAMES = Registry((EASY, COBRA, TANK), shared=SHARED)
