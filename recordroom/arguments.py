"""Value types of the command line's flags: a value out of range is argparse's own ``error:`` line
(exit 2), said before anything runs."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole_number(text: str) -> int:
    """A flag's value as a whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def at_least(low: int, unit: str = "", *, most: int | None = None) -> Callable[[str], int]:
    """The type of a flag whose whole number is ``low`` or more, and ``most`` or less when given
    (``unit``: what it counts, in the singular)."""

    def counted(bound: int) -> str:
        return f" {unit}{'' if bound == 1 else 's'}" if unit else ""

    def read(text: str) -> int:
        value = whole_number(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}{counted(low)}, not {value}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"must be at most {most}{counted(most)}, not {value}")
        return value

    return read
