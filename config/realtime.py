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

from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

# Sends handed to the server's event loop, kept referenced until they finish.
_in_flight: set[asyncio.Task] = set()
# The event loop of the ASGI server in this process, with the process it belongs to.
_server: tuple[asyncio.AbstractEventLoop, int] | None = None
# Outside a server (Celery, shell, tests): one event loop in a thread of its own sends
# every broadcast of the process, with the process it belongs to (a forked child makes
# its own). A loop per send (asgiref's async_to_sync) made a thread, a loop and a Redis
# connection for each one: 5 ms of the process's time per broadcast, six to a move.
_sender: tuple[asyncio.AbstractEventLoop, threading.Thread, int] | None = None
_sender_lock = threading.Lock()


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
    moves on. Elsewhere (Celery, shell, tests) it is sent before returning, by the
    process's one sending loop.

    It never raises: a broadcast is a courtesy to open pages, the change it announces is
    already committed, and pages catch up when the channel layer or their socket comes
    back (``config.channel_layers.RedisChannelLayer``), so a failure is only logged.
    """
    broadcast_many([(group, message)])


def broadcast_many(sends: list[tuple[str, dict]]) -> None:
    """``broadcast`` of each (group, message) in ``sends``, in order, handed over and
    sent together: one round trip to Redis for them all instead of one each (a move tells
    its game's group and every player's own)."""
    if not sends:
        return
    try:
        loop = _server_loop()
        if loop is not None:
            loop.call_soon_threadsafe(_start_on_loop, loop, sends)
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            _send_now(sends)
            return
        # Synchronous code on a thread that runs a loop of its own (a test driving a
        # browser through Playwright's sync API) cannot block on that loop; a helper
        # thread can.
        sender = threading.Thread(target=_send_now, args=(sends,), name="broadcast")
        sender.start()
        sender.join()
    except Exception:
        logger.exception("Broadcast to %s failed", _groups(sends))


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


def broadcast_many_on_commit(sends: list[tuple[str, dict]]) -> None:
    transaction.on_commit(partial(broadcast_many, list(sends)))


def _groups(sends: list[tuple[str, dict]]) -> str:
    return ", ".join(group for group, _ in sends)


async def _group_send_many(sends: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    many = getattr(layer, "group_send_many", None)
    if many is not None:
        await many(sends)
        return
    for group, message in sends:
        await layer.group_send(group, message)


async def _send_logged(sends: list[tuple[str, dict]]) -> None:
    try:
        await _group_send_many(sends)
    except Exception:
        logger.exception("Broadcast to %s failed", _groups(sends))


def _server_loop() -> asyncio.AbstractEventLoop | None:
    if _server is None:
        return None
    loop, pid = _server
    if pid != os.getpid() or not loop.is_running():
        return None
    return loop


def _sender_loop() -> asyncio.AbstractEventLoop:
    global _sender
    with _sender_lock:
        if _sender is None or _sender[2] != os.getpid() or not _sender[1].is_alive():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="broadcasts", daemon=True)
            thread.start()
            _sender = (loop, thread, os.getpid())
        return _sender[0]


def _send_now(sends: list[tuple[str, dict]]) -> None:
    asyncio.run_coroutine_threadsafe(_send_logged(sends), _sender_loop()).result()


def _start_on_loop(loop: asyncio.AbstractEventLoop, sends: list[tuple[str, dict]]) -> None:
    try:
        task = loop.create_task(_group_send_many(sends))
    except Exception:
        logger.exception("Broadcast to %s failed", _groups(sends))
        return
    _in_flight.add(task)
    task.add_done_callback(partial(_finished, _groups(sends)))


def _finished(groups: str, task: asyncio.Task) -> None:
    _in_flight.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("Broadcast to %s failed", groups, exc_info=task.exception())
