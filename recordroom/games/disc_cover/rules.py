"""Disc Cover's rules as pure functions over :class:`DiscCoverState`.

A turn: four sleeves lie under Record cards 1 to 4 while a song plays; every player secretly
votes for a Record card (and may change it until the last vote is in); the votes are revealed
together. The sleeve with the most votes joins the 3 x 3 mosaic.

- Cooperative: the team scores as many points as that sleeve got votes. On a tie the players must
  agree: they vote again among the tied sleeves only, up to :data:`TIEBREAK_ROUNDS` times, and
  if they still cannot agree a fair draw among the sleeves still tied settles it. The points are
  always the votes of the turn's first vote.
- Competitive: every player who voted for the chosen sleeve scores 1 point. On a tie the Leader
  (who holds the First Player Record token, passed to the next seat after every turn) chooses.

The game ends when the mosaic holds nine sleeves.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from recordroom.engine import rng as rngmod
from recordroom.engine.errors import (
    BadOptions,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
)
from recordroom.engine.game import Action
from recordroom.games.disc_cover.sleeves import catalogue
from recordroom.games.disc_cover.state import (
    NO_VOTE,
    RECORD_CARDS,
    TIEBREAK_ROUNDS,
    TURNS,
    DecidedBy,
    DiscCoverState,
    Phase,
    Setup,
    TurnRecord,
    Variant,
)

MIN_PLAYERS = 3
MAX_PLAYERS = 8
MIN_DECK = 4 * TURNS

_ACTION_KEYS = frozenset({"type", "card"})

# The members as module names: an enum member's attribute look-up is slow on the hot path.
VOTE, TIEBREAK, LEADER, OVER = Phase
BY_MAJORITY, BY_TIEBREAK, BY_DRAW, BY_LEADER = DecidedBy


def _actions(kind: str) -> dict[tuple[int, ...], tuple[Action, ...]]:
    """Every possible legal-action tuple of one kind, built once and shared."""
    table: dict[tuple[int, ...], tuple[Action, ...]] = {}
    for size in range(1, len(RECORD_CARDS) + 1):
        for cards in combinations(RECORD_CARDS, size):
            table[cards] = tuple({"type": kind, "card": card} for card in cards)
    return table


_VOTES = _actions("vote")
_CHOICES = _actions("choose")
_PREBUILT: dict[int, tuple[Action, str, int]] = {
    id(a): (a, a["type"], a["card"])
    for table in (_VOTES, _CHOICES)
    for actions in table.values()
    for a in actions
}
"""Every prebuilt action by identity, with its type and card (they live as long as the module)."""


def normalise_options(players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The full options of a new game, defaults filled in; ``BadOptions`` names what is wrong."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise BadOptions(f"players must be a whole number, got {players!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadOptions(f"Disc Cover is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    given = dict(options or {})
    unknown = set(given) - {"variant", "leader", "sleeves"}
    if unknown:
        raise BadOptions(f"unknown Disc Cover options: {', '.join(sorted(unknown))}")
    variant_name = given.get("variant", Variant.COOPERATIVE.value)
    try:
        variant = Variant(variant_name)
    except ValueError:
        raise BadOptions(
            f"variant must be 'cooperative' or 'competitive', got {variant_name!r}"
        ) from None
    leader = given.get("leader", 0)
    if not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader < players:
        raise BadOptions(f"leader must be a seat from 0 to {players - 1}, got {leader!r}")
    sleeves = given.get("sleeves")
    if sleeves is None:
        sleeve_ids = [s.id for s in catalogue()]
    else:
        if not isinstance(sleeves, list | tuple) or not all(
            isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in sleeves
        ):
            raise BadOptions("sleeves must be a list of positive sleeve ids")
        if len(set(sleeves)) != len(sleeves):
            raise BadOptions("sleeves must not repeat an id")
        if len(sleeves) < MIN_DECK:
            raise BadOptions(
                f"a deck needs at least {MIN_DECK} sleeves (9 turns x 4), got {len(sleeves)}"
            )
        sleeve_ids = list(sleeves)
    return {"variant": variant.value, "leader": leader, "sleeves": sleeve_ids}


def sleeves_given(setup: Setup) -> list[int]:
    """The ``sleeves`` option in the order it was given, read back from the shuffled deck.

    The deck is that list shuffled by the seed, and a shuffle moves places, not values: the same
    shuffle of the places 0, 1, 2, ... says where each given sleeve went.
    """
    places, _ = rngmod.shuffled(range(len(setup.deck)), rngmod.seed_state(setup.seed))
    given = [0] * len(setup.deck)
    for sleeve, place in zip(setup.deck, places, strict=True):
        given[place] = sleeve
    return given


def new_state(players: int, seed: int, options: Mapping[str, Any] | None = None) -> DiscCoverState:
    """A game ready for the first vote, the deck shuffled by ``seed``."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BadOptions(f"seed must be a whole number, got {seed!r}")
    opts = normalise_options(players, options)
    deck, rng = rngmod.shuffled(opts["sleeves"], rngmod.seed_state(seed))
    variant = Variant(opts["variant"])
    setup = Setup(players, variant, seed, opts["leader"], deck)
    return DiscCoverState(
        setup=setup,
        turn=0,
        phase=VOTE,
        active=frozenset(range(players)),
        pending=(NO_VOTE,) * players,
        votes=(),
        candidates=RECORD_CARDS,
        tiebreak_votes=(),
        history=(),
        score=0,
        points=(0,) * players,
        leader=opts["leader"] if setup.competitive else None,
        rng=rng,
    )


