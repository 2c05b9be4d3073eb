"""Tank Game fire at soft targets (figures, guns, soft vehicles), single shots and templates.

An attack is the attacker's D6 plus the Soft Targets Table's modifiers against the defender's
D6: a hit when the defender rolls less. A hit eliminates a figure or a gun; against a soft
vehicle the difference is its number of damage dice against its card. Template weapons (HE,
machine guns, grenades) attack every piece they cover one at a time, a machine gun with its
shots at each figure. HE first rolls to hit and to reload like any gun shot; hard targets under
a template take the HE modifier (or a machine gun's damage dice) as damage dice. A hand
grenade first rolls its To hit (the Infantry Weapon Table's, kept with the table's values); a
main gun without HE fires at one figure or soft vehicle, then reloads.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache, partial
from typing import Any

from cobi_companion.rules.tank.refusals import TankRefusal

from ..battle import OPEN_TOP_GUN_CREW, Piece
from ..card import (
    PRINTED,
    Facing,
    InfoCard,
    Kind,
    Mount,
    Template,
    Weapon,
    facing_armour,
)
from ..dice import RELOAD, TO_HIT, Aim, Dice, Need, Roller
from ..english import Word
from ..errors import Refusal, RulesError
from ..house import DEFAULT, HouseRules
from ..shot import Reader, effect_of
from ..status import Effect, Status
from ..trace import ArmourRoll, DamageRoll, DieCheck, Modifier, Tally, card_ref
from .hard_fire import (
    check_die,
    damage_dice,
    range_modifiers,
    reload_house,
    reload_modifiers,
    reload_range,
)
from .soft_table import MissingValue, SoftTable, ToHit, Wanted

HE = "he"
MAIN_GUN = "main gun"     # a main gun without HE, fired at one figure or soft vehicle


@dataclass(frozen=True)
class Covered:
    """A piece the fire attacks: the one target, or a piece under the template.

    `figures` is how many of its figures are attacked (a squad's figures under the template,
    a gun's crew); `model` attacks the gun or vehicle itself.
    """

    piece: Piece
    figures: int = 0
    situations: tuple[str, ...] = ()
    facing: Facing = Facing.FRONT
    model: bool = True

    @property
    def label(self) -> str:
        return self.piece.label

    def after(self, status: Status, killed: int) -> Piece:
        """The piece after the fire: `status` after the attack at the model, `killed` of its
        figures killed. Made once a status and count (all frozen): the odds walk fires a plan
        10^5 times, and its pieces come out in a handful of ways."""
        key = (status, killed)
        piece = self._after.get(key)
        if piece is None:
            piece = self._after[key] = _piece_after(self.piece, status, killed)
        return piece

    @cached_property
    def _after(self) -> dict[tuple[Status, int], Piece]:
        return {}


def _piece_after(piece: Piece, status: Status, killed: int) -> Piece:
    if piece.kind is Kind.HARD and killed:   # the crew stays; it may only leave the map
        status = replace(status, commander_out=False, commander_killed=True)
    # a piece with the same status is the piece itself (frozen): no copy made
    after = piece if status == piece.status else replace(piece, status=status)
    if piece.kind is not Kind.HARD:
        after = after.lose_figures(killed)
    return after


@dataclass(frozen=True)
class SoftPlan:
    """Fire at soft targets before it is resolved: firer, weapon, the pieces under it and the
    situation."""

    firer: Piece
    weapon: Weapon
    targets: tuple[Covered, ...]
    table: SoftTable
    range_cm: float | None = None     # needed by a shot without a template; HE: over 100 is -1
    # HE to hit: the target is in any cover (-1). None: as the pieces' situations say
    # (`he_in_cover`), as the box and the command line both play it.
    cover: bool | None = None
    over_range: bool = False          # HE: the players say over 100 cm, without a distance
    house: HouseRules = DEFAULT       # the readings the players chose (rules/house.py)

    @cached_property
    def modifiers(self) -> tuple[tuple[Modifier, ...], ...]:
        """`table_modifiers`, worked out once a plan: a plan is frozen data (its pieces,
        cards and table are never changed in place), so every fire of it reads the same. The
        odds walk fires one plan hundreds of thousands of times. A refusal is not kept: each
        fire raises it again."""
        return table_modifiers(self)

    @cached_property
    def target_in_cover(self) -> bool:
        """HE's -1 to hit: as `cover` says, else as the pieces' situations say (one rule for
        the box and the command line, `he_in_cover`); worked out once a plan."""
        return he_in_cover(self.targets) if self.cover is None else self.cover

    def fired(self, loaded: bool) -> Piece:
        """The firer after the fire: loaded or not (HE's reload), never hidden (firing
        reveals it). Each made once a plan: the odds walk fires a plan 10^5 times."""
        return self._fired[loaded]

    @cached_property
    def _fired(self) -> dict[bool, Piece]:
        firer = self.firer
        return {loaded: firer if firer.status.loaded is loaded and not firer.status.hidden
                else replace(firer, status=replace(firer.status, loaded=loaded, hidden=False))
                for loaded in (False, True)}


def he_weapon(card: InfoCard) -> Weapon:
    """The card's main gun firing HE: every weapon with an HE modifier uses the HE template."""
    if card.known("he_modifier") and card.he_modifier is None:
        raise RulesError(TankRefusal.NO_HE, name=card.title)
    damage = card.damage if card.known("damage") else None
    return Weapon(name=HE, template=Template.HE, damage=damage, he_modifier=card.he_modifier)


def gun_weapon(card: InfoCard) -> Weapon:
    """The card's main gun fired at one figure or soft vehicle: a gun whose card says "Damage
    HE Modifier none" has no template ("First check to see if the weapon has a template (if
    None), then only one figure or soft vehicle is the target"). A gun with HE fires HE. A
    card file without the HE modifier does not say which: refused as a part card naming the
    field (not known is neither none nor some)."""
    if card.need("he_modifier") is not None:
        raise RulesError(TankRefusal.MAIN_GUN_HAS_HE, name=card.title)
    damage = card.damage if card.known("damage") else None
    return Weapon(name=MAIN_GUN, damage=damage)


def weapon_value(card: InfoCard, weapon: Weapon, field: str) -> Any:
    """A value of one of the card's weapons, for a rule that needs it; None means printed as
    none. Not known (absent from the card file): refused as a part card, naming the card,
    the weapon and the field, as a card's own value is (`CardValueMissing`)."""
    if not weapon.known(field):
        label = PRINTED.get(field, (field, ""))[0]
        raise RulesError(TankRefusal.WEAPON_VALUE_MISSING, name=card.title, weapon=weapon.name,
                         field=Word(field, label), source=card.source)
    return getattr(weapon, field)


def main_gun(weapon: Weapon) -> bool:
    """Whether the weapon is the card's main gun (HE, or without HE at one target): it fires
    loaded, and reloads after firing."""
    return weapon.given is None and weapon.name in (HE, MAIN_GUN)


def gun_without_he(weapon: Weapon) -> bool:
    """Whether the weapon is the card's main gun fired without HE (at one figure or soft
    vehicle): it rolls its reload right after the attacker's die."""
    return main_gun(weapon) and weapon.template is None


def rolls_to_hit(weapon: Weapon) -> bool:
    """Whether the fire first rolls To hit: HE (the gun's card), and hand grenades, which
    "use the 'To hit' die roll on the 'Infantry Weapon Table'"."""
    return weapon.template in (Template.HE, Template.GRENADE)


# ---- the trace ----


@dataclass(frozen=True)
class Attack:
    """One attack at one figure, gun or vehicle, with every roll and value used."""

    target: str                     # "Rifle 1 figure 2", "Bofors 1"
    shot: int                       # 1.. the weapon's shots at a figure
    roll: int | None                # the attacker's D6 (none against a hard target)
    modifiers: tuple[Modifier, ...]
    modified: int | None
    defender: int | None            # the defender's D6
    effect: Effect
    reason: str
    damage: DamageRoll | None = None
    armour: ArmourRoll | None = None
    net: int | None = None
    piece: str = ""                 # the attacked piece's label
    figure: int | None = None       # the figure attacked (a vehicle's commander: 1), or None
    # a soft vehicle hit under the house rule soft_damage = raw: its damage dice, the die as
    # rolled less the defender's (below 1: none); None where the modified difference counts
    raw_dice: int | None = None

    @property
    def difference(self) -> int | None:
        if self.modified is None or self.defender is None:
            return None
        return self.modified - self.defender

    @property
    def hit(self) -> bool:
        return self.effect is not Effect.MISS

    @property
    def raw_changed(self) -> bool:
        """Whether the house rule soft_damage = raw gave other damage dice than the modified
        difference would have."""
        return self.raw_dice is not None and self.raw_dice != self.difference

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target, "shot": self.shot, "roll": self.roll,
            "modifiers": [m.to_dict() for m in self.modifiers], "modified": self.modified,
            "defender": self.defender, "difference": self.difference, "hit": self.hit,
            "damage": None if self.damage is None else self.damage.to_dict(),
            "armour": None if self.armour is None else self.armour.to_dict(),
            "net": self.net, "effect": self.effect.value, "reason": self.reason,
            "raw_dice": self.raw_dice,
        }


