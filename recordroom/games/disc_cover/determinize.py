"""Disc Cover determinisations: full states a seat cannot tell from the real one.

A seat sees the whole table but other seats' pending votes, the order of the deck still to come,
and the chance that settles a cooperative tie after the last tie-break. :func:`determinize` keeps
everything its view shows and draws the rest: each other seat that has voted in the current round
gets a vote among the cards in the running, the unseen sleeves are shuffled into the deck, and the
RNG is reseeded. Earlier turns but the last keep what the table showed of them (the chosen sleeve,
its card and points, the votes, from the view's events); the other sleeves of those turns are
drawn from the unseen ones.
"""

from __future__ import annotations

import random
from typing import Any

from recordroom.games.disc_cover.sleeves import catalogue
from recordroom.games.disc_cover.state import (
    NO_VOTE,
    RECORD_CARDS,
    TURNS,
    DecidedBy,
    DiscCoverState,
    Phase,
    Setup,
    TurnRecord,
    Variant,
)


def _ids(items: list[dict[str, Any]]) -> list[int]:
    return [int(item["id"]) for item in items]


def _events_by_turn(events: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """What the events told of each turn: its reveal, tie-break votes and chosen sleeve."""
    turns: dict[int, dict[str, Any]] = {}
    for event in events:
        if "turn" not in event:
            continue
        told = turns.setdefault(event["turn"], {})
        if event["type"] == "tiebreak":
            told.setdefault("tiebreak", []).append(event)
        elif event["type"] in ("reveal", "chosen"):
            told[event["type"]] = event
    return turns


def determinize(view: dict[str, Any], seat: int, seed: int) -> DiscCoverState:
    """A full state whose ``view(state, seat)`` equals ``view``, hidden parts drawn by ``seed``."""
    rng = random.Random(seed)
    players: int = view["players"]
    variant = Variant(view["variant"])
    competitive = variant is Variant.COMPETITIVE
    phase = Phase(view["phase"])
    if phase is Phase.OVER:
        raise ValueError("a finished Disc Cover game has nothing hidden to determinise")
    turn: int = view["turn"] - 1
    current = [int(r["sleeve"]["id"]) for r in view["records"]]
    last = view["last_turn"]
    mosaic = view["mosaic"]
    seen = set(current) | {int(m["sleeve"]["id"]) for m in mosaic}
    if last is not None:
        seen |= set(_ids(last["sleeves"]))
    unseen = [s.id for s in catalogue() if s.id not in seen]
    rng.shuffle(unseen)
    size = 4 * (turn + 1) + view["deck"]
    needed = size - 4 * (turn + 1) + 3 * max(0, turn - 1)
    extra = max(seen | set(unseen) | {0}) + 1
    while len(unseen) < needed:  # a custom deck of sleeves we do not know: invent their ids
        unseen.append(extra)
        extra += 1
    leader: int | None = view["leader"]
    first_leader = (leader - turn) % players if competitive and leader is not None else 0

    turns = _events_by_turn(view.get("events", []))
    deck: list[int] = []
    history: list[TurnRecord] = []
    for place, entry in enumerate(mosaic):
        if last is not None and place == len(mosaic) - 1:
            sleeves = tuple(_ids(last["sleeves"]))
            record = TurnRecord(
                turn=place,
                sleeves=sleeves,
                votes=tuple(last["votes"]),
                tiebreak_votes=tuple(tuple(r) for r in last["tiebreak_votes"]),
                card=last["card"],
                points=last["points"],
                decided_by=DecidedBy(last["decided_by"]),
                leader=last["leader"],
                scorers=tuple(last["scorers"]),
            )
        else:
            told = turns.get(place + 1, {})
            chosen = told.get("chosen")
            card = chosen["card"] - 1 if chosen else rng.randrange(4)
            others = [unseen.pop() for _ in range(3)]
            sleeves = tuple([*others[:card], int(entry["sleeve"]["id"]), *others[card:]])
            reveal = told.get("reveal")
            record = TurnRecord(
                turn=place,
                sleeves=sleeves,
                votes=tuple(reveal["votes"]) if reveal else (),
                tiebreak_votes=tuple(tuple(e["votes"]) for e in told.get("tiebreak", [])),
                card=card + 1,
                points=entry["points"],
                decided_by=DecidedBy(chosen["decided_by"]) if chosen else DecidedBy.MAJORITY,
                leader=(first_leader + place) % players if competitive else None,
                scorers=tuple(chosen.get("scorers", ())) if chosen else (),
            )
        deck.extend(sleeves)
        history.append(record)
    deck.extend(current)
    deck.extend(unseen[: size - len(deck)])

    pending = [NO_VOTE] * players
    candidates = tuple(view["candidates"]) if view["candidates"] else RECORD_CARDS
    waiting = frozenset(view["waiting_for"])
    for other, voted in enumerate(view["voted"]):
        if voted and other not in waiting:
            pending[other] = candidates[rng.randrange(len(candidates))]
    if view.get("my_vote") is not None:
        pending[seat] = view["my_vote"]
    else:
        pending[seat] = NO_VOTE
    setup = Setup(players, variant, seed, first_leader, tuple(deck))
    return DiscCoverState(
        setup=setup,
        turn=min(turn, TURNS - 1),
        phase=phase,
        active=waiting,
        pending=tuple(pending),
        votes=tuple(view["votes"] or ()),
        candidates=candidates,
        tiebreak_votes=tuple(tuple(r) for r in view["tiebreak_votes"]),
        history=tuple(history),
        score=view.get("score", 0),
        points=tuple(view.get("points", (0,) * players)),
        leader=leader,
        rng=rng.getrandbits(63),
    )
