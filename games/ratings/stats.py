"""Player statistics for the profile and the API, from ratings and the game kinds.

Per pool: rating and its history (ratings' own), games played and won, average score
and the current streak (each kind counts its games: ``games.registry.Statistics``);
across kinds: the record against each opponent and each kind's best plays. Only
finished games count; casual games count here as much as ranked ones (a player's record
is every game played), while ratings move only with rated results.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model

from games import registry

from . import scale
from .models import RatedPlayer, RatedResult, Rating
from .pools import pool_codes, pool_info

STREAK_LOOKBACK = 100
OPPONENTS_SHOWN = 10


@dataclass
class PoolStats:
    """A player's numbers in one pool."""

    pool: str
    name: str
    rating: int = scale.BASE
    provisional: bool = True
    rated_games: int = 0
    games: int = 0
    wins: int = 0
    average_score: float | None = None
    streak: tuple[str, int] = ("", 0)  # ("won" or "lost" or "drew", how many in a row)
    history: list[ChartPoint] = field(default_factory=list)  # the start, then after each rated game
    chart: str = ""  # the history drawn (a kept profile keeps this instead of the history)

    @property
    def win_rate(self) -> int | None:
        return round(100 * self.wins / self.games) if self.games else None


@dataclass(frozen=True)
class ChartPoint:
    """A point of a player's rating chart: the rating after a rated game (or at the start)."""

    when: object  # the game's finish (the start point: the first game's)
    rating: int
    change: int | None = None  # None for the start point
    url: str = ""
    place: int | None = None
    game: int = 0  # the player's rated games in the pool so far: 0 at the start
    provisional: bool = True  # the rating after it is provisional (fewer than PROVISIONAL_GAMES)


@dataclass
class Opponent:
    user_id: int
    username: str
    name: str
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def win_rate(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0


# --------------------------------------------------------------------------- per pool


def _streak(outcomes) -> tuple[str, int]:
    """The run of equal outcomes at the start of ``outcomes`` (newest first)."""
    first, count = "", 0
    for outcome in outcomes:
        if count and outcome != first:
            break
        first, count = outcome, count + 1
    return first, count


def _statistics(hook: str):
    for kind in registry.kinds():
        if kind.statistics is not None and getattr(kind.statistics, hook) is not None:
            yield getattr(kind.statistics, hook)


def pool_stats(user) -> list[PoolStats]:
    """``user``'s statistics in every pool they played, in pool order."""
    stats = {code: PoolStats(code, pool_info(code).name) for code in pool_codes()}
    for records in _statistics("records"):
        for record in records(user, STREAK_LOOKBACK):
            item = stats[record.pool]
            item.games, item.wins, item.average_score = record.games, record.wins, record.average_score
            item.streak = _streak(record.recent) if record.games else ("", 0)
    for rating in Rating.objects.filter(user=user):
        item = stats[rating.pool]
        item.rating, item.provisional, item.rated_games = rating.rating, rating.provisional, rating.games
    histories = defaultdict(list)
    # Within a pool, result ids follow the finishing order (both are given under its lock).
    for pool, finished_at, before, after, place, url in (
        RatedPlayer.objects.filter(user=user, rating_after__isnull=False)
        .order_by("pool", "result_id")
        .values_list("pool", "finished_at", "rating_before", "rating_after", "place", "result__url")
    ):
        points = histories[pool]
        if not points:  # the line starts from the rating before the first game
            points.append(ChartPoint(when=finished_at, rating=before))
        game = len(points)
        points.append(
            ChartPoint(
                when=finished_at,
                rating=after,
                change=after - before,
                url=url,
                place=place,
                game=game,
                provisional=scale.is_provisional(game),
            )
        )
    for pool, points in histories.items():
        stats[pool].history = points
    return [stats[code] for code in pool_codes() if stats[code].games or stats[code].rated_games]


# --------------------------------------------------------------------------- opponents


Record = tuple[int, tuple[int, int, int, int]]  # an opponent's id, (games, wins, draws, losses)


def opponent_records(user, limit: int = OPPONENTS_SHOWN) -> list[Record]:
    """``user``'s record against the people (and bots) met most, over every kind that
    counts its opponents, most games first: ids and counts, no names (they may change)."""
    tally: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # games, wins, draws, losses
    for met in _statistics("opponents"):
        for user_id, (games, wins, draws) in met(user).items():
            entry = tally[user_id]
            entry[0] += games
            entry[1] += wins
            entry[2] += draws
            entry[3] += games - wins - draws
    top = sorted(tally.items(), key=lambda item: (-item[1][0], item[0]))[:limit]
    return [(user_id, tuple(counts)) for user_id, counts in top]


def named(records: list[Record]) -> list[Opponent]:
    """The opponents of ``records`` under their names of now (one query)."""
    users = get_user_model()
    names = {u.pk: u for u in users.objects.only(*users.NAME_FIELDS).filter(pk__in=[user_id for user_id, _ in records])}
    return [
        Opponent(user_id, names[user_id].username, names[user_id].shown_name, *counts)
        for user_id, counts in records
        if user_id in names
    ]


def opponents(user, limit: int = OPPONENTS_SHOWN) -> list[Opponent]:
    """``user``'s record against the people (and bots) met most, with their names."""
    return named(opponent_records(user, limit))


# --------------------------------------------------------------------------- best plays


@dataclass(frozen=True)
class BestPlays:
    """A player's best plays, a card of each kind's; a play is also read by the name its
    kind gives it (``best.best_hunt_word``; None if not made)."""

    cards: tuple[registry.Card, ...]

    @property
    def shown(self) -> list[registry.Card]:
        """The cards with a play to show."""
        return [card for card in self.cards if any(value is not None for value in card.context.values())]

    def __getattr__(self, name: str):
        if name == "cards":  # not set yet (while copying): no play to look up
            raise AttributeError(name)
        for card in self.cards:
            if name in card.context:
                return card.context[name]
        raise AttributeError(name)


def best_plays(user, viewer=None) -> BestPlays:
    """Each kind's best plays of ``user``, as ``viewer`` may see them (a kind may keep
    some secret from a viewer: a daily challenge's words until its day is over)."""
    return BestPlays(tuple(best(user, viewer) for best in _statistics("best_plays")))


# --------------------------------------------------------------------------- rated games


def rated_games(user, pool: str | None = None):
    """``user``'s rated results (newest first) as a queryset of RatedResult, players prefetched."""
    results = RatedResult.objects.filter(players__user=user, weight__gt=0)
    if pool is not None:
        results = results.filter(pool=pool)
    return results.order_by("-finished_at", "-pk").prefetch_related("players__user")
