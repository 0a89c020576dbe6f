"""Each area of the player board: marking, bonuses, bonus chains and scoring (table-driven)."""

from __future__ import annotations

import pytest

from recordroom.games.records import board as bd
from recordroom.games.records.edition import HARMONY_OF, ROLES, load_edition

ED = load_edition()


def fresh(lead: int = 0) -> bd.Board:
    b = bd.new_board(ED)
    b = b._replace(lead=lead)
    return b


def card_of(role: str, sides: tuple[int, ...] | None = None) -> int:
    r = ROLES.index(role)
    for c in ED.cards:
        if c.kind == "crew" and c.role == r and (sides is None or c.sides == sides):
            return c.index
    raise LookupError(role)


@pytest.mark.parametrize(("ticks", "penalty"), [(0, 0), (1, 0), (2, -2), (3, -5), (6, -16)])
def test_fail_penalty_by_rightmost_tick(ticks: int, penalty: int) -> None:
    b = fresh()
    for _ in range(ticks):
        b, _ = bd.tick_fail(ED, b)
    assert bd.score_breakdown(ED, b)["fail"] == penalty


def test_second_fail_earns_cash_and_full_track_takes_no_more() -> None:
    b = fresh()
    b, first = bd.tick_fail(ED, b)
    b, second = bd.tick_fail(ED, b)
    assert (first, second) == ((), (bd.CASH,))
    for _ in range(10):
        b, _ = bd.tick_fail(ED, b)
    assert b.fails == len(ED.fail_penalties) and bd.fail_full(ED, b)


@pytest.mark.parametrize(
    ("boxes", "expected"),
    [
        ((0, 1), ()),
        ((0, 1, 2), (bd.SINGLE,)),  # row 1
        ((0, 3, 6), (bd.HARMONY,)),  # column 1
        ((0, 8, 4), (bd.MULTIPLIER,)),  # diagonal
    ],
)
def test_agenda_lines(boxes: tuple[int, ...], expected: tuple[int, ...]) -> None:
    b = fresh()
    earned: tuple[int, ...] = ()
    for box in boxes:
        b, earned = bd.tick_agenda(ED, b, box)
    assert earned == expected


def test_agenda_box_completing_two_lines_earns_both() -> None:
    b = fresh()
    for box in (0, 1, 3, 6):
        b, _ = bd.tick_agenda(ED, b, box)
    b, _ = bd.tick_agenda(ED, b, 8)
    b, _ = bd.tick_agenda(ED, b, 4)
    b, earned = bd.tick_agenda(ED, b, 2)  # completes row 1 and the anti-diagonal
    assert set(earned) == {bd.SINGLE, bd.HARMONY}


@pytest.mark.parametrize(
    ("ticked", "box", "expected"),
    [
        ((), 0, ()),
        ((1,), 0, (ED.asset_bonuses[0],)),
        ((0, 2), 1, (ED.asset_bonuses[0], ED.asset_bonuses[1])),
        ((6,), 7, (ED.asset_bonuses[6],)),
    ],
)
def test_assets_bonus_between_two_ticked_boxes(
    ticked: tuple[int, ...], box: int, expected: tuple[int, ...]
) -> None:
    b = fresh()
    for t in ticked:
        b, _ = bd.tick_asset(ED, b, t)
    assert bd.tick_asset(ED, b, box)[1] == expected


@pytest.mark.parametrize(("albums", "singles", "points"), [(0, 5, 0), (2, 3, 6), (4, 6, 24)])
def test_release_scores_albums_times_singles(albums: int, singles: int, points: int) -> None:
    b = fresh()
    b = b._replace(albums=albums, singles=singles)
    assert bd.score_breakdown(ED, b)["release"] == points


def test_release_ticks_left_to_right_with_bonuses_and_stops_when_full() -> None:
    b = fresh()
    earned_all: list[int] = []
    while bd.bonus_targets(ED, b, bd.ALBUM):
        b, earned = bd.gain(ED, b, bd.ALBUM, 0)
        earned_all.extend(earned)
    assert b.albums == len(ED.album_bonuses)
    assert earned_all == [x for x in ED.album_bonuses if x >= 0]


