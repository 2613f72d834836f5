"""The crossword game page's socket (``games.consumers``) over Word Grid and Wordgame games."""

from __future__ import annotations

from games.consumers import TurnGameConsumer

from .models import Game


class GameConsumer(TurnGameConsumer):
    game_model = Game
    room_kind = "crossword"
