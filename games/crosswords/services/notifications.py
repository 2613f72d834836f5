"""Everything crossword services tell the outside world: ``games.notifications``, whose
``KINDS["crosswords"]`` says what is Word Grid's and Wordgame's own (the kinds' prefix
``crossword.``, a bot's turn, the live deadline task, the analysis of a finished game).
"""

from __future__ import annotations

from games.notifications import (
    LIVE_DEADLINE_SECONDS,
    cancelled,
    deadline_set,
    forfeited,
    game_changed,
    game_over,
    invitation,
    rematch_offer,
    reminder,
    started,
    your_turn,
)
from games.notifications import reload_pages as analysis_ready  # open pages reload to show it

__all__ = [
    "LIVE_DEADLINE_SECONDS",
    "analysis_ready",
    "cancelled",
    "deadline_set",
    "forfeited",
    "game_changed",
    "game_over",
    "invitation",
    "rematch_offer",
    "reminder",
    "started",
    "your_turn",
]
