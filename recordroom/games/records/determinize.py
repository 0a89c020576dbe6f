"""Records determinisations: full states one seat cannot tell from the real one.

A seat knows its own hand, pending choice, bonus queue, private goal (or the goals it was dealt)
and its own board; every board as last shown; the public goals, the revealed picks, the claims;
and the sizes of the deck, the goal deck, every hand and every discard pile. :func:`determinize`
keeps all of that and draws the rest:

- the cards it has not seen (the edition's deck for this player count less its own hand) are
  shuffled and dealt into the other hands, every discard pile (a revealed pick of the current
  round stays in its owner's pile) and the deck, each at its known size;
- the goals it has not seen (on no board, not public, not its own) are shuffled into the goal
  deck, then the other seats' private goals (or dealt pairs while goals are being kept);
- other seats that have already chosen in a simultaneous step get a legal choice drawn at random;
- while the table marks a round, the other seats still marking (``marking``) mark the pick they
  revealed on the board the seat last saw, and those done have marked nothing that shows; after a
  goal claim, other claimants are done unless someone must be;
- the public events are the view's; the seat's own unrevealed events, bonus causes, undos and
  setting are its own; the others' settings are the default;
- while private goals are decided, every other seat that could be asked is still deciding;
- the RNG is reseeded.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from recordroom.games.records import board as bd
from recordroom.games.records import choices
from recordroom.games.records.edition import Edition, for_players, load_edition
from recordroom.games.records.flow import new_game
from recordroom.games.records.kinds import CHOICE_PHASES, Bonus, Marking, Phase, bonus_code
from recordroom.games.records.state import NONE, Draft, State


def _goal(ed: Edition, goal_id: str | None) -> int:
    return NONE if goal_id is None else ed.goal_by_id[goal_id]


def _card(ed: Edition, card_id: str | None) -> int:
    return NONE if card_id is None else ed.card_by_id[card_id]


def _marking_for(view: dict[str, Any]) -> Marking:
    """Why the table is marking: the view says so, or it is read from the hands and the claims."""
    reason = view.get("marking_for")
    if isinstance(reason, str):
        return Marking(reason)
    if view["players"] == 1:
        # Marking a played card ends with ``done``, and the view lists the seat as marking until
        # then, also once the card is marked; a claimed goal's marking does not.
        undoable = view["you"]["played"] is not None or view.get("marking") is not None
        return Marking.SOLO if undoable else Marking.SOLO_GOAL
    if any(view["hand_sizes"]):
        return Marking.ROUND
    return Marking.PUBLIC if any(c == 1 for c in view["claims"]) else Marking.PRIVATE


def _goal_slot(view: dict[str, Any], ed: Edition, marking_for: str) -> int:
    slot = view.get("goal_slot")
    if isinstance(slot, int):
        return slot
    public = view["public_goals"]
    if view["phase"] == "claim" and view["current_goal"] in public:
        return int(public.index(view["current_goal"]))
    if view["phase"] == "mark" and marking_for == "public":
        gaps = [i for i, g in enumerate(public) if g is None]
        return gaps[-1] if gaps else 0
    return len(public) if view["phase"] in ("private", "mark") and marking_for != "round" else 0


@cache
def _blank(edition: str, players: int) -> tuple[State, tuple[int, ...]]:
    """A new game of that edition and player count, whose every field but the two that name them
    :func:`determinize` sets again, and the deck of that many players: built once (a search
    determinises hundreds of times a decision), as :func:`load_edition` loads an edition once."""
    state = new_game(load_edition(edition), players, 0)
    return state, for_players(load_edition(edition), players).deck_for(players)


def determinize(view: dict[str, Any], seat: int, seed: int) -> State:
    """A full state whose view for ``seat`` equals ``view``; hidden parts drawn from ``seed``."""
    rng = random.Random(seed)
    ed = for_players(load_edition(view["edition"]), view["players"])
    players: int = view["players"]
    you = view["you"]
    phase = Phase(view["phase"])
    blank, deck = _blank(view["edition"], players)
    s = blank.thaw()
    s.rng = rng.getrandbits(63)
    s.phase = phase
    s.week, s.round, s.turn = view["week"], view["round"], view["turn"]
    s.triggers = tuple(view["triggers"])
    s.ending = bool(view["ending"])
    s.option = view.get("option", "")
    s.claims = tuple(view["claims"])
    s.revealed = tuple(_card(ed, c) for c in view["revealed"])
    s.public = tuple(_goal(ed, g) for g in view["public_goals"])
    s.marking_for = _marking_for(view) if phase == Phase.MARK else Marking.NONE
    s.goal_slot = _goal_slot(view, ed, s.marking_for)
    own = bd.Board.from_json(view["boards"][seat]["raw"])
    shown = [
        bd.Board.from_json(b["raw"]) if i != seat else own for i, b in enumerate(view["boards"])
    ]
    s.boards = tuple(shown)
    s.shown = tuple(shown)
    events = view["events"]
    unrevealed: int = you["unrevealed"]
    s.log = tuple(events[: len(events) - unrevealed])
    s.hidden = tuple(
        tuple(events[len(events) - unrevealed :]) if i == seat else () for i in range(players)
    )
    s.causes = tuple(tuple(you["queue_causes"]) if i == seat else () for i in range(players))
    s.undos = tuple(you["undos"] if i == seat else 0 for i in range(players))
    s.chose = int(bool(you["chose"])) << seat
    s.settings = tuple(int(bool(you["pass_unmet"])) if i == seat else 1 for i in range(players))

    # Cards: the seat's own hand is known, the rest is one shuffled pool.
    own_hand = tuple(_card(ed, c) for c in you["hand"])
    round_marking = phase == Phase.MARK and s.marking_for == Marking.ROUND
    held = set(own_hand)
    if round_marking:
        held |= {c for c in s.revealed if c != NONE}
    pool = [c for c in deck if c not in held]
    rng.shuffle(pool)
    hands = []
    for i, size in enumerate(view["hand_sizes"]):
        if i == seat:
            hands.append(own_hand)
        else:
            hands.append(tuple(pool[:size]))
            del pool[:size]
    discards = []
    for i, size in enumerate(view["discards"]):
        pick = s.revealed[i] if round_marking else NONE
        take = size - (pick != NONE)
        pile = (*pool[:take], pick) if pick != NONE else tuple(pool[:take])
        del pool[:take]
        discards.append(tuple(pile))
    s.hands = tuple(hands)
    s.discards = tuple(discards)
    s.deck = tuple(pool[: view["deck"]])

    # Goals: what is nowhere in sight is one shuffled pool.
    seen_goals = {g for g in s.public if g != NONE}
    seen_goals |= {g for b in s.boards for g in b.goals}
    own_private = _goal(ed, you["private_goal"])
    own_dealt = tuple(_goal(ed, g) for g in you["dealt"])
    seen_goals |= {own_private, *own_dealt}
    goals = [g for g in range(len(ed.goals)) if g not in seen_goals]
    rng.shuffle(goals)
    s.goal_deck = tuple(goals[: view["goal_deck"]])
    del goals[: view["goal_deck"]]
    dealt: list[tuple[int, ...]] = [()] * players
    private = [NONE] * players
    setup = phase in (Phase.LEAD_SINGER, Phase.KEEP)
    for i in range(players):
        if i == seat:
            dealt[i], private[i] = own_dealt, own_private
        elif players > 1 and setup:
            k = ed.private_goals_dealt
            dealt[i] = tuple(goals[:k])
            del goals[:k]
        elif players > 1 and goals:
            private[i] = goals.pop()
    s.dealt = tuple(dealt)
    s.private = tuple(private)

    # Who acts, and the hidden choices of those who already have.
    queues: list[tuple[int, ...]] = [()] * players
    queues[seat] = tuple(bonus_code(ed.colours, q) for q in you["queue"])
    played = [NONE] * players
    played[seat] = _card(ed, you["played"])
    pending = [NONE] * players
    if phase == Phase.PRIVATE:
        waiting = {seat} if you["to_act"] else set()
        for i in range(players):
            if i != seat and private[i] != NONE and len(s.boards[i].goals) < ed.goal_boxes:
                waiting.add(i)
        s.active = frozenset(waiting)
        if you["pending"] is not None:
            pending[seat] = choices.read(ed, phase, you["pending"])
    elif phase in CHOICE_PHASES:
        s.active = frozenset(view["waiting"])
        for i in range(players):
            if i == seat or i in s.active:
                continue
            pending[i] = _hidden_choice(ed, s, i, phase, rng)
        if you["pending"] is not None:
            pending[seat] = choices.read(ed, phase, you["pending"])
    elif phase == Phase.MARK:
        active = {seat} if you["to_act"] else set()
        if round_marking:
            for i in view["marking"]:
                if i != seat:
                    active.add(i)
                    played[i] = s.revealed[i]
        elif not active:
            for i in range(players):
                if i != seat and s.claims[i] == 1:
                    code = _open_bonus(ed, s.boards[i])
                    if code is not None:
                        active.add(i)
                        queues[i] = (code,)
        s.active = frozenset(active)
    elif phase == Phase.OVER:
        s.active = frozenset()
    else:  # solo turn, third card, goal step
        s.active = frozenset({0})
    s.queues = tuple(queues)
    s.played = tuple(played)
    s.pending = tuple(pending)
    return s.freeze()


def _hidden_choice(ed: Edition, s: Draft, seat: int, phase: Phase, rng: random.Random) -> int:
    """A choice that seat could have made, or NONE if it had nothing to choose."""
    if phase == Phase.LEAD_SINGER:
        return rng.randrange(len(ed.colours))
    if phase == Phase.KEEP:
        return rng.choice(s.dealt[seat]) if s.dealt[seat] else NONE
    if phase == Phase.PICK:
        return rng.choice(s.hands[seat]) if s.hands[seat] else NONE
    board = s.boards[seat]
    if phase == Phase.CLAIM:
        goal = s.public[s.goal_slot] if s.goal_slot < len(s.public) else NONE
    else:
        goal = s.private[seat]
        if goal == NONE or len(board.goals) >= ed.goal_boxes:
            return NONE
    if goal == NONE:
        return NONE
    if phase == Phase.CLAIM and not bd.can_claim(ed, board, goal):
        return NONE
    return rng.randrange(2) if bd.can_claim(ed, board, goal) else 0


def _open_bonus(ed: Edition, board: bd.Board) -> int | None:
    """A bonus that has somewhere to go on that board (for a claimant still marking)."""
    for code in Bonus:
        if bd.bonus_targets(ed, board, code):
            return int(code)
    return None
