"""The Tank Game's rules (seed 000): fire at hard and soft targets, the Soft Targets Table,
turns, hiding, overrun and the winner. What every COBI level shares stays in `rules/`."""
