"""``recordroom train records``: a learned Records agent, trained on the AEC env with numpy alone.

Two phases share the step budget ``--steps`` (env steps: accepted actions of every seat; games
are played whole, a batch of them at a time, so a run ends at the first batch that reaches the
budget and the report gives the steps trained):

1. **imitation** (``--imitation``, default half the steps): greedy bots play each other in the
   AEC env and the policy learns to pick what they pick (cross-entropy over the legal actions);
2. **policy gradient**: the policy plays one seat against greedy bots (the seat rotating), samples
   its actions, and is pushed towards the actions of games whose return (the contract's
   ``game.returns``) beat the value head's estimate; an entropy bonus keeps it exploring.

Only decisions with two or more legal actions are learned from. Written to ``--out DIR``:
``policy.npz`` (the checkpoint, well under 1 MB), ``curve.png`` (imitation accuracy and the
win rate against greedy over the steps) and ``train.json`` (settings, the curve, the evaluation).
The evaluation (``--eval-games``, default 400, seats rotated) plays the checkpoint's most likely
action against ``random`` and against ``greedy``; ``--evaluate PATH`` evaluates a checkpoint
without training.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from recordroom.engine.agents import Agent
from recordroom.games import load
from recordroom.rl.envs import RecordRoomAEC
from recordroom.rl.policy import Adam, CheckpointError, LearnedAgent, Policy, save
from recordroom.simulate import play_game

Sample = tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], int, int]
"""One decision: observation, mask, action index, seat."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds ``train`` to the command line."""
    parser = commands.add_parser(
        "train",
        help="train a learned agent (numpy policy gradient) and measure it",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help="the game: records")
    parser.add_argument("--players", type=int, default=2, help="2 to 6 (default 2)")
    parser.add_argument(
        "--steps",
        type=int,
        default=200_000,
        help="env steps (default 200000); games are played whole, a batch at a time, so a run "
        "may go past it by up to one batch of games (the report says how many were trained)",
    )
    parser.add_argument("--out", type=Path, default=Path("runs/learned"), help="output folder")
    parser.add_argument("--seed", type=int, default=0, help="seed of games and weights")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units (default 64)")
    parser.add_argument(
        "--imitation", type=float, default=0.5, help="share of steps spent imitating greedy"
    )
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam learning rate")
    parser.add_argument("--eval-games", type=int, default=400, help="games per evaluation match")
    parser.add_argument("--evaluate", type=Path, default=None, help="only evaluate this checkpoint")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Trains (or only evaluates) and prints the figures."""
    if args.game != "records":
        raise SystemExit(f"train: only records has a learned agent, not {args.game!r}")
    if not 2 <= args.players <= 6:
        raise SystemExit(f"train: --players must be 2 to 6, got {args.players}")
    if args.steps < 1000:
        raise SystemExit(f"train: --steps must be at least 1000, got {args.steps}")
    if not 0.0 <= args.imitation <= 1.0:
        raise SystemExit(f"train: --imitation must be between 0 and 1, got {args.imitation}")
    if args.eval_games < 0:
        raise SystemExit(f"train: --eval-games must be 0 or more, got {args.eval_games}")
    console = Console(stderr=True)
    if args.evaluate is not None:
        try:
            figures = evaluate(args.evaluate, args.players, args.eval_games, args.seed + 1_000_000)
        except CheckpointError as error:  # its message starts with the path
            raise SystemExit(f"train: --evaluate {error}") from None
        Console().print(json.dumps(figures, indent=1))
        return 0
    report = train(
        players=args.players,
        steps=args.steps,
        out=args.out,
        seed=args.seed,
        hidden=args.hidden,
        imitation=args.imitation,
        lr=args.lr,
        progress=not args.quiet,
    )
    if args.eval_games:
        console.print("evaluating ...")
        report["evaluation"] = evaluate(
            args.out / "policy.npz", args.players, args.eval_games, args.seed + 1_000_000
        )
    (args.out / "train.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    Console().print(summary_text(report))
    return 0


def summary_text(report: dict[str, Any]) -> str:
    """The run in a few lines."""
    lines = [
        f"trained {report['steps']} env steps in {report['cpu_seconds']:.0f} CPU s "
        f"({report['games']} games); checkpoint {report['checkpoint']} "
        f"({report['checkpoint_bytes'] / 1024:.0f} KB)",
    ]
    for name, fig in report.get("evaluation", {}).items():
        lines.append(
            f"learned vs {name}: {fig['wins']}/{fig['games']} wins ({100 * fig['win_rate']:.1f}%), "
            f"{fig['sole_wins']} sole; mean score {fig['mean_score']:.1f} vs "
            f"{fig['opponent_mean_score']:.1f}"
        )
    return "\n".join(lines)


class Trainer:
    """Plays episodes in the AEC env and updates the policy."""

    def __init__(self, players: int, seed: int, hidden: int, lr: float) -> None:
        self.players = players
        self.env = RecordRoomAEC("records", players, illegal_action="raise")
        self.table = self.env.table
        self.space = self.table.space
        self.policy = Policy(self.table.encoder.size, self.table.n_actions, hidden, seed)
        self.opt = Adam(self.policy.params, lr)
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.game = load("records")
        self.steps = 0
        self.games = 0
        self.next_seed = seed * 1_000_003

    def episode(
        self, learners: Sequence[int], teachers: dict[int, Agent], sample_policy: bool
    ) -> tuple[list[Sample], tuple[float, ...]]:
        """One game: ``learners`` decide by the policy (or their teacher, when imitating)."""
        env, table, space = self.env, self.table, self.space
        env.reset(seed=self.next_seed)
        self.next_seed += 1
        samples: list[Sample] = []
        while not table.over():
            seat = int(env.agent_selection.split("_")[1])
            legal = table.legal(seat)
            if len(legal) == 1:
                index = space.index(legal[0])
            elif seat in learners:
                obs = env.observe(env.agent_selection)
                x, mask = obs["observation"], obs["action_mask"]
                if seat in teachers:
                    view = table.game.view(table.state, seat)
                    index = space.index(teachers[seat].choose(view, legal))
                else:
                    probs = self.policy.probabilities(x[None, :], mask[None, :])[0]
                    if sample_policy:
                        index = int(self.np_rng.choice(len(probs), p=probs / probs.sum()))
                    else:
                        index = int(np.argmax(probs))
                samples.append((x, mask, index, seat))
            else:
                view = table.game.view(table.state, seat)
                index = space.index(teachers[seat].choose(view, legal))
            env.step(index)
            self.steps += 1
        self.games += 1
        return samples, table.returns()

    def update(
        self,
        samples: Sequence[Sample],
        weights: npt.NDArray[np.float32],
        targets: npt.NDArray[np.float32] | None,
        entropy: float,
    ) -> dict[str, float]:
        """One Adam step on minibatches of the samples."""
        x = np.stack([s[0] for s in samples])
        masks = np.stack([s[1] for s in samples])
        actions = np.array([s[2] for s in samples], dtype=np.int64)
        order = self.np_rng.permutation(len(samples))
        stats: dict[str, float] = {}
        for start in range(0, len(order), 512):
            part = order[start : start + 512]
            grads, stats = self.policy.gradients(
                x[part],
                masks[part],
                actions[part],
                weights[part],
                None if targets is None else targets[part],
                entropy,
            )
            self.opt.step(self.policy.params, grads)
        return stats

    def accuracy(self, samples: Sequence[Sample]) -> float:
        """How often the policy's most likely action is the teacher's."""
        x = np.stack([s[0] for s in samples])
        masks = np.stack([s[1] for s in samples])
        probs = self.policy.probabilities(x, masks)
        return float(np.mean(np.argmax(probs, axis=1) == np.array([s[2] for s in samples])))


def train(
    *,
    players: int,
    steps: int,
    out: Path,
    seed: int = 0,
    hidden: int = 64,
    imitation: float = 0.5,
    lr: float = 1e-3,
    progress: bool = True,
) -> dict[str, Any]:
    """Trains a policy and writes the checkpoint and the curve; returns the report."""
    out.mkdir(parents=True, exist_ok=True)
    trainer = Trainer(players, seed, hidden, lr)
    game = trainer.game
    curve: list[dict[str, float]] = []
    cpu = time.process_time()
    imitation_steps = int(steps * imitation)
    columns = (
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), disable=not progress) as bar:
        task = bar.add_task("imitating greedy", total=steps)
        while trainer.steps < imitation_steps:
            batch: list[Sample] = []
            for _ in range(4):
                seats = list(range(players))
                teachers = {s: game.agent("greedy", trainer.rng.randrange(2**31)) for s in seats}
                samples, _ = trainer.episode(seats, teachers, sample_policy=False)
                batch.extend(samples)
            accuracy = trainer.accuracy(batch)
            for _ in range(2):
                trainer.update(batch, np.ones(len(batch), np.float32), None, 0.0)
            curve.append({"steps": trainer.steps, "phase": 0, "imitation_accuracy": accuracy})
            bar.update(task, completed=min(trainer.steps, steps))
        bar.update(task, description="policy gradient vs greedy")
        recent: list[float] = []
        while trainer.steps < steps:
            batch = []
            returns_of: list[float] = []
            for _ in range(8):
                seat = trainer.games % players
                teachers = {
                    s: game.agent("greedy", trainer.rng.randrange(2**31))
                    for s in range(players)
                    if s != seat
                }
                samples, returns = trainer.episode([seat], teachers, sample_policy=True)
                batch.extend(samples)
                returns_of.extend([returns[seat]] * len(samples))
                recent.append(1.0 if returns[seat] >= max(returns) else 0.0)
            targets = np.array(returns_of, np.float32)
            x = np.stack([s[0] for s in batch])
            _, _, values = trainer.policy.forward(x)
            adv = targets - values
            adv = ((adv - adv.mean()) / (adv.std() + 1e-6)).astype(np.float32)
            stats = trainer.update(batch, adv, targets, 0.01)
            window = recent[-200:]
            curve.append(
                {
                    "steps": trainer.steps,
                    "phase": 1,
                    "win_rate_vs_greedy": statistics.fmean(window),
                    "mean_return": float(targets.mean()),
                    "entropy": stats.get("entropy", 0.0),
                }
            )
            bar.update(task, completed=min(trainer.steps, steps))
    cpu_seconds = time.process_time() - cpu
    meta = {
        "game": "records",
        "players": players,
        "options": {},
        "steps": trainer.steps,
        "games": trainer.games,
        "seed": seed,
        "imitation": imitation,
        "cpu_seconds": cpu_seconds,
    }
    checkpoint = save(trainer.policy, out / "policy.npz", meta)
    plot_curve(curve, out / "curve.png", players)
    return {
        **meta,
        "checkpoint": str(checkpoint),
        "checkpoint_bytes": checkpoint.stat().st_size,
        "curve": curve,
    }


def plot_curve(curve: Sequence[dict[str, float]], path: Path, players: int) -> Path:
    """The learning curve: imitation accuracy, then the win rate against greedy."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    first = [c for c in curve if c["phase"] == 0]
    second = [c for c in curve if c["phase"] == 1]
    if first:
        ax.plot(
            [c["steps"] for c in first],
            [c["imitation_accuracy"] for c in first],
            label="imitation: agrees with greedy",
        )
    if second:
        ax.plot(
            [c["steps"] for c in second],
            [c["win_rate_vs_greedy"] for c in second],
            label="policy gradient: wins vs greedy (last 200 games, sampling)",
        )
    ax.set(
        title=f"Learned Records agent, {players} players",
        xlabel="env steps",
        ylabel="share",
        ylim=(0, 1),
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def evaluate(checkpoint: Path, players: int, games: int, seed: int) -> dict[str, Any]:
    """The checkpoint against ``random`` and ``greedy``: ``games`` each, the seat rotating."""
    game = load("records")
    learned = LearnedAgent(checkpoint, seed)
    out: dict[str, Any] = {}
    for opponent in ("random", "greedy"):
        wins = sole = 0
        mine: list[int] = []
        theirs: list[int] = []
        for k in range(games):
            seat = k % players
            agents: list[Agent] = [
                game.agent(opponent, (seed + k) * 101 + s) for s in range(players)
            ]
            agents[seat] = learned
            played = play_game(game, players, seed + k, None, agents)
            winners = played.result["winners"]
            wins += seat in winners
            sole += winners == [seat]
            scores = played.result["scores"]
            mine.append(scores[seat])
            theirs.extend(s for i, s in enumerate(scores) if i != seat)
        out[opponent] = {
            "games": games,
            "wins": wins,
            "win_rate": wins / games if games else 0.0,
            "sole_wins": sole,
            "mean_score": statistics.fmean(mine) if mine else 0.0,
            "opponent_mean_score": statistics.fmean(theirs) if theirs else 0.0,
        }
    return out
