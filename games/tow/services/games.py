"""Starting TOW games: create with invitations or an open seek, accept, decline, rematch."""

from __future__ import annotations

from functools import partial

from django.db import transaction

from games import seating
from games.engine import tow as engine
from lexicon.services import current_version

from .. import selectors
from ..models import HOUSE, Game, Seat, WordChoice
from .bots import bot_user
from .errors import Refused

MIN_SECONDS_PER_MOVE = seating.MIN_SECONDS_PER_MOVE


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
    _check_table(players, words, seconds_per_move, ranked=ranked, bots=bots)
    seating.check_invitees(creator, invitees, seek=open_seats > 0)
    game = _new_game(creator, players, words, seconds_per_move, ranked=ranked, open_seek=open_seats > 0)
    bot_users = [bot_user(number) for number in range(1, bots + 1)]
    seating.seat_players(game, Seat, creator=creator, invitees=invitees, bots=bot_users)
    if all(s.accepted for s in game.seats.all()):
        start(game, by=creator)
    return game


@transaction.atomic
def game_arrange(*, players, seconds_per_move: int, words: str = WordChoice.EN, ranked: bool = False) -> Game:
    """Start a game between ``players`` at once, seated in that order with every seat
    accepted: a game someone else arranged (a tournament's pairing); everyone is told."""
    players = list(players)
    _check_table(len(players), words, seconds_per_move, ranked=ranked)
    seating.check_arranged(players)
    game = _new_game(players[0], len(players), words, seconds_per_move, ranked=ranked)
    seating.seat_arranged(game, Seat, players)
    start(game, by=None)
    return game


def _check_table(players: int, words: str, seconds_per_move: int, *, ranked: bool, bots: int = 0) -> None:
    if not engine.MIN_PLAYERS <= players <= engine.MAX_PLAYERS:
        raise Refused(f"TOW takes {engine.MIN_PLAYERS}–{engine.MAX_PLAYERS} players; you chose {players}.")
    if words not in WordChoice.values:
        raise Refused("Choose a word list or the house vote.")
    if seconds_per_move < MIN_SECONDS_PER_MOVE:
        raise Refused("The time per move is too short.")
    if ranked and (players != 2 or bots):
        raise Refused("A ranked TOW game is for two people.")


def _new_game(creator, players: int, words: str, seconds_per_move: int, *, ranked: bool, open_seek=False) -> Game:
    code = _lexicon_code(words)
    return Game.objects.create(
        players=players,
        words=words,
        lexicon_code=code,
        lexicon_version=current_version(code),
        seconds_per_move=seconds_per_move,
        is_open_seek=open_seek,
        created_by=creator,
        ranked=ranked,
    )


def game_accept(*, game_id: int, player) -> Game:
    """Accept an invitation, or take a free seat of an open seek."""
    return seating.accept(Game, game_id=game_id, player=player, start=start)


def start(game: Game, *, by) -> None:
    """Draw for first player, deal and start the clock; ``by`` is looking at the game."""
    seating.start(game, to_move=selectors.engine_state(game, moves=[]).to_move, by=by)


# Declining an invitation and withdrawing a game are the same in every game.
game_decline = partial(seating.decline, Game)
game_cancel = partial(seating.withdraw, Game)


@transaction.atomic
def game_rematch(*, game_id: int, player) -> Game:
    """Offer the next game of the series: same seats and table rules, a new first draw.

    Asking twice returns the rematch already offered; bots accept at once.
    """
    return seating.offer_rematch(Game, Seat, game_id=game_id, player=player, start=start, copy=("words",))
