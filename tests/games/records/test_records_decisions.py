"""One test per reading in the Records section of docs/rules-decisions.md.

Each test is built so that it fails under the other reading of the rule (named in its docstring).
Readings already pinned elsewhere are named at the end of this module.
"""

from __future__ import annotations

from typing import Any

import pytest

from recordroom.games.records import GAME, flow
from recordroom.games.records import board as bd
from recordroom.games.records.edition import ROLES, load_edition
from recordroom.games.records.state import NONE, State

ED = load_edition()
FAIL = {"type": "fail"}
PASS = {"type": "pass"}
DONE = {"type": "done"}


def marked(s: State, seat: int, action: dict[str, Any]) -> State:
    """``action`` marked, then the seat says done (a round's marking ends with done)."""
    s = GAME.apply(s, seat, action)
    return GAME.apply(s, seat, DONE) if DONE in GAME.legal_actions(s, seat) else s


def first_week(players: int, seed: int = 1) -> State:
    s = GAME.new_state(players, seed)
    while s.phase in ("lead_singer", "keep"):
        seat = min(s.active)
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    return s


def pick_all(s: State) -> State:
    for seat in sorted(s.active):
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    return s


def with_boards(s: State, *boards: bd.Board) -> State:
    s = s
    s = s._replace(boards=tuple(boards), shown=tuple(boards))
    return s


def fresh() -> bd.Board:
    b = bd.new_board(ED)
    b = b._replace(lead=0)
    return b


def weekend(
    boards: tuple[bd.Board, ...], public: tuple[int, ...], private: tuple[int, ...]
) -> State:
    s = with_boards(first_week(len(boards)), *boards)
    s = s._replace(hands=((),) * len(boards))
    s = s._replace(public=public)
    s = s._replace(private=private)
    return flow.weekend_next(ED, s.thaw()).freeze()


# -- weeks -----------------------------------------------------------------------------------


def test_short_deck_seats_draw_in_order_deck_first_then_own_discard() -> None:
    """Other readings: the deck shared out evenly, or a later seat drawing first."""
    s = first_week(2)
    cards = s.deck
    s = s._replace(deck=cards[:3])
    s = s._replace(discards=(cards[3:8], cards[8:13]))
    s = flow.start_week(ED, s.thaw()).freeze()
    assert set(cards[:3]) < set(s.hands[0]) and set(s.hands[0]) - set(cards[:3]) < set(cards[3:8])
    assert set(s.hands[1]) == set(cards[8:13])
    assert (len(s.discards[0]), len(s.discards[1]), s.deck) == (3, 0, ())


def test_marks_stay_hidden_until_every_marking_player_is_done() -> None:
    """Other reading: a mark shows to the table as soon as it is made."""
    s = pick_all(first_week(3))
    s = GAME.apply(s, 0, FAIL)
    assert s.phase == "mark" and s.boards[0].fails == 1
    for seat in (1, 2, None):
        assert GAME.view(s, seat)["boards"][0]["fails"] == 0
    assert GAME.view(s, 0)["boards"][0]["fails"] == 1
    s = marked(marked(GAME.apply(s, 0, DONE), 1, FAIL), 2, FAIL)
    assert all(GAME.view(s, seat)["boards"][0]["fails"] == 1 for seat in (1, 2, None))


def test_a_card_that_could_be_placed_may_still_be_failed() -> None:
    """Other reading: fail only a card that cannot be placed."""
    s = pick_all(first_week(3))
    for seat in range(3):
        legal = GAME.legal_actions(s, seat)
        assert FAIL in legal and any(a["type"] == "mark" for a in legal)


def test_a_full_fail_track_takes_no_more_ticks_and_the_card_is_discarded() -> None:
    """Other reading: a full fail track refuses the fail (the card could not be played)."""
    s = pick_all(first_week(2))
    full = s.boards[0]
    full = full._replace(fails=len(ED.fail_penalties))
    s = with_boards(s, full, s.boards[1])
    card = s.played[0]
    s = GAME.apply(s, 0, FAIL)
    assert s.boards[0].fails == len(ED.fail_penalties) and card in s.discards[0]


