"""Plain-text explanations of the rules engine's traces, for the terminal (the command line's
English; the box says the same in its word tables)."""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from cobi_companion.device.ui.outcome_words import BIG_WORDS, percent
from cobi_companion.rules.battle import Seat
from cobi_companion.rules.card import PRINTED, InfoCard, Kind, Template
from cobi_companion.rules.house import BY_NAME as HOUSE_RULES
from cobi_companion.rules.levels import RULE_SETS, rule_set
from cobi_companion.rules.movement import Allowance
from cobi_companion.rules.odds import OUTCOMES, Odds
from cobi_companion.rules.status import Effect, Status
from cobi_companion.rules.tank.soft_fire import (
    Attack,
    Covered,
    PieceResult,
    SoftFire,
    SoftPlan,
    attack_modifiers,
    grenade_to_hit,
    he_to_hit_modifiers,
    main_gun,
)
from cobi_companion.rules.tank.soft_odds import SoftOdds
from cobi_companion.rules.tank.soft_table import SITUATIONS
from cobi_companion.rules.trace import DamageRoll, DieCheck, Modifier, ReloadAction, Shot

if TYPE_CHECKING:
    from cobi_companion.rules.battle import Piece
    from cobi_companion.rules.cobra import combat as cobra_combat
    from cobi_companion.rules.cobra import tables as cobra_tables
    from cobi_companion.rules.cobra import weather as cobra_weather
    from cobi_companion.rules.tank.overrun import Overrun, Under



def level_title(level: str) -> str:
    """The rules level's short name (rules/levels.py), or the name as given."""
    return RULE_SETS[level].called if level in RULE_SETS else level


def _mods(mods: tuple[Modifier, ...]) -> str:
    return "".join(f" {m.value:+d} ({m.reason})" for m in mods)


def _check(label: str, check: DieCheck, yes: str, no: str, exact: bool = False) -> str:
    rolled = f"rolled {check.roll}{_mods(check.modifiers)}"
    if check.modifiers:
        rolled += f" = {check.modified}"
    needs = f"needs {check.needed}" if exact else f"needs {check.needed.low} or more"
    return f"  {label:<9}{rolled}, {needs}: {yes if check.success else no}"


def _damage(d: DamageRoll) -> str:
    first, extra = d.rolls[:d.dice], d.rolls[d.dice:]
    more = f", extra {_faces(extra)}" if extra else ""
    return f"{d.dice} dice {_faces(first)}{more} = {d.total}"


def _faces(faces: tuple[int, ...]) -> str:
    return " ".join(str(f) for f in faces)


def status_text(status: Status) -> str:
    words = status.words()
    return ", ".join(w.replace("_", " ") for w in words) if words else "ready"


def house_lines(used: tuple[tuple[str, str], ...]) -> list[str]:
    """The house rules a resolution played by, each with what it means."""
    return [f"  House rule {name} = {value}: {HOUSE_RULES[name].explain(value)}"
            for name, value in used]


def shot(s: Shot) -> str:
    lines = [f"{level_title(s.level)}: {s.attacker.title} fires at "
             f"{s.target.title} ({s.facing.value})"]
    if s.target_before.words():
        lines.append(f"  Target:  {status_text(s.target_before)}")
    rules = rule_set(s.level)
    lines.append(_check("To hit:", s.to_hit, "HIT", "MISS", exact=rules.hit_range))
    if s.reload is not None:
        lines.append(_check("Reload:", s.reload, "loaded", "UNLOADED"))
    if s.damage is not None:
        d = s.damage
        if rules.plus_die:
            lines.append(f"  Damage:  card {d.base} + D6+ ({_faces(d.rolls)} → {d.rolled})"
                         f" = {d.total}")
        else:
            lines.append(f"  Damage:  {_damage(d)}")
    if s.armour is not None:
        a = s.armour
        if a.rolls:
            lines.append(f"  Armour:  {a.facing.value} {a.value} + D6+ ({_faces(a.rolls)} → "
                         f"{a.rolled}) = {a.total}")
        else:
            lines.append(f"  Armour:  {a.facing.value} {a.value}")
    if s.hit:
        lines.append(f"  Result:  {s.reason}")
    lines.append(f"  ==> {BIG_WORDS[s.effect]}")
    if s.target_after != s.target_before:
        lines.append(f"  {s.target.name} is now: {status_text(s.target_after)}")
    if s.attacker_after != s.attacker_before:
        lines.append(f"  {s.attacker.name} is now: {status_text(s.attacker_after)}")
    lines += house_lines(s.house_rules)
    lines.append(f"  Dice used: {_faces(s.faces)}")
    return "\n".join(lines)


