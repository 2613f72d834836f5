"""Moves of a game in progress: play, swap, pass, resign and forfeit.

Every move goes through ``_apply``, the turn-based games' one move path
(``games.seating.apply_move``) with what is Word Grid's and Wordgame's own: how a move is
stored and the news of it for the next player.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from config import metrics
from games import seating
from games.engine import crossword_game as engine
from games.ratings import summaries

from .. import selectors
from ..models import Game, Move, Status
from .errors import Refused

STALE = "The game has moved on since this page was loaded; the board has been refreshed."
LEFT = seating.LEFT


def _apply(game: Game, move: engine.Move, *, move_count: int | None, reason: str = "", now=None) -> Move:
    def store(before: engine.Game, after: engine.Game) -> Move:
        turn = after.turns[-1]
        return Move.objects.create(
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

    def turn(before: engine.Game, after: engine.Game, stored: Move, seats: dict) -> seating.Turn:
        selectors.remember_state(game, after, stored)
        passed = move.kind not in LEFT or after.to_move != before.to_move
        mover = seats[move.seat].user
        news = selectors.move_news(stored, mover.name_and_username, after.board) if passed and mover else ""
        if mover is not None:  # a game in play counts for the mover's best play (statistics.best_plays)
            summaries.forget_plays([mover.pk])
        return seating.Turn(passed=passed, news=news)

    stored = seating.apply_move(
        game,
        move,
        move_count=move_count,
        state=lambda: selectors.engine_state(game),
        stale=STALE,
        late="Your time for this move has run out.",
        timed=(engine.PLACE, engine.SWAP, engine.PASS),
        store=store,
        turn=turn,
        result=lambda after, seats: selectors.result_text(game, after, seats),
        reason=reason,
        now=now,
    )
    transaction.on_commit(lambda: metrics.CROSSWORD_MOVES.labels(game.variant, move.kind).inc())
    return stored


@transaction.atomic
def game_play(*, game_id: int, player, placement, move_count: int | None, now=None) -> Move:
    """Place tiles: ``placement`` is ``[(row, col, letter, is_blank), ...]``. ``now`` is
    the server's time of the move (a test's, to time a clock)."""
    game, seat = seating.seated(Game, game_id, player)
    try:
        move = engine.Move.place(seat, placement)
    except (TypeError, ValueError):
        raise Refused("The placement could not be read.") from None
    return _apply(game, move, move_count=move_count, now=now)


@transaction.atomic
def game_swap(*, game_id: int, player, tiles: str, move_count: int | None, now=None) -> Move:
    """Swap ``tiles`` (rack letters, "?" for a blank) for as many from the bag."""
    game, seat = seating.seated(Game, game_id, player)
    return _apply(game, engine.Move.swap(seat, tiles), move_count=move_count, now=now)


@transaction.atomic
def game_pass(*, game_id: int, player, move_count: int | None, now=None) -> Move:
    """Pass the turn: it scores nothing and counts towards the end by scoreless turns."""
    game, seat = seating.seated(Game, game_id, player)
    return _apply(game, engine.Move.pass_(seat), move_count=move_count, now=now)


@transaction.atomic
def game_resign(*, game_id: int, player, now=None) -> Move:
    """Leave the game at any time: finish last, tiles back to the bag (RULES §3)."""
    game, seat = seating.seated(Game, game_id, player)
    return _apply(game, engine.Move.resign(seat), move_count=None, now=now)


@transaction.atomic
def game_forfeit(*, game_id: int, now=None) -> Move | None:
    """Forfeit the seat to move if its deadline has passed; else do nothing (idempotent)."""
    game = seating.locked_game(Game, game_id)
    now = now or timezone.now()
    if game.status != Status.ACTIVE or game.deadline is None or game.deadline > now:
        return None
    return _apply(
        game, engine.Move.forfeit(game.to_move), move_count=None, reason=seating.forfeit_reason(game, now), now=now
    )
