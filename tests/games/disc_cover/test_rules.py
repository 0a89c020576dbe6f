"""Disc Cover's rules, pinned turn by turn (see docs/rules-decisions.md for the readings)."""

from __future__ import annotations

from typing import Any

import pytest

from recordroom.engine import (
    BadOptions,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    random_playout,
    replay,
)
from recordroom.games import load
from recordroom.games.disc_cover.scoring import TIER_FLOORS, TIERS, tier, tier_ranges
from recordroom.games.disc_cover.state import TIEBREAK_ROUNDS, DiscCoverState

GAME = load("disc-cover")


def vote(card: int) -> dict[str, Any]:
    return {"type": "vote", "card": card}


def choose(card: int) -> dict[str, Any]:
    return {"type": "choose", "card": card}


def cast(state: DiscCoverState, cards: list[int]) -> DiscCoverState:
    """Every seat votes, seat 0 first."""
    for seat, card in enumerate(cards):
        state = GAME.apply(state, seat, vote(card))
    return state


def coop(players: int, seed: int = 1) -> DiscCoverState:
    return GAME.new_state(players, seed, {"variant": "cooperative"})


def comp(players: int, seed: int = 1, leader: int = 0) -> DiscCoverState:
    return GAME.new_state(players, seed, {"variant": "competitive", "leader": leader})


# The rulebook's score table, every boundary of every row.
TABLE = {
    3: ((0, 9), (10, 12), (13, 17), (18, 21), (22, 23), (24, 27)),
    4: ((0, 12), (13, 16), (17, 22), (23, 28), (29, 31), (32, 36)),
    5: ((0, 15), (16, 20), (21, 28), (29, 35), (36, 39), (40, 45)),
    6: ((0, 18), (19, 24), (25, 34), (35, 42), (43, 47), (48, 54)),
    7: ((0, 21), (22, 28), (29, 39), (40, 49), (50, 55), (56, 63)),
    8: ((0, 25), (26, 32), (33, 45), (46, 57), (58, 63), (64, 72)),
}


@pytest.mark.parametrize(
    ("players", "score", "expected"),
    [
        (players, score, TIERS[index])
        for players, row in TABLE.items()
        for index, (low, high) in enumerate(row)
        for score in (low, high)
    ],
)
def test_tier_table_boundaries(players: int, score: int, expected: str) -> None:
    assert tier(players, score) == expected


def test_top_tier_is_this_many_or_more() -> None:
    # Nine turns of unanimous votes score 9 x players, more than the table's last column.
    assert tier(3, 27) == "Perfect harmony"
    assert tier_ranges(3)[-1] == {"tier": "Perfect harmony", "min": 24, "max": None}
    assert set(TIER_FLOORS) == set(range(3, 9))


def test_four_sleeves_under_record_cards_and_deck_shuffled_by_seed() -> None:
    state = coop(4, seed=11)
    view = GAME.view(state, None)
    assert [r["card"] for r in view["records"]] == [1, 2, 3, 4]
    ids = [r["sleeve"]["id"] for r in view["records"]]
    assert len(set(ids)) == 4 and all(r["sleeve"]["title"] for r in view["records"])
    assert view["deck"] == 96
    other = GAME.view(coop(4, seed=12), None)
    assert [r["sleeve"]["id"] for r in other["records"]] != ids
    assert GAME.view(coop(4, seed=11), None) == view
    assert len(state.setup.deck) == 100 and len(set(state.setup.deck)) == 100


def test_vote_actions_list_record_cards_in_order() -> None:
    state = coop(3)
    assert GAME.legal_actions(state, 0) == tuple(vote(c) for c in (1, 2, 3, 4))


def test_clear_majority_cooperative_scores_its_votes() -> None:
    state = cast(coop(5), [2, 2, 2, 1, 4])
    view = GAME.view(state, None)
    assert view["score"] == 3
    assert view["mosaic"][0]["points"] == 3
    assert view["last_turn"]["card"] == 2 and view["last_turn"]["decided_by"] == "majority"
    assert view["last_turn"]["votes"] == [2, 2, 2, 1, 4]
    assert view["turn"] == 2 and view["phase"] == "vote"


def test_plurality_is_enough_for_a_majority() -> None:
    # "most of the votes": 2 of 5 wins when every other sleeve has fewer.
    state = cast(coop(5), [3, 3, 1, 2, 4])
    assert GAME.view(state, None)["score"] == 2


def test_chosen_sleeve_goes_to_mosaic_and_four_new_are_laid() -> None:
    state = coop(3)
    before = GAME.view(state, None)
    chosen = before["records"][1]["sleeve"]
    after = GAME.view(cast(state, [2, 2, 1]), None)
    assert after["mosaic"][0]["sleeve"] == chosen
    old = {r["sleeve"]["id"] for r in before["records"]}
    new = {r["sleeve"]["id"] for r in after["records"]}
    assert not old & new and len(new) == 4
    assert after["deck"] == 92


