"""Point 1: bots see only what a player sees.

Two states that differ only in what one seat cannot see give that seat the same view, and every
bot of the game, seeded alike, makes the same choice from both.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from recordroom.engine.agents import Agent
from recordroom.engine.game import Game
from recordroom.games import load
from recordroom.simulate.runner import Job, make_agent


def bots(game: Game, seed: int) -> dict[str, Agent]:
    """Every agent of the game, the search bot with a small budget."""
    job = Job(game.info.name, 2, seed, (), iterations=30)
    out = {kind: make_agent(game, kind, seed, job) for kind in game.info.agent_kinds}
    out["ismcts"] = make_agent(game, "ismcts", seed, job)
    out.pop("hard", None)  # the same search as "ismcts", on a clock
    return out


def same_choices(game: Game, a: Any, b: Any, seat: int) -> None:
    view_a, view_b = game.view(a, seat), game.view(b, seat)
    assert view_a == view_b
    legal_a, legal_b = game.legal_actions(a, seat), game.legal_actions(b, seat)
    assert legal_a == legal_b
    for kind in bots(game, 5):
        choice_a = bots(game, 5)[kind].choose(view_a, legal_a)
        choice_b = bots(game, 5)[kind].choose(view_b, legal_b)
        assert choice_a == choice_b, kind


@pytest.mark.parametrize("variant", ["cooperative", "competitive"])
def test_disc_cover_bots_cannot_tell_another_seats_hidden_vote(variant: str) -> None:
    game = load("disc-cover")
    state = game.new_state(4, 11, {"variant": variant})
    a = game.apply(state, 1, {"type": "vote", "card": 2})
    b = game.apply(state, 1, {"type": "vote", "card": 4})
    assert a != b
    same_choices(game, a, b, 0)


def test_records_bots_cannot_tell_other_hands_goals_and_deck_order() -> None:
    game = load("records")
    rng = random.Random(3)
    state = game.new_state(3, 8)
    while state.phase != "pick" or state.round != 2 or state.active != frozenset({0, 1, 2}):
        seat = min(state.active)
        legal = game.legal_actions(state, seat)
        state = game.apply(state, seat, legal[rng.randrange(len(legal))])
    state = game.apply(state, 1, game.legal_actions(state, 1)[0])  # a hidden pick
    # The same table with everything seat 0 cannot see drawn again.
    other = game.determinize(game.view(state, 0), 0, 99)  # type: ignore[attr-defined]
    assert other.hands[1:] != state.hands[1:]
    assert other.deck != state.deck
    assert other.private[1:] != state.private[1:]
    same_choices(game, state, other, 0)