def in_six(p: Fraction) -> str:
    """'4 in 6' where the chance is a whole number of faces, else a percentage."""
    sixes = p * 6
    return f"{sixes.numerator} in 6" if sixes.denominator == 1 else percent(p)


def odds(o: Odds, level: str, attacker: InfoCard, target: InfoCard, facing: str) -> str:
    lines = [f"{level_title(level)}: odds for {attacker.title} firing at "
             f"{target.title} ({facing})"]
    needs = f"needs {o.needed}" if rule_set(level).hit_range else \
        f"needs {o.needed.low} or more"
    lines.append(f"  Hit            {in_six(o.hit):>8}  ({needs}{_mods(o.modifiers)})")
    if o.reload is not None:
        lines.append(f"  Reload         {in_six(o.reload):>8}")
    for effect in reversed(OUTCOMES):
        lines.append(f"  {BIG_WORDS[effect].capitalize():<14} {percent(o.effects[effect]):>8}")
    lines.append(f"  In short: hit {in_six(o.hit)} · kill {percent(o.kill)}")
    lines += house_lines(o.house_rules)
    return "\n".join(lines)


# ---- fire at soft targets and templates ----


def _short(reason: str) -> str:
    """A table modifier's reason without where its value comes from: 'he template (example:
    ...)' is 'he template' on each attack; the Table lines give the whole reason once."""
    if not reason.endswith(")"):
        return reason
    depth = 0
    for at in range(len(reason) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(reason[at], 0)
        if depth == 0:
            return reason[:at].rstrip() or reason
    return reason


def _firing(plan: SoftPlan) -> str:
    weapon = plan.weapon
    if weapon.template is Template.HE:
        what = "HE (HE template)"
    elif main_gun(weapon):
        what = "its main gun (no HE: one figure or soft vehicle)"
    elif weapon.template is not None:
        shots = f", {weapon.shots} shots at each figure" if weapon.shots > 1 else ""
        what = f"its {weapon.name} ({weapon.template.value} template{shots})"
    else:
        what = f"its {weapon.name}"
    at = f" at {plan.range_cm:g} cm" if plan.range_cm is not None else ""
    return f"{plan.firer.label} ({plan.firer.card.title}) {{}} {what}{at}"


def _covered(c: Covered) -> str:
    piece = c.piece
    figures = f"{c.figures} figure{'s' if c.figures != 1 else ''}"
    if piece.kind is Kind.FIGURE:
        what = figures
    else:
        model = "the gun" if piece.kind is Kind.GUN else f"the vehicle ({c.facing.value})"
        crew = "its commander, out in the turret" if piece.kind is Kind.HARD else \
            f"{c.figures} crew figure{'s' if c.figures != 1 else ''}"
        what = crew if not c.model else f"{model} and {crew}" if c.figures else model
    where = "".join(f", {SITUATIONS[s]}" for s in c.situations)
    ride = piece.riding
    if ride is not None:
        where += f", riding {'on' if ride.seat is Seat.ON_TOP else 'in'} {ride.vehicle}"
    return f"{piece.label} ({piece.card.title}): {what}{where}"


def _targets(plan: SoftPlan) -> list[str]:
    word = "Under:" if plan.weapon.template is not None else "Target:"
    return [f"  {word if i == 0 else '':<9}{_covered(c)}" for i, c in enumerate(plan.targets)]


def _table(mods: list[Modifier]) -> list[str]:
    """Each modifier of the Soft Targets Table once, with where its value comes from."""
    seen: dict[str, Modifier] = {}
    for m in mods:
        seen.setdefault(m.reason, m)
    return [f"  {'Table:' if i == 0 else '':<9}{m.value:+d} {m.reason}"
            for i, m in enumerate(seen.values())]


def _he_checks(s: SoftFire) -> list[str]:
    lines = []
    if s.to_hit is not None:       # a grenade's says where it comes from (not printed)
        source = f" ({s.to_hit_source})" if s.to_hit_source else ""
        lines.append(_check("To hit:", s.to_hit, "HIT", "MISS") + source)
    if s.reload is not None:
        lines.append(_check("Reload:", s.reload, "loaded", "UNLOADED"))
    return lines


def _attack(a: Attack, name: str, width: int, figure: bool, gun: bool) -> list[str]:
    head = f"  {name:<{width}}  "
    if a.roll is None:                 # a hard target under a template: damage dice only
        lines = [head + a.reason.split("; ", 1)[0]]
    else:
        if a.effect is Effect.MISS:
            word = " no kill"
        elif figure:
            word = " ELIMINATED"
        elif gun:
            word = " DESTROYED"
        elif a.raw_changed:            # the house rule soft_damage = raw counted the dice
            dice = f"{a.raw_dice} damage dice" if a.raw_dice else "no damage dice"
            word = f", {a.roll} rolled − {a.defender}: {dice}"
        else:
            word = f", {a.difference} damage dice"
        lines = [f"{head}{a.roll}{_mods(tuple(_shorter(a.modifiers)))} = {a.modified} "
                 f"against {a.defender}: {a.difference:+d}{word}"]
    if a.damage is not None and a.armour is not None:
        pad = " " * (width + 4)
        lines += [f"{pad}Damage:  {_damage(a.damage)}",
                  f"{pad}Armour:  {a.armour.facing.value} {a.armour.value}",
                  f"{pad}Result:  {a.reason.split('; ', 1)[-1]}"]
    return lines


def _shorter(mods: tuple[Modifier, ...]) -> list[Modifier]:
    return [Modifier(_short(m.reason), m.value) for m in mods]


def _piece_now(r: PieceResult) -> str:
    return piece_now(r.before, r.after)


def piece_now(before: Piece, after: Piece) -> str:
    """What a piece is after fire or an overrun: a squad's figures; a gun's or vehicle's marks
    and crew, and whether a gun's crew fight on without it or are all gone."""
    if after.kind is Kind.FIGURE:
        return "no figures left (out of the fight)" if after.gone else \
            f"{after.figures} of {before.figures} figures left"
    parts = [status_text(after.status)] if after.status != before.status else []
    if after.figures != before.figures:
        parts.append(f"{after.figures} of {before.figures} crew figures left")
    if after.crew_only and not before.crew_only:
        parts.append("the crew fight on as figures, without the gun")
    elif after.kind is Kind.GUN and after.gone and not before.gone:
        parts.append("no crew left (out of the fight)")
    return "; ".join(parts)


def soft_fire(s: SoftFire, plan: SoftPlan) -> str:
    """Every roll in the order rolled: HE's to hit and reload, then each attack."""
    # a gun without HE throws its reload with the attacker's die: said after the attack
    after = s.to_hit is None and s.reload is not None
    lines = ["Tank Game: " + _firing(plan).format("fires"), *_targets(plan),
             *(() if after else _he_checks(s))]
    lines += _table([m for a in s.attacks for m in a.modifiers if a.roll is not None])
    shots = plan.weapon.shots > 1
    names = [(r, a, a.target + (f", shot {a.shot}" if shots else ""))
             for r in s.results for a in r.attacks]
    width = max((len(name) for _, _, name in names), default=0)
    for r, a, name in names:
        lines += _attack(a, name, width, figure=a.target != r.label, gun=r.kind is Kind.GUN)
    if after:
        lines += _he_checks(s)
    lines.append(f"  ==> {s.down} of {s.attacked} down" if s.hit else "  ==> MISS")
    for r in s.results:
        if r.after != r.before:
            lines.append(f"  {r.label} is now: {_piece_now(r)}")
    if s.firer_after.status != s.firer.status:
        lines.append(f"  {s.firer.label} is now: {status_text(s.firer_after.status)}")
    lines += house_lines(s.house_rules)
    lines.append(f"  Dice used: {_faces(s.faces)}")
    return "\n".join(lines)


def soft_odds(o: SoftOdds, plan: SoftPlan) -> str:
    lines = ["Tank Game: odds for " + _firing(plan).format("firing"), *_targets(plan)]
    if plan.weapon.template is Template.HE:
        needs = f"needs {plan.firer.card.need('gun_to_hit').low} or more"
        lines.append(f"  Hit            {in_six(o.hit):>8}  ({needs}"
                     f"{_mods(he_to_hit_modifiers(plan))})")
    elif plan.weapon.template is Template.GRENADE:
        thrown = grenade_to_hit(plan)       # the table is not printed: say whose value
        lines.append(f"  Hit            {in_six(o.hit):>8}  (To hit: needs "
                     f"{thrown.needs} or more, Infantry Weapon Table"
                     f"{f': {thrown.source}' if thrown.source else ''})")
    else:
        lines.append(f"  Hit            {'always':>8}  (no to-hit roll: straight to the attacks)")
    if o.reload is not None:
        lines.append(f"  Reload         {in_six(o.reload):>8}")
    mods = [attack_modifiers(plan, c) for c in plan.targets]
    lines += _table([m for each in mods for m in each])
    if plan.weapon.template is Template.HE:
        lines.append("  If the HE hits:")
    elif o.hit != 1:
        lines.append(f"  If the {plan.weapon.name} hits:")
    width = max(len(c.label) for c in plan.targets)
    for c, p, each in zip(plan.targets, o.pieces, mods, strict=True):
        head = f"  {c.label:<{width}}  "
        rolled = p.per_figure is not None or c.piece.kind in (Kind.GUN, Kind.SOFT)
        parts = []
        if p.model is not None and c.piece.kind is Kind.GUN:
            parts.append(f"gun destroyed {percent(p.model[Effect.DESTROYED])}")
        if p.per_figure is not None:
            who = f"each of {p.figures} figures" if p.figures != 1 else "the figure"
            parts.append(f"{who} falls {percent(p.per_figure)}")
        parts.append(f"{float(p.expected_down):.2f} down on average")
        lines.append(head + (f"attacks {sum(m.value for m in each):+d}: " if rolled else "")
                     + " · ".join(parts))
        if p.model is not None and c.piece.kind is not Kind.GUN:
            effects = [f"{BIG_WORDS[e].lower()} {percent(p.model[e])}"
                       for e in reversed(OUTCOMES) if p.model.get(e)]
            lines.append(f"{'':<{len(head)}}vehicle ({c.facing.value}): " + " · ".join(effects))
    total = len(o.down) - 1
    lines.append(f"  Expected down  {float(o.expected_down):>8.2f}  of {total}")
    lines.append(f"  All down       {percent(o.all_down):>8}")
    for k, chance in enumerate(o.down):
        lines.append(f"  {'Down' if k == 0 else '':<14} {percent(chance):>8}  {k} of {total}")
    lines += house_lines(o.house_rules)
    return "\n".join(lines)


def allowance(a: Allowance) -> str:
    parts = [f"{a.base}"] + [f"{'+' if s.value >= 0 else '−'} {abs(s.value)} ({s.reason})"
                             for s in a.steps]
    amount = f"{a.cm} cm left to move" if a.moved else f"move up to {a.cm} cm"
    return "\n".join([f"{a.card.title}: {' '.join(parts)} → {amount}",
                      *house_lines(a.house_rules)])


def reload(r: ReloadAction) -> str:
    return "\n".join([f"Tank Game: {r.card.title} reloads instead of moving or firing",
                      _check("Reload:", r.check, "RELOADED", "still UNLOADED"),
                      *house_lines(r.house_rules)])


def card(c: InfoCard) -> str:
    lines = [f"{c.title}" + (f"  (also printed as {', '.join(c.other_names)})"
                             if c.other_names else "")]
    for name, (label, _unit) in PRINTED.items():
        lines.append(f"  {label:<34} {c.printed(name)}")
    if c.kind is not Kind.HARD:
        lines.append(f"  {'Kind':<34} {c.kind.value.replace('_', ' ')}")
    for w in c.weapons:
        what = [f"{w.template.value} template" if w.template else "no template"]
        what += [f"{w.shots} shots"] if w.shots > 1 else []
        what += [f"damage {w.damage}"] if w.damage is not None else []
        what += [f"HE modifier {w.he_modifier:+d}"] if w.he_modifier is not None else []
        lines.append(f"  {'Weapon':<34} {w.name} ({', '.join(what)})")
    if c.source:
        lines.append(f"  from {c.source}")
    return "\n".join(lines)


def card_row(c: InfoCard) -> str:
    armour = "/".join(c.printed(f"armour_{f}") for f in ("front", "side", "rear", "top"))
    return (f"{c.key:<18} {c.kind.value:<8} {c.name[:22]:<22} {c.printed('gun_to_hit'):<6} "
            f"{c.printed('reload'):<6} {c.printed('damage'):<6} {armour:<12} "
            f"{c.printed('destroy')}")


# ---- Cobra (Normandy 1944): odds, combat, weather, the owner's tables ----
# The cobra modules are imported only where these functions run: the box imports this module.

COBRA_LABEL = 11     # width of the labels of the Cobra lines


def _cobra_line(label: str, text: str) -> str:
    return f"  {label:<{COBRA_LABEL}}{text}"


def _more(text: str) -> str:
    return _cobra_line("", text)


def _cobra_unit(u: cobra_combat.UnitStrength) -> str:
    from cobi_companion.rules.cobra.combat import DROPPED_WHY

    worked = f"printed {u.unit.strength}"
    # in the order they apply (a doubling first), each step's strength: the sum as it is done
    for m, value in u.steps():
        worked += f" × {m.factor} {m.name} ({m.rule}) = {value}"
    if u.rounded:
        worked += f", rounded up to {u.strength} (2.6)"
    for m in u.dropped:
        worked += f"; no {m.name} ×{m.factor}: {DROPPED_WHY}"
    return f"{u.unit.text():<6}{worked}"


def _cobra_side(label: str, side: cobra_combat.SideStrength) -> list[str]:
    lines = [_cobra_line(label if i == 0 else "", _cobra_unit(u))
             for i, u in enumerate(side.units)]
    lines.append(_more(f"total {side.total} ({side.to_dict()['rule']})"))
    return lines


def _cobra_final(o: cobra_combat.Odds) -> str:
    from cobi_companion.rules.cobra.tables import COLUMNS

    if o.carpet:
        return o.column
    if not o.shifts:
        return f"{o.column} (no shifts)"
    base, final = COLUMNS.index(o.base), COLUMNS.index(o.column)
    if base + o.net == final:
        return f"{o.column} (net {o.net:+d} from {o.base})" if o.net else \
            f"{o.column} (net 0: the shifts cancel out)"
    if base == final:
        return (f"{o.column}: stays on the end column; the table ends at {o.column}, so the "
                f"net {o.net:+d} moves it no further (shifts count from the end columns, "
                f"8.3.2c)")
    return (f"{o.column}: the table ends at {o.column}; of the net {o.net:+d} from {o.base} "
            f"only {final - base:+d} could be used (8.3.2c)")


OVERRUN_WHEN = {
    "movement": "in the Initial Movement Phase: 3 MP plus the cost of entering the hex (5.4a); "
                "terrain, supply, naval, Tiger and one HQ shift, Patton two (5.4.1c)",
    "advance": "when advancing after combat into units that block the path of retreat (5.4b): "
               "terrain and supply only (5.4.1d), Tiger as in any combat (8.3.1)",
}
OVERRUN_TERMS = (
    "printed strength, never doubled for divisional integrity (5.4.1a), halved into marsh "
    "(5.4.1b); the defenders as in any combat, doubled for divisional integrity (6.3e)",
    "in supply (5.4e); no supply points are spent (11.0a); no air points (14.2c)",
)


def cobra_odds(o: cobra_combat.Odds) -> str:
    if o.carpet:
        return "\n".join(["Cobra: carpet bombing (14.3)",
                          _cobra_line("Mission", f"{o.air_points} Allied air points against "
                                                 f"one hex; no attacking units, no supply "
                                                 f"point (14.1, 14.3e)"),
                          _cobra_line("Column", f"{o.column}: {o.column_note}")])
    assert o.attack is not None and o.defence is not None
    lines = [f"Cobra: odds of {o.attack.total} against {o.defence.total}"]
    if o.overrun is not None:
        lines = [f"Cobra: overrun of {o.attack.total} against {o.defence.total} (5.4)",
                 _cobra_line("Overrun", OVERRUN_WHEN[o.overrun.value])]
        lines += [_more(line) for line in OVERRUN_TERMS]
    if o.attacker is not None:
        lines.append(_cobra_line("Attacking", f"the {o.attacker.value} side"))
    lines += _cobra_side("Attack", o.attack)
    lines += _cobra_side("Defence", o.defence)
    lines.append(_cobra_line("Odds", o.base_note))
    lines.append(_cobra_line("Base", f"column {o.base}"))
    for i, s in enumerate(o.shifts):
        side = "attacker" if s.columns > 0 else "defender"
        lines.append(_cobra_line("Shifts" if i == 0 else "",
                                 f"{s.label} {s.columns:+d} for the {side} ({s.rule})"))
    if o.shifts:
        ours = sum(s.columns for s in o.shifts if s.columns > 0)
        theirs = -sum(s.columns for s in o.shifts if s.columns < 0)
        net = f"{o.net:+d}" if o.net else "0"
        lines.append(_cobra_line("Net shift", f"{net}: the attacker's {ours} minus the "
                                              f"defender's {theirs} (8.3.2c)"))
    lines += _cobra_naval(o)
    lines.append(_cobra_line("Column", _cobra_final(o)))
    return "\n".join(lines)


def _cobra_naval(o: cobra_combat.Odds) -> list[str]:
    """What the naval shift costs at the target's range from the sea (14.4c, 14.4d)."""
    from cobi_companion.rules.cobra.naval import NavalRange

    if not o.naval_points:
        return []
    if o.naval_range is NavalRange.FAR:
        return [_cobra_line("Naval", f"{o.naval_points} NSP: the target 4 to 6 hexes from the "
                                     f"sea, two a column (14.4d)")]
    return [_cobra_line("Naval", f"{o.naval_points} NSP: the target within three hexes of the "
                                 f"sea, one a column (14.4c)"),
            _more("at 4 to 6 hexes two a column, +1 at most: --naval-range far (14.4b, 14.4d)")]


def cobra_combat_text(c: cobra_combat.Combat) -> str:
    lines = [cobra_odds(c.odds), _cobra_line("Die", str(c.die))]
    if c.result is None:
        lines.append(_cobra_line("Result", c.explanation[0]))
        lines.append(_more(f"({c.source} has no value there yet)"))
        lines += [_more(line) for line in c.explanation[1:]]     # an overrun's note
        return "\n".join(lines)
    lines.append(_cobra_line("Result", f"{c.result.text} (column {c.odds.column}, die {c.die}, "
                                       f"from {c.source})"))
    lines += [_more(line) for line in c.explanation]
    return "\n".join(lines)


def _cobra_effects(w: cobra_weather.WeatherRoll) -> list[str]:
    from cobi_companion.rules.cobra.tables import Weather
    from cobi_companion.rules.cobra.weather import CARPET_FROM, effects

    assert w.weather is not None
    e = effects(w.weather, w.turn)
    lines = [f"German MA: {e['german_ma']} ({e['german_ma_rule']})",
             f"Allied air points: {e['allied_air_points']} ({e['air_rule']})",
             f"German supply points: {e['german_supply_points']} ({e['supply_rule']})"]
    if e["naval_points_max"] is not None:
        lines.append(f"Allied naval points: at most {e['naval_points_max']} (14.4)")
    else:
        lines.append(f"Allied naval points: {e['naval_points']} (14.4)")
    # before game turn 5 the turn forbids it whatever the weather (14.3f)
    why = "14.3f" if w.turn < CARPET_FROM and w.weather == Weather.CLEAR else "14.3b"
    lines.append(f"carpet bombing: {'possible' if e['carpet_bombing'] else 'not possible'} "
                 f"({why})")
    return [_cobra_line("Effects" if i == 0 else "", line) for i, line in enumerate(lines)]


def cobra_weather_text(w: cobra_weather.WeatherRoll, source: str) -> str:
    from cobi_companion.rules.cobra.tables import DIE_FACES

    lines = [f"Cobra: weather of game turn {w.turn}"]
    if w.forced_note:
        lines.append(_cobra_line("Forced", f"{w.forced_note}; no die is rolled"))
    else:
        assert w.modified is not None and w.row is not None
        lines.append(_cobra_line("Column", f"{w.column}: {w.column_note}"))
        lines.append(_cobra_line("Modifier", w.modifier_note))
        lines.append(_cobra_line("Die", str(w.die)))
        lines.append(_cobra_line("Modified", f"{w.die} {w.modifier:+d} = {w.modified}"
                                 if w.modifier else str(w.modified)))
        row = f"{w.row}"
        if w.modified < w.row:
            row += f" (the modified {w.modified} is below column {w.column}'s lowest row: " \
                   f"read as its lowest row)"
        elif w.modified > w.row:
            row += f" (the modified {w.modified} is above column {w.column}'s highest row: " \
                   f"read as its highest row)"
        lines.append(_cobra_line("Row", row))
        if w.weather is None:
            lines.append(_cobra_line("Weather", f"read column {w.column} row {w.row} on your "
                                                f"printed Weather Table"))
            beyond = "" if 1 <= w.row <= DIE_FACES else \
                "; a roll beyond a column's rows reads as its lowest or highest row"
            lines.append(_more(f"({source} has no value there yet{beyond})"))
            return "\n".join(lines)
    assert w.weather is not None
    lines.append(_cobra_line("Weather", w.weather.value.upper()))
    lines += _cobra_effects(w)
    return "\n".join(lines)


def cobra_victory_text(v: dict[str, Any]) -> str:
    """`cobra victory`: the question and its answer, the net VP and the level."""
    question = v["question"]
    return "\n".join([
        f"Cobra: level of victory, {v['scenario']} scenario",
        _cobra_line("Question", f"{question['text']} ({question['rule']})"),
        _cobra_line("Answer", f"{'yes' if v['answer'] else 'no'}: {v['initial_level']}"),
        _cobra_line("Net VP", f"Allied {v['allied_vp']} − German {v['german_vp']} = "
                              f"{v['net_vp']:+d} (16.3)"),
        _cobra_line("Level", f"{v['level']}: {v['note']}")])


def cobra_automatic_text(v: dict[str, Any]) -> str:
    """`cobra victory --beaches-lost`: the game ended by the automatic victory."""
    return "\n".join([
        f"Cobra: level of victory, {v['scenario']} scenario",
        _cobra_line("Beaches", "none friendly to the Allies at the beginning of an Allied "
                               f"player turn ({v['rule']})"),
        _cobra_line("Level", f"{v['level']}: {v['note']}")])


POINTS = {"air": ("Air", "AP", "spent"), "naval": ("Naval", "NSP", "spent"),
          "carpet": ("Carpet", "mission|missions", "flown")}


def cobra_points_text(v: dict[str, Any]) -> str:
    """`cobra points`: each budget of the game turn, what is left of it, and its rule."""
    whose = "German" if v["phase"] == "german" else "Allied"
    weather = f", {v['weather']}" if v["weather"] else ", weather not known"
    lines = [f"Cobra: game turn {v['turn']}{weather}, the {whose} Combat Phase"]
    for b in v["budgets"]:
        name, unit, done = POINTS[b["kind"]]
        most = f"{b['most']} of the turn's {b['given']}" if b["most"] < b["given"] else \
            str(b["most"])
        one, _, many = unit.partition("|")
        lines.append(_cobra_line(name, f"{b['left']} {one if b['left'] == 1 or not many else many} "
                                       f"left of {most}, {b['used']} {done} ({b['rule']})"))
    if v.get("carpet_front"):       # a carpet bombing flown this turn: the other 3 AP (14.3e)
        lines.append(_more(v["carpet_front"]))
    return "\n".join(lines)


def cobra_tables_summary(path: str, t: cobra_tables.CobraTables) -> str:
    from cobi_companion.rules.cobra.tables import COLUMNS, DIE_FACES, WEATHER_COLUMNS

    weather = []
    for name in WEATHER_COLUMNS:
        rows = t.weather_rows(name)
        filled = sum(1 for _, _, w in rows if w is not None)
        weather.append(f"{name} {filled}/{len(rows)}")
    terrain = ", ".join(f"{k} {v}" for k, v in t.terrain.items()) or "none"
    scatter = sum(1 for face in range(1, DIE_FACES + 1) if t.scatter_direction(face))
    return (f"{path}: ok — CRT {t.filled()} of {len(COLUMNS) * DIE_FACES} cells filled; "
            f"weather {', '.join(weather)} rows; terrain: {terrain}; scatter diagram "
            f"{scatter}/{DIE_FACES}")


# ---- overrun ----


def _overrun_piece(u: Under, figures: int) -> str:
    """The piece under the tank: its figures (a gun: with its crew), marks and cover."""
    piece = u.piece
    if piece.kind is Kind.FIGURE:
        what = f"{figures} figure{'s' if figures != 1 else ''}"
    else:
        what = f"the gun and {figures} crew figure{'s' if figures != 1 else ''}" \
            if figures else "the gun"
    marks = "".join(f", {m}" for m, on in (("hidden", piece.status.hidden),
                                          ("dug in", u.dug_in)) if on)
    where = {"open": "in the open", "soft": "in soft cover", "hard": "in hard cover"}
    return f"{piece.label} ({piece.card.title}): {what}{marks}, {where[u.cover.value]}"


def overrun_text(result: Overrun, tank: Piece, under: tuple[Under, ...]) -> str:
    """Each piece's rolls and outcome, the summary, the rough-ground move and the dice."""
    count = len(result.pieces)
    lines = [f"Tank Game: {tank.label} ({tank.card.title}) runs over {count} "
             f"piece{'s' if count != 1 else ''}"]
    for item, run in zip(under, result.pieces, strict=True):
        lines.append(f"  {_overrun_piece(item, run.figures)}")
        figure = "crew figure" if run.kind is Kind.GUN else "figure"
        lines += [f"    {figure} {r.figure}: {r.roll} "
                  f"{'eliminated' if r.eliminated else 'survives'}" for r in run.rolls]
        lines.append(f"    {run.outcome}")
    lines.append(f"  ==> {result.summary}")
    lines.append(f"  Rough:   {result.rough}")
    for run in result.pieces:
        if run.after != run.before:
            lines.append(f"  {run.label} is now: {piece_now(run.before, run.after)}")
    faces = " ".join(map(str, result.faces)) or "none"
    lines.append(f"  Dice used: {faces}")
    return "\n".join(lines)
