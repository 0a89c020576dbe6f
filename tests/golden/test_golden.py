"""The seeded playthroughs of both games are exactly as their golden files say."""

from __future__ import annotations

import pytest

from .playthrough import CASES, path_of, playthrough


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_playthrough_matches_its_golden_file(case: str) -> None:
    name, players, seed, options = CASES[case]
    expected = path_of(case).read_text(encoding="utf-8").splitlines()
    actual = playthrough(name, players, seed, options).splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        assert got == want, f"{path_of(case).name}, line {number} differs"
    assert len(actual) == len(expected), f"{path_of(case).name}: the game's length changed"
