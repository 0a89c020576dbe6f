"""`recordroom serve` listens where phones can reach it, and says how to keep it local."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from recordroom.cli import main
from recordroom.server import serve


def _parse(*words: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers())
    return parser.parse_args(["serve", *words])


def test_the_default_is_every_address_and_the_turn_opens_after_20_seconds() -> None:
    args = _parse()
    assert args.host == "0.0.0.0"
    assert args.open_after == 20.0
    assert _parse("--host", "127.0.0.1", "--open-after", "5").open_after == 5.0


def test_the_banner_says_who_can_reach_the_server() -> None:
    local = serve.banner("http://127.0.0.1:8000/", serve.Path("data"), with_qr=False)
    assert "only this machine" in local
    shared = serve.banner("http://192.168.1.20:8000/", serve.Path("data"), with_qr=False)
    assert "--host 127.0.0.1 keeps it to this machine" in shared
    assert "http://192.168.1.20:8000/" in shared


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--port", "70000"], "argument --port: a port is 1 to 65535, not 70000"),
        (["--port", "-1"], "argument --port: a port is 1 to 65535, not -1"),
        (["--port", "0"], "argument --port: a port is 1 to 65535, not 0"),
        (["--bot-delay", "-1"], "argument --bot-delay: must be 0 or more, not -1"),
        (["--open-after", "-5"], "argument --open-after: must be 0 or more, not -5"),
        (["--keep-days", "-0.5"], "argument --keep-days: must be 0 or more, not -0.5"),
        (["--max-rooms", "0"], "argument --max-rooms: must be at least 1, not 0"),
        (["--max-rooms", "-3"], "argument --max-rooms: must be at least 1, not -3"),
    ],
)
def test_bad_values_are_refused_before_anything_starts(
    flags: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    started: list[Any] = []
    monkeypatch.setattr(serve, "_serve", lambda *args: started.append(args) or 0)
    data = tmp_path / "data"
    with pytest.raises(SystemExit) as stopped:
        main(["serve", *flags, "--host", "127.0.0.1", "--data-dir", str(data), "--no-qr"])
    assert stopped.value.code == 2
    out, err = capsys.readouterr()
    assert f"recordroom serve: error: {message}\n" in err
    assert "Traceback" not in err
    assert out == ""  # no banner
    assert not started
    assert not data.exists()


def test_zero_is_still_a_bot_delay_a_wait_and_a_keep() -> None:
    args = _parse("--bot-delay", "0", "--open-after", "0", "--keep-days", "0", "--max-rooms", "1")
    assert (args.bot_delay, args.open_after, args.keep_days, args.max_rooms) == (0.0, 0.0, 0.0, 1)
    assert _parse("--port", "65535").port == 65535