def test_end_of_game_ticks_earn_no_cash_removal() -> None:
    """Other reading: the second tick earns its cash removal however it was made."""
    s = flow.finish(ED, first_week(2).thaw()).freeze()
    assert all(b.cash == 0 and b.fails == len(ED.fail_penalties) for b in s.boards)
    assert s.queues == ((), ())


def test_bonuses_are_used_first_in_first_out() -> None:
    """Other reading: the newest bonus first. The cash removal waits for a choice, so the album
    queued after it must wait too."""
    board, queue = bd.resolve(ED, fresh(), (bd.CASH, bd.ALBUM))
    assert queue == (bd.CASH, bd.ALBUM) and board.albums == 0


def test_one_multiplier_per_placement_and_equal_boxes_are_one_choice() -> None:
    """Other readings: several multipliers on one card; each unspent box a separate action."""
    s = pick_all(first_week(2))
    musician = next(c.index for c in ED.cards if c.kind == "crew" and c.role == 1)
    b = s.boards[0]
    b = b._replace(mult_earned=len(ED.multipliers))
    s = with_boards(s, b, s.boards[1])
    s = s._replace(played=(musician, s.played[1]))
    spent = {a["multiplier"] for a in GAME.legal_actions(s, 0) if a["type"] == "mark"}
    values = {ED.multipliers[m] for m in spent if m is not None}
    assert None in spent and len(spent) == len(set(ED.multipliers)) + 1
    assert values == set(ED.multipliers)


@pytest.mark.parametrize("kind", ["agenda", "asset"])
def test_agenda_and_asset_cards_tick_any_empty_box(kind: str) -> None:
    """Other reading: the boxes are ticked in order (only the next box is legal)."""
    s = pick_all(first_week(2))
    card = next(c.index for c in ED.cards if c.kind == kind)
    b = s.boards[0]
    b = b._replace(agenda=0b101, assets=0b101)
    s = with_boards(s, b, s.boards[1])
    s = s._replace(played=(card, s.played[1]))
    boxes = [a["box"] for a in GAME.legal_actions(s, 0) if a["type"] == "mark"]
    size = ED.agenda_boxes if kind == "agenda" else ED.asset_boxes
    assert boxes == [i for i in range(size) if i not in (0, 2)]


# -- weekends --------------------------------------------------------------------------------


def _release_goals() -> tuple[int, int]:
    """A singles goal that gives an album, and an albums goal."""
    gives_album = next(g for g in ED.goals if g.kind == "singles" and g.bonus == bd.ALBUM)
    albums = next(g for g in ED.goals if g.kind == "albums")
    return gives_album.index, albums.index


def test_goals_are_checked_in_order_on_the_board_as_it_stands() -> None:
    """Other reading: who may claim is fixed when the weekend starts. The album earned with the
    first goal makes the second claimable in the same weekend; the claimed slot stays empty until
    the weekend ends (refill at the end, not at the discard)."""
    first, second = _release_goals()
    b = fresh()
    b = b._replace(singles=ED.goals[first].n)
    b = b._replace(albums=ED.goals[second].n - 1)
    s = weekend((b, fresh()), (first, second, NONE, NONE), (NONE, NONE))
    assert s.phase == "claim" and s.active == {0} and s.goal_slot == 0
    s = GAME.apply(s, 0, {"type": "claim", "goal": ED.goals[first].id})
    assert s.phase == "claim" and s.goal_slot == 1 and s.public[0] == NONE
    s = GAME.apply(s, 0, {"type": "claim", "goal": ED.goals[second].id})
    assert s.boards[0].goals == (first, second)


