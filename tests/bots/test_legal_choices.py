"""Point 6: every bot only ever returns a legal action, in thousands of random positions."""

from __future__ import annotations

import pytest

from recordroom.games import load
from recordroom.simulate.runner import Job, make_agent

from .positions import positions

CASES = [
    ("records", "random", 3000),
    ("records", "greedy", 3000),
    ("records", "easy", 3000),
    ("records", "normal", 3000),
    ("records", "ismcts", 150),
    ("disc-cover", "random", 3000),
    ("disc-cover", "ismcts", 1000),
]


@pytest.mark.parametrize(("name", "kind", "count"), CASES)
def test_bots_choose_legal_actions(name: str, kind: str, count: int) -> None:
    game = load(name)
    job = Job(name, 2, 0, (), iterations=8)
    for variant in game.info.option_sets:
        agent = make_agent(game, kind, 17, job)
        for state, seat in positions(game, count // len(game.info.option_sets), 4, dict(variant)):
            legal = game.legal_actions(state, seat)
            assert agent.choose(game.view(state, seat), legal) in legal
