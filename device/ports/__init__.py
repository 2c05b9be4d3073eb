"""The hardware ports: each a small protocol with its real adapter and its test double.

They import nothing from the layers above."""