def test_claims_are_secret_until_every_eligible_player_has_chosen() -> None:
    """Other reading: claims are made in seat order, each seeing the earlier ones."""
    first, _ = _release_goals()
    b = fresh()
    b = b._replace(singles=ED.goals[first].n)
    s = weekend((b, b, fresh()), (first, NONE, NONE, NONE), (NONE, NONE, NONE))
    assert s.phase == "claim" and s.active == {0, 1}
    before = [GAME.view(s, seat) for seat in (1, 2, None)]
    s = GAME.apply(s, 0, {"type": "claim", "goal": ED.goals[first].id})
    assert [GAME.view(s, seat) for seat in (1, 2, None)] == [{**v, "waiting": [1]} for v in before]
    s = GAME.apply(s, 1, PASS)
    assert s.claims == (1, 0, NONE) and s.boards[0].goals == (first,) and not s.boards[1].goals


def test_a_full_crew_triggers_the_end_when_the_marking_round_ends() -> None:
    """Other reading: only the fail track and the goals end the game."""
    s = first_week(2)
    b = s.boards[0]
    b = b._replace(crew=tuple(range(len(b.crew))))
    s = s._replace(boards=(b, s.boards[1]), shown=(b, s.boards[1]))
    s = flow.end_round(ED, s.thaw()).freeze()
    assert s.triggers == ("crew",) and s.ending and s.phase == "pick" and s.round == 2


def test_a_goal_every_eligible_player_passed_stays() -> None:
    """Other reading: a goal that was offered is discarded whether claimed or not."""
    first, _ = _release_goals()
    b = fresh()
    b = b._replace(singles=ED.goals[first].n)
    s = weekend((b, fresh()), (first, NONE, NONE, NONE), (NONE, NONE))
    deck = s.goal_deck
    s = GAME.apply(s, 0, {"type": "pass"})
    assert s.phase == "pick" and s.public == (first, *deck[:3])


def test_empty_slots_stay_empty_when_the_goal_deck_is_out() -> None:
    """Other reading: the public row shrinks or the discarded goals come back."""
    s = first_week(2)
    s = s._replace(goal_deck=())
    s = s._replace(hands=((), ()))
    s = s._replace(private=(NONE, NONE))
    s = s._replace(public=(NONE, s.public[1], NONE, NONE))
    s = flow.weekend_next(ED, s.thaw()).freeze()
    assert s.public.count(NONE) >= 3 and len(s.public) == ED.public_goals


def test_a_goal_already_on_the_board_cannot_be_claimed_again() -> None:
    """Other reading: the same goal card scores twice if it comes back."""
    first, _ = _release_goals()
    b = fresh()
    b = b._replace(singles=ED.goals[first].n)
    assert bd.can_claim(ED, b, first)
    b = b._replace(goals=(first,))
    assert not bd.can_claim(ED, b, first)


def test_private_goals_ask_every_holder_and_a_claimed_one_is_gone() -> None:
    """Other readings: only players who meet their goal are asked (which tells the table); a new
    private goal is dealt after a claim; the goal not kept stays in play. (Every seat here has
    turned off "pass goals I cannot meet"; the next test has it on.)"""
    s = first_week(3)
    s = s._replace(settings=(0, 0, 0))
    assert s.dealt == ((), (), ()) and NONE not in s.private
    goal = s.private[0]
    s = s._replace(
        boards=(_meeting(fresh(), goal), fresh(), fresh()),
        shown=(_meeting(fresh(), goal), fresh(), fresh()),
    )
    s = s._replace(hands=((), (), ()))
    s = s._replace(public=(NONE,) * ED.public_goals)
    s = flow.weekend_next(ED, s.thaw()).freeze()
    assert s.phase == "private" and s.active == {0, 1, 2}
    assert GAME.legal_actions(s, 0) == ({"type": "claim", "goal": ED.goals[goal].id}, PASS)
    assert GAME.legal_actions(s, 1) == GAME.legal_actions(s, 2) == (PASS,)
    for seat in (0, 1, 2):
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    while s.phase == "mark":
        seat = min(s.active)
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert s.phase == "pick" and goal in s.boards[0].goals
    assert s.private[0] == NONE and NONE not in s.private[1:]


