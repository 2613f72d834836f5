"""Chat over a game page's own socket: a mixin for the hunt table and crossword game consumers.

A consumer sets ``chat_place`` (its room) when it connects. A page with a chat panel
sends ``{"type": "chat.join"}``; a reader then gets the room's recent messages
(``chat.history``) and each new one, except those of players they muted. Pages without
a panel, and old scripts, see no chat traffic. Writing is ``{"type": "chat", "text":
...}``; a refusal comes back as ``chat.refused``.
"""

from __future__ import annotations

from channels.db import database_sync_to_async

from config.errors import Refused

from . import selectors, services
from .rooms import Room


def _db(function):
    return database_sync_to_async(function, thread_sensitive=False)


class ChatMixin:
    chat_place: Room | None = None
    chat_room: Room | None = None

    async def on_chat_join(self, message):
        if self.chat_place is None:
            raise Refused("There is no chat here.")
        await self.chat_open(self.chat_place)

    async def chat_open(self, room: Room) -> None:
        if self.chat_room is not None:
            return
        opening = await _db(selectors.opening)(room, self.user)
        if opening is None:
            return
        self.chat_room = room
        if room.players_only:
            await self.channel_layer.group_add(room.group, self.channel_name)
        await self.send_json(opening)

    async def chat_resend(self) -> None:
        """Send the history again (messages may have been lost while the channel layer was away)."""
        if self.chat_room is not None:
            opening = await _db(selectors.opening)(self.chat_room, self.user)
            if opening is not None:
                await self.send_json(opening)

    async def chat_close(self) -> None:
        if self.chat_room is not None and self.chat_room.players_only:
            await self.channel_layer.group_discard(self.chat_room.group, self.channel_name)

    async def on_chat(self, message):
        if self.chat_room is None:
            raise Refused("There is no chat here for you.")
        try:
            await _db(services.message_post)(room=self.chat_room, user=self.user, text=message.get("text"))
        except Refused as refused:
            await self.send_json({"type": "chat.refused", "reason": refused.reason})

    async def chat_message(self, event):
        if self.chat_room is None or event.get("room") != self.chat_room.name:
            return
        if event["author"] != self.user.username and await _db(selectors.hides)(self.user.pk, event["author"]):
            return
        await self.send_json(event)

    async def chat_hidden(self, event):
        if self.chat_room is not None:
            await self.send_json(event)
