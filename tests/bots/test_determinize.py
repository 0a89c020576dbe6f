"""Determinisations: the seat's view of the drawn state is the view given; the unseen varies."""

from __future__ import annotations

import random

import pytest

from recordroom.games import load

from .positions import positions


@pytest.mark.parametrize("name", ["disc-cover", "records"])
def test_the_seat_sees_the_same_table_in_every_determinisation(name: str) -> None:
    game = load(name)
    for variant in game.info.option_sets:
        for state, seat in positions(game, 600, 1, dict(variant)):
            view = game.view(state, seat)
            for seed in (1, 2):
                drawn = game.determinize(view, seat, seed)  # type: ignore[attr-defined]
                assert game.view(drawn, seat) == view
                for other in drawn.active:  # the drawn state can be played on
                    assert game.legal_actions(drawn, other)


def test_records_solo_sees_the_same_table_in_every_determinisation() -> None:
    """Solo too, at every step of whole games: also once the card is marked and only ``done``
    (or ``undo``) is left, where the view still lists the seat as marking."""
    game = load("records")
    rng = random.Random(7)
    marked_and_waiting = 0
    for game_seed in range(6):
        state = game.new_state(1, game_seed)
        while not game.is_over(state):
            view = game.view(state, 0)
            drawn = game.determinize(view, 0, game_seed)  # type: ignore[attr-defined]
            assert game.view(drawn, 0) == view
            assert game.legal_actions(drawn, 0) == game.legal_actions(state, 0)
            marked_and_waiting += view["marking"] == [0] and view["you"]["played"] is None
            legal = game.legal_actions(state, 0)
            state = game.apply(state, 0, legal[rng.randrange(len(legal))])
    assert marked_and_waiting > 0


def test_disc_cover_hidden_votes_and_deck_vary_with_the_seed() -> None:
    game = load("disc-cover")
    state = game.new_state(5, 3, {"variant": "competitive"})
    for seat in (1, 2, 3):
        state = game.apply(state, seat, {"type": "vote", "card": 1 + seat % 4})
    view = game.view(state, 0)
    drawn = [game.determinize(view, 0, seed) for seed in range(20)]  # type: ignore[attr-defined]
    assert len({d.pending for d in drawn}) > 1
    assert len({d.setup.deck[4:] for d in drawn}) == 20
    assert all(d.setup.deck[:4] == state.setup.deck[:4] for d in drawn)


def test_records_hidden_parts_vary_with_the_seed() -> None:
    game = load("records")
    state = game.new_state(4, 5)
    for seat in range(4):
        state = game.apply(state, seat, game.legal_actions(state, seat)[0])
    view = game.view(state, 2)
    drawn = [game.determinize(view, 2, seed) for seed in range(10)]  # type: ignore[attr-defined]
    assert len({d.deck for d in drawn}) == 10
    assert len({d.dealt[0] for d in drawn}) > 1
    assert all(d.dealt[2] == state.dealt[2] for d in drawn)
