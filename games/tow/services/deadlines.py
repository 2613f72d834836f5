"""The deadline sweep: votes closed and forfeits for passed deadlines, reminders near them.

Both are Word Grid's sweeps (``games.seating``) over TOW games: ``game_deadline``
re-checks the deadline under the game's row lock, and a reminder clears the turn's
``remind_at`` as it is sent, so a doubled or late beat tick does nothing twice.
"""

from __future__ import annotations

from games import notifications, seating

from .. import selectors
from ..models import Game
from .moves import game_deadline


def games_deadlines_passed(*, now=None) -> int:
    """Close the vote or forfeit in every game whose deadline passed; return how many."""
    return seating.sweep_deadlines(Game, game_deadline, now=now)


def games_send_reminders(*, now=None) -> int:
    """Remind the player to move (or the voters yet to vote) once a turn, near the deadline."""
    return seating.sweep_reminders(Game, _remind, now=now)


def _remind(game: Game, now) -> None:
    if game.voting:
        state = selectors.engine_state(game)
        waiting = [s for s in state.voters if state.pending.vote_of(s) is None]
        users = [seat.user for seat in game.seats.select_related("user").filter(index__in=waiting)]
    else:
        users = [game.seats.select_related("user").get(index=game.to_move).user]
    for user in users:
        if not user.is_bot:
            notifications.reminder(game, user=user, left=game.deadline - now)
