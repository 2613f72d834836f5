"""A player's part in the games played in turns (Word Grid, Wordgame, TOW): what is
theirs to export, how they give up one game, and how forgetting them ends the games they
have not finished.

Each game app's kind (``games.registry``) answers ``export_player``, ``resign_player`` and
``forget_player`` with these, naming its own models and the fields of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.db.models import F

from games import notifications, seating
from games.models import Status


def _when(moment) -> str | None:
    return moment.isoformat() if moment else None


def export(seat_model, move_model, user, *, game_fields: Iterable[str] = (), move_fields: Iterable[str] = ()) -> dict:
    """``user``'s seats (with their games) and their own moves, as JSON-ready values."""
    game_fields, move_fields = tuple(game_fields), tuple(move_fields)
    seats = seat_model.objects.filter(user=user).select_related("game").order_by("game_id")
    moves = (
        move_model.objects.filter(game__seats__user=user, game__seats__index=F("seat"))
        .order_by("game_id", "number")
        .values("game_id", "number", "kind", "placement", "tiles", "score", "created_at", *move_fields)
    )
    return {
        "games": [
            {
                "id": seat.game_id,
                "url": seat.game.get_absolute_url(),
                "status": seat.game.status,
                "ranked": seat.game.ranked,
                "seconds_per_move": seat.game.seconds_per_move,
                "created_at": _when(seat.game.created_at),
                "finished_at": _when(seat.game.finished_at),
                "seat": seat.index,
                "score": seat.score,
                "place": seat.place,
                "left": seat.left,
                **{name: getattr(seat.game, name) for name in game_fields},
            }
            for seat in seats
        ],
        "moves": [{**move, "created_at": _when(move["created_at"])} for move in moves],
    }


def resign_if_playing(model, game_id: int, user, *, resign: Callable) -> bool:
    """Resign ``user`` from the game ``game_id`` (``resign(game_id=, player=)``, the app's
    own service) if it is in play and they are still in it; False if their part was over
    already. The game's row is locked first, so a game ending meanwhile is seen ended."""
    game = model.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.status != Status.ACTIVE or not game.seats.filter(user=user, left="").exists():
        return False
    resign(game_id=game_id, player=user)
    return True


def forget(model, user, *, resign: Callable) -> None:
    """End ``user``'s unfinished games as if they left: a game still waiting for its
    players is cancelled (the others are told), one in play is resigned
    (``resign(game_id=, player=)``, the app's own service). Finished games stay."""
    for game_id in model.objects.filter(seats__user=user, status=Status.WAITING).values_list("pk", flat=True):
        game = model.objects.select_for_update().get(pk=game_id)
        if game.status == Status.WAITING:
            seating.cancel_waiting(game, by=user, tell=notifications.cancelled)
            notifications.game_changed(game)
    playing = model.objects.filter(seats__user=user, seats__left="", status=Status.ACTIVE)
    for game_id in playing.values_list("pk", flat=True):
        resign_if_playing(model, game_id, user, resign=resign)
