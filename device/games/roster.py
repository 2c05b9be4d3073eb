"""The roster of a new battle: the cards, each with how many of it are on each side and what its
card does not let it do; a side's button puts the shown model on that side.

New battle opens it at the rules level of the settings, which a row near its end changes. When
the box remembers the armies of the last battle at that level, the first row plays with them
again. The House rules row opens the list of the level's house rules (rules/house.py), which
start at the config's [house_rules]: OK changes the highlighted one. A piece added by mistake is
taken out again from "Remove a piece"."""
from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from cobi_companion.device.core.app import App, Screen
from cobi_companion.device.core.battle_log import entry
from cobi_companion.device.core.battle_state import (
    MatchState,
    TankBattle,
    battle_type,
    piece_dict,
    piece_from,
)
from cobi_companion.device.core.memo import ByIdentity, Latest
from cobi_companion.device.core.spoken import Spoken, item
from cobi_companion.device.core.views import BigWord, Menu, View
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.house import house_entry, house_row, house_value
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ui.widgets import Choose, confirm, notice, said_item
from cobi_companion.rules.battle import SQUAD_MAX, Battle, Piece
from cobi_companion.rules.card import InfoCard, Kind
from cobi_companion.rules.house import HouseRules, for_level
from cobi_companion.rules.levels import RULE_SETS, next_rules
from cobi_companion.rules.shot import Readiness, readiness
from cobi_companion.rules.status import Side


def new_battle(app: App) -> Screen:
    """New battle: the roster at the settings' rules level."""
    level = app.settings.rules if app.settings.rules in RULE_SETS else "tank"
    return Roster(level, index=0, house=configured_house(app))


def configured_house(app: App) -> HouseRules:
    """The house rules of the config (checked when it was read), or the rules' readings."""
    try:
        return HouseRules.from_dict(app.settings.house_rules)
    except Exception:           # a settings value the checks never let through
        return HouseRules()


# The roster shows every card's marks; a card never changes (a reload of the cards makes new
# ones), nor does its readiness. Kept for as many cards as the book has: a fixed cap under the
# book's size forgot them all at each pass over the cards, and worked every one out again.
_READINESS: Latest[ByIdentity[InfoCard, Readiness]] = Latest()
SPARE_CARDS = 64        # room beside the book's cards for others asked about (a card replaced)


def readiness_of(app: App) -> ByIdentity[InfoCard, Readiness]:
    """The readiness of the cards, kept for the cards of the book in play."""
    book = app.book
    return _READINESS.get((book,), lambda: ByIdentity(readiness,
                                                      size=len(book.cards) + SPARE_CARDS))


def ready_ahead(app: App) -> Iterator[bool]:
    """Each card's readiness worked out while the box is idle after its start, a card a
    step: the roster's first frame shows the marks of all of them."""
    for card in app.book.sorted():
        if card.kind.model:
            readiness_of(app)(card)
            yield True


def marks(app: App, card: InfoCard) -> list[str]:
    """What a model's card does not let it do in a shot at a hard target: no gun on its card,
    or a partial card (a value a shot needs is missing from its file)."""
    if not card.kind.model:
        return []
    ready = readiness_of(app)(card)
    words = []
    if ready.gunless:
        words.append(app.t("mark_no_gun"))
    if ready.partial:
        words.append(app.t("mark_partial"))
    return words


# The roster's rows are asked for at each turn of the knob: the same saved armies and cards,
# the same pieces. And so are its rows and their texts: a turn of the knob moves the highlight
# over the same ones, worked out again only when what they are made of is another object (a
# piece added, another book, level or language), so that a turn costs the same with 1,000
# cards as with 50 (bench/roster.py). Texts are kept by identity: `sys.intern` makes an
# equal word the same object.
_REMEMBERED: Latest[tuple[Piece, ...]] = Latest()
_ROWS: Latest[list[tuple[str, Any]]] = Latest()
_ITEMS: Latest[tuple[str, ...]] = Latest()


def remembered(app: App, level: str) -> tuple[Piece, ...]:
    """The armies of the last battle at `level`, as they started; none if a card is gone."""
    saved = app.settings.armies.get(level, [])
    return _REMEMBERED.get((app.book, saved), lambda: _pieces(app, saved))


