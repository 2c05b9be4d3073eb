"""Cobra on the box: `hub` (the phase indicator, the tracks, the menu and the table of the
parts), `session` (the game in play and what every part needs of it), and the parts, each in a
module of its own: `weather`, `supply` (the Allied Supply Phase), `attacks` (attacks,
overruns, carpet bombing) with `dialled` (what an attack has dialled), `command` (HQs and
command limits), `movement`, `replacements`, `landing` and `victory` (victory points and the
special rolls)."""
