"""Fixed action spaces and observation encoders: engine actions and views as numbers.

Every game and player count has one :class:`ActionSpace`: a fixed, ordered list of every action
dict the game can ever offer, so index ``i`` always means the same engine action (the mapping is
listed in docs/rl.md and by ``space.describe()``). A seat's legal actions become a 0/1 mask over
that list. Observations are built by an :class:`Encoder` from ``game.view(state, seat)`` alone,
never from the full state, so nothing a player could not see reaches a learner.

Records (every player count, one edition): lead singer colours, private goals to keep, goals to
claim, cards to pick, crew marks (slot x multiplier box, -1 first), agenda boxes, asset boxes,
the bare actions (``fail``, ``pass``, ``draw`` ..., in the game's order of action types), then
every bonus and target. Disc Cover: ``vote`` card 1-4 then
``choose`` card 1-4.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from recordroom.engine.errors import BadOptions
from recordroom.engine.game import Action, JSONDict

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]

GAMES = ("disc-cover", "records")


def action_text(action: Mapping[str, Any]) -> str:
    """A stable text key of an action dict (sorted JSON)."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


class ActionSpace:
    """Index <-> engine action for one game and edition (see the module docstring)."""

    def __init__(self, game: str, actions: Sequence[Action]) -> None:
        self.game = game
        self.actions: tuple[Action, ...] = tuple(actions)
        self._by_text = {action_text(a): i for i, a in enumerate(self.actions)}
        if len(self._by_text) != len(self.actions):
            raise ValueError(f"{game}: the action list repeats an action")
        # The engine hands out shared, read-only action dicts; the same objects are kept here, so
        # most look-ups are by identity (the texts serve any other equal dict).
        self._by_id = {id(a): i for i, a in enumerate(self.actions)}
        # Other equal dicts met once, kept alive with their index so that their id stays theirs.
        self._seen: dict[int, tuple[Mapping[str, Any], int]] = {}

    @property
    def n(self) -> int:
        """How many actions the space has."""
        return len(self.actions)

    def index(self, action: Mapping[str, Any]) -> int:
        """The index of an engine action; ``KeyError`` if the space does not hold it."""
        found = self._by_id.get(id(action))
        if found is not None and self.actions[found] is action:
            return found
        seen = self._seen.get(id(action))
        if seen is not None and seen[0] is action:
            return seen[1]
        found = self._by_text[action_text(action)]
        if len(self._seen) > 50_000:
            self._seen.clear()
        self._seen[id(action)] = (action, found)
        return found

    def indices(self, legal: Sequence[Mapping[str, Any]]) -> list[int]:
        """The indices of a tuple of legal actions, in their order."""
        by_id = self._by_id
        actions = self.actions
        out = []
        for action in legal:
            found = by_id.get(id(action))
            if found is None or actions[found] is not action:
                found = self.index(action)
            out.append(found)
        return out

    def mask(self, legal: Sequence[Mapping[str, Any]]) -> MaskArray:
        """A 0/1 int8 vector of length ``n``: 1 where the action is legal."""
        out = np.zeros(self.n, dtype=np.int8)
        if legal:
            out[self.indices(legal)] = 1
        return out

    def describe(self) -> list[str]:
        """``"index: action"`` lines, the documented mapping."""
        return [f"{i}: {action_text(a)}" for i, a in enumerate(self.actions)]


def check_game(game: str, players: int) -> None:
    """``BadOptions`` naming the problem for an unknown game or a player count it does not have."""
    if game not in GAMES:
        raise BadOptions(f"recordroom.rl: unknown game {game!r}; games: {', '.join(GAMES)}")
    low, high = (3, 8) if game == "disc-cover" else (1, 6)
    if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
        raise BadOptions(f"recordroom.rl: {game} takes {low} to {high} players, got {players!r}")


