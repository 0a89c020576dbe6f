"""Game states as frozen dataclasses, and the mutable drafts the rules fill: derived at import.

A state (and any part of it that changes often, such as a Records board) is a frozen, slotted
dataclass: equality, ``repr`` and its JSON form come from its fields. :func:`with_draft`, applied
once to such a class, derives from the same fields the ways of making a new value:

- ``value.thaw()``: a *draft*, an instance of a mutable twin class with the same slots; the rules
  change it and ``draft.freeze()`` turns the draft itself into the new value (the twin has the
  same slot layout, so freezing only changes the object's class: nothing is copied twice). The
  draft must not be used after that. This is the rules' hot path;
- ``value._replace(field=..., ...)``: a copy with some fields changed (as ``dataclasses.replace``;
  an unknown field is an ``AttributeError``), through a draft;
- ``cls._make(values)``: a value from its fields' values in order, without ``__init__``'s cost
  (a frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``).

So a new field is one line in the class; nothing else lists the fields. :func:`replaced` is the
tuple counterpart of a field change: the tuple with one item changed.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def _compile(source: str, name: str, namespace: dict[str, Any]) -> Any:
    # The source is written here from the class's own field names, never from outside input.
    exec(compile(source, f"<derived {name}>", "exec"), namespace)
    return namespace[name]


def with_draft(cls: type[T]) -> type[T]:
    """Gives a frozen slotted dataclass ``_replace``, ``thaw`` and a draft class with ``freeze``.

    The draft class is ``cls.Draft``; its instances have exactly ``cls``'s slots."""
    fields = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    name = f"{cls.__name__}Draft"
    draft: type[Any] = type(
        name,
        (),
        {
            "__slots__": cls.__slots__,  # type: ignore[attr-defined]  # the same layout
            "__doc__": f"A {cls.__name__} being changed: its fields, mutable, until ``freeze()``.",
            "__module__": cls.__module__,
            "__qualname__": f"{cls.__qualname__}.Draft",
        },
    )
    namespace = {"_new": object.__new__, "_draft": draft, "_cls": cls}
    copy = "".join(f"    d.{f} = s.{f}\n" for f in fields)
    thaw = _compile(f"def thaw(s):\n    d = _new(_draft)\n{copy}    return d\n", "thaw", namespace)
    freeze = _compile(
        "def freeze(d):\n    d.__class__ = _cls\n    return d\n", "freeze", dict(namespace)
    )
    replace = _compile(
        "def _replace(s, /, **changes):\n    d = thaw(s)\n"
        "    for name, value in changes.items():\n        _set(d, name, value)\n"
        "    d.__class__ = _cls\n    return d\n",
        "_replace",
        {**namespace, "thaw": thaw, "_set": setattr},
    )
    targets = ", ".join(f"d.{f}" for f in fields)
    make = _compile(
        f"def _make(values):\n    d = _new(_draft)\n    {targets}, = values\n"
        "    d.__class__ = _cls\n    return d\n",
        "_make",
        dict(namespace),
    )
    make.__doc__ = "A value from its fields' values, in the order of the fields (no checks)."
    thaw.__doc__ = "A mutable copy (a draft) to change, then ``freeze()`` into a new value."
    freeze.__doc__ = "The draft turned into a frozen value (the draft itself; do not use it after)."
    replace.__doc__ = "A copy with the given fields changed (as ``dataclasses.replace``)."
    draft.freeze = freeze
    cls.Draft = draft  # type: ignore[attr-defined]
    cls.thaw = thaw  # type: ignore[attr-defined]
    cls._replace = replace  # type: ignore[attr-defined]
    cls._make = staticmethod(make)  # type: ignore[attr-defined]
    return cls


def replaced(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """``items`` with item ``i`` now ``value`` (through a list: about twice as fast, on the rules'
    short tuples, as unpacking the slices around it into a new tuple)."""
    changed = list(items)
    changed[i] = value
    return tuple(changed)