@dataclass(frozen=True)
class PieceResult:
    """What fire at soft targets did to one piece: its attacks, its figures down, and the model
    itself."""

    label: str
    kind: Kind
    attacks: tuple[Attack, ...]
    figures_attacked: int
    figures_killed: int
    model_effect: Effect | None       # the gun or vehicle itself, if attacked
    before: Piece
    after: Piece

    @property
    def down(self) -> int:
        return self.figures_killed + (self.model_effect is Effect.DESTROYED)

    @property
    def attacked(self) -> int:
        return self.figures_attacked + (self.model_effect is not None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label, "kind": self.kind.value,
            "attacks": [a.to_dict() for a in self.attacks],
            "figures_attacked": self.figures_attacked, "figures_killed": self.figures_killed,
            "model_effect": None if self.model_effect is None else self.model_effect.value,
            "figures_before": self.before.figures, "figures_after": self.after.figures,
            "status_before": self.before.status.words(),
            "status_after": self.after.status.words(),
            "crew_fights_on": self.after.crew_only, "out": self.after.gone,
            "riding": None if self.before.riding is None else self.before.riding.to_dict(),
        }


@dataclass(frozen=True)
class SoftFire:
    """Fire at soft targets, as resolved: every roll, and each piece's result."""

    firer: Piece
    firer_after: Piece
    weapon: Weapon
    to_hit: DieCheck | None            # HE and grenades only
    reload: DieCheck | None            # the main gun only (HE, or without HE)
    results: tuple[PieceResult, ...]
    card_values: tuple[Any, ...]
    faces: tuple[int, ...]
    house_rules: tuple[tuple[str, str], ...] = ()    # the house rules that changed the fire
    # where a grenade's To hit comes from (the Infantry Weapon Table is not printed: the
    # owner's table, our estimate, or learned at the table); None for HE's (the card's)
    to_hit_source: str | None = None

    @property
    def hit(self) -> bool:
        return self.to_hit is None or self.to_hit.success

    @property
    def down(self) -> int:
        return sum(r.down for r in self.results)

    @property
    def attacked(self) -> int:
        return sum(r.attacked for r in self.results)

    @property
    def attacks(self) -> tuple[Attack, ...]:
        return tuple(a for r in self.results for a in r.attacks)

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": "tank", "fire": "soft",
            "firer": {"label": self.firer.label, "card": card_ref(self.firer.card)},
            "weapon": self.weapon.name,
            "template": None if self.weapon.template is None else self.weapon.template.value,
            "hit": self.hit,
            "to_hit": None if self.to_hit is None else {
                **self.to_hit.to_dict(), "source": self.to_hit_source},
            "reload": None if self.reload is None else {
                **self.reload.to_dict(), "loaded": self.reload.success},
            "targets": [r.to_dict() for r in self.results],
            "attacked": self.attacked, "down": self.down,
            "summary": f"{self.down} of {self.attacked} down",
            "firer_status_after": self.firer_after.status.words(),
            "card_values": [c.to_dict() for c in self.card_values],
            "dice": list(self.faces),
            "house_rules": dict(self.house_rules),
        }


