"""A small masked policy network in numpy, its checkpoint file, and the agent that plays it.

The network: observation -> ``tanh`` hidden layer -> one logit per action of the fixed action
space (illegal ones masked out) and one value (the expected return, for the learner's baseline).
Checkpoints are ``.npz`` files with the weights in float16 (a 2-player Records policy with 64
hidden units is about 0.3 MB) and a JSON ``meta`` entry naming the game, the player count, the
options and the training that made it.

:class:`LearnedAgent` plays a checkpoint like any agent: from a seat's view and legal actions,
the most likely legal action (or a sample, with ``sample=True``). ``records`` offers it as the
agent kind ``learned`` when :data:`CHECKPOINT_ENV` names a checkpoint (``recordroom serve
--learned PATH`` sets it).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from recordroom.engine.game import Action, JSONDict
from recordroom.rl.spaces import FloatArray, action_space, encoder

CHECKPOINT_ENV = "RECORDROOM_LEARNED"
"""The environment variable naming the checkpoint that the ``learned`` agent kind plays."""

Params = dict[str, FloatArray]


class Policy:
    """The network's weights and its forward and backward passes."""

    def __init__(self, obs_size: int, n_actions: int, hidden: int = 64, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.obs_size, self.n_actions, self.hidden = obs_size, n_actions, hidden
        self.params: Params = {
            "w1": (rng.standard_normal((obs_size, hidden)) / np.sqrt(obs_size)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": (rng.standard_normal((hidden, n_actions)) * 0.01).astype(np.float32),
            "b2": np.zeros(n_actions, np.float32),
            "wv": np.zeros(hidden, np.float32),
            "bv": np.zeros(1, np.float32),
        }

    def forward(self, x: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Hidden activations, logits and values of a batch of observations."""
        p = self.params
        h = np.tanh(x @ p["w1"] + p["b1"])
        return h, h @ p["w2"] + p["b2"], h @ p["wv"] + p["bv"][0]

    def probabilities(self, x: FloatArray, masks: npt.NDArray[np.int8]) -> FloatArray:
        """The masked action probabilities of a batch."""
        _, logits, _ = self.forward(x)
        return masked_softmax(logits, masks)

    def gradients(
        self,
        x: FloatArray,
        masks: npt.NDArray[np.int8],
        actions: npt.NDArray[np.int64],
        weights: FloatArray,
        targets: FloatArray | None = None,
        entropy: float = 0.0,
        value_coef: float = 0.5,
    ) -> tuple[Params, dict[str, float]]:
        """Gradients of ``-mean(weights * log p(action)) - entropy * H + value loss``.

        ``weights`` are advantages (policy gradient) or ones (imitation); ``targets`` the returns
        the value head learns (None: it is left alone).
        """
        p = self.params
        n = len(x)
        h, logits, values = self.forward(x)
        probs = masked_softmax(logits, masks)
        rows = np.arange(n)
        chosen = probs[rows, actions]
        log_probs = np.where(masks > 0, np.log(np.maximum(probs, 1e-12)), 0.0)
        ent = -(probs * log_probs).sum(axis=1)
        dz = probs.copy()
        dz[rows, actions] -= 1.0
        dz *= (weights / n)[:, None]
        if entropy:
            dz += entropy / n * probs * (log_probs + ent[:, None]) * (masks > 0)
        dh = dz @ p["w2"].T
        stats = {
            "loss": float(-(weights * np.log(np.maximum(chosen, 1e-12))).mean()),
            "entropy": float(ent.mean()),
        }
        dv = np.zeros(n, np.float32)
        if targets is not None:
            dv = (value_coef * (values - targets) / n).astype(np.float32)
            dh += dv[:, None] * p["wv"][None, :]
            stats["value_loss"] = float(((values - targets) ** 2).mean())
        dpre = dh * (1.0 - h * h)
        grads: Params = {
            "w1": (x.T @ dpre).astype(np.float32),
            "b1": dpre.sum(axis=0).astype(np.float32),
            "w2": (h.T @ dz).astype(np.float32),
            "b2": dz.sum(axis=0).astype(np.float32),
            "wv": (h.T @ dv).astype(np.float32),
            "bv": np.array([dv.sum()], np.float32),
        }
        return grads, stats


def masked_softmax(logits: FloatArray, masks: npt.NDArray[np.int8]) -> FloatArray:
    """Softmax over the legal entries of each row (illegal ones get probability 0)."""
    z = np.where(masks > 0, logits, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: FloatArray = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    return out


class Adam:
    """The Adam optimiser over a policy's parameters."""

    def __init__(self, params: Params, lr: float = 1e-3) -> None:
        self.lr = lr
        self.t = 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params: Params, grads: Params, clip: float = 1.0) -> None:
        """One update, the gradient's global norm clipped to ``clip``."""
        norm = float(np.sqrt(sum(float((g * g).sum()) for g in grads.values())))
        scale = min(1.0, clip / norm) if norm > 0 else 1.0
        self.t += 1
        b1, b2 = 0.9, 0.999
        for key, g in grads.items():
            g = g * scale
            self.m[key] = b1 * self.m[key] + (1 - b1) * g
            self.v[key] = b2 * self.v[key] + (1 - b2) * g * g
            m_hat = self.m[key] / (1 - b1**self.t)
            v_hat = self.v[key] / (1 - b2**self.t)
            params[key] -= (self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


# -- checkpoints -----------------------------------------------------------------------------------


def save(policy: Policy, path: Path, meta: dict[str, Any]) -> Path:
    """Writes the checkpoint (float16 weights, JSON meta); returns the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {k: v.astype(np.float16) for k, v in policy.params.items()}
    full = {**meta, "hidden": policy.hidden, "obs_size": policy.obs_size}
    full["n_actions"] = policy.n_actions
    with path.open("wb") as handle:
        np.savez_compressed(handle, meta=np.array(json.dumps(full)), **arrays)  # type: ignore[arg-type]
    return path


class CheckpointError(ValueError):
    """A checkpoint that cannot be read or does not fit the game."""


def load(path: Path) -> tuple[Policy, dict[str, Any]]:
    """The policy and meta of a checkpoint; :class:`CheckpointError` naming the problem."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta: dict[str, Any] = json.loads(str(data["meta"]))
            params = {k: data[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2", "wv", "bv")}
    except (OSError, KeyError, ValueError) as error:
        raise CheckpointError(f"{path}: not a Record Room checkpoint ({error})") from None
    policy = Policy(int(meta["obs_size"]), int(meta["n_actions"]), int(meta["hidden"]))
    for key, value in params.items():
        if value.shape != policy.params[key].shape:
            raise CheckpointError(f"{path}: weight {key} has shape {value.shape}")
        policy.params[key] = value
    return policy, meta


class LearnedAgent:
    """Plays a checkpoint from a seat's view (see the module docstring)."""

    def __init__(self, path: Path | str, seed: int = 0, sample: bool = False) -> None:
        self.path = Path(path)
        self.policy, self.meta = load(self.path)
        game = self.meta.get("game")
        if game != "records":
            raise CheckpointError(f"{self.path}: a {game!r} checkpoint, not a records one")
        options = self.meta.get("options") or {}
        self.space = action_space("records", options)
        self.encoders: dict[int, Any] = {}
        self.options = options
        if self.policy.n_actions != self.space.n + 1:
            raise CheckpointError(
                f"{self.path}: made for {self.policy.n_actions} actions, the game has "
                f"{self.space.n + 1}"
            )
        self.sample = sample
        self._rng = random.Random(seed)

    def _encoder(self, players: int) -> Any:
        enc = self.encoders.get(players)
        if enc is None:
            enc = self.encoders[players] = encoder("records", players, self.options)
            if enc.size != self.policy.obs_size:
                raise CheckpointError(f"{self.path}: observation size {self.policy.obs_size}")
        return enc

    def choose(self, view: JSONDict, legal_actions: tuple[Action, ...]) -> Action:
        """The most likely legal action under the policy (sampled when ``sample``)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        x = self._encoder(int(view["players"])).encode(view)[None, :]
        mask = np.zeros((1, self.policy.n_actions), np.int8)
        indices = self.space.indices(legal_actions)
        mask[0, indices] = 1
        probs = self.policy.probabilities(x, mask)[0]
        if self.sample:
            weights = [float(probs[i]) for i in indices]
            pick = self._rng.choices(range(len(indices)), weights=weights)[0]
        else:
            pick = max(range(len(indices)), key=lambda k: float(probs[indices[k]]))
        return legal_actions[pick]


def learned_agent(seed: int = 0) -> LearnedAgent:
    """The ``learned`` agent of the checkpoint that :data:`CHECKPOINT_ENV` names."""
    path = os.environ.get(CHECKPOINT_ENV)
    if not path:
        raise KeyError(
            f"records: the learned agent needs a checkpoint: set {CHECKPOINT_ENV} or run "
            "recordroom serve --learned PATH"
        )
    return LearnedAgent(path, seed)
