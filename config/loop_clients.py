"""PostgreSQL and Redis clients that run on the web server's event loop itself.

A use case Django runs in a worker thread pays a thread hop each way, Django's
connection checks around the call (``CONN_HEALTH_CHECKS`` adds a ``SELECT 1``) and the
ORM's cursor wrappers. For the hunt's submit path, which is one counting command in
Redis and one statement in PostgreSQL, that overhead was most of its server time, so the
path sends both from the loop with psycopg's and redis-py's asyncio clients.

Clients belong to the event loop they were made on, so they are kept per loop: up to
``CONNECTIONS_PER_LOOP`` PostgreSQL connections (autocommit: each statement its own
transaction, as under Django's autocommit) and one Redis client. ``close(loop)`` closes them; the server's
loop keeps its clients for the life of the process, a test's loop closes them at its end.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import select
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import psycopg
from django.conf import settings
from django.db import connections
from psycopg.pq import TransactionStatus
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


class _Pool:
    """One event loop's PostgreSQL connections: idle ones, how many are open, who waits."""

    def __init__(self) -> None:
        self.idle: list[psycopg.AsyncConnection] = []
        self.open = 0
        self.waiting: collections.deque[asyncio.Future] = collections.deque()
        self.closed = False  # by ``close``: connections still in use are closed when given back

    async def take(self, alias: str) -> psycopg.AsyncConnection:
        while True:
            while self.idle:
                connection = self.idle.pop()
                if _still_open(connection):
                    return connection
                await self._drop(connection)
            if self.open < CONNECTIONS_PER_LOOP:
                self.open += 1
                try:
                    return await psycopg.AsyncConnection.connect(**_connection_params(alias))
                except BaseException:
                    self.open -= 1
                    self._wake()
                    raise
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

    async def give_back(self, connection: psycopg.AsyncConnection, *, usable: bool) -> None:
        # Whether the server dropped it meanwhile is asked when it is next taken.
        if usable and not self.closed and not connection.closed:
            self.idle.append(connection)
        else:
            await self._drop(connection)
        self._wake()

    async def _drop(self, connection: psycopg.AsyncConnection) -> None:
        self.open -= 1
        await _close_quietly(connection)

    def _wake(self) -> None:
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return


_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _Pool]] = weakref.WeakKeyDictionary()
_redis: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aioredis.Redis] = weakref.WeakKeyDictionary()


def available(alias: str = "default") -> bool:
    """True where the database is PostgreSQL and the cache is Redis (server mode)."""
    return settings.DATABASES[alias]["ENGINE"] == "django.db.backends.postgresql" and cache.redis_backed()


def _connection_params(alias: str) -> dict:
    # Django's own parameters and adapters, so both clients write values alike. The
    # statements here take and return time-zone-aware values and ids only, so the session
    # time zone Django would set does not matter. Client-side binding lets one call send
    # several statements in one round trip, as the sync path's cursor does.
    params = connections[alias].get_connection_params()
    params["cursor_factory"] = psycopg.AsyncClientCursor
    params["autocommit"] = True
    return params


def _still_open(connection: psycopg.AsyncConnection) -> bool:
    """An idle connection the server closed (a restart, a terminated backend) has
    something to read: its last error and the end of the stream. Asking costs one
    non-blocking poll, not a round trip."""
    if connection.closed or connection.info.transaction_status != TransactionStatus.IDLE:
        return False
    try:
        poll = select.poll()  # not select.select, which refuses descriptors above 1023
        poll.register(connection.pgconn.socket, select.POLLIN)
        return not poll.poll(0)
    except (OSError, ValueError, psycopg.OperationalError):
        return False


@asynccontextmanager
async def postgres(alias: str = "default") -> AsyncIterator[psycopg.AsyncConnection]:
    """An autocommit connection of this event loop for the block's statements.

    On any exception (a cancelled call included) the connection is closed rather than
    kept: what it was doing is unknown.
    """
    pools = _pools.setdefault(asyncio.get_running_loop(), {})
    pool = pools.get(alias) or pools.setdefault(alias, _Pool())
    connection = await pool.take(alias)
    try:
        yield connection
    except BaseException:
        await pool.give_back(connection, usable=False)
        raise
    await pool.give_back(connection, usable=True)


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


async def _close_quietly(connection: psycopg.AsyncConnection) -> None:
    try:
        await connection.close()
    except Exception:  # already broken: nothing more to release
        logger.debug("closing a broken connection", exc_info=True)
