"""A base for the site's JSON websocket consumers.

It owns what every consumer must do the same way: parse, bound and rate-limit client
messages, refuse the malformed ones with a reason (and log them), and keep one bad
message from closing the connection. Subclasses declare the message types they accept
and implement ``on_<type>(message)``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time

from channels.auth import AuthMiddleware
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware
from django.utils.functional import empty

from config.errors import Refused

logger = logging.getLogger("wordfall.websocket")


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

    async def websocket_connect(self, message):
        self._tokens = float(self.rate_burst)
        self._refilled_at = time.monotonic()
        await super().websocket_connect(message)

    async def __call__(self, scope, receive, send):
        """Hand the socket's messages to ``dispatch`` one at a time, in the order they came.

        This is what channels' ``AsyncConsumer.__call__`` does, with a cheaper loop than
        its ``await_many_dispatch``, which makes a new task and an ``asyncio.wait`` for
        every message; on a busy table that was about a tenth of the server's CPU. Here
        two long-lived tasks move the client's messages and the channel layer's into one
        queue. The channel layer's are read on while a handler runs, so a socket stuck
        behind a slow handler with ``max_waiting_events`` of them waiting is closed
        (1013, try again later): its page reconnects and is sent its whole state, as
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
        await self.close(code=1013)

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

        Closing with 1012 (service restart) makes the page reconnect, and every consumer
        sends the whole state of its page on connect. A consumer that can resend its state
        in place overrides this.
        """
        await self.close(code=1012)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message = self._parse(text_data, bytes_data)
            handler = getattr(self, "on_" + message["type"].replace(".", "_"))
            await handler(message)
        except Refused as refused:
            # A use case's refusal, or a malformed message: the player reads the reason.
            logger.warning(
                "Refused websocket message on %s from %s: %s",
                self.scope.get("path"),
                self._who(),
                refused.reason,
            )
            await self.send_json({"type": "error", "reason": refused.reason})
        except Exception:
            logger.exception("Websocket handler failed on %s for %s", self.scope.get("path"), self._who())
            await self.send_json({"type": "error", "reason": "Something went wrong; please try again."})

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
        user = self.user
        if user is not None and user.is_authenticated:
            return f"user {user.pk}"
        client = self.scope.get("client") or ("?", 0)
        return f"anonymous {client[0]}"

    async def send_json(self, content) -> None:
        await self.send(text_data=json.dumps(content, separators=(",", ":")))

    async def send_encoded(self, event) -> None:
        """Send a group event made by ``config.realtime.encoded``: its text is already JSON."""
        await self.send(text_data=event["text"])
