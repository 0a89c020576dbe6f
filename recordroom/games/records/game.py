"""Draft & Write Records through the engine contract: new games, legal actions, apply, results.

Phases (``state.phase``): ``lead_singer`` and ``keep`` (setup), ``pick`` and ``mark`` (a round of
a week), ``claim`` and ``private`` (a weekend), ``turn``, ``third`` and ``goal`` (solo), and
``over``. ``mark`` also serves the bonuses of a claimed goal. See :mod:`.flow` for how one phase
leads to the next and docs/records-edition.md for the edition.

In the marking of a week's round (and of a solo card) a seat ends its marking with ``done``, and
until then may ``undo`` its marks of the step (at most :data:`UNDO_LIMIT` times, and only when it
had a choice to make). The marking of a claimed goal's bonuses ends with its last bonus.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from recordroom.engine.agents import Agent, RandomAgent
from recordroom.engine.errors import (
    BadOptions,
    Code,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
)
from recordroom.engine.game import Action, GameInfo, JSONDict, Seat
from recordroom.engine.values import replaced
from recordroom.games.records import board as bd
from recordroom.games.records import choices, flow, memo, results
from recordroom.games.records import events as ev
from recordroom.games.records.actions import (
    DONE_OR_UNDO,
    DRAW,
    KEYS,
    ONLY_DONE,
    PASS,
    UNDO,
    Actions,
    actions_for,
)
from recordroom.games.records.bots import GreedyAgent
from recordroom.games.records.determinize import determinize
from recordroom.games.records.document import named_document
from recordroom.games.records.edition import Edition, EditionError, for_players, load_edition
from recordroom.games.records.kinds import CHOICE_PHASES, UNDOABLE, Phase
from recordroom.games.records.levels import LEVELS, level_agent
from recordroom.games.records.state import NONE, Draft, State, dumps, loads
from recordroom.games.records.view import view

# The members as module names: an enum member's attribute look-up is slow on the hot path.
LEAD_SINGER, KEEP, PICK, MARK, CLAIM, PRIVATE, TURN, THIRD, GOAL, OVER = Phase

DEFAULT_OPTIONS: dict[str, Any] = {"edition": "standard"}
UNDO_LIMIT = 3
"""Undos a seat may use in one marking step (this keeps every game finite for simulations)."""


class UndoRefused(IllegalAction):
    """An undo with nothing to take back: outside a round's marking, or no undo left."""

    code = Code.MARK_UNDO_REFUSED


class DoneRefused(IllegalAction):
    """A ``done`` outside a round's marking, or while the seat still has something to mark."""

    code = Code.MARK_DONE_REFUSED


class AlreadyDone(NotYourTurn):
    """The seat has ended its marking; the step waits for the others."""

    code = Code.MARK_ALREADY_DONE


def _options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    merged = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        if key not in DEFAULT_OPTIONS:
            raise BadOptions(f"records: unknown option {key!r}; options: edition")
        merged[key] = value
    try:
        load_edition(str(merged["edition"]))
    except EditionError as error:
        raise BadOptions(f"records: {error}") from None
    return merged


