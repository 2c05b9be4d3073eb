"""Results of pure work over immutable things, kept while the very same things are asked about.

A screen is drawn again at every turn of the knob, and some of what it shows is the rules' work
over the battle (a card's readiness, the shot a side may fire again): the same work over the
same objects as the frame before. The battle's pieces, cards, turns and shots are frozen, and a
change makes new objects, so "the same object" (`is`) means "the same answer". Identity is
also cheap to check, where hashing a card compares dozens of fields.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class ByIdentity(Generic[K, V]):
    """`compute(key)` for each key object, kept by its identity. The key is held (so its id
    stays its own); past `size` keys, all are forgotten and computed again when asked."""

    def __init__(self, compute: Callable[[K], V], size: int = 256) -> None:
        self.compute, self.size = compute, size
        self._kept: dict[int, tuple[K, V]] = {}

    def __call__(self, key: K) -> V:
        kept = self._kept.get(id(key))
        if kept is not None and kept[0] is key:
            return kept[1]
        value = self.compute(key)
        if len(self._kept) >= self.size:
            self._kept.clear()
        self._kept[id(key)] = (key, value)
        return value


class Latest(Generic[V]):
    """The value computed for the last inputs, while the inputs are the same objects."""

    def __init__(self) -> None:
        self._inputs: tuple[object, ...] | None = None
        self._value: V | None = None

    def get(self, inputs: tuple[object, ...], compute: Callable[[], V]) -> V:
        last = self._inputs
        if last is not None and len(last) == len(inputs) and \
                all(a is b for a, b in zip(last, inputs, strict=True)):
            return self._value  # type: ignore[return-value]    # computed for these inputs
        self._inputs = None                  # a compute that raises leaves nothing kept
        value = compute()
        self._inputs, self._value = inputs, value
        return value
