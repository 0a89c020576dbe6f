"""PettingZoo and Gymnasium faces of the engine: :func:`aec_env`, :func:`parallel_env`, gym_env.

Agents are ``"seat_0"`` ... ``"seat_{n-1}"``. Each agent observes
``{"observation": float32 vector, "action_mask": int8 vector}``: the vector is the seat's view
encoded by :mod:`recordroom.rl.spaces` (never the full state), the mask marks its legal actions
in the fixed action space of the game, whose last index is ``wait`` (legal only for a seat that
has nothing to do now; it only arises in the parallel env). Rewards are the contract's
``game.returns(state)``: zero on every step until the game ends, then each seat's return.

- AEC: the acting agent is the lowest active seat; a simultaneous vote or pick is taken one seat
  after another, each choice hidden from the others until all are in (as on the table).
- Parallel: every live agent gives an action each step; the seats that must act apply theirs
  (simultaneous choices are one parallel step), the others must give ``wait``.
- Gymnasium: Records solo, one agent.

Bad input: an unknown game, player count or option raises ``BadOptions`` (a ``ValueError``)
naming it. An action outside the agent's mask is never played. With ``illegal_action="terminate"``
(the default, the convention of PettingZoo's classic games and its ``TerminateIllegalWrapper``)
the episode ends at once: the offending agent gets reward -1, the others 0, every agent is
terminated and the offender's ``info["illegal_action"]`` says what was wrong; the game is left as
it was. With ``illegal_action="raise"`` the step raises :class:`IllegalIndex` (a ``ValueError``)
and changes nothing.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces as gspaces
from pettingzoo import AECEnv, ParallelEnv

from recordroom.engine.errors import BadOptions
from recordroom.engine.game import Action, Game
from recordroom.games import load
from recordroom.rl.spaces import (
    ActionSpace,
    Encoder,
    FloatArray,
    MaskArray,
    action_space,
    check_game,
    check_options,
    encoder,
)

OBS_LOW, OBS_HIGH = -8.0, 8.0
"""Bounds of every observation entry (entries are counts and scores scaled to about 0..1)."""

WAIT = {"type": "wait"}
"""The parallel env's action for a seat that has nothing to do (the last index of every space)."""


class IllegalIndex(ValueError):
    """An action index outside the agent's action mask."""

    code = "illegal_action"


ILLEGAL_MODES = ("terminate", "raise")


def _check_modes(render_mode: str | None, illegal_action: str) -> None:
    if render_mode not in (None, "ansi"):
        raise BadOptions(f"recordroom.rl: render_mode {render_mode!r}; only 'ansi'")
    if illegal_action not in ILLEGAL_MODES:
        raise BadOptions(
            f"recordroom.rl: illegal_action {illegal_action!r}; one of {', '.join(ILLEGAL_MODES)}"
        )


