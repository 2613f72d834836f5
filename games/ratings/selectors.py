"""Reads of ratings: one player's, many players' at once, and the pools.

Other apps (matchmaking, lobbies, profiles) import from here; nothing here writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, Q
from django.utils import timezone

from . import scale
from .models import RatedPlayer, RatedResult, Rating
from .pools import pool_codes, pool_info

__all__ = [
    "pool_codes",
    "pool_info",
    "PlayerRating",
    "DEFAULT",
    "player_rating",
    "player_ratings",
    "check_pool",
    "ranked_seek_problem",
    "seek_taker_problem",
]


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
    if pool not in pool_codes():
        raise ValueError(f"no rating pool {pool!r}; pools are {', '.join(pool_codes())}")
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
        for user_id, rating, games in Rating.objects.filter(user_id__in=ids, pool=pool).values_list(
            "user_id", "rating", "games"
        )
    }
    return {user_id: found.get(user_id, DEFAULT) for user_id in ids}


# --------------------------------------------------------------------------- ranked seeks

#: The ratings a seek's range may name.
RANGE_LOWEST, RANGE_HIGHEST = 100, 3500


def range_text(rating_min: int | None, rating_max: int | None) -> str:
    if rating_min is not None and rating_max is not None:
        return f"{rating_min}–{rating_max}"
    return f"{rating_min} or more" if rating_min is not None else f"{rating_max} or less"


def ranked_seek_problem(
    *, creator, pool: str, players: int, ranked: bool, open_seek: bool, rating_min: int | None, rating_max: int | None
) -> str | None:
    """Why a new ranked game or rating range cannot be set up as asked; None if it can."""
    name = pool_info(check_pool(pool)).name
    if ranked and players != 2:
        return f"A ranked {name} game is for two players."
    if getattr(creator, "is_bot", False) and ranked:
        return "Bots do not play ranked games."
    if rating_min is None and rating_max is None:
        return None
    if not ranked or not open_seek:
        return "A rating range is for ranked open seeks only."
    for bound in (rating_min, rating_max):
        if bound is not None and not RANGE_LOWEST <= bound <= RANGE_HIGHEST:
            return f"A rating range lies between {RANGE_LOWEST} and {RANGE_HIGHEST}."
    if rating_min is not None and rating_max is not None and rating_min > rating_max:
        return "The lowest rating of the range is above its highest."
    own = player_rating(creator, pool).rating
    if not _within(own, rating_min, rating_max):
        return f"Your {name} rating ({own}) is outside the range {range_text(rating_min, rating_max)}."
    return None


def _within(rating: int, rating_min: int | None, rating_max: int | None) -> bool:
    return (rating_min is None or rating >= rating_min) and (rating_max is None or rating <= rating_max)


def seek_taker_problem(
    *, player, pool: str, ranked: bool, rating_min: int | None, rating_max: int | None
) -> str | None:
    """Why ``player`` may not take a (ranked, maybe rating-limited) seek; None if they may."""
    if ranked and getattr(player, "is_bot", False):
        return "Bots do not play ranked games."
    if rating_min is None and rating_max is None:
        return None
    own = player_rating(player, pool).rating
    if _within(own, rating_min, rating_max):
        return None
    name = pool_info(check_pool(pool)).name
    return f"This seek is for players rated {range_text(rating_min, rating_max)}; your {name} rating is {own}."


# --------------------------------------------------------------------------- leaderboards

#: A player shows on a leaderboard only after a rated game in the pool this recently.
ACTIVE_DAYS = 90
LEADERBOARD_PAGE = 50


@dataclass(frozen=True)
class Standing:
    """One leaderboard line."""

    place: int
    user_id: int
    username: str
    name: str
    rating: int
    games: int
    is_bot: bool = False


def _ranked(pool: str, now=None):
    now = now or timezone.now()
    return Rating.objects.filter(
        pool=pool,
        games__gte=scale.PROVISIONAL_GAMES,
        last_played_at__gte=now - timedelta(days=ACTIVE_DAYS),
        user__is_active=True,
    )


def leaderboard(pool: str, *, page: int | str = 1, per_page: int = LEADERBOARD_PAGE, now=None):
    """One page of ``pool``'s leaderboard, best first: (django Page, [Standing]).

    Only active players with a settled (not provisional) rating are ranked; equal ratings
    keep a stable order (the earlier account first). A page number out of range gives the
    nearest page.
    """
    from django.core.paginator import Paginator

    check_pool(pool)
    rows = (
        _ranked(pool, now)
        .order_by("-rating", "user_id")
        .values_list("user_id", "user__username", "user__display_name", "rating", "games", "user__is_bot")
    )
    shown = Paginator(rows, per_page).get_page(page)
    start = shown.start_index()
    return shown, [
        Standing(start + index, user_id, username, name or username, rating, games, is_bot)
        for index, (user_id, username, name, rating, games, is_bot) in enumerate(shown.object_list)
    ]


def leaderboard_place(user, pool: str, *, now=None) -> Standing | None:
    """``user``'s line on ``pool``'s leaderboard, wherever it is; None if not ranked there."""
    check_pool(pool)
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    rows = _ranked(pool, now)
    mine = rows.filter(user_id=user.pk).values_list("rating", "games").first()
    if mine is None:
        return None
    rating, games = mine
    above = rows.filter(Q(rating__gt=rating) | Q(rating=rating, user_id__lt=user.pk)).count()
    return Standing(above + 1, user.pk, user.username, user.shown_name, rating, games, user.is_bot)


@dataclass(frozen=True)
class SuspiciousPair:
    """Two players who met often in a pool lately, with how one-sided it was."""

    pool: str
    first: str  # the one who won more
    second: str
    games: int
    first_wins: int
    second_wins: int
    discounted: int  # results that counted less than in full, or not at all
    last_finished_at: object

    @property
    def one_sided(self) -> float:
        return max(self.first_wins, self.second_wins) / self.games


#: What makes a pair worth a look in the admin: this many results within the window...
SUSPICIOUS_GAMES = 4
SUSPICIOUS_DAYS = 7
#: ...and one side winning at least this share of them, or most of them discounted.
SUSPICIOUS_SHARE = 0.8


def suspicious_pairs(*, now=None, days: int = SUSPICIOUS_DAYS, min_games: int = SUSPICIOUS_GAMES):
    """Pairs of players with many two-player results in a pool in the last ``days``,
    one-sided or mostly discounted by the fair-play rules, most games first."""
    since = (now or timezone.now()) - timedelta(days=days)
    two_player = (
        RatedResult.objects.filter(finished_at__gte=since, voided_at__isnull=True)
        .annotate(seated=Count("players"))
        .filter(seated=2)
    )
    rows = RatedPlayer.objects.filter(result__in=two_player).values_list(
        "result_id", "pool", "user__username", "place", "result__weight", "result__finished_at"
    )
    games: dict[int, list] = {}
    for row in rows:
        games.setdefault(row[0], []).append(row)
    tally: dict[tuple, dict] = {}
    for entries in games.values():
        if len(entries) != 2:
            continue
        (_, pool, first, first_place, weight, finished), (_, _, second, second_place, _, _) = sorted(
            entries, key=lambda entry: entry[2]
        )
        item = tally.setdefault(
            (pool, first, second), {"games": 0, first: 0, second: 0, "discounted": 0, "last": finished}
        )
        item["games"] += 1
        item[first] += int(first_place < second_place)
        item[second] += int(second_place < first_place)
        item["discounted"] += int(weight < 1)
        item["last"] = max(item["last"], finished)
    pairs = []
    for (pool, first, second), item in tally.items():
        if item["games"] < min_games:
            continue
        if item[second] > item[first]:
            first, second = second, first
        pair = SuspiciousPair(
            pool, first, second, item["games"], item[first], item[second], item["discounted"], item["last"]
        )
        if pair.one_sided >= SUSPICIOUS_SHARE or pair.discounted * 2 > pair.games:
            pairs.append(pair)
    return sorted(pairs, key=lambda pair: (-pair.games, pair.pool, pair.first, pair.second))
