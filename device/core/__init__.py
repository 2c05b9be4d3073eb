"""The core: the app state machine, the one main loop, view models, the screen base.

It imports the ports only."""
