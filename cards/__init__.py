"""The COBI info cards: one TOML file per model, and the loader for them and the user's own.

The names below are imported when first used, not with the package: the box reads its panel
settings with `cobi_companion.cards.tomlfile` (the standard library only) before its title is
drawn, and importing the loader there would bring pydantic and the rules in first.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .learned import learned_file, read_learned, write_learned
    from .loader import (
        CardBook,
        CardFileError,
        CardProblem,
        check,
        cobra_tables,
        default_folders,
        is_table,
        load_cards,
        load_cobra_tables,
        load_file,
        load_folder,
        load_table,
        shipped_folder,
        user_folder,
    )

_LEARNED = ("learned_file", "read_learned", "write_learned")
__all__ = ["CardBook", "CardFileError", "CardProblem", "check", "cobra_tables",
           "default_folders", "is_table", "learned_file", "load_cards", "load_cobra_tables",
           "load_file", "load_folder", "load_table", "read_learned", "shipped_folder",
           "user_folder", "write_learned"]

if not TYPE_CHECKING:     # for the type checker the imports above are the names
    def __getattr__(name: str) -> Any:
        if name not in __all__:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        module = importlib.import_module(".learned" if name in _LEARNED else ".loader",
                                         __name__)
        value = getattr(module, name)
        globals()[name] = value           # found once: the next use is a plain attribute
        return value
