"""Disc Cover: match record sleeves to the song that is playing, 3 to 8 players.

``GAME`` keeps the engine contract (:mod:`recordroom.engine.game`). Options:

- ``variant``: ``"cooperative"`` (default; the team scores together and reaches a tier) or
  ``"competitive"`` (each player scores, a Leader breaks ties);
- ``leader``: the seat that starts with the First Player Record token (competitive; default 0);
- ``sleeves``: the sleeve ids of the deck (default: the 100 built-in sleeves; at least 36).

Actions: ``{"type": "vote", "card": n}`` in a vote or a cooperative tie-break, and
``{"type": "choose", "card": n}`` for the competitive Leader's tie decision, ``n`` a Record card
from 1 to 4. The rules are in :mod:`.rules`, the views and saved form in :mod:`.views`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from recordroom.engine.agents import Agent, RandomAgent
from recordroom.engine.errors import IllegalAction, NotYourTurn
from recordroom.engine.game import Action, GameInfo, JSONDict, win_share_returns
from recordroom.games.disc_cover import rules, views
from recordroom.games.disc_cover.bots import LEVELS, ListeningAgent, Personality, senses
from recordroom.games.disc_cover.determinize import determinize
from recordroom.games.disc_cover.state import TURNS, DiscCoverState, Phase


class DiscCover:
    """The Disc Cover game object (see the module docstring)."""

    info = GameInfo(
        name="disc-cover",
        title="Disc Cover",
        min_players=rules.MIN_PLAYERS,
        max_players=rules.MAX_PLAYERS,
        option_sets=({"variant": "cooperative"}, {"variant": "competitive"}),
        agent_kinds=("random", "listener", "easy", "normal", "hard"),
        music=True,
        songs=TURNS,
        deck_option="sleeves",
        pages="disc-cover",
    )

    def new_state(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> DiscCoverState:
        """A new game, its deck shuffled by ``seed``."""
        return rules.new_state(players, seed, options)

    def legal_actions(self, state: DiscCoverState, seat: int) -> tuple[Action, ...]:
        """The seat's legal actions in Record card order; () when it need not act."""
        return rules.legal_actions(state, seat)

    def apply(self, state: DiscCoverState, seat: int, action: Action) -> DiscCoverState:
        """The next state; raises an engine error and changes nothing when not legal."""
        return rules.apply(state, seat, action)

    def view(self, state: DiscCoverState, seat: int | None) -> dict[str, Any]:
        """What that seat (or the table, for None) may see."""
        if seat is not None:
            _check_seat(state, seat)
        return views.view(state, seat)

    def own_view(self, state: DiscCoverState, seat: int) -> dict[str, Any]:
        """What a seat sees besides the table: its seat, its pending vote (and points)."""
        _check_seat(state, seat)
        return views.own(state, seat)

    def is_over(self, state: DiscCoverState) -> bool:
        """True once the mosaic holds nine sleeves."""
        return state.phase is Phase.OVER

    def result(self, state: DiscCoverState) -> dict[str, Any]:
        """The final score and tier, or points and winners; IllegalAction before the end."""
        if state.phase is not Phase.OVER:
            raise IllegalAction(
                f"result: the game is still in the {state.phase.value} phase of turn "
                f"{state.turn + 1}"
            )
        return views.result(state)

    def returns(self, state: DiscCoverState) -> tuple[float, ...]:
        """Zeros until over. Cooperative: every seat gets the team's share of the most it could
        score (score / (9 turns x players)). Competitive: the win share and points margin of
        :func:`~recordroom.engine.game.win_share_returns`."""
        players = state.setup.players
        if state.phase is not Phase.OVER:
            return (0.0,) * players
        if state.setup.competitive:
            best = max(state.points)
            winners = [seat for seat, p in enumerate(state.points) if p == best]
            return win_share_returns(state.points, winners)
        return (state.score / (TURNS * players),) * players

    def dumps(self, state: DiscCoverState) -> str:
        """The state as JSON text."""
        return views.dumps(state)

    def loads(self, text: str) -> DiscCoverState:
        """A state back from :meth:`dumps` text."""
        return views.loads(text)

    def determinize(self, view: dict[str, Any], seat: int, seed: int) -> DiscCoverState:
        """A full state consistent with what ``seat`` sees in ``view``, the unseen drawn by seed."""
        return determinize(view, seat, seed)

    def senses(
        self,
        view: JSONDict,
        hear: Callable[[int], JSONDict | None],
        look: Callable[[int], JSONDict | None],
    ) -> JSONDict:
        """What a listening bot at the table senses (:mod:`.bots`): the song of the view's turn
        and the look of every sleeve on the table."""
        turn = view.get("turn")
        heard = hear(turn) if isinstance(turn, int) else None
        seen: dict[int, JSONDict] = {}
        for record in view.get("records", []):
            sleeve_id = record["sleeve"]["id"]
            found = look(sleeve_id)
            if found is not None:
                seen[sleeve_id] = found
        return senses(heard, seen)

    def max_decisions(self, players: int, options: Mapping[str, Any] | None = None) -> int:
        """The most actions one game can take."""
        return rules.max_decisions(players)

    def options_of(self, state: DiscCoverState) -> dict[str, Any]:
        """The options the game was created with, defaults filled in: ``new_state`` with them and
        the same seed deals the same game."""
        setup = state.setup
        return {
            "variant": setup.variant.value,
            "leader": setup.first_leader,
            "sleeves": rules.sleeves_given(setup),
        }

    def players_of(self, state: DiscCoverState) -> int:
        """The number of seats."""
        return state.setup.players

    def agent(self, kind: str, seed: int = 0) -> Agent:
        """A voter: ``random``, or a ``listener`` that matches sleeves to the song it hears.

        The levels are listeners too: ``normal`` is the plain listener, ``easy`` doubts a lot
        (its votes wander), ``hard`` hears the song as most listeners do (little doubt and little
        private taste), which is what wins a cooperative game.
        """
        if kind == "random":
            return RandomAgent(seed)
        if kind in ("listener", "normal"):
            return ListeningAgent(seed)
        if kind in LEVELS:
            return ListeningAgent(seed, LEVELS[kind](Personality.from_seed(seed)))
        raise KeyError(
            f"Disc Cover has no {kind!r} agent; it has {', '.join(self.info.agent_kinds)}"
        )


def _check_seat(state: DiscCoverState, seat: int) -> None:
    """``NotYourTurn`` for a seat the game does not have."""
    players = state.setup.players
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise NotYourTurn(f"disc-cover: no seat {seat!r} in this {players}-player game")


GAME = DiscCover()

__all__ = ["GAME", "DiscCover", "DiscCoverState"]
