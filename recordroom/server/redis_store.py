"""Rooms kept in Redis: the :class:`~recordroom.server.store.Store` of several server processes.

Every room is four things in Redis, under a key prefix (``rr:`` by default):

* ``{prefix}rooms``: a sorted set of every room's code, scored by when it was created (the order
  :meth:`RedisStore.load_rooms` gives them back in);
* ``{prefix}room:{code}``: a hash with the room's record: ``game``, ``options``, ``seed``,
  ``host_token``, ``status``, ``result``, ``music``, ``settings`` (JSON where the value is not a
  plain string), ``created`` and ``touched`` (Unix times: every write to the room moves
  ``touched``, which expiry counts from), and ``job`` (which job created it);
* ``{prefix}seats:{code}``: a hash of the seats, field ``0``, ``1``, ... -> the seat as JSON
  (name, token, bot, level): a seat's token lives here, so any process can give a seat back;
* ``{prefix}log:{code}``: a list, the room's accepted actions in order, each
  ``{"seat", "action", "at", "job"}`` as JSON; the n-th element is action n.

**A group, one script.** A group of jobs is sent as one call of a Lua script, which Redis runs
without interleaving anything else. For each job in turn, the script first checks every write of
the job (the room exists, or does not for a new one; an appended action's index is exactly the
log's length, counting the job's own earlier appends), and writes only once every check passed,
so a refused job leaves nothing and the next job of the group sees what the previous one wrote.
Two processes offered action *n* of one room both ask for index *n*: the first script appends
it, the second finds the log already *n* + 1 long and refuses that job.

**Resending is harmless.** Each job carries a random id stored with what it creates (the room's
``job`` field, each log entry's ``job``): a script that finds its own room or its own action at
the index it asks for reports success and writes nothing. That is what makes the
client's retries safe when the connection drops after Redis ran a script but before its answer
came back.

**Durability.** A job is reported done when Redis answered the script. Whether that answer means
"on disk" is Redis's ``appendonly`` / ``appendfsync`` setting (docs/deploy.md): with
``appendfsync always`` it does; with ``everysec`` up to about a second of acknowledged actions
can be lost if the Redis machine loses power. The store logs a warning at start when Redis keeps
no append-only file at all.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import redis
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

from recordroom.server.cluster import ROOM_LEASE_TTL, SERVER_LEASE_TTL, Lease, LeaseKeeper
from recordroom.server.store import (
    AppendAction,
    CheckRevision,
    Conflict,
    DamagedRoom,
    DeleteRoom,
    NewRoom,
    OneWriteShorthands,
    RoomLimit,
    RoomRecord,
    SaveSeats,
    SeatRecord,
    SetMusic,
    SetSettings,
    SetStatus,
    StoreRefused,
    Write,
)

log = logging.getLogger("recordroom.server")

DEFAULT_PREFIX = "rr:"
LOAD_BATCH = 200
"""Rooms read per round trip by :meth:`RedisStore.load_rooms`."""


class StoreUnavailable(Exception):
    """The store cannot be reached (Redis down, wrong address, refused password)."""


# One call commits a group. ARGV: prefix, the fence's key and holder (empty: no fence), then
# each job as: its id, its number of writes, and each write as: op, code, count, count arguments.
# Ops: new (created, the room limit or 0, nfields, field/value pairs, seat JSON...; refused when
# the store already holds the limit of rooms), seats (seat JSON...), set (field/value pairs; an
# empty value deletes the field), append (index, entry JSON, time), del (nothing), rev (the
# revision the room must be at; it then counts one more). Returns one answer a job: 'OK' or
# 'REFUSED why'. A job's checks all run before its first write, so a refused job writes nothing;
# the next job sees what it wrote.
_GROUP_SCRIPT = """
local prefix = ARGV[1]
if ARGV[2] ~= '' and redis.call('GET', ARGV[2]) ~= ARGV[3] then
  return redis.error_reply('FENCED this process no longer holds ' .. ARGV[2])
