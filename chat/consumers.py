"""Chat over a game page's own socket: a mixin for the hunt table and crossword game consumers.

A consumer sets ``chat_place`` (its room) when it connects, and a hunt table also
``chat_watch_place`` (its watchers' room). A page with a chat panel sends
``{"type": "chat.join"}``; a reader then gets the recent messages of each room they may
read (``chat.history``, naming its room) and each new one, except those of players they
muted. Pages without a panel, and old scripts, see no chat traffic. Writing is
``{"type": "chat", "text": ..., "room": ...}`` (the first room when none is named); a
refusal comes back as ``chat.refused``.
"""

from __future__ import annotations

from channels.db import database_sync_to_async

from config.errors import Refused

from . import rooms, selectors, services
from .rooms import Room


def _db(function):
    return database_sync_to_async(function, thread_sensitive=False)


class ChatMixin:
    """``chat_place``: the page's room; ``chat_watch_place``: a second room a reader may
    also have (a hunt table's watchers' chat). The rooms a socket opened are its own
    (``_chat_open``), so a consumer may use other names for its room factories."""

    chat_place: Room | None = None
    chat_watch_place: Room | None = None
    _chat_muted: frozenset[str] = frozenset()

    @property
    def _chat_open(self) -> dict[str, Room]:
        return self.__dict__.setdefault("_chat_rooms", {})

    async def on_chat_join(self, message):
        places = [place for place in (self.chat_place, self.chat_watch_place) if place is not None]
        if not places:
            raise Refused("There is no chat here.")
        for place in places:
            await self.chat_open(place)

    async def chat_open(self, room: Room) -> None:
        if room.name in self._chat_open:
            return
        opening = await _db(selectors.opening)(room, self.user)
        if opening is None:
            return
        if not self._chat_open:
            # Mutes are read once per socket, not once per message; a change to them is
            # announced on the reader's group (``chat_mutes``).
            await self.channel_layer.group_add(rooms.reader_group(self.user.pk), self.channel_name)
            self._chat_muted = await _db(selectors.muted_usernames)(self.user.pk)
        self._chat_open[room.name] = room
        if room.own_group:
            await self.channel_layer.group_add(room.group, self.channel_name)
        await self.send_json(opening)

    async def chat_resend(self) -> None:
        """Send the history again (messages may have been lost while the channel layer was away)."""
        for room in list(self._chat_open.values()):
            opening = await _db(selectors.opening)(room, self.user)
            if opening is not None:
                await self.send_json(opening)

    async def chat_leave(self, room: Room) -> None:
        """Stop reading ``room`` on this socket (its reader may no longer read it)."""
        if self._chat_open.pop(room.name, None) is not None and room.own_group:
            await self.channel_layer.group_discard(room.group, self.channel_name)

    async def chat_close(self) -> None:
        for room in self._chat_open.values():
            if room.own_group:
                await self.channel_layer.group_discard(room.group, self.channel_name)
        if self._chat_open:
            await self.channel_layer.group_discard(rooms.reader_group(self.user.pk), self.channel_name)

    async def chat_mutes(self, event):
        if self._chat_open:
            self._chat_muted = await _db(selectors.muted_usernames)(self.user.pk)

    async def on_chat(self, message):
        """Post in the room the message names (``room``), or in the first one opened."""
        if not self._chat_open:
            raise Refused("There is no chat here for you.")
        name = message.get("room")
        room = self._chat_open.get(name) if name else next(iter(self._chat_open.values()))
        if room is None:
            await self.send_json({"type": "chat.refused", "reason": "You are not in that chat."})
            return
        try:
            await _db(services.message_post)(room=room, user=self.user, text=message.get("text"))
        except Refused as refused:
            await self.send_json({"type": "chat.refused", "reason": refused.reason})

    async def chat_message(self, event):
        if event.get("room") not in self._chat_open:
            return
        if event["author"] in self._chat_muted:
            return
        await self.send_json(event)

    async def chat_hidden(self, event):
        if self._chat_open:
            await self.send_json(event)
