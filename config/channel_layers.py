"""The embedded default's channel layer."""

from __future__ import annotations

import asyncio

from channels.layers import InMemoryChannelLayer


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