class SeatGame:
    """One game seen through indices: the state, its encoder, the action space with ``wait``."""

    def __init__(self, game: str, players: int, options: Mapping[str, Any] | None) -> None:
        check_game(game, players)
        check_options(game, players, options)  # refuses a bad option at once, naming it
        self.game: Game = load(game)
        self.players = players
        self.options = dict(options or {})
        self.space: ActionSpace = action_space(game, self.options)
        self.wait = self.space.n
        self.n_actions = self.space.n + 1
        self.encoder: Encoder = encoder(game, players, self.options)
        self.state: Any = None

    def new(self, seed: int) -> None:
        """A new game from ``seed``."""
        self.state = self.game.new_state(self.players, seed, self.options)

    def legal(self, seat: int) -> tuple[Action, ...]:
        """The seat's legal engine actions."""
        return self.game.legal_actions(self.state, seat)

    def mask(self, seat: int) -> MaskArray:
        """The seat's action mask; only ``wait`` when it need not act."""
        out = np.zeros(self.n_actions, dtype=np.int8)
        legal = self.legal(seat)
        if legal:
            out[self.space.indices(legal)] = 1
        else:
            out[self.wait] = 1
        return out

    def observation(self, seat: int) -> FloatArray:
        """The seat's observation vector, from its view alone."""
        vec = self.encoder.encode(self.game.view(self.state, seat))
        return np.clip(vec, OBS_LOW, OBS_HIGH, out=vec)

    def observe(self, seat: int) -> dict[str, Any]:
        """``{"observation": ..., "action_mask": ...}``."""
        return {"observation": self.observation(seat), "action_mask": self.mask(seat)}

    def action_of(self, seat: int, index: Any) -> Action | None:
        """The engine action of an index (None for a legal ``wait``); IllegalIndex otherwise."""
        # An integer (Python's or numpy's, a 0-d integer array too), never a bool or a float:
        # True or 2.0 taken as 1 or 2 would be a silent change of what was asked.
        i = None if isinstance(index, bool | np.bool_) else _integer(index)
        if i is None:
            raise IllegalIndex(f"seat_{seat}: action {index!r} is not an action index")
        if not 0 <= i < self.n_actions:
            raise IllegalIndex(
                f"seat_{seat}: action index {index!r} is outside 0..{self.n_actions - 1}"
            )
        legal = self.legal(seat)
        if i == self.wait:
            if legal:
                raise IllegalIndex(f"seat_{seat}: may not wait, it must act now")
            return None
        action = self.space.actions[i]
        if action not in legal:
            raise IllegalIndex(
                f"seat_{seat}: action index {i} ({action}) is not legal now (see the action mask)"
            )
        return action

    def over(self) -> bool:
        """The game has ended."""
        return bool(self.game.is_over(self.state))

    def returns(self) -> tuple[float, ...]:
        """The contract's returns (zeros until over)."""
        return tuple(self.game.returns(self.state))

    def render(self) -> str:
        """The public table as a few lines of text."""
        return render_text(self.game.view(self.state, None))


def _integer(value: Any) -> int | None:
    """``value`` as an int when it is an integer (a numpy one, or a 0-d integer array, too)."""
    try:
        return operator.index(value)
    except TypeError:
        return None


def render_text(view: Mapping[str, Any]) -> str:
    """A short text of a public view (either game)."""
    lines = []
    if view.get("game") == "records":
        lines.append(
            f"Records, {view['players']} players, phase {view['phase']}, week {view['week']}, "
            f"round {view['round']}, deck {view['deck']}"
        )
        goals = ", ".join(g or "-" for g in view["public_goals"])
        lines.append(f"public goals: {goals}")
        for seat, board in enumerate(view["boards"]):
            lines.append(
                f"seat_{seat}: score {board['score']}, fails {board['fails']}, "
                f"hand {view['hand_sizes'][seat]}, crew {sum(c is not None for c in board['crew'])}"
            )
    else:
        lines.append(
            f"Disc Cover ({view['variant']}), {view['players']} players, turn {view['turn']}/"
            f"{view['turns']}, phase {view['phase']}"
        )
        for record in view["records"]:
            lines.append(f"card {record['card']}: sleeve {record['sleeve']['id']}")
        if "points" in view:
            lines.append(f"points: {view['points']}")
        else:
            lines.append(f"team score: {view['score']}")
    waiting = sorted(view.get("waiting") or view.get("waiting_for") or [])
    lines.append(f"waiting for: {', '.join(f'seat_{s}' for s in waiting)}")
    return "\n".join(lines)


def _spaces(table: SeatGame) -> tuple[gspaces.Dict, gspaces.Discrete]:
    obs = gspaces.Dict(
        {
            "observation": gspaces.Box(
                OBS_LOW, OBS_HIGH, shape=(table.encoder.size,), dtype=np.float32
            ),
            "action_mask": gspaces.Box(0, 1, shape=(table.n_actions,), dtype=np.int8),
        }
    )
    return obs, gspaces.Discrete(table.n_actions)


def check_seed(seed: Any) -> int | None:
    """The seed itself (``None`` or a non-negative integer); ``BadOptions`` naming it otherwise."""
    if seed is None:
        return None
    value = None if isinstance(seed, bool | np.bool_) else _integer(seed)
    if value is None or value < 0:
        raise BadOptions(f"recordroom.rl: a seed is None or an integer >= 0, got {seed!r}")
    return value


