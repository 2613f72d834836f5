"""A base for the site's JSON websocket consumers.

It owns what every consumer must do the same way: parse, bound and rate-limit client
messages, refuse the malformed ones with a reason (and log them), and keep one bad
message from closing the connection. Subclasses declare the message types they accept
and implement ``on_<type>(message)``.
"""

from __future__ import annotations

import json
import logging
import time

from channels.generic.websocket import AsyncWebsocketConsumer

from config.errors import Refused

logger = logging.getLogger("wordfall.websocket")


class JsonMessageConsumer(AsyncWebsocketConsumer):
    """Accepts JSON objects ``{"type": ..., ...}`` whose type is in ``message_types``."""

    message_types: frozenset[str] = frozenset()
    max_message_bytes = 4096
    # Token bucket per connection: a burst of ``rate_burst`` messages, refilled at
    # ``rate_per_second``.
    rate_burst = 10
    rate_per_second = 4.0

    async def websocket_connect(self, message):
        self._tokens = float(self.rate_burst)
        self._refilled_at = time.monotonic()
        await super().websocket_connect(message)

    @property
    def user(self):
        return self.scope.get("user")

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