# ---- refusals, before any die is rolled ----


def check_plan(plan: SoftPlan) -> None:
    """Everything the fire needs, the Soft Targets Table's values last."""
    table_modifiers(plan)


def table_modifiers(plan: SoftPlan) -> tuple[tuple[Modifier, ...], ...]:
    """`check_plan`, and the modifiers of the attacks at each covered piece (`attack_modifiers`;
    () where no attack reads the table): read once a plan (`SoftPlan.modifiers`), not once an
    attack."""
    check_pieces(plan)
    if plan.weapon.template is Template.GRENADE:
        grenade_to_hit(plan)                  # its To hit, a table's value: before any die
    return tuple(attack_modifiers(plan, covered) if uses_table(plan, covered) else ()
                 for covered in plan.targets)


def check_pieces(plan: SoftPlan) -> None:
    """The firer, its weapon and the pieces it fires at: all but the table's values."""
    check_soft_firer(plan.firer, plan.weapon)
    if not plan.targets:
        raise RulesError(TankRefusal.NO_TARGET)
    if plan.weapon.template is None and (
            len(plan.targets) != 1 or plan.targets[0].figures > 1):
        raise RulesError(TankRefusal.ONE_TARGET_ONLY, weapon=plan.weapon.name)
    if card_he(plan) and any(uses_table(plan, covered) for covered in plan.targets):
        plan.firer.card.need("he_modifier")     # names the card file and the field
    for covered in plan.targets:
        check_target(plan, covered)
        if covered.piece.kind.vehicle and covered.model and damage_dice_at(plan, covered):
            # every hit rolls damage dice against this armour; Destroy, the bands and (for
            # HE) whether the gun has damage dice to destroy are read only by a result that
            # needs them, after the dice
            facing_armour(covered.piece.card, covered.facing)


def damage_dice_at(plan: SoftPlan, covered: Covered) -> bool:
    """Whether a hit on the vehicle itself rolls damage dice: a soft vehicle always (the
    difference); a hard one under a template only with dice to roll, HE its HE modifier (read
    here: every hit needs it), a machine gun its own damage dice. Without them no result of
    the fire needs the vehicle's card."""
    kind, weapon = covered.piece.kind, plan.weapon
    if kind is Kind.SOFT:
        return True
    # a weapon's damage dice its card does not give are not known, not none: refused
    count = plan.firer.card.need("he_modifier") if weapon.template is Template.HE \
        else weapon_value(plan.firer.card, weapon, "damage")
    return bool(count and count >= 1)


