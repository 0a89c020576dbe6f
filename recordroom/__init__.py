"""Record Room: Disc Cover and Draft & Write Records on one shared screen, phones and bots.

The package is laid out one room per concern (see docs/architecture.md): ``engine`` holds the
game-agnostic contract, ``games`` the pure rules of each game, and the faces (server, web client,
command line, bots, simulations) are built on that contract alone.
"""

__version__ = "0.1.0"
