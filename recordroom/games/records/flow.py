"""How a Records game moves: setup, weeks of simultaneous picks and marking, weekends of goal
claims, the end triggers, and solo turns.

Each function takes a :class:`~.state.Draft` (the mutable copy of a state the caller thawed),
changes it and returns it; the caller freezes it into the next state (:func:`new_game` builds the
first state). Simultaneous steps (lead singer colour, private goal, pick, claim) keep each seat's
choice in ``pending`` until the last active seat has chosen; marking keeps the boards other seats
see (``shown``) as they were until every marking seat is done, then shows them all at once.
"""

from __future__ import annotations

from recordroom.engine.rng import seed_state, shuffled
from recordroom.engine.values import replaced
from recordroom.games.records import board as bd
from recordroom.games.records import events as ev
from recordroom.games.records.edition import Edition
from recordroom.games.records.kinds import CHOICE_PHASES, Marking, Phase
from recordroom.games.records.state import NONE, Draft, State

__all__ = ["CHOICE_PHASES", "new_game"]

# The members as module names: an enum member's attribute look-up is slow on the hot path.
LEAD_SINGER, KEEP, PICK, MARK, CLAIM, PRIVATE, TURN, THIRD, GOAL, OVER = Phase
M_NONE, M_ROUND, M_PUBLIC, M_PRIVATE, M_SOLO, M_SOLO_GOAL = Marking


