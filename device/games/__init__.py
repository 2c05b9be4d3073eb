"""The games: home and menus, what battles share, Easy, the Tank Game, Cobra.

The home module is the only one that knows every game."""
