"""Disc Cover bots that listen: they vote for the sleeve whose look fits the song they hear.

A :class:`ListeningAgent` decides from a seat's view like every agent. Whoever runs it (the
server, the simulator) may add to that view what a player at the table senses, under
``view["senses"]``: ``heard``, the current track's audio features (tempo, onset rate, loudness,
brightness, minor leaning, energy; see ``recordroom.media.music.features``), and ``seen``, the
visual features of the sleeves on the table by id (brightness, saturation, warmth, busyness, each
0..1; see ``recordroom.media.sleeve_features``). Nothing else: no other seat's vote, no state.

The mapping from sound to look (docs/bots.md) turns the song into a target look:

- busy, saturated sleeves for energetic songs (loud, many onsets);
- darker, cooler sleeves for minor-leaning songs, warmer ones for major-leaning songs;
- lighter sleeves for bright timbres, darker ones for dull, muffled sounds;

and scores each sleeve by its weighted distance to that target. Each bot has a personality drawn
from its seed: how much it weighs each of the four looks, a personal taste (a look it likes
anyway) and how noisy its judgement is, so that bots at one table are not clones. With no song
(an external player, or no audio) a bot falls back on its personal taste.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from recordroom.engine.game import Action, JSONDict

LOOKS = ("brightness", "saturation", "warmth", "busyness")
NEUTRAL = dict.fromkeys(LOOKS, 0.5)


def _clip(value: float) -> float:
    return min(1.0, max(0.0, value))


def target_look(heard: Mapping[str, float]) -> dict[str, float]:
    """The look a song calls for, each of the four in 0..1 (the documented mapping)."""
    energy = float(heard.get("energy", 0.5))
    onsets = _clip(float(heard.get("onset_rate", 2.0)) / 6)
    timbre = _clip((float(heard.get("brightness", 1000.0)) - 300) / 2500)
    minor = max(-1.0, min(1.0, float(heard.get("minor", 0.0))))
    drive = 0.5 * energy + 0.5 * onsets
    return {
        "busyness": _clip(0.15 + 0.7 * drive),
        "saturation": _clip(0.2 + 0.6 * energy),
        "brightness": _clip(0.5 + 0.35 * (timbre - 0.5) - 0.25 * minor),
        "warmth": _clip(0.5 - 0.25 * minor + 0.2 * (energy - 0.5)),
    }


@dataclass(frozen=True)
class Personality:
    """What makes one listening bot differ from another."""

    weights: dict[str, float]
    """How much each look counts when matching a song (they sum to 4)."""
    taste: dict[str, float]
    """A look the bot likes anyway, each 0..1."""
    taste_strength: float
    """How much the taste counts next to the song."""
    noise: float
    """Standard deviation of the random doubt added to every judgement."""

    @classmethod
    def from_seed(cls, seed: int) -> Personality:
        """A personality drawn from a seed."""
        rng = random.Random(f"listener:{seed}")
        raw = {look: rng.uniform(0.4, 1.6) for look in LOOKS}
        scale = len(LOOKS) / sum(raw.values())
        return cls(
            weights={look: w * scale for look, w in raw.items()},
            taste={look: rng.random() for look in LOOKS},
            taste_strength=rng.uniform(0.1, 0.35),
            noise=rng.uniform(0.02, 0.07),
        )


class ListeningAgent:
    """Votes for the sleeve that fits the song best, by its own personality."""

    def __init__(self, seed: int = 0, personality: Personality | None = None) -> None:
        self.personality = personality or Personality.from_seed(seed)
        self._rng = random.Random(seed)

    def fit(self, look: Mapping[str, float], heard: Mapping[str, float] | None) -> float:
        """How well a sleeve's look suits the song (higher is better), before doubt."""
        p = self.personality
        liking = -sum((look[k] - p.taste[k]) ** 2 for k in LOOKS)
        if heard is None:
            return liking
        target = target_look(heard)
        match = -sum(p.weights[k] * (look[k] - target[k]) ** 2 for k in LOOKS)
        return match + p.taste_strength * liking

    def scores(self, view: JSONDict, cards: list[int]) -> dict[int, float]:
        """Each Record card's fit, doubt included."""
        senses = view.get("senses") or {}
        heard = senses.get("heard")
        seen = senses.get("seen") or {}
        sleeves = {r["card"]: r["sleeve"]["id"] for r in view.get("records", [])}
        out = {}
        for card in cards:
            look = {**NEUTRAL, **seen.get(str(sleeves.get(card)), {})}
            out[card] = self.fit(look, heard) + self._rng.gauss(0.0, self.personality.noise)
        return out

    def choose(self, view: JSONDict, legal_actions: tuple[Action, ...]) -> Action:
        """The legal vote (or Leader's choice) for the best-fitting sleeve."""
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        cards = [int(a["card"]) for a in legal_actions]
        scores = self.scores(view, cards)
        best = max(cards, key=lambda c: scores[c])
        return next(a for a in legal_actions if a["card"] == best)


def _easy(p: Personality) -> Personality:
    return Personality(p.weights, p.taste, p.taste_strength, noise=0.2)


def _hard(p: Personality) -> Personality:
    return Personality(dict.fromkeys(LOOKS, 1.0), p.taste, taste_strength=0.03, noise=0.01)


LEVELS = {"easy": _easy, "hard": _hard}
"""How the ``easy`` and ``hard`` levels change a bot's personality (``normal`` keeps it)."""


def senses(heard: Mapping[str, Any] | None, seen: Mapping[int, Mapping[str, float]]) -> JSONDict:
    """The ``senses`` entry a runner adds to a view (JSON-safe)."""
    return {
        "heard": dict(heard) if heard is not None else None,
        "seen": {str(sid): dict(look) for sid, look in seen.items()},
    }
