"""Everything crossword services tell the outside world: ``games.notifications``, for
the kind ``crossword`` (its notices are ``crossword.<what>``), and the open pages'
reload when a finished game's analysis is ready.
"""

from __future__ import annotations

from games.notifications import (
    LIVE_DEADLINE_SECONDS,
    cancelled,
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
    "forfeited",
    "game_changed",
    "game_over",
    "invitation",
    "rematch_offer",
    "reminder",
    "started",
    "your_turn",
]
