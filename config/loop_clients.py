"""PostgreSQL and Redis clients that run on the web server's event loop itself.

A use case Django runs in a worker thread pays a thread hop each way, Django's
connection checks around the call (``CONN_HEALTH_CHECKS`` adds a ``SELECT 1``) and the
ORM's cursor wrappers. For the hunt's submit path, which is one statement in PostgreSQL,
that overhead was most of its server time, so the path sends it from the loop; the
sockets' own bookkeeping in Redis (``config.websocket``) uses redis-py's asyncio client
the same way.

A statement goes out through ``simple_query``: libpq's own asynchronous calls on the
connection's handle, its parameters written into the text as literals (as a client-side
binding cursor writes them). psycopg's cursor around the same round trip (its query
conversion, the binding of each parameter, a timer and a lock per wait) cost as much of
the server's time as everything else the submit path does.

Clients belong to the event loop they were made on, so they are kept per loop: up to
``CONNECTIONS_PER_LOOP`` PostgreSQL connections (autocommit: each statement its own
transaction, as under Django's autocommit) and one Redis client. ``close(loop)`` closes them; the server's
loop keeps its clients for the life of the process, a test's loop closes them at its end.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import weakref
from collections.abc import Mapping, Sequence
from datetime import datetime

import psycopg
from django.conf import settings
from django.core.signals import setting_changed
from django.db import connections
from django.dispatch import receiver
from psycopg import errors as pg_errors
from psycopg import pq
from psycopg.pq import ExecStatus, TransactionStatus
from redis import asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from config import cache

logger = logging.getLogger(__name__)

# PostgreSQL connections per event loop (per web process). Statements queue for one
# rather than open more: a connection costs the server a backend and the client a few
# milliseconds to open, more than the short statements sent on them.
CONNECTIONS_PER_LOOP = 8


class Link:
    """One PostgreSQL connection of an event loop, used through ``simple_query`` only.

    Its socket's reader stays registered with the loop for the connection's life: a wait
    for the server is one future, not a reader added and removed each time. The reader
    takes in whatever arrives, so an idle connection the server closed (a restart, a
    terminated backend) is known to be broken before it is next taken, without asking.
    psycopg's own methods would register readers of their own on the socket, so the
    connection is not used through them.
    """

    __slots__ = ("connection", "pgconn", "escaping", "fd", "loop", "waiter", "broken")

    def __init__(self, connection: psycopg.AsyncConnection, loop: asyncio.AbstractEventLoop) -> None:
        self.connection = connection
        self.pgconn = connection.pgconn
        self.escaping = pq.Escaping(self.pgconn)
        self.fd = self.pgconn.socket
        self.loop = loop
        self.waiter: asyncio.Future | None = None
        self.broken = False
        loop.add_reader(self.fd, self._readable)

    def _readable(self) -> None:
        try:
            self.pgconn.consume_input()
        except psycopg.OperationalError:
            self.broken = True  # the end of the stream: nothing more will come
            self.loop.remove_reader(self.fd)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def usable(self) -> bool:
        return not self.broken and self.pgconn.transaction_status == TransactionStatus.IDLE

    async def readable(self, *, writing: bool = False) -> None:
        """Until the server has sent something (``writing``: or the socket takes more)."""
        if not self.broken:
            self.waiter = waiter = self.loop.create_future()
            if writing:
                self.loop.add_writer(self.fd, _resolve, waiter)
            try:
                await waiter
            finally:
                self.waiter = None
                if writing:
                    self.loop.remove_writer(self.fd)
        if self.broken:
            raise psycopg.OperationalError("the server closed the connection")

    async def close(self) -> None:
        if not self.broken:
            self.loop.remove_reader(self.fd)
        try:
            await self.connection.close()
        except Exception:  # already broken: nothing more to release
            logger.debug("closing a broken connection", exc_info=True)


class _Pool:
    """One event loop's PostgreSQL connections: idle ones, how many are open, who waits."""

    def __init__(self) -> None:
        self.idle: list[Link] = []
        self.open = 0
        self.waiting: collections.deque[asyncio.Future] = collections.deque()
        self.closed = False  # by ``close``: connections still in use are closed when given back

    async def take(self, alias: str) -> Link:
        while True:
            while self.idle:
                link = self.idle.pop()
                if link.usable():
                    return link
                await self._drop(link)
            if self.open < CONNECTIONS_PER_LOOP:
                self.open += 1
                try:
                    connection = await psycopg.AsyncConnection.connect(**_connection_params(alias))
                except BaseException:
                    self.open -= 1
                    self._wake()
                    raise
                return Link(connection, asyncio.get_running_loop())
            turn = asyncio.get_running_loop().create_future()
            self.waiting.append(turn)
            try:
                await turn
            except BaseException:
                if turn.done() and not turn.cancelled():
                    self._wake()  # woken and cancelled at once: pass the turn on
                elif turn in self.waiting:
                    self.waiting.remove(turn)
                raise

    async def give_back(self, link: Link, *, usable: bool) -> None:
        if usable and not self.closed and link.usable():
            self.idle.append(link)
        else:
            await self._drop(link)
        self._wake()

    async def _drop(self, link: Link) -> None:
        self.open -= 1
        await link.close()

    def _wake(self) -> None:
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return


_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _Pool]] = weakref.WeakKeyDictionary()
_redis: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aioredis.Redis] = weakref.WeakKeyDictionary()


_available: dict[str, bool] = {}


