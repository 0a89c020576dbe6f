"""The room socket: ``/ws/{code}``, one client of a room, state messages out and actions in.

Each client is a :class:`Connection` whose messages go out through a bounded queue, in order, by
one task (:meth:`Connection.pump`); :func:`handle` checks and applies one client message. The
messages themselves are described in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from contextlib import suppress
from typing import Any

from fastapi import WebSocket
from pydantic import TypeAdapter, ValidationError
from starlette.types import Receive, Send
from starlette.websockets import WebSocketDisconnect

from recordroom import i18n
from recordroom.engine.game import JSONDict, Seat
from recordroom.server.deps import Services, client_id, lang_of
from recordroom.server.errors import CloseCode, ServerError
from recordroom.server.frames import DirectTextFrames
from recordroom.server.hub import Hub
from recordroom.server.protocol import (
    CLIENT_TYPES,
    ActMessage,
    AgainMessage,
    ClientMessage,
    ErrorCode,
    ErrorMessage,
    HoldMessage,
    PingMessage,
    PlayingMessage,
    PongMessage,
    TakeBackMessage,
    field_path,
)
from recordroom.server.room import Role, Room

_client_message: TypeAdapter[ActMessage | Any] = TypeAdapter(ClientMessage)

MAX_QUEUED_BYTES = 2 * 1024 * 1024
"""Unsent bytes a client may have waiting before it is dropped."""
MAX_QUEUED_MESSAGES = 500
"""Unsent messages a client may have waiting before it is dropped."""
MAX_JSON_DEPTH = 16
"""Client messages nested deeper than this are ``message/malformed``."""


class Connection:
    """One WebSocket client of a room; messages go out through a bounded queue, in order.

    A message is serialised once, when it is queued. A client that lets more than
    ``MAX_QUEUED_BYTES`` (or ``MAX_QUEUED_MESSAGES``) pile up unread is dropped with close code
    1008 (``CloseCode.SLOW_READER``): what is queued is thrown away, so it costs the server no more.

    With the server's own ``send`` (see :data:`RAW_SEND`), a message with nothing queued before
    it is sent at once, on the caller's turn of the loop: the server's send only waits when the
    socket's buffer is full, so most messages never cost a queue and a wake-up of the pump. One
    that does wait is finished by a task of its own (:func:`_finish`), and whatever comes after
    it is queued behind it, so the order holds. Under ``recordroom serve`` (whose protocol is
    :class:`~recordroom.server.frames.DirectTextFrames`), a message sent at once is written as a
    frame by a plain call, without an ASGI message or a coroutine, whenever the socket is open
    and writable.
    """

    def __init__(self, websocket: WebSocket, role: Role, seat: Seat | None) -> None:
        self.websocket = websocket
        self.role = role
        self.seat = seat
        self.queue: asyncio.Queue[tuple[str | None, int | None]] = asyncio.Queue()
        self.queued_bytes = 0
        self.dropped = False
        self.raw: Send | None = getattr(websocket, "scope", {}).get(RAW_SEND)
        """The server's own send, when the application kept it (:data:`RAW_SEND`)."""
        protocol = getattr(self.raw, "__self__", None)
        self.write_text = protocol.write_text if isinstance(protocol, DirectTextFrames) else None
        """The server protocol's plain write of a text frame, when it has one."""
        self._sending = False
        """The pump holds a message it has not finished sending."""
        self._finishing: asyncio.Task[None] | None = None
        """A message sent at once that had to wait, still being finished."""
        self.lang = i18n.DEFAULT
        """The language this client reads its error messages in (``?lang=`` of the socket)."""

    def send(self, message: JSONDict) -> None:
        """Queues a message (dropped clients get nothing more)."""
        self.send_text(json.dumps(message, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        """Queues an already serialised message; drops the client when it is too far behind."""
        if self.dropped:
            return
        if (
            self.raw is not None
            and not self._sending
            and self.queue.empty()  # so nothing is waiting: only this message counts
            and (self._finishing is None or self._finishing.done())
            and len(text) <= MAX_QUEUED_BYTES
        ):
            if self.write_text is None or not self.write_text(text):
                self._send_now(self.raw, text)
            return
        if (
            self.queued_bytes + len(text) > MAX_QUEUED_BYTES
            or self.queue.qsize() >= MAX_QUEUED_MESSAGES
        ):
            self.drop()
            return
        self.queued_bytes += len(text)
        self.queue.put_nowait((text, None))

    def _send_now(self, raw: Send, text: str) -> None:
        """Runs the server's send of one message as far as it goes without waiting."""
        sending = raw({"type": "websocket.send", "text": text})
        if not isinstance(sending, Coroutine):  # some other awaitable: a task of its own
            self._finishing = asyncio.ensure_future(sending)
        else:
            try:
                waiting_on = sending.send(None)
            except StopIteration:
                return  # sent
            except Exception:  # the client is gone: the pump ends, the socket's loop notices
                self.dropped = True
                self.queue.put_nowait((None, None))
                return
            self._finishing = asyncio.ensure_future(_finish(sending, waiting_on))
        # Its failure (the client gone meanwhile) is the socket loop's to notice, not the log's.
        self._finishing.add_done_callback(_seen)

    def drop(self) -> None:
        """Forgets what is queued and ends the connection with 1008: it did not read."""
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued_bytes = 0
        self.queue.put_nowait((None, CloseCode.SLOW_READER))

    def close(self, code: str, message: str) -> None:
        """Queues an error, then the end of the connection."""
        text = i18n.error_message(self.lang, code, message)
        self.send(ErrorMessage(code=code, message=text).model_dump())
        if not self.dropped:
            self.dropped = True
            self.queue.put_nowait((None, CloseCode.KICKED))

    async def pump(self) -> None:
        """Sends queued messages until the connection ends.

        Through the server's own ``send`` when the application kept it (one call a message, not
        Starlette's layers of checks and wrappers), else through the WebSocket object.
        """
        raw = self.raw
        while True:
            text, close_code = await self.queue.get()
            self._sending = True
            try:
                if self._finishing is not None:
                    with suppress(Exception):  # a failed send: what follows tells the rest
                        await self._finishing
                    self._finishing = None
                if text is None:
                    if close_code is not None:
                        await self.websocket.close(code=close_code)
                    return
                self.queued_bytes -= len(text)
                if raw is not None:
                    await raw({"type": "websocket.send", "text": text})
                else:
                    await self.websocket.send_text(text)
            finally:
                self._sending = False


RAW_SEND = "recordroom.send"
"""Where the application (``app.RecordRoom``) keeps a room socket's ``send`` in its scope, so
that state messages (already serialised, sent in order by :meth:`Connection.send_text` and
:meth:`Connection.pump`) go straight to it, past Starlette's checks and wrappers."""


def _seen(task: asyncio.Future[Any]) -> None:
    """Marks a finished send's outcome as seen (a send that failed has nobody left to tell)."""
    if not task.cancelled():
        task.exception()


async def _finish(sending: Coroutine[Any, Any, None], waiting_on: Any) -> None:
    """Finishes a send that had to wait (on ``waiting_on``, what it last awaited).

    Whatever ``waiting_on`` ends with (a result, an error, a cancellation) is what the send
    sees when it is resumed, as it would under a task of its own.
    """
    while True:
        if isinstance(waiting_on, asyncio.Future):
            # It was handed out by a bare yield, not yet to a task: a task clears this first.
            waiting_on._asyncio_future_blocking = False
        with suppress(BaseException):
            await waiting_on
        try:
            waiting_on = sending.send(None)
        except StopIteration:
            return


async def room_socket(websocket: WebSocket, raw_receive: Receive | None = None) -> None:
    """One client of a room: state messages out, actions in (see docs/protocol.md).

    Called by the application ahead of its HTTP layers (``app.RecordRoom``): its two
    parameters (the code in the path, ``?token=``) are read here. Once the socket is accepted,
    the client's messages are read with ``raw_receive`` (the server's own receive, which the
    application passes) when given, past Starlette's checks of each message.
    """
    code: str = websocket.path_params["code"]
    token = websocket.query_params.get("token")
    await websocket.accept()
    hub: Hub = websocket.app.state.hub
    services: Services = websocket.app.state.services
    lang = lang_of(websocket)

    async def refuse(code: str, message: str, close_code: int) -> None:
        text = i18n.error_message(lang, code, message)
        await websocket.send_text(ErrorMessage(code=code, message=text).model_dump_json())
        await websocket.close(code=close_code)

    if not services.lookups.allow(client_id(websocket.client)):
        await refuse(
            ErrorCode.RATE_LIMITED, "too many requests; wait a minute", CloseCode.RATE_LIMITED
        )
        return
    try:
        room = await hub.room(code)
        role, seat = await _role_in(room, token)
    except ServerError as error:
        close = CloseCode.NOT_FOUND if error.status == 404 else CloseCode.BAD_TOKEN
        await refuse(error.code, error.message, close)
        return
    connection = Connection(websocket, role, seat)
    connection.lang = lang
    pump = asyncio.create_task(connection.pump())
    room.connect(connection)
    if room.next_game is not None:
        # A phone back after "play again" (asleep when it was pressed) follows the table.
        connection.send(AgainMessage(code=room.next_game).model_dump())
    receive = raw_receive or websocket.receive
    try:
        while not pump.done():
            try:
                received = await receive()
            except (WebSocketDisconnect, RuntimeError):
                break
            if received["type"] == "websocket.disconnect":
                break
            text = received.get("text")
            if text is None:
                # A binary frame: not a message of this protocol, but no reason to hang up.
                text = i18n.error_message(
                    lang,
                    ErrorCode.MESSAGE_MALFORMED,
                    "messages are JSON in text frames, not binary",
                )
                binary = ErrorMessage(code=ErrorCode.MESSAGE_MALFORMED, message=text)
                connection.send(binary.model_dump())
                continue
            await handle(room, connection, text, services.settings.max_message_bytes)
    finally:
        room.disconnect(connection)
        connection.queue.put_nowait((None, None))
        with suppress(Exception):
            await pump


async def _role_in(room: Room, token: str | None) -> tuple[Role, Seat | None]:
    """Who the token makes its bearer in the room, looked at again before a token is refused: the
    seat may have been taken on another process a moment ago (a phone that joined there and
    connects here), and a refused phone forgets its token."""
    with suppress(ServerError):
        return room.role_of(token)
    await room.look_again()
    return room.role_of(token)


_TOO_DEEP = object()


def _too_deep(value: Any, limit: int) -> bool:
    """Whether a decoded JSON value nests lists and objects more than ``limit`` levels deep."""
    level: list[tuple[Any, int]] = [(value, 1)]
    while level:
        item, depth = level.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            level.extend((child, depth + 1) for child in children)
    return False


async def handle(room: Room, connection: Connection, text: str, max_bytes: int) -> None:
    """Handles one client message; every refusal is an error message and changes nothing."""

    def refuse(code: str, message: str) -> None:
        # Never more than a short sentence back, whatever was sent (a reader that does not read
        # must not be able to make its own error replies pile up).
        # (ErrorMessage leaves out what was sent and cuts the text to 200 characters.)
        message = i18n.error_message(connection.lang, code, message)
        connection.send(ErrorMessage(code=code, message=message).model_dump())

    if len(text) > max_bytes or len(text.encode()) > max_bytes:
        refuse(ErrorCode.MESSAGE_TOO_LARGE, f"messages are limited to {max_bytes} bytes")
        return
    try:
        raw = json.loads(text)
    except ValueError as error:
        refuse(ErrorCode.MESSAGE_MALFORMED, f"not JSON: {error}")
        return
    except RecursionError:
        raw = _TOO_DEEP  # nested beyond what the decoder can follow
    # A text with no more opening brackets than the limit cannot nest deeper: most messages
    # are not walked at all.
    brackets = text.count("{") + text.count("[")
    if raw is _TOO_DEEP or (brackets > MAX_JSON_DEPTH and _too_deep(raw, MAX_JSON_DEPTH)):
        refuse(ErrorCode.MESSAGE_MALFORMED, f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
        return
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        refuse(ErrorCode.MESSAGE_MALFORMED, 'a message is a JSON object with a "type"')
        return
    if raw["type"] not in CLIENT_TYPES:
        known = ", ".join(sorted(CLIENT_TYPES))
        refuse(ErrorCode.MESSAGE_UNKNOWN_TYPE, f"unknown message type; known: {known}")
        return
    try:
        message = _client_message.validate_python(raw)
    except ValidationError as error:
        problems = "; ".join(
            f"{field_path(e['loc'][1:]) or 'message'}: {e['msg']}" for e in error.errors()
        )
        refuse(ErrorCode.MESSAGE_MALFORMED, problems)
        return
    if isinstance(message, PingMessage):
        connection.send(PongMessage().model_dump())
        return
    try:
        if isinstance(message, PlayingMessage | HoldMessage):
            if connection.role != "host":
                raise ServerError(
                    ErrorCode.MESSAGE_INVALID, f"only the table sends {message.type!r}", 403
                )
            if isinstance(message, PlayingMessage):
                room.open_turn(message.turn)
            else:
                room.hold_turn(message.turn)
            return
    except ServerError as error:
        refuse(error.code, error.message)
        return
    if connection.role != "seat" or connection.seat is None:
        refuse(ErrorCode.SEAT_NOT_HELD, "this connection holds no seat; join with a seat token")
        return
    try:
        if isinstance(message, TakeBackMessage):
            await room.reclaim(connection.seat)
        else:
            await room.act(connection.seat, message.action, message.version)
    except ServerError as error:
        refuse(error.code, error.message)