def missing(plan: SoftPlan) -> tuple[Wanted, ...]:
    """The Soft Targets Table's values the fire needs and the table lacks, each once, in the
    order the attacks use them. Other refusals are raised as usual."""
    wanted: list[Wanted] = []
    if plan.weapon.template is Template.GRENADE:
        try:
            grenade_to_hit(plan)
        except MissingValue as exc:
            wanted.append(exc.wanted)
    for covered in plan.targets:
        if not uses_table(plan, covered):
            continue
        for lookup in _lookups(plan, covered):
            try:
                lookup()
            except MissingValue as exc:
                if exc.wanted not in wanted:
                    wanted.append(exc.wanted)
    return tuple(wanted)


def check_soft_firer(firer: Piece, weapon: Weapon) -> None:
    if firer.gone:
        raise RulesError(TankRefusal.FIRER_OUT, label=firer.label)
    if firer.status.commander_killed:
        raise RulesError(TankRefusal.COMMANDER_LOST, label=firer.label)
    crewed = firer.kind in (Kind.GUN, Kind.OPEN_TOP, Kind.FIGURE)
    if crewed and firer.figures is None:
        # a crew its card file does not give: "Guns need to have at least one figure to fire"
        # cannot be checked, so the card is asked (a refusal names the file and the field)
        firer.card.need("crew")
    if crewed and not firer.figures:
        raise RulesError(TankRefusal.NO_FIGURE_TO_FIRE, label=firer.label)
    if main_gun(weapon):   # HE, or without HE: its damage dice matter only on vehicles
        if firer.status.gun_destroyed or firer.crew_only:   # a destroyed gun's crew: no gun
            raise RulesError(Refusal.GUN_LOST, name=firer.label)
        if firer.card.need("gun_to_hit") is None or firer.card.need("reload") is None:
            raise RulesError(Refusal.NO_GUN, name=firer.label)
        if not firer.status.loaded:
            raise RulesError(Refusal.UNLOADED, name=firer.label)
        if weapon.template is None:       # a gun without HE: its card must say so
            gun_weapon(firer.card)
    else:
        _check_mount(firer, firer.card.weapon(weapon.name))  # refuses, naming what it carries


def _check_mount(firer: Piece, weapon: Weapon) -> None:
    """Rule 10: Destroy Gun "disables the main gun and the turret machine gun (coaxial) if
    any"; rule 11: the commander "may sit in the turret and act as a figure for ... firing the
    external machinegun". A hull machine gun, or a weapon without a mount, fires as ever."""
    if weapon.mount is Mount.COAXIAL and firer.status.gun_destroyed:
        raise RulesError(TankRefusal.COAXIAL_LOST,
                         label=firer.label, weapon=weapon.name)
    if weapon.mount is Mount.EXTERNAL and not firer.commander_outside:
        raise RulesError(TankRefusal.EXTERNAL_NEEDS_COMMANDER, label=firer.label,
                         weapon=weapon.name)


def check_in_sight(piece: Piece) -> None:
    """A piece out of the fight, or hidden (rule 12), cannot be fired at."""
    if piece.gone:
        raise RulesError(TankRefusal.ALREADY_OUT, label=piece.label)
    if piece.status.hidden:
        raise RulesError(TankRefusal.HIDDEN_TARGET, label=piece.label)


def check_target(plan: SoftPlan, covered: Covered) -> None:
    piece, weapon = covered.piece, plan.weapon
    check_in_sight(piece)
    if piece.crew_only and covered.model:   # its crew fight on: they are attacked as figures
        raise RulesError(Refusal.TARGET_DESTROYED, name=piece.label)
    if piece.kind is Kind.FIGURE:
        if not 1 <= covered.figures <= (piece.figures or 0):
            raise RulesError(TankRefusal.FIGURES_TO_ATTACK, label=piece.label,
                             figures=piece.figures or 0)
    elif piece.kind is Kind.HARD and covered.figures:
        if not piece.commander_outside:
            raise RulesError(TankRefusal.CREW_INSIDE, label=piece.label)
        if covered.figures > 1:
            raise RulesError(TankRefusal.ONE_COMMANDER, label=piece.label)
    elif piece.kind is Kind.SOFT and covered.figures:
        raise RulesError(TankRefusal.CREW_INSIDE_SOFT, label=piece.label)
    elif covered.figures > (piece.figures or 0):
        raise RulesError(TankRefusal.CREW_LEFT, label=piece.label, figures=piece.figures or 0)
    elif covered.figures > exposed_crew(piece):
        raise RulesError(TankRefusal.OPEN_TOP_CREW_PROTECTED, label=piece.label,
                         figures=exposed_crew(piece))
    if weapon.template is not None:
        return
    if piece.riding is not None and piece.riding.kind is Kind.OPEN_TOP:
        raise RulesError(TankRefusal.RIDERS_IN_HARD_COVER, label=piece.label,
                         vehicle=piece.riding.vehicle)
    if piece.kind is Kind.GUN and covered.model:
        raise RulesError(TankRefusal.GUN_NEEDS_TEMPLATE)
    if piece.kind is Kind.HARD and not covered.model:
        return                       # its commander out in the turret: a figure like any other
    if piece.kind in (Kind.HARD, Kind.OPEN_TOP) and covered.model:
        if main_gun(weapon):        # the gun without HE: its AP, fire at hard targets
            raise RulesError(TankRefusal.GUN_AT_HARD, label=piece.label)
        raise RulesError(TankRefusal.HARD_TARGET, label=piece.label, weapon=weapon.name)
    if piece.kind in (Kind.HARD, Kind.OPEN_TOP):
        raise RulesError(TankRefusal.CREW_IN_HARD_COVER, label=piece.label)


