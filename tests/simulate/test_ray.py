"""``recordroom simulate ... --ray``: the games as tasks on a local Ray give the local results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordroom.cli import main


@pytest.mark.timeout(240)
def test_a_local_ray_run_gives_the_local_results(tmp_path: Path) -> None:
    flags = ["simulate", "records", "--players", "2", "--games", "4", "--seed", "21"]
    flags += ["--agents", "greedy,random", "--quiet"]
    assert main([*flags, "--workers", "1", "--out", str(tmp_path / "local")]) == 0
    assert main([*flags, "--workers", "2", "--ray", "--out", str(tmp_path / "ray")]) == 0
    local = json.loads((tmp_path / "local" / "results.json").read_text())
    on_ray = json.loads((tmp_path / "ray" / "results.json").read_text())
    assert on_ray["games"] == local["games"]
    assert on_ray["summary"] == local["summary"]
    assert [g["seed"] for g in on_ray["games"]] == [21, 22, 23, 24]