def _without(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """The hand less the card (a hand holds each card once)."""
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _cleared(state: Draft) -> tuple[int, ...]:
    return (NONE,) * state.players


def _add_trigger(state: Draft, name: str, seats: list[int]) -> None:
    if name not in state.triggers:
        state.triggers = (*state.triggers, name)
        state.log = (*state.log, {"type": "end_trigger", "trigger": name, "seats": seats})
    state.ending = True


def _direction(week: int) -> str:
    return "clockwise" if week % 2 == 1 else "counter-clockwise"


def auto_passes(ed: Edition, s: Draft) -> bool:
    """Seats that pass unmeetable private goals without asking leave ``active`` unasked (they
    pass: only a pending ``1`` claims); true if any did."""
    auto = frozenset(
        [
            seat
            for seat in s.active
            if s.settings[seat] & 1 and not bd.can_claim(ed, s.boards[seat], s.private[seat])
        ]
    )
    if not auto:
        return False
    s.active = s.active - auto
    return True


# -- setup --------------------------------------------------------------------------------------


def new_game(ed: Edition, players: int, seed: int) -> State:
    """A new game: decks shuffled, goals dealt, every seat choosing a lead singer colour."""
    rng = seed_state(seed)
    deck, rng = shuffled(ed.deck_for(players), rng)
    goals, rng = shuffled(range(len(ed.goals)), rng)
    public = goals[: ed.public_goals]
    goals = goals[ed.public_goals :]
    if players == 1:
        dealt: tuple[tuple[int, ...], ...] = ((),)
    else:
        k = ed.private_goals_dealt
        dealt = tuple([goals[i * k : (i + 1) * k] for i in range(players)])
        goals = goals[players * k :]
    empty: tuple[tuple[int, ...], ...] = ((),) * players
    nobody = (NONE,) * players
    boards = (bd.new_board(ed),) * players
    return State(
        players=players,
        edition=ed.name,
        rng=rng,
        phase=LEAD_SINGER,
        active=frozenset(range(players)),
        week=0,
        round=0,
        turn=0,
        goal_slot=0,
        triggers=(),
        ending=False,
        marking_for=M_NONE,
        option="",
        deck=deck,
        pending=nobody,
        played=nobody,
        goal_deck=goals,
        public=public,
        private=nobody,
        revealed=nobody,
        claims=nobody,
        discards=empty,
        hands=empty,
        queues=empty,
        dealt=dealt,
        boards=boards,
        shown=boards,
        undos=(0,) * players,
        chose=0,
        settings=(1,) * players,
        causes=((),) * players,
        hidden=((),) * players,
        log=(),
    )


def resolve_lead(ed: Edition, s: Draft) -> Draft:
    """Every lead singer colour is in: boards take them; then private goals (or the solo turn)."""
    s.boards = tuple([_lead(b, c) for b, c in zip(s.boards, s.pending, strict=True)])
    s.shown = s.boards
    s.log = s.log + tuple(
        [
            {"type": "lead_singer", "seat": seat, "colour": ed.colours[c]}
            for seat, c in enumerate(s.pending)
        ]
    )
    s.pending = _cleared(s)
    if s.players == 1:
        return start_solo_turn(ed, s)
    s.phase = KEEP
    s.active = frozenset(range(s.players))
    return s


def _lead(board: bd.Board, colour: int) -> bd.Board:
    return board._replace(lead=colour)


def resolve_keep(ed: Edition, s: Draft) -> Draft:
    """Every private goal is kept; the goals not kept leave the game; the first week starts."""
    s.private = s.pending
    s.dealt = ((),) * s.players
    s.pending = _cleared(s)
    return start_week(ed, s)


# -- weeks ----------------------------------------------------------------------------------------


def start_week(ed: Edition, s: Draft) -> Draft:
    """Each player draws a hand: from the deck, then from their own shuffled private discard."""
    s.week += 1
    s.round = 1
    s.log = (*s.log, {"type": "week", "week": s.week, "direction": _direction(s.week)})
    hands = []
    discards = list(s.discards)
    deck = s.deck
    for seat in range(s.players):
        take = deck[: ed.hand_size]
        deck = deck[ed.hand_size :]
        missing = ed.hand_size - len(take)
        if missing:
            pile, s.rng = shuffled(discards[seat], s.rng)
            take = take + pile[:missing]
            discards[seat] = pile[missing:]
        hands.append(take)
    s.deck = deck
    s.hands = tuple(hands)
    s.discards = tuple(discards)
    s.phase = PICK
    s.active = frozenset(range(s.players))
    return s


def resolve_picks(ed: Edition, s: Draft) -> Draft:
    """All picks are in: they are revealed, leave the hands, and every player marks."""
    s.played = s.pending
    s.revealed = s.pending
    s.hands = tuple([_without(h, p) for h, p in zip(s.hands, s.pending, strict=True)])
    s.discards = tuple([(*d, p) for d, p in zip(s.discards, s.pending, strict=True)])
    cards = ed.cards
    s.log = s.log + tuple(
        [
            {"type": "played", "seat": seat, "card": cards[c].id, "round": s.round}
            for seat, c in enumerate(s.pending)
        ]
    )
    s.pending = _cleared(s)
    s.phase = MARK
    s.marking_for = M_ROUND
    s.active = frozenset(range(s.players))
    return s


def end_marking(ed: Edition, s: Draft) -> Draft:
    """Every marking seat is done: boards are shown; the step that asked for marking goes on."""
    s.shown = s.boards
    s.played = _cleared(s)
    if any(s.hidden):
        s.log = s.log + tuple([e for seat_events in s.hidden for e in seat_events])
        s.hidden = ((),) * s.players
    if s.chose or any(s.undos):
        s.chose = 0
        s.undos = (0,) * s.players
    reason = s.marking_for
    s.marking_for = M_NONE
    if reason == M_ROUND:
        return end_round(ed, s)
    if reason == M_PUBLIC:
        s.goal_slot += 1
        return weekend_next(ed, s)
    if reason == M_PRIVATE:
        return end_weekend(ed, s)
    if reason == M_SOLO:
        return solo_after_mark(ed, s)
    return solo_end_turn(ed, s)


def end_round(ed: Edition, s: Draft) -> Draft:
    """End triggers are checked; hands pass on, or the week ends and the weekend starts."""
    full = [seat for seat, b in enumerate(s.boards) if bd.fail_full(ed, b)]
    if full:
        _add_trigger(s, "fail", full)
    full = [seat for seat, b in enumerate(s.boards) if bd.crew_full(b)]
    if full:
        _add_trigger(s, "crew", full)
    if s.round < ed.picks_per_week:
        n = s.players
        step = 1 if s.week % 2 == 1 else -1  # odd weeks pass clockwise, even weeks the other way
        s.hands = tuple([s.hands[(seat - step) % n] for seat in range(n)])
        s.round += 1
        s.phase = PICK
        s.active = frozenset(range(n))
        return s
    s.discards = tuple([(*d, *h) for d, h in zip(s.discards, s.hands, strict=True)])
    s.hands = ((),) * s.players
    s.goal_slot = 0
    s.log = (*s.log, {"type": "weekend", "week": s.week})
    return weekend_next(ed, s)


# -- weekends -------------------------------------------------------------------------------------


def weekend_next(ed: Edition, s: Draft) -> Draft:
    """The next public goal someone can claim is put to its claimants; the others go."""
    discarded: list[ev.Event] = []  # joined to the log once (each join copies the log)
    boards = s.boards
    while s.goal_slot < len(s.public):
        goal = s.public[s.goal_slot]
        if goal != NONE:
            eligible = frozenset(
                [seat for seat, board in enumerate(boards) if bd.can_claim(ed, board, goal)]
            )
            if eligible:
                if discarded:
                    s.log = s.log + tuple(discarded)
                s.phase = CLAIM
                s.active = eligible
                return s
            s.public = replaced(s.public, s.goal_slot, NONE)
            discarded.append(
                {
                    "type": "goal_discarded",
                    "goal": ed.goals[goal].id,
                    "slot": s.goal_slot,
                    "why": "unclaimed",
                }
            )
        s.goal_slot += 1
    if discarded:
        s.log = s.log + tuple(discarded)
    eligible = frozenset(
        [
            seat
            for seat in range(s.players)
            if s.private[seat] != NONE and len(s.boards[seat].goals) < ed.goal_boxes
        ]
    )
    if not eligible:
        return end_weekend(ed, s)
    s.phase = PRIVATE
    s.active = eligible
    if auto_passes(ed, s) and not s.active:
        return resolve_private(ed, s)
    return s


def _claim(
    ed: Edition, s: Draft, seat: int, goal: int, boards: list[bd.Board], private: bool = False
) -> bool:
    board, earned = bd.claim_goal(ed, boards[seat], goal)
    g = ed.goals[goal]
    out: list[ev.Event] = [
        {"type": "claimed", "seat": seat, "goal": g.id, "points": g.points, "private": private}
    ]
    board, queue, causes = ev.resolve(ed, board, seat, earned, (f"goal:{g.id}",) * len(earned), out)
    s.log = s.log + tuple(out)
    boards[seat] = board
    s.queues = replaced(s.queues, seat, queue)
    s.causes = replaced(s.causes, seat, causes)
    if len(board.goals) >= ed.goal_boxes:
        _add_trigger(s, "goals", [seat])
    return bool(queue)


def resolve_claims(ed: Edition, s: Draft) -> Draft:
    """Everyone has claimed or passed the current public goal; claimants mark it."""
    goal = s.public[s.goal_slot]
    s.claims = s.pending
    boards = list(s.boards)
    marking = [seat for seat in range(s.players) if s.pending[seat] == 1]
    if marking:
        s.public = replaced(s.public, s.goal_slot, NONE)
    marking = [seat for seat in marking if _claim(ed, s, seat, goal, boards)]
    s.boards = tuple(boards)
    s.shown = s.boards
    s.pending = _cleared(s)
    if marking:
        s.phase = MARK
        s.marking_for = M_PUBLIC
        s.active = frozenset(marking)
        return s
    s.goal_slot += 1
    return weekend_next(ed, s)


def resolve_private(ed: Edition, s: Draft) -> Draft:
    """Everyone has claimed or passed their private goal; claimants mark it.

    ``claims`` shows a pass (0) for every seat that could be asked, passed unasked or not, so the
    table cannot tell an unmeetable goal from a goal kept for later."""
    s.claims = tuple(
        [
            1
            if p == 1
            else 0
            if s.private[seat] != NONE and len(s.boards[seat].goals) < ed.goal_boxes
            else NONE
            for seat, p in enumerate(s.pending)
        ]
    )
    boards = list(s.boards)
    marking = []
    private = list(s.private)
    for seat in range(s.players):
        if s.pending[seat] == 1:
            goal = private[seat]
            private[seat] = NONE
            if _claim(ed, s, seat, goal, boards, private=True):
                marking.append(seat)
    s.private = tuple(private)
    s.boards = tuple(boards)
    s.shown = s.boards
    s.pending = _cleared(s)
    if marking:
        s.phase = MARK
        s.marking_for = M_PRIVATE
        s.active = frozenset(marking)
        return s
    return end_weekend(ed, s)


def end_weekend(ed: Edition, s: Draft) -> Draft:
    """Public goals are refilled for the next weekend; the game ends or a new week starts."""
    public = list(s.public)
    deck = s.goal_deck
    refills = []
    for i, goal in enumerate(public):
        if goal == NONE and deck:
            public[i], deck = deck[0], deck[1:]
            refills.append({"type": "goal_refilled", "goal": ed.goals[public[i]].id, "slot": i})
    s.public, s.goal_deck = tuple(public), deck
    s.log = s.log + tuple(refills)
    s.goal_slot = 0
    if s.ending:
        return finish(ed, s)
    return start_week(ed, s)


def finish(ed: Edition, s: Draft) -> Draft:
    """The game ends: each missing crew member ticks a fail box (no bonus from those ticks)."""
    limit = len(ed.fail_penalties)
    boards = []
    out: list[ev.Event] = []
    for seat, b in enumerate(s.boards):
        missing = len(b.crew) - bd.crew_count(b)
        if missing:
            ticks = max(0, min(limit, b.fails + missing) - b.fails)
            out.append({"type": "end_ticks", "seat": seat, "missing": missing, "ticks": ticks})
        if missing and b.fails < limit:
            b = b._replace(fails=min(limit, b.fails + missing))
        boards.append(b)
    s.boards = s.shown = tuple(boards)
    out.append({"type": "game_over", "scores": [bd.score(ed, b) for b in boards]})
    s.log = s.log + tuple(out)
    s.phase = OVER
    s.active = frozenset()
    s.hands = ((),) * s.players
    return s


# -- solo -----------------------------------------------------------------------------------------


def start_solo_turn(ed: Edition, s: Draft) -> Draft:
    """A new solo turn draws two cards; no two cards left ends the game."""
    if len(s.deck) < 2:
        _add_trigger(s, "deck", [0])
        return finish(ed, s)
    s.turn += 1
    s.log = (*s.log, {"type": "turn", "turn": s.turn})
    s.hands = (s.deck[:2],)
    s.deck = s.deck[2:]
    s.option = ""
    s.phase = TURN
    s.active = frozenset({0})
    return s


def solo_third(ed: Edition, s: Draft) -> Draft:
    """Option B: a third card is drawn."""
    s.hands = ((*s.hands[0], s.deck[0]),)
    s.log = (*s.log, {"type": "draw", "seat": 0, "card": ed.cards[s.deck[0]].id})
    s.deck = s.deck[1:]
    s.option = "B"
    s.phase = THIRD
    return s


def solo_playable(ed: Edition, hand: tuple[int, ...]) -> tuple[int, ...]:
    """Option B: all one type or all different, any card; otherwise the odd one out."""
    kinds = [ed.cards[c].kind for c in hand]
    if len(set(kinds)) != 2:
        return hand
    return tuple([c for c, k in zip(hand, kinds, strict=True) if kinds.count(k) == 1])


def solo_play(ed: Edition, s: Draft, card: int) -> Draft:
    """The solo player plays ``card``; the other drawn cards are discarded."""
    if not s.option:
        s.option = "A"
    others = tuple([c for c in s.hands[0] if c != card])
    s.log = (
        *s.log,
        {
            "type": "played",
            "seat": 0,
            "card": ed.cards[card].id,
            "option": s.option,
            "discarded": [ed.cards[c].id for c in others],
        },
    )
    s.discards = ((*s.discards[0], *others),)
    s.hands = ((),)
    s.played = (card,)
    s.revealed = (card,)
    s.phase = MARK
    s.marking_for = M_SOLO
    return s


def solo_after_mark(ed: Edition, s: Draft) -> Draft:
    """After option B, the player may claim one goal of the row (or passes if none is met)."""
    if s.option == "B":
        if any(g != NONE and bd.can_claim(ed, s.boards[0], g) for g in s.public):
            s.phase = GOAL
            s.active = frozenset({0})
            return s
        solo_goal_row(ed, s, NONE)
    return solo_end_turn(ed, s)


def solo_goal_row(ed: Edition, s: Draft, claimed_slot: int) -> None:
    """The claimed goal and the 4th goal leave the row; the rest shift right; new goals fill in."""
    last = len(s.public) - 1
    out: list[ev.Event] = []
    if last != claimed_slot and s.public[last] != NONE:
        out.append(
            {
                "type": "goal_discarded",
                "goal": ed.goals[s.public[last]].id,
                "slot": last,
                "why": "solo_row",
            }
        )
    rest = tuple([g for i, g in enumerate(s.public) if i not in (claimed_slot, last) and g != NONE])
    need = len(s.public) - len(rest)
    drawn, s.goal_deck = s.goal_deck[:need], s.goal_deck[need:]
    s.public = (NONE,) * (need - len(drawn)) + drawn + rest
    first = need - len(drawn)
    out.extend(
        {"type": "goal_refilled", "goal": ed.goals[g].id, "slot": first + i}
        for i, g in enumerate(drawn)
    )
    s.log = s.log + tuple(out)


def solo_claim(ed: Edition, s: Draft, slot: int) -> Draft:
    """The solo player claims the goal in ``slot``."""
    boards = list(s.boards)
    needs_choice = _claim(ed, s, 0, s.public[slot], boards)
    s.boards = s.shown = tuple(boards)
    s.claims = (slot,)
    solo_goal_row(ed, s, slot)
    if needs_choice:
        s.phase = MARK
        s.marking_for = M_SOLO_GOAL
        s.active = frozenset({0})
        return s
    return solo_end_turn(ed, s)


def solo_end_turn(ed: Edition, s: Draft) -> Draft:
    """A full fail track, a full crew or the last goals box ends the solo game."""
    b = s.boards[0]
    if bd.fail_full(ed, b):
        _add_trigger(s, "fail", [0])
    if bd.crew_full(b):
        _add_trigger(s, "crew", [0])
    if len(b.goals) >= ed.goal_boxes:
        _add_trigger(s, "goals", [0])
    if s.ending:
        return finish(ed, s)
    return start_solo_turn(ed, s)