def exposed_crew(piece: Piece) -> int:
    """The figures of the piece a template may reach: an open-top's crew manning its main gun
    (rule 11: "The other crew are protected as normal tank crew"), at most two; a squad's
    or a gun's crew all of them."""
    figures = piece.figures or 0
    return min(figures, OPEN_TOP_GUN_CREW) if piece.kind is Kind.OPEN_TOP else figures


def raw_damage(plan: SoftPlan) -> bool:
    """Whether this fire's odds play by the house rule soft_damage = raw: a soft vehicle hit
    takes the attacker's die as rolled, not its modified result, less the defender's roll in
    damage dice, and it changes them: a soft vehicle is attacked with modifiers (without any,
    the die as rolled is the modified result)."""
    return plan.house.soft_damage == "raw" and any(
        c.model and c.piece.kind is Kind.SOFT and sum(m.value for m in mods)
        for c, mods in zip(plan.targets, plan.modifiers, strict=True))


def figures_reached(plan: SoftPlan, covered: Covered) -> int:
    """The figures attacked: an open-top vehicle's crew, and figures riding in one, only by HE
    and grenades."""
    piece = covered.piece
    in_open_top = piece.kind is Kind.OPEN_TOP or (
        piece.riding is not None and piece.riding.kind is Kind.OPEN_TOP)
    if in_open_top and plan.weapon.template not in (Template.HE, Template.GRENADE):
        return 0
    return covered.figures


def grenade_to_hit(plan: SoftPlan) -> ToHit:
    """A grenade's To hit and where it comes from: the Infantry Weapon Table's, not printed
    in the rules, so read where the Soft Targets Table's missing values are (the owner's
    table, our estimate, the values learned at the table)."""
    table = plan.table.reading(plan.house.soft_table == "estimate")
    return table.to_hit(plan.weapon.name)


def uses_table(plan: SoftPlan, covered: Covered) -> bool:
    """Whether the fire makes soft attacks at the piece (a gun or soft vehicle itself, or its
    figures), which take their modifiers from the Soft Targets Table."""
    soft_model = covered.model and covered.piece.kind in (Kind.GUN, Kind.SOFT)
    return soft_model or figures_reached(plan, covered) > 0


def _lookups(plan: SoftPlan, covered: Covered) -> list[Callable[[], Modifier]]:
    """The table's values an attack at the piece uses: the weapon's (template, or the band of
    the range), then the target's situations."""
    # the owner's table, then our estimate or the values learned at the table (soft_table)
    table, weapon = plan.table.reading(plan.house.soft_table == "estimate"), plan.weapon
    if card_he(plan):
        first: Callable[[], Modifier] = partial(card_he_modifier, plan.firer.card)
    elif weapon.template is not None:
        first = partial(table.template_modifier, weapon.name)
    else:
        first = partial(table.range_modifier, weapon.name, plan.range_cm)
    return [first, *(partial(table.situation_modifier, s) for s in situations_of(covered))]


def situations_of(covered: Covered) -> tuple[str, ...]:
    """Where the piece's attacked figures (or the piece) are, by the Soft Targets Table's
    situations: those set for it, an open-top's crew in hard cover (rule 11: "Figures In open
    top hard vehicles are in hard cover if manning the main gun or keeping the heads down"),
    and where riders sit. The one reading of "where it is" that the attacks' modifiers and
    HE's -1 for cover (`in_cover`) both use."""
    situations = covered.situations
    crew_under = covered.piece.kind is Kind.OPEN_TOP and covered.figures > 0
    if crew_under and "hard_cover" not in situations:
        situations = (*situations, "hard_cover")   # its crew: manning the gun or heads down
    seated = seat_situation(covered.piece)
    if seated is not None and seated not in situations:
        situations = (*situations, seated)         # riders loaded in a soft or open-top vehicle
    return situations


def seat_situation(piece: Piece) -> str | None:
    """The situation of figures riding in a vehicle (in a soft vehicle, or in an open-top's
    hard cover); None for figures on top of a vehicle, in the open, and for others."""
    return None if piece.riding is None else piece.riding.situation


def card_he(plan: SoftPlan) -> bool:
    """Whether HE attacks soft targets with the gun's own HE modifier (house rule he_modifier
    = card) instead of the Soft Targets Table's HE template row."""
    return plan.weapon.template is Template.HE and plan.house.he_modifier == "card"


