"""``recordroom simulate GAME ...``: one sub-command per game's report."""

from __future__ import annotations

import argparse

from recordroom.simulate import disc_cover, records


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds ``simulate`` and its per-game sub-commands."""
    parser = commands.add_parser(
        "simulate",
        help="play many games with agents and summarise the results",
        description="Play many games with agents, no server needed, and print a summary.",
    )
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    disc_cover.register(games)
    records.register(games)
