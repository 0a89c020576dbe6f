"""Many games advanced per call: the fast path for collecting experience.

Records of two to six players is stepped on compiled arrays (:class:`RecordsVector`, the rules of
:mod:`recordroom.rl.records_arrays`: the same games, several times faster); everything else, and
Records with ``compiled=False``, through the engine as described below.

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

from recordroom.engine.game import Action, AppliesHanded, Game, win_share_returns
from recordroom.games import load
from recordroom.games.records.edition import EditionError, load_edition
from recordroom.games.records.results import winners
from recordroom.rl import records_arrays as arrays
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
    """``n`` games of one kind, stepped together (see the module docstring); Records of two to
    six players is a :class:`RecordsVector` unless ``compiled=False``."""

    def __new__(cls, game: str, players: int, *args: Any, **kwargs: Any) -> VectorGames:
        # Records of two to six players is stepped on arrays (RecordsVector), unless asked not.
        compiled = kwargs.get("compiled", True)
        if cls is VectorGames and compiled and _on_arrays(game, players, kwargs.get("options")):
            return super().__new__(RecordsVector)
        return super().__new__(cls)

    def __init__(
        self,
        game: str,
        players: int,
        n: int,
        *,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        compiled: bool = True,
    ) -> None:
        check_game(game, players)
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"VectorGames needs at least one game, got n={n!r}")
        self.game: Game = load(game)
        self._apply: Callable[[Any, int, Action, tuple[Action, ...]], Any]
        """``apply`` of an action the game handed out (unchecked where the game offers it)."""
        self._legal_now: Callable[[Any, int], tuple[Action, ...]]
        """``legal_actions``, not remembered for a later checked ``apply`` where the game can."""
        if isinstance(self.game, AppliesHanded):
            self._apply, self._legal_now = self.game.apply_handed, self.game.legal_handed
        else:
            plain = self.game
            self._apply = lambda state, seat, action, _legal: plain.apply(state, seat, action)
            self._legal_now = plain.legal_actions
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
        self.game_seeds = [0] * n
        """The seed of each row's current game."""
        self._obs = np.zeros((n, self.encoder.size), dtype=np.float32)
        self._obs_fresh = False
        self.finished_games = 0
        self.steps = 0
        self._begin()

    def _begin(self) -> None:
        """The rows' first games (in the engine's states)."""
        n = self.n
        self._states: list[Any] = [None] * n
        self._seats = [0] * n
        self._legal: list[tuple[int, ...]] = [()] * n
        self._handed: list[tuple[Action, ...]] = [()] * n
        """Each row's legal actions, the objects the game handed out."""
        for row in range(n):
            self._start(row)

    @property
    def states(self) -> list[Any]:
        """Each row's game state (the engine's)."""
        return self._states

    @property
    def legal(self) -> list[tuple[int, ...]]:
        """Each row's legal action indices, in the engine's order."""
        return self._legal

    @property
    def seats(self) -> IntArray:
        """The acting seat of each row."""
        return np.array(self._seats, dtype=np.int64)

    def _seed(self) -> int:
        """The seed of a row's next game."""
        seed = self._next_seed
        self._next_seed += 1
        return seed

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
        seed = self.game_seeds[row] = self._seed()
        state = self._states[row] = self.game.new_state(self.players, seed, self.options)
        seat = min(state.active)
        self._seats[row] = seat
        handed = self._handed[row] = self._legal_now(state, seat)
        self._legal[row] = self._indices(handed)

    def masks(self, out: npt.NDArray[np.int8] | None = None) -> npt.NDArray[np.int8]:
        """The dense 0/1 action masks of the acting seats, one row per game (into ``out``)."""
        shape = (self.n, self.space.n)
        if out is None:
            out = np.zeros(shape, dtype=np.int8)
        elif out.shape != shape:
            raise ValueError(f"masks: out must have shape {shape}, got {out.shape}")
        self._fill_masks(out)
        return out

    def _fill_masks(self, out: npt.NDArray[np.int8]) -> None:
        """The masks written into ``out`` (of the right shape)."""
        out.fill(0)
        counts = np.fromiter(map(len, self.legal), dtype=np.int64, count=self.n)
        rows = np.repeat(np.arange(self.n), counts)
        cols = np.fromiter(chain.from_iterable(self.legal), dtype=np.int64, count=len(rows))
        out[rows, cols] = 1

    def observations(self) -> FloatArray:
        """The acting seats' observations (from their views), one row per game.

        Encoded on the first call after a step, into one array that later calls reuse (copy it
        to keep it past the next step).
        """
        if not self._obs_fresh:
            game, encode, obs, seats = self.game, self.encoder.encode, self._obs, self.seats
            for row, state in enumerate(self.states):
                obs[row] = encode(game.view(state, int(seats[row])))
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

    def _given(self, actions: Sequence[int] | IntArray) -> IntArray:
        """``actions`` as n integer indices; :class:`IllegalIndex` if they are not."""
        n = self.n
        if len(actions) != n:
            raise IllegalIndex(f"{n} games need {n} actions, got {len(actions)}")
        given = np.asarray(actions)
        if given.ndim != 1 or not np.issubdtype(given.dtype, np.integer):
            raise IllegalIndex(f"actions must be {n} integer indices, got {actions!r}")
        return given

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
        chosen: list[int] = self._given(actions).tolist()
        legal, handed = self._legal, self._handed
        picked: list[Action] = []
        for row in range(n):
            try:
                picked.append(handed[row][legal[row].index(chosen[row])])
            except ValueError:
                raise IllegalIndex(
                    f"game {row}: action index {chosen[row]!r} is not legal now"
                ) from None
        game = self.game
        apply, legal_now, indices = self._apply, self._legal_now, self._indices
        states, seats = self._states, self._seats
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