class RecordsGame:
    """The Records game object (the module's ``GAME``)."""

    info = GameInfo(
        name="records",
        title="Draft & Write Records",
        min_players=1,
        max_players=6,
        option_sets=({},),
        agent_kinds=("random", "greedy", "easy", "normal", "hard"),
        pages="records",
        extra_pages=(("/records", "table.html"), ("/records/table", "table.html")),
        # The room's pick timer: the secret choices (picks, lead singers, goals kept and
        # claimed), never the marking of a sheet, which takes thought and is a seat's own.
        timed_phases=frozenset(str(phase) for phase in CHOICE_PHASES),
    )

    def __init__(self) -> None:
        self.refresh_agent_kinds()

    def refresh_agent_kinds(self) -> None:
        """Offers the ``learned`` kind while ``RECORDROOM_LEARNED`` names a checkpoint file.

        ``recordroom serve --learned PATH`` sets the variable and calls this; the agent is a
        trained policy (``recordroom train records``, docs/rl.md), loaded from that file.
        """
        kinds = RecordsGame.info.agent_kinds
        if _learned_checkpoint() is not None:
            kinds = (*kinds, "learned")
        self.info = replace(RecordsGame.info, agent_kinds=kinds)

    # -- contract ----------------------------------------------------------------------------------

    def new_state(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        """A new game: decks shuffled, goals dealt, every seat choosing a lead singer colour."""
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 6:
            raise BadOptions(f"records: players must be 1 to 6, got {players!r}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            # None would seed from the clock: the same call would not give the same game.
            raise BadOptions(f"records: seed must be a whole number, got {seed!r}")
        return flow.new_game(load_edition(_options(options)["edition"]), players, seed)

    def legal_actions(self, state: State, seat: Seat) -> tuple[Action, ...]:
        """The seat's legal actions now, in a fixed order; () if it need not act."""
        legal = memo.record(state).legal
        cached = legal.get(seat)
        if cached is not None:
            return cached
        result = self._legal(state, seat) if seat in state.active else ()
        legal[seat] = result
        return result

    def apply(self, state: State, seat: Seat, action: Action) -> State:
        """The state after ``seat`` plays ``action``; raises the engine's errors otherwise."""
        if (
            type(seat) is not int and (not isinstance(seat, int) or isinstance(seat, bool))
        ) or not 0 <= seat < state.players:
            raise NotYourTurn(f"records: seat {seat!r} is not a seat of this game")
        if state.phase == OVER:
            raise GameOver(f"records: action {action!r} refused, the game is over")
        known = memo.record(state).legal
        cached = known.get(seat)
        # An action handed out by legal_actions (the same object) is well formed: skip the check.
        for handed in cached or ():
            if handed is action:
                break
        else:
            _check_shape(action, state.phase)
        rules = _RULES.get((state.edition, state.players))
        ed = (rules or _rules_for(state.edition, state.players))[0]
        kind = action["type"]
        if kind == "setting":
            return self._setting(ed, state, seat, bool(action["pass_unmet"]))
        if seat not in state.active:
            if state.phase == MARK and state.marking_for in UNDOABLE:
                raise AlreadyDone(
                    f"records: seat {seat} has ended its marking (action {action!r} refused); "
                    "the round goes on when every seat is done"
                )
            if kind in ("undo", "done"):
                _refuse_undo_done(state, seat, action)
            return self._change(state, seat, action)
        if cached is None:
            legal = known[seat] = self._legal(state, seat)
        else:
            legal = cached
        if action not in legal:
            if kind in ("undo", "done"):
                _refuse_undo_done(state, seat, action)
            raise IllegalAction(
                f"records: action {action!r} is not legal for seat {seat} in phase {state.phase}"
            )
        return self._step(ed, state, seat, action, legal)

    def apply_handed(
        self, state: State, seat: Seat, action: Action, legal: tuple[Action, ...]
    ) -> State:
        """``apply`` of one of ``legal``, what ``legal_actions(state, seat)`` handed out, without
        checking it again (see :class:`~recordroom.engine.game.AppliesHanded`)."""
        rules = _RULES.get((state.edition, state.players))
        ed = (rules or _rules_for(state.edition, state.players))[0]
        return self._step(ed, state, seat, action, legal)

    def legal_handed(self, state: State, seat: Seat) -> tuple[Action, ...]:
        """``legal_actions`` without the memo of the state's record (see
        :class:`~recordroom.engine.game.AppliesHanded`): for a caller that asks once per state
        and applies through :meth:`apply_handed`, the record would be made only to be dropped."""
        return self._legal(state, seat) if seat in state.active else ()

    def _step(
        self, ed: Edition, state: State, seat: int, action: Action, legal: tuple[Action, ...]
    ) -> State:
        """The step itself, on a draft of the state, frozen into the next state on every return."""
        kind = action["type"]
        s = state.thaw()
        phase = s.phase
        if phase in CHOICE_PHASES:
            s.pending = replaced(s.pending, seat, choices.encode(ed, action))
            s.active = s.active - {seat}
            if s.active:
                return s.freeze()
            return _RESOLVE[phase](ed, s).freeze()
        if phase == MARK:
            if kind == "undo":
                return _undo(s, seat).freeze()
            if kind == "done":
                s.active = s.active - {seat}
                return (s if s.active else flow.end_marking(ed, s)).freeze()
            if len(legal) - (legal[-1] is UNDO) > 1:
                s.chose |= 1 << seat
            return self._mark(ed, s, seat, action).freeze()
        if phase == TURN:
            if kind == "draw":
                return flow.solo_third(ed, s).freeze()
            return flow.solo_play(ed, s, ed.card_by_id[action["card"]]).freeze()
        if phase == THIRD:
            return flow.solo_play(ed, s, ed.card_by_id[action["card"]]).freeze()
        # solo goal step
        if kind == "pass":
            flow.solo_goal_row(ed, s, NONE)
            return flow.solo_end_turn(ed, s).freeze()
        slot = s.public.index(ed.goal_by_id[action["goal"]])
        return flow.solo_claim(ed, s, slot).freeze()

    def view(self, state: State, seat: Seat | None) -> JSONDict:
        """What ``seat`` may know (``None``: the public table)."""
        if seat is not None and (
            (type(seat) is not int and (not isinstance(seat, int) or isinstance(seat, bool)))
            or not 0 <= seat < state.players
        ):
            raise NotYourTurn(
                f"records: there is no seat {seat!r} in this {state.players}-player game"
            )
        return view(for_players(load_edition(state.edition), state.players), state, seat)

    def is_over(self, state: State) -> bool:
        """The game has ended."""
        return state.phase == OVER

    def result(self, state: State) -> JSONDict:
        """Scores, the breakdown by area, the winners (and the solo rank); only once over."""
        return results.result(state)

    def returns(self, state: State) -> tuple[float, ...]:
        """Zeros until over; then solo: score / 100; else the win share and score margin
        (:func:`.results.returns`)."""
        return results.returns(state)

    def dumps(self, state: State) -> str:
        """Exact JSON text of the state."""
        return dumps(state)

    def loads(self, text: str) -> State:
        """The state written by :meth:`dumps`."""
        return loads(text)

    def max_decisions(self, players: int, options: Mapping[str, Any] | None = None) -> int:
        """A bound on accepted actions: every pick ticks a box or a fail box, all finite."""
        ed = load_edition(_options(options)["edition"])
        choices = (
            ed.harmony_boxes
            + ed.agenda_boxes
            + ed.asset_boxes
            + len(ed.restrictions)
            + ed.goal_boxes
        )
        boxes = len(ed.crew_slots) + ed.agenda_boxes + ed.asset_boxes + len(ed.fail_penalties)
        if players == 1:
            turns = ed.cards_per_player // 2
            return (UNDO_LIMIT + 2) * (1 + turns * 5 + choices)
        weeks = boxes // ed.picks_per_week + 3
        per_week = 2 * ed.picks_per_week + ed.public_goals + 1
        # every marking step may be marked again after each undo, and ends with done
        return (UNDO_LIMIT + 2) * players * (2 + weeks * per_week + choices)

    def options_of(self, state: State) -> JSONDict:
        """The normalised options."""
        return {"edition": state.edition}

    def players_of(self, state: State) -> int:
        """Seats in the game."""
        return state.players

    def agent(self, kind: str, seed: int = 0) -> Agent:
        """``random``, ``greedy``, a level (``easy``, ``normal``, ``hard``) or ``learned``."""
        if kind == "random":
            return RandomAgent(seed)
        if kind == "greedy":
            return GreedyAgent(seed)
        if kind in LEVELS:
            return level_agent(self, kind, seed)
        if kind == "learned":
            # The one import of another room, loaded only when asked for: the trained policy
            # (recordroom.rl) needs its checkpoint, and rl reads this game (not a cycle dodge).
            from recordroom.rl.policy import learned_agent

            return learned_agent(seed)
        raise KeyError(
            f"records: unknown agent kind {kind!r}; kinds: {', '.join(self.info.agent_kinds)}"
        )

    def determinize(self, view: JSONDict, seat: Seat, seed: int) -> State:
        """A full state consistent with what ``seat`` sees in ``view``, the unseen drawn by seed."""
        return determinize(view, seat, seed)

    def edition(self, name: str) -> JSONDict:
        """The named edition as its pages draw it (:mod:`.document`); ``EditionError`` if none."""
        return named_document(name)

    # -- internals ---------------------------------------------------------------------------------

    def _legal(self, s: State, seat: int) -> tuple[Action, ...]:
        ed, acts = _RULES.get((s.edition, s.players)) or _rules_for(s.edition, s.players)
        phase = s.phase
        if phase == PICK:
            return acts.picks(s.hands[seat])
        if phase == MARK:
            card = s.played[seat]
            board = s.boards[seat]
            queue = s.queues[seat]
            if queue:
                return acts.bonuses(board, queue[0], _can_undo(s, seat))
            if card == NONE:
                return DONE_OR_UNDO if _can_undo(s, seat) else ONLY_DONE
            return acts.marks(board, card)
        if phase == CLAIM:
            return (acts.claim[s.public[s.goal_slot]], PASS)
        if phase == PRIVATE:
            goal = s.private[seat]
            if bd.can_claim(ed, s.boards[seat], goal):
                return (acts.claim[goal], PASS)
            return (PASS,)
        if phase == LEAD_SINGER:
            return acts.lead
        if phase == KEEP:
            return tuple([acts.keep[g] for g in s.dealt[seat]])
        if phase == TURN:
            picks = tuple([acts.pick[c] for c in s.hands[0]])
            return (*picks, DRAW) if s.deck else picks
        if phase == THIRD:
            return tuple([acts.pick[c] for c in flow.solo_playable(ed, s.hands[0])])
        if phase == GOAL:
            board = s.boards[0]
            claims = tuple(
                [acts.claim[g] for g in s.public if g != NONE and bd.can_claim(ed, board, g)]
            )
            return (*claims, PASS)
        return ()

    def _change(self, state: State, seat: int, action: Action) -> State:
        """A seat outside ``active`` may only replace its pending choice of this step."""
        if state.phase not in CHOICE_PHASES or state.pending[seat] == NONE:
            raise NotYourTurn(
                f"records: seat {seat} may not act in phase {state.phase} (action {action!r})"
            )
        if action not in self._legal(state._replace(active=frozenset({seat})), seat):
            raise IllegalAction(
                f"records: action {action!r} cannot replace the pending choice of seat {seat} "
                f"in phase {state.phase}"
            )
        ed = for_players(load_edition(state.edition), state.players)
        return state._replace(pending=replaced(state.pending, seat, choices.encode(ed, action)))

    def _setting(self, ed: Edition, state: State, seat: int, pass_unmet: bool) -> State:
        """A seat's own setting; turned on while it is asked about an unmeetable private goal,
        that goal is passed at once."""
        s = state.thaw()
        value = (s.settings[seat] & ~1) | int(pass_unmet)
        s.settings = replaced(s.settings, seat, value)
        passed = s.phase == PRIVATE and seat in s.active and flow.auto_passes(ed, s)
        if passed and not s.active:
            return flow.resolve_private(ed, s).freeze()
        return s.freeze()

    def _mark(self, ed: Edition, s: Draft, seat: int, action: Action) -> Draft:
        board = s.boards[seat]
        kind = action["type"]
        queue = s.queues[seat]
        causes = s.causes[seat]
        out: list[ev.Event] = []
        if kind == "bonus":
            board, queue, causes = ev.use(
                ed, board, seat, queue[0], action["box"], causes[0], queue[1:], causes[1:], out
            )
        else:
            card = s.played[seat]
            s.played = replaced(s.played, seat, NONE)
            board, earned, event, new_causes = ev.marked(ed, board, seat, card, action)
            out.append(event)
            queue = queue + earned
            causes = causes + new_causes
        if queue:
            board, queue, causes = ev.resolve(ed, board, seat, queue, causes, out)
        s.boards = replaced(s.boards, seat, board)
        if queue is not s.queues[seat]:  # (a mark that earns nothing leaves both as they were)
            s.queues = replaced(s.queues, seat, queue)
        if causes is not s.causes[seat]:
            s.causes = replaced(s.causes, seat, causes)
        s.hidden = replaced(s.hidden, seat, s.hidden[seat] + tuple(out))
        if queue or s.marking_for in UNDOABLE:
            return s  # a bonus waits for its box, or the seat says when it is done
        s.active = s.active - {seat}
        if s.active:
            return s
        return flow.end_marking(ed, s)


_RULES: dict[tuple[str, int], tuple[Edition, Actions]] = {}


def _rules_for(edition: str, players: int) -> tuple[Edition, Actions]:
    """The edition as that many players use it and its action dicts (looked up once)."""
    known = _RULES.get((edition, players))
    if known is None:
        known = _RULES[edition, players] = (
            for_players(load_edition(edition), players),
            actions_for(edition),
        )
    return known


_RESOLVE = {
    LEAD_SINGER: flow.resolve_lead,
    KEEP: flow.resolve_keep,
    PICK: flow.resolve_picks,
    CLAIM: flow.resolve_claims,
    PRIVATE: flow.resolve_private,
}
"""What ends each choice step once every choice is in."""


def _can_undo(s: State | Draft, seat: int) -> bool:
    """The seat has marks of its own to take back: it chose, in a step that allows undo."""
    return bool(s.chose >> seat & 1) and s.marking_for in UNDOABLE and s.undos[seat] < UNDO_LIMIT


def _undo(s: Draft, seat: int) -> Draft:
    """The seat's marks of this step are taken back: its board as shown, its card in hand again."""
    s.boards = replaced(s.boards, seat, s.shown[seat])
    s.played = replaced(s.played, seat, s.revealed[seat])
    s.queues = replaced(s.queues, seat, ())
    s.causes = replaced(s.causes, seat, ())
    s.hidden = replaced(s.hidden, seat, ())
    s.undos = replaced(s.undos, seat, s.undos[seat] + 1)
    s.chose &= ~(1 << seat)
    return s


def _refuse_undo_done(s: State, seat: int, action: Action) -> None:
    """The clear refusal of an undo or a done that is not legal now."""
    where = f"phase {s.phase}" + (f" ({s.marking_for})" if s.marking_for else "")
    if action["type"] == "undo":
        if s.phase != MARK or s.marking_for not in UNDOABLE:
            why = "undo is only possible while marking a round's card"
        elif s.undos[seat] >= UNDO_LIMIT:
            why = f"the {UNDO_LIMIT} undos of this marking are used"
        else:
            why = "nothing of this seat's to take back (it had no choice to make)"
        raise UndoRefused(f"records: seat {seat} cannot undo in {where}: {why}")
    if s.phase != MARK or s.marking_for not in UNDOABLE:
        why = "done only ends the marking of a round's card"
    else:
        why = "the card or a bonus still waits to be marked"
    raise DoneRefused(f"records: seat {seat} cannot say done in {where}: {why}")


def _learned_checkpoint() -> Path | None:
    """The checkpoint file ``RECORDROOM_LEARNED`` names, if it names one."""
    path = os.environ.get("RECORDROOM_LEARNED")
    return Path(path) if path and Path(path).is_file() else None


def _check_shape(action: Any, phase: str) -> None:
    if not isinstance(action, dict):
        raise MalformedAction(f"records: action {action!r} in phase {phase} is not an object")
    kind = action.get("type")  # any JSON: a list or an object is no type either
    keys = KEYS.get(kind) if isinstance(kind, str) else None
    if keys is None or keys != action.keys():
        raise MalformedAction(
            f"records: action {action!r} in phase {phase} is not a Records action "
            f"(types: {', '.join(KEYS)})"
        )
    if action["type"] == "setting":
        if not isinstance(action["pass_unmet"], bool):
            raise MalformedAction(f"records: setting {action!r}: pass_unmet must be true or false")
        return
    for value in action.values():
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | str)):
            raise MalformedAction(f"records: action {action!r} in phase {phase} has a bad field")


GAME = RecordsGame()
