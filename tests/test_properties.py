"""Hypothesis drives every registered game with sequences of legal and illegal actions.

Whatever is sent, the contract holds: an action is either accepted (and then it was one of the
seat's legal actions) or refused with a :class:`RulesError` that changes nothing (the state, its
dump and every view stay as they were); what a seat chose while others still choose never shows in
another seat's view nor on the table; and the log of accepted actions replays to the same state.
The conformance suite (tests/test_conformance.py) plays whole random games; here hypothesis
chooses the actions, the bad ones included, and shrinks a failure to a short sequence.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recordroom.engine import Game, RulesError, replay
from recordroom.engine.errors import Code
from recordroom.games import load, names

JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=300)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
JSON = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
"""Any JSON value, small."""

STEPS = 40
"""Actions tried per example (legal, bad, or for the wrong seat)."""


def dump(game: Game, state: Any) -> str:
    return game.dumps(state)


def views(game: Game, state: Any, players: int) -> list[Any]:
    return [game.view(state, seat) for seat in (None, *range(players))]


def mutated(data: st.DataObject, action: dict[str, Any]) -> Any:
    """A legal action with one field given another value, a field added, or one taken away."""
    how = data.draw(st.sampled_from(["change", "add", "remove"]), label="mutation")
    keys = sorted(action)
    if how == "remove" and keys:
        key = data.draw(st.sampled_from(keys), label="removed")
        return {k: v for k, v in action.items() if k != key}
    if how == "change" and keys:
        key = data.draw(st.sampled_from(keys), label="changed")
        return {**action, key: data.draw(JSON, label="value")}
    return {**action, data.draw(st.text(max_size=8), label="key"): data.draw(JSON, label="value")}


def try_action(
    game: Game, state: Any, seat: Any, action: Any, players: int, pending: dict[int, Any]
) -> Any:
    """The new state if the action is accepted; ``None`` if refused (and then nothing changed).

    ``pending`` holds the seats that chose in the current simultaneous round and may still
    replace their choice, with the actions they could choose from."""
    active = isinstance(seat, int) and seat in state.active
    legal = game.legal_actions(state, seat) if active else pending.get(seat, ())
    before, seen = dump(game, state), views(game, state, players)
    try:
        after = game.apply(state, seat, action)
    except RulesError as error:
        assert error.code in set(Code), error.code
        assert str(error), "a refusal without a message"
        assert dump(game, state) == before, f"refused {action!r} changed the state"
        assert views(game, state, players) == seen, f"refused {action!r} changed a view"
        return None
    assert action in legal, f"seat {seat!r} was let play {action!r}, not one of its actions"
    assert dump(game, state) == before, "apply changed the state it was given"
    return after


def check_secrecy(data: st.DataObject, game: Game, state: Any, seat: int, players: int) -> None:
    """Two choices of ``seat`` that leave the same seats to act look the same to everyone else."""
    legal = game.legal_actions(state, seat)
    if len(legal) < 2:
        return
    first, second = data.draw(
        st.lists(st.sampled_from(legal), min_size=2, max_size=2, unique_by=orjson.dumps),
        label="two choices",
    )
    one, other = game.apply(state, seat, first), game.apply(state, seat, second)
    if one.active != other.active or seat in one.active:
        return  # who still acts is public; only choices that leave the same seats are compared
    others = (None, *(s for s in range(players) if s != seat))
    for looker in others:
        assert game.view(one, looker) == game.view(other, looker), (
            f"seat {seat}'s pending choice ({first!r} or {second!r}) shows to {looker}"
        )


def play(data: st.DataObject, game: Game) -> None:
    info = game.info
    players = data.draw(st.integers(info.min_players, info.max_players), label="players")
    options = dict(data.draw(st.sampled_from(info.option_sets), label="options"))
    seed = data.draw(st.integers(0, 2**63 - 1), label="seed")
    state = game.new_state(players, seed, options)
    log: list[dict[str, Any]] = []
    pending: dict[int, Any] = {}
    for _ in range(data.draw(st.integers(1, STEPS), label="steps")):
        if game.is_over(state):
            break
        active = sorted(state.active)
        seat = data.draw(st.sampled_from(active), label="seat")
        legal = game.legal_actions(state, seat)
        kind = data.draw(
            st.sampled_from(["legal", "legal", "legal", "json", "mutated", "other seat"]),
            label="kind",
        )
        if kind == "legal":
            action: Any = data.draw(st.sampled_from(legal), label="action")
            if len(active) >= 2:
                check_secrecy(data, game, state, seat, players)
        elif kind == "json":
            action = data.draw(JSON, label="action")
        elif kind == "mutated":
            action = mutated(data, data.draw(st.sampled_from(legal), label="base"))
        else:
            seat = data.draw(
                st.integers(-2, players + 1) | st.sampled_from(["0", None]), label="other seat"
            )
            action = data.draw(st.sampled_from(legal), label="action")
        after = try_action(game, state, seat, action, players, pending)
        if kind == "legal":
            assert after is not None, f"seat {seat}'s legal action {action!r} was refused"
        if after is not None:
            if after.active - state.active or not after.active:
                pending.clear()  # a new round: earlier choices are settled
            elif seat not in after.active and seat in state.active:
                pending[seat] = game.legal_actions(state, seat)
            state = after
            log.append({"seat": seat, "action": orjson.loads(orjson.dumps(action))})
    replayed = replay(game, players, seed, options, log)
    assert dump(game, replayed) == dump(game, state), "the log of accepted actions does not replay"
    assert dump(game, game.loads(dump(game, state))) == dump(game, state)


@pytest.mark.parametrize("name", names())
def test_any_actions_keep_the_contract(name: str) -> None:
    game = load(name)

    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        play(data, game)

    run()