def check_options(game: str, players: int, options: Mapping[str, Any] | None) -> None:
    """``BadOptions`` naming the game and the option when the game refuses ``options``."""
    from recordroom.games import load

    if options is not None and not isinstance(options, Mapping):
        raise BadOptions(
            f"recordroom.rl: {game} options must be a mapping of option names to values, "
            f"got {options!r}"
        )
    try:
        load(game).new_state(players, 0, options)
    except BadOptions as error:
        text = str(error)
        if text.startswith(f"{game}:") or text.startswith("recordroom.rl:"):
            raise
        raise BadOptions(f"{game}: {text}") from None


def action_space(game: str, options: Mapping[str, Any] | None = None) -> ActionSpace:
    """The fixed action space of a game (Records: of the options' edition)."""
    if game == "disc-cover":
        return _disc_cover_space()
    if game == "records":
        return _records_space(str((options or {}).get("edition", "standard")))
    raise BadOptions(f"recordroom.rl: unknown game {game!r}; games: {', '.join(GAMES)}")


_SPACES: dict[str, ActionSpace] = {}


def _disc_cover_space() -> ActionSpace:
    space = _SPACES.get("disc-cover")
    if space is None:
        actions: list[Action] = [
            {"type": kind, "card": card} for kind in ("vote", "choose") for card in range(1, 5)
        ]
        space = _SPACES["disc-cover"] = ActionSpace("disc-cover", actions)
    return space


def _records_space(edition: str) -> ActionSpace:
    key = f"records:{edition}"
    space = _SPACES.get(key)
    if space is not None:
        return space
    from recordroom.games.records import board as bd
    from recordroom.games.records.actions import KEYS, actions_for
    from recordroom.games.records.edition import HARMONY_OF, EditionError, load_edition

    try:
        ed = load_edition(edition)
    except EditionError as error:
        raise BadOptions(f"records: {error}") from None
    acts = actions_for(edition)
    actions: list[Action] = [*acts.lead, *acts.keep, *acts.claim, *acts.pick]
    for row in acts.crew:
        actions.extend(row)
    actions += [*acts.agenda, *acts.asset]
    # The actions that are a bare type (fail, pass, draw ...), in the order the game lists them.
    # (the module's shared constant where it has one, so that look-ups by identity find it)
    from recordroom.games.records import actions as records_actions

    for kind, keys in KEYS.items():
        if keys == {"type"}:
            shared = getattr(records_actions, kind.upper(), None)
            actions.append(shared if shared == {"type": kind} else {"type": kind})
    empty = bd.new_board(ed)
    for code in range(HARMONY_OF + len(ed.colours)):
        if code in (bd.ALBUM, bd.SINGLE, bd.MULTIPLIER, bd.TOUR):
            targets: Sequence[int] = (0,)
        else:
            targets = bd.bonus_targets(ed, empty, code)
        actions.extend(acts.bonus(code, t) for t in targets)
    space = _SPACES[key] = ActionSpace("records", actions)
    return space


# -- observations ----------------------------------------------------------------------------------


class Encoder:
    """Turns one seat's view into a float32 vector of fixed length ``size``."""

    size: int

    def encode(self, view: JSONDict) -> FloatArray:
        """The observation of that view."""
        raise NotImplementedError

    def layout(self) -> list[tuple[str, int]]:
        """The named blocks of the vector, in order, with their lengths (docs/rl.md)."""
        raise NotImplementedError


def encoder(game: str, players: int, options: Mapping[str, Any] | None = None) -> Encoder:
    """The observation encoder of a game and player count."""
    check_game(game, players)
    if game == "disc-cover":
        return DiscCoverEncoder(players)
    return RecordsEncoder(players, str((options or {}).get("edition", "standard")))


class _Blocks:
    """Named blocks laid end to end."""

    def __init__(self, blocks: Sequence[tuple[str, int]]) -> None:
        self.blocks = list(blocks)
        self.start: dict[str, int] = {}
        at = 0
        for name, length in self.blocks:
            self.start[name] = at
            at += length
        self.size = at


