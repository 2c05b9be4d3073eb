"""The Tank Game on the box: a side's turn, fire, the soft-target run, overrun."""
