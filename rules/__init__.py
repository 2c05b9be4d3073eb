"""The COBI rules engine: pure functions over info cards, a battle state and a dice source.

No I/O, no hardware, no clock: dice come only through a `Dice` source, and every resolution
returns a trace of what was rolled, read and decided.
"""
