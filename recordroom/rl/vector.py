"""Many games advanced per call: the fast path for collecting experience.

:class:`VectorGames` holds ``n`` games of one kind. In each game the acting seat is the lowest
active seat (the AEC order), and one call to :meth:`VectorGames.step` plays one action index in
every game at once: one engine action in each game, nothing else. A finished game
records its returns and starts again at once from the next seed, so every row always has a seat to
act.

What each step computes, per game: the chosen action applied (the very action object the game
handed out, through ``game.apply_handed`` where the game offers it, so that the engine does not
check again what the step has just checked; else ``game.apply``), the acting seat of the new
state (the lowest active seat), its legal actions (``game.legal_handed`` where the game offers
it, which does not keep them for a checked ``apply`` that never comes; else
``game.legal_actions``) turned into indices of
the fixed action space (a tuple, through a dict keyed by the identity of the engine's shared action
objects; a game that hands out the same legal actions object again, as Records does for the same
hand or the same board, finds its indices remembered by that object's identity), and, when the
game ends, ``game.returns`` and the next game's ``new_state``. What it does not compute: the dense
masks and the observations. :meth:`VectorGames.masks` builds the dense 0/1 masks of all rows from
those index tuples in a few numpy operations, and
:meth:`VectorGames.observations` encodes the acting seats' views into one preallocated array, both
only when asked (the observations cost several times the game step itself, most of it in
``game.view``). :meth:`VectorGames.random_actions` samples one legal index per game uniformly,
all games at once, from a numpy generator.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import chain
from typing import Any

import numpy as np
import numpy.typing as npt

from recordroom.engine.game import Action, AppliesHanded, Game
from recordroom.games import load
from recordroom.rl.envs import OBS_HIGH, OBS_LOW, IllegalIndex
from recordroom.rl.spaces import FloatArray, action_space, check_game, check_options, encoder

IntArray = npt.NDArray[np.int64]
INDEX_MEMO = 4096
"""Legal action objects whose indices a :class:`VectorGames` keeps (then it starts afresh).