def test_unmeetable_private_goals_pass_unasked_and_the_table_cannot_tell() -> None:
    """Other readings: every holder must press pass (the setting's default is on); the table
    sees who is still deciding, or a pass told apart from an unasked one once resolved."""
    s = first_week(3)
    goal = s.private[0]
    s = s._replace(
        boards=(_meeting(fresh(), goal), fresh(), fresh()),
        shown=(_meeting(fresh(), goal), fresh(), fresh()),
    )
    s = s._replace(hands=((), (), ()))
    s = s._replace(public=(NONE,) * ED.public_goals)
    s = s._replace(settings=(1, 1, 0))
    s = flow.weekend_next(ED, s.thaw()).freeze()
    assert s.phase == "private" and s.active == {0, 2}
    assert GAME.view(s, None)["waiting"] is None and GAME.view(s, 1)["waiting"] is None
    s = GAME.apply(s, 2, PASS)
    s = GAME.apply(s, 0, PASS)
    assert s.phase == "pick" and s.claims == (0, 0, 0)
    # turned on while asked, with a goal it cannot meet: that seat passes at once
    s = first_week(3)
    s = s._replace(boards=(fresh(), fresh(), fresh()), shown=(fresh(), fresh(), fresh()))
    s = s._replace(hands=((), (), ()))
    s = s._replace(public=(NONE,) * ED.public_goals)
    s = s._replace(settings=(0, 0, 0))
    s = flow.weekend_next(ED, s.thaw()).freeze()
    s = GAME.apply(s, 1, {"type": "setting", "pass_unmet": True})
    assert s.active == {0, 2} and GAME.view(s, 1)["you"]["pass_unmet"] is True
    assert GAME.view(s, 0)["you"]["pass_unmet"] is False


def _meeting(board: bd.Board, goal: int) -> bd.Board:
    """A board that meets the goal (raising the measure it counts)."""
    g = ED.goals[goal]
    b = board
    if g.kind in ("crew", "crew_role", "crew_points"):
        cards = [c for c in ED.cards if c.kind == "crew"]
        crew = list(b.crew)
        for i, slot in enumerate(ED.crew_slots):
            crew[i] = max((c for c in cards if c.role == slot.role), key=lambda c: c.points).index
        b = b._replace(crew=tuple(crew))
        b = b._replace(crew_mult=(3,) * len(crew))
    else:
        b = b._replace(harmonies=(1 << ED.harmony_boxes) - 1)
        b = b._replace(agenda=(1 << ED.agenda_boxes) - 1)
        b = b._replace(assets=(1 << ED.asset_boxes) - 1)
        b = b._replace(albums=len(ED.album_bonuses), singles=len(ED.single_bonuses))
        b = b._replace(tour=len(ED.tour_steps), mult_earned=len(ED.multipliers))
        b = b._replace(cash=(1 << len(ED.restrictions)) - 1)
    assert bd.meets(ED, b, goal), g
    return b


def test_ties_break_on_fewer_fails_then_more_crew_points() -> None:
    """Other reading: every player with the top score wins."""
    s = first_week(2)
    a, b = fresh(), fresh()
    a = a._replace(tour=3)  # 4 points
    b = b._replace(tour=4, fails=2)  # 6 - 2 = 4 points
    assert bd.score(ED, a) == bd.score(ED, b)
    s = s._replace(boards=(a, b), shown=(a, b))
    s = s._replace(phase="over")
    assert GAME.result(s)["winners"] == [0]
    musician = next(c for c in ED.cards if c.kind == "crew" and c.role == ROLES.index("musician"))
    c, d = fresh(), fresh()
    crew = list(c.crew)
    crew[next(i for i, x in enumerate(ED.crew_slots) if x.role == musician.role)] = musician.index
    c = c._replace(crew=tuple(crew))
    steps = [i + 1 for i, t in enumerate(ED.tour_steps) if t.points == musician.points]
    d = d._replace(tour=steps[0])
    s = s._replace(boards=(d, c), shown=(d, c))
    assert bd.score(ED, c) == bd.score(ED, d)
    assert GAME.result(s)["winners"] == [1]


# -- solo ------------------------------------------------------------------------------------