def _start_turn(
    state: DiscCoverState,
    history: tuple[TurnRecord, ...],
    score: int,
    points: tuple[int, ...],
    leader: int | None,
    rng: int,
) -> DiscCoverState:
    """The turn after ``state``'s: its vote open to every seat, or the game over after the last."""
    players = state.setup.players
    over = state.turn + 1 >= TURNS
    s = state.thaw()
    s.turn = TURNS if over else state.turn + 1
    s.phase = OVER if over else VOTE
    s.active = frozenset() if over else frozenset(range(players))
    s.pending = (NO_VOTE,) * players
    s.votes = ()
    s.candidates = () if over else RECORD_CARDS
    s.tiebreak_votes = ()
    s.history = history
    s.score = score
    s.points = points
    s.leader = leader
    s.rng = rng
    after: DiscCoverState = s.freeze()
    return after


def legal_actions(state: DiscCoverState, seat: int) -> tuple[Action, ...]:
    """The Record cards the seat may pick now, in order; () if the seat need not act."""
    if seat not in state.active:
        return ()
    if state.phase is LEADER:
        return _CHOICES[state.candidates]
    return _VOTES[state.candidates]


def _describe(action: object) -> str:
    if isinstance(action, dict):
        return f"{action.get('type', '?')} {action.get('card', '')}".strip()
    return repr(action)


def _card_of(state: DiscCoverState, action: object) -> tuple[str, int]:
    """The action's type and card, or MalformedAction if it is not a Disc Cover action."""
    if not isinstance(action, dict):
        raise MalformedAction(f"an action must be an object, got {type(action).__name__}")
    kind = action.get("type")
    if kind not in ("vote", "choose"):
        raise MalformedAction(f"unknown action type {kind!r}; Disc Cover has 'vote' and 'choose'")
    if action.keys() != _ACTION_KEYS:
        raise MalformedAction(
            f"a {kind} action has exactly the keys 'type' and 'card', got {sorted(action)}"
        )
    card = action["card"]
    if not isinstance(card, int) or isinstance(card, bool) or card not in RECORD_CARDS:
        raise MalformedAction(f"card must be a Record card number from 1 to 4, got {card!r}")
    return kind, card


def apply(state: DiscCoverState, seat: int, action: Action) -> DiscCoverState:
    """The state after ``seat`` takes ``action``; the given state is left as it was."""
    if state.phase is OVER:
        raise GameOver(f"{_describe(action)}: the game is over, the mosaic is complete")
    known = _PREBUILT.get(id(action))
    # An action handed out by legal_actions (that very object) is well formed: skip the check.
    kind, card = known[1:] if known is not None and known[0] is action else _card_of(state, action)
    players = state.setup.players
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise NotYourTurn(f"{kind} {card}: there is no seat {seat!r} in this {players}-player game")
    phase = state.phase
    if seat not in state.active:
        changing = phase is not LEADER and state.pending[seat] and kind == "vote"
        if not changing:
            raise NotYourTurn(
                f"{kind} {card}: seat {seat} has nothing to do in the {phase.value} phase "
                f"of turn {state.turn + 1}"
            )
    expected = "choose" if phase is LEADER else "vote"
    if kind != expected:
        raise IllegalAction(
            f"{kind} {card}: the {phase.value} phase of turn {state.turn + 1} takes a {expected}"
        )
    if card not in state.candidates:
        tied = ", ".join(str(c) for c in state.candidates)
        raise IllegalAction(
            f"{kind} {card}: in the {phase.value} phase of turn {state.turn + 1} only Record "
            f"cards {tied} may be chosen"
        )
    if phase is LEADER:
        return _finish_turn(state, card, BY_LEADER, state.rng)
    pending = (*state.pending[:seat], card, *state.pending[seat + 1 :])
    active = state.active - {seat}
    if active:
        s = state.thaw()
        s.active = active
        s.pending = pending
        after: DiscCoverState = s.freeze()
        return after
    if phase is VOTE:
        return _reveal_vote(state, pending)
    return _reveal_tiebreak(state, pending)