def test_votes_are_secret_until_the_last_one_then_revealed_together() -> None:
    state = cast(coop(4), [1, 2, 3])  # seat 3 has not voted yet
    table = GAME.view(state, None)
    assert table["voted"] == [True, True, True, False]
    assert table["waiting_for"] == [3]
    assert "1" not in str(table["votes"]) and table["votes"] is None
    assert GAME.view(state, 1)["my_vote"] == 2
    assert GAME.view(state, 3)["my_vote"] is None
    other = cast(coop(4), [4, 2, 3])
    for seat in (None, 1, 2, 3):
        assert GAME.view(other, seat) == GAME.view(state, seat)
    assert GAME.view(other, 0) != GAME.view(state, 0)


def test_a_vote_can_be_changed_until_the_last_vote() -> None:
    state = GAME.apply(coop(3), 0, vote(1))
    assert 0 not in state.active
    state = GAME.apply(state, 0, vote(4))
    assert GAME.view(state, 0)["my_vote"] == 4
    state = cast_from(state, {1: 4, 2: 2})
    assert GAME.view(state, None)["last_turn"]["votes"] == [4, 4, 2]
    # Once revealed the vote is final: the next turn has begun.
    assert GAME.view(state, 0)["my_vote"] is None


def cast_from(state: DiscCoverState, votes: dict[int, int]) -> DiscCoverState:
    for seat, card in votes.items():
        state = GAME.apply(state, seat, vote(card))
    return state


def test_two_way_tie_cooperative_goes_to_a_tiebreak_among_tied_only() -> None:
    state = cast(coop(5), [1, 1, 3, 3, 2])
    view = GAME.view(state, None)
    assert view["phase"] == "tiebreak" and view["candidates"] == [1, 3]
    assert view["votes"] == [1, 1, 3, 3, 2]
    assert view["tiebreak_round"] == 1
    assert GAME.legal_actions(state, 4) == (vote(1), vote(3))
    with pytest.raises(IllegalAction, match="only Record cards 1, 3"):
        GAME.apply(state, 4, vote(2))
    state = cast(state, [3, 3, 3, 1, 1])
    view = GAME.view(state, None)
    # The agreement picks the sleeve; the points are the votes of the turn's first vote.
    assert view["score"] == 2
    assert view["last_turn"]["card"] == 3
    assert view["last_turn"]["decided_by"] == "tiebreak"
    assert view["last_turn"]["tiebreak_votes"] == [[3, 3, 3, 1, 1]]


def test_three_way_tie_with_three_players() -> None:
    state = cast(coop(3), [4, 2, 1])
    assert GAME.view(state, None)["candidates"] == [1, 2, 4]
    assert GAME.legal_actions(state, 0) == (vote(1), vote(2), vote(4))
    state = cast(state, [2, 2, 4])
    view = GAME.view(state, None)
    assert view["last_turn"]["card"] == 2 and view["score"] == 1


def test_two_two_tie_with_four_players_and_tiebreak_narrowing() -> None:
    state = cast(coop(4), [1, 1, 2, 2])
    assert GAME.view(state, None)["candidates"] == [1, 2]
    state = cast(state, [1, 2, 1, 2])  # still tied: another tie-break round
    view = GAME.view(state, None)
    assert view["phase"] == "tiebreak" and view["tiebreak_round"] == 2
    assert view["tiebreak_votes"] == [[1, 2, 1, 2]]
    state = cast(state, [2, 2, 2, 1])
    view = GAME.view(state, None)
    assert view["last_turn"]["card"] == 2 and view["score"] == 2


def test_tiebreak_narrows_to_the_sleeves_still_tied() -> None:
    state = cast(coop(4), [1, 2, 3, 4])  # four-way tie
    assert GAME.view(state, None)["candidates"] == [1, 2, 3, 4]
    state = cast(state, [1, 1, 3, 3])
    assert GAME.view(state, None)["candidates"] == [1, 3]


@pytest.mark.parametrize("seed", range(20))
def test_tiebreak_fallback_draw_always_ends_the_turn(seed: int) -> None:
    state = cast(coop(4, seed), [1, 1, 4, 4])
    for _ in range(TIEBREAK_ROUNDS):
        state = cast(state, [1, 4, 1, 4])
    view = GAME.view(state, None)
    last = view["last_turn"]
    assert view["phase"] == "vote" and view["turn"] == 2
    assert last["decided_by"] == "draw" and last["card"] in (1, 4)
    assert len(last["tiebreak_votes"]) == TIEBREAK_ROUNDS
    assert view["score"] == 2


def test_tiebreak_fallback_draw_is_fair_and_seeded() -> None:
    picks = set()
    for seed in range(30):
        state = cast(coop(4, seed), [1, 1, 4, 4])
        for _ in range(TIEBREAK_ROUNDS):
            state = cast(state, [1, 4, 1, 4])
        picks.add(GAME.view(state, None)["last_turn"]["card"])
    assert picks == {1, 4}


def test_competitive_majority_scores_one_point_per_voter() -> None:
    state = cast(comp(4), [2, 2, 2, 3])
    view = GAME.view(state, None)
    assert view["points"] == [1, 1, 1, 0]
    assert view["last_turn"]["scorers"] == [0, 1, 2]
    assert "score" not in view
    assert GAME.view(state, 3)["my_points"] == 0