def available(alias: str = "default") -> bool:
    """True where the database is PostgreSQL and the cache is Redis (server mode).

    Asked for every submission, so answered once per process (and again when a test
    changes either setting).
    """
    known = _available.get(alias)
    if known is None:
        known = _available[alias] = (
            settings.DATABASES[alias]["ENGINE"] == "django.db.backends.postgresql" and cache.redis_backed()
        )
    return known


@receiver(setting_changed)
def _settings_changed(*, setting: str, **kwargs) -> None:
    if setting in ("DATABASES", "CACHES"):
        _available.clear()


def _connection_params(alias: str) -> dict:
    # Django's own parameters (server, credentials, options). The statements here take
    # and return time-zone-aware values and ids only, so the session time zone Django
    # would set does not matter.
    params = connections[alias].get_connection_params()
    params.pop("cursor_factory", None)  # Django's, a blocking cursor
    params["autocommit"] = True
    return params


class postgres:  # noqa: N801 - used as a function: ``async with postgres() as link``
    """An autocommit connection of this event loop for the block's statements (``simple_query``).

    On any exception (a cancelled call included) the connection is closed rather than
    kept: what it was doing is unknown.
    """

    __slots__ = ("pool", "alias", "link")

    def __init__(self, alias: str = "default") -> None:
        pools = _pools.setdefault(asyncio.get_running_loop(), {})
        self.pool = pools.get(alias) or pools.setdefault(alias, _Pool())
        self.alias = alias

    async def __aenter__(self) -> Link:
        self.link = await self.pool.take(self.alias)
        return self.link

    async def __aexit__(self, kind, error, trace) -> None:
        await self.pool.give_back(self.link, usable=kind is None)


Value = int | bool | str | datetime | None


def _literal(escaping: pq.Escaping, value: Value) -> bytes:
    if value is None:
        return b"NULL"
    if value is True or value is False:
        return b"true" if value else b"false"
    if type(value) is int:
        # In brackets when negative: after a minus in the text it would start a comment.
        return str(value).encode() if value >= 0 else b"(%d)" % value
    if isinstance(value, str):
        if "\x00" in value:  # libpq would end the string there
            raise ValueError("PostgreSQL text cannot hold a NUL character")
        return escaping.escape_literal(value.encode())
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("a time sent to PostgreSQL names its time zone")
        return b"'" + value.isoformat().encode() + b"'::timestamptz"
    raise TypeError(f"no literal for {type(value).__name__}")


async def simple_query(link: Link, sql: str | bytes, params: Sequence[Value] | Mapping[str, Value] = ()) -> list[tuple]:
    """Run ``sql`` (one or more statements, as text or already encoded; ``%s`` for each of
    ``params``, or ``%(name)s`` for each name of a mapping) in one round trip; the rows of
    its last statement that returns any, each value as PostgreSQL's text (bytes) or None.

    The statements of one simple query are one transaction. A failing statement raises
    its error (psycopg's class for its SQLSTATE) once the server is done answering, and
    ``postgres`` then closes the connection.
    """
    pgconn, escaping = link.pgconn, link.escaping
    if isinstance(params, Mapping):
        literals = {name.encode(): _literal(escaping, value) for name, value in params.items()}
    else:
        literals = tuple(_literal(escaping, value) for value in params)
    pgconn.send_query((sql if type(sql) is bytes else sql.encode()) % literals)
    while pgconn.flush():  # the query did not fit in the socket's buffer at once
        # libpq's advice: take in what the server sends meanwhile (the reader does), or
        # both sides may block.
        await link.readable(writing=True)
    rows: list[tuple] = []
    failed = None
    while True:
        while pgconn.is_busy():
            await link.readable()
        result = pgconn.get_result()
        if result is None:
            break
        if result.status == ExecStatus.TUPLES_OK:
            fields = range(result.nfields)
            rows = [tuple(result.get_value(row, field) for field in fields) for row in range(result.ntuples)]
        elif result.status != ExecStatus.COMMAND_OK and failed is None:
            failed = _error(result)
    if failed is not None:
        raise failed
    return rows


def _error(result: pq.PGresult) -> psycopg.Error:
    """psycopg's exception for a failed statement's result: the class of its SQLSTATE,
    with the server's message (not its ``diag`` fields, which no caller reads)."""
    sqlstate = (result.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode()
    message = result.error_message.decode(errors="replace").strip()
    try:
        return pg_errors.lookup(sqlstate)(message)
    except KeyError:  # no SQLSTATE (a lost connection), or one psycopg does not know
        return psycopg.DatabaseError(message)


def _resolve(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


def redis() -> aioredis.Redis:
    """This event loop's client of the cache's Redis.

    A command on a connection Redis dropped (a restart) is sent again on a new one, a
    few times over about a second, instead of failing the player's request.
    """
    loop = asyncio.get_running_loop()
    client = _redis.get(loop)
    if client is None:
        client = _redis[loop] = aioredis.Redis.from_url(
            settings.CACHES["default"]["LOCATION"],
            socket_connect_timeout=2,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 4),
            retry_on_error=[RedisConnectionError, RedisTimeoutError],
        )
    return client


async def close(loop: asyncio.AbstractEventLoop | None = None) -> None:
    """Close the clients of ``loop`` (the running one by default)."""
    loop = loop or asyncio.get_running_loop()
    for pool in _pools.pop(loop, {}).values():
        pool.closed = True
        while pool.idle:
            await pool._drop(pool.idle.pop())
    client = _redis.pop(loop, None)
    if client is not None:
        await client.aclose()
