"""The site socket every page opens: who is online, and my live notifications."""

from __future__ import annotations

from channels.db import database_sync_to_async

from config.realtime import user_group
from config.websocket import JsonMessageConsumer

from . import services
from .my_games import awaiting_count


class PresenceConsumer(JsonMessageConsumer):
    message_types = frozenset({"ping"})

    async def connect(self):
        await self.channel_layer.group_add(services.PRESENCE_GROUP, self.channel_name)
        await self.accept()
        if self.user is not None and self.user.is_authenticated:
            await self.channel_layer.group_add(user_group(self.user.pk), self.channel_name)
            await database_sync_to_async(services.presence_connect)(user=self.user, channel_name=self.channel_name)
            # A reconnecting page may have missed notifications: it resets its badge to this.
            count = await database_sync_to_async(_unread_count)(self.user)
            await self.send_json({"type": "notification.count", "count": count})
            awaiting = await database_sync_to_async(awaiting_count)(self.user)
            await self.send_json({"type": "games.awaiting", "count": awaiting})
        else:
            await self.send_json(await database_sync_to_async(services.presence_message)())

    async def disconnect(self, code):
        await self.channel_layer.group_discard(services.PRESENCE_GROUP, self.channel_name)
        if self.user is not None and self.user.is_authenticated:
            await self.channel_layer.group_discard(user_group(self.user.pk), self.channel_name)
            await database_sync_to_async(services.presence_disconnect)(channel_name=self.channel_name)

    async def on_ping(self, message):
        if self.user is not None and self.user.is_authenticated:
            await database_sync_to_async(services.presence_touch)(channel_name=self.channel_name)
        await self.send_json({"type": "pong"})

    async def presence_update(self, event):
        await self.send_json({k: event[k] for k in ("type", "count", "players")})

    async def notification_new(self, event):
        await self.send_json(event)

    async def notification_count(self, event):
        await self.send_json({"type": "notification.count", "count": event["count"]})

    async def games_changed(self, event):
        """One of my games changed: the page hears it with my new badge count, counted here
        once per socket, so the page asks for nothing more. The count only reads (one
        query per game app), so it runs in a worker thread of its own: every event reaches
        every open tab of every seated player, and the one shared thread would queue them
        behind all the other sockets' work (Channels still closes old connections there
        before each handler, a short call)."""
        awaiting = await database_sync_to_async(awaiting_count, thread_sensitive=False)(self.user)
        await self.send_json(
            {"type": "games.changed", "kind": event.get("kind"), "game": event.get("game"), "awaiting": awaiting}
        )


def _unread_count(user) -> int:
    return user.notifications.filter(read_at__isnull=True).count()
