"""Game-agnostic bots: search agents that use only the engine contract.

:class:`~recordroom.bots.ismcts.ISMCTSAgent` searches any game that offers
``determinize(view, seat, seed)``; :class:`~recordroom.bots.timing.TimedAgent` measures how long
any agent takes to decide. Games build their levels (easy, normal, hard) from these and their own
heuristics; see docs/bots.md.
"""

from recordroom.bots.ismcts import ISMCTSAgent, action_key
from recordroom.bots.timing import TimedAgent

__all__ = ["ISMCTSAgent", "TimedAgent", "action_key"]
