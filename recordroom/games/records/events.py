"""What happened, as data: the events an ``apply`` records, and bonus chains that say their cause.

Every event is a small JSON-safe dict with a ``type`` (the list is in docs/records-edition.md,
"Events"). A game keeps two kinds: the public log (``State.log``, the whole game, append-only) and
each seat's unrevealed events (``State.hidden``): the marks of a marking step and the bonuses they
set off, which only their seat sees until every marking seat is done, when they join the log in
seat order. Events are built once and shared between states and views: treat them as read-only.

Places on the board are named by short labels, ``area:detail``, used both for where a bonus went
(``at``) and for what earned one (``cause``): ``crew:<slot>``, ``agenda:<box>``,
``agenda_line:<line>``, ``assets:<box>``, ``asset_pair:<first box>``, ``harmony:<colour>:<column>``,
``tour:<step>``, ``album:<n>``, ``single:<n>``, ``multiplier:<n>``, ``cash:<restriction>``,
``fail:<box>`` and ``goal:<goal id>`` (slots, boxes and columns from 0; steps and counts from 1).
"""

from __future__ import annotations

from typing import Any

from recordroom.games.records import board as bd
from recordroom.games.records.edition import Edition
from recordroom.games.records.kinds import NO_BONUS, bonus_name

Event = dict[str, Any]
Causes = tuple[str, ...]


def harmony_label(ed: Edition, box: int) -> str:
    """The label of a harmony box: its colour and column."""
    columns = ed.harmony_columns
    return f"harmony:{ed.colours[box // columns]}:{box % columns}"


def _at(ed: Edition, after: bd.Board, code: int, target: int) -> str:
    """Where a bonus just used went, read from the board after it."""
    if code == bd.ALBUM:
        return f"album:{after.albums}"
    if code == bd.SINGLE:
        return f"single:{after.singles}"
    if code == bd.TOUR:
        return f"tour:{after.tour}"
    if code == bd.MULTIPLIER:
        return f"multiplier:{after.mult_earned}"
    if code == bd.CASH:
        return f"cash:{ed.restrictions[target]}"
    if code == bd.AGENDA:
        return f"agenda:{target}"
    if code == bd.ASSET:
        return f"assets:{target}"
    return harmony_label(ed, target)


def agenda_causes(ed: Edition, after: bd.Board, box: int) -> Causes:
    """The causes of the bonuses ticking agenda ``box`` earned (one per completed line)."""
    return tuple(
        [
            f"agenda_line:{line.name}"
            for line in ed.agenda_lines
            if line.mask >> box & 1
            and after.agenda & line.mask == line.mask
            and line.bonus != NO_BONUS
        ]
    )


def asset_causes(ed: Edition, after: bd.Board, box: int) -> Causes:
    """The causes of the bonuses ticking asset ``box`` earned (one per completed pair)."""
    out = []
    if box > 0 and after.assets >> (box - 1) & 1 and ed.asset_bonuses[box - 1] != NO_BONUS:
        out.append(f"asset_pair:{box - 1}")
    if (
        box < ed.asset_boxes - 1
        and after.assets >> (box + 1) & 1
        and ed.asset_bonuses[box] != NO_BONUS
    ):
        out.append(f"asset_pair:{box}")
    return tuple(out)


def marked(
    ed: Edition, board: bd.Board, seat: int, card: int, action: dict[str, Any]
) -> tuple[bd.Board, bd.Bonuses, Event, Causes]:
    """A ``mark`` or ``fail`` action applied (:func:`board.mark`): the board after it, the bonuses
    it earned, its event and the cause of each bonus."""
    after, earned = bd.mark(ed, board, card, action)
    card_id = ed.cards[card].id
    if action["type"] == "fail":
        ticked = after.fails if after.fails > board.fails else None
        event: Event = {"type": "fail", "seat": seat, "card": card_id, "box": ticked}
        return after, earned, event, (f"fail:{after.fails}",) * len(earned)
    area = action["area"]
    event = {
        "type": "mark",
        "seat": seat,
        "card": card_id,
        "area": area,
        "slot": action["slot"],
        "box": action["box"],
        "multiplier": None,
    }
    if area == "crew":
        m = action["multiplier"]
        event["multiplier"] = None if m is None else ed.multipliers[m]
        causes: Causes = (f"crew:{action['slot']}",) * len(earned)
    elif area == "agenda":
        causes = agenda_causes(ed, after, action["box"])
    else:
        causes = asset_causes(ed, after, action["box"])
    return after, earned, event, causes


def _lost_why(ed: Edition, board: bd.Board, code: int) -> str:
    """Why a bonus had nowhere to go: its boxes are full, or a cash restriction locks it."""
    if code == bd.TOUR and board.tour < len(ed.tour_steps):
        return "locked"
    return "full"


def use(
    ed: Edition,
    board: bd.Board,
    seat: int,
    code: int,
    target: int,
    cause: str,
    queue: bd.Bonuses,
    causes: Causes,
    out: list[Event],
) -> tuple[bd.Board, bd.Bonuses, Causes]:
    """Bonus ``code`` used on ``target``: the board after it, its earnings queued with causes."""
    after, earned = bd.gain(ed, board, code, target)
    at = _at(ed, after, code, target)
    out.append(
        {
            "type": "bonus",
            "seat": seat,
            "bonus": bonus_name(ed.colours, code),
            "at": at,
            "cause": cause,
        }
    )
    if earned:
        queue = queue + earned
        if code == bd.AGENDA:
            causes = causes + agenda_causes(ed, after, target)
        elif code == bd.ASSET:
            causes = causes + asset_causes(ed, after, target)
        else:
            causes = causes + (at,) * len(earned)
    return after, queue, causes


def resolve(
    ed: Edition, board: bd.Board, seat: int, queue: bd.Bonuses, causes: Causes, out: list[Event]
) -> tuple[bd.Board, bd.Bonuses, Causes]:
    """:func:`board.resolve` that records each bonus used or lost, with its cause, in ``out``."""
    while queue:
        code = queue[0]
        targets = bd.bonus_targets(ed, board, code)
        if len(targets) > 1:
            break
        cause = causes[0]
        queue, causes = queue[1:], causes[1:]
        if targets:
            board, queue, causes = use(ed, board, seat, code, targets[0], cause, queue, causes, out)
        else:
            out.append(
                {
                    "type": "lost",
                    "seat": seat,
                    "bonus": bonus_name(ed.colours, code),
                    "cause": cause,
                    "why": _lost_why(ed, board, code),
                }
            )
    return board, queue, causes
