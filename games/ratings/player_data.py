"""A player's ratings and rated results, for their download and their account's deletion."""

from __future__ import annotations

from .models import RatedPlayer, Rating


def export_player(user) -> dict:
    return {
        "ratings": [
            {"pool": r.pool, "rating": r.rating, "games": r.games, "provisional": r.provisional}
            for r in Rating.objects.filter(user=user).order_by("pool")
        ],
        "results": [
            {
                "pool": p.pool,
                "finished_at": p.finished_at.isoformat() if p.finished_at else None,
                "place": p.place,
                "score": p.score,
                "rating_before": p.rating_before,
                "rating_after": p.rating_after,
            }
            for p in RatedPlayer.objects.filter(user=user).order_by("result_id")
        ],
    }


def forget_player(user) -> None:
    """The player leaves the leaderboards; their rated results stay, so every other
    player's rating history is unchanged (and names them as they are now: "deleted player")."""
    Rating.objects.filter(user=user).delete()
