"""What TOW tells the outside world is ``games.notifications`` (``KINDS["tow"]`` says what
is TOW's own); TOW's services call it directly, and it is named here too for code that
asks each game app for its notifications (``friends.services``).
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
    vote_needed,
    vote_result,
    your_turn,
)

__all__ = [
    "LIVE_DEADLINE_SECONDS",
    "cancelled",
    "deadline_set",
    "forfeited",
    "game_changed",
    "game_over",
    "invitation",
    "rematch_offer",
    "reminder",
    "started",
    "vote_needed",
    "vote_result",
    "your_turn",
]