def card_he_modifier(card: InfoCard) -> Modifier:
    """The firing gun's "Damage HE Modifier (HE Template)" as the template's modifier."""
    value: int | None = card.need("he_modifier")
    if value is None:
        raise RulesError(TankRefusal.NO_HE, name=card.title)
    return Modifier(f"HE template: {card.title}'s HE modifier {value:+d} (house rule)", value)


def fire_house(plan: SoftPlan, attacks: bool, raw: bool) -> tuple[tuple[str, str], ...]:
    """The house rules the fire played by, for its trace: the Sherman's reload of HE, the
    gun's own HE modifier where a soft attack used it (`attacks`: the attacks were made), the
    raw difference where it changed a soft vehicle's damage dice (`raw`), and your table
    instead of our estimate where a soft attack read the table."""
    used = reload_house(plan.firer.card, plan.house) if plan.weapon.template is Template.HE \
        else ()
    if plan.weapon.template is Template.HE and plan.firer.open_top_reload_ruled(plan.house):
        used += (("open_top_reload", "half"),)
    tabled = attacks and any(uses_table(plan, c) for c in plan.targets)
    if attacks and raw:
        used += (("soft_damage", "raw"),)
    if tabled and card_he(plan):
        used += (("he_modifier", "card"),)
    thrown = plan.weapon.template is Template.GRENADE     # its To hit is read from the table
    if (tabled or thrown) and plan.house.soft_table != DEFAULT.soft_table:
        used += (("soft_table", plan.house.soft_table),)
    return used


def attack_modifiers(plan: SoftPlan, covered: Covered) -> tuple[Modifier, ...]:
    """The weapon's modifier (template, or range band) and the target's situations."""
    return tuple(lookup() for lookup in _lookups(plan, covered))


# The Soft Targets Table's situations that are cover, for HE's to-hit (a soft vehicle is not).
COVER_SITUATIONS = frozenset({"soft_cover", "hard_cover"})


def in_cover(covered: Covered) -> bool:
    """Whether the piece is in any cover for HE's to-hit (seed 000: "-1 if the target is in
    any cover"): its situations (`situations_of`: set for it, an open-top's crew, where it
    rides) say soft or hard cover. A figure that took cover (rule 12) is behind what stops a
    bullet: its situation says which; a vehicle behind cover is in hard cover, as at hard
    targets ("hull down ... partially protected by terrain or in Hard cover")."""
    return any(s in COVER_SITUATIONS for s in situations_of(covered))


def asks_behind_cover(weapon: Weapon, covered: Covered) -> bool:
    """Whether HE over this vehicle needs the players' "behind cover?": a hard or open-top
    vehicle itself is fired at by "the procedure for Fire at Hard targets for HE template
    fire", whose -1 is for a target "hull down ... partially protected by terrain or in Hard
    cover", which only the table shows. Not asked when its attacked crew already are in hard
    cover (rule 11), nor for a closed vehicle's commander out (a figure: its situation is
    asked), nor for a weapon with no to-hit roll for cover."""
    piece = covered.piece
    vehicle = piece.kind is Kind.OPEN_TOP or (piece.kind is Kind.HARD and not covered.figures)
    return weapon.template is Template.HE and vehicle and not in_cover(covered)


def behind_cover(covered: Covered) -> Covered:
    """The vehicle said to be behind cover: in hard cover, as at hard targets."""
    return replace(covered, situations=(*covered.situations, "hard_cover"))


def he_in_cover(targets: Sequence[Covered]) -> bool:
    """HE's -1 to hit: any piece under the template is in cover (`in_cover`)."""
    return any(in_cover(covered) for covered in targets)


def he_to_hit_modifiers(plan: SoftPlan) -> tuple[Modifier, ...]:
    mods = []
    if plan.target_in_cover:
        mods.append(Modifier("HE: target in cover", -1))
    return (*mods, *range_modifiers(plan.range_cm, plan.over_range))


# ---- resolution ----


def _reload(plan: SoftPlan, tally: Tally) -> DieCheck:
    """The main gun's reload roll after firing."""
    needed = reload_range(plan.firer.card, plan.house, tally.card)
    assert needed is not None             # check_soft_firer refused a gun without one
    return check_die(tally, RELOAD, needed,
                     reload_modifiers(plan.firer.crew_below_half(plan.house)))


def _he_rolls(plan: SoftPlan, tally: Tally) -> tuple[DieCheck, DieCheck]:
    card = plan.firer.card
    to_hit = check_die(tally, TO_HIT, tally.card(card, "gun_to_hit"), he_to_hit_modifiers(plan))
    return to_hit, _reload(plan, tally)


def he_checks(plan: SoftPlan, dice: Dice) -> tuple[DieCheck, DieCheck]:
    """HE's to-hit and reload alone, for a screen that shows them before the attacks."""
    return _he_rolls(plan, Tally(dice))


def grenade_check(plan: SoftPlan, dice: Dice) -> DieCheck:
    """A grenade's To hit alone, for a screen that shows it before the attacks."""
    return check_die(Tally(dice), TO_HIT, grenade_to_hit(plan).faces, ())


