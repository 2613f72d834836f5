"""Starting games: create with invitations or an open seek, accept, decline, rematch."""

from __future__ import annotations

from functools import partial

from django.db import transaction

from games import seating
from games.engine import crossword
from games.engine.clock import Clock
from games.ratings import selectors as ratings
from lexicon.services import current_version

from .. import selectors
from ..models import Game, Seat, Variant, pool_of
from .errors import Refused

MIN_SECONDS_PER_MOVE = seating.MIN_SECONDS_PER_MOVE


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
    bot_seats: int = 0,
    ranked: bool = False,
    rating_min: int | None = None,
    rating_max: int | None = None,
    clock: Clock | None = None,
) -> Game:
    """Create a game with ``creator`` in seat 1, then the invitees, then open seats.

    Invitees are asked to accept; open seats make the game an open seek that anyone
    can take from the lobby. ``bot_seats`` are left free after them for the caller to
    seat bots in. The game starts when every seat is filled and accepted.
    A ranked game is for two people and changes their ratings; a ranked open seek may
    name a rating range its taker must be in. A live game may have a ``clock``: each
    player's total time, beside the time per move (``games.engine.clock``).
    """
    invitees = list(invitees)
    players = 1 + len(invitees) + open_seats + bot_seats
    rules = _checked_rules(variant, players, seconds_per_move, clock)
    seating.check_invitees(creator, invitees, seek=open_seats > 0)
    _check_ranked(
        creator, variant, players, ranked, open_seek=open_seats > 0, rating_min=rating_min, rating_max=rating_max
    )
    game = Game.objects.create(
        variant=variant,
        players=players,
        lexicon_code=rules.default_lexicon,
        lexicon_version=current_version(rules.default_lexicon),
        seconds_per_move=seconds_per_move,
        is_open_seek=open_seats > 0,
        created_by=creator,
        ranked=ranked,
        rating_min=rating_min if ranked else None,
        rating_max=rating_max if ranked else None,
        **seating.clock_fields(clock),
    )
    seating.seat_players(game, Seat, creator=creator, invitees=invitees)
    return game


@transaction.atomic
def game_arrange(
    *, players, variant: str, seconds_per_move: int, ranked: bool = False, clock: Clock | None = None
) -> Game:
    """Start a game between ``players`` at once, seated in that order with every seat
    accepted: a game someone else arranged (a tournament's pairing); everyone is told.
    A live game may have a ``clock``, as ``game_create``'s."""
    players = list(players)
    rules = _checked_rules(variant, len(players), seconds_per_move, clock)
    seating.check_arranged(players)
    _check_ranked(players[0], variant, len(players), ranked)
    game = Game.objects.create(
        variant=variant,
        players=len(players),
        lexicon_code=rules.default_lexicon,
        lexicon_version=current_version(rules.default_lexicon),
        seconds_per_move=seconds_per_move,
        created_by=players[0],
        ranked=ranked,
        **seating.clock_fields(clock),
    )
    seating.seat_arranged(game, Seat, players)
    _start(game, by=None)
    return game


def _checked_rules(variant: str, players: int, seconds_per_move: int, clock=None) -> crossword.Variant:
    rules = _engine_variant(variant)
    if not rules.min_players <= players <= rules.max_players:
        name = Variant(variant).label
        raise Refused(f"{name} takes {rules.min_players}–{rules.max_players} players; you chose {players}.")
    if seconds_per_move < MIN_SECONDS_PER_MOVE:
        raise Refused("The time per move is too short.")
    seating.check_clock(clock, seconds_per_move)
    return rules


def _check_ranked(creator, variant, players, ranked, *, open_seek=False, rating_min=None, rating_max=None) -> None:
    if ranked or rating_min is not None or rating_max is not None:
        problem = ratings.ranked_seek_problem(
            creator=creator,
            pool=pool_of(variant),
            players=players,
            ranked=ranked,
            open_seek=open_seek,
            rating_min=rating_min,
            rating_max=rating_max,
        )
        if problem:
            raise Refused(problem)


def game_accept(*, game_id: int, player) -> Game:
    """Accept an invitation to ``game_id``, or take an open seat of a seek (within the
    seek's rating range, if ranked)."""
    return seating.accept(Game, game_id=game_id, player=player, start=_start, taker_problem=_taker_problem)


def _taker_problem(game: Game, taker) -> str | None:
    return ratings.seek_taker_problem(
        player=taker,
        pool=game.pool,
        ranked=game.ranked,
        rating_min=game.rating_min,
        rating_max=game.rating_max,
    )


def _start(game: Game, *, by) -> None:
    """Deal and start the clock; ``by`` took the last seat and is looking at the game."""
    seating.start(game, to_move=selectors.engine_state(game, moves=[]).to_move, by=by)


# Declining an invitation and withdrawing a game are the same in every game.
game_decline = partial(seating.decline, Game)
game_cancel = partial(seating.withdraw, Game)


@transaction.atomic
def game_rematch(*, game_id: int, player) -> Game:
    """Offer the next game of the series: same seats and rules, next game number.

    Word Grid's first player rotates with the game number (RULES §3). Asking twice
    returns the rematch already offered. Bots accept at once, so a rematch whose other
    players are all bots starts straight away.
    """
    return seating.offer_rematch(Game, Seat, game_id=game_id, player=player, start=_start, copy=("variant",))
