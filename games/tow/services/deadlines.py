"""The deadline sweep: votes closed and forfeits for passed deadlines, reminders near them.

Both are idempotent: ``game_deadline`` re-checks the deadline under the game's row lock,
and a reminder clears the turn's ``remind_at`` as it is sent.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ..models import Game, Status
from . import notifications
from .moves import game_deadline


def games_deadlines_passed(*, now=None) -> int:
    """Close the vote or forfeit in every game whose deadline passed; return how many."""
    now = now or timezone.now()
    ids = list(Game.objects.filter(status=Status.ACTIVE, deadline__lte=now)
               .values_list("pk", flat=True))
    return sum(1 for game_id in ids if game_deadline(game_id=game_id, now=now) is not None)


def games_send_reminders(*, now=None) -> int:
    """Remind the player to move (or the voters yet to vote) once a turn, near the deadline."""
    now = now or timezone.now()
    ids = list(Game.objects.filter(status=Status.ACTIVE, remind_at__lte=now, deadline__gt=now)
               .values_list("pk", flat=True))
    return sum(1 for game_id in ids if _remind(game_id, now))


@transaction.atomic
def _remind(game_id: int, now) -> bool:
    game = Game.objects.select_for_update().get(pk=game_id)
    if (game.status != Status.ACTIVE or game.remind_at is None or game.remind_at > now
            or game.deadline is None or game.deadline <= now):
        return False
    game.remind_at = None
    game.save(update_fields=["remind_at"])
    if game.voting:
        from .. import selectors

        state = selectors.engine_state(game)
        waiting = [s for s in state.voters if state.pending.vote_of(s) is None]
        users = [seat.user for seat in game.seats.select_related("user").filter(index__in=waiting)]
    else:
        users = [game.seats.select_related("user").get(index=game.to_move).user]
    for user in users:
        if not user.is_bot:
            notifications.reminder(game, user=user, left=game.deadline - now)
    return True
