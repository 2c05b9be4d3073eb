"""Cobra's hub has every part of Cobra by importing the hub alone: its table of parts is in the
hub, which imports them, and no part has to be imported first to join it (a fresh process,
where nothing else has imported Cobra's modules)."""
from __future__ import annotations

import json
import subprocess
import sys

HUB_ALONE = """
import json, sys, tempfile
from pathlib import Path
from cobi_companion.device import box
from cobi_companion.device.config import Config
from cobi_companion.device.ports.display import MemoryDisplay
from gpiozero.pins.mock import MockFactory, MockPWMPin
from cobi_companion.device.games.cobra import hub
from cobi_companion.device.games.cobra.session import CobraSession
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.cobra.turns import CobraGame

made = box.build(Config(), MemoryDisplay(), pin_factory=MockFactory(pin_class=MockPWMPin),
                 state_dir=Path(tempfile.mkdtemp()))
app = made.app
rows, tracks = {}, []
game = CobraGame.start("campaign")        # game turn 1: the landing, then a whole turn
while game.turn == 1:
    app.begin(CobraSession(game))
    rows[f"{game.phase.name}/{game.phase.player.value}"] = list(hub.hub(app).view(app).items)
    tracks = list(hub.tracks(app).view(app).items)
    if game.phase.name == "weather":
        game, _ = game.with_weather(Weather.CLEAR)
    game = game.advance()
made.close()
print(json.dumps([rows, tracks]))
"""


def test_the_hub_alone_offers_every_part_where_the_rules_put_it() -> None:
    out = subprocess.run([sys.executable, "-c", HUB_ALONE], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    rows, tracks = json.loads(out)
    # the landing's steps (landing.py), before Next phase
    assert rows["landing/allied"] == ["Paratroops 1/9", "Beach defence", "Landing attrition",
                                      "Beach abandoned?", "Next phase", "Tracks"]
    # a phase's own action first (movement.py, replacements.py)
    assert rows["replacement/german"] == ["Replacements", "Next phase", "Tracks"]
    # game turn 1's reminders after Next phase (bookkeeping.py: 17.3.3a, 17.3.3d, 17.3.9, 13.2e)
    assert rows["initial_movement/german"] == ["Movement allowance", "Next phase",
                                               "Who may move", "Road: in column", "Tracks",
                                               "HQs"]
    # a special roll after Next phase (victory.py), the withdrawal attack after the turn's end
    assert rows["initial_movement/allied"] == ["Movement allowance", "Next phase",
                                               "Leclerc (15.1)", "Paratroops stay",
                                               "Landing: half MA", "All beaches lost",
                                               "Tracks", "HQs"]
    # no beach hex Allied (17.3.13): the players' row in every Allied phase, above the Tracks
    assert rows["turn_end/allied"] == ["Next game turn", "Withdrawal 3:1", "All beaches lost",
                                       "Tracks"]
    # the tracks: the victory points' row (victory.py), the replacement tracks' (replacements.py)
    assert tracks[6:9] == ["Victory", "Victory points", "Repl. mech 0 inf 0"]