def test_crew_points_multiplier_and_only_own_sub_area() -> None:
    b = fresh()
    musician = card_of("musician")
    assert bd.open_slots(ED, b, ROLES.index("musician")) == (0, 1, 2)  # slot 4 is cash-restricted
    b = b._replace(mult_earned=1)
    b, earned = bd.place_crew(ED, b, musician, 0, 0)
    assert bd.crew_points(ED, b) == ED.cards[musician].points * ED.multipliers[0]
    assert bd.unused_multipliers(ED, b) == ()
    assert earned[0] == ED.crew_slots[0].bonus
    assert 0 not in bd.open_slots(ED, b, ROLES.index("musician"))


def test_cash_restricted_slot_opens_after_removal() -> None:
    b = fresh()
    r = ED.crew_slots[3].restriction
    assert 3 not in bd.open_slots(ED, b, ROLES.index("musician"))
    b, _ = bd.lift_cash(ED, b, r)
    assert 3 in bd.open_slots(ED, b, ROLES.index("musician"))


def test_touching_sides_of_one_colour_make_a_harmony_and_the_singer_wears_the_lead_colour() -> None:
    b = fresh(lead=2)
    singer = card_of("singer")
    b, _ = bd.place_crew(ED, b, singer, 5, -1)
    assert bd.side_colours(ED, b, 5) == (2, 2, 2, 2)
    # a musician above the singer (slot 1) whose bottom side is the lead colour
    musician = next(
        c.index for c in ED.cards if c.kind == "crew" and c.role == 1 and c.sides[2] == 2
    )
    b, earned = bd.place_crew(ED, b, musician, 1, -1)
    assert HARMONY_OF + 2 in earned


def test_tour_stops_at_a_cash_step_until_lifted() -> None:
    b = fresh()
    gate = next(i for i, s in enumerate(ED.tour_steps) if s.restriction >= 0)
    for _ in range(gate):
        b, _ = bd.gain(ED, b, bd.TOUR, 0)
    assert bd.bonus_targets(ED, b, bd.TOUR) == ()
    b, _ = bd.lift_cash(ED, b, ED.tour_steps[gate].restriction)
    assert bd.bonus_targets(ED, b, bd.TOUR) == (0,)


def test_harmony_rows_and_columns_score() -> None:
    b = fresh()
    cols = ED.harmony_columns
    b = b._replace(harmonies=(1 << cols) - 1)  # the first colour's row
    assert bd.harmony_points(ED, b) == ED.harmony_row_points
    b = b._replace(harmonies=sum(1 << (c * cols) for c in range(len(ED.colours))))  # first column
    assert bd.harmony_points(ED, b) == ED.harmony_column_points


def test_colour_harmony_only_in_its_row_any_harmony_anywhere() -> None:
    b = fresh()
    cols = ED.harmony_columns
    assert bd.bonus_targets(ED, b, HARMONY_OF + 1) == tuple(range(cols, 2 * cols))
    assert len(bd.bonus_targets(ED, b, bd.HARMONY)) == ED.harmony_boxes


def test_bonus_chain_runs_until_a_choice_and_loses_unusable_bonuses() -> None:
    b = fresh()
    b = b._replace(albums=1)  # the next album box carries a bonus (tour)
    b, queue = bd.resolve(ED, b, (bd.ALBUM,))
    assert (b.albums, b.tour, queue) == (2, 1, ())
    b = b._replace(mult_earned=len(ED.multipliers))
    b, queue = bd.resolve(ED, b, (bd.MULTIPLIER, bd.CASH))
    assert queue == (bd.CASH,)  # the multiplier is lost, the cash removal needs a choice


@pytest.mark.parametrize(
    ("kind", "setup", "value"),
    [
        ("albums", {"albums": 3}, 3),
        ("release", {"albums": 2, "singles": 3}, 5),
        ("tour", {"tour": 4}, 4),
        ("cash", {"cash": 0b101}, 2),
        ("assets", {"assets": 0b111}, 3),
        ("asset_bonuses", {"assets": 0b111}, 2),
        ("harmonies", {"harmonies": 0b1011}, 3),
    ],
)
def test_goal_measures(kind: str, setup: dict[str, int], value: int) -> None:
    b = fresh()
    for k, v in setup.items():
        b = b._replace(**{k: v})
    assert bd.measure(ED, b, kind) == value


def test_goal_claim_needs_a_free_box() -> None:
    b = fresh()
    goal = next(g.index for g in ED.goals if g.kind == "albums")
    b = b._replace(albums=len(ED.album_bonuses))
    assert bd.can_claim(ED, b, goal)
    b = b._replace(goals=tuple(g.index for g in ED.goals[: ED.goal_boxes] if g.index != goal)[:6])
    assert not bd.can_claim(ED, b, goal)
