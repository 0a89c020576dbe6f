"""How a Records game ended: the result (scores by area, winners, solo rank) and the returns.

Both read only the final boards, so the rules (:mod:`.game`) and the search bots' evaluator
(:mod:`.levels`) share them without importing each other.
"""

from __future__ import annotations

from collections.abc import Sequence

from recordroom.engine.errors import IllegalAction
from recordroom.engine.game import JSONDict, win_share_returns
from recordroom.games.records import board as bd
from recordroom.games.records.edition import for_players, load_edition
from recordroom.games.records.kinds import Phase
from recordroom.games.records.state import State
from recordroom.games.records.view import solo_rank

_OVER = Phase.OVER  # a module name: an enum member's attribute look-up is slow (returns is hot)


def result(state: State) -> JSONDict:
    """Scores, the breakdown by area, the winners (and the solo rank); only once over.

    Winners: the highest score; ties go to fewer fail ticks, then more crew points."""
    if state.phase != _OVER:
        raise IllegalAction(f"records: no result yet, the game is in phase {state.phase}")
    ed = for_players(load_edition(state.edition), state.players)
    breakdown = [bd.score_breakdown(ed, b) for b in state.boards]
    scores = [sum(b.values()) for b in breakdown]
    keys = [
        (scores[i], state.boards[i].fails, bd.crew_points(ed, state.boards[i]))
        for i in range(state.players)
    ]
    out: JSONDict = {
        "scores": scores,
        "breakdown": breakdown,
        "winners": winners(keys),
        "over": True,
        "triggers": list(state.triggers),
        "weeks": state.week,
        "turns": state.turn,
    }
    if state.players == 1:
        out["rank"] = solo_rank(scores[0])
    return out


def winners(keys: Sequence[Sequence[int]]) -> list[int]:
    """The seats that win, from each seat's (score, fail ticks, crew points): the highest score;
    ties go to fewer fail ticks, then more crew points."""
    ranked = [(score, -fails, crew) for score, fails, crew in keys]
    best = max(ranked)
    return [seat for seat, key in enumerate(ranked) if key == best]


def returns(state: State) -> tuple[float, ...]:
    """Zeros until over; then solo: score / 100; else the win share and score margin.

    With two or more players: :func:`~recordroom.engine.game.win_share_returns` of the scores
    and the winners of :func:`result` (0.8 split among the winners, 0.2 by where the score lies
    between the lowest and highest). Solo: the score over 100 (the chart's top rank is 80),
    clipped to [0, 1].
    """
    if state.phase != _OVER:
        return (0.0,) * state.players
    out = result(state)
    scores = out["scores"]
    if state.players == 1:
        return (min(1.0, max(0.0, scores[0] / 100)),)
    return win_share_returns(scores, out["winners"])
