"""Crossword use cases: the only code that changes crossword games.

Each function is one transaction; those that change a game lock its row first
(``select_for_update``). Refusals raise ``Refused`` with a player-facing reason and
change nothing. Broadcasts and notifications go out after commit (``notifications``).
"""

from .errors import Refused
from .games import game_accept, game_arrange, game_cancel, game_create, game_decline, game_rematch
from .moves import game_forfeit, game_pass, game_play, game_resign, game_swap

__all__ = [
    "Refused",
    "game_accept",
    "game_arrange",
    "game_cancel",
    "game_create",
    "game_decline",
    "game_forfeit",
    "game_pass",
    "game_play",
    "game_rematch",
    "game_resign",
    "game_swap",
]
