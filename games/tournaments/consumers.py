"""An event page's socket: its standings, live, for players and watchers alike.

The standings are rendered once per change by whichever process made it and sent to the
event's group as one message (``broadcasts.standings_changed``); the socket forwards it
as it is, so a change costs the same queries for 500 watchers as for 5.
"""

from __future__ import annotations

from channels.db import database_sync_to_async

from config.websocket import CloseCode, JsonMessageConsumer

from .broadcasts import standings_message
from .models import Tournament


@database_sync_to_async
def _group(tournament_id: int) -> str | None:
    tournament = Tournament.objects.filter(pk=tournament_id).only("pk").first()
    return tournament.group_name if tournament else None


class TournamentConsumer(JsonMessageConsumer):
    """``/ws/tournaments/<id>/``: the standings on connect and after every change."""

    message_types = frozenset({"ping"})

    async def connect(self):
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.group = await _group(self.tournament_id)
        if self.group is None:
            await self.close(code=CloseCode.NOT_FOUND)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json(await database_sync_to_async(standings_message)(self.tournament_id))

    async def disconnect(self, code):
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def on_ping(self, message):
        await self.send_json({"type": "pong"})

    async def tournament_standings(self, event):
        await self.send(text_data=event["text"])
