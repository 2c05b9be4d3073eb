"""The Tank Game's menus read aloud under the cursor (voice "all"), for a child who cannot
read: "Who goes?" by each piece's spoken name and side, again after OK picks one (the row
changed in place), whose turn it is said again by a reminder with the lit piece, the
activation's pieces by name and side; Cobra's phase hub reminds whose turn it is. Real app
and screens, a recording voice."""
from __future__ import annotations

from cobi_companion.device.ports.events import Tick
from cobi_companion.device.ports.speech import RecordingSpeech

from .test_tank_game_box import ALLIES_FIRST, new_battle


def listening(table) -> RecordingSpeech:
    app = table.box.app
    app.speech = RecordingSpeech()
    app.settings.voice = "all"
    return app.speech


def test_who_goes_reads_pieces_by_name_and_side_and_again_after_a_pick(table_at):
    table = table_at(ALLIES_FIRST)
    new_battle(table, ("7TP", "allies"), ("Rifleman", "allies", 3), ("Tiger I", "axis"))
    said = listening(table)
    assert table.view.items == ("7TP 1", "Rifle 1 (3)", "Pass")
    table.press("cw")
    assert said.texts[-1] == "Rifleman one, Allies" and said.said[-1].kind == "item"
    table.press("ok")                                  # picked: the row changed in place
    assert said.texts[-1] == "Rifleman one, Allies: picked"
    table.press("ccw")
    assert said.texts[-1] == "Seven T P one, Allies"
    table.box.app.settings.remind_s = 20
    before = len(said.said)
    table.box.loop.handle_all([Tick(1000.0)])
    table.box.loop.handle_all([Tick(1020.0)])
    assert said.texts[before:] == ["Allies: your turn. Seven T P one, Allies"]
    table.press("allies")                              # no last shot here: refused, said again
    assert said.texts[-1] == "Allies: your turn. Seven T P one, Allies"


def test_the_activations_pieces_are_read_by_name_and_side(table_at):
    table = table_at(ALLIES_FIRST)
    new_battle(table, ("7TP", "allies"), ("Rifleman", "allies", 3),
               ("37 mm Bofors AT gun", "allies"), ("Tiger I", "axis"))
    said = listening(table)
    table.press("ok", "cw", "ok")                      # 7TP 1 and Rifle 1: no other model
    assert table.view.items == ("7TP 1", "Rifle 1 (3)", "All done")     # joins: they go
    assert said.texts[-1] == "Seven T P one, Allies"
    table.press("cw")
    assert said.texts[-1] == "Rifleman one, Allies"
    table.press("cw", "ok")                            # All done: one more go is asked
    assert said.texts[-1] == "One more go? No firing. Yes"


def test_cobras_phase_hub_reminds_whose_turn_with_the_lit_row(table_at):
    table = table_at([])
    table.choose("Cobra")
    table.press("ok")                                  # the first scenario: the hub
    said = listening(table)
    assert table.view.items[0] == "Roll the weather"
    table.box.app.settings.remind_s = 20
    table.box.loop.handle_all([Tick(1000.0)])
    table.box.loop.handle_all([Tick(1020.0)])
    assert said.texts == ["Germans: your turn. Roll the weather"]
    assert said.said[-1].kind == "prompt"
    table.press("axis")                                # a dice button means nothing here
    assert said.texts[-1] == "Germans: your turn. Roll the weather"


def test_a_cobra_victory_point_source_is_read_in_words_not_its_short_marks(table_at):
    from cobi_companion.device.core.spoken import utterance
    from cobi_companion.device.games.cobra.victory import said_vp_item, vp_item
    from cobi_companion.rules.cobra import victory_points as vps

    app = table_at([]).box.app
    many = next(s for s in vps.SOURCES.values() if s.vp >= 2 and s.key != "exit_us_mech")
    one = next(s for s in vps.SOURCES.values() if s.vp == 1)
    for source in (many, one):
        shown = vp_item(app, source, 1)
        heard = utterance(said_vp_item(app, source, 1), "en").text
        what = shown.split(": ", 1)[1]
        assert heard.startswith(f"{what}: ") and heard.endswith(" victory point" + (
            "s." if source is many else "."))
        assert " Ger:" not in heard and " All:" not in heard and "+" not in heard
    app.settings.language = "pl"
    assert "punkt" in utterance(said_vp_item(app, many, 1), "pl").text
