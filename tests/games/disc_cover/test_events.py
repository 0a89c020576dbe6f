"""Disc Cover's events: what every screen's game log is written from (reveals, ties, tie-breaks,
the Leader's choice, the sleeve chosen with its points, the token passing, the end)."""

from __future__ import annotations

from typing import Any

from recordroom.engine import random_playout
from recordroom.games import load
from recordroom.games.disc_cover.state import DiscCoverState

GAME = load("disc-cover")


def cast(state: DiscCoverState, cards: list[int], kind: str = "vote") -> DiscCoverState:
    for seat, card in enumerate(cards):
        state = GAME.apply(state, seat, {"type": kind, "card": card})
    return state


def log(state: DiscCoverState, seat: int | None = None) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = GAME.view(state, seat)["events"]
    return events


def test_a_majority_turn_says_the_votes_and_the_points() -> None:
    state = GAME.new_state(4, 3, {"variant": "cooperative"})
    assert log(state) == []
    state = cast(state, [2, 2, 2, 4])
    sleeve = GAME.view(state, None)["last_turn"]["sleeve"]["id"]
    assert log(state) == [
        {"type": "reveal", "turn": 1, "votes": [2, 2, 2, 4]},
        {
            "type": "chosen",
            "turn": 1,
            "card": 2,
            "sleeve": sleeve,
            "points": 3,
            "decided_by": "majority",
        },
    ]


def test_a_cooperative_tie_and_its_tiebreak() -> None:
    state = cast(GAME.new_state(4, 5, {"variant": "cooperative"}), [1, 1, 3, 3])
    # The tie is in every view at once, before the tie-break vote.
    assert log(state)[-1] == {"type": "tie", "turn": 1, "round": 0, "candidates": [1, 3]}
    state = cast(state, [3, 3, 3, 1])
    kinds = [e["type"] for e in log(state)]
    assert kinds == ["reveal", "tie", "tiebreak", "chosen"]
    chosen = log(state)[-1]
    assert chosen["card"] == 3 and chosen["decided_by"] == "tiebreak"
    assert chosen["points"] == 2  # the first vote's count, as the rules score it


def test_the_leader_decides_a_competitive_tie_and_passes_the_token() -> None:
    state = cast(GAME.new_state(4, 5, {"variant": "competitive", "leader": 2}), [1, 1, 3, 3])
    state = GAME.apply(state, 2, {"type": "choose", "card": 3})
    events = log(state)
    assert [e["type"] for e in events] == ["reveal", "tie", "leader", "chosen", "leader_passes"]
    assert events[2] == {"type": "leader", "turn": 1, "leader": 2, "card": 3}
    assert events[3]["scorers"] == [2, 3]
    assert events[4] == {"type": "leader_passes", "turn": 1, "from": 2, "to": 3}


def test_a_pending_vote_is_in_nobodys_events_and_all_views_agree() -> None:
    state = GAME.new_state(3, 9, {"variant": "cooperative"})
    state = cast(state, [1, 1, 2])
    before = log(state)
    state = GAME.apply(state, 0, {"type": "vote", "card": 4})
    for seat in (None, 0, 1, 2):
        assert log(state, seat) == before


def test_every_game_ends_with_its_result_and_nine_chosen_sleeves() -> None:
    for variant in ("cooperative", "competitive"):
        for seed in range(20):
            state, _ = random_playout(GAME, 5, seed, {"variant": variant})
            events = log(state)
            assert events[-1] == {"type": "end", "result": GAME.result(state)}
            chosen = [e for e in events if e["type"] == "chosen"]
            assert [e["turn"] for e in chosen] == list(range(1, 10))
            assert [e["sleeve"] for e in chosen] == [
                m["sleeve"]["id"] for m in events[-1]["result"]["mosaic"]
            ]
