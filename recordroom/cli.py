"""The ``recordroom`` command: ``serve``, ``simulate`` and the other faces of the engine.

Each sub-command is registered by a small ``add_*`` function below and does its work in the module
of its concern, so this file stays a table of contents.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from recordroom import __version__
from recordroom.engine.errors import RulesError


def add_simulate(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``recordroom simulate GAME ...``: play many games with agents and summarise them."""
    from recordroom.simulate import cli as simulate_cli

    simulate_cli.register(commands)


def add_serve(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``recordroom serve``: the game server for the table screen and the phones."""
    from recordroom.server import serve

    serve.register(commands)


def add_sleeves(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``recordroom sleeves export | booklet | contact-sheet | check``: the sleeve art as files."""
    from recordroom.media import cli as sleeves_cli

    sleeves_cli.register(commands)


def add_train(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``recordroom train records ...``: a learned agent (needs the ``rl`` extra)."""
    from recordroom.rl import train

    train.register(commands)


def build_parser() -> argparse.ArgumentParser:
    """The whole command-line interface."""
    parser = argparse.ArgumentParser(
        prog="recordroom",
        description=(
            "Record Room: play Disc Cover and Draft & Write Records on one shared screen and "
            "your phones, or simulate them fast."
        ),
    )
    parser.add_argument("--version", action="version", version=f"recordroom {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_simulate(commands)
    add_serve(commands)
    add_sleeves(commands)
    add_train(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        status: int = args.run(args)
    except RulesError as error:
        parser.exit(2, f"recordroom: error: {error}\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