end

local function check(job, writes)
  local exists = {}
  local length = {}
  local function room_exists(code)
    if exists[code] == nil then
      exists[code] = redis.call('EXISTS', prefix .. 'room:' .. code) == 1
    end
    return exists[code]
  end
  local function log_length(code)
    if length[code] == nil then
      length[code] = redis.call('LLEN', prefix .. 'log:' .. code)
    end
    return length[code]
  end
  for _, w in ipairs(writes) do
    w.skip = false
    if w.op == 'new' then
      if room_exists(w.code) then
        if redis.call('HGET', prefix .. 'room:' .. w.code, 'job') == job then
          w.skip = true  -- this very job made it: the rest of the job is checked as it stands
        else
          return 'REFUSED a room with code ' .. w.code .. ' is already stored'
        end
      else
        local limit = tonumber(w.args[2])
        if limit > 0 and redis.call('ZCARD', prefix .. 'rooms') >= limit then
          return 'REFUSED the store holds its limit of ' .. limit .. ' rooms'
        end
        exists[w.code] = true
        length[w.code] = 0
      end
    elseif w.op == 'del' then
      exists[w.code] = false
      length[w.code] = 0
    elseif not room_exists(w.code) then
      return 'REFUSED no room ' .. w.code .. ' is stored'
    elseif w.op == 'append' then
      local index = tonumber(w.args[1])
      local n = log_length(w.code)
      if index < n then
        local there = cjson.decode(redis.call('LINDEX', prefix .. 'log:' .. w.code, index))
        if there['job'] == job then
          w.skip = true
        else
          return 'REFUSED action ' .. index .. ' of room ' .. w.code ..
            ' is already stored (the log holds ' .. n .. ')'
        end
      elseif index > n then
        return 'REFUSED action ' .. index .. ' of room ' .. w.code ..
          ' would skip actions (the log holds ' .. n .. ')'
      else
        length[w.code] = n + 1
      end
    elseif w.op == 'rev' then
      local room = prefix .. 'room:' .. w.code
      local rev = redis.call('HGET', room, 'rev') or '0'
      if rev ~= w.args[1] then
        local again = redis.call('HGET', room, 'revjob') == job
        if again and tonumber(rev) == tonumber(w.args[1]) + 1 then
          w.skip = true  -- this very job moved it on (a resend): its writes are the same again
        else
          return 'REFUSED room ' .. w.code .. ' changed meanwhile (revision ' .. rev ..
            ', not ' .. w.args[1] .. ')'
        end
      end
    end
  end
  return 'OK'
end

local function write(job, writes)
  for _, w in ipairs(writes) do
    if not w.skip then
      local room = prefix .. 'room:' .. w.code
      local seats = prefix .. 'seats:' .. w.code
      local log = prefix .. 'log:' .. w.code
      if w.op == 'new' then
        redis.call('DEL', room, seats, log)
        local created = w.args[1]
        local nfields = tonumber(w.args[3])
        redis.call('HSET', room, 'created', created, 'touched', created, 'job', job)
        for j = 4, 3 + 2 * nfields, 2 do
          if w.args[j + 1] ~= '' then redis.call('HSET', room, w.args[j], w.args[j + 1]) end
        end
        for s = 4 + 2 * nfields, #w.args do
          redis.call('HSET', seats, tostring(s - 4 - 2 * nfields), w.args[s])
        end
        redis.call('ZADD', prefix .. 'rooms', created, w.code)
      elseif w.op == 'seats' then
        redis.call('DEL', seats)
        for s = 2, #w.args do redis.call('HSET', seats, tostring(s - 2), w.args[s]) end
        redis.call('HSET', room, 'touched', w.args[1])
      elseif w.op == 'set' then
        for j = 1, #w.args, 2 do
          if w.args[j + 1] == '' then
            redis.call('HDEL', room, w.args[j])
          else
            redis.call('HSET', room, w.args[j], w.args[j + 1])
          end
        end
      elseif w.op == 'append' then
        redis.call('RPUSH', log, w.args[2])
        redis.call('HSET', room, 'touched', w.args[3])
      elseif w.op == 'del' then
        redis.call('DEL', room, seats, log)
        redis.call('ZREM', prefix .. 'rooms', w.code)
      elseif w.op == 'rev' then
        redis.call('HSET', room, 'rev', tostring(tonumber(w.args[1]) + 1), 'revjob', job)
      end
    end
  end
