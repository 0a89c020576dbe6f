"""The conformance suite: every registered game, every player count, every declared option set.

Seeded random playouts check the engine contract at every step (see ``check_step``). A game joins
the suite by being registered in ``recordroom.games``; nothing here knows any game.
``CONFORMANCE_SEEDS`` (default 100) sets how many seeds each case plays.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson
import pytest

from recordroom.engine import (
    BadOptions,
    Game,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    RulesError,
    replay,
)
from recordroom.engine.game import AppliesHanded, Editions, Listening, OwnViews
from recordroom.games import load, names

SEEDS = int(os.environ.get("CONFORMANCE_SEEDS", "100"))

MALFORMED: tuple[Any, ...] = (
    None,
    "vote",
    [],
    {},
    {"type": "__no_such_action__"},
    {"type": None},
    {"card": 1},
)


def cases() -> list[Any]:
    out = []
    for name in names():
        game = load(name)
        for players in range(game.info.min_players, game.info.max_players + 1):
            for options in game.info.option_sets:
                label = ",".join(f"{k}={v}" for k, v in options.items()) or "default"
                out.append(
                    pytest.param(name, players, dict(options), id=f"{name}-{players}p-{label}")
                )
    return out


def json_round_trip(value: Any) -> Any:
    """The value as JSON gives it back: tuples, non-string keys, NaN or infinities make it differ
    (or raise), so ``json_round_trip(v) == v`` says v is plain JSON."""
    return orjson.loads(orjson.dumps(value))


def key_of(action: Any) -> bytes:
    """An action's identity: its JSON with sorted keys."""
    return orjson.dumps(action, option=orjson.OPT_SORT_KEYS)


