"""Starting games: create with invitations or an open seek, accept, decline, rematch."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games import seating
from games.engine import crossword
from games.ratings import selectors as ratings
from games.ratings.pools import crossword_pool
from lexicon.services import current_version

from .. import selectors
from ..models import Game, Seat, Status, Variant
from . import notifications
from .errors import Refused

MIN_SECONDS_PER_MOVE = 10


def _engine_variant(variant: str):
    try:
        return crossword.variant_named(variant)
    except KeyError:
        raise Refused("Choose Word Grid or Wordgame.") from None


@transaction.atomic
def game_create(
    *,
    creator,
    variant: str,
    seconds_per_move: int,
    invitees=(),
    open_seats: int = 0,
    ranked: bool = False,
    rating_min: int | None = None,
    rating_max: int | None = None,
) -> Game:
    """Create a game with ``creator`` in seat 1, then the invitees, then open seats.

    Invitees are asked to accept; open seats make the game an open seek that anyone
    can take from the lobby. The game starts when every seat is filled and accepted.
    A ranked game is for two people and changes their ratings; a ranked open seek may
    name a rating range its taker must be in.
    """
    rules = _engine_variant(variant)
    invitees = list(invitees)
    players = 1 + len(invitees) + open_seats
    if not rules.min_players <= players <= rules.max_players:
        name = Variant(variant).label
        raise Refused(f"{name} takes {rules.min_players}–{rules.max_players} players; you chose {players}.")
    if seconds_per_move < MIN_SECONDS_PER_MOVE:
        raise Refused("The time per move is too short.")
    seen = {creator.pk}
    for invitee in invitees:
        if invitee.pk in seen:
            raise Refused(f"{invitee.username} is invited twice (or is you).")
        if invitee.is_bot:
            raise Refused("Bots cannot be invited yet.")
        if not invitee.is_active:
            raise Refused(f"{invitee.username} cannot play.")
        seen.add(invitee.pk)
    if ranked or rating_min is not None or rating_max is not None:
        problem = ratings.ranked_seek_problem(
            creator=creator,
            pool=crossword_pool(variant),
            players=players,
            ranked=ranked,
            open_seek=open_seats > 0,
            rating_min=rating_min,
            rating_max=rating_max,
        )
        if problem:
            raise Refused(problem)
    code = rules.default_lexicon
    game = Game.objects.create(
        variant=variant,
        players=players,
        lexicon_code=code,
        lexicon_version=current_version(code),
        seconds_per_move=seconds_per_move,
        is_open_seek=open_seats > 0,
        created_by=creator,
        ranked=ranked,
        rating_min=rating_min if ranked else None,
        rating_max=rating_max if ranked else None,
    )
    Seat.objects.create(game=game, index=0, user=creator, accepted=True)
    for index, invitee in enumerate(invitees, start=1):
        Seat.objects.create(game=game, index=index, user=invitee)
        notifications.invitation(game, user=invitee, by=creator)
    for index in range(1 + len(invitees), players):
        Seat.objects.create(game=game, index=index)
    return game


def _locked_waiting(game_id: int) -> Game:
    return seating.locked_waiting(Game, game_id)


@transaction.atomic
def game_accept(*, game_id: int, player) -> Game:
    """Accept an invitation to ``game_id``, or take an open seat of a seek."""
    game = _locked_waiting(game_id)

    def taker_problem(taker):
        return ratings.seek_taker_problem(
            player=taker,
            pool=crossword_pool(game.variant),
            ranked=game.ranked,
            rating_min=game.rating_min,
            rating_max=game.rating_max,
        )

    if seating.take_seat(game, player, taker_problem=taker_problem):
        _start(game, by=player)
    else:
        notifications.game_changed(game)
    return game


def _start(game: Game, *, by) -> None:
    """Deal and start the clock; ``by`` took the last seat and is looking at the game."""
    state = selectors.engine_state(game, moves=[])
    now = timezone.now()
    game.status = Status.ACTIVE
    game.started_at = now
    game.to_move = state.to_move
    game.set_deadline(now)
    game.save(update_fields=["status", "started_at", "to_move", "deadline", "remind_at"])
    seats = list(game.seats.select_related("user"))
    opener = next(seat.user for seat in seats if seat.index == state.to_move)
    notifications.your_turn(game, user=opener)
    for seat in seats:
        if seat.index != state.to_move and seat.user_id != by.pk:
            notifications.started(game, user=seat.user, to_move=opener)
    notifications.deadline_set(game)
    notifications.game_changed(game)


@transaction.atomic
def game_decline(*, game_id: int, player) -> Game:
    """Decline an invitation: the game will not start and the others are told."""
    game = _locked_waiting(game_id)
    seating.check_invited(game, player)
    return _cancel(game, by=player)


@transaction.atomic
def game_cancel(*, game_id: int, player) -> Game:
    """The creator withdraws a game that has not started."""
    game = _locked_waiting(game_id)
    seating.check_creator(game, player)
    return _cancel(game, by=player)


def _cancel(game: Game, *, by) -> Game:
    seating.cancel_waiting(game, by=by, tell=notifications.cancelled)
    notifications.game_changed(game)
    return game


@transaction.atomic
def game_rematch(*, game_id: int, player) -> Game:
    """Offer the next game of the series: same seats and rules, next game number.

    Word Grid's first player rotates with the game number (RULES §3). Asking twice
    returns the rematch already offered. Bots accept at once, so a rematch whose other
    players are all bots starts straight away.
    """
    try:
        game = Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise Refused("No such game.", status=404) from None
    seats = list(game.seats.select_related("user"))
    if not any(s.user_id == player.pk for s in seats):
        raise Refused("Only the game's players can ask for a rematch.", status=403)
    if game.status != Status.FINISHED:
        raise Refused("A rematch can follow only a finished game.")
    existing = Game.objects.filter(rematch_of=game).first()
    if existing is not None:
        return existing
    code = game.lexicon_code
    rematch = Game.objects.create(
        variant=game.variant,
        players=game.players,
        lexicon_code=code,
        lexicon_version=current_version(code),
        series=game.series,
        game_number=game.game_number + 1,
        rematch_of=game,
        seconds_per_move=game.seconds_per_move,
        created_by=player,
        ranked=game.ranked,
    )
    # Bots accept at once: a rematch against bots alone starts straight away.
    everyone = seating.copy_seats(seats, rematch, Seat, asker=player, offer=notifications.rematch_offer)
    notifications.game_changed(game)
    if everyone:
        _start(rematch, by=player)
    return rematch
