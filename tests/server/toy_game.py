"""Hidden Bids: a tiny game with secrets and simultaneous choices, for testing the server alone.

Each seat is dealt a secret hand of four numbers. Each of three rounds, every seat bids one card at
once; bids stay hidden (and may be replaced) until the last seat has bid, then the highest single
bid scores a point. Its view hides every other hand and every pending bid, so a leak through the
server shows up as a number no receiver may know.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from recordroom.engine.agents import Agent, RandomAgent
from recordroom.engine.errors import BadOptions, BadState, GameOver, IllegalAction, NotYourTurn
from recordroom.engine.game import Action, GameInfo, JSONDict

SECRET_BASE = 1000  # every card number is >= this, so it is easy to spot in a message


@dataclass(frozen=True)
class BidState:
    hands: tuple[tuple[int, ...], ...]
    bids: tuple[int | None, ...]
    scores: tuple[int, ...]
    round: int
    rounds: int
    revealed: tuple[tuple[int, ...], ...] = ()

    @property
    def active(self) -> frozenset[int]:
        if self.round >= self.rounds:
            return frozenset()
        return frozenset(i for i, b in enumerate(self.bids) if b is None)


class HiddenBids:
    info = GameInfo(
        name="hidden-bids",
        title="Hidden Bids",
        min_players=2,
        max_players=4,
        option_sets=({}, {"rounds": 2}),
        agent_kinds=("random", "highest"),
    )

    def new_state(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> BidState:
        options = dict(options or {})
        rounds = options.pop("rounds", 3)
        if options or not isinstance(rounds, int) or not 1 <= rounds <= 4:
            raise BadOptions(f"bad options {options!r} / rounds {rounds!r}")
        if not 2 <= players <= 4:
            raise BadOptions(f"Hidden Bids takes 2 to 4 players, not {players}")
        rng = random.Random(seed)
        cards = rng.sample(range(SECRET_BASE, SECRET_BASE + 900), 4 * players)
        hands = tuple(tuple(sorted(cards[4 * i : 4 * i + 4])) for i in range(players))
        return BidState(hands, (None,) * players, (0,) * players, 0, rounds)

    def legal_actions(self, state: BidState, seat: int) -> tuple[Action, ...]:
        if seat not in state.active:
            return ()
        return tuple({"type": "bid", "card": c} for c in state.hands[seat])

    def apply(self, state: BidState, seat: int, action: Action) -> BidState:
        if state.round >= state.rounds:
            raise GameOver("the game is over")
        if not 0 <= seat < len(state.hands):
            raise NotYourTurn(f"no seat {seat}")
        if not isinstance(action, dict) or action.get("type") != "bid":
            raise IllegalAction(f"not a bid: {action!r}")
        card = action.get("card")
        if card not in state.hands[seat]:
            raise IllegalAction(f"seat {seat} holds no card {card!r}")
        bids = list(state.bids)
        bids[seat] = card
        if any(b is None for b in bids):
            return replace(state, bids=tuple(bids))
        played = tuple(b for b in bids if b is not None)
        top = max(played)
        scores = list(state.scores)
        if played.count(top) == 1:
            scores[played.index(top)] += 1
        hands = tuple(
            tuple(c for c in h if c != b) for h, b in zip(state.hands, played, strict=True)
        )
        return BidState(
            hands,
            (None,) * len(hands),
            tuple(scores),
            state.round + 1,
            state.rounds,
            (*state.revealed, played),
        )

    def view(self, state: BidState, seat: int | None) -> JSONDict:
        view: JSONDict = {
            "round": state.round,
            "scores": list(state.scores),
            "bid": [b is not None for b in state.bids],
            "revealed": [list(r) for r in state.revealed],
            "hand_sizes": [len(h) for h in state.hands],
        }
        if seat is not None:
            view["hand"] = list(state.hands[seat])
            view["my_bid"] = state.bids[seat]
        return view

    def is_over(self, state: BidState) -> bool:
        return state.round >= state.rounds

    def result(self, state: BidState) -> JSONDict:
        return {"scores": list(state.scores)}

    def dumps(self, state: BidState) -> str:
        return json.dumps(
            [state.hands, state.bids, state.scores, state.round, state.rounds, state.revealed]
        )

    def loads(self, text: str) -> BidState:
        try:
            h, b, s, r, n, rev = json.loads(text)
        except ValueError as error:
            raise BadState(str(error)) from error
        return BidState(tuple(map(tuple, h)), tuple(b), tuple(s), r, n, tuple(map(tuple, rev)))

    def max_decisions(self, players: int, options: Mapping[str, Any] | None = None) -> int:
        return 2 * 4 * players

    def options_of(self, state: BidState) -> JSONDict:
        return {"rounds": state.rounds}

    def players_of(self, state: BidState) -> int:
        return len(state.hands)

    def agent(self, kind: str, seed: int = 0) -> Agent:
        if kind == "highest":
            return HighestBidder()
        if kind != "random":
            raise KeyError(kind)
        return RandomAgent(seed)


class HighestBidder:
    """The "strongest" bot of the toy game: always bids its highest card."""

    def choose(self, view: JSONDict, legal_actions: tuple[Action, ...]) -> Action:
        return max(legal_actions, key=lambda a: int(a["card"]))


GAME = HiddenBids()
