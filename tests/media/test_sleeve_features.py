"""What a sleeve looks like: the features a listening bot sees."""

from __future__ import annotations

import numpy as np

from recordroom.media.sleeve_features import LOOKS_RANGE, builtin_features, measure_rgb


def flat(r: float, g: float, b: float) -> np.ndarray:
    return np.ones((32, 32, 3)) * np.array([r, g, b])


def test_flat_grey_is_calm_and_colourless() -> None:
    grey = measure_rgb(flat(0.5, 0.5, 0.5))
    assert grey.saturation == 0 and grey.busyness == 0 and grey.warmth == 0.5


def test_red_is_warm_and_blue_cold() -> None:
    assert measure_rgb(flat(0.9, 0.3, 0.1)).warmth > 0.8
    assert measure_rgb(flat(0.1, 0.3, 0.9)).warmth < 0.2


def test_stripes_are_busier_than_a_field() -> None:
    stripes = np.zeros((32, 32, 3))
    stripes[:, ::2] = 1.0
    assert measure_rgb(stripes).busyness > 0.9
    assert measure_rgb(flat(1, 1, 1)).brightness == 1.0


def test_built_in_sleeves_span_every_look() -> None:
    looks = builtin_features()
    assert len(looks) == 100
    for name in LOOKS_RANGE:
        values = [getattr(f, name) for f in looks.values()]
        assert all(0 <= v <= 1 for v in values)
        assert max(values) - min(values) > 0.5, name
