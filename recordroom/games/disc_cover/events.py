"""What happened in a Disc Cover game, as data: the events every view carries under ``events``.

Each event is a small JSON-safe dict with a ``type``; turns are counted from 1 and cards are the
Record cards 1 to 4. In the order they happen within a turn:

- ``reveal``: the first vote is revealed, ``votes`` holding each seat's card;
- ``tie``: the top count is shared by ``candidates`` (``round`` 0 after the first vote, then the
  tie-break round that tied again);
- ``tiebreak``: a cooperative tie-break vote was revealed (``round`` from 1, ``votes``, 0 for a
  seat that had no vote in it);
- ``draw``: after the last tie-break the seeded draw picked ``card`` among ``candidates``;
- ``leader``: in the competitive variant the ``leader`` chose ``card`` among the tied sleeves;
- ``chosen``: the turn's sleeve went into the mosaic: ``card``, ``sleeve`` (its id), ``points``
  (the team's points in the cooperative variant, else the number of seats that scored),
  ``scorers`` (competitive) and ``decided_by`` (majority, tiebreak, draw, leader);
- ``leader_passes`` (competitive): the First Player Record token goes from ``from`` to ``to``;
- ``end``: the game is over, with its ``result``.

Nothing in them is secret: a pending vote appears only once the vote is revealed, the same for
everyone, so every seat and the table get the same list. They are written from the turn records
that ``apply`` keeps (``state.history``) and the current turn's revealed votes; a finished turn's
events are built once and shared by every view: treat them as read-only.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from recordroom.games.disc_cover.state import (
    TURNS,
    DecidedBy,
    DiscCoverState,
    Phase,
    TurnRecord,
)

Event = dict[str, Any]


def _top(votes: tuple[int, ...], among: tuple[int, ...] | None = None) -> list[int]:
    """The cards sharing the highest count of ``votes`` (only ``among`` when given)."""
    counts = Counter(v for v in votes if v and (among is None or v in among))
    if not counts:
        return []
    best = max(counts.values())
    return sorted(card for card, n in counts.items() if n == best)


def _votes_and_ties(
    turn: int, votes: tuple[int, ...], rounds: tuple[tuple[int, ...], ...]
) -> list[Event]:
    """The reveal of a turn's votes and what its ties and tie-breaks showed."""
    out: list[Event] = [{"type": "reveal", "turn": turn, "votes": list(votes)}]
    tied = _top(votes)
    if len(tied) < 2:
        return out
    out.append({"type": "tie", "turn": turn, "round": 0, "candidates": tied})
    for number, tiebreak in enumerate(rounds, start=1):
        out.append({"type": "tiebreak", "turn": turn, "round": number, "votes": list(tiebreak)})
        tied = _top(tiebreak, tuple(tied))
        if len(tied) > 1:
            out.append({"type": "tie", "turn": turn, "round": number, "candidates": tied})
    return out


@lru_cache(maxsize=4096)
def _finished_turn(record: TurnRecord, competitive: bool, players: int) -> tuple[Event, ...]:
    """A finished turn's events; built once per turn record and shared (read-only)."""
    turn = record.turn + 1
    out = _votes_and_ties(turn, record.votes, record.tiebreak_votes)
    if record.decided_by is DecidedBy.DRAW:
        candidates = out[-1]["candidates"] if out[-1]["type"] == "tie" else [record.card]
        out.append({"type": "draw", "turn": turn, "candidates": candidates, "card": record.card})
    elif record.decided_by is DecidedBy.LEADER:
        out.append({"type": "leader", "turn": turn, "leader": record.leader, "card": record.card})
    chosen: Event = {
        "type": "chosen",
        "turn": turn,
        "card": record.card,
        "sleeve": record.sleeve,
        "points": record.points,
        "decided_by": record.decided_by.value,
    }
    if competitive:
        chosen["scorers"] = list(record.scorers)
    out.append(chosen)
    if competitive and record.leader is not None and turn < TURNS:
        after = (record.leader + 1) % players
        out.append({"type": "leader_passes", "turn": turn, "from": record.leader, "to": after})
    return tuple(out)


def history_events(history: tuple[TurnRecord, ...], competitive: bool, players: int) -> list[Event]:
    """The events of the finished turns, oldest first."""
    out: list[Event] = []
    for record in history:
        out += _finished_turn(record, competitive, players)
    return out


def events(
    state: DiscCoverState,
    result: dict[str, Any] | None = None,
    finished: list[Event] | None = None,
) -> list[Event]:
    """Everything that happened so far, oldest first (the same for every seat and the table).

    ``finished``: the :func:`history_events` of the state's history, when known already.
    """
    setup = state.setup
    if finished is None:
        finished = history_events(state.history, setup.competitive, setup.players)
    out = list(finished)
    if state.phase in (Phase.TIEBREAK, Phase.LEADER):
        out += _votes_and_ties(state.turn + 1, state.votes, state.tiebreak_votes)
    if state.phase is Phase.OVER and result is not None:
        out.append({"type": "end", "result": result})
    return out
