"""Point 5: ``recordroom simulate`` with mixed agents, workers, a seed, JSON and PNG output."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from recordroom.cli import main
from recordroom.simulate.runner import Job, play_job


def run(tmp_path: Path, name: str, *args: str) -> dict[str, object]:
    out = tmp_path / name
    assert main(["simulate", *args, "--out", str(out), "--quiet"]) == 0
    data: dict[str, object] = json.loads((out / "results.json").read_text())
    return data


@pytest.mark.slow  # games in several processes: scheduled among the first tests
def test_records_mix_is_the_same_for_any_number_of_workers(tmp_path: Path) -> None:
    flags = ["records", "--players", "3", "--games", "4", "--seed", "9"]
    flags += ["--agents", "greedy,ismcts,random", "--iterations", "5"]
    one = run(tmp_path, "one", *flags, "--workers", "1")
    two = run(tmp_path, "two", *flags, "--workers", "2")
    assert one == two
    assert one["settings"]["agents"] == ["greedy", "ismcts", "random"]  # type: ignore[index]
    for plot in ("returns", "areas", "length", "end", "win_rate"):
        assert (tmp_path / "one" / f"{plot}.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("variant", ["cooperative", "competitive"])
def test_disc_cover_keeps_its_flags_and_writes_plots(tmp_path: Path, variant: str) -> None:
    data = run(
        tmp_path,
        variant,
        "disc-cover",
        "--players", "4", "--variant", variant, "--games", "6", "--seed", "2", "--workers", "1",
    )  # fmt: skip
    assert len(data["games"]) == 6  # type: ignore[arg-type]
    assert (tmp_path / variant / "returns.png").exists()
    for played in data["games"]:  # type: ignore[union-attr]
        assert len(played["returns"]) == 4
        assert all(0.0 <= value <= 1.0 for value in played["returns"])


def test_old_records_flags_still_work(capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["simulate", "records", "--players", "2", "--games", "3", "--agents", "random"]
    assert main([*flags, "--workers", "1", "--quiet"]) == 0
    assert "mean score" in capsys.readouterr().out


def test_unknown_agents_are_refused() -> None:
    with pytest.raises(SystemExit, match="unknown agent"):
        main(["simulate", "records", "--games", "1", "--agents", "wizard", "--quiet"])


LADDER = ["simulate", "records", "--ladder", "--quiet", "--workers", "1"]


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ([*LADDER, "--games", "0"], "--games must be at least 1"),
        ([*LADDER, "--games", "-2"], "--games must be at least 1"),
        ([*LADDER, "--games", "1", "--workers", "0"], "--workers must be at least 1"),
        ([*LADDER, "--games", "1", "--seconds", "0"], "--seconds must be a number of seconds"),
        ([*LADDER, "--games", "1", "--seconds", "-1"], "--seconds must be a number of seconds"),
        (
            ["simulate", "records", "--games", "1", "--players", "2", "--agents", "ismcts",
             "--iterations", "0", "--workers", "1", "--quiet"],
            "--iterations must be at least 1",
        ),
        (
            ["simulate", "records", "--games", "1", "--players", "2", "--agents", "random",
             "--seconds", "-1", "--workers", "1", "--quiet"],
            "--seconds must be a number of seconds",
        ),
    ],
)  # fmt: skip
def test_counts_and_budgets_no_run_can_use_are_refused(
    flags: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit, match=message):
        main(flags)
    assert capsys.readouterr().out == ""  # no table, not even an empty one


@pytest.mark.parametrize("ladder", [True, False])
def test_an_out_folder_that_cannot_be_written_is_refused_before_the_games(
    tmp_path: Path, ladder: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    log = tmp_path / "ladder.jsonl"
    flags = [*LADDER, "--seconds", "0.01", "--ladder-log", str(log)] if ladder else [
        "simulate", "records", "--players", "2", "--agents", "random", "--workers", "1", "--quiet"
    ]  # fmt: skip
    with pytest.raises(SystemExit, match=re.escape(f"--out {blocker / 'out'}: cannot write")):
        main([*flags, "--games", "1", "--out", str(blocker / "out")])
    assert capsys.readouterr().out == ""  # no table: no game was played
    assert not log.exists()


def test_a_ladder_log_that_cannot_be_written_is_refused_before_the_games(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    log = blocker / "log"
    with pytest.raises(SystemExit, match=re.escape(f"--ladder-log {log}: cannot write there")):
        main([*LADDER, "--games", "1", "--seconds", "0.01", "--ladder-log", str(log)])


def test_the_help_says_what_the_ladder_writes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "records", "--help"])
    assert "with --ladder: ladder.json" in " ".join(capsys.readouterr().out.split())


def test_the_ladder_writes_its_figures_to_out(tmp_path: Path) -> None:
    out = tmp_path / "ladder"
    assert main([*LADDER, "--games", "1", "--seconds", "0.01", "--out", str(out)]) == 0
    figures = json.loads((out / "ladder.json").read_text())
    assert [match["games"] for match in figures.values()] == [1, 1]
    assert sorted(p.name for p in out.iterdir()) == ["ladder.json"]


def test_disc_cover_levels_sense_the_sleeves_so_they_differ() -> None:
    """A simulation has no song, but its listening bots see the built-in sleeves' looks, as the
    server's do: each level votes its own way (blind, they would all vote alike)."""

    def outcomes(level: str) -> list[object]:
        jobs = [
            Job("disc-cover", 5, seed, (level,) * 5, {"variant": "cooperative"})
            for seed in range(8)
        ]
        return [(o["result"], o["decisions"]) for o in map(play_job, jobs)]

    easy, normal, hard = outcomes("easy"), outcomes("normal"), outcomes("hard")
    assert easy != hard and normal != hard and easy != normal
