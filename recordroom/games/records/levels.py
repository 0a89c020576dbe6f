"""The Records bots a table can seat, by level: ``easy``, ``normal`` and ``hard``.

- ``easy``: the greedy agent, but one choice in three is a random legal action;
- ``normal``: the greedy agent (:mod:`.bots`);
- ``hard``: information-set MCTS (:mod:`recordroom.engine.ismcts`) with one second a decision. Its
  simulations play a fast rollout policy on the determinised state (mark a card rather than
  fail it, claim a goal when possible, otherwise at random) for :data:`ROLLOUT_DEPTH` decisions,
  then judge every board with the greedy agent's board value.

``ismcts_agent`` builds the search bot with any budget (the simulator and the tests use small,
deterministic iteration budgets).
"""

from __future__ import annotations

import math
import random
from typing import Any

from recordroom.engine.agents import Agent
from recordroom.engine.game import Action, Game, JSONDict
from recordroom.engine.ismcts import ISMCTSAgent
from recordroom.games.records.bots import GreedyAgent, value
from recordroom.games.records.edition import load_edition
from recordroom.games.records.kinds import Phase
from recordroom.games.records.results import returns
from recordroom.games.records.state import State

LEVELS = ("easy", "normal", "hard")
HARD_SECONDS = 1.0
ROLLOUT_DEPTH = 24
"""Decisions a simulation plays past the tree before the boards are judged."""
VALUE_SCALE = 6.0
"""Board-value lead (in points) that the evaluator reads as a 73% chance of winning."""
EASY_NOISE = 1 / 3


class NoisyAgent:
    """Plays like ``agent`` except that a share ``noise`` of its choices are random."""

    def __init__(self, agent: Agent, noise: float, seed: int = 0) -> None:
        self.agent = agent
        self.noise = noise
        self._rng = random.Random(seed ^ 0x5EED)

    def choose(self, view: JSONDict, legal_actions: tuple[Action, ...]) -> Action:
        """A random legal action now and then, otherwise the wrapped agent's choice."""
        if len(legal_actions) > 1 and self._rng.random() < self.noise:
            return legal_actions[self._rng.randrange(len(legal_actions))]
        return self.agent.choose(view, legal_actions)


def rollout_policy(
    state: State, seat: int, legal: tuple[Action, ...], rng: random.Random
) -> Action:
    """Fast play inside a simulation: claim when possible, mark rather than fail, done when done,
    never undo, else random."""
    first = legal[0]
    kind = first["type"]
    if kind in ("claim", "done"):
        return first
    if legal[-1]["type"] == "undo":  # the search never takes its own marks back
        legal = legal[:-1]
    if kind == "mark" and len(legal) > 1:
        return legal[rng.randrange(len(legal) - 1)]  # the last one is the fail track
    return legal[rng.randrange(len(legal))]


def evaluate(state: State) -> list[float]:
    """Rewards in [0, 1]: the result once over, otherwise each board's value against the best."""
    players = state.players
    if state.phase == Phase.OVER:
        return list(returns(state))
    ed = load_edition(state.edition)
    values = [value(ed, b) for b in state.boards]
    if players == 1:
        return [1.0 - 1.0 / (1.0 + max(0.0, values[0]) / 40.0)]
    out = []
    for seat, mine in enumerate(values):
        best_other = max(v for i, v in enumerate(values) if i != seat)
        out.append(1.0 / (1.0 + math.exp(-(mine - best_other) / VALUE_SCALE)))
    return out


def ismcts_agent(
    game: Game,
    seed: int = 0,
    *,
    iterations: int | None = None,
    seconds: float | None = HARD_SECONDS,
) -> ISMCTSAgent:
    """The Records search bot with the given budget."""
    return ISMCTSAgent(
        game,
        seed,
        iterations=iterations,
        seconds=seconds,
        rollout=rollout_policy,
        rollout_depth=ROLLOUT_DEPTH,
        evaluate=evaluate,
    )


def level_agent(game: Game, level: str, seed: int = 0, **budget: Any) -> Agent:
    """The agent of a level; ``KeyError`` for an unknown one."""
    if level == "easy":
        return NoisyAgent(GreedyAgent(seed), EASY_NOISE, seed)
    if level == "normal":
        return GreedyAgent(seed)
    if level == "hard":
        return ismcts_agent(game, seed, **budget)
    raise KeyError(f"records: unknown level {level!r}; levels: {', '.join(LEVELS)}")
