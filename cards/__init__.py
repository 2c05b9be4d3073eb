"""The COBI info cards: one TOML file per model, and the loader for them and the user's own."""
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

__all__ = ["CardBook", "CardFileError", "CardProblem", "check", "cobra_tables",
           "default_folders", "is_table", "learned_file", "load_cards", "load_cobra_tables",
           "load_file", "load_folder", "load_table", "read_learned", "shipped_folder",
           "user_folder", "write_learned"]
