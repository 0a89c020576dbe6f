"""Both games as OpenSpiel python games (``python_recordroom_disc_cover`` and ``_records``).

``openspiel_game("records", 2)`` (or ``pyspiel.load_game("python_recordroom_records",
{"players": 2})`` once this module is imported) gives a ``pyspiel.Game``:

- chance nodes draw whatever the engine draws: the first one the seed of the deal (one of
  ``DEALS``, 1,000, equally likely seeds), and a later one before every move that draws from a
  hidden pile (see :func:`_draws`): Disc Cover's four sleeves of a new turn and its tie-break
  draw, Records' cards and goals drawn from the deck and the goal deck and each reshuffled discard
  pile. Such a node's outcome, again one of ``DEALS`` equally likely seeds, reshuffles the
  undealt part of the piles (which no seat has seen) and seeds the engine's generator, then the
  move is applied: the draw is made at that node, not at the deal (see :func:`_redraw`);
- a node where two or more seats must choose (a vote, a draft pick, a goal claim) is a
  simultaneous node; a seat with nothing to do there has the single action ``wait``; a node where
  one seat acts is a plain node of that player (Records solo has only those, so its game type is
  sequential and OpenSpiel's MCTS runs on it; ``pyspiel.convert_to_turn_based`` makes the others
  sequential too);
- actions are the indices of :func:`recordroom.rl.spaces.action_space`, ``wait`` the last;
- returns are the contract's ``game.returns`` (each in [0, 1]; a terminal reward model);
- observation and information-state tensors are the seat's view encoded as in the envs; the
  information-state string adds the seat's own past actions to the observation string.

Bad input: an unknown game, player count or option raises ``BadOptions`` naming it.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import orjson
import pyspiel

from recordroom.engine.errors import BadOptions
from recordroom.rl.envs import IllegalIndex, SeatGame
from recordroom.rl.spaces import check_game, check_options

DEALS = 1000
"""How many equally likely seeds a chance node draws from (the deal, and every later draw)."""

NAMES = {"disc-cover": "python_recordroom_disc_cover", "records": "python_recordroom_records"}
_DEFAULTS: dict[str, dict[str, Any]] = {
    "disc-cover": {"players": 4, "variant": "cooperative"},
    "records": {"players": 2, "edition": "standard"},
}
_PLAYERS = {"disc-cover": (3, 8), "records": (1, 6)}


def _game_type(game: str, players: int = 2) -> Any:
    """The registered type; a one-player game (Records solo) has no simultaneous node."""
    low, high = _PLAYERS[game]
    dynamics = pyspiel.GameType.Dynamics
    return pyspiel.GameType(
        short_name=NAMES[game],
        long_name=f"Record Room {game} (python)",
        dynamics=dynamics.SEQUENTIAL if players == 1 else dynamics.SIMULTANEOUS,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS[game],
    )


def _options(game: str, params: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in params.items() if k != "players"}


class RecordRoomGame(pyspiel.Game):  # type: ignore[misc]
    """A Record Room game for OpenSpiel (see the module docstring)."""

    game_name = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        name = self.game_name
        merged = {**_DEFAULTS[name], **(params or {})}
        players = int(merged["players"])
        self.table = SeatGame(name, players, _options(name, merged))
        table = self.table
        super().__init__(
            _game_type(name, players),
            pyspiel.GameInfo(
                num_distinct_actions=table.n_actions,
                max_chance_outcomes=DEALS,
                num_players=players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=None,
                # every move may be preceded by a chance node (a draw), and the deal comes first
                max_game_length=2 * table.game.max_decisions(players, table.options) + 1,
            ),
            merged,
        )

    def new_initial_state(self) -> RecordRoomState:
        """A state before the deal (a chance node)."""
        return RecordRoomState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> RecordRoomObserver:
        """An observer of one seat's view (tensor and string)."""
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return RecordRoomObserver(self.table, iig_obs_type, params)


class DiscCoverGame(RecordRoomGame):
    """``python_recordroom_disc_cover``."""

    game_name = "disc-cover"


class RecordsGame(RecordRoomGame):
    """``python_recordroom_records``."""

    game_name = "records"


