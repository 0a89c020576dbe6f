"""`recordroom serve` listens where phones can reach it, and says how to keep it local."""

from __future__ import annotations

import argparse

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
