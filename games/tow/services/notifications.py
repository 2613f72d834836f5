"""Everything TOW services tell the outside world: ``games.notifications``, whose
``KINDS["tow"]`` says what is TOW's own (the kinds' prefix ``tow.``, the first-player
draw, a bot's turn and vote, the live deadline task). Votes to cast and their results
are told the same way as turns.
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