def fire(plan: SoftPlan, dice: Dice) -> SoftFire:
    """HE: to hit and reload first; a grenade: its To hit first. Then each covered piece in
    turn: the gun or vehicle itself, then each figure (a machine gun's shots at a figure stop
    when it falls). A main gun without HE rolls its reload right after the attacker's die."""
    modifiers = plan.modifiers
    tally = Tally(dice)
    to_hit = reload = None
    source = None
    firer_after = plan.firer
    if plan.weapon.template is Template.HE:
        to_hit, reload = _he_rolls(plan, tally)
        firer_after = plan.fired(reload.success)
    elif plan.weapon.template is Template.GRENADE:     # every throw, whatever it covers
        thrown = grenade_to_hit(plan)
        to_hit, source = check_die(tally, TO_HIT, thrown.faces, ()), thrown.source
    if plan.firer.status.hidden and firer_after is plan.firer:  # firing reveals a hidden piece
        firer_after = plan.fired(plan.firer.status.loaded)
    # a gun without HE reloads after firing: its die thrown with the attacker's (GunReload)
    gun = GunReload(plan, tally) if gun_without_he(plan.weapon) else None
    results: tuple[PieceResult, ...] = ()
    attacks = to_hit is None or to_hit.success
    if attacks:
        results = tuple(_attack_piece(plan, covered, tally, mods, gun)
                        for covered, mods in zip(plan.targets, modifiers, strict=True))
    if gun is not None and gun.check is not None:
        reload = gun.check
        firer_after = plan.fired(reload.success)
    raw = any(a.raw_changed for result in results for a in result.attacks)
    return SoftFire(plan.firer, firer_after, plan.weapon, to_hit, reload, results,
                    tuple(tally.used), tuple(tally.faces), fire_house(plan, attacks, raw), source)


@dataclass
class GunReload:
    """The reload die of a gun fired without HE, rolled once, right after the attacker's die
    of its one attack and before the defender's, so the attacker's one press throws both (as
    to hit and reload at hard targets). Its one target is `check_pieces`' rule."""

    plan: SoftPlan
    tally: Tally
    check: DieCheck | None = None

    def after_attacker_die(self) -> None:
        if self.check is None:
            self.check = _reload(self.plan, self.tally)


def _attack_piece(plan: SoftPlan, covered: Covered, tally: Tally,
                  mods: tuple[Modifier, ...], gun: GunReload | None = None) -> PieceResult:
    piece = covered.piece
    attacks: list[Attack] = []
    model_effect = None
    status = piece.status
    if piece.kind is not Kind.FIGURE and covered.model:
        attack = _attack_model(plan, covered, tally, mods, gun)
        attacks.append(attack)
        model_effect = attack.effect
        status = status.hit_by(attack.effect) if attack.effect is not Effect.MISS else status
    killed = 0
    attacked = figures_reached(plan, covered)
    for number in range(1, attacked + 1):
        name = f"{piece.label} commander" if piece.kind is Kind.HARD else \
            f"{piece.label} figure {number}"
        for shot in range(1, plan.weapon.shots + 1):
            attack = _soft_attack(plan, covered, tally, mods, name, shot, figure=number,
                                  gun=gun)
            attacks.append(attack)
            if attack.hit:
                killed += 1
                break
    return PieceResult(piece.label, piece.kind, tuple(attacks), attacked, killed,
                       model_effect, piece, covered.after(status, killed))


def _attack_model(plan: SoftPlan, covered: Covered, tally: Tally,
                  mods: tuple[Modifier, ...], gun: GunReload | None) -> Attack:
    if covered.piece.kind in (Kind.HARD, Kind.OPEN_TOP):
        return _template_at_hard(plan, covered, tally)
    return _soft_attack(plan, covered, tally, mods, covered.label, 1, figure=None, gun=gun)


