"""Simulation: many games played by agents through the engine contract, then summarised.

:func:`play_game` plays one game with one agent per seat, each agent seeing only its seat's view.
The per-game reports (``disc_cover``, ``records``) turn many results into tables; ``cli`` wires
them to ``recordroom simulate``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from recordroom.engine.agents import Agent
from recordroom.engine.game import Game
from recordroom.engine.playout import LogEntry


@dataclass(frozen=True)
class Played:
    """One finished game."""

    seed: int
    result: dict[str, Any]
    log: tuple[LogEntry, ...]
    final_view: dict[str, Any]
    returns: tuple[float, ...] = ()
    """The contract's ``game.returns`` of the final state, one float per seat."""


def play_game(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None,
    agents: Sequence[Agent],
) -> Played:
    """Plays one game to the end; seats that must act choose in seat order."""
    if len(agents) != players:
        raise ValueError(f"{players} seats need {players} agents, got {len(agents)}")
    state = game.new_state(players, seed, options)
    log: list[LogEntry] = []
    limit = game.max_decisions(players, options)
    while state.active:
        if len(log) >= limit:
            raise RuntimeError(f"{game.info.name} seed {seed}: not over after {limit} actions")
        seat = min(state.active)
        legal = game.legal_actions(state, seat)
        action = agents[seat].choose(game.view(state, seat), legal)
        state = game.apply(state, seat, action)
        log.append(LogEntry(seat, action))
    return Played(seed, game.result(state), tuple(log), game.view(state, None), game.returns(state))


def play_many(
    game: Game,
    players: int,
    seeds: Sequence[int],
    options: Mapping[str, Any] | None,
    make_agents: Callable[[int], Sequence[Agent]],
) -> list[Played]:
    """One game per seed, with fresh agents made for each seed."""
    return [play_game(game, players, seed, options, make_agents(seed)) for seed in seeds]
