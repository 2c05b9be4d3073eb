"""House rules: the places where the rule texts disagree or can be read two ways, each a named
choice the players make before a battle.

Both texts invite it: "If both sides agree that a rule is silly or inaccurate we recommend that
you use your own changes" (Tank Game), "If you do not understand some of the rules or want to
change them, and your opponent agrees, then do it!" (Easy). Each rule's first value is the
reading docs/rules-notes.md chose, the default; the others are the readings it did not choose.
The rules take a `HouseRules` as data (`ShotPlan.house`, `SoftPlan.house`, a parameter of the
reload action and of the Easy round), and every resolution says the house rules that changed
something in it.

The table is named tuples and the choices plain strings: the command line reads this module
for its --house-rule option, and a dataclass costs about a millisecond to create at import.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal, NamedTuple, cast

from .errors import Refusal, RulesError

ShermanReload = Literal["card", "text"]
EasyFields = Literal["meaning", "number"]
HeModifier = Literal["table", "card"]
EasyRound = Literal["one_each", "both_pass"]
SoftTableReading = Literal["estimate", "printed"]
ExtraActivation = Literal["new_pieces", "same_pieces"]
Weapons = Literal["every", "one"]
FireThenMove = Literal["allowed", "refused"]
MatchScore = Literal["winner", "both"]
Rough = Literal["once", "each"]
RoadReverse = Literal["allowed", "forward_only"]
OpenTopReload = Literal["two", "half"]
SoftDamage = Literal["modified", "raw"]


class HouseRule(NamedTuple):
    """A row of the table: the rule's name, the levels it changes, its values (the default
    first) and one line of English for each value."""

    name: str
    levels: tuple[str, ...]
    values: tuple[str, ...]
    explained: tuple[str, ...]

    @property
    def default(self) -> str:
        return self.values[0]

    def explain(self, value: str) -> str:
        return self.explained[self.values.index(value)]


RULES = (
    HouseRule("sherman_reload", ("tank",), ("card", "text"), (
        "the Sherman (2464) reloads on 5-6, as its card says",
        "the Sherman (2464) reloads on 4-6, as the Kelly's Heroes example says")),
    HouseRule("easy_fields", ("easy",), ("meaning", "number"), (
        "Destroy Gun: loses its gun and is damaged; Weaken: damaged (the fields by meaning)",
        "Destroy Gun (15): damaged; Weaken (16): loses its gun, damaged (the Easy numbers)")),
    HouseRule("he_modifier", ("tank",), ("table", "card"), (
        "HE attacks soft targets with the Soft Targets Table's HE template row (+2)",
        "HE attacks soft targets with the firing gun's own HE modifier from its card")),
    HouseRule("easy_round", ("easy",), ("one_each", "both_pass"), (
        "a round ends when both sides have had one action (the English text)",
        "a round ends only when both sides pass one after the other (the Polish text)")),
    HouseRule("soft_table", ("tank",), ("estimate", "printed"), (
        "soft targets: the owner's table, then our estimate from the rules' examples: nothing "
        "asked",
        "soft targets: the owner's table, then the values dialled from your printed table")),
    HouseRule("extra_activation", ("tank",), ("new_pieces", "same_pieces"), (
        "the extra activation after one without fire takes pieces not yet activated this turn",
        "the extra activation may take the same pieces again")),
    HouseRule("weapons", ("tank",), ("every", "one"), (
        "each weapon of an active piece may fire once in its activation (rule 10)",
        "a piece fires one weapon in its activation (a squad: one weapon a figure)")),
    HouseRule("fire_then_move", ("tank",), ("allowed", "refused"), (
        "a piece that fired may still move (rule 10 forbids only fire after a move)",
        "a piece that fired may not move in that activation")),
    HouseRule("match_score", ("tank",), ("winner", "both"), (
        "the match adds the figures left of each battle's winner only",
        "the match adds each team's figures left in both battles, won or lost")),
    HouseRule("rough", ("easy", "tank"), ("once", "each"), (
        "rough ground costs its Move in Rough once a move, however much is crossed",
        "rough ground costs its Move in Rough once for each patch crossed")),
    HouseRule("road_reverse", ("easy", "tank"), ("allowed", "forward_only"), (
        "the road bonus counts backward too, when the whole move is on road",
        "the road bonus counts only moving forward")),
    HouseRule("open_top_reload", ("tank",), ("two", "half"), (
        "an open-top's weapon reloads without -1 with two figures left",
        "an open-top's reload has -1 also below half its crew value, as a gun's")),
    HouseRule("soft_damage", ("tank",), ("modified", "raw"), (
        "a soft vehicle takes the modified attack roll less the defender's roll in damage dice",
        "a soft vehicle takes the attacker's die as rolled less the defender's roll in damage "
        "dice")),
)
BY_NAME = {rule.name: rule for rule in RULES}


def rule(name: str) -> HouseRule:
    """The house rule called `name`; a refusal naming the house rules there are."""
    try:
        return BY_NAME[name]
    except KeyError:
        names = tuple(BY_NAME)
        raise RulesError(Refusal.UNKNOWN_HOUSE_RULE, rule=name, choices=names) from None


def parse(name: str, value: str) -> tuple[str, str]:
    """A house rule and its value, as typed (`--house-rule NAME=VALUE`, a config key), checked:
    a refusal names the allowed names or values."""
    row = rule(name.strip().lower())
    chosen = value.strip().lower()
    if chosen not in row.values:
        raise RulesError(Refusal.HOUSE_RULE_VALUE,
                         rule=row.name, value=value, choices=row.values)
    return row.name, chosen


@dataclass(frozen=True)
class HouseRules:
    """The house rules of a battle or a resolution: one field per rule of `RULES`, each
    defaulting to the reading of docs/rules-notes.md."""

    sherman_reload: ShermanReload = "card"    # Kelly's Heroes "he needs a 4-6", the card 5-6
    easy_fields: EasyFields = "meaning"       # (15)/(16) by meaning, or by the Easy numbers
    he_modifier: HeModifier = "table"         # the HE template's row, or the gun's own value
    easy_round: EasyRound = "one_each"        # the English round, or the Polish "both pass"
    soft_table: SoftTableReading = "estimate"  # our estimate of the unprinted table, or yours
    extra_activation: ExtraActivation = "new_pieces"  # rule 8's extra: new pieces, or the same
    weapons: Weapons = "every"                # rule 10: each weapon once, or one weapon a piece
    fire_then_move: FireThenMove = "allowed"  # rule 10 forbids only fire after a move
    match_score: MatchScore = "winner"        # rule 16: "the figures the winner had left"
    rough: Rough = "once"                     # Move in Rough once a move, or once a patch
    road_reverse: RoadReverse = "allowed"     # "Only on Road" backward too, or forward only
    open_top_reload: OpenTopReload = "two"    # rule 11: "they need two to avoid -1"
    soft_damage: SoftDamage = "modified"      # "the difference between the attacker roll and..."

    def value(self, name: str) -> str:
        return cast(str, getattr(self, rule(name).name))

    # Saved by hand, not by its types (rules/saved.py): each value checked, new rules left out.
    def to_dict(self) -> dict[str, str]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HouseRules:
        """The house rules of a save or a config table. A name this version does not know
        (a newer box's rule) is left out; a value a known rule does not have is refused, as
        playing on by another reading would change the battle silently."""
        return cls().with_values((str(name), str(value)) for name, value in data.items()
                                 if str(name) in BY_NAME)

    def with_value(self, name: str, value: str) -> HouseRules:
        """These rules with one rule's value, checked (a refusal names what is allowed)."""
        checked: dict[str, Any] = dict((parse(name, value),))
        return replace(self, **checked)

    def with_values(self, chosen: Iterable[tuple[str, str]]) -> HouseRules:
        """These rules with each (name, value) applied in order (the command line's)."""
        rules = self
        for name, value in chosen:
            rules = rules.with_value(name, value)
        return rules

    def toggled(self, name: str) -> HouseRules:
        """The rule's next value (after the last, the first again): the box's OK."""
        values = rule(name).values
        return self.with_value(name, values[(values.index(self.value(name)) + 1)
                                            % len(values)])

    def changed(self, level: str | None = None) -> dict[str, str]:
        """The rules whose value is not the default (of `level`'s rules, when one is given)."""
        return {row.name: self.value(row.name) for row in for_level(level)
                if self.value(row.name) != row.default}


DEFAULT = HouseRules()


def for_level(level: str | None) -> tuple[HouseRule, ...]:
    """The house rules that change something at `level` (all of them for None)."""
    return tuple(row for row in RULES if level is None or level in row.levels)

