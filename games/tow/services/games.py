"""Starting TOW games: create with invitations or an open seek, accept, decline, rematch."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games import seating
from games.engine import tow as engine
from lexicon.services import current_version

from .. import selectors
from ..models import HOUSE, Game, Seat, Status, WordChoice
from . import notifications
from .errors import Refused

MIN_SECONDS_PER_MOVE = 10


def _lexicon_code(words: str) -> str:
    # A house-vote table checks words against en; those missing go to the vote.
    return "en" if words == HOUSE else words


@transaction.atomic
def game_create(
    *,
    creator,
    seconds_per_move: int,
    invitees=(),
    open_seats: int = 0,
    words: str = WordChoice.EN,
    bots: int = 0,
    ranked: bool = False,
) -> Game:
    """Create a game with ``creator`` in seat 1, then invitees, bots and open seats.

    Invitees are asked to accept; open seats make the game an open seek. Bots take
    their seats at once. The game starts when every seat is filled and accepted. A
    ranked game is between two people.
    """
    invitees = list(invitees)
    players = 1 + len(invitees) + bots + open_seats
    if not engine.MIN_PLAYERS <= players <= engine.MAX_PLAYERS:
        raise Refused(f"TOW takes {engine.MIN_PLAYERS}–{engine.MAX_PLAYERS} players; you chose {players}.")
    if words not in WordChoice.values:
        raise Refused("Choose a word list or the house vote.")
    if seconds_per_move < MIN_SECONDS_PER_MOVE:
        raise Refused("The time per move is too short.")
    if ranked and (players != 2 or bots):
        raise Refused("A ranked TOW game is for two people.")
    seen = {creator.pk}
    for invitee in invitees:
        if invitee.pk in seen:
            raise Refused(f"{invitee.username} is invited twice (or is you).")
        if invitee.is_bot or not invitee.is_active:
            raise Refused(f"{invitee.username} cannot be invited.")
        seen.add(invitee.pk)
    code = _lexicon_code(words)
    game = Game.objects.create(
        players=players,
        words=words,
        lexicon_code=code,
        lexicon_version=current_version(code),
        seconds_per_move=seconds_per_move,
        is_open_seek=open_seats > 0,
        created_by=creator,
        ranked=ranked,
    )
    Seat.objects.create(game=game, index=0, user=creator, accepted=True)
    index = 1
    for invitee in invitees:
        Seat.objects.create(game=game, index=index, user=invitee)
        notifications.invitation(game, user=invitee, by=creator)
        index += 1
    if bots:
        from .bots import bot_user

        for number in range(1, bots + 1):
            Seat.objects.create(game=game, index=index, user=bot_user(number), accepted=True)
            index += 1
    for free in range(index, players):
        Seat.objects.create(game=game, index=free)
    if all(s.accepted for s in game.seats.all()):
        start(game, by=creator)
    return game


def _locked_waiting(game_id: int) -> Game:
    return seating.locked_waiting(Game, game_id)


@transaction.atomic
def game_accept(*, game_id: int, player) -> Game:
    """Accept an invitation, or take a free seat of an open seek."""
    game = _locked_waiting(game_id)
    if seating.take_seat(game, player):
        start(game, by=player)
    else:
        notifications.game_changed(game)
    return game


def start(game: Game, *, by) -> None:
    """Draw for first player, deal and start the clock; ``by`` is looking at the game."""
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
        if seat.index != state.to_move and seat.user_id != by.pk and not seat.user.is_bot:
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
    """Offer the next game of the series: same seats and table rules, a new first draw.

    Asking twice returns the rematch already offered; bots accept at once.
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
    rematch = Game.objects.create(
        players=game.players,
        words=game.words,
        lexicon_code=game.lexicon_code,
        lexicon_version=current_version(game.lexicon_code),
        series=game.series,
        game_number=game.game_number + 1,
        rematch_of=game,
        ranked=game.ranked,
        seconds_per_move=game.seconds_per_move,
        created_by=player,
    )
    everyone = seating.copy_seats(seats, rematch, Seat, asker=player, offer=notifications.rematch_offer)
    notifications.game_changed(game)
    if everyone:
        start(rematch, by=player)
    return rematch
