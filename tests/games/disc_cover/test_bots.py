"""Disc Cover's listening bots: legal, listening, each with its own ear."""

from __future__ import annotations

import random
from typing import Any

import pytest

from recordroom.engine import random_step
from recordroom.games import load
from recordroom.games.disc_cover.bots import (
    LOOKS,
    ListeningAgent,
    Personality,
    senses,
    target_look,
)

GAME = load("disc-cover")
EVEN = Personality(
    weights=dict.fromkeys(LOOKS, 1.0),
    taste=dict.fromkeys(LOOKS, 0.5),
    taste_strength=0.0,
    noise=0.0,
)
LOUD_MAJOR = {"energy": 0.9, "onset_rate": 6.0, "brightness": 2600.0, "minor": -0.8}
QUIET_MINOR = {"energy": 0.2, "onset_rate": 0.5, "brightness": 350.0, "minor": 0.8}
BUSY_WARM = {"brightness": 0.65, "saturation": 0.8, "warmth": 0.8, "busyness": 0.85}
CALM_COLD = {"brightness": 0.3, "saturation": 0.25, "warmth": 0.3, "busyness": 0.15}
VOTES = tuple({"type": "vote", "card": c} for c in (1, 2, 3, 4))


def table(heard: dict[str, float] | None, looks: list[dict[str, float]]) -> dict[str, Any]:
    records = [{"card": i + 1, "sleeve": {"id": 100 + i}} for i in range(len(looks))]
    seen = {100 + i: look for i, look in enumerate(looks)}
    return {"records": records, "senses": senses(heard, seen)}


def neutral(value: float = 0.5) -> dict[str, float]:
    return dict.fromkeys(LOOKS, value)


def test_the_song_decides_which_sleeve_fits() -> None:
    bot = ListeningAgent(personality=EVEN)
    looks = [neutral(), BUSY_WARM, neutral(0.45), CALM_COLD]
    assert bot.choose(table(LOUD_MAJOR, looks), VOTES)["card"] == 2
    assert bot.choose(table(QUIET_MINOR, looks), VOTES)["card"] == 4


def test_the_mapping_moves_each_look_the_documented_way() -> None:
    loud, quiet = target_look(LOUD_MAJOR), target_look(QUIET_MINOR)
    assert loud["busyness"] > quiet["busyness"]
    assert loud["saturation"] > quiet["saturation"]
    assert loud["warmth"] > quiet["warmth"]
    assert loud["brightness"] > quiet["brightness"]
    assert all(0 <= v <= 1 for v in (*loud.values(), *quiet.values()))


def test_bots_are_not_clones() -> None:
    personalities = [Personality.from_seed(seed) for seed in range(8)]
    assert len({tuple(p.weights.values()) for p in personalities}) == 8
    rng = random.Random(3)
    disagreements = 0
    for _ in range(200):
        looks = [{k: rng.random() for k in LOOKS} for _ in range(4)]
        heard = {"energy": rng.random(), "onset_rate": rng.uniform(0, 6),
                 "brightness": rng.uniform(300, 3000), "minor": rng.uniform(-1, 1)}  # fmt: skip
        votes = {
            ListeningAgent(seed).choose(table(heard, looks), VOTES)["card"] for seed in range(6)
        }
        disagreements += len(votes) > 1
    assert 20 < disagreements < 190


def test_without_a_song_a_bot_follows_its_taste() -> None:
    likes_bright = Personality(
        weights=dict.fromkeys(LOOKS, 1.0),
        taste={"brightness": 1.0, "saturation": 0.5, "warmth": 0.5, "busyness": 0.5},
        taste_strength=0.2,
        noise=0.0,
    )
    looks = [neutral(), {**neutral(), "brightness": 0.95}, neutral(0.4), neutral(0.6)]
    assert ListeningAgent(personality=likes_bright).choose(table(None, looks), VOTES)["card"] == 2


def test_tie_breaks_and_leader_choices_stay_legal() -> None:
    bot = ListeningAgent(personality=EVEN)
    looks = [neutral(), BUSY_WARM, neutral(0.45), CALM_COLD]
    tied = ({"type": "choose", "card": 1}, {"type": "choose", "card": 3})
    assert bot.choose(table(LOUD_MAJOR, looks), tied) in tied


@pytest.mark.parametrize("variant", ["cooperative", "competitive"])
def test_listeners_only_return_legal_actions(variant: str) -> None:
    rng = random.Random(5)
    for seed in range(60):
        players = 3 + seed % 6
        state = GAME.new_state(players, seed, {"variant": variant})
        bots = [GAME.agent("listener", seed * 10 + s) for s in range(players)]
        while not GAME.is_over(state):
            seat = min(state.active)
            legal = GAME.legal_actions(state, seat)
            view = GAME.view(state, seat)
            if rng.random() < 0.5:
                looks = {
                    r["sleeve"]["id"]: {k: rng.random() for k in LOOKS} for r in view["records"]
                }
                view["senses"] = senses({"energy": rng.random()}, looks)
            action = bots[seat].choose(view, legal)
            assert action in legal
            state = GAME.apply(state, seat, action)
            if rng.random() < 0.1 and state.active:
                seat, action = random_step(GAME, state, rng)
                state = GAME.apply(state, seat, action)


def test_levels_hard_listeners_agree_more_than_easy_ones() -> None:
    rng = random.Random(11)
    agreement = {}
    for level in ("easy", "hard"):
        bots = [GAME.agent(level, seed) for seed in range(5)]
        same = 0
        for _ in range(150):
            looks = [{k: rng.random() for k in LOOKS} for _ in range(4)]
            heard = {"energy": rng.random(), "onset_rate": rng.uniform(0, 6),
                     "brightness": rng.uniform(300, 3000), "minor": rng.uniform(-1, 1)}  # fmt: skip
            votes = [bot.choose(table(heard, looks), VOTES)["card"] for bot in bots]
            same += sum(a == b for i, a in enumerate(votes) for b in votes[i + 1 :])
        agreement[level] = same / (150 * 10)
    assert agreement["hard"] > agreement["easy"] + 0.15
    assert GAME.info.agent_kinds[0] == "random" and {"easy", "normal", "hard"} <= set(
        GAME.info.agent_kinds
    )