end

local answers = {}
local i = 4
while i <= #ARGV do
  local job = ARGV[i]
  local nwrites = tonumber(ARGV[i + 1])
  i = i + 2
  local writes = {}
  for _ = 1, nwrites do
    local count = tonumber(ARGV[i + 2])
    local args = {}
    for j = 1, count do args[j] = ARGV[i + 2 + j] end
    writes[#writes + 1] = {op = ARGV[i], code = ARGV[i + 1], args = args}
    i = i + 3 + count
  end
  local answer = check(job, writes)
  if answer == 'OK' then write(job, writes) end
  answers[#answers + 1] = answer
end
return answers
"""


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _seat_json(seat: SeatRecord) -> str:
    return _json({"name": seat.name, "token": seat.token, "bot": seat.bot, "level": seat.level})


def _optional_json(value: Any) -> str:
    """JSON of a value, or the empty string (no field) for None."""
    return "" if value is None else _json(value)


class RedisStore(OneWriteShorthands):
    """A :class:`~recordroom.server.store.Store` in Redis (see the module docstring).

    Safe to share between threads (redis-py's connection pool); the server still writes from
    its one writer thread only.
    """

    def __init__(
        self,
        client: redis.Redis,
        prefix: str = DEFAULT_PREFIX,
        where: str = "redis",
    ) -> None:
        self.client = client
        self.prefix = prefix
        self.where = where
        """Where the rooms are, for messages (the URL without its password)."""
        try:
            client.ping()
        except RedisError as error:
            client.close()
            raise StoreUnavailable(f"cannot reach Redis at {where}: {error}") from error
        self._script = client.register_script(_GROUP_SCRIPT)
        self.shared = False
        """Whether several processes serve the rooms at once (``recordroom serve --cluster``;
        see :mod:`recordroom.server.peers`)."""
        self.room_lease = ROOM_LEASE_TTL
        """Seconds a room's driver lease lasts, when shared."""
        self.fence: Lease | None = None
        """A lease every job checks first: when set, a job is written only while it is held."""
        self._keeper: LeaseKeeper | None = None
        self.on_behind: Callable[[str], None] | None = None
        """Called (with Redis's reason) when a room's log in Redis is shorter than the action
        asked for: Redis lost acknowledged actions (a restart without them), and the rooms in
        this process's memory are ahead of it."""
        self.appendonly = self._appendonly()
        """Redis's ``appendonly`` and ``appendfsync`` settings, when Redis tells them."""
        if self.appendonly is not None and self.appendonly[0] != "yes":
            log.warning(
                "Redis at %s keeps no append-only file (appendonly %s): a Redis restart loses "
                "acknowledged actions; see docs/deploy.md",
                where,
                self.appendonly[0],
            )

    @classmethod
    def from_url(cls, url: str, prefix: str = DEFAULT_PREFIX) -> RedisStore:
        """Connects to ``redis://[:password@]host:port/db``; raises StoreUnavailable."""
        try:
            client = redis.Redis.from_url(
                url,
                socket_connect_timeout=2.0,
                socket_timeout=5.0,
                health_check_interval=10,
                retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 3),
                retry_on_error=[RedisConnectionError, RedisTimeoutError],
            )
        except ValueError as error:
            raise StoreUnavailable(f"{shown_url(url)} is not a Redis address: {error}") from error
        return cls(client, prefix, shown_url(url))

    def hold_server(
        self,
        ttl: float = SERVER_LEASE_TTL,
        on_lost: Callable[[str | None], None] | None = None,
    ) -> Lease:
        """Takes this store's server lease, fences every write with it and keeps renewing it.

        One server process per Redis database and prefix: raises StoreUnavailable (saying who
        holds it) when another process holds the lease. ``on_lost`` is called (on the keeper's
        thread, with the new holder) if the lease is ever lost. :meth:`close` releases it.
        """
        lease = Lease(self.client, f"{self.prefix}server", ttl)
        try:
            taken = lease.acquire()
            holder = None if taken else lease.current_holder()
        except RedisError as error:
            raise StoreUnavailable(f"Redis at {self.where}: {error}") from error
        if not taken:
            raise StoreUnavailable(
                f"another server process ({holder}) serves the rooms of {self.where} "
                f"(prefix {self.prefix}); one process per Redis database and prefix"
            )
        self.fence = lease
        self._keeper = LeaseKeeper(lease, on_lost).start()
        return lease

    def _appendonly(self) -> tuple[str, str] | None:
        try:
            settings = self.client.config_get("append*")
        except RedisError:  # a managed Redis may refuse CONFIG
            return None
        return str(settings.get("appendonly", "?")), str(settings.get("appendfsync", "?"))

    # -- writing ----------------------------------------------------------------------------

    def commit(self, jobs: Sequence[Sequence[Write]]) -> list[Exception | None]:
        """The whole group in one call of the group script (see the module doc).

        A job Redis refused (a taken code or index, no such room) gets a StoreRefused; a lost
        connection, after the client's retries, raises StoreUnavailable for the whole group.
        """
        if not jobs:
            return []
        now = time.time()
        errors: list[Exception | None] = []
        calls: list[list[str]] = []
        for job in jobs:
            try:
                calls.append(self._arguments(job, now))
                errors.append(None)
            except (StoreRefused, ValueError, TypeError) as error:  # not even sent
                errors.append(error)
        if not calls:
            return errors
        answers = iter(self._run(calls))
        for position, sent in enumerate(errors):
            if sent is not None:
                continue
            answer = next(answers)
            if answer != "OK":
                why = answer.removeprefix("REFUSED ")
                conflict = "is already stored" in why or "changed meanwhile" in why
                if conflict:
                    errors[position] = Conflict(why)
                elif "holds its limit" in why:
                    errors[position] = RoomLimit(why)
                else:
                    errors[position] = StoreRefused(why)
                if "would skip actions" in why and self.on_behind is not None:
                    log.critical("Redis at %s lost acknowledged actions: %s", self.where, why)
                    self.on_behind(why)
        return errors

    def _run(self, jobs: list[list[str]]) -> list[str]:
        """Runs the group script on the jobs' arguments; one answer a job."""
        fence = self.fence
        argv = [self.prefix, *((fence.key, fence.holder) if fence else ("", ""))]
        for job in jobs:
            argv += job
        try:
            answers = self._script(keys=[], args=argv)
        except ResponseError as error:
            text = str(error)
            if text.startswith("FENCED "):
                raise StoreUnavailable(text.removeprefix("FENCED ")) from error
            raise StoreUnavailable(f"Redis at {self.where}: {text}") from error
        except RedisError as error:
            raise StoreUnavailable(f"Redis at {self.where}: {error}") from error
        if not isinstance(answers, list) or len(answers) != len(jobs):
            raise StoreUnavailable(f"Redis at {self.where} answered {answers!r}")
        return [bytes(answer).decode() for answer in answers]

    def _arguments(self, job: Sequence[Write], now: float) -> list[str]:
        job_id = secrets.token_hex(8)
        argv = [job_id, str(len(job))]
        for write in job:
            op, args = self._encode(write, now, job_id)
            argv += [op, write.room.code if isinstance(write, NewRoom) else write.code]
            argv.append(str(len(args)))
            argv += args
        return argv

    @staticmethod
    def _encode(write: Write, now: float, job_id: str) -> tuple[str, list[str]]:
        if isinstance(write, AppendAction):
            if type(write.index) is not int or write.index < 0:
                raise StoreRefused(f"action index {write.index!r} is not a count")
            entry = _json({"seat": write.seat, "action": write.action, "at": now, "job": job_id})
            return "append", [str(write.index), entry, repr(now)]
        if isinstance(write, NewRoom):
            room = write.room
            fields = {
                "game": room.game,
                "options": _json(room.options),
                "seed": str(int(room.seed)),
                "host_token": room.host_token,
                "status": room.status,
                "result": _optional_json(room.result),
                "music": _optional_json(room.music),
                "settings": _json(room.settings) if room.settings else "",
            }
            if write.limit is not None and (type(write.limit) is not int or write.limit < 1):
                raise StoreRefused(f"room limit {write.limit!r} is not a positive count")
            args = [repr(now), str(write.limit or 0), str(len(fields))]
            for name, value in fields.items():
                args += [name, value]
            return "new", args + [_seat_json(seat) for seat in room.seats]
        # Every change of a room moves its ``touched`` (what expiry counts from).
        if isinstance(write, SaveSeats):
            return "seats", [repr(now), *(_seat_json(seat) for seat in write.seats)]
        touched = ["touched", repr(now)]
        if isinstance(write, SetStatus):
            status = ["status", write.status, "result", _optional_json(write.result)]
            return "set", status + touched
        if isinstance(write, SetMusic):
            return "set", ["music", _optional_json(write.music), *touched]
        if isinstance(write, SetSettings):
            return "set", ["settings", _json(write.settings) if write.settings else "", *touched]
        if isinstance(write, DeleteRoom):
            return "del", []
        if isinstance(write, CheckRevision):
            if type(write.revision) is not int or write.revision < 0:
                raise StoreRefused(f"revision {write.revision!r} is not a count")
            return "rev", [str(write.revision)]
        raise TypeError(f"not a store write: {write!r}")

    # -- reading ----------------------------------------------------------------------------

    def code_taken(self, code: str) -> bool:
        """Whether a room with that code exists."""
        try:
            return bool(self.client.exists(self._key("room", code)))
        except RedisError as error:
            raise StoreUnavailable(f"Redis at {self.where}: {error}") from error

    def _key(self, kind: str, code: str) -> str:
        return f"{self.prefix}{kind}:{code}"

    def codes(self) -> list[str]:
        """Every stored room's code, oldest first."""
        try:
            codes: list[bytes] = self.client.zrange(f"{self.prefix}rooms", 0, -1)  # type: ignore[assignment]
        except RedisError as error:
            raise StoreUnavailable(f"Redis at {self.where}: {error}") from error
        return [code.decode() for code in codes]

    def load_rooms(self) -> Iterator[RoomRecord | DamagedRoom]:
        """Every room, oldest first, with its seats and log; one that cannot be read is damaged."""
        codes = self.codes()
        for start in range(0, len(codes), LOAD_BATCH):
            batch = codes[start : start + LOAD_BATCH]
            try:
                pipe = self.client.pipeline(transaction=False)
                for code in batch:
                    pipe.hgetall(self._key("room", code))
                    pipe.hgetall(self._key("seats", code))
                    pipe.lrange(self._key("log", code), 0, -1)
                answers = pipe.execute()
            except RedisError as error:
                raise StoreUnavailable(f"Redis at {self.where}: {error}") from error
            for n, code in enumerate(batch):
                room, seats, entries = answers[3 * n : 3 * n + 3]
                try:
                    yield _record(code, room, seats, entries)
                except (ValueError, TypeError, KeyError, AttributeError) as error:
                    yield DamagedRoom(code, f"{type(error).__name__}: {error}")

    def load_room(self, code: str) -> RoomRecord | DamagedRoom | None:
        """One room as stored now (None: no such room)."""
        try:
            pipe = self.client.pipeline(transaction=True)  # one consistent reading
            pipe.hgetall(self._key("room", code))
            pipe.hgetall(self._key("seats", code))
            pipe.lrange(self._key("log", code), 0, -1)
            room, seats, entries = pipe.execute()
        except RedisError as error:
            raise StoreUnavailable(f"Redis at {self.where}: {error}") from error
        if not room:
            return None
        try:
            return _record(code, room, seats, entries)
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            return DamagedRoom(code, f"{type(error).__name__}: {error}")

    def read_since(self, code: str, start: int) -> tuple[RoomRecord | None, int]:
        """The room as stored now with only its actions from index ``start`` on, and the log's
        whole length (one consistent reading; None: no such room). Raises StoreUnavailable."""
        try:
            pipe = self.client.pipeline(transaction=True)
            pipe.hgetall(self._key("room", code))
            pipe.hgetall(self._key("seats", code))
            pipe.lrange(self._key("log", code), start, -1)
            pipe.llen(self._key("log", code))
            room, seats, entries, length = pipe.execute()
        except RedisError as error:
            raise StoreUnavailable(f"Redis at {self.where}: {error}") from error
        if not room:
            return None, 0
        try:
            return _record(code, room, seats, entries), int(length)
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            raise StoreUnavailable(f"room {code} in Redis cannot be read: {error}") from error

    def read_log(self, code: str, start: int = 0) -> list[dict[str, Any]]:
        """The room's accepted actions from index ``start`` on (``{"seat", "action"}`` each)."""
        try:
            entries: list[bytes] = self.client.lrange(self._key("log", code), start, -1)  # type: ignore[assignment]
        except RedisError as error:
            raise StoreUnavailable(f"Redis at {self.where}: {error}") from error
        return [_log_entry(entry) for entry in entries]

    def close(self) -> None:
        """Releases the server lease (if held) and closes the connections."""
        if self._keeper is not None:
            self._keeper.stop()
            self._keeper = None
        self.client.close()


def _text(value: bytes) -> str:
    return value.decode()


def _log_entry(raw: bytes) -> dict[str, Any]:
    entry = json.loads(raw)
    return {"seat": entry["seat"], "action": entry["action"]}


def _record(
    code: str, room: dict[bytes, bytes], seats: dict[bytes, bytes], entries: list[bytes]
) -> RoomRecord:
    """A room as read from its hash, its seats' hash and its log."""
    if not room:
        raise KeyError(f"room {code} has no record")
    fields = {_text(name): _text(value) for name, value in room.items()}

    def optional(name: str) -> Any:
        return json.loads(fields[name]) if name in fields else None

    seat_list = []
    for index in range(len(seats)):
        seat = json.loads(seats[str(index).encode()])
        seat_list.append(
            SeatRecord(str(seat["name"]), seat["token"], bool(seat["bot"]), seat["level"])
        )
    return RoomRecord(
        code=code,
        game=fields["game"],
        options=json.loads(fields["options"]),
        seed=int(fields["seed"]),
        host_token=fields["host_token"],
        status=fields["status"],
        seats=seat_list,
        log=[_log_entry(entry) for entry in entries],
        result=optional("result"),
        music=optional("music"),
        settings=optional("settings") or {},
        touched=float(fields["touched"]),
        revision=int(fields.get("rev", "0")),
    )


def shown_url(url: str) -> str:
    """A Redis URL without its password, for messages."""
    scheme, sep, rest = url.partition("://")
    if sep and "@" in rest:
        rest = "***@" + rest.rpartition("@")[2]
    return f"{scheme}{sep}{rest}"
