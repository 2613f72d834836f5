"""Reads of ratings: one player's, many players' at once, and the pools.

Other apps (matchmaking, lobbies, profiles) import from here; nothing here writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import scale
from .models import Rating
from .pools import POOL_INFO, POOLS

__all__ = ["POOLS", "POOL_INFO", "PlayerRating", "DEFAULT", "player_rating", "player_ratings", "check_pool"]


@dataclass(frozen=True)
class PlayerRating:
    """A player's shown rating in one pool; ``provisional`` until enough rated games."""

    rating: int
    provisional: bool
    games: int

    @classmethod
    def of(cls, row: Rating) -> PlayerRating:
        return cls(rating=row.rating, provisional=scale.is_provisional(row.games), games=row.games)


#: What a player with no rated game in a pool has.
DEFAULT = PlayerRating(rating=scale.BASE, provisional=True, games=0)


def check_pool(pool: str) -> str:
    if pool not in POOL_INFO:
        raise ValueError(f"no rating pool {pool!r}; pools are {', '.join(POOLS)}")
    return pool


def player_rating(user, pool: str) -> PlayerRating:
    """``user``'s rating in ``pool`` (a user or a user id); the default for a new player."""
    check_pool(pool)
    user_id = getattr(user, "pk", user)
    row = Rating.objects.filter(user_id=user_id, pool=pool).only("rating", "games").first()
    return PlayerRating.of(row) if row else DEFAULT


def player_ratings(user_ids: Iterable[int], pool: str) -> dict[int, PlayerRating]:
    """The ratings of many players in ``pool`` in one query, keyed by user id."""
    check_pool(pool)
    ids = list(user_ids)
    found = {
        user_id: PlayerRating(rating=rating, provisional=scale.is_provisional(games), games=games)
        for user_id, rating, games in Rating.objects.filter(user_id__in=ids, pool=pool)
        .values_list("user_id", "rating", "games")
    }
    return {user_id: found.get(user_id, DEFAULT) for user_id in ids}
