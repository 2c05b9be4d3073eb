"""A dataclass as saved data and back, from its fields' type hints: one mechanism for every
saved field, instead of a `to_dict` and a `from_dict` to edit for each.

`to_data(obj)` makes a dict of the fields, in their order, each by its type: an enum by its
value, a tuple or a list as a list, a dict with its keys and values so made, None as None, a
nested dataclass as its own dict, anything else (str, int, float, bool, Any) as it is.
`from_data(cls, data)` makes the object again: each value back to its type (a number or text
of an old save is taken as the type says, as the hand-written readers did: `int("3")`), a
key missing from an old save takes the field's default. A field's metadata may say more
(`field(metadata=saved(...))`): the key it is saved under, the keys older saves used, or,
where the types cannot say its saved form, its own `to` and `back` functions. A class
inheriting `Data` gets its `to_dict` and `from_dict` so made.

A saved class still written by hand says why beside its `to_dict`: it writes a value it
derives (a text, a total) or checks what it reads. The results the command line prints (an
attack, a weather roll, a shot) stay written by hand too, without a comment each: their rule,
their explanation and their derived figures are written, not their fields.

The types are read once per class. The dataclass's module must import, at run time, every
type its fields name (not only under TYPE_CHECKING).
"""
from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Self, TypeVar

T = TypeVar("T")
_SAVED = "saved"


@dataclasses.dataclass(frozen=True)
class Saved:
    """How one field is saved: under `key` (its name by default), read also from the `old`
    keys of older saves, made data by `to` and read back by `back` when its type cannot say."""

    key: str | None = None
    old: tuple[str, ...] = ()
    to: Callable[[Any], Any] | None = None
    back: Callable[[Any], Any] | None = None


def saved(*, key: str | None = None, old: tuple[str, ...] = (),
          to: Callable[[Any], Any] | None = None,
          back: Callable[[Any], Any] | None = None) -> dict[str, Saved]:
    """A field's metadata saying how it is saved (see `Saved`):
    `name: str = field(metadata=saved(key="piece"))`."""
    return {_SAVED: Saved(key, old, to, back)}


@dataclasses.dataclass(frozen=True)
class _Field:
    name: str
    key: str
    old: tuple[str, ...]
    kind: Any                      # the type hint
    to: Callable[[Any], Any]
    back: Callable[[Any], Any]
    default: Callable[[], Any] | None       # None: the field has no default


_KNOWN: dict[type, tuple[_Field, ...]] = {}      # each class's fields, read once


def _fields(cls: type) -> tuple[_Field, ...]:
    known = _KNOWN.get(cls)
    if known is None:
        known = _KNOWN[cls] = _read(cls)
    return known


_PLANS: dict[type, tuple[tuple[str, str, Convert, Convert], ...]] = {}


