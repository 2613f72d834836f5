"""A base for the site's JSON websocket consumers.

It owns what every consumer must do the same way: parse, bound and rate-limit client
messages, refuse the malformed ones with a reason (and log them), and keep one bad
message from closing the connection. Subclasses declare the message types they accept
and implement ``on_<type>(message)``.
"""

from __future__ import annotations

import asyncio
import enum
import json
import logging
import time

from channels.auth import AuthMiddleware
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware
from django.conf import settings
from django.utils.functional import empty

from config import loop_clients
from config.errors import Refused

logger = logging.getLogger("wordfall.websocket")


class CloseCode(enum.IntEnum):
    """Why the site closes a socket: codes of its own, in the range RFC 6455 leaves to
    applications (daphne's websocket library refuses the protocol's 1012 and 1013, logs a
    traceback and sends 1011 instead). Pages come back after any code but the last three.
    """

    RESYNC = 4012  # the channel layer lost Redis for a while: come back for the whole state
    BEHIND = 4013  # fell behind its events: come back for the whole state
    NOT_ALLOWED = 4401  # not signed in, or not allowed here
    NOT_FOUND = 4404  # no such game or table
    TOO_MANY_SOCKETS = 4429  # the player opened more sockets than allowed; this, the oldest, gives way


class _SessionReader(SessionMiddleware):
    """channels' session middleware without its wrapper around every send.

    The wrapper saves a changed session when an HTTP response starts. A socket sends no
    HTTP response and the site's sockets never change the session, yet every message
    sent went through the wrapper's checks of the lazy session.
    """

    async def __call__(self, scope, receive, send):
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def socket_auth(inner):
    """The cookie, the session (read) and the user, in the scope of the site's sockets."""
    return CookieMiddleware(_SessionReader(AuthMiddleware(inner)))


class OpenSockets:
    """Each signed-in player's open sockets, oldest first, across every web process.

    In server mode a sorted set per player in Redis (by opening time); in the embedded
    default, with one process, a dictionary. A socket's process that died leaves its
    entries behind: they are the oldest, so they are the first to give way, and they
    expire with the set a day after the player's last new socket.
    """

    def __init__(self) -> None:
        self._local: dict[int, dict[str, float]] = {}

    @staticmethod
    def _key(user_id: int) -> str:
        return f"{getattr(settings, 'CHANNEL_LAYER_PREFIX', '')}sockets:{user_id}"

    async def opened(self, user_id: int, channel: str) -> list[str]:
        """Count ``channel`` as open; returns the player's sockets beyond the cap, oldest first."""
        cap = settings.SOCKETS_PER_USER
        if not loop_clients.available():
            sockets = self._local.setdefault(user_id, {})
            sockets[channel] = time.time()
            over = sorted(sockets, key=sockets.get)[: max(0, len(sockets) - cap)]
            for name in over:
                del sockets[name]
            return over
        key = self._key(user_id)
        async with loop_clients.redis().pipeline(transaction=True) as pipe:
            pipe.zadd(key, {channel: time.time()})
            pipe.zrange(key, 0, -(cap + 1))
            pipe.zremrangebyrank(key, 0, -(cap + 1))
            pipe.expire(key, 86400)
            _, over, _, _ = await pipe.execute()
        return [name.decode() if isinstance(name, bytes) else name for name in over]

    async def closed(self, user_id: int, channel: str) -> None:
        if not loop_clients.available():
            self._local.get(user_id, {}).pop(channel, None)
            return
        await loop_clients.redis().zrem(self._key(user_id), channel)


open_sockets = OpenSockets()


