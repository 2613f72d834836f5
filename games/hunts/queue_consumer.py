"""The ranked queue socket: a player's live queue status in the lobby, and its keep-alive.

Thin: it reads the status, renders it, and passes pings and cancels to the services.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils import timezone

from config.websocket import JsonMessageConsumer
from games.hunts import services
from games.hunts.broadcasts import QUEUE_COUNTS_GROUP, queue_group
from games.hunts.services import matchmaking


def _status_message(user) -> dict:
    panel = matchmaking.ranked_panel(user)
    status = panel["status"]
    html = render_to_string("hunts/_ranked.html", panel)
    return {
        "type": "queue.status",
        "state": status["state"],
        "url": status.get("url"),
        "html": html,
        "server_now": int(timezone.now().timestamp() * 1000),
    }


class QueueConsumer(JsonMessageConsumer):
    """``/ws/hunts/queue/``: every pool's waiting count for anyone; a player's own status.

    An open socket keeps its player's queue place: the page pings, and a player silent
    for ``matchmaking.GRACE`` is dropped by the next matcher pass.
    """

    message_types = frozenset({"ping", "cancel", "status"})

    async def connect(self):
        await self.accept()
        self.groups_joined = [QUEUE_COUNTS_GROUP]
        if self.user is not None and self.user.is_authenticated:
            self.groups_joined.append(queue_group(self.user.pk))
            await database_sync_to_async(services.queue_touch)(user=self.user)
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.send_json(
            {"type": "queue.counts", "counts": await database_sync_to_async(matchmaking.queue_counts)()}
        )
        await self._send_status()

    async def disconnect(self, code):
        for group in getattr(self, "groups_joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def _send_status(self):
        await self.send_json(await database_sync_to_async(_status_message)(self.user))

    async def on_ping(self, message):
        await database_sync_to_async(services.queue_touch)(user=self.user)
        await self.send_json({"type": "pong"})

    async def on_cancel(self, message):
        await database_sync_to_async(services.queue_cancel)(user=self.user)

    async def on_status(self, message):
        """The status read now. The page asks after a click's answer has replaced its
        panel: a status this socket read before the click (its first, sent on connect)
        may arrive after that answer, and the click's own change may have been published
        before this socket's subscription took, so the page would be left showing the
        old one."""
        await self._send_status()

    # -- from the services -----------------------------------------------------------

    async def queue_changed(self, event):
        await self._send_status()

    async def queue_counts(self, event):
        await self.send_json(event)

    async def queue_matched(self, event):
        await self.send_json(event)
