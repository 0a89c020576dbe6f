"""Playing games through the contract alone: random playouts and exact replays.

An action log is a list of ``{"seat": s, "action": {...}}`` entries, in the order they were
accepted. Together with the game name, player count, seed and options it is the whole record of a
game: :func:`replay` rebuilds the identical state from it, which is what the server stores and
what a replay shows.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from recordroom.engine.game import Action, Game, Seat


@dataclass(frozen=True)
class LogEntry:
    """One accepted action."""

    seat: Seat
    action: Action

    def to_json(self) -> dict[str, Any]:
        """The entry as stored in a log."""
        return {"seat": self.seat, "action": self.action}


def replay(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None,
    log: Iterable[Mapping[str, Any] | LogEntry],
) -> Any:
    """The state reached by applying every logged action to a new game."""
    state = game.new_state(players, seed, options)
    for entry in log:
        if isinstance(entry, LogEntry):
            seat, action = entry.seat, entry.action
        else:
            seat, action = entry["seat"], entry["action"]
        state = game.apply(state, seat, action)
    return state


def random_step(game: Game, state: Any, rng: random.Random) -> tuple[Seat, Action]:
    """A uniformly random active seat and one of its legal actions, uniformly."""
    seats = sorted(state.active)
    seat = seats[rng.randrange(len(seats))] if len(seats) > 1 else seats[0]
    actions = game.legal_actions(state, seat)
    return seat, actions[rng.randrange(len(actions))]


def random_playout(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    policy_seed: int | None = None,
    max_steps: int | None = None,
) -> tuple[Any, list[LogEntry]]:
    """Plays a game to its end with uniformly random choices; returns the final state and log.

    ``seed`` drives the game's own chance, ``policy_seed`` (default: ``seed``) the random players.
    Raises ``RuntimeError`` if the game is not over after ``max_steps`` actions (default: the
    game's declared maximum).
    """
    rng = random.Random(seed if policy_seed is None else policy_seed)
    limit = game.max_decisions(players, options) if max_steps is None else max_steps
    state = game.new_state(players, seed, options)
    log: list[LogEntry] = []
    while state.active:
        if len(log) >= limit:
            raise RuntimeError(f"{game.info.name}: not over after {limit} actions")
        seat, action = random_step(game, state, rng)
        state = game.apply(state, seat, action)
        log.append(LogEntry(seat, action))
    return state, log
