"""The one way the site pushes to websockets.

Services call ``broadcast_on_commit`` inside their transaction: the message goes out only
if the change it announces was committed, and from any process (web, worker, beat),
because the channel layer is shared.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
from functools import partial

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

# Sends handed to the server's event loop, kept referenced until they finish.
_in_flight: set[asyncio.Task] = set()
# The event loop of the ASGI server in this process, with the process it belongs to.
_server: tuple[asyncio.AbstractEventLoop, int] | None = None


class ServerLoopMiddleware:
    """ASGI middleware that notes the server's event loop, so ``broadcast`` can hand sends to it."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        global _server
        loop = asyncio.get_running_loop()
        if _server is None or _server[0] is not loop:
            _server = (loop, os.getpid())
        return await self.app(scope, receive, send)


def user_group(user_id: int) -> str:
    """The group every open tab of one player is in."""
    return f"user.{user_id}"


def encoded(message: dict, **routing) -> dict:
    """``message`` as a group event whose sockets send its ``text`` as it is.

    The JSON is made once for every socket of the group instead of once per socket;
    ``routing`` carries what a consumer reads to decide whether to send it (the handler
    is named by the message's own ``type``).
    """
    return {"type": message["type"], "text": json.dumps(message, separators=(",", ":")), **routing}


def broadcast(group: str, message: dict) -> None:
    """Send ``message`` (with a ``type`` naming the consumer handler) to a group.

    In the web server, use cases run in worker threads of the event loop; making such a
    thread wait for ``group_send`` would tie up the thread pool behind a busy loop (200
    hunt players made every thread wait), so the send is handed to the loop and the thread
    moves on. Elsewhere (Celery, shell, tests) it is sent before returning.

    It never raises: a broadcast is a courtesy to open pages, the change it announces is
    already committed, and pages catch up when the channel layer or their socket comes
    back (``config.channel_layers.RedisChannelLayer``), so a failure is only logged.
    """
    try:
        loop = _server_loop()
        if loop is not None:
            loop.call_soon_threadsafe(_start_on_loop, loop, group, message)
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            _send_now(group, message)
            return
        # Synchronous code on a thread that runs a loop of its own (a test driving a
        # browser through Playwright's sync API) cannot block on that loop; a helper
        # thread can.
        sender = threading.Thread(target=_send_now, args=(group, message), name="broadcast")
        sender.start()
        sender.join()
    except Exception:
        logger.exception("Broadcast to %s failed", group)


async def broadcast_async(group: str, message: dict) -> None:
    """``broadcast`` from a coroutine on the server's event loop: sent before returning,
    and, like ``broadcast``, a failure is logged, never raised (a broadcast is a courtesy
    to open pages; the state change already happened and pages catch up on reconnect)."""
    try:
        await get_channel_layer().group_send(group, message)
    except Exception:
        logger.exception("Broadcast to %s failed", group)


def broadcast_on_commit(group: str, message: dict) -> None:
    transaction.on_commit(partial(broadcast, group, message))


def _server_loop() -> asyncio.AbstractEventLoop | None:
    if _server is None:
        return None
    loop, pid = _server
    if pid != os.getpid() or not loop.is_running():
        return None
    return loop


def _send_now(group: str, message: dict) -> None:
    async_to_sync(broadcast_async)(group, message)


def _start_on_loop(loop: asyncio.AbstractEventLoop, group: str, message: dict) -> None:
    try:
        task = loop.create_task(get_channel_layer().group_send(group, message))
    except Exception:
        logger.exception("Broadcast to %s failed", group)
        return
    _in_flight.add(task)
    task.add_done_callback(partial(_finished, group))


def _finished(group: str, task: asyncio.Task) -> None:
    _in_flight.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("Broadcast to %s failed", group, exc_info=task.exception())
