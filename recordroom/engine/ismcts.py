"""Information-set Monte Carlo tree search (single observer), for any game of the engine contract.

The agent plays one seat. It never sees the full state: at each decision it is given that seat's
view and legal actions, as every agent is. Each iteration of the search

1. asks the game for a *determinisation*: a full state consistent with everything the seat knows,
   the unseen parts (other hands, deck order, other seats' pending choices, private goals) drawn
   afresh (``game.determinize(view, seat, seed)``, the optional method of the contract);
2. walks down one tree shared by all determinisations, keyed by the actions taken, choosing among
   the children that are legal in this determinisation by UCB with availability counts (a child's
   exploration term counts the visits in which it *could* have been chosen, not all visits);
3. adds one new node, plays the rest of the game with a rollout policy (uniformly random unless
   given) or stops after ``rollout_depth`` decisions and asks an evaluator;
4. backs the rewards up, each node scoring the reward of the seat that acted into it; a finished
   game's rewards are the contract's ``game.returns(state)`` (each in [0, 1]).

Simultaneous choices are sequenced: when the searching seat is active it chooses first (its choice
cannot depend on choices it would not see), then the other active seats in seat order. The tree
therefore holds every seat's decisions, each maximising its own reward.

Budgets: ``iterations`` (a cap on iterations) and ``seconds`` (wall-clock per decision); whichever
ends first. With ``seconds=None`` the agent is deterministic for a given seed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from recordroom.engine.game import Action, Game, JSONDict, Seat

Rewards = Sequence[float]
RolloutPolicy = Callable[[Any, Seat, tuple[Action, ...], random.Random], Action]
"""Picks an action for a seat inside a simulation (it may read the determinised state)."""
Evaluator = Callable[[Any], Rewards]
"""Rewards in [0, 1] for every seat of an unfinished (or finished) state."""

ActionKey = tuple[Any, ...]


def action_key(action: Action) -> ActionKey:
    """A hashable key for a JSON-safe action dict."""
    return tuple(sorted((k, _hashable(v)) for k, v in action.items()))


def _hashable(value: Any) -> Any:
    if isinstance(value, dict):
        return action_key(value)
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    return value


class _Node:
    __slots__ = ("available", "children", "seat", "total", "visits")

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.visits = 0
        self.available = 1
        self.total = 0.0
        self.children: dict[tuple[Seat, ActionKey], _Node] = {}


class ISMCTSAgent:
    """Single-observer ISMCTS with UCB over availability counts (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        *,
        iterations: int | None = 1000,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout: RolloutPolicy | None = None,
        rollout_depth: int | None = None,
        evaluate: Evaluator | None = None,
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("ISMCTS needs an iteration budget, a time budget or both")
        if not hasattr(game, "determinize"):
            raise TypeError(f"{game.info.name} offers no determinize(view, seat, seed)")
        if rollout_depth is not None and evaluate is None:
            raise ValueError("a rollout depth needs an evaluator for the unfinished states")
        self.game = game
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.evaluate = evaluate
        self._rng = random.Random(seed)
        # Action keys by the action object's id, each with the action itself (kept alive, so an
        # id is never another's): games that hand out the same action objects (shared tables of
        # legal actions) are keyed once, not at every visit.
        self._keys: dict[int, tuple[Action, ActionKey]] = {}
        self.last_iterations = 0
        """How many iterations the last decision ran (for measurements)."""

    def choose(self, view: JSONDict, legal_actions: tuple[Action, ...]) -> Action:
        """The legal action most visited by the search from this view."""
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            self.last_iterations = 0
            return legal_actions[0]
        seat: Seat = view["seat"]
        determinize = self.game.determinize
        root = _Node(seat)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        cap = self.iterations
        done = 0
        while (cap is None or done < cap) and (deadline is None or time.perf_counter() < deadline):
            state = determinize(view, seat, self._rng.getrandbits(63))
            self._iterate(root, state, seat)
            done += 1
        self.last_iterations = done
        return self._best(root, seat, legal_actions)

    def _best(self, root: _Node, seat: Seat, legal: tuple[Action, ...]) -> Action:
        best = legal[0]
        best_score = (-1, -1.0)
        for action in legal:
            child = root.children.get((seat, action_key(action)))
            if child is None:
                continue
            score = (child.visits, child.total / max(1, child.visits))
            if score > best_score:
                best, best_score = action, score
        return best

    def _actor(self, state: Any, observer: Seat) -> Seat:
        active = state.active
        return observer if observer in active else min(active)

    def _iterate(self, root: _Node, state: Any, observer: Seat) -> None:
        game = self.game
        rng = self._rng
        node = root
        path = [root]
        log_c = self.exploration
        keys = self._keys
        if len(keys) > 65536:
            keys.clear()
        while state.active:
            actor = self._actor(state, observer)
            legal = game.legal_actions(state, actor)
            children = node.children
            untried: list[tuple[ActionKey, Action]] = []
            best: _Node | None = None
            best_action: Action | None = None
            best_ucb = -1.0
            for action in legal:
                known = keys.get(id(action))
                if known is not None and known[0] is action:
                    key = known[1]
                else:
                    key = action_key(action)
                    keys[id(action)] = (action, key)
                child = children.get((actor, key))
                if child is None:
                    untried.append((key, action))
                    continue
                child.available += 1
                if untried:
                    continue
                ucb = child.total / child.visits + log_c * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if ucb > best_ucb:
                    best, best_action, best_ucb = child, action, ucb
            if untried:
                key, action = untried[rng.randrange(len(untried))]
                child = _Node(actor)
                children[(actor, key)] = child
                state = game.apply(state, actor, action)
                path.append(child)
                break
            assert best is not None and best_action is not None  # legal is never empty
            state = game.apply(state, actor, best_action)
            node = best
            path.append(node)
        rewards = self._playout(state)
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.seat]

    def _playout(self, state: Any) -> Rewards:
        game = self.game
        rng = self._rng
        rollout = self.rollout
        depth = self.rollout_depth
        steps = 0
        while state.active:
            if depth is not None and steps >= depth:
                assert self.evaluate is not None  # checked in __init__
                return self.evaluate(state)
            active = state.active
            seat = min(active) if len(active) == 1 else sorted(active)[rng.randrange(len(active))]
            legal = game.legal_actions(state, seat)
            if rollout is None:
                action = legal[rng.randrange(len(legal))]
            else:
                action = rollout(state, seat, legal, rng)
            state = game.apply(state, seat, action)
            steps += 1
        if self.evaluate is not None:
            return self.evaluate(state)
        return game.returns(state)