class Playout:
    """One seeded random playout with the checks of the contract at every step."""

    def __init__(self, game: Game, players: int, options: Mapping[str, Any], seed: int) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.seed = seed
        self.rng = random.Random(seed * 7919 + players)
        self.seen_actions: list[dict[str, Any]] = []
        self.seen_keys: set[bytes] = set()
        # The key of each seen action, in the order of seen_actions (computed once, not per step).
        self.seen_key_list: list[bytes] = []
        # Action objects already remembered, by id (kept alive so an id is never reused); actions
        # are read-only, so one already remembered needs no new key.
        self.seen_objects: dict[int, dict[str, Any]] = {}
        # Seats that chose in the current simultaneous round and may still change their choice.
        self.pending: set[int] = set()
        # The public events of the last step checked (each step's must start with these).
        self.public_events: list[Any] = []
        self.applies_handed = isinstance(game, AppliesHanded)

    def remember(self, actions: tuple[dict[str, Any], ...]) -> None:
        for action in actions:
            if id(action) in self.seen_objects:
                continue
            self.seen_objects[id(action)] = action
            key = key_of(action)
            if key not in self.seen_keys:
                self.seen_keys.add(key)
                self.seen_actions.append(action)
                self.seen_key_list.append(key)

    def run(self) -> None:
        game, players = self.game, self.players
        state = game.new_state(players, self.seed, self.options)
        again = game.new_state(players, self.seed, self.options)
        assert game.dumps(again) == game.dumps(state), "new_state is not deterministic"
        log: list[dict[str, Any]] = []
        limit = game.max_decisions(players, self.options)
        while not game.is_over(state):
            assert state.active, "a game that is not over must have an active seat"
            assert len(log) < limit, f"not over after the declared maximum of {limit} actions"
            self.check_step(state)
            seats = sorted(state.active)
            seat = seats[self.rng.randrange(len(seats))]
            actions = game.legal_actions(state, seat)
            if self.applies_handed:
                # What the unremembered path hands out is what legal_actions does.
                assert game.legal_handed(state, seat) == actions, "legal_handed differs"
            action = actions[self.rng.randrange(len(actions))]
            if action.get("type") == "undo" and self.rng.random() < 0.75:
                # A uniform random player undoes so often that games double in length: undo is
                # still played, in one draw in four, and every undo is checked as any action.
                action = actions[self.rng.randrange(len(actions))]
            before = state.active
            after = game.apply(state, seat, action)
            if self.applies_handed:
                # The unchecked path of a handed-out action reaches the very same state.
                handed = game.apply_handed(state, seat, action, actions)
                assert handed == after, "apply_handed differs from apply"
            state = after
            log.append({"seat": seat, "action": json_round_trip(action)})
            self.track_pending(before, state.active, seat)
        self.check_over(state, log)

    def track_pending(self, before: frozenset[int], after: frozenset[int], seat: int) -> None:
        if after - before or not after:
            self.pending.clear()
        elif seat not in after:
            self.pending.add(seat)

    def check_step(self, state: Any) -> None:
        game, players = self.game, self.players
        saved = game.dumps(state)
        active = state.active
        for seat in range(players):
            actions = game.legal_actions(state, seat)
            assert actions == game.legal_actions(state, seat), "legal actions are not deterministic"
            if seat in active:
                assert actions, f"active seat {seat} has no legal action"
                assert json_round_trip(list(actions)) == list(actions), "actions are not JSON-safe"
                assert all(isinstance(a.get("type"), str) for a in actions), "action without type"
                assert len({key_of(a) for a in actions}) == len(actions)
                self.remember(actions)
            else:
                assert actions == (), f"inactive seat {seat} has legal actions"

        # dumps / loads round trip, and the loaded state behaves the same.
        loaded = game.loads(saved)
        assert game.dumps(loaded) == saved, "dumps/loads does not round-trip"
        assert loaded.active == active
        seat = self.rng.randrange(players)
        views = [game.view(state, None), game.view(state, seat)]
        assert [game.view(loaded, None), game.view(loaded, seat)] == views, "loaded views differ"
        self.check_own_views(state)
        self.check_json_views(views)

        assert game.returns(state) == (0.0,) * players, "returns before the end are not zeros"
        self.check_bad_input(state)
        if len(active) >= 2:
            self.check_commit_orders(state)
            self.check_secrecy(state)
        # One comparison for every check above: refused actions, other commit orders, secrecy.
        assert game.dumps(state) == saved, "a refused action or a check changed the state"

    def check_bad_input(self, state: Any) -> None:
        game, active = self.game, state.active
        seat = min(active)
        for bad in MALFORMED:
            with pytest.raises(MalformedAction):
                game.apply(state, seat, bad)
        legal = {key_of(a) for a in game.legal_actions(state, seat)}
        illegal = [
            a
            for a, key in zip(self.seen_actions, self.seen_key_list, strict=True)
            if key not in legal
        ]
        for action in self.rng.sample(illegal, min(3, len(illegal))):
            with pytest.raises(IllegalAction):
                game.apply(state, seat, action)
        some_action = game.legal_actions(state, seat)[0]
        for other in range(self.players):
            if other in active:
                continue
            if other in self.pending:
                try:
                    game.apply(state, other, some_action)
                except RulesError as error:
                    assert isinstance(error, NotYourTurn | IllegalAction)
            else:
                with pytest.raises(NotYourTurn):
                    game.apply(state, other, some_action)
        for outside in (-1, self.players, "0", None):
            with pytest.raises((NotYourTurn, MalformedAction)):
                game.apply(state, outside, some_action)  # type: ignore[arg-type]
        for error_type in (IllegalAction, MalformedAction, NotYourTurn, GameOver):
            assert issubclass(error_type, ValueError) and isinstance(error_type.code, str)

    def check_commit_orders(self, state: Any) -> None:
        """Every order in which the active seats commit their choices gives the same state."""
        game = self.game
        seats = sorted(state.active)
        choice = {}
        for seat in seats:
            actions = game.legal_actions(state, seat)
            choice[seat] = actions[self.rng.randrange(len(actions))]
        orders = [seats, seats[::-1]]
        shuffled = seats[:]
        self.rng.shuffle(shuffled)
        orders.append(shuffled)
        results = set()
        for order in orders:
            current = state
            for seat in order:
                current = game.apply(current, seat, choice[seat])
            results.add(game.dumps(current))
        assert len(results) == 1, f"commit order changes the outcome for seats {seats}"

    def check_secrecy(self, state: Any) -> None:
        """A pending choice of one seat shows in no other seat's view nor on the table.

        Who still has to act is public (a seat that ends its turn leaves ``active`` for all to
        see), so views are compared between choices that leave the same seats to act; the events
        in them are compared on their own too, so that a leak names them.
        """
        game, players = self.game, self.players
        seats = sorted(state.active)
        chooser = seats[self.rng.randrange(len(seats))]
        actions = list(game.legal_actions(state, chooser))
        if len(actions) > 3:
            actions = self.rng.sample(actions, 3)
        others = [None] + [s for s in range(players) if s != chooser]
        seen: dict[frozenset[int], list[Any]] = {}
        for action in actions:
            after = game.apply(state, chooser, action)
            views = [game.view(after, seat) for seat in others]
            first = seen.setdefault(after.active, views)
            events = [v.get("events") for v in views]
            assert events == [v.get("events") for v in first], (
                f"seat {chooser}'s pending choice leaks into another seat's events"
            )
            assert views == first, f"seat {chooser}'s pending choice leaks into another view"

    def check_json_views(self, views: list[dict[str, Any]]) -> None:
        """The views are plain JSON (see ``json_round_trip``), and their events, where a game's
        views have them, are JSON objects with a type; the public log only grows (what was shown
        is never taken back); a seat's own log starts with the public one.

        The events already checked at an earlier step are not round-tripped again (a game's log
        would make each step cost as much as all before it): the prefix checks below compare
        them, with ``==``, to the list already found plain, and a value equal to a plain JSON
        value is one too (a tuple never equals a list, a non-string key never equals a string,
        NaN never equals itself)."""
        public, own = views
        if "events" not in public:
            assert json_round_trip(views) == views, "views are not JSON-safe"
            return
        events, mine = public["events"], own["events"]
        assert isinstance(events, list) and isinstance(mine, list), "events is not a list"
        shown = len(self.public_events)
        assert events[:shown] == self.public_events, (
            "the public events lost or changed an event already shown"
        )
        assert mine[: len(events)] == events, "a seat's events do not start with the log"
        new = events[shown:]
        assert all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in new)
        # The seat's view shares most values with the public one (the same objects, checked
        # once here); what is its own is checked too.
        rest = {k: v for k, v in public.items() if k != "events"}
        apart = {k: v for k, v in own.items() if k != "events" and public.get(k) is not v}
        fresh = [rest, apart, new, mine[len(events) :]]
        assert json_round_trip(fresh) == fresh, "views are not JSON-safe"
        self.public_events = events

    def check_returns(self, state: Any, result: dict[str, Any]) -> None:
        """One float per seat in [0, 1], deterministic, and in step with the result's winners."""
        game = self.game
        returns = game.returns(state)
        assert isinstance(returns, tuple) and len(returns) == self.players
        assert all(isinstance(r, float) and 0.0 <= r <= 1.0 for r in returns), returns
        assert game.returns(game.loads(game.dumps(state))) == returns
        winners = result.get("winners")
        if isinstance(winners, list) and self.players > 1:
            best = max(returns)
            assert {s for s, r in enumerate(returns) if r == best} <= set(winners), (
                f"a seat that did not win has the best return: {returns}, winners {winners}"
            )
            losers = [returns[s] for s in range(self.players) if s not in winners]
            assert all(r < min(returns[w] for w in winners) for r in losers), returns
        elif self.players > 1:
            assert len(set(returns)) == 1, "a cooperative game gives seats different returns"

    def check_own_views(self, state: Any) -> None:
        """A game with ``own_view``: each seat's view is the public one with its own part after
        it, key order included (the server writes a seat's message so)."""
        game = self.game
        if not isinstance(game, OwnViews):
            return
        public = game.view(state, None)
        for seat in range(self.players):
            whole = {**public, **game.own_view(state, seat)}
            assert list(whole.items()) == list(game.view(state, seat).items()), "own_view differs"

    def check_over(self, state: Any, log: list[dict[str, Any]]) -> None:
        game = self.game
        assert state.active == frozenset(), "a finished game has active seats"
        for seat in range(self.players):
            assert game.legal_actions(state, seat) == ()
        self.check_own_views(state)
        result = game.result(state)
        assert json_round_trip(result) == result, "result is not JSON-safe"
        self.check_returns(state, result)
        if self.seen_actions:
            with pytest.raises(GameOver):
                game.apply(state, 0, self.seen_actions[0])
        replayed = replay(game, self.players, self.seed, self.options, log)
        assert game.dumps(replayed) == game.dumps(state), "the action log does not replay"
        assert game.loads(game.dumps(state)) is not None


