"""Player statistics for the profile and the API: reads across the game apps.

Per pool: rating and its history, games played and won, average score, and the current
streak; across games: record against each opponent, best hunt words, best crossword play.
Only finished games count; casual games count here as much as ranked ones (a player's
record is every game played), while ratings move only with rated results.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Avg, Count, Exists, F, OuterRef, Q, Subquery
from django.db.models.functions import Length

from games.crosswords.models import Move, MoveKind, Seat
from games.crosswords.models import Status as CrosswordStatus
from games.hunts.models import FoundWord, RoundPlayer, RoundStatus

from . import scale
from .models import RatedPlayer, RatedResult
from .pools import POOL_INFO, POOLS, crossword_pool, hunt_pool

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
    history: list[tuple] = field(default_factory=list)  # (finished_at, rating): the start, then after each game

    @property
    def win_rate(self) -> int | None:
        return round(100 * self.wins / self.games) if self.games else None


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


def _hunt_rows(user):
    # A daily challenge round is played alone (never won, drawn or lost): it has its own
    # leaderboard and stays out of the record, where it counted as a game and a loss.
    return RoundPlayer.objects.filter(user=user, round__status=RoundStatus.FINISHED, round__table__daily__isnull=True)


def _crossword_rows(user):
    shared_first = Seat.objects.filter(game=OuterRef("game"), place=1).exclude(pk=OuterRef("pk"))
    return Seat.objects.filter(user=user, game__status=CrosswordStatus.FINISHED).annotate(
        shared_first=Exists(shared_first)
    )


def _streak(outcomes) -> tuple[str, int]:
    """The run of equal outcomes at the start of ``outcomes`` (newest first)."""
    first, count = "", 0
    for outcome in outcomes:
        if count and outcome != first:
            break
        first, count = outcome, count + 1
    return first, count


def pool_stats(user) -> list[PoolStats]:
    """``user``'s statistics in every pool they played, in pool order."""
    from .models import Rating

    stats = {code: PoolStats(code, info.name) for code, info in POOL_INFO.items()}
    for row in (
        _hunt_rows(user)
        .values("round__game", "round__size")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(is_winner=True)), average=Avg("score"))
    ):
        item = stats[hunt_pool(row["round__game"], row["round__size"])]
        item.games, item.wins, item.average_score = row["games"], row["wins"], row["average"]
    for row in (
        _crossword_rows(user)
        .values("game__variant")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(place=1, shared_first=False)), average=Avg("score"))
    ):
        item = stats[crossword_pool(row["game__variant"])]
        item.games, item.wins, item.average_score = row["games"], row["wins"], row["average"]
    for rating in Rating.objects.filter(user=user):
        item = stats[rating.pool]
        item.rating, item.provisional, item.rated_games = rating.rating, rating.provisional, rating.games
    for item in stats.values():
        if not item.games:
            continue
        if POOL_INFO[item.pool].family == "hunt":
            rules = POOL_INFO[item.pool].hunt_rules
            recent = (
                _hunt_rows(user)
                .filter(round__game=rules.game, round__size=rules.size)
                .order_by("-round__ended_at")
                .values_list("is_winner", "is_draw")[:STREAK_LOOKBACK]
            )
            item.streak = _streak("won" if won else "drew" if drew else "lost" for won, drew in recent)
        elif POOL_INFO[item.pool].family == "crossword":
            recent = (
                _crossword_rows(user)
                .filter(game__variant=item.pool)
                .order_by("-game__finished_at")
                .values_list("place", "shared_first")[:STREAK_LOOKBACK]
            )
            item.streak = _streak(
                "won" if place == 1 and not shared else "drew" if place == 1 else "lost" for place, shared in recent
            )
    histories = defaultdict(list)
    # Within a pool, result ids follow the finishing order (both are given under its lock).
    for pool, finished_at, before, after in (
        RatedPlayer.objects.filter(user=user, rating_after__isnull=False)
        .order_by("pool", "result_id")
        .values_list("pool", "finished_at", "rating_before", "rating_after")
    ):
        if not histories[pool]:  # the line starts from the rating before the first game
            histories[pool].append((finished_at, before))
        histories[pool].append((finished_at, after))
    for pool, points in histories.items():
        stats[pool].history = points
    return [stats[code] for code in POOLS if stats[code].games or stats[code].rated_games]


# --------------------------------------------------------------------------- opponents


def opponents(user, limit: int = OPPONENTS_SHOWN) -> list[Opponent]:
    """``user``'s record against the people (and bots) met most, over hunts and crosswords.

    In a hunt of three or four a player beats every opponent placed below them.
    """
    from accounts.models import User

    tally: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # games, wins, draws, losses
    my_hunt_place = RoundPlayer.objects.filter(round=OuterRef("round"), user=user).values("placing")[:1]
    hunt = (
        RoundPlayer.objects.filter(round__status=RoundStatus.FINISHED, round__players__user=user)
        .exclude(user=user)
        .annotate(mine=Subquery(my_hunt_place))
    )
    my_seat_place = Seat.objects.filter(game=OuterRef("game"), user=user).values("place")[:1]
    crossword = (
        Seat.objects.filter(game__status=CrosswordStatus.FINISHED, game__seats__user=user, user__isnull=False)
        .exclude(user=user)
        .annotate(mine=Subquery(my_seat_place))
    )
    for rows, theirs in ((hunt, "placing"), (crossword, "place")):
        for row in rows.values("user_id").annotate(
            games=Count("pk"),
            wins=Count("pk", filter=Q(mine__lt=F(theirs))),
            draws=Count("pk", filter=Q(mine=F(theirs))),
        ):
            entry = tally[row["user_id"]]
            entry[0] += row["games"]
            entry[1] += row["wins"]
            entry[2] += row["draws"]
            entry[3] += row["games"] - row["wins"] - row["draws"]
    top = sorted(tally.items(), key=lambda item: (-item[1][0], item[0]))[:limit]
    names = {u.pk: u for u in User.objects.filter(pk__in=[user_id for user_id, _ in top])}
    return [
        Opponent(user_id, names[user_id].username, names[user_id].shown_name, *counts)
        for user_id, counts in top
        if user_id in names
    ]


# --------------------------------------------------------------------------- best plays


@dataclass(frozen=True)
class BestPlays:
    best_hunt_word: object = None  # FoundWord
    longest_hunt_word: object = None
    best_crossword_play: object = None  # Move, with .game


def best_plays(user) -> BestPlays:
    """The highest-scoring and the longest hunt word kept, and the highest crossword play."""
    words = FoundWord.objects.filter(user=user, crossed_off=False, round__status=RoundStatus.FINISHED)
    best = words.select_related("round").order_by("-points", "found_at").first()
    longest = (
        words.select_related("round")
        .annotate(letters=Length("word"))
        .order_by("-letters", "-points", "found_at")
        .first()
    )
    play = (
        Move.objects.filter(kind=MoveKind.PLACE, game__seats__user=user, game__seats__index=F("seat"))
        .exclude(game__status=CrosswordStatus.CANCELLED)
        .select_related("game")
        .order_by("-score", "created_at")
        .first()
    )
    return BestPlays(best, longest, play)


# --------------------------------------------------------------------------- rated games


def rated_games(user, pool: str | None = None):
    """``user``'s rated results (newest first) as a queryset of RatedResult, players prefetched."""
    results = RatedResult.objects.filter(players__user=user)
    if pool is not None:
        results = results.filter(pool=pool)
    return results.order_by("-finished_at", "-pk").prefetch_related("players__user")
