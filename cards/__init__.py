"""The COBI info cards: one TOML file per model, and the loader for them and the user's own.

The names below are imported when first used, not with the package: the box reads its panel
settings with `cobi_companion.cards.tomlfile` (the standard library only) before its title is
drawn, and the cards in play come from a snapshot (`in_play.card_book`) without the loader, which
brings pydantic in, while no card file has changed.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .book import (
        CardBook,
        CardFileError,
        CardProblem,
        default_folders,
        is_table,
        shipped_folder,
        user_folder,
    )
    from .in_play import card_book, cobra_in_play
    from .learned import learned_file, read_learned, write_learned
    from .loader import (
        check,
        cobra_tables,
        load_cards,
        load_cobra_tables,
        load_file,
        load_folder,
        load_table,
    )

# Each name's module: the book's and in_play's names import no pydantic, the loader's do.
_MODULES = {
    **dict.fromkeys(("CardBook", "CardFileError", "CardProblem", "default_folders", "is_table",
                     "shipped_folder", "user_folder"), ".book"),
    **dict.fromkeys(("card_book", "cobra_in_play"), ".in_play"),
    **dict.fromkeys(("learned_file", "read_learned", "write_learned"), ".learned"),
    **dict.fromkeys(("check", "cobra_tables", "load_cards", "load_cobra_tables", "load_file",
                     "load_folder", "load_table"), ".loader"),
}
__all__ = ["CardBook", "CardFileError", "CardProblem", "card_book", "check", "cobra_in_play",
           "cobra_tables", "default_folders", "is_table", "learned_file", "load_cards",
           "load_cobra_tables", "load_file", "load_folder", "load_table", "read_learned",
           "shipped_folder", "user_folder", "write_learned"]

if not TYPE_CHECKING:     # for the type checker the imports above are the names
    def __getattr__(name: str) -> Any:
        if name not in _MODULES:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(_MODULES[name], __name__), name)
        globals()[name] = value           # found once: the next use is a plain attribute
        return value
