"""The site socket every page opens: my live notifications, and who is online for the
pages that show it.

Presence reaches only the sockets that watch it: a page listing players (the friends
page) asks to watch them (``presence.watch``), and hears ``presence.changed`` when one
comes or goes, at most once a second. Anonymous sockets record and hear nothing, so a
connect costs the same however many players are online.
"""

from __future__ import annotations

import asyncio
import time

from channels.db import database_sync_to_async

from config.errors import Refused
from config.realtime import user_group
from config.websocket import JsonMessageConsumer

from . import services
from .my_games import awaiting_count

# Players one socket may watch, and how often it is told that one of them came or went.
MAX_WATCHED = 200
CHANGES_EVERY_SECONDS = 1.0


class PresenceConsumer(JsonMessageConsumer):
    message_types = frozenset({"ping", "presence.watch"})

    async def connect(self):
        self.watching: list[str] = []
        self._told_at = float("-inf")
        self._telling: asyncio.TimerHandle | None = None
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            return
        await self.channel_layer.group_add(user_group(self.user.pk), self.channel_name)
        await database_sync_to_async(services.presence_connect)(user=self.user, channel_name=self.channel_name)
        count, unread, awaiting = await database_sync_to_async(_on_connect)(self.user)
        # A reconnecting page may have missed notifications: it resets its badge to this.
        await self.send_json({"type": "notification.count", "count": unread})
        await self.send_json({"type": "games.awaiting", "count": awaiting})
        await self.send_json({"type": "presence.count", "count": count})

    async def disconnect(self, code):
        if self._telling is not None:
            self._telling.cancel()
        for group in self.watching:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.user is not None and self.user.is_authenticated:
            await self.channel_layer.group_discard(user_group(self.user.pk), self.channel_name)
            await database_sync_to_async(services.presence_disconnect)(channel_name=self.channel_name)

    async def on_ping(self, message):
        if self.user is not None and self.user.is_authenticated:
            await database_sync_to_async(services.presence_touch)(channel_name=self.channel_name)
        await self.send_json({"type": "pong"})

    async def on_presence_watch(self, message):
        """Watch the players ``message["players"]`` (ids) instead of those watched before;
        answered by one ``presence.changed``, so the page catches up on what changed since
        it was drawn."""
        players = message.get("players")
        if (
            not isinstance(players, list)
            or len(players) > MAX_WATCHED
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in players)
        ):
            raise Refused(f"presence.watch takes a list of at most {MAX_WATCHED} player ids.")
        groups = sorted({services.presence_group(player) for player in players})
        for group in set(self.watching) - set(groups):
            await self.channel_layer.group_discard(group, self.channel_name)
        for group in set(groups) - set(self.watching):
            await self.channel_layer.group_add(group, self.channel_name)
        self.watching = groups
        await self.presence_changed({})

    async def presence_changed(self, event):
        """One of the watched players came or went: told now, or at the end of the second
        since the last telling, once for every change inside it."""
        if self._telling is not None:
            return
        wait = self._told_at + CHANGES_EVERY_SECONDS - time.monotonic()
        if wait <= 0:
            await self._tell()
        else:
            self._telling = asyncio.get_running_loop().call_later(wait, lambda: asyncio.ensure_future(self._tell()))

    async def _tell(self) -> None:
        self._telling = None
        self._told_at = time.monotonic()
        await self.send_json({"type": "presence.changed"})

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


def _on_connect(user) -> tuple[int, int, int]:
    """The header's figures for a (re)connecting page: players online, my unread
    notifications (those missed while away too), my games awaiting me."""
    unread = user.notifications.filter(read_at__isnull=True).count()
    return services.online_count(), unread, awaiting_count(user)
