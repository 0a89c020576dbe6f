"""Room codes and tokens.

A room code is four letters a person can read aloud and type on a phone: letters that look like
digits or like each other (B, I, L, O, S) are left out. Tokens are long random secrets; knowing a
room code never gives a seat.
"""

from __future__ import annotations

import secrets as _secrets

CODE_LETTERS = "ACDEFGHJKMNPQRTUVWXYZ"
CODE_LENGTH = 4


def new_code() -> str:
    """A random room code (uniqueness is the caller's business)."""
    return "".join(_secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    """A code as typed (any case, stray spaces) in its canonical form."""
    return code.strip().upper()


def new_token() -> str:
    """A seat or host token: 32 random bytes, URL-safe."""
    return _secrets.token_urlsafe(32)


def new_seed() -> int:
    """The seed of a new game's chance."""
    return _secrets.randbits(63)
