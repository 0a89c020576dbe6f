"""The legal actions Records hands out from its per-edition tables are exactly the actions the
rules allow, computed here again from the board functions, for boards of real games."""

from __future__ import annotations

import random

import pytest

from recordroom.games.records import GAME
from recordroom.games.records import board as bd
from recordroom.games.records.actions import FAIL, UNDO, Action, actions_for
from recordroom.games.records.edition import HARMONY_OF, load_edition

ED = load_edition()
ACTS = actions_for(ED.name)


def boards_of_games(players: int, seeds: range) -> list[bd.Board]:
    """Every distinct board met in random games (random legal actions, lowest active seat)."""
    seen: dict[bd.Board, None] = {}
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.new_state(players, seed)
        while state.active:
            seat = min(state.active)
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
            seen.update(dict.fromkeys(state.boards))
    return list(seen)


def marks_by_the_rules(board: bd.Board, card: int) -> tuple[Action, ...]:
    kind = ED.cards[card].kind
    if kind == "agenda":
        marks = [ACTS.agenda[b] for b in range(ED.agenda_boxes) if not board.agenda >> b & 1]
    elif kind == "asset":
        marks = [ACTS.asset[b] for b in range(ED.asset_boxes) if not board.assets >> b & 1]
    else:
        firsts: dict[int, int] = {}
        for m in bd.unused_multipliers(ED, board):
            firsts.setdefault(ED.multipliers[m], m)
        spendable = sorted(firsts.values())
        slots = bd.open_slots(ED, board, ED.cards[card].role)
        marks = [ACTS.crew_mark(slot, m) for slot in slots for m in (-1, *spendable)]
    return (*marks, FAIL)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_mark_and_bonus_tables_equal_the_rules_on_boards_of_real_games(players: int) -> None:
    boards = boards_of_games(players, range(3))
    assert len(boards) > 50
    codes = range(HARMONY_OF + len(ED.colours))
    for board in boards:
        for card in range(len(ED.cards)):
            expected = marks_by_the_rules(board, card)
            got = ACTS.marks(board, card)
            assert got == expected
            assert ACTS.marks(board, card) is got  # one shared tuple per case
        for code in codes:
            targets = tuple(ACTS.bonus(code, t) for t in bd.bonus_targets(ED, board, code))
            assert ACTS.bonuses(board, code, False) == targets
            assert ACTS.bonuses(board, code, True) == (*targets, UNDO)


def test_the_actions_in_the_tables_are_the_shared_action_objects() -> None:
    board = boards_of_games(2, range(1))[-1]
    shared = {id(a) for a in (*ACTS.agenda, *ACTS.asset, *(a for row in ACTS.crew for a in row))}
    for card in range(len(ED.cards)):
        *marks, fail = ACTS.marks(board, card)
        assert fail is FAIL and all(id(a) in shared for a in marks)


def test_pick_actions_follow_the_hand_and_are_shared_per_hand() -> None:
    hand = (5, 1, 9, 3)
    picks = ACTS.picks(hand)
    assert picks == tuple(ACTS.pick[c] for c in hand)
    assert all(a is ACTS.pick[c] for a, c in zip(picks, hand, strict=True))
    assert ACTS.picks((5, 1, 9, 3)) is picks and ACTS.picks(()) == ()
