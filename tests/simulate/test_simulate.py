"""Point 5: ``recordroom simulate`` with mixed agents, workers, a seed, JSON and PNG output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordroom.cli import main


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
