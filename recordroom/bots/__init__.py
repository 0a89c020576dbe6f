"""Bots for any game, over the engine contract alone.

The search itself, :class:`~recordroom.engine.ismcts.ISMCTSAgent`, lives in the engine so that a
game can build its levels on it while arrows keep pointing one way (games -> engine, never games
-> bots); it is re-exported here. :class:`~recordroom.bots.timing.TimedAgent` measures how long any
agent takes to decide. Games build their levels (easy, normal, hard) from these and their own
heuristics; see docs/bots.md.
"""

from recordroom.bots.timing import TimedAgent
from recordroom.engine.ismcts import ISMCTSAgent, action_key

__all__ = ["ISMCTSAgent", "TimedAgent", "action_key"]
