"""The Records edition as the browser draws it: the board layout, the cards and the goals in names.

The player sheet of Records' pages is generated from this document, never placed box by box, so
an edition with other boxes, bonuses or prices draws itself. It is read-only and the same for
everyone; the game offers it through the contract's optional ``edition(name)``, which the server
serves as ``GET /api/games/records/edition``.
"""

from __future__ import annotations

from typing import Any

from recordroom.games.records.edition import ROLES, Edition, load_edition
from recordroom.games.records.kinds import HARMONY_OF, NO_BONUS, Bonus


def _bonus(code: int) -> str | None:
    """The kind of bonus a box prints: a crew harmony of any colour is drawn as ``harmony``."""
    if code == NO_BONUS:
        return None
    return Bonus.HARMONY.label if code >= HARMONY_OF else Bonus(code).label


def _cash(restriction: int) -> int | None:
    return None if restriction < 0 else restriction


def edition_document(edition: Edition) -> dict[str, Any]:
    """Everything the sheet needs, JSON-safe, with names instead of codes."""
    columns = edition.harmony_columns
    return {
        "name": edition.name,
        "title": edition.title,
        "colours": list(edition.colours),
        "roles": list(ROLES),
        "hand_size": edition.hand_size,
        "picks_per_week": edition.picks_per_week,
        "public_goals": edition.public_goals,
        "fail": {
            "penalties": list(edition.fail_penalties),
            "bonuses": [_bonus(b) for b in edition.fail_bonuses],
        },
        "goal_boxes": edition.goal_boxes,
        "agenda": {
            "rows": edition.agenda_rows,
            "columns": edition.agenda_columns,
            "lines": [
                {
                    "name": line.name,
                    "boxes": [b for b in range(edition.agenda_boxes) if line.mask >> b & 1],
                    "bonus": _bonus(line.bonus),
                }
                for line in edition.agenda_lines
            ],
        },
        "release": {
            "albums": [_bonus(b) for b in edition.album_bonuses],
            "singles": [_bonus(b) for b in edition.single_bonuses],
        },
        "crew": [
            {
                "role": ROLES[slot.role],
                "row": slot.row,
                "column": slot.column,
                "bonus": _bonus(slot.bonus),
                "cash": _cash(slot.restriction),
            }
            for slot in edition.crew_slots
        ],
        "tour": [
            {"points": step.points, "bonus": _bonus(step.bonus), "cash": _cash(step.restriction)}
            for step in edition.tour_steps
        ],
        "multipliers": list(edition.multipliers),
        "assets": {
            "boxes": edition.asset_boxes,
            "bonuses": [_bonus(b) for b in edition.asset_bonuses],
        },
        "harmonies": {
            "columns": columns,
            "row_points": edition.harmony_row_points,
            "column_points": edition.harmony_column_points,
            "bonuses": {
                colour: [_bonus(edition.harmony_bonuses[c * columns + j]) for j in range(columns)]
                for c, colour in enumerate(edition.colours)
            },
        },
        "restrictions": list(edition.restrictions),
        "goals": {
            goal.id: {
                "name": goal.name,
                "kind": goal.kind,
                "n": goal.n,
                "points": goal.points,
                "bonus": _bonus(goal.bonus),
                "role": ROLES[goal.role] if goal.role >= 0 else None,
                "colour": edition.colours[goal.colour] if goal.colour >= 0 else None,
            }
            for goal in edition.goals
        },
        "cards": {
            card.id: {
                "kind": card.kind,
                "role": ROLES[card.role] if card.role >= 0 else None,
                "points": card.points,
                "sides": [edition.colours[s] for s in card.sides] if card.kind == "crew" else None,
            }
            for card in edition.cards
        },
    }


def named_document(name: str = "standard") -> dict[str, Any]:
    """The document of a named edition (``EditionError`` if there is none)."""
    return edition_document(load_edition(name))