class JsonMessageConsumer(AsyncWebsocketConsumer):
    """Accepts JSON objects ``{"type": ..., ...}`` whose type is in ``message_types``."""

    message_types: frozenset[str] = frozenset()
    max_message_bytes = 4096
    # Token bucket per connection: a burst of ``rate_burst`` messages, refilled at
    # ``rate_per_second``.
    rate_burst = 10
    rate_per_second = 4.0
    # Channel-layer events waiting behind a slow handler before the socket is closed.
    max_waiting_events = 200
    # A socket's refused messages are logged at most once in this many seconds, with the
    # count of those left out: one flooding client wrote hundreds of lines a second.
    refusal_log_seconds = 60.0

    async def websocket_connect(self, message):
        self._tokens = float(self.rate_burst)
        self._refilled_at = time.monotonic()
        self._refusal_logged_at: float | None = None
        self._refusals_unlogged = 0
        await super().websocket_connect(message)
        user = self.user
        if user is not None and user.is_authenticated:
            try:
                for oldest in await open_sockets.opened(user.pk, self.channel_name):
                    await self.channel_layer.send(oldest, {"type": "socket.displaced"})
            except Exception as error:  # Redis away: the socket works, uncounted
                logger.warning("Could not count the open sockets of user %s: %s", user.pk, error)

    async def websocket_disconnect(self, message):
        user = self.user
        if user is not None and user.is_authenticated:
            try:
                await open_sockets.closed(user.pk, self.channel_name)
            except Exception as error:
                logger.warning("Could not count the open sockets of user %s: %s", user.pk, error)
        await super().websocket_disconnect(message)

    async def socket_displaced(self, event):
        """The player opened more sockets than allowed and this is their oldest: closed
        with a code that tells the page to say why rather than come back."""
        await self.close(code=CloseCode.TOO_MANY_SOCKETS)

    async def __call__(self, scope, receive, send):
        """Hand the socket's messages to ``dispatch`` one at a time, in the order they came.

        This is what channels' ``AsyncConsumer.__call__`` does, with a cheaper loop than
        its ``await_many_dispatch``, which makes a new task and an ``asyncio.wait`` for
        every message; on a busy table that was about a tenth of the server's CPU. Here
        two long-lived tasks move the client's messages and the channel layer's into one
        queue. The channel layer's are read on while a handler runs, so a socket stuck
        behind a slow handler with ``max_waiting_events`` of them waiting is closed
        (``CloseCode.BEHIND``): its page reconnects and is sent its whole state, as
        after any loss. The client's own messages (its disconnect among them) are never
        dropped.
        """
        self.scope = scope
        self.base_send = send
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        inbox: asyncio.Queue = asyncio.Queue()
        overflowed = False

        async def carry(source, bounded: bool):
            nonlocal overflowed
            try:
                while True:
                    message = await source()
                    if bounded and inbox.qsize() >= self.max_waiting_events:
                        if not overflowed:
                            overflowed = True
                            logger.warning("Socket %s fell behind its events; closing it", self.scope.get("path"))
                            inbox.put_nowait(({"type": "socket.behind"}, None))
                        continue
                    inbox.put_nowait((message, None))
            except BaseException as error:
                if isinstance(error, asyncio.CancelledError) and asyncio.current_task().cancelling():
                    raise  # the socket is ending
                inbox.put_nowait((None, error))  # the consumer's own loop raises it and ends

        sources = [(receive, False)]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            sources.append((lambda: self.channel_layer.receive(self.channel_name), True))
        carriers = [asyncio.ensure_future(carry(source, bounded)) for source, bounded in sources]
        try:
            while True:
                message, error = await inbox.get()
                if error is not None:
                    raise error
                await self.dispatch(message)
        except StopConsumer:
            pass
        finally:
            for carrier in carriers:
                carrier.cancel()
            await asyncio.gather(*carriers, return_exceptions=True)

    async def socket_behind(self, message):
        await self.close(code=CloseCode.BEHIND)

    async def close(self, code=None, reason=None):
        """Close the socket; ``code`` is None (1000) or one of ``CloseCode``."""
        if code is not None and code is not True and not 4000 <= code <= 4999:
            raise ValueError(f"close code {code} is not one the site may send (1000 or 4000-4999)")
        await super().close(code=int(code) if code not in (None, True) else code, reason=reason)

    @property
    def user(self):
        user = self.scope.get("user")
        # AuthMiddleware has loaded the user before the socket starts: the lazy proxy in
        # front of it would be asked again for every attribute of every message.
        wrapped = getattr(user, "_wrapped", empty)
        return user if wrapped is empty else wrapped

    def _take_token(self) -> bool:
        now = time.monotonic()
        self._tokens = min(self.rate_burst, self._tokens + (now - self._refilled_at) * self.rate_per_second)
        self._refilled_at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    async def layer_reconnected(self, event):
        """The channel layer lost Redis for a while: this page may have missed messages.

        Closing with ``CloseCode.RESYNC`` makes the page reconnect, and every consumer
        sends the whole state of its page on connect. A consumer that can resend its state
        in place overrides this.
        """
        await self.close(code=CloseCode.RESYNC)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message = self._parse(text_data, bytes_data)
            handler = getattr(self, "on_" + message["type"].replace(".", "_"))
            await handler(message)
        except Refused as refused:
            # A use case's refusal, or a malformed message: the player reads the reason.
            self._log_refusal(refused.reason)
            await self.send_json({"type": "error", "reason": refused.reason})
        except Exception:
            logger.exception("Websocket handler failed on %s for %s", self.scope.get("path"), self._who())
            await self.send_json({"type": "error", "reason": "Something went wrong; please try again."})

    def _log_refusal(self, reason: str) -> None:
        now = time.monotonic()
        if self._refusal_logged_at is not None and now - self._refusal_logged_at < self.refusal_log_seconds:
            self._refusals_unlogged += 1
            return
        left_out = self._refusals_unlogged
        self._refusal_logged_at, self._refusals_unlogged = now, 0
        logger.warning(
            "Refused websocket message on %s from %s: %s%s",
            self.scope.get("path"),
            self._who(),
            reason,
            f" ({left_out} more refused since the last logged)" if left_out else "",
        )

    def _parse(self, text_data, bytes_data) -> dict:
        if not self._take_token():
            raise Refused("Too many messages; slow down.")
        if text_data is None:
            raise Refused("Messages must be JSON text.")
        if len(text_data.encode()) > self.max_message_bytes:
            raise Refused("Message too large.")
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):
            # Deep nesting exhausts the parser's stack; such a message is malformed too.
            raise Refused("Messages must be JSON text.") from None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise Refused("A message is a JSON object with a type.")
        if message["type"] not in self.message_types:
            raise Refused(f"Unknown message type: {message['type'][:40]}")
        return message

    def _who(self) -> str:
        # No address: these lines reach error reports, which carry no personal data; the
        # socket's id on every log line ties them to its connection.
        user = self.user
        if user is not None and user.is_authenticated:
            return f"user {user.pk}"
        return "an anonymous visitor"

    async def send_json(self, content) -> None:
        await self.send(text_data=json.dumps(content, separators=(",", ":")))

    async def send_encoded(self, event) -> None:
        """Send a group event made by ``config.realtime.encoded``: its text is already JSON."""
        await self.send(text_data=event["text"])
