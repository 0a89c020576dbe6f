"""The vectorised path: the same games as the engine, observations as the envs, bad indices."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from recordroom.engine.errors import BadOptions
from recordroom.engine.rng import shuffled
from recordroom.games import load
from recordroom.games.records.edition import load_edition
from recordroom.games.records.game import UNDO_LIMIT
from recordroom.rl import records_arrays as arrays
from recordroom.rl.envs import IllegalIndex, SeatGame
from recordroom.rl.spaces import action_space
from recordroom.rl.vector import RecordsVector, VectorGames


@pytest.mark.parametrize(("game", "players"), [("records", 2), ("records", 3), ("disc-cover", 4)])
def test_every_step_equals_the_plain_engine_for_the_same_seeds_and_actions(
    game: str, players: int
) -> None:
    """Each row, step by step, is the plain engine's game of that seed given the same actions:
    the same state (dumps), the same acting seat, the same legal actions (as the mask) and, at the
    end, the same returns."""
    n = 3
    vec = VectorGames(game, players, n, seed=11)
    rng = np.random.default_rng(4)
    # per row: the current game's seed and, per step, (seat, index, dumps, legal indices)
    seeds = list(vec.game_seeds)
    trace: list[list[tuple[int, int, str, tuple[int, ...]]]] = [[] for _ in range(n)]
    checked_games = 0

    def check(row: int, seed: int, steps: list[tuple[int, int, str, tuple[int, ...]]]) -> Any:
        plain = load(game)
        space = action_space(game)
        state = plain.new_state(players, seed)
        for seat, index, dumped, legal in steps:
            assert min(state.active) == seat
            state = plain.apply(state, seat, space.actions[index])
            if dumped:
                assert plain.dumps(state) == dumped
                after = min(state.active)
                assert tuple(space.indices(plain.legal_actions(state, after))) == legal
        return state

    for _ in range(400 if game == "records" else 150):
        seats = vec.seats
        actions = vec.random_actions(rng)
        assert all(int(a) in vec.legal[row] for row, a in enumerate(actions))
        acted, rewards, done = vec.step(actions)
        assert list(acted) == list(seats)
        for row in range(n):
            step = int(acted[row]), int(actions[row])
            if done[row]:
                trace[row].append((*step, "", ()))
                final = check(row, seeds[row], trace[row])
                assert plain_returns(game, final) == pytest.approx(tuple(rewards[row]))
                checked_games += 1
                trace[row] = []
                seeds[row] = vec.game_seeds[row]
            else:
                assert not rewards[row].any()
                dumped = vec.game.dumps(vec.states[row])
                trace[row].append((*step, dumped, vec.legal[row]))
    assert seeds == vec.game_seeds
    for row in range(n):
        check(row, seeds[row], trace[row])
    assert checked_games >= (1 if game == "records" else 3)
    masks = vec.masks()
    assert masks.shape == (n, vec.space.n)
    for row in range(n):
        assert tuple(np.flatnonzero(masks[row])) == tuple(sorted(vec.legal[row]))


def test_records_rows_are_stepped_without_checking_again_what_the_step_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On the engine's way, Records offers ``apply_handed``: the vector steps through it, never
    through the checked ``apply`` (whose checks would be done twice)."""
    vec = VectorGames("records", 2, 4, seed=5, compiled=False)

    def checked(*_: object) -> None:
        raise AssertionError("the vector used the checked apply")

    monkeypatch.setattr(vec.game, "apply", checked)
    rng = np.random.default_rng(2)
    for _ in range(200):
        vec.step(vec.random_actions(rng))
    assert vec.steps == 800


