"""Many games on every core: jobs, agents by name, worker processes, a progress bar.

A :class:`Job` names everything one game needs (game, seats, seed, options, one agent spec per
seat), so a worker process can play it from scratch and the outcome does not depend on which
process played it or in what order: results come back in job order, and the same jobs give the
same results whatever the number of workers. Agents that stop on a clock (``hard``, or ``ismcts``
with ``seconds``) are the exception: how far they search depends on the machine.

Agent specs: any kind the game offers (``game.info.agent_kinds``: ``random``, ``greedy``, the
levels ``easy``, ``normal``, ``hard`` ...) and ``ismcts`` (the search bot with the job's iteration
budget, and time budget if given). Each seat's agent gets the seed ``seed * 101 + seat``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from recordroom.bots.timing import TimedAgent
from recordroom.engine.agents import Agent
from recordroom.engine.game import Action, Game, JSONDict, Listening
from recordroom.engine.ismcts import ISMCTSAgent
from recordroom.games import load
from recordroom.media.sleeve_features import builtin_features
from recordroom.simulate import play_game


@dataclass(frozen=True)
class Job:
    """One game to play."""

    game: str
    players: int
    seed: int
    agents: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    iterations: int | None = 200
    """The ``ismcts`` agent's iteration budget (None: the time budget alone)."""
    seconds: float | None = None
    """The ``ismcts`` agent's time budget a decision (None: iterations alone); also ``hard``'s."""


def agent_names(game: Game) -> tuple[str, ...]:
    """Every agent spec a job may use with that game."""
    names = tuple(game.info.agent_kinds)
    return names if "ismcts" in names else (*names, "ismcts")


def make_agent(game: Game, spec: str, seed: int, job: Job) -> Agent:
    """The agent a spec names, seeded."""
    if game.info.name == "records" and spec in ("ismcts", "hard"):
        from recordroom.games.records.levels import HARD_SECONDS, ismcts_agent

        if spec == "hard":
            return ismcts_agent(game, seed, iterations=None, seconds=job.seconds or HARD_SECONDS)
        return ismcts_agent(game, seed, iterations=job.iterations, seconds=job.seconds)
    if spec == "ismcts":
        return ISMCTSAgent(game, seed, iterations=job.iterations, seconds=job.seconds)
    return game.agent(spec, seed)


class Sensing:
    """An agent of a game whose bots sense the table (:class:`~recordroom.engine.game.Listening`)
    given what a simulation can offer: no song, and the looks of the built-in sleeves, as the
    server gives its bots. Without it every sleeve would look alike to a listening bot, and its
    levels would all vote as chance has it."""

    def __init__(self, game: Listening, agent: Agent) -> None:
        self.game = game
        self.agent = agent

    def choose(self, view: JSONDict, legal: tuple[Action, ...]) -> Action:
        """The agent's choice, from the view with its ``senses``."""
        senses = self.game.senses(view, _no_song, _builtin_look)
        return self.agent.choose({**view, "senses": senses}, legal)


def _no_song(turn: int) -> None:
    return None


def _builtin_look(sleeve_id: int) -> JSONDict | None:
    found = builtin_features().get(sleeve_id)
    return found.to_json() if found is not None else None


def play_job(job: Job) -> dict[str, Any]:
    """Plays one job: its result, returns, agents, number of decisions and each seat's times."""
    game = load(job.game)
    agents = [
        make_agent(game, spec, job.seed * 101 + seat, job) for seat, spec in enumerate(job.agents)
    ]
    if isinstance(game, Listening):
        agents = [
            agent if spec in ("random", "ismcts") else Sensing(game, agent)
            for spec, agent in zip(job.agents, agents, strict=True)
        ]
    timed = [TimedAgent(agent) for agent in agents]
    played = play_game(game, job.players, job.seed, job.options, timed)
    return {
        "seed": job.seed,
        "agents": list(job.agents),
        "result": played.result,
        "returns": list(played.returns),
        "decisions": len(played.log),
        "times": [agent.times for agent in timed],
    }


def run_jobs(
    jobs: Sequence[Job],
    workers: int = 1,
    *,
    progress: bool = True,
    description: str = "games",
    on_result: Callable[[int, dict[str, Any]], None] | None = None,
    ray: str | None = None,
) -> list[dict[str, Any]]:
    """Every job's outcome, in job order; ``workers`` processes; a progress bar on stderr.

    With ``ray`` the jobs are Ray tasks instead: ``"local"`` starts a local Ray with ``workers``
    CPUs (and stops it at the end), anything else is the address of a running cluster
    (``ray://host:10001`` or ``host:6379``). Each job plays from scratch in its task, so the
    outcomes are the same as those of a local run.
    """
    results: list[dict[str, Any] | None] = [None] * len(jobs)
    columns = (
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    console = Console(stderr=True)
    with Progress(*columns, console=console, disable=not progress, transient=True) as bar:
        task = bar.add_task(description, total=len(jobs))
        source = _outcomes(jobs, workers) if ray is None else _ray_outcomes(jobs, workers, ray)
        for index, outcome in source:
            results[index] = outcome
            if on_result is not None:
                on_result(index, outcome)
            bar.advance(task)
    return [r for r in results if r is not None]


def _outcomes(jobs: Sequence[Job], workers: int) -> Iterator[tuple[int, dict[str, Any]]]:
    if workers <= 1:
        for index, job in enumerate(jobs):
            yield index, play_job(job)
        return
    with ProcessPoolExecutor(workers) as pool:
        pending: dict[Future[dict[str, Any]], int] = {
            pool.submit(play_job, job): index for index, job in enumerate(jobs)
        }
        from concurrent.futures import as_completed

        for future in as_completed(pending):
            yield pending[future], future.result()


def _ray_outcomes(
    jobs: Sequence[Job], workers: int, address: str
) -> Iterator[tuple[int, dict[str, Any]]]:
    """The jobs as Ray tasks, yielded as they finish (needs the ``rl`` extra's ``ray``)."""
    try:
        import ray
    except ImportError:
        raise SystemExit("--ray needs Ray: pip install 'recordroom[rl]'") from None
    started = not ray.is_initialized()
    if started:
        if address == "local":
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        else:
            try:
                ray.init(address=address, log_to_driver=False)
            except Exception as error:  # Ray raises several kinds, all meaning "not reachable"
                raise SystemExit(
                    f"--ray {address}: cannot reach the Ray cluster ({error})"
                ) from None
    try:
        task = ray.remote(play_job)
        pending = {task.remote(job): index for index, job in enumerate(jobs)}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                yield pending.pop(ref), ray.get(ref)
    finally:
        if started:
            ray.shutdown()
