"""The game-agnostic engine: the Game contract, its errors, seeded chance, playouts and replays.

The engine imports no game. Games implement :class:`~recordroom.engine.game.Game`; everything
else (server, bots, simulations, RL adapters) talks to games only through it.
"""

from recordroom.engine.agents import Agent, RandomAgent
from recordroom.engine.errors import (
    BadOptions,
    BadState,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    RulesError,
)
from recordroom.engine.game import Action, Game, GameInfo, GameState, JSONDict, Seat
from recordroom.engine.playout import LogEntry, random_playout, random_step, replay

__all__ = [
    "Action",
    "Agent",
    "BadOptions",
    "BadState",
    "Game",
    "GameInfo",
    "GameOver",
    "GameState",
    "IllegalAction",
    "JSONDict",
    "LogEntry",
    "MalformedAction",
    "NotYourTurn",
    "RandomAgent",
    "RulesError",
    "Seat",
    "random_playout",
    "random_step",
    "replay",
]
