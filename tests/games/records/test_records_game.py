"""The game flow: setup, picks and their secrecy, passing, private discards, weekends, end
triggers and every solo option (table-driven where the rules are tables)."""

from __future__ import annotations

import pytest

from recordroom.engine import IllegalAction, NotYourTurn, random_playout
from recordroom.games.records import GAME, flow
from recordroom.games.records import board as bd
from recordroom.games.records.edition import load_edition
from recordroom.games.records.state import NONE, State

ED = load_edition()


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


def fail_all(s: State) -> State:
    while s.phase == "mark":
        seat = min(s.active)
        legal = GAME.legal_actions(s, seat)
        s = GAME.apply(s, seat, {"type": "fail"} if {"type": "fail"} in legal else legal[0])
    return s


def test_setup_choices_are_secret_and_changeable() -> None:
    s = GAME.new_state(3, 5)
    s = GAME.apply(s, 0, {"type": "lead_singer", "colour": "blue"})
    assert GAME.view(s, 1)["you"]["pending"] is None
    assert GAME.view(s, 0)["you"]["pending"] == "blue"
    s = GAME.apply(s, 0, {"type": "lead_singer", "colour": "green"})  # a change
    assert GAME.view(s, 0)["you"]["pending"] == "green"
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, {"type": "lead_singer", "colour": "pink"})
    s = GAME.apply(s, 1, {"type": "lead_singer", "colour": "red"})
    s = GAME.apply(s, 2, {"type": "lead_singer", "colour": "red"})
    assert [b.lead for b in s.boards] == [2, 0, 0]
    assert s.phase == "keep" and all(len(d) == 2 for d in s.dealt)
    dealt = GAME.view(s, 1)["you"]["dealt"]
    assert GAME.view(s, 0)["you"]["dealt"] != dealt and "dealt" not in GAME.view(s, None)


def test_pick_is_hidden_until_all_have_picked_then_everyone_marks() -> None:
    s = first_week(3)
    card = GAME.legal_actions(s, 0)[0]["card"]
    s = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0])
    assert 0 not in s.active
    assert GAME.view(s, 1)["revealed"] == GAME.view(GAME.new_state(3, 1), 1)["revealed"]
    with pytest.raises(IllegalAction):  # a pending pick may only change into another pick
        GAME.apply(s, 0, {"type": "fail"})
    failed = GAME.apply(GAME.apply(pick_all(s), 0, {"type": "fail"}), 0, {"type": "done"})
    with pytest.raises(NotYourTurn):
        GAME.apply(failed, 0, {"type": "fail"})
    s = pick_all(s)
    assert s.phase == "mark" and s.active == {0, 1, 2}
    assert GAME.view(s, 2)["revealed"][0] == card


@pytest.mark.parametrize(("week", "step"), [(1, 1), (2, -1), (3, 1)])
def test_hands_pass_in_alternating_directions(week: int, step: int) -> None:
    s = first_week(4)
    s = s
    s = s._replace(week=week)
    before = s.hands
    s = fail_all(pick_all(s))
    for seat in range(4):
        giver = (seat - step) % 4
        assert set(s.hands[seat]) < set(before[giver])


def test_last_card_goes_to_the_private_discard_and_draws_come_from_it() -> None:
    s = first_week(2)
    for _ in range(ED.picks_per_week):
        s = fail_all(pick_all(s))
    while s.phase != "pick":
        seat = min(s.active)
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[-1])
    assert all(len(d) == ED.hand_size for d in s.discards)  # 4 played + the last card
    s = s
    s = s._replace(deck=s.deck[:3])
    s = s._replace(week=1)
    s = s._replace(phase="over")
    mine = set(s.discards[1])
    s = flow.start_week(ED, s.thaw()).freeze()
    assert len(s.hands[1]) == ED.hand_size and set(s.hands[1]) <= mine


def test_several_players_claim_one_public_goal() -> None:
    s = first_week(3)
    goal = next(g.index for g in ED.goals if g.kind == "albums")
    boards = []
    for b in s.boards:
        b = b
        b = b._replace(albums=ED.goals[goal].n)
        boards.append(b)
    s = s._replace(boards=tuple(boards), shown=tuple(boards))
    s = s._replace(public=(goal, NONE, NONE, NONE))
    s = s._replace(hands=((),) * 3)
    s = flow.weekend_next(ED, s.thaw()).freeze()
    assert s.phase == "claim" and s.active == {0, 1, 2}
    s = GAME.apply(s, 0, {"type": "claim", "goal": ED.goals[goal].id})
    s = GAME.apply(s, 1, {"type": "pass"})
    s = GAME.apply(s, 2, {"type": "claim", "goal": ED.goals[goal].id})
    assert [b.goals for b in s.boards] == [(goal,), (), (goal,)]
    assert goal not in s.public[:1] or s.public[0] != goal


def test_goal_nobody_can_claim_is_discarded_and_refilled() -> None:
    s = first_week(2)
    s = s._replace(hands=((), ()))
    goal = next(g.index for g in ED.goals if g.kind == "tour" and g.n > 5)
    s = s._replace(public=(goal, NONE, NONE, NONE))
    s = s._replace(private=(NONE, NONE))
    deck = s.goal_deck
    s = flow.weekend_next(ED, s.thaw()).freeze()
    assert s.phase == "pick" and s.public == deck[:4]


