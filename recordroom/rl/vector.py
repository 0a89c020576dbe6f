"""Many games advanced per call: the fast path for collecting experience.

:class:`VectorGames` holds ``n`` games of one kind. In each game the acting seat is the lowest
active seat (the AEC order), and one call to :meth:`VectorGames.step` plays one action index in
every game at once. A finished game records its returns and starts again at once from the next
seed, so every row always has a seat to act. Per row it keeps the legal action indices (a list,
cheap to sample from), and on request the dense 0/1 masks and the observations (built from the
acting seat's view, as in :mod:`recordroom.rl.envs`).

``observe=False`` skips the observation vectors, which cost more than the game step itself; a
learner that reads observations asks for them (docs/rl.md has both figures).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from recordroom.engine.game import Game
from recordroom.games import load
from recordroom.rl.envs import IllegalIndex
from recordroom.rl.spaces import FloatArray, action_space, check_game, encoder


class VectorGames:
    """``n`` games of one kind, stepped together (see the module docstring)."""

    def __init__(
        self,
        game: str,
        players: int,
        n: int,
        *,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        observe: bool = True,
    ) -> None:
        check_game(game, players)
        if n < 1:
            raise ValueError(f"VectorGames needs at least one game, got n={n}")
        self.game: Game = load(game)
        self.players = players
        self.n = n
        self.options = dict(options or {})
        self.game.new_state(players, seed, self.options)  # refuses a bad option, naming it
        self.space = action_space(game, self.options)
        self.encoder = encoder(game, players, self.options)
        self.observe = observe
        self._next_seed = seed
        self.states: list[Any] = [None] * n
        self.game_seeds = [0] * n
        """The seed of each row's current game."""
        self.seats = np.zeros(n, dtype=np.int64)
        self.legal: list[list[int]] = [[] for _ in range(n)]
        self.obs = np.zeros((n, self.encoder.size), dtype=np.float32)
        self.finished_games = 0
        self.steps = 0
        for row in range(n):
            self._start(row)

    def _start(self, row: int) -> None:
        self.states[row] = self.game.new_state(self.players, self._next_seed, self.options)
        self.game_seeds[row] = self._next_seed
        self._next_seed += 1
        self._refresh(row)

    def _refresh(self, row: int) -> None:
        state = self.states[row]
        seat = min(state.active)
        self.seats[row] = seat
        self.legal[row] = self.space.indices(self.game.legal_actions(state, seat))
        if self.observe:
            self.obs[row] = self.encoder.encode(self.game.view(state, seat))

    def masks(self) -> npt.NDArray[np.int8]:
        """The dense 0/1 action masks of the acting seats, one row per game."""
        out = np.zeros((self.n, self.space.n), dtype=np.int8)
        for row, legal in enumerate(self.legal):
            out[row, legal] = 1
        return out

    def observations(self) -> FloatArray:
        """The acting seats' observations (``observe=True`` only), one row per game."""
        if not self.observe:
            raise ValueError("this VectorGames was made with observe=False")
        return self.obs

    def random_actions(self, rng: random.Random) -> list[int]:
        """One uniformly random legal action index per game."""
        return [legal[rng.randrange(len(legal))] for legal in self.legal]

    def step(
        self, actions: Sequence[int] | npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Plays ``actions[row]`` for each row's acting seat.

        Returns the seats that acted, each row's returns (``(n, players)``, zeros unless that game
        just ended) and which games just ended (those rows already hold a new game). An index
        outside a row's legal ones raises :class:`~recordroom.rl.envs.IllegalIndex` before any
        game is changed.
        """
        if len(actions) != self.n:
            raise IllegalIndex(f"{self.n} games need {self.n} actions, got {len(actions)}")
        for row, index in enumerate(actions):
            if index not in self.legal[row]:
                raise IllegalIndex(f"game {row}: action index {index!r} is not legal now")
        game = self.game
        acted = self.seats.copy()
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        done = np.zeros(self.n, dtype=np.bool_)
        table = self.space.actions
        for row, index in enumerate(actions):
            state = game.apply(self.states[row], int(acted[row]), table[index])
            self.states[row] = state
            if state.active:
                self._refresh(row)
            else:
                rewards[row] = game.returns(state)
                done[row] = True
                self.finished_games += 1
                self._start(row)
        self.steps += self.n
        return acted, rewards, done