CHUNK = 25
"""Seeds per test item: a case's seeds are split so that the workers share long cases."""


@pytest.mark.parametrize("first", range(0, SEEDS, CHUNK), ids=lambda f: f"seeds{f}+")
@pytest.mark.parametrize(("name", "players", "options"), cases())
def test_conformance(name: str, players: int, options: dict[str, Any], first: int) -> None:
    game = load(name)
    for seed in range(first, min(first + CHUNK, SEEDS)):
        Playout(game, players, options, seed).run()


@pytest.mark.parametrize("name", names())
def test_info_and_bad_setup(name: str) -> None:
    game = load(name)
    info = game.info
    assert info.name == name
    assert info.min_players <= info.max_players
    assert info.agent_kinds[0] == "random"
    for players in (info.min_players - 1, info.max_players + 1):
        with pytest.raises(ValueError):
            game.new_state(players, 1, dict(info.option_sets[0]))
    with pytest.raises(ValueError):
        game.new_state(info.min_players, 1, {"__no_such_option__": True})
    state = game.new_state(info.min_players, 1, dict(info.option_sets[0]))
    for seat in (-1, info.min_players, "0", True, 1.0):  # a view of no seat: the engine's error
        with pytest.raises(NotYourTurn):
            game.view(state, seat)  # type: ignore[arg-type]
    for seed in (None, 1.5, "3", True):  # a game is its seed: None would be the clock's
        with pytest.raises(BadOptions):
            game.new_state(info.min_players, seed, dict(info.option_sets[0]))  # type: ignore[arg-type]
    for text in ("", "{}", "[1, 2]", '{"game": "nope"}'):
        with pytest.raises(ValueError):
            game.loads(text)
    state = game.new_state(info.max_players, 3, dict(info.option_sets[0]))
    with pytest.raises(IllegalAction):
        game.result(state)
    assert game.players_of(state) == info.max_players
    again = game.new_state(info.max_players, 3, game.options_of(state))
    assert game.dumps(again) == game.dumps(state), "options_of does not recreate the game"
    for kind in info.agent_kinds:
        agent = game.agent(kind, 1)
        seat = min(state.active)
        legal = game.legal_actions(state, seat)
        assert agent.choose(game.view(state, seat), legal) in legal
    with pytest.raises(KeyError):
        game.agent("__no_such_agent__", 1)


WEB = Path(__file__).resolve().parent.parent / "recordroom" / "web"


@pytest.mark.parametrize("name", names())
def test_what_the_server_reads(name: str) -> None:
    """The facts and optional methods the server reads of a game hold together."""
    game = load(name)
    info = game.info
    assert info.songs > 0 if info.music else info.songs == 0
    state = game.new_state(info.min_players, 5, dict(info.option_sets[0]))
    if info.deck_option is not None:
        assert isinstance(game.options_of(state)[info.deck_option], list)
    if info.pages is not None:
        for page in ("table.html", "phone.html", *(file for _, file in info.extra_pages)):
            assert (WEB / info.pages / page).is_file(), page
    else:
        assert info.extra_pages == ()
    assert all(path.startswith("/") for path, _ in info.extra_pages)
    if isinstance(game, Editions):
        json.dumps(game.edition("standard"))  # the default edition, JSON-safe
        with pytest.raises(ValueError):
            game.edition("__no_such_edition__")
    if isinstance(game, Listening):
        seat = min(state.active)
        sensed = game.senses(game.view(state, seat), lambda turn: None, lambda sleeve: None)
        json.dumps(sensed)