def solo(kinds: tuple[str, ...], board: bd.Board | None = None) -> State:
    """A solo turn whose hand (and next cards) are of these kinds."""
    s = GAME.apply(GAME.new_state(1, 3), 0, {"type": "lead_singer", "colour": "red"})
    cards: list[int] = []
    for kind in kinds:
        cards.append(next(c.index for c in ED.cards if c.kind == kind and c.index not in cards))
    rest = tuple(c for c in s.deck if c not in cards)
    s = s._replace(hands=(tuple(cards[:2]),))
    s = s._replace(deck=(*cards[2:], *rest))
    if board is not None:
        s = s._replace(boards=(board,), shown=(board,))
    return s


def _claimable_row(s: State) -> tuple[State, int]:
    """The solo state with a board that meets the goal in the first slot of the row."""
    goal = s.public[0]
    return with_boards(s, _meeting(fresh(), goal)), goal


def test_solo_option_b_with_a_free_choice_still_leads_to_the_goal_step() -> None:
    """Other reading: only the forced odd-one-out play is followed by a goal claim."""
    s, goal = _claimable_row(solo(("agenda", "agenda", "agenda")))
    s = GAME.apply(s, 0, {"type": "draw"})
    assert len(GAME.legal_actions(s, 0)) == 3  # all one type: any card
    s = marked(GAME.apply(s, 0, GAME.legal_actions(s, 0)[0]), 0, FAIL)
    assert s.phase == "goal"
    assert {"type": "claim", "goal": ED.goals[goal].id} in GAME.legal_actions(s, 0)


def test_solo_option_a_never_leads_to_the_goal_step() -> None:
    """Other reading: every turn may end with a goal claim."""
    s, _ = _claimable_row(solo(("agenda", "asset")))
    s = marked(GAME.apply(s, 0, GAME.legal_actions(s, 0)[0]), 0, FAIL)
    assert s.phase == "turn" and s.turn == 2


def test_solo_option_b_without_a_claimable_goal_passes_by_itself() -> None:
    """Other reading: the player is asked to pass; the row stays as it was."""
    s = solo(("agenda", "agenda", "agenda"))
    row, deck = s.public, s.goal_deck
    s = GAME.apply(s, 0, {"type": "draw"})
    s = marked(GAME.apply(s, 0, GAME.legal_actions(s, 0)[0]), 0, FAIL)
    assert s.phase == "turn" and s.public == (deck[0], *row[:3])


def test_solo_option_b_is_unavailable_when_the_deck_is_empty() -> None:
    """Other reading: option B with two cards (no third card) is still allowed."""
    s = solo(("agenda", "asset"))
    s = s._replace(deck=())
    assert [a["type"] for a in GAME.legal_actions(s, 0)] == ["pick", "pick"]


def test_solo_ends_at_the_start_of_a_turn_with_fewer_than_two_cards() -> None:
    """Other reading: the last single card is still played."""
    s = solo(("agenda", "asset"))
    s = s._replace(deck=s.deck[:1])
    s = marked(GAME.apply(s, 0, GAME.legal_actions(s, 0)[0]), 0, FAIL)
    assert s.phase == "over" and s.triggers == ("deck",) and len(s.deck) == 1


def test_solo_ends_at_the_end_of_a_turn_with_a_full_fail_track() -> None:
    """Other reading: the solo game only ends when the deck runs out."""
    b = fresh()
    b = b._replace(fails=len(ED.fail_penalties) - 1)
    s = solo(("agenda", "asset"), b)
    s = marked(GAME.apply(s, 0, GAME.legal_actions(s, 0)[0]), 0, FAIL)
    assert s.phase == "over" and "fail" in s.triggers and len(s.deck) >= 2


# Pinned in test_records_game.py: played cards go to the private discard (the discard holds a
# week's five cards); end triggers during a week and during a weekend; the pass direction; the
# solo goal row. In test_records_board.py: the second fail's cash removal, the multiplier's
# value, the lead singer colour, a bonus with one place used at once and one with none lost.
