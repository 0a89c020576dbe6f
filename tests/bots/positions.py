"""Random positions of both games, for the bot tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from recordroom.engine.game import Game
from recordroom.engine.playout import random_step


def positions(
    game: Game, count: int, seed: int, options: dict[str, Any] | None = None
) -> Iterator[tuple[Any, int]]:
    """``count`` (state, active seat) pairs met in random playouts of varied player counts."""
    rng = random.Random(seed)
    info = game.info
    made = 0
    game_seed = seed
    while made < count:
        players = rng.randint(max(2, info.min_players), info.max_players)
        state = game.new_state(players, game_seed, options)
        game_seed += 1
        while state.active and made < count:
            if rng.random() < 0.25:
                yield state, rng.choice(sorted(state.active))
                made += 1
            seat, action = random_step(game, state, rng)
            state = game.apply(state, seat, action)
