"""The contract every game of Record Room keeps.

A game is an object (each game module exposes it as ``GAME``) of pure functions over immutable
states::

    state = game.new_state(players=4, seed=7, options={"variant": "cooperative"})
    state.active                        # frozenset of seats that must act now (empty when over)
    game.legal_actions(state, seat)     # tuple of JSON-safe action dicts, deterministic order
    state = game.apply(state, seat, action)   # a new state; raises IllegalAction & co.
    game.view(state, seat)              # what that seat may know; seat=None: the public table
    game.is_over(state); game.result(state)
    game.returns(state)                 # one float per seat: zeros until over (see below)
    game.dumps(state); game.loads(text)

Simultaneous choices (votes, draft picks) are a set of active seats. A seat that has chosen leaves
``active``; its choice stays hidden from every other view until the last active seat has chosen,
and may be replaced by another choice of the same round until then (the one case where a seat
outside ``active`` may act). Every draw of chance comes from the seeded RNG kept in the state, so
``(options, seed, action log)`` replays exactly (see :mod:`recordroom.engine.playout`).

Actions returned by ``legal_actions`` may be shared between calls: treat them as read-only.

``returns`` is the outcome as numbers, the one thing search bots, learning environments and
reports read (OpenSpiel's ``returns``): a tuple with one float per seat, all zeros while the game
goes on, every value in [0, 1] once it is over. Each game documents its definition; the
competitive ones use :func:`win_share_returns`.

Optional methods serve those who need more than the contract; each has a protocol below that a
game matches by offering the method (``isinstance(game, Determinizing)``). One serves search bots
(:mod:`recordroom.bots`)::

    game.determinize(view, seat, seed)  # a full state consistent with everything ``seat`` knows

It takes that seat's ``view`` and returns a state ``s`` with ``view(s, seat) == view``: what the
seat cannot see (other hands, other seats' pending choices, private goals, deck order, the RNG) is
drawn afresh from what is still unseen, with ``seed`` making the draw repeatable. A game that
offers it matches :class:`Determinizing`. Three more serve the server, which knows no game by
name (docs/adding-a-game.md)::

    game.edition(name)                  # a named edition of the game as a JSON document
    game.senses(view, hear, look)       # what a bot at the table hears and sees (games with music)
    game.refresh_agent_kinds()          # offers agent kinds read from the environment again

matching :class:`Editions`, :class:`Listening` and :class:`RefreshingAgents`. The server also
tells every change to every seat, and a game whose seats see the table plus a few things of their
own may say what those are::

    game.own_view(state, seat)          # the keys view(state, seat) adds to view(state, None)

so that ``view(state, seat) == {**view(state, None), **own_view(state, seat)}``, in that order of
keys, and every other key's value is the public view's. A game that offers it matches
:class:`OwnViews`; the server then writes the public part of a change once for all its seats.
One more serves whoever steps many games and already knows each action is legal
(:mod:`recordroom.rl.vector`)::

    game.apply_handed(state, seat, action, legal)   # apply, without checking the action again
    game.legal_handed(state, seat)                  # legal_actions, not remembered for apply

where ``legal`` is what ``legal_actions(state, seat)`` (or ``legal_handed``) returned and
``action`` one of its very objects, for a seat in ``state.active``; it returns what ``apply``
would, and anything else is the caller's error, not checked. ``legal_handed`` returns what
``legal_actions`` would, without keeping it for a later ``apply`` (which a caller that applies
through ``apply_handed``, and asks once per state, never needs). A game that offers both matches
:class:`AppliesHanded`. What the server needs as plain facts (the pages, the songs of a game,
the option naming its sleeves) lives in :class:`GameInfo`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias, runtime_checkable

Seat: TypeAlias = int
Action: TypeAlias = dict[str, Any]
JSONDict: TypeAlias = dict[str, Any]


class Agent(Protocol):
    """Chooses one of the legal actions from a seat's view (see :mod:`.agents`)."""

    def choose(self, view: JSONDict, legal_actions: tuple[Action, ...]) -> Action: ...


@runtime_checkable
class GameState(Protocol):
    """What every game state offers to code that does not know the game."""

    @property
    def active(self) -> frozenset[int]:
        """Seats that must act now; empty once the game is over."""
        ...


@dataclass(frozen=True)
class GameInfo:
    """Declarative facts about a game, read by the server, the simulator and the test suites."""

    name: str
    title: str
    min_players: int
    max_players: int
    option_sets: tuple[Mapping[str, Any], ...] = field(default_factory=lambda: ({},))
    """The distinct option sets worth testing (the conformance suite runs every one)."""
    agent_kinds: tuple[str, ...] = ("random",)
    """The kinds ``Game.agent`` accepts, the strongest last; the first is always "random"."""
    music: bool = False
    """Whether the table plays a song every turn (the server gives such rooms a music queue)."""
    songs: int = 0
    """With ``music``: how many songs one game plays, one a turn (the table warns when a music
    source has fewer tracks). A music game's views say which turn is playing as ``"turn"`` (from
    1) and show ``"phase": "over"`` once the game is over: the room's music and its listening
    gate read those two keys."""
    deck_option: str | None = None
    """The option that lists the sleeves a game deals from, if it has one: a server with a sleeve
    set of its own (``recordroom serve --sleeves DIR``) fills it with that set's ids."""
    pages: str | None = None
    """The folder of the game's browser pages (``table.html``, ``phone.html``) in the server's
    web folder; None: the game has no pages of its own and uses the first served game's."""
    extra_pages: tuple[tuple[str, str], ...] = ()
    """Further addresses of the game's pages, each ``(path, file)`` (a file of ``pages``)."""
    timed_phases: frozenset[str] | None = None
    """The phases (a view's ``"phase"``) in which a room's decision timer runs and lets the bot
    of a seat that has not decided decide for it; None: every decision round. A game whose
    players decide some things quickly (a pick) and others with thought (marking a sheet) names
    the quick ones."""


