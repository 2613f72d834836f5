"""The deadline sweep: forfeits for missed deadlines, reminders near them.

Both are idempotent: a forfeit re-checks the deadline under the game's row lock, and a
reminder clears the turn's ``remind_at`` as it is sent, so a doubled or late beat tick
does nothing twice.
"""

from __future__ import annotations

from games import seating

from ..models import Game
from . import notifications
from .moves import game_forfeit


def games_forfeit_overdue(*, now=None) -> int:
    """Forfeit every seat whose deadline passed; return how many forfeited."""
    return seating.sweep_deadlines(Game, game_forfeit, now=now)


def games_send_reminders(*, now=None) -> int:
    """Remind each player to move when 20 % of the time per move is left, once a turn."""
    return seating.sweep_reminders(Game, _remind, now=now)


def _remind(game: Game, now) -> None:
    seat = game.seats.select_related("user").get(index=game.to_move)
    notifications.reminder(game, user=seat.user, left=game.deadline - now)
