"""How a finished game played in turns (Word Grid, Wordgame, TOW) reads to the shared parts.

``outcome_of(game)`` is the ``games.registry.Outcome`` of a finished game: each seat's
place, score, how it ended (played to the end, resigned or forfeited) and how many plays,
swaps and passes it made; how the game ended is told by its last move (a resignation, a
forfeit) or by nobody having moved at all (abandoned). The models are the abstract ones
of ``games.models``; the game's kind is the registry's kind of its app.
"""

from __future__ import annotations

from django.db.models import Count

from games import registry
from games.models import Status

#: The moves that are a player's turn taken (resigning and forfeiting are not).
TURNS = ("place", "swap", "pass")
_ENDED = {"": registry.Ended.PLAYED, "resigned": registry.Ended.RESIGNED, "forfeited": registry.Ended.FORFEITED}
_ENDING = {"resign": registry.Ending.RESIGNED, "forfeit": registry.Ending.FORFEITED}


def outcome_of(game) -> registry.Outcome | None:
    """The outcome of ``game``, None unless it is finished."""
    if game.status != Status.FINISHED:
        return None
    seats = list(game.seats.select_related("user").order_by("index"))
    turns = dict(game.moves.filter(kind__in=TURNS).values("seat").annotate(n=Count("pk")).values_list("seat", "n"))
    last = game.moves.order_by("-number").values_list("kind", flat=True).first()
    ending = registry.Ending.ABANDONED if not turns else _ENDING.get(last, registry.Ending.NORMAL)
    return registry.Outcome(
        kind=registry.kind_of_app(game._meta.app_label).code,
        object_id=game.pk,
        pool=game.pool,
        ranked=game.ranked,
        ending=ending,
        players=tuple(
            registry.PlayerResult(
                user_id=seat.user_id,
                place=seat.place or len(seats),
                score=seat.score,
                ended=_ENDED[seat.left],
                moves=turns.get(seat.index, 0),
                is_bot=seat.user.is_bot,
            )
            for seat in seats
        ),
        finished_at=game.finished_at,
        url=game.get_absolute_url(),
    )
