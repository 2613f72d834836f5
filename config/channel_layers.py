"""The site's channel layers: the embedded default's, and server mode's over Redis."""

from __future__ import annotations

import asyncio
import logging

from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection
from channels_redis.utils import create_pool
from redis import asyncio as aioredis
from redis.asyncio.client import PubSub

logger = logging.getLogger(__name__)

RETRY_SECONDS = 0.5


class EmbeddedChannelLayer(InMemoryChannelLayer):
    """An in-memory layer that also takes messages from other threads.

    In the embedded default the Celery worker runs in threads of the web server process.
    The in-memory queues belong to the server's event loop, so a send from a worker
    thread's own loop is handed over to that loop; otherwise waiting consumers would not
    wake up.
    """

    _home_loop: asyncio.AbstractEventLoop | None = None

    async def receive(self, channel):
        self._home_loop = asyncio.get_running_loop()
        return await super().receive(channel)

    async def _at_home(self, coro):
        home = self._home_loop
        if home is None or home.is_closed() or home is asyncio.get_running_loop():
            return await coro
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, home))

    async def send(self, channel, message):
        return await self._at_home(super().send(channel, message))

    async def group_send(self, group, message):
        return await self._at_home(super().group_send(group, message))


class _ResyncingPubSub(PubSub):
    """A pub/sub connection that reports each time it connects again after a loss."""

    def __init__(self, *args, on_reconnect, **kwargs):
        super().__init__(*args, **kwargs)
        self._on_reconnect = on_reconnect

    async def on_connect(self, connection):
        resubscribing = bool(self.channels or self.patterns)
        await super().on_connect(connection)  # subscribes again to every channel and group
        if resubscribing:
            self._on_reconnect()


class _Shard(RedisSingleShardConnection):
    """One Redis connection of the layer; after an outage it has every local consumer resync."""

    _lost = False

    async def publish_many(self, published: list[tuple[str, bytes]]) -> None:
        """Publish each (channel, data) of ``published``, in order, in one round trip."""
        async with self._lock:
            self._ensure_redis()
            async with self._redis.pipeline(transaction=False) as pipe:
                for channel, data in published:
                    pipe.publish(channel, data)
                await pipe.execute()

    def _ensure_redis(self):
        if self._redis is None:
            pool = create_pool(self.host)
            self._redis = aioredis.Redis(connection_pool=pool)
            self._pubsub = _ResyncingPubSub(pool, on_reconnect=self._reconnected)

    def _reconnected(self) -> None:
        self._lost = False
        layer = self.channel_layer
        logger.warning("Channel layer reconnected to Redis; %d local consumers resync", len(layer.channels))
        data = layer.channel_layer.serialize({"type": "layer.reconnected"})
        for queue in list(layer.channels.values()):
            queue.put_nowait(data)

    async def _do_receiving(self):
        # The library's loop, logging an outage once instead of a traceback a second.
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (TimeoutError, asyncio.CancelledError, GeneratorExit):
                raise
            except Exception as error:
                if not self._lost:
                    logger.warning("Channel layer lost Redis (%s); retrying every %.1f s", error, RETRY_SECONDS)
                    self._lost = True
                await asyncio.sleep(RETRY_SECONDS)


class RedisChannelLayer(RedisPubSubChannelLayer):
    """channels_redis's pub/sub layer, made to notice a Redis restart.

    Redis forgets subscriptions when it restarts, and every message published while the
    connection was down is lost without a trace. The layer subscribes again when it
    reconnects (redis-py does) and then sends every consumer of this process a
    ``layer.reconnected`` message; consumers answer by bringing their page up to date
    (``config.websocket.JsonMessageConsumer.layer_reconnected``). It replaces the
    library's per-host connection objects, so tests/faults checks it against each
    channels-redis release.
    """

    async def group_send_many(self, sends) -> None:
        """``group_send`` of each (group, message) in ``sends``: one pipeline of publishes
        per Redis shard instead of a round trip per message (a move tells its game's group
        and each player's own)."""
        layer = self._get_layer()
        by_shard: dict[_Shard, list[tuple[str, bytes]]] = {}
        for group, message in sends:
            channel = layer._get_group_channel_name(group)
            by_shard.setdefault(layer._get_shard(channel), []).append((channel, self.serialize(message)))
        for shard, published in by_shard.items():
            await shard.publish_many(published)

    def _get_layer(self):
        layer = super()._get_layer()
        if not all(isinstance(shard, _Shard) for shard in layer._shards):
            layer._shards = [_Shard(shard.host, layer) for shard in layer._shards]
        return layer