def test_leader_passes_to_the_next_seat_after_every_turn() -> None:
    state = comp(3, leader=1)
    leaders = []
    for _ in range(5):
        leaders.append(GAME.view(state, None)["leader"])
        state = cast(state, [1, 1, 2])
    assert leaders == [1, 2, 0, 1, 2]


def test_cooperative_has_no_leader() -> None:
    assert GAME.view(coop(3), None)["leader"] is None


def test_competitive_tie_the_leader_alone_chooses() -> None:
    state = cast(comp(4, leader=2), [1, 3, 3, 1])
    view = GAME.view(state, None)
    assert view["phase"] == "leader" and view["candidates"] == [1, 3]
    assert state.active == frozenset({2})
    assert GAME.legal_actions(state, 2) == (choose(1), choose(3))
    assert GAME.legal_actions(state, 0) == ()
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 0, choose(1))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 2, choose(2))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 2, vote(1))
    state = GAME.apply(state, 2, choose(1))
    view = GAME.view(state, None)
    assert view["points"] == [1, 0, 0, 1]
    assert view["last_turn"]["decided_by"] == "leader" and view["last_turn"]["leader"] == 2
    assert view["leader"] == 3


def test_three_way_competitive_tie() -> None:
    state = cast(comp(3), [1, 2, 3])
    assert GAME.legal_actions(state, 0) == (choose(1), choose(2), choose(3))
    state = GAME.apply(state, 0, choose(3))
    assert GAME.view(state, None)["points"] == [0, 0, 1]


def test_game_ends_with_nine_sleeves_in_the_mosaic() -> None:
    state = coop(3)
    for _ in range(9):
        assert not GAME.is_over(state)
        state = cast(state, [1, 1, 1])
    assert GAME.is_over(state) and state.active == frozenset()
    assert GAME.result(state)["score"] == 27
    assert GAME.result(state)["tier"] == "Perfect harmony"
    assert len(GAME.result(state)["mosaic"]) == 9
    with pytest.raises(GameOver):
        GAME.apply(state, 0, vote(1))


def test_competitive_ties_share_the_victory() -> None:
    state = comp(3)
    for turn in range(9):
        # seats 0 and 1 always agree; seat 2 agrees with them on the first turn only
        state = cast(state, [1, 1, 1 if turn == 0 else 2])
    result = GAME.result(state)
    assert result["points"] == [9, 9, 1]
    assert result["winners"] == [0, 1]


def test_result_before_the_end_is_refused() -> None:
    with pytest.raises(IllegalAction):
        GAME.result(coop(3))


@pytest.mark.parametrize(
    "bad",
    [{"type": "vote"}, {"type": "vote", "card": 5}, {"type": "vote", "card": "2"},
     {"type": "vote", "card": True}, {"type": "vote", "card": 1, "extra": 1}, {"type": "pass"}],
)  # fmt: skip
def test_malformed_actions_are_refused(bad: dict[str, Any]) -> None:
    state = coop(3)
    with pytest.raises(MalformedAction):
        GAME.apply(state, 0, bad)


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (9, {}), (4, {"variant": "solo"}), (4, {"leader": 4}), (4, {"leader": -1}),
     (4, {"colour": "red"}), (4, {"sleeves": [1, 2, 3]}), (4, {"sleeves": [1] * 40})],
)  # fmt: skip
def test_bad_setups_are_refused(players: int, options: dict[str, Any]) -> None:
    with pytest.raises(BadOptions):
        GAME.new_state(players, 1, options)


def test_custom_deck_of_ids() -> None:
    ids = list(range(1001, 1037))
    state = GAME.new_state(3, 5, {"sleeves": ids})
    view = GAME.view(state, None)
    assert all(r["sleeve"]["id"] in ids for r in view["records"])
    assert "title" not in view["records"][0]["sleeve"]


@pytest.mark.parametrize("players", range(3, 9))
def test_random_cooperative_scores_stay_in_range(players: int) -> None:
    for seed in range(20):
        state, _ = random_playout(GAME, players, seed, {"variant": "cooperative"})
        result = GAME.result(state)
        assert 9 <= result["score"] <= 9 * players
        assert result["tier"] == tier(players, result["score"])


def test_options_of_recreate_a_game_dealt_from_a_deck_given_in_any_order() -> None:
    """A table's own sleeves, listed in any order: the options read back deal the same game, and
    a whole game's log replays from them."""
    game = load("disc-cover")
    for sleeves in (list(range(100, 40, -1)), [7, 3, 99, 12, *range(20, 80)]):
        state = game.new_state(4, 3, {"variant": "competitive", "sleeves": sleeves})
        assert game.options_of(state)["sleeves"] == sleeves
        assert game.new_state(4, 3, game.options_of(state)) == state
        over, log = random_playout(game, 4, 3, {"sleeves": sleeves}, policy_seed=1)
        assert replay(game, 4, 3, game.options_of(over), log) == over