@pytest.mark.parametrize("when", ["week", "weekend"])
def test_end_trigger_finishes_the_week_then_a_final_weekend(when: str) -> None:
    s = first_week(2)
    if when == "week":
        b = s.boards[0]
        b = b._replace(fails=len(ED.fail_penalties) - 1)
        s = s._replace(boards=(b, s.boards[1]), shown=(b, s.boards[1]))
        s = pick_all(s)
        s = GAME.apply(s, 0, {"type": "fail"})
        s = fail_all(s)
        assert s.triggers == ("fail",) and s.phase == "pick" and s.round == 2
        for _ in range(ED.picks_per_week - 1):
            s = fail_all(pick_all(s))
        assert s.phase in ("claim", "private", "over")
    else:
        b = s.boards[0]
        goal = next(g.index for g in ED.goals if g.kind == "albums")
        b = b._replace(goals=tuple(g.index for g in ED.goals if g.index != goal)[:5])
        b = b._replace(albums=ED.goals[goal].n)
        s = s._replace(boards=(b, s.boards[1]), shown=(b, s.boards[1]))
        s = s._replace(public=(goal, NONE, NONE, NONE))
        s = s._replace(hands=((), ()))
        s = s._replace(private=(NONE, NONE))
        s = flow.weekend_next(ED, s.thaw()).freeze()
        s = GAME.apply(s, 0, {"type": "claim", "goal": ED.goals[goal].id})
        assert s.triggers == ("goals",)
    while not GAME.is_over(s):
        seat = min(s.active)
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[-1])
    assert s.phase == "over"


def test_end_penalty_ticks_a_fail_box_per_missing_crew_member() -> None:
    s = first_week(2)
    s = flow.finish(ED, s.thaw()).freeze()
    assert all(b.fails == len(ED.fail_penalties) for b in s.boards)
    result = GAME.result(s)
    assert result["scores"] == [ED.fail_penalties[-1]] * 2 and result["winners"] == [0, 1]


# -- solo ---------------------------------------------------------------------------------------


def solo_turn(kinds: tuple[str, ...]) -> State:
    s = GAME.apply(GAME.new_state(1, 3), 0, {"type": "lead_singer", "colour": "red"})
    cards = []
    for kind in kinds:
        cards.append(next(c.index for c in ED.cards if c.kind == kind and c.index not in cards))
    s = s._replace(hands=(tuple(cards[:2]),))
    s = s._replace(deck=(*cards[2:], *s.deck))
    return s


def test_solo_option_a_plays_one_discards_the_other_and_skips_goals() -> None:
    s = solo_turn(("agenda", "asset"))
    played = ED.cards[s.hands[0][0]].id
    s = GAME.apply(s, 0, {"type": "pick", "card": played})
    assert s.phase == "mark" and len(s.discards[0]) == 1
    s = GAME.apply(GAME.apply(s, 0, {"type": "fail"}), 0, {"type": "done"})
    assert s.phase == "turn" and s.turn == 2


@pytest.mark.parametrize(
    ("kinds", "playable"),
    [
        (("agenda", "agenda", "agenda"), 3),
        (("agenda", "asset", "crew"), 3),
        (("agenda", "agenda", "asset"), 1),
        (("crew", "asset", "crew"), 1),
    ],
)
def test_solo_option_b_third_card(kinds: tuple[str, ...], playable: int) -> None:
    s = GAME.apply(solo_turn(kinds), 0, {"type": "draw"})
    legal = GAME.legal_actions(s, 0)
    assert len(legal) == playable
    if playable == 1:
        odd = next(k for k in kinds if kinds.count(k) == 1)
        assert ED.cards[ED.card_by_id[legal[0]["card"]]].kind == odd


@pytest.mark.parametrize(
    ("claim_slot", "expected_rest"),
    [(None, (0, 1, 2)), (3, (0, 1, 2)), (1, (0, 2))],
)
def test_solo_goal_row(claim_slot: int | None, expected_rest: tuple[int, ...]) -> None:
    s = solo_turn(("agenda", "agenda", "agenda"))
    row = s.public
    draft = s.thaw()
    flow.solo_goal_row(ED, draft, NONE if claim_slot is None else claim_slot)
    s = draft.freeze()
    rest = tuple(row[i] for i in expected_rest)
    assert s.public[-len(rest) :] == rest and len(s.public) == 4
    assert set(s.public[: 4 - len(rest)]).isdisjoint(row)


def test_solo_ends_when_two_cards_cannot_be_drawn() -> None:
    state, _ = random_playout(GAME, 1, 4)
    assert GAME.is_over(state)
    result = GAME.result(state)
    assert "rank" in result and (len(state.deck) < 2 or state.triggers != ("deck",))


def test_solo_claim_after_option_b() -> None:
    s = GAME.apply(solo_turn(("agenda", "agenda", "agenda")), 0, {"type": "draw"})
    goal = s.public[2]
    b = s.boards[0]
    g = ED.goals[goal]
    b = b._replace(albums=len(ED.album_bonuses), singles=len(ED.single_bonuses))
    b = b._replace(tour=len(ED.tour_steps), mult_earned=len(ED.multipliers))
    b = b._replace(agenda=0, assets=0, harmonies=0)
    s = s._replace(boards=(b,), shown=(b,))
    s = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0])
    s = GAME.apply(s, 0, {"type": "fail"})
    if bd.can_claim(ED, s.boards[0], goal):
        assert s.phase == "goal"
        s = GAME.apply(s, 0, {"type": "claim", "goal": g.id})
        assert goal in s.boards[0].goals and goal not in s.public
