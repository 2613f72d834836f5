"""Moves of a game in progress: play, swap, pass, resign and forfeit.

Every move goes through ``_apply``: lock the game, check the player's seat, the turn and
the move number the client saw, let the engine apply the move, store it, and set the
next turn's deadline or finish the game.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games import seating
from games.engine import crossword_game as engine
from games.engine.crossword import IllegalPlay
from games.ratings import services as ratings

from .. import selectors
from ..models import Game, Move, MoveKind, Status
from . import notifications
from .errors import Refused

STALE = "The game has moved on since this page was loaded; the board has been refreshed."
LEFT = seating.LEFT


def _apply(game: Game, move: engine.Move, *, move_count: int | None, reason: str = "", now=None) -> Move:
    seating.check_moving(game, move.seat, move_count, stale=STALE)
    before = selectors.engine_state(game)
    try:
        before.check(move)
    except IllegalPlay as refused:
        # The turn, the rack or the game moved on since the page was drawn.
        raise Refused(seating.sentence(refused.reason), status=409) from None
    if move.kind in (engine.PLACE, engine.SWAP, engine.PASS):
        # The clock is the server's: a move after the deadline waits for the forfeit.
        if game.deadline is not None and game.deadline <= (now or timezone.now()):
            raise Refused("Your time for this move has run out.", status=409)
    try:
        after = before.apply(move)
    except IllegalPlay as refused:
        raise Refused(seating.sentence(refused.reason)) from None
    turn = after.turns[-1]
    stored = Move.objects.create(
        game=game,
        number=game.move_count,
        seat=move.seat,
        kind=move.kind,
        placement=[list(tile) for tile in move.placement],
        tiles=move.tiles,
        score=turn.score,
        words=[list(word) for word in turn.play.words] if turn.play else [],
        rack_before=before.racks[move.seat],
        rack_after=after.racks[move.seat],
        redeal=turn.redeal,
        reason=reason,
    )
    game.move_count += 1
    selectors.remember_state(game, after, stored)
    seats = {seat.index: seat for seat in game.seats.select_related("user")}
    for index, seat in seats.items():
        seat.score = after.scores[index]
        if move.kind in LEFT and index == move.seat:
            seat.left = LEFT[move.kind]
    if after.is_over:
        _finish(game, after, seats)
    else:
        turn_passed = move.kind not in LEFT or after.to_move != before.to_move
        game.to_move = after.to_move
        if turn_passed:
            game.set_deadline(now or timezone.now())
        game.save()
        for seat in seats.values():
            seat.save(update_fields=["score", "left"])
        if turn_passed:
            mover = seats[move.seat].user
            news = selectors.move_news(stored, mover.shown_name, after.board) if mover else ""
            notifications.your_turn(game, user=seats[after.to_move].user, news=news)
            notifications.deadline_set(game)
    if move.kind == MoveKind.FORFEIT:
        notifications.forfeited(game, user=seats[move.seat].user, reason=reason)
    notifications.game_changed(game)
    return stored


def _finish(game: Game, after: engine.Game, seats: dict) -> None:
    result = selectors.result_text(game, after, seats)
    seating.finish(game, after, seats, result=result, rated=ratings.crossword_game_finished)


@transaction.atomic
def game_play(*, game_id: int, player, placement, move_count: int | None) -> Move:
    """Place tiles: ``placement`` is ``[(row, col, letter, is_blank), ...]``."""
    game, seat = seating.seated(Game, game_id, player)
    try:
        move = engine.Move.place(seat, placement)
    except (TypeError, ValueError):
        raise Refused("The placement could not be read.") from None
    return _apply(game, move, move_count=move_count)


@transaction.atomic
def game_swap(*, game_id: int, player, tiles: str, move_count: int | None) -> Move:
    """Swap ``tiles`` (rack letters, "?" for a blank) for as many from the bag."""
    game, seat = seating.seated(Game, game_id, player)
    return _apply(game, engine.Move.swap(seat, tiles), move_count=move_count)


@transaction.atomic
def game_pass(*, game_id: int, player, move_count: int | None) -> Move:
    """Pass the turn: it scores nothing and counts towards the end by scoreless turns."""
    game, seat = seating.seated(Game, game_id, player)
    return _apply(game, engine.Move.pass_(seat), move_count=move_count)


@transaction.atomic
def game_resign(*, game_id: int, player) -> Move:
    """Leave the game at any time: finish last, tiles back to the bag (RULES §3)."""
    game, seat = seating.seated(Game, game_id, player)
    return _apply(game, engine.Move.resign(seat), move_count=None)


@transaction.atomic
def game_forfeit(*, game_id: int, now=None) -> Move | None:
    """Forfeit the seat to move if its deadline has passed; else do nothing (idempotent)."""
    game = seating.locked_game(Game, game_id)
    now = now or timezone.now()
    if game.status != Status.ACTIVE or game.deadline is None or game.deadline > now:
        return None
    return _apply(game, engine.Move.forfeit(game.to_move), move_count=None, reason="missed the move deadline", now=now)
