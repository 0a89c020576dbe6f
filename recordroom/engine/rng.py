"""Seeded randomness kept inside a game state.

A state holds its randomness as one integer. Every draw goes through :func:`shuffled` or
:func:`choice`, which return the outcome together with the integer to store for the next draw, so
that ``(options, seed, action log)`` always replays to the same state and no rules code touches the
global ``random`` module. ``random.Random`` seeded with an integer is stable across CPython
versions for these calls, which keeps saved games and golden files valid.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 63) - 1


def seed_state(seed: int) -> int:
    """The RNG state a new game starts from, for a user-given seed."""
    return random.Random(seed).getrandbits(63)


def shuffled(items: Sequence[T], rng: int) -> tuple[tuple[T, ...], int]:
    """The items in a shuffled order, and the next RNG state."""
    source = random.Random(rng)
    out = list(items)
    source.shuffle(out)
    return tuple(out), source.getrandbits(63) & _MASK


def choice(items: Sequence[T], rng: int) -> tuple[T, int]:
    """One of the items, drawn fairly, and the next RNG state."""
    if not items:
        raise ValueError("cannot draw from an empty sequence")
    source = random.Random(rng)
    picked = items[source.randrange(len(items))]
    return picked, source.getrandbits(63) & _MASK
