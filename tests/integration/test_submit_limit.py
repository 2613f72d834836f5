"""The submission limit: exact on one web process without waiting for Redis, shared
between processes through Redis a few times a second, and still kept while Redis is away.

Each ``LoopTallies`` here stands for one web process; they share the test's Redis.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from datetime import timezone as tz

import pytest
import redis.asyncio as aioredis

from config import loop_clients
from games.hunts.services import submit_limit
from games.hunts.services.submit_limit import SUBMIT_LIMIT, SUBMIT_WINDOW_SECONDS, LoopTallies

pytestmark = pytest.mark.asyncio

# A moment well inside a window, a different one for each test's players.
NOW = datetime(2026, 3, 1, 12, 0, 0, tzinfo=tz.utc)


@pytest.fixture(autouse=True)
async def loop_clients_closed():
    assert loop_clients.available(), "these tests need server mode: PostgreSQL and a Redis cache"
    yield
    await loop_clients.close()


@pytest.fixture
def player(request) -> int:
    """A player id of this test's own, so that counts left in Redis by another test (or an
    earlier run) in the same window are not this one's."""
    return 10**9 + abs(hash(request.node.nodeid)) % 10**8


async def shared_count(user_id: int, now: datetime = NOW) -> int:
    value = await loop_clients.redis().get(submit_limit.count_key(user_id, submit_limit.window_of(now)))
    return int(value or 0)


@pytest.fixture(autouse=True)
async def counts_cleared(player):
    for user_id in (player, player + 1):
        for now in (NOW, NOW + timedelta(seconds=SUBMIT_WINDOW_SECONDS)):
            await loop_clients.redis().delete(submit_limit.count_key(user_id, submit_limit.window_of(now)))


async def test_one_process_limits_a_player_exactly_without_asking_redis(player):
    process = LoopTallies(client_of=lambda: pytest.fail("a submission waited for Redis"))
    refused = [process.count(player, NOW) for _ in range(SUBMIT_LIMIT + 3)]
    assert refused == [False] * SUBMIT_LIMIT + [True] * 3
    assert process.count(player + 1, NOW) is False  # another player has their own count
    # The next window starts afresh.
    assert process.count(player, NOW + timedelta(seconds=SUBMIT_WINDOW_SECONDS)) is False
    process.flushing.cancel()


async def test_processes_share_a_players_count_through_redis(player):
    first, second = LoopTallies(), LoopTallies()
    for _ in range(6):
        assert first.count(player, NOW) is False
    await first.flushing  # the flush scheduled by the first count
    assert await shared_count(player) == 6

    # The second process has not heard of them until its own flush reads the total.
    assert second.count(player, NOW) is False
    await second.flushing
    assert await shared_count(player) == 7
    assert second.count(player, NOW) is False  # 8: the limit
    assert second.count(player, NOW) is True  # 9
    await second.flushing
    # The first process hears of the second's with its next flush; until then it knows
    # only its own (how far a flush interval lets a player's processes together go over).
    assert first.count(player, NOW) is False  # 6 + 1 as far as it knows
    await first.flushing
    assert await shared_count(player) == 10
    assert first.count(player, NOW) is True
    await first.flushing


async def test_a_submission_counted_outside_the_loop_shares_the_count(player):
    """The embedded path (a worker thread) counts in the same key at once."""
    for _ in range(SUBMIT_LIMIT):
        assert await asyncio.to_thread(submit_limit.rate_limited, player, NOW) is False
    process = LoopTallies()
    process.count(player, NOW)
    await process.flushing
    assert process.count(player, NOW) is True
    assert await asyncio.to_thread(submit_limit.rate_limited, player, NOW) is True
    await process.flushing


async def test_a_flush_sends_every_players_count_in_one_pipeline(player):
    pipelines = []

    def client():
        pipe = loop_clients.redis().pipeline(transaction=False)
        pipelines.append(pipe)
        return type("Client", (), {"pipeline": lambda self, transaction: pipe})()

    process = LoopTallies(client_of=client)
    for _ in range(3):
        process.count(player, NOW)
        process.count(player + 1, NOW)
    await process.flushing
    assert len(pipelines) == 1
    assert (await shared_count(player), await shared_count(player + 1)) == (3, 3)
    assert process.flushing is None  # nothing left to send: no flush waits


async def test_without_redis_a_process_still_limits_and_sends_its_counts_when_redis_is_back(player, caplog):
    unreachable = aioredis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)
    reachable = {"now": False}
    process = LoopTallies(client_of=lambda: loop_clients.redis() if reachable["now"] else unreachable)
    refused = [process.count(player, NOW) for _ in range(SUBMIT_LIMIT + 1)]
    assert refused == [False] * SUBMIT_LIMIT + [True]
    await process.flush()
    assert "Could not add 1 players' submissions to the shared count" in caplog.text
    assert await shared_count(player) == 0
    reachable["now"] = True
    await process.flush()
    assert await shared_count(player) == SUBMIT_LIMIT + 1
    process.flushing.cancel()
    await unreachable.aclose()


async def test_a_window_over_is_forgotten(player):
    process = LoopTallies()
    process.count(player, NOW)
    later = NOW + timedelta(seconds=2 * SUBMIT_WINDOW_SECONDS)
    process.count(player + 1, later)
    await process.flushing
    assert set(process.tallies) == {(player + 1, submit_limit.window_of(later))}
    await loop_clients.redis().delete(submit_limit.count_key(player + 1, submit_limit.window_of(later)))
