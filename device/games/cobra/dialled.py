"""What the players have dialled for one attack or overrun so far: its units, shifts, the HQs
giving them and the army it counts against. The attack's screens (games/cobra/attacks.py) and
the HQs' and command limits' (games/cobra/command.py) both read it."""
from __future__ import annotations

from dataclasses import dataclass, field

from cobi_companion.rules.cobra.combat import Nation, OverrunWhen, Role, Unit
from cobi_companion.rules.cobra.command import Army
from cobi_companion.rules.cobra.naval import NavalRange


@dataclass
class Dialled:
    """An attack or overrun being dialled."""

    turn: int               # the game turn: an Allied HQ gives two shifts from 17
    attacker: Nation
    sides: dict[Role, list[Unit]] = field(default_factory=lambda: {Role.ATTACK: [],
                                                                    Role.DEFENCE: []})
    shifts: dict[str, int] = field(default_factory=dict)     # "att_hq" → columns, ...
    overrun: OverrunWhen | None = None       # an overrun (5.4), and when; None: an attack
    hqs: dict[str, str] = field(default_factory=dict)        # "att_hq" → the HQ giving it
    army: Army | None = None     # US or British: counted against its command limit (11.3)
    beach: bool = False      # a German attack may be on an Allied unit on a beach (17.3.10)
    naval_range: NavalRange = NavalRange.NEAR    # the target's range from the sea (14.4c, d)
    markers: tuple[int, ...] = ()    # the beach shift markers an Allied attack may be from (5f)

    @property
    def defender(self) -> Nation:
        return Nation.ALLIED if self.attacker == Nation.GERMAN else Nation.GERMAN
