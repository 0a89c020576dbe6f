"""What each seat and the table may see of a Disc Cover game, and the saved form of a state.

The one secret of Disc Cover is a pending vote: until the last vote of a round is in, nobody but
its owner learns it, and the table only shows who has voted. Everything else is on the table.
"""

from __future__ import annotations

import json
import threading
from functools import cache
from typing import Any, NamedTuple

import orjson

from recordroom.engine.errors import BadState
from recordroom.games.disc_cover.events import Event, events, history_events
from recordroom.games.disc_cover.scoring import tier
from recordroom.games.disc_cover.sleeves import by_id
from recordroom.games.disc_cover.state import (
    NO_VOTE,
    TURNS,
    DecidedBy,
    DiscCoverState,
    Phase,
    Setup,
    TurnRecord,
    Variant,
)

FORMAT = 1


@cache
def _sleeve_json(sleeve_id: int) -> dict[str, Any]:
    known = by_id().get(sleeve_id)
    return known.to_json() if known else {"id": sleeve_id}


def sleeve_json(sleeve_id: int) -> dict[str, Any]:
    """A sleeve as shown to players: its id, and its title and artist when it is a built-in one."""
    return dict(_sleeve_json(sleeve_id))


def record_json(record: TurnRecord) -> dict[str, Any]:
    """A finished turn."""
    return {
        "turn": record.turn + 1,
        "sleeves": [sleeve_json(s) for s in record.sleeves],
        "votes": list(record.votes),
        "tiebreak_votes": [list(r) for r in record.tiebreak_votes],
        "card": record.card,
        "sleeve": sleeve_json(record.sleeve),
        "points": record.points,
        "decided_by": record.decided_by.value,
        "leader": record.leader,
        "scorers": list(record.scorers),
    }


_TABLES: dict[int, tuple[DiscCoverState, dict[str, Any]]] = {}
"""The public part of recent states' views, by the state's identity (the state is kept with it,
so its ``id`` is not given to another state while it is here)."""
_TABLES_KEPT = 64
"""States whose public part is kept: a change's views are all made at once, so a few suffice."""
_TABLES_LOCK = threading.Lock()


class _Past(NamedTuple):
    mosaic: list[dict[str, Any]]
    last_turn: dict[str, Any] | None
    events: list[Event]


_PAST: dict[tuple[int, int], tuple[tuple[TurnRecord, ...], Setup, _Past]] = {}
"""The parts of recent views that only the finished turns make, by the identities of the
history (shared by every state of its turn) and of the game's setup (the empty history of every
game's first turn is one object), the most recently used last."""
_PAST_KEPT = 2048
"""Histories whose past is kept: one per room being played, so a server with hundreds of rooms
keeps each room's until its turn ends (with fewer, rooms taking turns pushed each other's out
and every change made its room's past again). A few KB each."""


def _past(state: DiscCoverState) -> _Past:
    """The mosaic, the last turn and the events of the state's finished turns, made once per
    history and shared (read, never changed in place)."""
    history, setup = state.history, state.setup
    key = (id(history), id(setup))
    with _TABLES_LOCK:
        # An entry holds its history and setup, so their identities are not reused meanwhile.
        kept = _PAST.pop(key, None)
        if kept is not None:
            _PAST[key] = kept  # now the most recently used
            return kept[2]
    past = _Past(
        [
            {"place": place, "sleeve": sleeve_json(record.sleeve), "points": record.points}
            for place, record in enumerate(history)
        ],
        record_json(history[-1]) if history else None,
        history_events(history, setup.competitive, setup.players),
    )
    with _TABLES_LOCK:
        _PAST[key] = (history, setup, past)
        while len(_PAST) > _PAST_KEPT:
            del _PAST[next(iter(_PAST))]
    return past


def view(state: DiscCoverState, seat: int | None) -> dict[str, Any]:
    """The public table (``seat=None``) or what one seat sees: the table plus its own vote.

    A server tells every seat and the table of each new state: the public part is built once
    per state and shared by its views (a view is read, never changed in place).
    """
    with _TABLES_LOCK:
        kept = _TABLES.get(id(state))
    if kept is not None and kept[0] is state:
        out = dict(kept[1])
    else:
        table = _table(state)
        with _TABLES_LOCK:
            _TABLES[id(state)] = (state, table)
            while len(_TABLES) > _TABLES_KEPT:
                del _TABLES[next(iter(_TABLES))]
        out = dict(table)
    if seat is not None:
        out.update(own(state, seat))
    return out


def own(state: DiscCoverState, seat: int) -> dict[str, Any]:
    """What a seat's view adds to the table's: its seat, its own pending vote and, competitive,
    its points."""
    vote = state.pending[seat]
    out: dict[str, Any] = {"seat": seat, "my_vote": vote if vote != NO_VOTE else None}
    if state.setup.competitive:
        out["my_points"] = state.points[seat]
    return out


