"""Errors the rules raise when a request cannot be resolved."""


class RulesError(Exception):
    """The rules refuse: the message says why, in one line a player can read."""
