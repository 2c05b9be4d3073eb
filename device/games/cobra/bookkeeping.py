"""The campaign's bookkeeping on the box (rules/cobra/campaign.py, bookkeeping.py): the hub's
rows for the phases they belong to, on the game turns they hold: the German delay unit
(17.3.11) and the rail capacity (17.3.12) counted for the turn, and the reminders (17.3.3a,
17.3.3d, 17.3.9, 17.3.11g, 13.2e), each opening its rule. Cherbourg's one supplied attack a
turn (17.3.5g) is asked in the attack's supply (games/cobra/attacks.py)."""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import entry
from cobi_companion.device.games.cobra.session import Phased, reading, refusal, save, session
from cobi_companion.rules.cobra import bookkeeping as rules
from cobi_companion.rules.cobra.campaign import DELAY_UNITS
from cobi_companion.rules.cobra.notes import Why
from cobi_companion.rules.cobra.turns import CobraGame
from cobi_companion.rules.errors import RulesError

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

# The reminders, in the order the hub offers them: each a row "remind_<code>".
REMINDED = (Why.GT1_GERMAN_MOVES, Why.PARAS_STAY, Why.PARAS_ONE_HEX, Why.LAND_HALF_MA,
            Why.IN_COLUMN, Why.DELAYS_REMOVED)


def reminded(why: Why, game: CobraGame) -> bool:
    """This phase of this game turn reminds of `why`."""
    return any(note.why is why for note in rules.phase_reminders(game))


def reminder(why: Why, app: App, home: Next) -> Screen:
    """A reminder's row: its rule, then the hub."""
    note = next(n for n in rules.phase_reminders(session(app).game) if n.why is why)
    return reading(app, app.t("remind_" + why.value), [app.say(note)], home())


# ---- the delay unit of the game turn (17.3.11) ----

def delay_label(app: App) -> str:
    game = session(app).game
    placed = len(game.ledger.delays)
    if game.ledger.delay_placed(game.turn):
        return app.t("delay_placed", n=placed, most=DELAY_UNITS)
    return app.t("delay_unit", n=placed + 1, most=DELAY_UNITS)


def delay(app: App, home: Next, index: int = 0) -> Screen:
    """Placed (counted for this game turn, one a turn) or its rule. A second one in a turn
    is refused with the reason, back to the hub."""
    game = session(app).game
    if game.ledger.delay_placed(game.turn):
        try:
            rules.place_delay(game)
        except RulesError as exc:
            return refusal(app, exc, home())

    def chosen(i: int) -> Screen:
        if i == 1:
            return reading(app, delay_label(app), [app.say(rules.delay_note(game))],
                           delay(app, home, 1))
        s = session(app)
        try:
            s.game = rules.place_delay(s.game)
        except RulesError as exc:
            return refusal(app, exc, home())
        save(app, entry("log_delay_unit", n=len(s.game.ledger.delays), most=DELAY_UNITS))
        return home()
    return Phased(delay_label(app), [app.t("delay_place"), app.t("rule")], chosen, back=home,
                  index=index)


# ---- rail movement (17.3.12) ----

def rail_label(app: App) -> str:
    game = session(app).game
    return app.t("rail_row", left=rules.rail_left(game), most=rules.rail_most(game))


def rail(app: App, home: Next, index: int = 0) -> Screen:
    """Each unit railed counted against the turn's capacity, a mechanized one as two; over
    it, refused with the reason, back to this choice; the last one taken back. In the
    Mechanized Movement Phase only a mechanized unit is offered (4.0 G5b)."""
    game = session(app).game
    items: list[tuple[str, Next]] = [] if rules.mechanized_only(game) else [
        (app.t("rail_foot"), partial(railed, app, home, False))]      # 4.0 G5b
    items.append((app.t("rail_mech"), partial(railed, app, home, True)))
    if game.ledger.rail_used(game.turn):
        items.append((app.t("rail_back"), partial(rail_back, app, home)))
    items.append((app.t("rule"), lambda: reading(app, rail_label(app), [
        app.say(rules.rail_note(session(app).game))], rail(app, home, len(items) - 1))))
    return Phased(rail_label(app), [label for label, _ in items], lambda i: items[i][1](),
                  back=home, index=index)


def railed(app: App, home: Next, mechanized: bool) -> Screen:
    s = session(app)
    at = 1 if mechanized and not rules.mechanized_only(s.game) else 0
    try:
        s.game = rules.rail(s.game, mechanized)
    except RulesError as exc:
        return refusal(app, exc, rail(app, home, at))
    save(app, entry("log_rail_mech" if mechanized else "log_rail_foot",
                    left=rules.rail_left(s.game), most=rules.rail_most(s.game)))
    return rail(app, home, at)


def rail_back(app: App, home: Next) -> Screen:
    s = session(app)
    s.game = rules.unrail(s.game)
    save(app, entry("log_rail_back", left=rules.rail_left(s.game), most=rules.rail_most(s.game)))
    return rail(app, home)