class Game(Protocol):
    """The engine contract (see the module docstring)."""

    info: GameInfo

    def new_state(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> Any: ...

    def legal_actions(self, state: Any, seat: Seat) -> tuple[Action, ...]: ...

    def apply(self, state: Any, seat: Seat, action: Action) -> Any: ...

    def view(self, state: Any, seat: Seat | None) -> JSONDict: ...

    def is_over(self, state: Any) -> bool: ...

    def result(self, state: Any) -> JSONDict: ...

    def returns(self, state: Any) -> tuple[float, ...]:
        """One float per seat in [0, 1]: zeros until the game is over (module docstring)."""
        ...

    def dumps(self, state: Any) -> str: ...

    def loads(self, text: str) -> Any: ...

    def max_decisions(self, players: int, options: Mapping[str, Any] | None = None) -> int:
        """An upper bound on the number of accepted actions in one game (changes excluded)."""
        ...

    def options_of(self, state: Any) -> JSONDict:
        """The full, normalised options the state was created with (defaults filled in)."""
        ...

    def players_of(self, state: Any) -> int:
        """How many seats the game has."""
        ...

    def agent(self, kind: str, seed: int = 0) -> Agent:
        """A new agent of that kind (one of ``info.agent_kinds``); ``KeyError`` otherwise."""
        ...


WIN_WEIGHT = 0.8
"""In :func:`win_share_returns`, the part of a return that the win gives (the rest: the margin)."""


def win_share_returns(scores: Sequence[float], winners: Sequence[int]) -> tuple[float, ...]:
    """Returns of a competitive game: a win and where the seat's score lies.

    Seat ``i`` gets ``0.8 / len(winners)`` if it is one of the winners (a shared first place
    splits the win) plus ``0.2 * (scores[i] - low) / (high - low)``, ``low`` and ``high`` the lowest
    and highest scores (nothing when all scores are equal). Every value is in [0, 1]; a sole winner
    with the highest score gets 1, the lowest scorer who did not win gets 0.
    """
    players = len(scores)
    out = [0.0] * players
    for seat in winners:
        out[seat] = WIN_WEIGHT / len(winners)
    low, high = min(scores), max(scores)
    if high > low:
        for seat, value in enumerate(scores):
            out[seat] += (1.0 - WIN_WEIGHT) * (value - low) / (high - low)
    return tuple(out)


@runtime_checkable
class Determinizing(Protocol):
    """A game that can sample full states consistent with one seat's view (optional)."""

    def determinize(self, view: JSONDict, seat: Seat, seed: int) -> Any:
        """A full state whose ``view(state, seat)`` equals ``view``; the unseen drawn by seed."""
        ...


@runtime_checkable
class Editions(Protocol):
    """A game whose content comes in named editions that its pages draw from (optional)."""

    def edition(self, name: str) -> JSONDict:
        """The JSON document of the named edition, the same for everyone (the board layout, cards
        and goals for Records); ``ValueError`` saying why for a name the game does not have.
        Every game with editions has one named ``standard``, the one asked for by default."""
        ...


@runtime_checkable
class Listening(Protocol):
    """A game whose bots sense the table: the song of the turn and the pictures shown (optional).

    Whoever runs the bots (the server) adds the answer to a bot's view under ``"senses"``.
    """

    def senses(
        self,
        view: JSONDict,
        hear: Callable[[int], JSONDict | None],
        look: Callable[[int], JSONDict | None],
    ) -> JSONDict:
        """What a bot with this view senses: ``hear(turn)`` gives the audio features of that
        turn's song (None without audio), ``look(sleeve_id)`` a sleeve's visual features (None
        for a sleeve the runner does not have)."""
        ...


@runtime_checkable
class OwnViews(Protocol):
    """A game whose seat views are the public view with a few keys of the seat's own added at its
    end (optional; see the module docstring)."""

    def own_view(self, state: Any, seat: Seat) -> JSONDict:
        """The keys (and their values) that ``view(state, seat)`` adds after those of
        ``view(state, None)``; every key of the public view keeps its public value."""
        ...


@runtime_checkable
class AppliesHanded(Protocol):
    """A game whose ``apply`` can skip checking an action it handed out itself, and whose legal
    actions can be asked without being kept for such a check (optional)."""

    def apply_handed(
        self, state: Any, seat: Seat, action: Action, legal: tuple[Action, ...]
    ) -> Any:
        """``apply(state, seat, action)`` for ``action``, one of the objects of ``legal``, what
        ``legal_actions(state, seat)`` returned for an active ``seat``; nothing is checked."""
        ...

    def legal_handed(self, state: Any, seat: Seat) -> tuple[Action, ...]:
        """``legal_actions(state, seat)``, without remembering them for a later ``apply``."""
        ...


@runtime_checkable
class RefreshingAgents(Protocol):
    """A game whose agent kinds depend on the environment (a learned policy's file; optional)."""

    def refresh_agent_kinds(self) -> None:
        """Reads the environment again and sets ``info.agent_kinds`` accordingly."""
        ...