def _soft_attack(plan: SoftPlan, covered: Covered, tally: Tally, mods: tuple[Modifier, ...],
                 name: str, shot: int, figure: int | None,
                 gun: GunReload | None = None) -> Attack:
    """One opposed roll: the attacker's D6 plus `mods` (the piece's `attack_modifiers`)
    against the defender's D6. `figure` is the figure attacked (a vehicle's commander counts
    as figure 1), None for the piece. `gun`: the gun without HE's reload, thrown with the
    attacker's die."""
    piece = covered.piece.label
    attacker_die, defender_die = attack_needs(name, piece, figure, shot, plan.weapon.shots)
    roll = tally.roll(attacker_die)
    if gun is not None:
        gun.after_attacker_die()
    modified = roll + sum(m.value for m in mods)
    defender = tally.roll(defender_die)
    versus = f"{modified} against {defender}"
    if not beats(modified, defender):
        return Attack(name, shot, roll, mods, modified, defender, Effect.MISS,
                      f"{versus}: {modified - defender:+d}, no kill", piece=piece, figure=figure)
    difference = modified - defender
    if figure is not None or covered.piece.kind is Kind.GUN:
        word = "eliminated" if figure is not None else "destroyed"
        return Attack(name, shot, roll, mods, modified, defender, Effect.DESTROYED,
                      f"{versus}: {difference:+d}, {word}", piece=piece, figure=figure)
    if plan.house.soft_damage == "raw":   # "the difference between the attacker roll and
        raw = roll - defender             # the defender roll": the die as rolled
        if raw < 1:
            return Attack(name, shot, roll, mods, modified, defender, Effect.NONE,
                          f"{versus}: hit; {roll} rolled − {defender} = {raw:+d}: no "
                          f"damage dice (house rule soft_damage = raw)", piece=piece,
                          figure=figure, raw_dice=0)
        damage = damage_dice(tally, raw)
        return _damage_effect(plan, covered, tally, Attack(
            name, shot, roll, mods, modified, defender, Effect.NONE,
            f"{versus}: {roll} rolled − {defender} = {raw:+d} damage dice (house rule "
            f"soft_damage = raw)", piece=piece, figure=figure, raw_dice=raw), damage)
    damage = damage_dice(tally, difference)
    return _damage_effect(plan, covered, tally, Attack(
        name, shot, roll, mods, modified, defender, Effect.NONE,
        f"{versus}: {difference:+d} damage dice", piece=piece, figure=figure), damage)


@lru_cache(maxsize=256)    # frozen Needs, made once: an odds walk makes half a million attacks
def attack_needs(name: str, piece: str, figure: int | None, shot: int,
                 shots: int) -> tuple[Need, Need]:
    """The attacker's and the defender's D6 of an attack at `name` (shot `shot` of the
    weapon's `shots` at it)."""
    suffix = f" shot {shot}" if shots > 1 else ""
    numbered = shot if shots > 1 else None
    return (Need(Roller.ATTACKER, Aim.ATTACK, f"attacker D6: {name}{suffix}", piece, figure,
                 numbered),
            Need(Roller.DEFENDER, Aim.DEFENCE, f"defender D6: {name}{suffix}", piece, figure,
                 numbered))


def beats(modified: int, defender: int) -> bool:
    """The opposed roll: the attack succeeds when the attacker's modified D6 is higher than the
    defender's D6; a tie goes to the defender."""
    return modified > defender


def opposed_effect(covered: Covered, figure: int | None, modified: int, defender: int) -> Effect:
    """What an opposed roll does before any damage dice: a miss, a figure or gun eliminated,
    or (a soft vehicle) damage dice to roll, shown as NONE until they are."""
    if not beats(modified, defender):
        return Effect.MISS
    if figure is None and covered.piece.kind is not Kind.GUN:
        return Effect.NONE
    return Effect.DESTROYED


def can_destroy(plan: SoftPlan, read: Reader = InfoCard.need) -> bool:
    """Whether the weapon has damage dice, which only a result that destroys asks (read
    then, so a card without them is refused only by such a result): the main gun (HE, or
    without HE) the firer's card's Damage, another weapon its own. Not known is not none: a
    weapon entry without `damage` is refused by name (`weapon_value`), never played as none."""
    if main_gun(plan.weapon):
        count = read(plan.firer.card, "damage")
    else:
        count = weapon_value(plan.firer.card, plan.weapon, "damage")
    return bool(count and count >= 1)     # "a positive damage die value"


def _template_at_hard(plan: SoftPlan, covered: Covered, tally: Tally) -> Attack:
    """A hard target under a template: HE rolls its HE modifier as damage dice, other
    template weapons their own damage dice, by the procedure of fire at hard targets."""
    weapon, name = plan.weapon, covered.label
    field_name = "he_modifier" if weapon.template is Template.HE else "damage"
    count = tally.card(plan.firer.card, "he_modifier") if weapon.template is Template.HE \
        else weapon.damage
    if not count or count < 1:
        return Attack(name, 1, None, (), None, None, Effect.NONE,
                      f"the {weapon.name} has no {field_name.replace('_', ' ')} dice "
                      f"against a hard target: no effect", piece=covered.piece.label)
    damage = damage_dice(tally, count)
    return _damage_effect(plan, covered, tally, Attack(
        name, 1, None, (), None, None, Effect.NONE,
        f"{count} damage dice ({field_name.replace('_', ' ')})", piece=covered.piece.label),
        damage)


def _damage_effect(plan: SoftPlan, covered: Covered, tally: Tally, attack: Attack,
                   damage: DamageRoll) -> Attack:
    card, before = covered.piece.card, covered.piece.status
    value = facing_armour(card, covered.facing, tally.card)
    net = damage.total - value
    effect, reason = effect_of(card, net, before, tally.card)
    if effect is Effect.DESTROYED and not can_destroy(plan, tally.card):
        effect, reason = Effect.IMMOBILIZED, (
            f"{reason}; the {plan.weapon.name} has no damage dice, so immobilized instead")
    return replace(attack, effect=effect, damage=damage,
                   armour=ArmourRoll(covered.facing, value, (), 0, value), net=net,
                   reason=f"{attack.reason}; {damage.total} − {value} = {reason}")
