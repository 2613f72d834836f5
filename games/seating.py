"""Seats and turn clocks shared by the turn-based games (Word Grid, Wordgame and TOW).

Each game app keeps its own models, rules and notifications; what a seat and a move
deadline mean is the same in all of them and is written here once:

- ``locked_waiting`` / ``take_seat`` / ``accept`` / ``cancel_waiting``: a game waits for its seats to
  be filled and accepted (invitations and open seeks), or is cancelled (``decline``,
  ``withdraw``);
- ``check_invitees`` / ``seat_players``: a new game's seats, its creator first;
- ``start``: the seats are filled: the clock starts and everyone is told;
- ``offer_rematch`` (with ``copy_seats``): the next game of a series, the same players
  seated, the asker and bots accepted;
- ``locked_game`` / ``seated`` / ``check_moving``: what a move service checks before
  it asks the engine; ``finish``: a finished game's status, places and news;
- ``sweep_deadlines`` / ``sweep_reminders``: the beat's idempotent deadline work.

The models need ``status`` (``Status`` below), ``is_open_seek``, ``created_by``,
``finished_at``, ``deadline`` and ``remind_at``, and a ``seats`` relation whose rows have
``index``, ``user`` and ``accepted`` (``games.models`` has them all). Players are told
through ``games.notifications``. A refusal raises ``config.errors.Refused``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.utils import timezone

from config.errors import Refused
from games import notifications
from games.models import Status
from lexicon.services import current_version

#: The shortest time per move a game may have (seconds).
MIN_SECONDS_PER_MOVE = 10
#: What a seat that left the game did, by move kind.
LEFT = {"resign": "resigned", "forfeit": "forfeited"}


def check_invitees(creator, invitees) -> None:
    """Refuse a new game's invitees unless each is another active person, invited once."""
    seen = {creator.pk}
    for invitee in invitees:
        if invitee.pk in seen:
            raise Refused(f"{invitee.username} is invited twice (or is you).")
        if invitee.is_bot:
            raise Refused("Bots cannot be invited; add them as bots.")
        if not invitee.is_active:
            raise Refused(f"{invitee.username} cannot play.")
        seen.add(invitee.pk)


def seat_players(game, seat_model, *, creator, invitees=(), bots=()) -> None:
    """Seat ``creator`` first, then the invitees (each told), then ``bots`` (accepted at
    once), then open seats up to the game's player count."""
    seat_model.objects.create(game=game, index=0, user=creator, accepted=True)
    index = 1
    for invitee in invitees:
        seat_model.objects.create(game=game, index=index, user=invitee)
        notifications.invitation(game, user=invitee, by=creator)
        index += 1
    for bot in bots:
        seat_model.objects.create(game=game, index=index, user=bot, accepted=True)
        index += 1
    for free in range(index, game.players):
        seat_model.objects.create(game=game, index=free)


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


@transaction.atomic
def accept(model, *, game_id: int, player, start: Callable, taker_problem: Callable | None = None):
    """Accept ``player``'s invitation to ``game_id`` or give them a free seat of an open
    seek (``taker_problem(game, player)`` may refuse a stranger a seat); the last seat
    filled starts the game (``start(game, by=player)``)."""
    game = locked_waiting(model, game_id)
    problem = (lambda taker: taker_problem(game, taker)) if taker_problem else None
    if take_seat(game, player, taker_problem=problem):
        start(game, by=player)
    else:
        notifications.game_changed(game)
    return game


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


@transaction.atomic
def decline(model, *, game_id: int, player):
    """Decline an invitation: the game will not start and the others are told."""
    game = locked_waiting(model, game_id)
    check_invited(game, player)
    return _cancelled(game, by=player)


@transaction.atomic
def withdraw(model, *, game_id: int, player):
    """The creator withdraws a game that has not started."""
    game = locked_waiting(model, game_id)
    check_creator(game, player)
    return _cancelled(game, by=player)


def _cancelled(game, *, by):
    cancel_waiting(game, by=by, tell=notifications.cancelled)
    notifications.game_changed(game)
    return game


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


