"""The deadline sweep: forfeits for missed deadlines, reminders near them.

Both are idempotent: a forfeit re-checks the deadline under the game's row lock, and a
reminder clears the turn's ``remind_at`` as it is sent, so a doubled or late beat tick
does nothing twice.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ..models import Game, Status
from . import notifications
from .moves import game_forfeit


def games_forfeit_overdue(*, now=None) -> int:
    """Forfeit every seat whose deadline passed; return how many forfeited."""
    now = now or timezone.now()
    ids = list(Game.objects.filter(status=Status.ACTIVE, deadline__lte=now)
               .values_list("pk", flat=True))
    return sum(1 for game_id in ids if game_forfeit(game_id=game_id, now=now) is not None)


def games_send_reminders(*, now=None) -> int:
    """Remind each player to move when 20 % of the time per move is left, once a turn."""
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
    seat = game.seats.select_related("user").get(index=game.to_move)
    notifications.reminder(game, user=seat.user, left=game.deadline - now)
    return True
