"""Events (the game log as data), undo and done in a round's marking, and the pass setting."""

from __future__ import annotations

from typing import Any

import pytest

from recordroom.engine import IllegalAction, MalformedAction, NotYourTurn, random_playout
from recordroom.games.records import GAME, flow
from recordroom.games.records import board as bd
from recordroom.games.records import events as ev
from recordroom.games.records.edition import load_edition
from recordroom.games.records.game import UNDO_LIMIT
from recordroom.games.records.state import State

ED = load_edition()
DONE = {"type": "done"}
UNDO = {"type": "undo"}
FAIL = {"type": "fail"}


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


def events_of(s: State, seat: int | None = None) -> list[dict[str, Any]]:
    return list(GAME.view(s, seat)["events"])


def test_every_bonus_names_its_cause_and_chains_link_up() -> None:
    """A bonus is caused by a mark, a goal, a fail box, a completed line or pair, or by the box
    an earlier bonus of the same seat went to."""
    chains = 0
    for seed in range(6):
        state, _ = random_playout(GAME, 3, seed)
        at: dict[int, set[str]] = {0: set(), 1: set(), 2: set()}
        for e in events_of(state):
            if e["type"] == "mark" and e["area"] == "crew":
                at[e["seat"]].add(f"crew:{e['slot']}")
            if e["type"] in ("bonus", "lost"):
                cause = e["cause"]
                area = cause.split(":")[0]
                assert area in ("crew", "goal", "fail", "agenda_line", "asset_pair") or (
                    cause in at[e["seat"]]
                ), e
                chains += cause in at[e["seat"]] and area != "crew"
            if e["type"] == "bonus":
                at[e["seat"]].add(e["at"])
        over = events_of(state)[-1]
        assert over == {"type": "game_over", "scores": GAME.result(state)["scores"]}
    assert chains > 0  # some bonus was earned by another bonus


def test_lost_bonuses_say_why() -> None:
    board = bd.new_board(ED)
    board = board._replace(albums=len(ED.album_bonuses))
    out: list[ev.Event] = []
    ev.resolve(ED, board, 1, (bd.ALBUM,), ("crew:2",), out)
    assert out == [{"type": "lost", "seat": 1, "bonus": "album", "cause": "crew:2", "why": "full"}]
    locked = next(i for i, step in enumerate(ED.tour_steps) if step.restriction >= 0)
    board = bd.new_board(ED)
    board = board._replace(tour=locked)
    out = []
    ev.resolve(ED, board, 0, (bd.TOUR,), ("single:2",), out)
    assert out[0]["why"] == "locked" and out[0]["type"] == "lost"


def test_marks_and_their_events_stay_hidden_until_every_seat_is_done() -> None:
    s = pick_all(first_week(3))
    played = [e for e in events_of(s) if e["type"] == "played"]
    assert [e["seat"] for e in played] == [0, 1, 2]
    public = events_of(s)
    s = GAME.apply(s, 0, FAIL)
    own = events_of(s, 0)
    assert own[: len(public)] == public and own[len(public)]["type"] == "fail"
    assert GAME.view(s, 0)["you"]["unrevealed"] == len(own) - len(public)
    assert events_of(s, 1) == events_of(s, None) == public
    s = GAME.apply(s, 0, DONE)
    assert GAME.view(s, None)["marking"] == [1, 2] and events_of(s, 1) == public
    for seat in (1, 2):
        s = GAME.apply(GAME.apply(s, seat, FAIL), seat, DONE)
    fails = [e["seat"] for e in events_of(s) if e["type"] == "fail"]
    assert fails == [0, 1, 2] and s.phase == "pick"


def test_undo_takes_back_the_seats_marks_and_its_events() -> None:
    s = pick_all(first_week(2))
    card = s.played[0]
    start = events_of(s, 0)
    mark = next(a for a in GAME.legal_actions(s, 0) if a["type"] == "mark")
    s = GAME.apply(s, 0, mark)
    while s.queues[0]:
        s = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0])
    assert GAME.legal_actions(s, 0) == (DONE, UNDO)
    view_1 = GAME.view(s, 1)
    s = GAME.apply(s, 0, UNDO)
    assert s.played[0] == card and s.boards[0] is s.shown[0] and events_of(s, 0) == start
    assert GAME.view(s, 1) == view_1  # nobody else can tell
    assert GAME.view(s, 0)["you"]["undos"] == 1
    for _ in range(UNDO_LIMIT - 1):
        s = GAME.apply(GAME.apply(s, 0, mark), 0, UNDO)
    s = GAME.apply(s, 0, mark)
    while s.queues[0]:
        s = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0])
    assert s.undos[0] == UNDO_LIMIT and GAME.legal_actions(s, 0) == (DONE,)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(s, 0, UNDO)
    assert refused.value.code == "mark/undo_refused"