def test_records_rows_ask_their_legal_actions_without_a_memo_nobody_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each new state's legal actions are asked once, and applied through ``apply_handed``:
    the vector asks through ``legal_handed``, which makes no record for a checked ``apply``."""
    from recordroom.games.records import memo

    vec = VectorGames("records", 2, 4, seed=6, compiled=False)

    def remembered(*_: object) -> None:
        raise AssertionError("the vector made a record of a state's legal actions")

    monkeypatch.setattr(memo, "record", remembered)
    rng = np.random.default_rng(3)
    for _ in range(200):
        vec.step(vec.random_actions(rng))
    assert vec.steps == 800 and vec.finished_games >= 1


def plain_returns(game: str, state: object) -> tuple[float, ...]:
    return tuple(load(game).returns(state))


def test_observations_are_the_envs_observations_of_the_acting_seat() -> None:
    vec = VectorGames("records", 2, 2, seed=3)
    table = SeatGame("records", 2, None)
    rng = np.random.default_rng(0)
    for _ in range(60):
        vec.step(vec.random_actions(rng))
        obs = vec.observations()
        assert obs is vec.observations()  # encoded once per step
        for row in range(2):
            table.state = vec.states[row]
            assert np.array_equal(obs[row], table.observation(int(vec.seats[row])))
    out = np.ones((2, vec.space.n), dtype=np.int8)
    assert np.array_equal(vec.masks(out), vec.masks())
    with pytest.raises(ValueError, match="shape"):
        vec.masks(np.zeros((3, 3), dtype=np.int8))


def test_a_bad_index_changes_no_game() -> None:
    vec = VectorGames("disc-cover", 4, 2, seed=1)
    saved = [vec.game.dumps(s) for s in vec.states]
    good = vec.random_actions(np.random.default_rng(0))
    illegal = next(i for i in range(vec.space.n) if i not in vec.legal[1])
    for actions in (
        [good[0], illegal],
        [good[0]],
        [good[0], 99],
        [good[0], -1],
        np.array([True, True]),
        np.array([0.0, 1.0]),
        [[good[0]], [good[1]]],
    ):
        with pytest.raises(IllegalIndex):
            vec.step(actions)  # type: ignore[arg-type]
    assert [vec.game.dumps(s) for s in vec.states] == saved
    assert vec.steps == 0


def test_bad_arguments_name_what_is_wrong() -> None:
    with pytest.raises(BadOptions, match="unknown game 'chess'"):
        VectorGames("chess", 2, 4)
    with pytest.raises(BadOptions, match="records takes 1 to 6 players, got 7"):
        VectorGames("records", 7, 4)
    with pytest.raises(BadOptions, match="'colour'"):
        VectorGames("records", 2, 4, options={"colour": "red"})
    with pytest.raises(ValueError, match="n=0"):
        VectorGames("records", 2, 0)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_records_on_arrays_are_the_engines_games_step_by_step(players: int) -> None:
    """Records of two to six players is stepped on compiled arrays by default. Beside the
    engine's vector of the same seeds, given the same random draws, every step has the same
    acting seat and legal actions (in the same order), every row holds what the engine's state
    holds (decks, hands, discards, queues, boards, pending choices, counters), and every game
    ends at the same step with the same returns."""
    n = 4
    fast = VectorGames("records", players, n, seed=40 + players)
    plain = VectorGames("records", players, n, seed=40 + players, compiled=False)
    assert isinstance(fast, RecordsVector) and not isinstance(plain, RecordsVector)
    draws_fast, draws_plain = np.random.default_rng(players), np.random.default_rng(players)
    ended = 0
    for _ in range(250 * players):
        assert fast.legal == plain.legal
        assert list(fast.seats) == list(plain.seats)
        for row, state in enumerate(plain.states):
            assert fast.picture(row) == arrays.picture_of(fast.tables, state)
        actions = fast.random_actions(draws_fast)
        assert list(actions) == list(plain.random_actions(draws_plain))
        acted, rewards, done = fast.step(actions)
        plain_acted, plain_rewards, plain_done = plain.step(actions)
        assert list(acted) == list(plain_acted) and list(done) == list(plain_done)
        assert np.array_equal(rewards, plain_rewards)
        ended += int(done.sum())
    assert fast.game_seeds == plain.game_seeds and fast.finished_games == ended >= n
    assert np.array_equal(fast.masks(), plain.masks())
    assert [fast.game.dumps(s) for s in fast.states] == [plain.game.dumps(s) for s in plain.states]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_week_that_reshuffles_discard_piles_is_the_engines_week(players: int) -> None:
    """A week whose deck is short deals the rest of each hand from the seat's shuffled discard
    pile (rare in random play): the arrays draw the same cards, in the same order, and leave the
    same RNG state as the engine."""
    game, space = load("records"), action_space("records")
    tables = arrays.tables(load_edition("standard"), space)
    state = game.new_state(players, 3)
    while not (state.phase == "keep" and len(state.active) == 1):
        seat = min(state.active)
        state = game.apply(state, seat, game.legal_actions(state, seat)[0])
    hand = load_edition("standard").hand_size
    short = state.deck[: players * hand - 2 * players - 1]
    rest = state.deck[len(short) :]
    state = state._replace(
        deck=short, discards=tuple(rest[seat::players] for seat in range(players))
    )
    rows, legal = arrays.rows(tables, 1), np.zeros((1, space.n), dtype=np.int64)
    arrays.load_row(tables, rows[0], legal[0], state)
    seat = min(state.active)
    action = space.index(game.legal_actions(state, seat)[-1])
    acted, over = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    history = np.zeros((1, 4), dtype=np.int16)
    assert arrays.step(tables, rows, legal, history, np.array([action]), acted, over) == -1
    after = game.apply(state, seat, space.actions[action])
    assert after.rng != state.rng and after.phase == "pick"
    assert arrays.picture(tables, rows[0]) == arrays.picture_of(tables, after)
    first = min(after.active)
    count = rows[0, arrays.T_NLEGAL]
    assert tuple(legal[0, :count]) == tuple(space.indices(game.legal_actions(after, first)))


def test_the_arrays_shuffle_a_discard_pile_as_the_engine_does() -> None:
    """The compiled Mersenne Twister gives the engine's ``shuffled`` order and next RNG state."""
    for seed in (0, 1, 2**31, 2**32 + 7, 2**62 + 12_345, 4_611_686_018_427_387_903):
        for size in (0, 1, 2, 7, 30, 61):
            items = np.arange(size, dtype=np.int64) * 3
            following = arrays.shuffle(items, seed)
            assert (tuple(items.tolist()), following) == shuffled(range(0, 3 * size, 3), seed)