def _on_arrays(game: str, players: Any, options: Mapping[str, Any] | None) -> bool:
    """The game is stepped on arrays: Records of two to six players, an edition that fits.
    Anything else, a bad argument too, goes the engine's way (whose checks name it)."""
    if game != "records" or type(players) is not int or not 2 <= players <= 6:
        return False
    if options is not None and (not isinstance(options, Mapping) or set(options) - {"edition"}):
        return False
    try:
        edition = load_edition(str((options or {}).get("edition", "standard")))
    except EditionError:
        return False
    return arrays.fits(edition)


class RecordsVector(VectorGames):
    """Records games of two to six players stepped on arrays, compiled
    (:mod:`recordroom.rl.records_arrays`): the same games, the same legal actions in the same
    order and the same returns as the engine's, several times faster.

    ``VectorGames("records", players, n)`` is one (``compiled=False`` steps the engine instead).
    The engine's states are not kept step by step: :attr:`states` (and :meth:`observations`,
    which reads the views) brings each row's engine state up to date by applying, through the
    engine's checked ``apply``, the actions the row took since it was last asked.
    """

    def _begin(self) -> None:
        edition = load_edition(str(self.options.get("edition", "standard")))
        self.tables = arrays.tables(edition, self.space)
        """The edition and the action space as the compiled rules read them."""
        self._rows = arrays.rows(self.tables, self.n)
        self._legal_rows = np.zeros((self.n, self.space.n), dtype=np.int64)
        """Each row's legal action indices (the first ``T_NLEGAL`` of its row)."""
        longest = self.game.max_decisions(self.players, self.options)
        self._history = np.zeros((self.n, longest + 1), dtype=np.int16)
        """Each row's actions since its game began (the first ``T_STEPS`` of its row)."""
        self._engine: list[Any] = [None] * self.n
        """Each row's engine state, after the first ``_applied[row]`` actions of its game."""
        self._applied = [0] * self.n
        self._acted = np.zeros(self.n, dtype=np.int64)
        self._over = np.zeros(self.n, dtype=np.int64)
        self._keys = np.zeros((self.players, 3), dtype=np.int64)
        for row in range(self.n):
            self._start(row)
        # Compiled (or loaded from disk) now rather than when the first game ends, mid-run.
        arrays.final(self.tables, self._rows[0], self._keys)

    def _start(self, row: int) -> None:
        seed = self.game_seeds[row] = self._seed()
        state = self._engine[row] = self.game.new_state(self.players, seed, self.options)
        self._applied[row] = 0
        arrays.load_row(self.tables, self._rows[row], self._legal_rows[row], state)

    @property
    def states(self) -> list[Any]:
        """Each row's game state (the engine's, brought up to date)."""
        game, actions = self.game, self.space.actions
        taken = self._rows[:, arrays.T_STEPS].tolist()
        for row, state in enumerate(self._engine):
            if self._applied[row] < taken[row]:
                for index in self._history[row, self._applied[row] : taken[row]].tolist():
                    state = game.apply(state, min(state.active), actions[index])
                self._engine[row] = state
                self._applied[row] = taken[row]
        return self._engine

    def picture(self, row: int) -> dict[str, Any]:
        """What row ``row`` holds that decides its game, as plain values; equal to
        ``records_arrays.picture_of(self.tables, state)`` of the engine state it follows."""
        return arrays.picture(self.tables, self._rows[row])

    @property
    def legal(self) -> list[tuple[int, ...]]:
        """Each row's legal action indices, in the engine's order."""
        counts = self._rows[:, arrays.T_NLEGAL].tolist()
        return [tuple(self._legal_rows[row, :k].tolist()) for row, k in enumerate(counts)]

    @property
    def seats(self) -> IntArray:
        """The acting seat of each row."""
        return self._rows[:, arrays.T_SEAT].copy()

    def _fill_masks(self, out: npt.NDArray[np.int8]) -> None:
        arrays.masks(self._rows, self._legal_rows, out)

    def random_actions(self, rng: np.random.Generator) -> IntArray:
        """One uniformly random legal action index per game, drawn for all games at once (the
        same draws as the engine's vector makes)."""
        out = np.empty(self.n, dtype=np.int64)
        arrays.random_actions(self._rows, self._legal_rows, rng.random(self.n), out)
        return out

    def step(
        self, actions: Sequence[int] | IntArray
    ) -> tuple[IntArray, npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Plays ``actions[row]`` for each row's acting seat (see :meth:`VectorGames.step`)."""
        given = self._given(actions).astype(np.int64, copy=False)
        illegal = arrays.step(
            self.tables,
            self._rows,
            self._legal_rows,
            self._history,
            given,
            self._acted,
            self._over,
        )
        if illegal >= 0:
            raise IllegalIndex(
                f"game {illegal}: action index {int(given[illegal])} is not legal now"
            )
        acted = self._acted.copy()
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        done = self._over.astype(np.bool_)
        if done.any():
            keys = self._keys
            for row in np.flatnonzero(done).tolist():
                arrays.final(self.tables, self._rows[row], keys)
                rewards[row] = win_share_returns(keys[:, 0].tolist(), winners(keys.tolist()))
                self.finished_games += 1
                self._start(row)
        self.steps += self.n
        self._obs_fresh = False
        return acted, rewards, done