def test_clear_codes_for_undo_and_done_out_of_place() -> None:
    s = first_week(2)
    for action, code in ((UNDO, "mark/undo_refused"), (DONE, "mark/done_refused")):
        with pytest.raises(IllegalAction) as refused:  # in the pick phase
            GAME.apply(s, 0, action)
        assert refused.value.code == code
    s = pick_all(s)
    with pytest.raises(IllegalAction) as refused:  # the card is not marked yet
        GAME.apply(s, 0, DONE)
    assert refused.value.code == "mark/done_refused"
    with pytest.raises(IllegalAction) as refused:  # nothing to take back
        GAME.apply(s, 0, UNDO)
    assert refused.value.code == "mark/undo_refused"
    s = GAME.apply(GAME.apply(s, 0, FAIL), 0, DONE)
    saved = GAME.dumps(s)
    for action in (DONE, UNDO, FAIL):
        with pytest.raises(NotYourTurn) as late:  # done twice, or anything after done
            GAME.apply(s, 0, action)
        assert late.value.code == "mark/already_done"
    assert GAME.dumps(s) == saved
    for bad in ({"type": "setting", "pass_unmet": 1}, {"type": "setting"}):
        with pytest.raises(MalformedAction):
            GAME.apply(s, 0, bad)


def test_a_forced_marking_offers_done_alone() -> None:
    """A seat with nothing to choose (its card can only be failed) has no undo: done alone,
    which the room sends for it after the same short delay as everyone's."""
    s = pick_all(first_week(2))
    full = s.boards[0]
    full = full._replace(crew=tuple(0 for _ in full.crew))
    full = full._replace(agenda=(1 << ED.agenda_boxes) - 1)
    full = full._replace(assets=(1 << ED.asset_boxes) - 1)
    s = s._replace(boards=(full, s.boards[1]), shown=(full, s.boards[1]))
    assert GAME.legal_actions(s, 0) == (FAIL,)
    s = GAME.apply(s, 0, FAIL)
    assert GAME.legal_actions(s, 0) == (DONE,)


def test_goals_discarded_refilled_and_end_ticks_are_events() -> None:
    s = first_week(2)
    s = s._replace(hands=((), ()))
    s = flow.weekend_next(ED, s.thaw()).freeze()
    discarded = [e for e in events_of(s) if e["type"] == "goal_discarded"]
    assert discarded and all(e["why"] == "unclaimed" for e in discarded)
    s = s
    s = s._replace(phase="private", active=frozenset())
    s = flow.end_weekend(ED, s.thaw()).freeze()
    refilled = [e for e in events_of(s) if e["type"] == "goal_refilled"]
    assert [e["slot"] for e in refilled] == [e["slot"] for e in discarded]
    s = flow.finish(ED, s.thaw()).freeze()
    ticks = [e for e in events_of(s) if e["type"] == "end_ticks"]
    assert [(e["seat"], e["missing"]) for e in ticks] == [(0, 12), (1, 12)]
    assert len(ED.crew_slots) == 12


def test_solo_goal_row_discards_are_events() -> None:
    state, _ = random_playout(GAME, 1, 4)
    kinds = {e["type"] for e in events_of(state)}
    assert {"turn", "played", "goal_discarded", "goal_refilled", "end_trigger"} <= kinds
    assert all(e["why"] == "solo_row" for e in events_of(state) if e["type"] == "goal_discarded")


def test_events_survive_dumps_and_loads() -> None:
    s = GAME.apply(pick_all(first_week(3)), 1, FAIL)
    again = GAME.loads(GAME.dumps(s))
    assert (
        again.log == s.log and again.hidden == s.hidden and GAME.view(again, 1) == GAME.view(s, 1)
    )


def test_setup_shows_the_direction_of_the_first_week() -> None:
    """A defect: the table said counter-clockwise during setup though week 1 passes clockwise."""
    s = GAME.new_state(3, 2)
    assert GAME.view(s, None)["direction"] == "clockwise"
    assert GAME.view(first_week(3), None)["direction"] == "clockwise"


def test_a_solo_game_asks_each_goal_for_half_its_number() -> None:
    """Solo retune (data, not rules): ``[solo] goal_scale`` of the edition; other games as is."""
    from recordroom.games.records import board as bd
    from recordroom.games.records.edition import for_players

    solo = for_players(ED, 1)
    assert ED.solo_goal_scale == 0.5 and for_players(ED, 3) is ED and for_players(ED, 1) is solo
    for goal, half in zip(ED.goals, solo.goals, strict=True):
        assert half.n == max(1, -(-goal.n // 2)) and half.points == goal.points
    s = GAME.apply(GAME.new_state(1, 3), 0, {"type": "lead_singer", "colour": "red"})
    assert GAME.view(s, 0)["goal_scale"] == 0.5
    tour = next(g for g in ED.goals if g.kind == "tour")
    board = bd.new_board(ED)
    board = board._replace(tour=solo.goals[tour.index].n)
    assert bd.can_claim(solo, board, tour.index) and not bd.can_claim(ED, board, tour.index)
