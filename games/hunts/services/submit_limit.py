"""How many words a player may submit: at most SUBMIT_LIMIT in each SUBMIT_WINDOW_SECONDS
window, across all their tabs.

The count is kept in Redis, under one key per player and window, so that the web
processes share it. A table socket's submission does not wait for Redis: each web
process counts its own players' submissions on its event loop (``LoopTallies``) and adds
them to the shared count in one pipeline a few times a second (``FLUSH_SECONDS``),
reading back the totals. A player is refused when the last total read plus this
process's submissions since exceeds the limit. So the limit is exact for the tabs a
player has open on one process, and tabs on several processes can go over it only until
the next flush: by at most the limit again on each other process, and only in the
first moments of a window. Without Redis for a while, each process still limits alone
and sends its counts when Redis is back.

A submission outside the event loop (a worker thread: the embedded mode) counts in the
same key at once (``rate_limited``).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

import redis
from django.conf import settings
from django.core.cache import cache

from config import loop_clients
from config.cache import redis_backed

logger = logging.getLogger(__name__)

# Per player, across all their tabs: at most this many submissions per window.
SUBMIT_LIMIT = 8
SUBMIT_WINDOW_SECONDS = 2
# How often a web process adds its players' submissions to the shared count.
FLUSH_SECONDS = 0.25
# A window's key outlives it, so a late flush still lands in it.
KEY_SECONDS = SUBMIT_WINDOW_SECONDS * 2


def window_of(now: datetime) -> int:
    return int(now.timestamp()) // SUBMIT_WINDOW_SECONDS


def count_key(user_id: int, window: int) -> str:
    """The shared count's key (through the cache's key function, as the cache would name it)."""
    return cache.make_and_validate_key(f"hunts:submits:{user_id}:{window}")


# Counts a submission and returns the window's count, in one command (and one atomic step).
_COUNT_SUBMISSION = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count
"""


@lru_cache(maxsize=1)
def _submission_counter():
    """The counting script on the cache's Redis, or None where the cache is not Redis (embedded).

    One client for the process, of its own: the script object keeps it.
    """
    if not redis_backed():
        return None
    return redis.Redis.from_url(settings.CACHES["default"]["LOCATION"]).register_script(_COUNT_SUBMISSION)


def rate_limited(user_id: int, now: datetime) -> bool:
    """Count a submission now, in the shared count; True if it is over the limit."""
    key = count_key(user_id, window_of(now))
    counter = _submission_counter()
    if counter is not None:
        return counter(keys=[key], args=[KEY_SECONDS]) > SUBMIT_LIMIT
    # The cache's own key function applies again inside add and incr.
    plain = f"hunts:submits:{user_id}:{window_of(now)}"
    if cache.add(plain, 1, timeout=KEY_SECONDS):
        return False
    try:
        return cache.incr(plain) > SUBMIT_LIMIT
    except ValueError:  # expired between add and incr
        return False


@dataclass
class Tally:
    """One player's submissions in one window, as a web process knows them."""

    here: int = 0  # counted by this process
    sent: int = 0  # of those, added to the shared count
    total: int = 0  # the shared count when last read: every process's, ours sent included

    @property
    def estimate(self) -> int:
        return self.total + self.here - self.sent


class LoopTallies:
    """An event loop's tallies of its players' submissions, and their flushes to Redis."""

    def __init__(self, client_of=loop_clients.redis) -> None:
        self.tallies: dict[tuple[int, int], Tally] = {}
        self.client_of = client_of
        self.flushing: asyncio.Task | None = None

    def count(self, user_id: int, now: datetime) -> bool:
        """Count a submission; True if it is over the limit. Never waits: the flush is
        scheduled, not awaited."""
        tally = self.tallies.get((user_id, window_of(now)))
        if tally is None:
            tally = self.tallies[(user_id, window_of(now))] = Tally()
        tally.here += 1
        if self.flushing is None:
            self.flushing = asyncio.get_running_loop().create_task(self._flush_after(FLUSH_SECONDS))
        return tally.estimate > SUBMIT_LIMIT

    async def _flush_after(self, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            await self.flush()
        finally:
            self.flushing = None
            if any(tally.here > tally.sent for tally in self.tallies.values()):
                self.flushing = asyncio.get_running_loop().create_task(self._flush_after(FLUSH_SECONDS))

    async def flush(self) -> None:
        """Add what this process counted since the last flush to the shared counts, in one
        pipeline, and read the totals back; forget windows that are over and sent."""
        pending = [
            (key, tally, tally.here - tally.sent) for key, tally in self.tallies.items() if tally.here > tally.sent
        ]
        if pending:
            pipe = self.client_of().pipeline(transaction=False)
            for (user_id, window), _, added in pending:
                name = count_key(user_id, window)
                pipe.incrby(name, added)
                pipe.expire(name, KEY_SECONDS)
            try:
                answers = await pipe.execute()
            except (redis.RedisError, OSError):
                # Each process still limits alone meanwhile; the counts go with a later flush.
                logger.warning("Could not add %d players' submissions to the shared count", len(pending), exc_info=True)
            else:
                for (_, tally, added), total in zip(pending, answers[::2], strict=True):
                    tally.sent += added
                    tally.total = max(tally.total, total)
        if self.tallies:
            # A window over is not limited any more: its tally, sent or not, is done with.
            latest = max(window for _, window in self.tallies)
            for key in [key for key in self.tallies if key[1] < latest - 1]:
                del self.tallies[key]


_loop_tallies: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopTallies] = weakref.WeakKeyDictionary()


def loop_tallies() -> LoopTallies:
    """The running event loop's tallies."""
    loop = asyncio.get_running_loop()
    tallies = _loop_tallies.get(loop)
    if tallies is None:
        tallies = _loop_tallies[loop] = LoopTallies()
    return tallies
