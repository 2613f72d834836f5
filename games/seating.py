"""Seats and turn clocks shared by the turn-based games (Word Grid, Wordgame and TOW).

Each game app keeps its own models, rules and notifications; what a seat and a move
deadline mean is the same in all of them and is written here once:

- ``locked_waiting`` / ``take_seat`` / ``cancel_waiting``: a game waits for its seats to
  be filled and accepted (invitations and open seeks), or is withdrawn or declined;
- ``copy_seats``: a rematch seats the same players, the asker and bots accepted;
- ``sweep_deadlines`` / ``sweep_reminders``: the beat's idempotent deadline work.

The models need ``status`` (``Status`` below), ``is_open_seek``, ``created_by``,
``finished_at``, ``deadline`` and ``remind_at``, and a ``seats`` relation whose rows have
``index``, ``user`` and ``accepted``. A refusal raises ``config.errors.Refused``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.utils import timezone

from config.errors import Refused
from games.models import Status


def locked_waiting(model, game_id: int):
    """The game's row, locked, if it is still waiting for players; else Refused."""
    try:
        game = model.objects.select_for_update().get(pk=game_id)
    except model.DoesNotExist:
        raise Refused("No such game.", status=404) from None
    if game.status != Status.WAITING:
        raise Refused("This game has already started or was cancelled.", status=409)
    return game


def take_seat(game, player, *, taker_problem: Callable[[object], str | None] | None = None) -> bool:
    """Accept ``player``'s invitation or give them a free seat of an open seek.

    ``taker_problem(player)`` may refuse a stranger taking an open seat (a rating range,
    say). Returns True when every seat is now filled and accepted: the game can start.
    """
    seats = list(game.seats.all())
    mine = next((s for s in seats if s.user_id == player.pk), None)
    if mine is not None:
        if mine.accepted:
            raise Refused("You have already joined this game.", status=409)
        mine.accepted = True
        mine.save(update_fields=["accepted"])
    else:
        if player.is_bot:
            raise Refused("Bots cannot take seats yet.", status=403)
        free = next((s for s in seats if s.user_id is None), None)
        if free is None or not game.is_open_seek:
            raise Refused("There is no seat for you in this game.", status=403)
        problem = taker_problem(player) if taker_problem else None
        if problem:
            raise Refused(problem, status=403)
        free.user = player
        free.accepted = True
        free.save(update_fields=["user", "accepted"])
    return all(s.user_id is not None and s.accepted for s in game.seats.all())


def check_invited(game, player) -> None:
    """Refuse a decline from anyone but an invitee who has not accepted: declining cancels
    the game for everyone, which is not for a player who already joined it."""
    seat = game.seats.filter(user=player).first()
    if seat is None:
        raise Refused("You are not invited to this game.", status=403)
    if game.created_by_id == player.pk:
        raise Refused("You created this game: withdraw it instead of declining.", status=409)
    if seat.accepted:
        raise Refused("You have already joined this game, so it can no longer be declined.", status=409)


def check_creator(game, player) -> None:
    if game.created_by_id != player.pk:
        raise Refused("Only the player who created the game can withdraw it.", status=403)


def cancel_waiting(game, *, by, tell: Callable) -> None:
    """Cancel a game that has not started; ``tell(game, user=, by=)`` every other seat."""
    game.status = Status.CANCELLED
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "finished_at"])
    for seat in game.seats.exclude(user=None).exclude(user=by).select_related("user"):
        tell(game, user=seat.user, by=by)


def copy_seats(seats, rematch, seat_model, *, asker, offer: Callable) -> bool:
    """Seat a rematch like ``seats``: the asker and bots accepted, everyone else offered
    it through ``offer(rematch, user=, by=)``. Returns True if all have accepted."""
    everyone = True
    for seat in seats:
        is_bot = seat.user is not None and seat.user.is_bot
        accepted = seat.user_id == asker.pk or is_bot
        seat_model.objects.create(game=rematch, index=seat.index, user=seat.user, accepted=accepted)
        if not accepted:
            everyone = False
            offer(rematch, user=seat.user, by=asker)
    return everyone


def sweep_deadlines(model, settle: Callable, *, now=None) -> int:
    """Call ``settle(game_id=, now=)`` for every active game whose deadline passed; it
    re-checks under its own row lock (so a doubled tick does nothing) and returns None
    when there was nothing to do. Returns how many settled."""
    now = now or timezone.now()
    ids = list(model.objects.filter(status=Status.ACTIVE, deadline__lte=now).values_list("pk", flat=True))
    return sum(1 for game_id in ids if settle(game_id=game_id, now=now) is not None)


def sweep_reminders(model, remind: Callable, *, now=None) -> int:
    """Once a turn, when ``remind_at`` has come and the deadline has not, clear it and
    call ``remind(game, now)`` in the same transaction. Returns how many were sent."""
    now = now or timezone.now()
    ids = list(
        model.objects.filter(status=Status.ACTIVE, remind_at__lte=now, deadline__gt=now).values_list("pk", flat=True)
    )
    sent = 0
    for game_id in ids:
        with transaction.atomic():
            game = model.objects.select_for_update().get(pk=game_id)
            if (
                game.status != Status.ACTIVE
                or game.remind_at is None
                or game.remind_at > now
                or game.deadline is None
                or game.deadline <= now
            ):
                continue
            game.remind_at = None
            game.save(update_fields=["remind_at"])
            remind(game, now)
            sent += 1
    return sent
