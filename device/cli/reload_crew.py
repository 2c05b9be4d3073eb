"""The firer's -1 to reload on the command line: from the figures left (`--attacker-figures N`,
`reload --figures N`), worked out as the box works it out (`Piece.crew_below_half`: an open-top
needs two, rule 11, or half its crew by the house rule open_top_reload = half), or the players'
own call (`--crew-below-half`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from cobi_companion.device.cli.errors import UsageError

if TYPE_CHECKING:
    from cobi_companion.rules.card import InfoCard
    from cobi_companion.rules.house import HouseRules


def reload_crew(card: InfoCard, figures: int | None, called: bool, house: HouseRules,
                figures_option: str) -> tuple[bool, bool]:
    """(the -1 to reload, whether the house rule open_top_reload = half gave it). `called`:
    --crew-below-half, which does not go with the figures (the two could disagree)."""
    if figures is None:
        return called, False    # the odds of a shot import no battle (test_cli's imports)
    from cobi_companion.rules.battle import Piece
    from cobi_companion.rules.errors import RulesError
    from cobi_companion.rules.status import Side
    from cobi_companion.rules.tank.refusals import TankRefusal

    if called:
        raise UsageError(f"--crew-below-half and {figures_option} N say the same thing: give "
                         f"one ({figures_option}: the -1 is worked out from the figures left)")
    if figures == 0:
        # rule 11: "Open top weapons need at least one figure to fire and reload"
        raise RulesError(TankRefusal.NO_FIGURE_TO_FIRE, label=card.title)
    firer = Piece(card.title, Side.AXIS, card, figures=figures)
    return firer.crew_below_half(house), firer.open_top_reload_ruled(house)