class DiscCoverEncoder(Encoder):
    """Disc Cover: the table, the votes so far and the seat's own vote, seats counted from it.

    Seats are relative: block entry 0 is the observing seat, 1 the next seat, and so on; entries
    past the player count stay 0, so every player count of one game has the same layout.
    """

    SEATS = 8

    def __init__(self, players: int) -> None:
        from recordroom.games.disc_cover.sleeves import catalogue

        self.players = players
        self.sleeve_slot = {s.id: i for i, s in enumerate(catalogue())}
        self.sleeves = len(self.sleeve_slot)
        seats = self.SEATS
        self._blocks = _Blocks(
            [
                ("phase (vote, tiebreak, leader, over)", 4),
                ("competitive", 1),
                ("players / 8", 1),
                ("turn / 9", 1),
                (
                    "sleeve on each Record card (one-hot over the catalogue, 4 cards)",
                    4 * self.sleeves,
                ),
                ("tied candidates (cards 1-4)", 4),
                ("votes of the last counted round, share per card", 4),
                ("tiebreak round / 3", 1),
                ("my pending vote (cards 1-4)", 4),
                ("has voted, by relative seat", seats),
                ("is leader, by relative seat", seats),
                ("points / 9, by relative seat (competitive)", seats),
                ("team score / (9 x players) (cooperative)", 1),
                ("mosaic size / 9", 1),
                ("last turn: my vote matched the chosen card", 1),
            ]
        )
        self.size = self._blocks.size

    def layout(self) -> list[tuple[str, int]]:
        """The named blocks."""
        return list(self._blocks.blocks)

    def encode(self, view: JSONDict) -> FloatArray:
        """The observation vector."""
        out = np.zeros(self.size, dtype=np.float32)
        start = list(self._blocks.start.values())
        players = int(view["players"])
        seat = int(view["seat"])
        phase = ("vote", "tiebreak", "leader", "over").index(view["phase"])
        out[start[0] + phase] = 1.0
        out[start[1]] = 1.0 if view["variant"] == "competitive" else 0.0
        out[start[2]] = players / 8
        out[start[3]] = view["turn"] / 9
        for record in view["records"]:
            slot = self.sleeve_slot.get(record["sleeve"]["id"])
            if slot is not None:
                out[start[4] + (record["card"] - 1) * self.sleeves + slot] = 1.0
        for card in view["candidates"]:
            out[start[5] + card - 1] = 1.0
        rounds = view["tiebreak_votes"]
        counted = rounds[-1] if rounds else view["votes"]
        if counted:
            for card in counted:
                if 1 <= card <= 4:
                    out[start[6] + card - 1] += 1.0 / players
        out[start[7]] = view["tiebreak_round"] / 3
        if view.get("my_vote"):
            out[start[8] + view["my_vote"] - 1] = 1.0
        for other in range(players):
            rel = (other - seat) % players
            out[start[9] + rel] = 1.0 if view["voted"][other] else 0.0
        if view["leader"] is not None:
            out[start[10] + (view["leader"] - seat) % players] = 1.0
        if "points" in view:
            for other, points in enumerate(view["points"]):
                out[start[11] + (other - seat) % players] = points / 9
        else:
            out[start[12]] = view["score"] / (9 * players)
        out[start[13]] = len(view["mosaic"]) / 9
        last = view.get("last_turn")
        if last and last["votes"] and seat < len(last["votes"]):
            out[start[14]] = 1.0 if last["votes"][seat] == last["card"] else 0.0
        return out


RECORDS_PHASES = (
    "lead_singer",
    "keep",
    "pick",
    "mark",
    "claim",
    "private",
    "turn",
    "third",
    "goal",
    "over",
)


