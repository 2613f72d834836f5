"""The TOW game page's socket: tells every open page that the game moved on.

Messages carry only the new move count; each page reloads its own view over HTTP, so
what a player may see (their rack, their vote) is decided in one place.
"""

from __future__ import annotations

from channels.db import database_sync_to_async

from chat.rooms import tow_room
from games.crosswords.consumers import GameConsumer as CrosswordGameConsumer

from .models import Game


@database_sync_to_async
def _game_group(game_id: int):
    game = Game.objects.filter(pk=game_id).only("pk", "move_count", "status").first()
    return (game.group_name, game.move_count, game.status) if game else None


class GameConsumer(CrosswordGameConsumer):
    """Word Grid's game socket (ping, ``game.moved``) over TOW's games."""

    async def connect(self):
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=4401)
            return
        found = await _game_group(int(self.scope["url_route"]["kwargs"]["game_id"]))
        if found is None:
            await self.close(code=4404)
            return
        self.group, move_count, status = found
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "hello", "move_count": move_count, "status": status})
        self.chat_place = tow_room(int(self.scope["url_route"]["kwargs"]["game_id"]))
