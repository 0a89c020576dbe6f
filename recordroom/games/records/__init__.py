"""Draft & Write Records: draft cards in weeks, claim goals at weekends, fill your player board.

The game object is :data:`GAME` (the engine contract, see :mod:`recordroom.engine.game`). The
edition (board, deck, goals) is data: ``editions/standard.toml``, loaded by :mod:`.edition`. The
named kinds (phases, bonuses, card kinds) are in :mod:`.kinds`, the state in :mod:`.state`, the
board and its scoring in :mod:`.board`, the turn structure in :mod:`.flow`, the contract in
:mod:`.game`, views in :mod:`.view`, the greedy agent in :mod:`.bots` and the levels in
:mod:`.levels`.
"""

from recordroom.games.records.game import GAME, RecordsGame

__all__ = ["GAME", "RecordsGame"]
