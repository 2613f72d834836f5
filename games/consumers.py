"""The game page's socket of the turn-based games: tells every open page that the game
moved on, and carries the game's chat.

Messages carry no racks or bag, only the new move count; each page then reloads its
own view of the game over HTTP, so what a player may see (their rack, their vote) is
decided in one place. Each game app names its model and its chat room.
"""

from __future__ import annotations

from channels.db import database_sync_to_async

from chat.consumers import ChatMixin
from chat.rooms import Room
from config.websocket import CloseCode, JsonMessageConsumer


@database_sync_to_async
def _game_moves(model, game_id: int) -> tuple[int, str] | None:
    return model.objects.filter(pk=game_id).values_list("move_count", "status").first()


class TurnGameConsumer(ChatMixin, JsonMessageConsumer):
    """``game_model``: the app's game (a ``games.models.TurnGame``); ``room_kind``: the code
    of its chat rooms' kind (``chat.rooms``, registered with its game kind)."""

    game_model = None
    room_kind = ""
    message_types = frozenset({"ping", "chat", "chat.join"})

    async def connect(self):
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CloseCode.NOT_ALLOWED)
            return
        game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        # In the group before the game is read: a move committed in between then reaches
        # this page as "moved" or in "hello", never in neither.
        self.group = self.game_model.group_of(game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        found = await _game_moves(self.game_model, game_id)
        if found is None:
            await self.close(code=CloseCode.NOT_FOUND)
            return
        move_count, status = found
        await self.accept()
        await self.send_json({"type": "hello", "move_count": move_count, "status": status})
        self.chat_place = Room(self.room_kind, game_id)

    async def disconnect(self, code):
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.chat_close()

    async def on_ping(self, message):
        await self.send_json({"type": "pong"})

    async def game_moved(self, event):
        await self.send_json({"type": "moved", "move_count": event["move_count"], "status": event["status"]})
