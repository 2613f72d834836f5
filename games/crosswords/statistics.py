"""A player's crossword games as their profile counts them (``games.registry.Statistics``).

Every finished game counts, casual ones too; first place shared with another player is
a draw.
"""

from __future__ import annotations

from django.db.models import Avg, Count, Exists, F, OuterRef, Q, Subquery

from games import registry
from games.ratings import summaries

from .models import Move, MoveKind, Seat, Status, pool_of


def _rows(user):
    shared_first = Seat.objects.filter(game=OuterRef("game"), place=1).exclude(pk=OuterRef("pk"))
    return Seat.objects.filter(user=user, game__status=Status.FINISHED).annotate(shared_first=Exists(shared_first))


def records(user, recent: int) -> list[registry.Record]:
    """Games played and won per variant's pool, with the latest ``recent`` outcomes of each."""
    found = []
    for row in (
        _rows(user)
        .values("game__variant")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(place=1, shared_first=False)), average=Avg("score"))
    ):
        latest = (
            _rows(user)
            .filter(game__variant=row["game__variant"])
            .order_by("-game__finished_at")
            .values_list("place", "shared_first")[:recent]
        )
        outcomes = tuple(
            "won" if place == 1 and not shared else "drew" if place == 1 else "lost" for place, shared in latest
        )
        found.append(
            registry.Record(pool_of(row["game__variant"]), row["games"], row["wins"], row["average"], outcomes)
        )
    return found


def opponents(user) -> dict[int, tuple[int, int, int]]:
    """Games, wins and draws against each player ``user`` has met in a finished game."""
    mine = Seat.objects.filter(game=OuterRef("game"), user=user).values("place")[:1]
    rows = (
        Seat.objects.filter(game__status=Status.FINISHED, game__seats__user=user, user__isnull=False)
        .exclude(user=user)
        .annotate(mine=Subquery(mine))
        .values("user_id")
        .annotate(
            games=Count("pk"),
            wins=Count("pk", filter=Q(mine__lt=F("place"))),
            draws=Count("pk", filter=Q(mine=F("place"))),
        )
    )
    return {row["user_id"]: (row["games"], row["wins"], row["draws"]) for row in rows}


def _best_play(user) -> Move | None:
    return (
        Move.objects.filter(kind=MoveKind.PLACE, game__seats__user=user, game__seats__index=F("seat"))
        .exclude(game__status=Status.CANCELLED)
        .select_related("game")
        .order_by("-score", "created_at")
        .first()
    )


def best_plays(user, viewer) -> registry.Card:
    """The highest-scoring play ``user`` made in a game that was not cancelled.

    Kept with the player's statistics and their plays (``summaries.kept``): a game still
    in play counts, so each move of theirs replaces it (``services.moves``). Every viewer
    sees the same play.
    """
    play = summaries.kept(user, "crossword-best:1", lambda: _best_play(user), plays=True)
    return registry.Card("crosswords/_best_plays.html", {"best_crossword_play": play})


STATISTICS = registry.Statistics(records=records, opponents=opponents, best_plays=best_plays)