class _Shared:
    """A value that copies of a state share: it is never changed, only replaced."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class RecordRoomState(pyspiel.State):  # type: ignore[misc]
    """A position: before the deal, or an engine state.

    OpenSpiel clones states by deep copy; engine states are never changed in place (``apply``
    returns a new one), so clones share them instead of copying them.
    """

    def __init__(self, game: RecordRoomGame) -> None:
        super().__init__(game)
        self._shared_table = _Shared(game.table)
        self._engine = _Shared(None)
        self._waiting = _Shared(None)
        """A move that draws from a hidden pile: (state before it, its (seat, index) pairs)."""
        self.own_actions: tuple[tuple[int, ...], ...] = ((),) * game.table.players

    @property
    def _table(self) -> SeatGame:
        table: SeatGame = self._shared_table.value
        return table

    @property
    def engine_state(self) -> Any:
        """The engine state (None before the deal)."""
        return self._engine.value

    @engine_state.setter
    def engine_state(self, value: Any) -> None:
        self._engine = _Shared(value)

    def current_player(self) -> int:
        """CHANCE before the deal, TERMINAL once over, SIMULTANEOUS when 2+ seats must act."""
        if self.engine_state is None or self._waiting.value is not None:
            return int(pyspiel.PlayerId.CHANCE)
        active = self.engine_state.active
        if not active:
            return int(pyspiel.PlayerId.TERMINAL)
        if len(active) > 1:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return int(min(active))

    def _legal_actions(self, player: int) -> list[int]:
        table = self._table
        if player < 0:
            # Asked of a simultaneous node as a whole: OpenSpiel's flat joint actions, one per
            # combination of the seats' choices (see _joint). No other node has them.
            if player != pyspiel.PlayerId.SIMULTANEOUS or self.current_player() != player:
                return []
            return list(range(math.prod(len(self._legal_actions(p)) for p in range(table.players))))
        legal = table.game.legal_actions(self.engine_state, player)
        if not legal:
            return [table.wait] if len(self.engine_state.active) > 1 else []
        return sorted(table.space.indices(legal))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The seeds of the deal or of the draw, equally likely."""
        return [(seed, 1.0 / DEALS) for seed in range(DEALS)]

    def _apply_action(self, action: int) -> None:
        table = self._table
        if self.current_player() == pyspiel.PlayerId.CHANCE:
            if not 0 <= action < DEALS:
                raise IllegalIndex(f"chance outcome {action!r} is outside 0..{DEALS - 1}")
        elif self.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
            self._apply_actions(self._joint(action))
            return
        else:
            self._check(self.current_player(), action)
        if self.engine_state is None:
            self.engine_state = table.game.new_state(table.players, int(action), table.options)
            return
        waiting = self._waiting.value
        if waiting is not None:
            before, moves = waiting
            self._waiting = _Shared(None)
            self.engine_state = _play(table, _redraw(table, before, int(action)), moves)
            return
        self._move(((min(self.engine_state.active), int(action)),))

    def _apply_actions(self, actions: list[int]) -> None:
        players = self._table.players
        if len(actions) != players:
            raise IllegalIndex(f"{players} players need {players} actions, got {len(actions)}")
        for player, action in enumerate(actions):
            self._check(player, action)
        self._move(tuple((seat, int(actions[seat])) for seat in sorted(self.engine_state.active)))

    def _joint(self, flat: int) -> list[int]:
        """The seats' actions of a flat joint action, as OpenSpiel numbers them: the first
        seat's choice is the lowest digit, each seat's digit counting its legal actions."""
        total = len(self._legal_actions(pyspiel.PlayerId.SIMULTANEOUS))
        if not 0 <= flat < total:
            raise IllegalIndex(
                f"{NAMES[self._table.game.info.name]}: joint action {flat!r} is outside "
                f"0..{total - 1} at this simultaneous node"
            )
        actions = []
        for player in range(self._table.players):
            legal = self._legal_actions(player)
            actions.append(legal[flat % len(legal)])
            flat //= len(legal)
        return actions

    def _check(self, player: int, action: int) -> None:
        """IllegalIndex, before anything changes, for an action the player may not take now."""
        legal = self._legal_actions(player)
        if action not in legal:
            wait = self._table.wait
            what = "wait" if action == wait else f"action index {action!r}"
            raise IllegalIndex(
                f"{NAMES[self._table.game.info.name]}: player {player} may not take {what} now "
                f"(legal: {', '.join('wait' if a == wait else str(a) for a in legal)})"
            )

    def _move(self, moves: tuple[tuple[int, int], ...]) -> None:
        """Plays the moves, or, when they draw from a hidden pile, waits for the draw's node."""
        table = self._table
        before = self.engine_state
        after = _play(table, before, moves)
        if _draws(table.game.info.name, before, after):
            self._waiting = _Shared((before, moves))
        else:
            self.engine_state = after
        own = list(self.own_actions)
        for seat, index in moves:
            own[seat] = (*own[seat], index)
        self.own_actions = tuple(own)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            what = "deal" if self.engine_state is None else "draw"
            return f"{what} seed {action}"
        if action == self._table.wait:
            return "wait"
        return json.dumps(self._table.space.actions[action], sort_keys=True)

    def is_terminal(self) -> bool:
        """The game is over."""
        return (
            self.engine_state is not None
            and self._waiting.value is None
            and not self.engine_state.active
        )

    def returns(self) -> list[float]:
        """The contract's returns (zeros until over)."""
        if self.engine_state is None:
            return [0.0] * self._table.players
        return list(self._table.game.returns(self.engine_state))

    def view(self, player: int) -> dict[str, Any]:
        """The seat's view (empty before the deal)."""
        if self.engine_state is None:
            return {}
        return dict(self._table.game.view(self.engine_state, player))

    def __str__(self) -> str:
        if self.engine_state is None:
            return "before the deal"
        return str(self._table.game.dumps(self.engine_state))


