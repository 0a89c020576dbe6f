"""Records states and boards are frozen values; copies, memos and the score come from one place."""

from __future__ import annotations

import dataclasses
import threading

import pytest

from recordroom.engine import random_playout, replay
from recordroom.games.records import GAME, memo
from recordroom.games.records import board as bd
from recordroom.games.records.edition import load_edition
from recordroom.games.records.kinds import Phase
from recordroom.games.records.state import State, dumps, loads

ED = load_edition()


def middle(seed: int) -> State:
    _, log = random_playout(GAME, 3, seed)
    state: State = replay(GAME, 3, seed, None, log[: len(log) // 2])
    return state


def test_states_and_boards_refuse_to_change() -> None:
    s = middle(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.phase = Phase.OVER  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.boards[0].fails = 3  # type: ignore[misc]


def test_replace_and_drafts_copy_every_field_and_leave_the_original() -> None:
    s = middle(2)
    saved = dumps(s)
    changed = s._replace(week=s.week + 1, deck=())
    assert changed == dataclasses.replace(s, week=s.week + 1, deck=())
    assert changed != s and dumps(s) == saved
    draft = s.thaw()
    draft.round = 99
    frozen = draft.freeze()
    assert type(frozen) is State and frozen.round == 99 and dumps(s) == saved
    assert frozen == dataclasses.replace(s, round=99)
    with pytest.raises(AttributeError):
        s._replace(no_such_field=1)
    board = s.boards[0]._replace(albums=4)
    assert board == dataclasses.replace(s.boards[0], albums=4) and board.albums == 4


def test_every_field_survives_dumps_and_loads() -> None:
    s = middle(3)
    again = loads(dumps(s))
    for field in dataclasses.fields(State):
        assert getattr(again, field.name) == getattr(s, field.name), field.name
    assert type(again.phase) is Phase


@pytest.mark.parametrize("seed", range(4))
def test_score_is_the_sum_of_the_breakdown(seed: int) -> None:
    final, _ = random_playout(GAME, 4, seed)
    for b in final.boards:
        assert bd.score(ED, b) == sum(bd.score_breakdown(ED, b).values())
    assert [bd.score(ED, b) for b in final.boards] == GAME.result(final)["scores"]


def test_a_thread_never_reads_the_memo_of_another_threads_state() -> None:
    mine, theirs = middle(4), middle(5)
    record = memo.record(mine)
    legal = GAME.legal_actions(mine, min(mine.active))
    seen: list[object] = []

    def other() -> None:
        seen.append(memo.record(mine) is record)
        seen.append(memo.record(theirs).state is theirs)
        GAME.legal_actions(theirs, min(theirs.active))

    worker = threading.Thread(target=other)
    worker.start()
    worker.join()
    assert seen == [False, True]
    assert memo.record(mine) is record and GAME.legal_actions(mine, min(mine.active)) is legal