class _Seeds:
    """Game seeds: the one given to ``reset``, else the next from a generator seeded by the
    last seed given (to ``reset``, or else to the env)."""

    def __init__(self, seed: Any) -> None:
        self.first = check_seed(seed)
        self.rng = random.Random(self.first)

    def next(self, seed: Any) -> int:
        given = check_seed(seed)
        if given is not None:
            self.first = None  # a seed given to reset outranks the env's own
            self.rng = random.Random(given)
            return given
        if self.first is not None:
            first, self.first = self.first, None
            self.rng = random.Random(first)
            return first
        return self.rng.randrange(2**31)


class RecordRoomAEC(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC env of one game (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": ["ansi"],
        "name": "recordroom_aec_v0",
        "is_parallelizable": True,
    }
    """Each env says whether PettingZoo's ``aec_to_parallel`` can run it (see ``__init__``)."""

    def __init__(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
    ) -> None:
        super().__init__()
        _check_modes(render_mode, illegal_action)
        self.illegal_action = illegal_action
        self.table = SeatGame(game, players, options)
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{i}" for i in range(players)]
        obs, act = _spaces(self.table)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs)
        self.action_spaces = dict.fromkeys(self.possible_agents, act)
        self._seeds = _Seeds(seed)
        self.metadata = {
            **self.metadata,
            "name": f"recordroom_{game.replace('-', '_')}_v0",
            # aec_to_parallel needs the agents to act in turn, one step each. Disc Cover's do;
            # in Records a seat marks a card and its bonuses in several steps of its own (use
            # parallel_env for Records).
            "is_parallelizable": game == "disc-cover",
        }

    def observation_space(self, agent: str) -> gspaces.Space[Any]:
        """The agent's observation space."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gspaces.Space[Any]:
        """The agent's action space."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game (``seed``: the game's seed; without one, the next of the env's seeds)."""
        self.table.new(self._seeds.next(seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        active = self.table.state.active
        return f"seat_{min(active)}" if active else self.possible_agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation and action mask."""
        return self.table.observe(int(agent.split("_")[1]))

    def step(self, action: Any) -> None:
        """The selected agent plays ``action`` (an index under its mask)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = int(agent.split("_")[1])
        self._cumulative_rewards[agent] = 0.0
        try:
            engine_action = self.table.action_of(seat, action)
            if engine_action is None:
                raise IllegalIndex(f"{agent}: wait is not an action in the AEC env")
        except IllegalIndex as error:
            if self.illegal_action == "raise":
                raise
            for a in self.agents:
                self.rewards[a] = -1.0 if a == agent else 0.0
                self.terminations[a] = True
            self.infos[agent] = {"illegal_action": str(error)}
            self._accumulate_rewards()
            return
        table = self.table
        table.state = table.game.apply(table.state, seat, engine_action)
        if table.over():
            for a, value in zip(self.agents, table.returns(), strict=True):
                self.rewards[a] = value
                self.terminations[a] = True
        else:
            self._clear_rewards()
        self.agent_selection = self._next_agent()
        self._accumulate_rewards()

    def render(self) -> str:
        """The public table as text."""
        return self.table.render()

    def close(self) -> None:
        """Nothing to release."""


class RecordRoomParallel(ParallelEnv):  # type: ignore[misc]
    """A PettingZoo Parallel env of one game (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": ["ansi"],
        "name": "recordroom_parallel_v0",
    }

    def __init__(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
    ) -> None:
        _check_modes(render_mode, illegal_action)
        self.illegal_action = illegal_action
        self.table = SeatGame(game, players, options)
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{i}" for i in range(players)]
        self.agents: list[str] = []
        obs, act = _spaces(self.table)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs)
        self.action_spaces = dict.fromkeys(self.possible_agents, act)
        self._seeds = _Seeds(seed)
        self.metadata = {**self.metadata, "name": f"recordroom_{game.replace('-', '_')}_v0"}

    def observation_space(self, agent: str) -> gspaces.Space[Any]:
        """The agent's observation space."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gspaces.Space[Any]:
        """The agent's action space."""
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """A new game; every agent's observation and an empty info."""
        self.table.new(self._seeds.next(seed))
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, Any]:
        return {a: self.table.observe(i) for i, a in enumerate(self.agents)}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, Any],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Every live agent's action; the seats that must act apply theirs, in seat order."""
        table = self.table
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise IllegalIndex(f"no action for {', '.join(missing)}")
        chosen: list[tuple[int, Action]] = []
        illegal: dict[str, str] = {}
        for seat, agent in enumerate(self.agents):
            try:
                action = table.action_of(seat, actions[agent])
            except IllegalIndex as error:
                if self.illegal_action == "raise":
                    raise
                illegal[agent] = str(error)
                continue
            if action is not None:
                chosen.append((seat, action))
        if illegal:
            agents, self.agents = self.agents, []
            return (
                {a: table.observe(i) for i, a in enumerate(agents)},
                {a: -1.0 if a in illegal else 0.0 for a in agents},
                dict.fromkeys(agents, True),
                dict.fromkeys(agents, False),
                {a: {"illegal_action": illegal[a]} if a in illegal else {} for a in agents},
            )
        state = table.state
        for seat, action in chosen:
            state = table.game.apply(state, seat, action)
        table.state = state
        over = table.over()
        returns = table.returns()
        rewards = {a: returns[i] for i, a in enumerate(self.agents)}
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        observations = self._observations()
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str:
        """The public table as text."""
        return self.table.render()

    def close(self) -> None:
        """Nothing to release."""


class RecordsSoloEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """Records solo as a Gymnasium env (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
    ) -> None:
        _check_modes(render_mode, illegal_action)
        self.table = SeatGame("records", 1, options)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.observation_space, self.action_space = _spaces(self.table)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new solo game (``seed``: the game's seed)."""
        given = check_seed(seed)
        super().reset(seed=given)
        self.table.new(given if given is not None else int(self.np_random.integers(2**31)))
        return self.table.observe(0), {}

    def _started(self, what: str) -> None:
        if self.table.state is None:
            raise gymnasium.error.ResetNeeded(f"recordroom.rl: call reset() before {what}()")

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Plays the action index; reward: the solo return (score / 100) when the game ends."""
        self._started("step")
        table = self.table
        try:
            engine_action = table.action_of(0, action)
            if engine_action is None:
                raise IllegalIndex("seat_0: wait is not an action in solo")
        except IllegalIndex as error:
            if self.illegal_action == "raise":
                raise
            return table.observe(0), -1.0, True, False, {"illegal_action": str(error)}
        table.state = table.game.apply(table.state, 0, engine_action)
        over = table.over()
        return table.observe(0), table.returns()[0] if over else 0.0, over, False, {}

    def render(self) -> str:
        """The table as text."""
        self._started("render")
        return self.table.render()


def aec_env(
    game: str,
    players: int,
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
    illegal_action: str = "terminate",
) -> RecordRoomAEC:
    """A PettingZoo AEC env of ``"disc-cover"`` or ``"records"``."""
    return RecordRoomAEC(game, players, options, seed, render_mode, illegal_action)


def parallel_env(
    game: str,
    players: int,
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
    illegal_action: str = "terminate",
) -> RecordRoomParallel:
    """A PettingZoo Parallel env of ``"disc-cover"`` or ``"records"``."""
    return RecordRoomParallel(game, players, options, seed, render_mode, illegal_action)


GYM_ID = "recordroom/RecordsSolo-v0"
"""The Gymnasium id of Records solo (registered when :mod:`recordroom.rl` is imported)."""

if GYM_ID not in gymnasium.registry:
    gymnasium.register(GYM_ID, entry_point=f"{__name__}:RecordsSoloEnv", disable_env_checker=True)


def gym_env(
    game: str = "records",
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    illegal_action: str = "terminate",
) -> RecordsSoloEnv:
    """A Gymnasium env of Records solo (the only one-player game), made by ``gymnasium.make``
    (so it has its spec) and handed out without the wrappers ``make`` puts around it.

    ``gymnasium.make(GYM_ID)`` gives the same env inside those wrappers. This one is what
    ``check_env`` wants to be handed (it warns about a wrapped env, and about one without a
    spec), and it refuses a step or a render before the first reset itself.
    """
    if game != "records":
        raise BadOptions(f"recordroom.rl: gym_env is Records solo; got game {game!r}")
    _check_modes(render_mode, illegal_action)
    made = gymnasium.make(
        GYM_ID, options=options, render_mode=render_mode, illegal_action=illegal_action
    )
    env = made.unwrapped
    assert isinstance(env, RecordsSoloEnv)
    return env