Few enough that the garbage collector's full passes stay short: in 2-player Records, with
65,536 they took about 5% of the stepping time and with 4,096 about 2%, while the share of
steps that must build their indices rose only from 19% to 27% (bench/rl_vector.py).
"""


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
    ) -> None:
        check_game(game, players)
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"VectorGames needs at least one game, got n={n!r}")
        self.game: Game = load(game)
        self._apply: Callable[[Any, int, Action, tuple[Action, ...]], Any]
        """``apply`` of an action the game handed out (unchecked where the game offers it)."""
        self._legal: Callable[[Any, int], tuple[Action, ...]]
        """``legal_actions``, not remembered for a later checked ``apply`` where the game can."""
        if isinstance(self.game, AppliesHanded):
            self._apply, self._legal = self.game.apply_handed, self.game.legal_handed
        else:
            plain = self.game
            self._apply = lambda state, seat, action, _legal: plain.apply(state, seat, action)
            self._legal = plain.legal_actions
        self.players = players
        self.n = n
        self.options = dict(options or {})
        check_options(game, players, self.options)  # refuses a bad option, naming it
        self.space = action_space(game, self.options)
        self.encoder = encoder(game, players, self.options)
        self._by_id = {id(a): i for i, a in enumerate(self.space.actions)}
        self._index_of: dict[int, tuple[Sequence[Action], tuple[int, ...]]] = {}
        """The indices of a legal actions object the game handed out, by its identity."""
        self._next_seed = seed
        self.states: list[Any] = [None] * n
        self.game_seeds = [0] * n
        """The seed of each row's current game."""
        self._seats = [0] * n
        self.legal: list[tuple[int, ...]] = [()] * n
        """Each row's legal action indices, in the engine's order."""
        self._handed: list[tuple[Action, ...]] = [()] * n
        """Each row's legal actions, the objects the game handed out."""
        self._obs = np.zeros((n, self.encoder.size), dtype=np.float32)
        self._obs_fresh = False
        self.finished_games = 0
        self.steps = 0
        for row in range(n):
            self._start(row)

    @property
    def seats(self) -> IntArray:
        """The acting seat of each row."""
        return np.array(self._seats, dtype=np.int64)

    def _indices(self, legal: Sequence[Action]) -> tuple[int, ...]:
        known = self._index_of.get(id(legal))
        if known is not None and known[0] is legal:
            return known[1]
        by_id = self._by_id
        try:
            # The ids of the space's own action objects (the space keeps them alive) are theirs.
            indices = tuple([by_id[id(a)] for a in legal])
        except KeyError:
            indices = tuple(self.space.indices(legal))
        if len(self._index_of) >= INDEX_MEMO:
            self._index_of.clear()
        # Held with the legal actions themselves, so that their id is not reused while known.
        self._index_of[id(legal)] = (legal, indices)
        return indices

    def _start(self, row: int) -> None:
        state = self.game.new_state(self.players, self._next_seed, self.options)
        self.states[row] = state
        self.game_seeds[row] = self._next_seed
        self._next_seed += 1
        seat = min(state.active)
        self._seats[row] = seat
        handed = self._handed[row] = self._legal(state, seat)
        self.legal[row] = self._indices(handed)

    def masks(self, out: npt.NDArray[np.int8] | None = None) -> npt.NDArray[np.int8]:
        """The dense 0/1 action masks of the acting seats, one row per game (into ``out``)."""
        shape = (self.n, self.space.n)
        if out is None:
            out = np.zeros(shape, dtype=np.int8)
        elif out.shape != shape:
            raise ValueError(f"masks: out must have shape {shape}, got {out.shape}")
        else:
            out.fill(0)
        counts = np.fromiter(map(len, self.legal), dtype=np.int64, count=self.n)
        rows = np.repeat(np.arange(self.n), counts)
        cols = np.fromiter(chain.from_iterable(self.legal), dtype=np.int64, count=len(rows))
        out[rows, cols] = 1
        return out

    def observations(self) -> FloatArray:
        """The acting seats' observations (from their views), one row per game.

        Encoded on the first call after a step, into one array that later calls reuse (copy it
        to keep it past the next step).
        """
        if not self._obs_fresh:
            game, encode, obs = self.game, self.encoder.encode, self._obs
            for row, state in enumerate(self.states):
                obs[row] = encode(game.view(state, self._seats[row]))
            np.clip(obs, OBS_LOW, OBS_HIGH, out=obs)  # as the envs do
            self._obs_fresh = True
        return self._obs

    def random_actions(self, rng: np.random.Generator) -> IntArray:
        """One uniformly random legal action index per game, drawn for all games at once."""
        counts = np.fromiter(map(len, self.legal), dtype=np.int64, count=self.n)
        picks = (rng.random(self.n) * counts).astype(np.int64).tolist()
        return np.array(
            [legal[p] for legal, p in zip(self.legal, picks, strict=True)], dtype=np.int64
        )

    def step(
        self, actions: Sequence[int] | IntArray
    ) -> tuple[IntArray, npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Plays ``actions[row]`` for each row's acting seat.

        Returns the seats that acted, each row's returns (``(n, players)``, zeros unless that game
        just ended) and which games just ended (those rows already hold a new game). An index
        outside a row's legal ones raises :class:`~recordroom.rl.envs.IllegalIndex` before any
        game is changed.
        """
        n = self.n
        if len(actions) != n:
            raise IllegalIndex(f"{n} games need {n} actions, got {len(actions)}")
        given = np.asarray(actions)
        if given.ndim != 1 or not np.issubdtype(given.dtype, np.integer):
            raise IllegalIndex(f"actions must be {n} integer indices, got {actions!r}")
        chosen: list[int] = given.tolist()
        legal, handed = self.legal, self._handed
        picked: list[Action] = []
        for row in range(n):
            try:
                picked.append(handed[row][legal[row].index(chosen[row])])
            except ValueError:
                raise IllegalIndex(
                    f"game {row}: action index {chosen[row]!r} is not legal now"
                ) from None
        game = self.game
        apply, legal_now, indices = self._apply, self._legal, self._indices
        states, seats = self.states, self._seats
        acted = np.array(seats, dtype=np.int64)
        rewards = np.zeros((n, self.players), dtype=np.float32)
        done = np.zeros(n, dtype=np.bool_)
        index_of = self._index_of
        for row, (state, seat, action) in enumerate(zip(states, seats, picked, strict=True)):
            state = apply(state, seat, action, handed[row])
            active = state.active
            if active:
                states[row] = state
                seat = seats[row] = min(active)
                now = handed[row] = legal_now(state, seat)
                known = index_of.get(id(now))
                legal[row] = known[1] if known is not None and known[0] is now else indices(now)
            else:
                rewards[row] = game.returns(state)
                done[row] = True
                self.finished_games += 1
                self._start(row)
        self.steps += n
        self._obs_fresh = False
        return acted, rewards, done
