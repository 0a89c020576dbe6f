"""Decision times: a wrapper that times every choice an agent makes."""

from __future__ import annotations

import time

from recordroom.engine.agents import Agent
from recordroom.engine.game import Action, JSONDict


class TimedAgent:
    """Passes every choice to ``agent`` and keeps how long each real one took, in seconds.

    A forced move (one legal action) is passed on but not timed: it is no decision.
    """

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.times: list[float] = []

    def choose(self, view: JSONDict, legal_actions: tuple[Action, ...]) -> Action:
        """The wrapped agent's choice."""
        if len(legal_actions) == 1:
            return self.agent.choose(view, legal_actions)
        start = time.perf_counter()
        action = self.agent.choose(view, legal_actions)
        self.times.append(time.perf_counter() - start)
        return action
