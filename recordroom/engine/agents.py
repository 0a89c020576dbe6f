"""Agents: anything that picks an action from what one seat may see.

An agent is given exactly what a player at that seat has: ``game.view(state, seat)`` and that
seat's legal actions. It never sees the full state, so the server, the simulator and the RL
adapters can hand it any seat without leaking secrets. Games offer their own agents through
``game.agent(kind, seed)``; :class:`RandomAgent` works for every game. The :class:`Agent` protocol
itself is part of the contract (:mod:`.game`), so that arrows point one way: agents -> game.
"""

from __future__ import annotations

import random

from recordroom.engine.game import Action, Agent, JSONDict

__all__ = ["Agent", "RandomAgent"]


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: JSONDict, legal_actions: tuple[Action, ...]) -> Action:
        """A uniformly random legal action."""
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return legal_actions[self._rng.randrange(len(legal_actions))]
