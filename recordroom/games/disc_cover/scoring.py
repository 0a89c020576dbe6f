"""Disc Cover's end-of-game score table: the tier a cooperative team reaches.

The rulebook gives, for each player count, the points that reach each of six tiers. The last
column names a single number (3 players: 24); since nine turns can score more than that, it is
read as "this many or more" (docs/rules-decisions.md).
"""

from __future__ import annotations

TIERS: tuple[str, ...] = (
    "Cacophony",
    "Wrong Notes",
    "Right Notes",
    "On the beat",
    "In sync",
    "Perfect harmony",
)

# For each player count, the lowest score of Wrong Notes, Right Notes, On the beat, In sync and
# Perfect harmony; anything below the first is Cacophony.
TIER_FLOORS: dict[int, tuple[int, int, int, int, int]] = {
    3: (10, 13, 18, 22, 24),
    4: (13, 17, 23, 29, 32),
    5: (16, 21, 29, 36, 40),
    6: (19, 25, 35, 43, 48),
    7: (22, 29, 40, 50, 56),
    8: (26, 33, 46, 58, 64),
}


def tier(players: int, score: int) -> str:
    """The tier name a cooperative team of ``players`` reaches with ``score`` points."""
    try:
        floors = TIER_FLOORS[players]
    except KeyError:
        raise ValueError(f"Disc Cover has no score table for {players} players") from None
    reached = 0
    for index, floor in enumerate(floors, start=1):
        if score >= floor:
            reached = index
    return TIERS[reached]


def tier_ranges(players: int) -> list[dict[str, object]]:
    """The table row for a player count: each tier with its lowest and highest score."""
    floors = TIER_FLOORS[players]
    lows = (0, *floors)
    highs: tuple[int | None, ...] = (*(f - 1 for f in floors), None)
    return [
        {"tier": name, "min": low, "max": high}
        for name, low, high in zip(TIERS, lows, highs, strict=True)
    ]
