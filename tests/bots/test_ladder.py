"""Point 3, checked small and generously (the full ladder: bench/ladder.py, docs/bots.md)."""

from __future__ import annotations

import pytest

from recordroom.simulate.ladder import greedy_jobs, ismcts_jobs, run_match


def test_greedy_beats_three_random_players() -> None:
    figures = run_match(greedy_jobs(12, seed=100), "greedy", workers=1, progress=False)
    assert figures["win_rate"] >= 0.75
    # How fast it decides is measured by bench/decision_speed.py (no wall-clock assert here).
    assert figures["decision_seconds"]["greedy"]["decisions"] > 0


@pytest.mark.slow  # about a minute: scheduled among the first tests
def test_searching_bot_holds_its_own_against_greedy_on_a_small_budget() -> None:
    # 200 iterations a decision, far below the hard level's second; seats rotated.
    jobs = ismcts_jobs(2, seed=200, seconds=None, iterations=200)
    figures = run_match(jobs, "ismcts", workers=1, progress=False)
    assert figures["wins"] >= 1
    assert figures["hero_mean_score"] >= 0.9 * figures["others_mean_score"]