def _pieces(app: App, saved: list[dict[str, Any]]) -> tuple[Piece, ...]:
    try:
        return tuple(piece_from(p, app.book) for p in saved)
    except Exception:  # a card file removed or changed since: nothing to offer
        return ()


def remember(app: App, level: str, pieces: tuple[Piece, ...]) -> None:
    fresh = [piece_dict(replace(p, status=type(p.status)(), riding=None)) for p in pieces]
    app.settings.armies = {**app.settings.armies, level: fresh}
    app.on_settings(app.settings)


@dataclass
class Roster(Screen):
    """Turn the knob through the cards; a side's button puts the shown model on that side, OK
    starts once each side has a piece.

    Tank Game: every card, figures too. A figure card's button adds a squad, then the knob
    dials its figures (1-10; the same button adds one more; OK confirms). Holding the button
    down puts the piece off the map, waiting to enter at its side's edge."""

    level: str
    index: int = 0
    battle: Battle = field(default_factory=lambda: Battle("tank"))
    match: bool = False
    squad: str | None = None       # the squad whose figures are being dialled
    last: str | None = None        # the piece added last (a held button puts it off the map)
    house: HouseRules = field(default_factory=HouseRules)   # the battle's house rules
    # The pieces the Easy level does not play with, set aside when the Rules row turns to it:
    # back at the Tank Game they are on the roster again, nothing lost to a turn of a row.
    set_aside: tuple[Piece, ...] = ()

    @property
    def uses_holds(self) -> bool:
        return RULE_SETS[self.level].off_map

    def cards(self, app: App) -> list[InfoCard]:
        kinds = RULE_SETS[self.level].kinds
        return [c for c in app.book.sorted() if c.kind in kinds]

    def rows(self, app: App) -> list[tuple[str, Any]]:
        """("same", pieces) first when the last armies can play again, a ("card", card) for
        each card, then ("house", level), ("rules", level) and ("remove", None) when there is
        a piece."""
        same = () if self.match else remembered(app, self.level)
        inputs = (app.book, sys.intern(self.level), self.match, same, not self.battle.pieces)
        return _ROWS.get(inputs, lambda: self._rows(app, same))

    def _rows(self, app: App, same: tuple[Piece, ...]) -> list[tuple[str, Any]]:
        rows: list[tuple[str, Any]] = []
        if same and not self.battle.pieces:
            rows.append(("same", same))
        rows += [("card", card) for card in self.cards(app)]
        rows.append(("house", self.level))
        if not self.match:
            rows.append(("rules", self.level))
        if self.battle.pieces:
            rows.append(("remove", None))
        return rows

    def item(self, app: App, kind: str, value: Any, counted: Counter[tuple[Side, str]]) -> str:
        """A row's text; `counted`: the pieces on each side by card (`Roster.counted`),
        counted once for all the rows."""
        if kind == "same":
            return app.t("same_armies")
        if kind == "rules":
            return joined(": ", app.t("rules"), app.t(value))
        if kind == "house":
            return house_row(app, self.house, self.level)
        if kind == "remove":
            return app.t("remove_piece")
        card: InfoCard = value
        counts = [f"{app.side_name(s)} {n}" for s in Side if (n := counted[s, card.key])]
        return " · ".join([card.short_in(app.settings.language), *marks(app, card), *counts])

    def counted(self) -> Counter[tuple[Side, str]]:
        return Counter((p.side, p.card.key) for p in self.battle.pieces)

    def hint(self, app: App, kind: str, value: Any) -> str:
        if kind == "same":
            return " · ".join(f"{app.side_name(s)} {sum(p.side is s for p in value)}"
                              for s in Side)
        language = app.settings.language
        if kind == "card" and value.name_in(language) != value.short_in(language):
            return str(value.name_in(language))
        if kind == "card":
            return app.t(battle_type(self.level).roster_hint)
        if kind == "house":
            return app.t("house_hint")
        return app.t("ok_choose")

    def view(self, app: App) -> View:
        if self.squad is not None:
            piece = self.battle.get(self.squad)
            where = f" · {app.t('off_map')}" if piece.status.off_map else ""
            return BigWord(app.header(f"{piece.label} · {app.side_name(piece.side)}"),
                           str(piece.figures), app.t("dial_figures") + where)
        rows = self.rows(app)
        self.index = min(self.index, len(rows) - 1)
        title = app.t("match") if self.match else app.t("roster")
        return Menu(app.header(title), self.items(app, rows), self.index,
                    self.hint(app, *rows[self.index]))

    def lit(self, app: App) -> Spoken | None:
        """A card's row read aloud by its spoken name ("Tiger", "Tygrys") and each side's
        count of it, the figures being dialled as their number, another row by its words."""
        if self.squad is not None:
            return item("say_item", item=self.battle.get(self.squad).figures or 0)
        rows = self.rows(app)
        at = min(self.index, len(rows) - 1)
        kind, value = rows[at]
        if kind == "card":
            said = item("say_item", item=value.short)
            counted = self.counted()       # and how many each side has: "Sherman, Allies: one"
            for side in Side:
                if counted[side, value.key]:
                    said = item("say_item_side_count", item=said, side=side.value,
                                n=counted[side, value.key])
            return said
        return said_item(self.items(app, rows)[at])

    def items(self, app: App, rows: list[tuple[str, Any]]) -> tuple[str, ...]:
        """Every row's text, kept while the rows, pieces, house rules and language are the
        same objects."""
        def made() -> tuple[str, ...]:
            counted = self.counted()
            return tuple(self.item(app, *row, counted) for row in rows)
        inputs = (rows, self.battle, self.house, sys.intern(app.settings.language))
        return _ITEMS.get(inputs, made)

    def on(self, app: App, key: Key) -> Screen:
        if self.squad is not None:
            return self.dial(app, key)
        rows = self.rows(app)
        kind, value = rows[min(self.index, len(rows) - 1)]
        if key in (Key.CW, Key.CCW):
            self.index = (self.index + (1 if key is Key.CW else -1)) % len(rows)
        elif key in (Key.AXIS, Key.ALLIES):
            if kind != "card":
                app.cue("error")
                return self
            self.add(app, value, Side.AXIS if key is Key.AXIS else Side.ALLIES)
        elif key in (Key.AXIS_LONG, Key.ALLIES_LONG):   # only the Tank Game holds
            if kind != "card":
                app.cue("error")
                return self
            side = Side.AXIS if key is Key.AXIS_LONG else Side.ALLIES
            self.add(app, value, side)
            self.off_map(app, side)
        elif key is Key.OK:
            return self.chosen(app, kind, value)
        elif key is Key.BACK:
            return self.leave(app)
        return self

    def leave(self, app: App) -> Screen:
        """Back to the start screen; with pieces chosen, once the players say yes."""
        if not self.battle.pieces and not self.set_aside:
            return app.games.start(app)
        return confirm(app, app.t("leave_roster_ask"), lambda: app.games.start(app),
                       lambda: self, lost="pieces_lost")

    def add(self, app: App, card: InfoCard, side: Side) -> None:
        figures = 1 if card.kind is Kind.FIGURE else None
        self.battle = self.battle.add(card, side, figures, card.short_in(app.settings.language))
        self.last = self.battle.pieces[-1].label
        if card.kind is Kind.FIGURE:
            self.squad = self.last
        self.index = self.card_row(app, card)   # rows come and go: stay on this card
        app.cue("click")

    def card_row(self, app: App, card: InfoCard) -> int:
        return next(i for i, (kind, value) in enumerate(self.rows(app))
                    if kind == "card" and value.key == card.key)

    def chosen(self, app: App, kind: str, value: Any) -> Screen:
        if kind == "same":
            self.battle = Battle(self.level, value)
            return self.begin(app)
        if kind == "rules":
            return self.switch_rules(app)
        if kind == "house":
            return house_menu(app, self)
        if kind == "remove":
            return self.remove_menu(app)
        if all(self.battle.side(s) for s in Side):
            return self.begin(app)
        need = app.t(battle_type(self.level).roster_need)
        return notice(app, app.t("roster"), [need], lambda: self)

    def switch_rules(self, app: App) -> Screen:
        """The other rules level, remembered in the settings. Pieces the Easy level does not
        play with (figures, guns, soft vehicles) leave the roster until it is the Tank Game's
        again."""
        self.level = next_rules(self.level)
        app.settings.rules = self.level
        app.on_settings(app.settings)
        pieces = self.battle.pieces + self.set_aside
        kept = tuple(p for p in pieces if p.kind in RULE_SETS[self.level].kinds)
        self.set_aside = tuple(p for p in pieces if p not in kept)
        self.battle = Battle(self.level, kept)
        self.index = next(i for i, (kind, _) in enumerate(self.rows(app)) if kind == "rules")
        return self

    def remove_menu(self, app: App) -> Screen:
        pieces = list(self.battle.pieces)

        def removed(i: int) -> Screen:
            label = pieces[i].label
            self.battle = replace(self.battle, pieces=tuple(
                p for p in self.battle.pieces if p.label != label))
            self.last = None if self.last == label else self.last
            self.index = self.card_row(app, pieces[i].card)
            app.cue("click")
            return self
        return Choose(app.t("remove_piece"),
                      [joined(" · ", roster_name(app, p), app.side_name(p.side)) for p in pieces],
                      removed, back=lambda: self)

    def dial(self, app: App, key: Key) -> Screen:
        assert self.squad is not None
        piece = self.battle.get(self.squad)
        figures = piece.figures or 1
        if key is Key.CW or key is {Side.AXIS: Key.AXIS, Side.ALLIES: Key.ALLIES}[piece.side]:
            figures = min(figures + 1, SQUAD_MAX)
        elif key is Key.CCW:
            figures = max(figures - 1, 1)
        elif key in (Key.AXIS_LONG, Key.ALLIES_LONG):
            self.off_map(app, Side.AXIS if key is Key.AXIS_LONG else Side.ALLIES)
            return self
        elif key is Key.OK:
            self.squad = None
            return self
        elif key is Key.BACK:            # no squad after all
            self.battle = replace(self.battle, pieces=tuple(
                p for p in self.battle.pieces if p.label != piece.label))
            self.squad = self.last = None
            return self
        self.battle = self.battle.replace_piece(replace(piece, figures=figures))
        return self

    def off_map(self, app: App, side: Side) -> None:
        """The held button: the piece just added waits off the map (held again: back on it)."""
        if self.last is None:
            return
        piece = self.battle.get(self.last)
        if piece.side is not side:
            return
        status = replace(piece.status, off_map=not piece.status.off_map)
        self.battle = self.battle.replace_piece(replace(piece, status=status))
        app.cue("click")

    def begin(self, app: App) -> Screen:
        pieces = self.battle.pieces
        state = battle_type(self.level)(Battle(self.level, pieces), house=self.house)
        app.begin(state)
        if self.match:
            assert isinstance(state, TankBattle)     # a match is the Tank Game's
            state.match = MatchState(1, [piece_dict(p) for p in pieces])
        else:
            remember(app, self.level, pieces)
        listed = tuple(entry("log_roster_off_map" if p.status.off_map else "log_roster_piece",
                             name=log_name(p), side=p.side.value) for p in pieces)
        app.commit(entry("log_new_match", pieces=listed) if self.match else
                   entry("log_new_battle", level=self.level, pieces=listed))
        if (changed := house_entry(self.house, self.level)) is not None:
            app.commit(changed)
        # The battle's screens load when it begins (or while the box is idle before): choosing
        # the armies, a child's first press after the start, does not wait for them.
        from cobi_companion.device.games.battle import begin_round

        return begin_round(app)


def log_name(piece: Piece) -> str:
    """'Rifle 1 (3)' for a squad, the label for a model."""
    return f"{piece.label} ({piece.figures})" if piece.kind is Kind.FIGURE else piece.label


def roster_name(app: App, piece: Piece) -> str:
    """A piece on the roster: its name, and 'off map' when waiting off it."""
    return joined(" ", log_name(piece), app.t("off_map")) if piece.status.off_map else \
        log_name(piece)



# ---- the house rules of the battle ----


def house_menu(app: App, roster: Roster, index: int = 0) -> Screen:
    """The level's house rules, each with its value; OK changes the highlighted one to its next
    value, and its hint says what the value means. Done (or a long press) goes back."""
    names = [row.name for row in for_level(roster.level)]

    def chosen(i: int) -> Screen:
        if i == len(names):
            return roster
        roster.house = roster.house.toggled(names[i])
        app.cue("click")
        return house_menu(app, roster, i)
    items = [house_value(app, roster.house, name) for name in names] + [app.t("house_done")]
    hints = [app.t(f"househint_{name}_{roster.house.value(name)}") for name in names]
    return Choose(app.t("house_rules"), items, chosen, back=lambda: roster, index=index,
                  hints=[*hints, app.t("ok_choose")])