def start(game, *, to_move: int, by) -> None:
    """Start the clock of a game whose seats are all filled, seat ``to_move`` to open it;
    ``by`` took the last seat and is looking at the game, so is not told."""
    now = timezone.now()
    game.status = Status.ACTIVE
    game.started_at = now
    game.to_move = to_move
    game.set_deadline(now)
    game.save(update_fields=["status", "started_at", "to_move", "deadline", "remind_at"])
    seats = list(game.seats.select_related("user"))
    opener = next(seat.user for seat in seats if seat.index == to_move)
    notifications.your_turn(game, user=opener)
    for seat in seats:
        if seat.index != to_move and seat.user_id != by.pk:
            notifications.started(game, user=seat.user, to_move=opener)
    notifications.deadline_set(game)
    notifications.game_changed(game)


def offer_rematch(model, seat_model, *, game_id: int, player, start: Callable, copy: tuple[str, ...] = ()):
    """Offer the next game of ``game_id``'s series: the same seats and rules, the next game
    number, the lexicon's current version, and the game's own fields named in ``copy``. Asking twice returns the
    rematch already offered. Bots accept at once, so a rematch whose other players are
    all bots starts straight away (``start(rematch, by=player)``)."""
    try:
        game = model.objects.select_for_update().get(pk=game_id)
    except model.DoesNotExist:
        raise Refused("No such game.", status=404) from None
    seats = list(game.seats.select_related("user"))
    if not any(s.user_id == player.pk for s in seats):
        raise Refused("Only the game's players can ask for a rematch.", status=403)
    if game.status != Status.FINISHED:
        raise Refused("A rematch can follow only a finished game.")
    existing = model.objects.filter(rematch_of=game).first()
    if existing is not None:
        return existing
    rematch = model.objects.create(
        players=game.players,
        lexicon_code=game.lexicon_code,
        lexicon_version=current_version(game.lexicon_code),
        series=game.series,
        game_number=game.game_number + 1,
        rematch_of=game,
        seconds_per_move=game.seconds_per_move,
        created_by=player,
        ranked=game.ranked,
        **{field: getattr(game, field) for field in copy},
    )
    everyone = copy_seats(seats, rematch, seat_model, asker=player, offer=notifications.rematch_offer)
    notifications.game_changed(game)
    if everyone:
        start(rematch, by=player)
    return rematch


# -- moves ---------------------------------------------------------------------------------


def locked_game(model, game_id: int):
    """The game's row, locked for the move being made."""
    try:
        return model.objects.select_for_update().get(pk=game_id)
    except model.DoesNotExist:
        raise Refused("No such game.", status=404) from None


def seat_index(game, player) -> int:
    """``player``'s seat in ``game``, or Refused."""
    index = game.seats.filter(user=player).values_list("index", flat=True).first()
    if index is None:
        raise Refused("You are not playing in this game.", status=403)
    return index


def seated(model, game_id: int, player) -> tuple:
    """(the game's row, locked; ``player``'s seat in it), or Refused."""
    game = locked_game(model, game_id)
    return game, seat_index(game, player)


def check_moving(game, seat: int, move_count: int | None, *, stale: str) -> None:
    """Refuse a move in a game that is not in play, by a seat that left, or from a page
    that showed another move count than the game's (``stale`` says so)."""
    if game.status != Status.ACTIVE:
        raise Refused(
            "This game is over." if game.status == Status.FINISHED else "This game has not started.", status=409
        )
    if game.seats.filter(index=seat).exclude(left="").exists():
        raise Refused("You have left this game.", status=409)
    if move_count is not None and move_count != game.move_count:
        raise Refused(stale, status=409)


def sentence(reason: str) -> str:
    """The engine's reason ("not your turn") as a sentence for the player."""
    return reason[:1].upper() + reason[1:] + ("" if reason.endswith(".") else ".")


def finish(game, state, seats: dict, *, result: str, rated: Callable) -> None:
    """The engine's ``state`` is over: store the end, each seat's place (``seats`` by
    index, scores already set), let ``rated(game, seats)`` record ratings, and tell
    everyone ``result``."""
    game.status = Status.FINISHED
    game.finished_at = timezone.now()
    game.to_move = None
    game.deadline = None
    game.remind_at = None
    game.end_reason = state.end_reason or ""
    game.save()
    places = {seat: place for seat, _, place in state.standings()}
    for index, seat in seats.items():
        seat.place = places[index]
        seat.save(update_fields=["score", "left", "place"])
    rated(game, list(seats.values()))
    for seat in seats.values():
        notifications.game_over(game, user=seat.user, result=result)


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
