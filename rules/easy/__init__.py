"""The COBI Easy level's rules (seed 002, Polish original 003). What every COBI level shares
stays in `rules/`."""
