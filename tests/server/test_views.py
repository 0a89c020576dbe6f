"""Point 3: only views leave the server. Whole games of every game, every seat connected."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from recordroom.engine.playout import replay

from .helpers import TOY, TOY_NAME, Socket, TestClient, default_options, every_game, load_game
from .helpers import new_room as open_room


def players_for(game_name: str) -> int:
    info = load_game(game_name).info
    return min(info.max_players, max(info.min_players, 3))


def expected(game_name: str, players: int, seed: int, log: list[Any], seat: int | None) -> Any:
    game = load_game(game_name)
    state = replay(game, players, seed, default_options(game_name), log)
    legal = [] if seat is None else list(game.legal_actions(state, seat))
    return game.view(state, seat), legal


def connect_all(client: TestClient, code: str, tokens: list[str | None]) -> list[Socket]:
    """Opens one socket per token; each connect is told to everyone already connected, except a
    spectator's (``None``), which only the spectator hears about."""
    sockets = []
    for token in tokens:
        query = "" if token is None else f"?token={token}"
        ws = client.websocket_connect(f"/ws/{code}{query}")
        sockets.append(Socket(ws.__enter__()))
    for i, socket in enumerate(sockets):
        later = sum(1 for token in tokens[i + 1 :] if token is not None)
        for _ in range(1 + later):
            socket.recv_state()
    return sockets


@pytest.mark.slow  # a whole game per game: scheduled among the first tests
@pytest.mark.parametrize("game_name", every_game())
def test_every_message_is_the_receivers_own_view(client: TestClient, game_name: str) -> None:
    game = load_game(game_name)
    players = players_for(game_name)
    code, host_token, tokens = open_room(client, game_name, players)
    assert client.post(
        f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {host_token}"}
    ).is_success
    # The seed is not public while the game runs: read it from the server's own room.
    room = client.app.state.hub.get(code)  # type: ignore[attr-defined]
    seed = room.seed
    receivers: list[int | None] = [*range(players), None, None]
    sockets = connect_all(client, code, [*tokens, host_token, None])
    rng = random.Random(3)
    log: list[dict[str, Any]] = []
    limit = game.max_decisions(players, default_options(game_name))
    try:
        while True:
            for receiver, socket in zip(receivers, sockets, strict=True):
                message = socket.state
                assert message["version"] == len(log)
                assert message["seat"] == receiver
                view, legal = expected(game_name, players, seed, log, receiver)
                assert message["view"] == view
                assert message["legal_actions"] == legal
                if game_name == TOY_NAME:
                    assert_no_foreign_cards(message, receiver, game_name, players, seed, log)
            if message["status"] == "over":
                break
            assert len(log) < limit
            active = sorted(game_state(game_name, players, seed, log).active)
            seat = active[rng.randrange(len(active))]
            legal = sockets[seat].state["legal_actions"]
            action = legal[rng.randrange(len(legal))]
            sockets[seat].send({"type": "act", "version": len(log), "action": action})
            log.append({"seat": seat, "action": action})
            for socket in sockets:
                socket.recv_state()
        final = game_state(game_name, players, seed, log)
        assert sockets[0].state["result"] == game.result(final)
        stored = client.get(f"/api/rooms/{code}/log").json()
        assert stored["log"] == json.loads(json.dumps(log))
        assert stored["result"] == game.result(final)
    finally:
        for socket in sockets:
            socket.ws.__exit__(None, None, None)


def game_state(game_name: str, players: int, seed: int, log: list[Any]) -> Any:
    return replay(load_game(game_name), players, seed, default_options(game_name), log)


def assert_no_foreign_cards(
    message: dict[str, Any], receiver: int | None, game_name: str, players: int, seed: int, log: Any
) -> None:
    """No card of another seat's hand, and no pending bid of another seat, is in the message."""
    state = game_state(game_name, players, seed, log)
    text = json.dumps(message)
    for seat in range(players):
        if seat == receiver:
            continue
        secrets = set(state.hands[seat]) - {c for r in state.revealed for c in r}
        if receiver is not None:
            secrets -= set(state.hands[receiver])
        for card in secrets:
            assert str(card) not in text, (receiver, seat, card)


def test_a_leaky_server_would_be_caught() -> None:
    """The toy probe finds another seat's card in a message that holds one."""
    state = TOY.new_state(2, 5)
    leaky = {"view": TOY.view(state, 0), "extra": TOY.view(state, 1)}
    with pytest.raises(AssertionError):
        assert_no_foreign_cards(leaky, 0, TOY_NAME, 2, 5, [])


def test_disc_cover_builds_the_public_part_once_per_state_and_each_view_equals_a_fresh_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from recordroom.games.disc_cover import views

    game = load_game("disc-cover")
    built: list[int] = []
    table = views._table

    def counted(state: Any) -> Any:
        built.append(id(state))
        return table(state)

    monkeypatch.setattr(views, "_table", counted)
    rng = random.Random(11)
    state = game.new_state(5, 4, {"variant": "competitive"})
    states = 0
    while not game.is_over(state):
        shown = [game.view(state, seat) for seat in (None, 0, 1, 2, 3, 4)]
        states += 1
        for seat, view in zip((None, 0, 1, 2, 3, 4), shown, strict=True):
            views._TABLES.clear()
            assert view == game.view(state, seat)  # the same as one built from scratch
        seat = rng.choice(sorted(state.active))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    # Once per state for the six views, once more for each view built from scratch.
    assert len(built) == 7 * states


def test_disc_cover_makes_a_rooms_past_once_per_turn_while_hundreds_of_rooms_take_turns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server with many rooms tells each change of one room after the others': the finished
    turns of a room (its mosaic, last turn and events) are made once per turn, not again at
    every change because the other rooms' changes came in between."""
    from recordroom.games.disc_cover import views

    game = load_game("disc-cover")
    made: list[int] = []
    history_events = views.history_events

    def counted(history: Any, competitive: bool, players: int) -> Any:
        made.append(id(history))
        return history_events(history, competitive, players)

    monkeypatch.setattr(views, "history_events", counted)
    rooms = 300
    rng = random.Random(5)
    states = [game.new_state(5, seed, {}) for seed in range(rooms)]
    histories: set[tuple[int, int]] = set()  # a game's history (its first: the one empty tuple)
    kept: list[Any] = []  # every history seen, alive, so that no identity is reused
    while not all(game.is_over(state) for state in states):
        for number, state in enumerate(states):  # each room in turn, as a busy server does
            if game.is_over(state):
                continue
            seat = rng.choice(sorted(state.active))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            states[number] = state
            for seat in (None, 0, 1, 2, 3, 4):
                game.view(state, seat)
            if (id(state.history), number) not in histories:
                histories.add((id(state.history), number))
                kept.append(state.history)
    assert len(made) == len(histories)