def _plan(cls: type) -> tuple[tuple[str, str, Convert, Convert], ...]:
    """Each field's name, key and converters, for the quick way through a class."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = tuple((f.name, f.key, f.to, f.back) for f in _fields(cls))
    return plan


def _read(cls: type) -> tuple[_Field, ...]:
    hints = typing.get_type_hints(cls)
    found = []
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        how: Saved = f.metadata.get(_SAVED, Saved())
        kind = hints[f.name]
        default: Callable[[], Any] | None = None
        if f.default is not dataclasses.MISSING:
            default = functools.partial(_same, f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory
        found.append(_Field(f.name, how.key or f.name, how.old, kind,
                            how.to or _to(kind), how.back or _back(kind), default))
    return tuple(found)


class Data:
    """A dataclass saved by its fields' types: its `to_dict` is `to_data`, its `from_dict`
    `from_data` (None or an empty dict: every field its default)."""

    def to_dict(self) -> dict[str, Any]:
        return to_data(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Self:
        return from_data(cls, data or {})


def to_data(obj: Any) -> dict[str, Any]:
    """The dataclass `obj` as data (JSON's types), field by field."""
    return {key: getattr(obj, name) if to is _same else to(getattr(obj, name))
            for name, key, to, _ in _plan(type(obj))}


def from_data(cls: type[T], data: Mapping[str, Any]) -> T:
    """The dataclass `cls` made from `data` (as `to_data` made it, or an older save)."""
    try:       # a save of this version has every key
        return cls(**{name: data[key] if back is _same else back(data[key])
                      for name, key, _, back in _plan(cls)})
    except KeyError:
        pass
    values = {}
    for f in _fields(cls):
        key = next((k for k in (f.key, *f.old) if k in data), None)
        if key is not None:
            values[f.name] = f.back(data[key])
        elif f.default is not None:
            values[f.name] = f.default()
        else:
            raise KeyError(f.key)
    return cls(**values)


Convert = Callable[[Any], Any]


def _same(value: Any) -> Any:
    return value


def _args(kind: Any) -> tuple[Any, ...]:
    return typing.get_args(kind)


def _fixed(origin: Any, args: tuple[Any, ...]) -> bool:
    """A tuple of so many items, each of its own type (tuple[int, str]; not tuple[int, ...])."""
    return origin is tuple and bool(args) and not (len(args) == 2 and args[1] is Ellipsis)


def _mapping(origin: Any) -> bool:
    return isinstance(origin, type) and issubclass(origin, Mapping)


def _optional(kind: Any) -> Any | None:
    """X of `X | None`; None for another type."""
    origin = typing.get_origin(kind)
    if origin not in (typing.Union, types.UnionType):
        return None
    rest = [a for a in _args(kind) if a is not type(None)]
    return rest[0] if len(rest) == 1 and len(_args(kind)) == 2 else None


# The converters of each type, made once (the types are read once, not at every save).
_TO: dict[Any, Convert] = {}
_BACK: dict[Any, Convert] = {}


def _to(kind: Any) -> Convert:
    """The function that makes a value of type `kind` data."""
    made = _TO.get(kind)
    if made is None:
        made = _TO[kind] = _make_to(kind)
    return made


def _back(kind: Any) -> Convert:
    """The function that makes data a value of type `kind` again."""
    made = _BACK.get(kind)
    if made is None:
        made = _BACK[kind] = _make_back(kind)
    return made


def _make_to(kind: Any) -> Convert:
    origin, args = typing.get_origin(kind), _args(kind)
    if (inner := _optional(kind)) is not None:
        some = _to(inner)
        return lambda value: None if value is None else some(value)
    if _fixed(origin, args):
        each = [_to(a) for a in args]
        return lambda value: [to(v) for to, v in zip(each, value, strict=True)]
    if origin in (tuple, list):
        item = _to(args[0]) if args else _same
        return lambda value: [item(v) for v in value]
    if _mapping(origin):
        key, item = (_to(a) for a in (args or (Any, Any)))
        return lambda value: {key(k): item(v) for k, v in value.items()}
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return lambda value: value.value
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        if hasattr(kind, "to_dict"):                # a class saved by hand keeps its way
            return lambda value: value.to_dict()
        return to_data
    return _same


def _make_back(kind: Any) -> Convert:
    origin, args = typing.get_origin(kind), _args(kind)
    if (inner := _optional(kind)) is not None:
        some = _back(inner)
        return lambda value: None if value is None else some(value)
    if _fixed(origin, args):
        each = [_back(a) for a in args]
        return lambda value: tuple(back(v) for back, v in zip(each, value, strict=True))
    if origin in (tuple, list):
        item = _back(args[0]) if args else _same
        many: Callable[[Any], Any] = tuple if origin is tuple else list
        return lambda value: many(item(v) for v in value)
    if _mapping(origin):
        key, item = (_back(a) for a in (args or (Any, Any)))
        return lambda value: {key(k): item(v) for k, v in value.items()}
    if isinstance(kind, type):
        if issubclass(kind, enum.Enum) or kind in (int, float, str, bool):
            return kind
        if dataclasses.is_dataclass(kind):
            read = getattr(kind, "from_dict", None)       # a class saved by hand keeps its way
            return read if read is not None else functools.partial(from_data, kind)
    return _same