def _play(table: SeatGame, state: Any, moves: Sequence[tuple[int, int]]) -> Any:
    """The engine state after each (seat, action index) in turn."""
    for seat, index in moves:
        state = table.game.apply(state, seat, table.space.actions[index])
    return state


def _draws(game: str, before: Any, after: Any) -> bool:
    """Whether going from ``before`` to ``after`` drew from a pile no seat has seen.

    The engine's generator moved (Records: a discard pile reshuffled; Disc Cover: a tie drawn), or
    cards were taken from a deck: Disc Cover's next turn is dealt its four sleeves (not after the
    last turn), Records' deck or goal deck shrank.
    """
    if before.rng != after.rng:
        return True
    if game == "disc-cover":
        return bool(after.turn != before.turn and after.active)
    return len(after.deck) < len(before.deck) or len(after.goal_deck) < len(before.goal_deck)


def _redraw(table: SeatGame, state: Any, seed: int) -> Any:
    """``state`` with its unseen piles reshuffled and its generator seeded by ``seed``.

    Only what no seat has seen changes (``test_a_draw_changes_no_view`` holds it): the order of
    the cards not yet dealt (Disc Cover: the deck after this turn's four sleeves; Records: the
    deck and the goal deck) and the generator the engine shuffles discard piles and draws ties
    with. The state goes through the engine's own ``dumps``/``loads``.
    """
    data = orjson.loads(table.game.dumps(state))
    rng = random.Random(seed)
    if table.game.info.name == "disc-cover":
        dealt = 4 * (data["turn"] + 1)
        rest = data["deck"][dealt:]
        rng.shuffle(rest)
        data["deck"][dealt:] = rest
    else:
        rng.shuffle(data["deck"])
        rng.shuffle(data["goal_deck"])
    data["rng"] = rng.getrandbits(63)
    return table.game.loads(orjson.dumps(data).decode())


class RecordRoomObserver:
    """OpenSpiel's PyObserver of one seat's view: a tensor (the envs' encoding) and a string."""

    def __init__(self, table: SeatGame, iig_obs_type: Any, params: Mapping[str, Any] | None):
        if params:
            raise BadOptions(f"recordroom.rl: observer parameters are not supported: {params}")
        self.table = table
        self.iig_obs_type = iig_obs_type
        self.tensor = np.zeros(table.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RecordRoomState, player: int) -> None:
        """The tensor of ``state`` seen by ``player``."""
        if state.engine_state is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self.table.encoder.encode(self.table.game.view(state.engine_state, player))

    def string_from(self, state: RecordRoomState, player: int) -> str:
        """The seat's view as JSON; with perfect recall, its own past actions too."""
        text = json.dumps(state.view(player), sort_keys=True, separators=(",", ":"))
        if self.iig_obs_type.perfect_recall:
            text += " own:" + ",".join(str(a) for a in state.own_actions[player])
        return text


for _name, _cls in (("disc-cover", DiscCoverGame), ("records", RecordsGame)):
    if NAMES[_name] not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(_name), _cls)


def openspiel_game(game: str, players: int, options: Mapping[str, Any] | None = None) -> Any:
    """A ``pyspiel.Game`` of ``"disc-cover"`` or ``"records"`` with that many players."""
    check_game(game, players)
    allowed = set(_DEFAULTS[game]) - {"players"}
    for key in options if isinstance(options, Mapping) else ():
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise BadOptions(f"recordroom.rl: {game} has no option {key!r}; options: {known}")
    check_options(game, players, options)  # a mapping, of values the game takes
    return pyspiel.load_game(NAMES[game], {"players": players, **(options or {})})
