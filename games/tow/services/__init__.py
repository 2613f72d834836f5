"""TOW use cases: the only code that changes TOW games.

Each function is one transaction; those that change a game lock its row first
(``select_for_update``). Refusals raise ``Refused`` with a player-facing reason and
change nothing. Broadcasts and notifications go out after commit through
``games.notifications``, every turn-based game's, named here as ``notifications`` for
code that asks each game app for its own (``friends.services``).
"""

from games import notifications

from .errors import Refused
from .games import game_accept, game_arrange, game_cancel, game_create, game_decline, game_rematch
from .moves import game_deadline, game_pass, game_play, game_resign, game_swap, game_vote

__all__ = [
    "Refused",
    "game_accept",
    "game_arrange",
    "game_cancel",
    "game_create",
    "game_deadline",
    "game_decline",
    "game_pass",
    "game_play",
    "game_rematch",
    "game_resign",
    "game_swap",
    "game_vote",
    "notifications",
]
