"""Record Room for agents and researchers (the ``rl`` extra: ``pip install recordroom[rl]``).

- :func:`aec_env`, :func:`parallel_env`: PettingZoo envs of ``"disc-cover"`` and ``"records"``;
- :func:`gym_env`: a Gymnasium env of Records solo;
- :func:`openspiel_game`: a ``pyspiel.Game`` of either game;
- :class:`~recordroom.rl.vector.VectorGames`: many games advanced per call, for fast rollouts;

Observations come from a seat's view only, actions are indices in a fixed action space per game
(:mod:`recordroom.rl.spaces`); docs/rl.md has the layouts and the mapping.

Importing this package registers the games with the libraries of the extra that are installed:
Records solo with Gymnasium (``gymnasium.make("recordroom/RecordsSolo-v0")``) and both games with
OpenSpiel (``pyspiel.load_game("python_recordroom_records")``, ``..._disc_cover``).
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import Any

from recordroom.rl.spaces import ActionSpace, Encoder, action_space, encoder

if find_spec("gymnasium") is not None and find_spec("pettingzoo") is not None:
    from recordroom.rl import envs as envs  # registers recordroom/RecordsSolo-v0
if find_spec("pyspiel") is not None:
    from recordroom.rl import openspiel as openspiel  # registers python_recordroom_*


def aec_env(
    game: str, players: int, options: Any = None, seed: int | None = None, **kwargs: Any
) -> Any:
    """A PettingZoo ``AECEnv`` (see :mod:`recordroom.rl.envs`)."""
    from recordroom.rl.envs import aec_env as make

    return make(game, players, options, seed, **kwargs)


def parallel_env(
    game: str, players: int, options: Any = None, seed: int | None = None, **kwargs: Any
) -> Any:
    """A PettingZoo ``ParallelEnv`` (see :mod:`recordroom.rl.envs`)."""
    from recordroom.rl.envs import parallel_env as make

    return make(game, players, options, seed, **kwargs)


def gym_env(game: str = "records", options: Any = None, **kwargs: Any) -> Any:
    """A Gymnasium ``Env`` of Records solo (see :mod:`recordroom.rl.envs`)."""
    from recordroom.rl.envs import gym_env as make

    return make(game, options, **kwargs)


def openspiel_game(game: str, players: int, options: Any = None) -> Any:
    """A ``pyspiel.Game`` (see :mod:`recordroom.rl.openspiel`)."""
    from recordroom.rl.openspiel import openspiel_game as make

    return make(game, players, options)


__all__ = [
    "ActionSpace",
    "Encoder",
    "action_space",
    "aec_env",
    "encoder",
    "gym_env",
    "openspiel_game",
    "parallel_env",
]