def _most_voted(votes: tuple[int, ...], candidates: tuple[int, ...]) -> tuple[int, ...]:
    """The candidate cards that share the highest vote count, in order."""
    counts = {card: 0 for card in candidates}
    for card in votes:
        counts[card] += 1
    best = max(counts.values())
    return tuple(card for card in candidates if counts[card] == best)


def _reveal_vote(state: DiscCoverState, votes: tuple[int, ...]) -> DiscCoverState:
    top = _most_voted(votes, RECORD_CARDS)
    revealed = _with_votes(state, votes)
    if len(top) == 1:
        return _finish_turn(revealed, top[0], BY_MAJORITY, state.rng)
    setup = state.setup
    if setup.competitive:
        assert state.leader is not None  # competitive states always have a Leader
        return state._replace(
            phase=LEADER,
            active=frozenset((state.leader,)),
            pending=(NO_VOTE,) * setup.players,
            votes=votes,
            candidates=top,
            tiebreak_votes=(),
        )
    return state._replace(
        phase=TIEBREAK,
        active=frozenset(range(setup.players)),
        pending=(NO_VOTE,) * setup.players,
        votes=votes,
        candidates=top,
        tiebreak_votes=(),
    )


def _with_votes(state: DiscCoverState, votes: tuple[int, ...]) -> DiscCoverState:
    return state._replace(active=frozenset(), pending=(NO_VOTE,) * state.setup.players, votes=votes)


def _reveal_tiebreak(state: DiscCoverState, votes: tuple[int, ...]) -> DiscCoverState:
    rounds = (*state.tiebreak_votes, votes)
    top = _most_voted(votes, state.candidates)
    if len(top) == 1:
        return _finish_turn(_with_tiebreaks(state, rounds), top[0], BY_TIEBREAK, state.rng)
    if len(rounds) >= TIEBREAK_ROUNDS:
        card, rng = rngmod.choice(top, state.rng)
        return _finish_turn(_with_tiebreaks(state, rounds), card, BY_DRAW, rng)
    players = state.setup.players
    return state._replace(
        phase=TIEBREAK,
        active=frozenset(range(players)),
        pending=(NO_VOTE,) * players,
        candidates=top,
        tiebreak_votes=rounds,
    )


def _with_tiebreaks(state: DiscCoverState, rounds: tuple[tuple[int, ...], ...]) -> DiscCoverState:
    return state._replace(active=frozenset(), tiebreak_votes=rounds)


def _finish_turn(state: DiscCoverState, card: int, how: DecidedBy, rng: int) -> DiscCoverState:
    """Places the chosen sleeve in the mosaic, scores it and lays the next turn."""
    setup = state.setup
    votes = state.votes
    got = votes.count(card)
    score = state.score
    points = state.points
    scorers: tuple[int, ...] = ()
    leader = state.leader
    if setup.competitive:
        scorers = tuple(seat for seat, vote in enumerate(votes) if vote == card)
        points = tuple(p + (vote == card) for p, vote in zip(points, votes, strict=True))
    else:
        score += got
    record = TurnRecord(
        turn=state.turn,
        sleeves=setup.sleeves_of_turn(state.turn),
        votes=votes,
        tiebreak_votes=state.tiebreak_votes,
        card=card,
        points=got,
        decided_by=how,
        leader=leader,
        scorers=scorers,
    )
    if leader is not None:
        leader = (leader + 1) % setup.players
    return _start_turn(state, (*state.history, record), score, points, leader, rng)


def max_decisions(players: int) -> int:
    """The most actions a game can take: every vote, every tie-break round, every Leader pick."""
    return TURNS * (players * (1 + TIEBREAK_ROUNDS) + 1)
