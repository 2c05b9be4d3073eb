"""The tour's journey with smart dice: Settings → Smart dice with a die of every colour the
makers name (and one whose colour is not heard yet), each die's menu and the question before
forgetting it, a scan that finds dice, pairs one, finds none or cannot look, and the dice's
batteries on the status board of a battle. The dice's events are handed to the loop as the
Bluetooth adapter puts them on its queue."""
from __future__ import annotations

from collections.abc import Mapping

from cobi_companion.device.core.paired_dice import COLOURS
from cobi_companion.device.games.menus import status_board
from cobi_companion.device.games.pairing import smart_dice_menu
from cobi_companion.device.ports.die_readings import GODICE, PIXELS, Battery, Colour
from cobi_companion.device.ports.events import DieFound, DieLink, DieSaid, Event, ScanDone
from cobi_companion.device.ports.pixels import COLOURS as PIXELS_COLOURS
from cobi_companion.device.ports.smart_dice import RGB
from cobi_companion.rules.status import Side
from tour import Tour, back_to, seed_battle

# What a Bluetooth adapter says when it cannot look (the system's words: English everywhere).
NO_BLUETOOTH = "no Bluetooth adapter (hci0 not found)"
UNHEARD = "AA:BB:CC:DD:EE:3F"           # a die whose colour is not heard yet: "GoDice 3F"


class QuietDice:
    """Smart dice that do what they are asked and say nothing by themselves: the journey says
    it for them."""

    def start(self) -> QuietDice:
        return self

    def close(self) -> None:
        pass

    def scan(self, seconds: float) -> None:
        pass

    def keep(self, dice: Mapping[str, str]) -> None:
        pass

    def light(self, die: str, colour: RGB | None) -> None:
        pass

    def flash(self, die: str) -> None:
        pass


def journey_smart_dice(tour: Tour) -> None:
    tour.system(NO_BLUETOOTH)
    seed_battle(tour, "dice", {Side.AXIS: [("2477", {})], Side.ALLIES: [("2464", {})]},
                level="easy")
    table = tour.box("dice")
    app = table.box.app
    app.smart = QuietDice()
    app.settings.smart_dice = {
        f"D{i}": {"kind": PIXELS if colour in PIXELS_COLOURS else GODICE, "name": "die",
                  "side": ("axis", "allies")[i % 2], "colour": colour}
        for i, colour in enumerate(COLOURS)}
    app.settings.smart_dice[UNHEARD] = {"kind": GODICE, "name": "GoDice", "side": "axis",
                                        "colour": ""}
    guide = tour.guide(table, "dice")

    def said(*events: Event) -> None:
        for event in events:
            table.box.loop.step(event)
    said(DieLink("D0", True), DieSaid("D0", Battery(100, charging=True)),   # the rest asleep
         DieLink("D1", True), DieSaid("D1", Battery(12)), DieLink("D2", True),
         DieSaid("D2", Battery(55)), DieSaid("D3", Colour("blue")))
    guide.show(status_board(app, app.screen))
    app.screen = smart_dice_menu(app, back_to(app.screen))
    table.box.loop.draw()
    for _ in app.settings.smart_dice:           # each die's menu, and the question: no, yes
        guide.press("ok")
        guide.turn_to(len(guide.view.items) - 1)
        guide.press("ok", "cw", "back", "back", "cw")
    guide.turn_to(len(guide.view.items) - 1)    # Find dice: one found and paired, one left
    guide.press("ok")
    said(DieFound("F1", GODICE, "GoDice"), DieFound("F2", PIXELS, "Pixel"), ScanDone())
    guide.press("ok", "cw", "ok")               # whose? Back (Allies was lit: fewer dice)
    guide.press("ok", "ok")                     # paired to the Allies; the other left
    guide.press("back")
    def read() -> None:                         # a notice read to its end, and OK
        guide.play(6, until=lambda: guide.view.header.title == tour.t("smart_dice"))
    guide.choose(tour.t("find_dice"))
    said(ScanDone())                            # nothing found this time
    read()
    guide.choose(tour.t("find_dice"))
    said(ScanDone(NO_BLUETOOTH))
    read()