def test_records_on_arrays_step_without_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stepping, masks and random actions never call the engine's rules: only a new game does
    (``new_state``), and ``states`` brings the engine's states up to date when asked."""
    vec = VectorGames("records", 3, 8, seed=2)

    def engine(*_: object) -> None:
        raise AssertionError("the compiled vector called the engine's rules")

    for name in ("apply", "apply_handed", "legal_actions", "legal_handed", "returns", "view"):
        monkeypatch.setattr(vec.game, name, engine)
    rng = np.random.default_rng(5)
    for _ in range(600):
        vec.masks()
        vec.step(vec.random_actions(rng))
    assert vec.steps == 4_800 and vec.finished_games >= 1
    monkeypatch.undo()
    for row, state in enumerate(vec.states):
        assert arrays.picture_of(vec.tables, state) == vec.picture(row)


def test_a_bad_index_changes_no_game_on_arrays() -> None:
    vec = VectorGames("records", 2, 3, seed=8)
    rng = np.random.default_rng(1)
    for _ in range(30):
        vec.step(vec.random_actions(rng))
    pictures = [vec.picture(row) for row in range(3)]
    legal, steps = vec.legal, vec.steps
    good = vec.random_actions(rng)
    illegal = next(i for i in range(vec.space.n) if i not in legal[2])
    for actions in (
        [good[0], good[1], illegal],
        [good[0], good[1]],
        [good[0], good[1], 10_000],
        [good[0], good[1], -1],
        np.array([1.0, 0.0, 1.0]),
    ):
        with pytest.raises(IllegalIndex):
            vec.step(actions)  # type: ignore[arg-type]
    with pytest.raises(IllegalIndex, match=f"game 2: action index {illegal} is not legal"):
        vec.step([good[0], good[1], illegal])
    assert [vec.picture(row) for row in range(3)] == pictures
    assert vec.legal == legal and vec.steps == steps


def test_solo_and_a_refused_compilation_step_the_engine() -> None:
    """Records solo (its own turns) and ``compiled=False`` go the engine's way; the limit of
    undos is the engine's."""
    assert arrays.UNDO_LIMIT == UNDO_LIMIT
    solo = VectorGames("records", 1, 2, seed=0)
    assert not isinstance(solo, RecordsVector)
    rng = np.random.default_rng(0)
    for _ in range(50):
        solo.step(solo.random_actions(rng))
    assert solo.steps == 100


def test_records_on_arrays_are_several_times_faster_than_the_engines_way() -> None:
    """A generous bound (the bench measures it: bench/rl_vector.py): at least three times the
    engine's vector, in steps per CPU second of this process, measured side by side."""

    def rate(vec: VectorGames) -> float:
        rng = np.random.default_rng(0)
        out = np.zeros((vec.n, vec.space.n), dtype=np.int8)
        vec.masks(out)  # everything compiled (or loaded) before the clock starts
        vec.step(vec.random_actions(rng))
        cpu = time.process_time()
        for _ in range(150):
            vec.masks(out)
            vec.step(vec.random_actions(rng))
        return 150 * vec.n / (time.process_time() - cpu)

    fast = rate(VectorGames("records", 2, 64, seed=0))
    plain = rate(VectorGames("records", 2, 64, seed=0, compiled=False))
    assert fast > 3 * plain, f"{fast:,.0f} against {plain:,.0f} steps per CPU second"


def test_a_row_that_would_overflow_its_bonus_queue_says_so() -> None:
    """The arrays hold a bonus queue of at most ``MAX_QUEUE`` entries: one more is a clear
    error, not a write past the queue into the next seat's."""
    tables = arrays.tables(load_edition("standard"), action_space("records"))
    row = arrays.rows(tables, 1)[0]
    row[arrays.SEATS_AT + arrays.S_QUEUE] = arrays.MAX_QUEUE
    with pytest.raises(ValueError, match="MAX_QUEUE"):
        arrays._push(row, 0, 3)
    assert not row[arrays.QUEUES_AT + arrays.MAX_QUEUE :].any()