def _table(state: DiscCoverState) -> dict[str, Any]:
    """The part of a view everyone sees."""
    setup = state.setup
    over = state.phase is Phase.OVER
    sleeves = () if over else setup.sleeves_of_turn(state.turn)
    past = _past(state)
    out: dict[str, Any] = {
        "game": "disc-cover",
        "variant": setup.variant.value,
        "players": setup.players,
        "turn": min(state.turn + 1, TURNS),
        "turns": TURNS,
        "phase": state.phase.value,
        "records": [
            {"card": card, "sleeve": sleeve_json(s)} for card, s in enumerate(sleeves, start=1)
        ],
        "waiting_for": sorted(state.active),
        "voted": [vote != NO_VOTE for vote in state.pending],
        "candidates": list(state.candidates)
        if state.phase in (Phase.TIEBREAK, Phase.LEADER)
        else [],
        "votes": list(state.votes) if state.votes else None,
        "tiebreak_votes": [list(r) for r in state.tiebreak_votes],
        "tiebreak_round": len(state.tiebreak_votes) + 1 if state.phase is Phase.TIEBREAK else 0,
        "mosaic": past.mosaic,
        "leader": state.leader,
        "last_turn": past.last_turn,
        "deck": len(setup.deck) - 4 * min(state.turn + 1, TURNS),
    }
    if setup.competitive:
        out["points"] = list(state.points)
    else:
        out["score"] = state.score
    if over:
        out["result"] = result(state)
    out["events"] = events(state, out.get("result"), past.events)
    return out


def result(state: DiscCoverState) -> dict[str, Any]:
    """Cooperative: the score and its tier. Competitive: everyone's points and the winners."""
    setup = state.setup
    mosaic = [{"sleeve": sleeve_json(s), "points": p} for s, p in state.mosaic]
    if setup.competitive:
        best = max(state.points)
        winners = [seat for seat, p in enumerate(state.points) if p == best]
        return {"points": list(state.points), "winners": winners, "mosaic": mosaic}
    return {"score": state.score, "tier": tier(setup.players, state.score), "mosaic": mosaic}


def dumps(state: DiscCoverState) -> str:
    """The state as JSON text; :func:`loads` reads it back to an equal state."""
    setup = state.setup
    data = {
        "game": "disc-cover",
        "format": FORMAT,
        "players": setup.players,
        "variant": setup.variant.value,
        "seed": setup.seed,
        "first_leader": setup.first_leader,
        "deck": list(setup.deck),
        "turn": state.turn,
        "phase": state.phase.value,
        "active": sorted(state.active),
        "pending": list(state.pending),
        "votes": list(state.votes),
        "candidates": list(state.candidates),
        "tiebreak_votes": [list(r) for r in state.tiebreak_votes],
        "history": [
            {
                "turn": r.turn,
                "sleeves": list(r.sleeves),
                "votes": list(r.votes),
                "tiebreak_votes": [list(v) for v in r.tiebreak_votes],
                "card": r.card,
                "points": r.points,
                "decided_by": r.decided_by.value,
                "leader": r.leader,
                "scorers": list(r.scorers),
            }
            for r in state.history
        ],
        "score": state.score,
        "points": list(state.points),
        "leader": state.leader,
        "rng": state.rng,
    }
    try:
        # The same text as json.dumps(separators=(",", ":"), sort_keys=True) for these ASCII
        # names and integers, several times faster.
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode()
    except orjson.JSONEncodeError:  # a seed beyond 64 bits, which orjson does not write
        return json.dumps(data, separators=(",", ":"), sort_keys=True)


def _ints(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise TypeError("expected a list of whole numbers")
    return tuple(value)


def loads(text: str) -> DiscCoverState:
    """A state from :func:`dumps` text; ``BadState`` if the text is not one."""
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("game") != "disc-cover":
            raise ValueError("not a Disc Cover state")
        if data.get("format") != FORMAT:
            raise ValueError(f"unknown format {data.get('format')!r}")
        setup = Setup(
            players=int(data["players"]),
            variant=Variant(data["variant"]),
            seed=int(data["seed"]),
            first_leader=int(data["first_leader"]),
            deck=_ints(data["deck"]),
        )
        history = tuple(
            TurnRecord(
                turn=int(r["turn"]),
                sleeves=_ints(r["sleeves"]),
                votes=_ints(r["votes"]),
                tiebreak_votes=tuple(_ints(v) for v in r["tiebreak_votes"]),
                card=int(r["card"]),
                points=int(r["points"]),
                decided_by=DecidedBy(r["decided_by"]),
                leader=None if r["leader"] is None else int(r["leader"]),
                scorers=_ints(r["scorers"]),
            )
            for r in data["history"]
        )
        pending = _ints(data["pending"])
        points = _ints(data["points"])
        if len(pending) != setup.players or len(points) != setup.players:
            raise ValueError("per-seat lists do not match the player count")
        return DiscCoverState(
            setup=setup,
            turn=int(data["turn"]),
            phase=Phase(data["phase"]),
            active=frozenset(_ints(data["active"])),
            pending=pending,
            votes=_ints(data["votes"]),
            candidates=_ints(data["candidates"]),
            tiebreak_votes=tuple(_ints(v) for v in data["tiebreak_votes"]),
            history=history,
            score=int(data["score"]),
            points=points,
            leader=None if data["leader"] is None else int(data["leader"]),
            rng=int(data["rng"]),
        )
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise BadState(f"not a saved Disc Cover state: {error}") from error
