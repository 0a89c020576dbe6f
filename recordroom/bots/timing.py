"""Decision times: a wrapper that times every choice an agent makes."""

from __future__ import annotations

import time

from recordroom.engine.agents import Agent
from recordroom.engine.game import Action, JSONDict


class TimedAgent:
    """Passes every choice to ``agent`` and keeps how long each one took, in seconds."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.times: list[float] = []

    def choose(self, view: JSONDict, legal_actions: tuple[Action, ...]) -> Action:
        """The wrapped agent's choice."""
        start = time.perf_counter()
        action = self.agent.choose(view, legal_actions)
        self.times.append(time.perf_counter() - start)
        return action
