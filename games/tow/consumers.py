"""The TOW game page's socket (``games.consumers``) over TOW games."""

from __future__ import annotations

from games.consumers import TurnGameConsumer

from .models import Game


class GameConsumer(TurnGameConsumer):
    game_model = Game
    room_kind = "tow"