class RecordsEncoder(Encoder):
    """Records: the public table, the seat's own hand, goals and queue, every board.

    Seats are relative (block entry 0: the observing seat). Cards, goals and colours are one-hot
    over the edition's lists, in the edition's order.
    """

    SEATS = 6

    def __init__(self, players: int, edition: str) -> None:
        from recordroom.games.records.edition import BONUSES, EditionError, load_edition

        try:
            ed = load_edition(edition)
        except EditionError as error:
            raise BadOptions(f"records: {error}") from None
        self.players = players
        self.edition = ed
        self.card = {c.id: i for i, c in enumerate(ed.cards)}
        self.goal = {g.id: i for i, g in enumerate(ed.goals)}
        self.colour = {c: i for i, c in enumerate(ed.colours)}
        self.bonus = {name: i for i, name in enumerate(BONUSES)}
        for i, colour in enumerate(ed.colours):
            self.bonus[f"harmony:{colour}"] = len(BONUSES) + i
        self.restriction = {r: i for i, r in enumerate(ed.restrictions)}
        cards, goals, colours = len(ed.cards), len(ed.goals), len(ed.colours)
        slots = len(ed.crew_slots)
        self.board_blocks = _Blocks(
            [
                ("lead singer colour", colours),
                ("fails / 6", 1),
                ("goals claimed", goals),
                ("agenda boxes", ed.agenda_boxes),
                ("albums, singles / 10", 2),
                ("crew slot filled", slots),
                ("crew multiplier value / 4", slots),
                ("tour / 10", 1),
                ("multipliers earned, spent / 4", 2),
                ("asset boxes", ed.asset_boxes),
                ("harmony boxes (colour x column)", colours * ed.harmony_columns),
                ("cash restrictions lifted", len(ed.restrictions)),
                ("score breakdown / 50 (goals, release, crew, tour, harmonies, fail)", 6),
                ("score / 100", 1),
            ]
        )
        self.seat_blocks = _Blocks(
            [
                ("hand size / 10", 1),
                ("discards / 30", 1),
                ("revealed pick (one-hot card)", cards),
                ("goal claim this step (-1 none, 0 pass, 1 claim)", 3),
                ("board", self.board_blocks.size),
            ]
        )
        self._blocks = _Blocks(
            [
                ("phase", len(RECORDS_PHASES)),
                ("week / 10, round / 10, turn / 30, deck / 100, goal deck / 30", 5),
                ("direction clockwise, ending", 2),
                ("public goals", goals),
                ("goal being claimed", goals),
                ("my hand (cards)", cards),
                ("my played card", cards),
                ("my bonus queue (count per bonus) / 3", len(self.bonus)),
                ("my private goal", goals),
                ("my dealt goals", goals),
                ("I must act", 1),
                ("my pending choice: colour, goal, card, claim, pass", colours + goals + cards + 2),
                ("seats, relative to me (6 x seat block)", self.SEATS * self.seat_blocks.size),
            ]
        )
        self.size = self._blocks.size
        self._board_cache: dict[int, tuple[Any, FloatArray]] = {}

    def layout(self) -> list[tuple[str, int]]:
        """The named blocks, then those of the seat block (``seat:``) and board (``board:``)."""
        return [
            *self._blocks.blocks,
            *((f"seat: {n}", k) for n, k in self.seat_blocks.blocks),
            *((f"board: {n}", k) for n, k in self.board_blocks.blocks),
        ]

    def _board(self, board: JSONDict) -> FloatArray:
        """A board's block; boards views are shared between views, so this is cached by object."""
        cached = self._board_cache.get(id(board))
        if cached is not None and cached[0] is board:
            return cached[1]
        ed = self.edition
        out = np.zeros(self.board_blocks.size, dtype=np.float32)
        s = list(self.board_blocks.start.values())
        if board["lead_singer"] is not None:
            out[s[0] + self.colour[board["lead_singer"]]] = 1.0
        out[s[1]] = board["fails"] / 6
        for g in board["goals"]:
            out[s[2] + self.goal[g]] = 1.0
        for b in board["agenda"]:
            out[s[3] + b] = 1.0
        out[s[4]] = board["albums"] / 10
        out[s[4] + 1] = board["singles"] / 10
        for slot, crew in enumerate(board["crew"]):
            if crew is not None:
                out[s[5] + slot] = 1.0
                m = crew["multiplier"]
                if m is not None and m >= 0:
                    out[s[6] + slot] = ed.multipliers[m] / 4
        out[s[7]] = board["tour"] / 10
        out[s[8]] = board["multipliers"]["earned"] / 4
        out[s[8] + 1] = len(board["multipliers"]["spent"]) / 4
        for b in board["assets"]:
            out[s[9] + b] = 1.0
        columns = ed.harmony_columns
        for colour, boxes in board["harmonies"].items():
            base = s[10] + self.colour[colour] * columns
            for j in boxes:
                out[base + j] = 1.0
        for r in board["cash_lifted"]:
            out[s[11] + self.restriction[r]] = 1.0
        for i, points in enumerate(board["breakdown"].values()):
            if i < 6:
                out[s[12] + i] = points / 50
        out[s[13]] = board["score"] / 100
        if len(self._board_cache) > 20000:
            self._board_cache.clear()
        self._board_cache[id(board)] = (board, out)
        return out

    def encode(self, view: JSONDict) -> FloatArray:
        """The observation vector."""
        out = np.zeros(self.size, dtype=np.float32)
        s = list(self._blocks.start.values())
        players = int(view["players"])
        seat = int(view["seat"])
        out[s[0] + RECORDS_PHASES.index(view["phase"])] = 1.0
        out[s[1] : s[1] + 5] = (
            view["week"] / 10,
            view["round"] / 10,
            view["turn"] / 30,
            view["deck"] / 100,
            view["goal_deck"] / 30,
        )
        out[s[2]] = 1.0 if view["direction"] == "clockwise" else 0.0
        out[s[2] + 1] = 1.0 if view["ending"] else 0.0
        goal, card = self.goal, self.card
        for g in view["public_goals"]:
            if g is not None:
                out[s[3] + goal[g]] = 1.0
        if view["current_goal"] is not None:
            out[s[4] + goal[view["current_goal"]]] = 1.0
        you = view["you"]
        for c in you["hand"]:
            out[s[5] + card[c]] = 1.0
        if you["played"] is not None:
            out[s[6] + card[you["played"]]] = 1.0
        for b in you["queue"]:
            out[s[7] + self.bonus[b]] += 1.0 / 3
        if you["private_goal"] is not None:
            out[s[8] + goal[you["private_goal"]]] = 1.0
        for g in you["dealt"]:
            if g is not None:
                out[s[9] + goal[g]] = 1.0
        out[s[10]] = 1.0 if you["to_act"] else 0.0
        pending = you["pending"]
        if pending is not None:
            colours, goals = len(self.colour), len(goal)
            base = s[11]
            if pending in self.colour:
                out[base + self.colour[pending]] = 1.0
            elif pending in goal and view["phase"] == "keep":
                out[base + colours + goal[pending]] = 1.0
            elif pending in card:
                out[base + colours + goals + card[pending]] = 1.0
            else:
                out[base + colours + goals + len(card) + (0 if pending == "claim" else 1)] = 1.0
        seat_size = self.seat_blocks.size
        ss = list(self.seat_blocks.start.values())
        for other in range(players):
            base = s[12] + ((other - seat) % players) * seat_size
            out[base + ss[0]] = view["hand_sizes"][other] / 10
            out[base + ss[1]] = view["discards"][other] / 30
            revealed = view["revealed"][other]
            if revealed is not None:
                out[base + ss[2] + card[revealed]] = 1.0
            out[base + ss[3] + int(view["claims"][other]) + 1] = 1.0
            board = self._board(view["boards"][other])
            out[base + ss[4] : base + ss[4] + board.size] = board
        return out
