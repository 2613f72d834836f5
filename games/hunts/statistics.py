"""A player's hunts as their profile counts them (``games.registry.Statistics``).

Every finished round counts, casual ones too; a daily challenge round is played alone
(never won, drawn or lost): it has its own leaderboard and stays out of the record. In
a round of three or four a player beats every opponent placed below them. A daily
board's words stay secret from a viewer who has not played it, until its day is over.
"""

from __future__ import annotations

from django.db.models import Avg, Count, F, OuterRef, Q, Subquery
from django.db.models.functions import Length

from games import registry
from games.ratings import summaries

from .models import FoundWord, RoundPlayer, RoundStatus
from .pools import RULES, hunt_pool
from .secrecy import secret_challenges, today


def _rows(user):
    return RoundPlayer.objects.filter(user=user, round__status=RoundStatus.FINISHED, round__table__daily__isnull=True)


def records(user, recent: int) -> list[registry.Record]:
    """Rounds played and won per pool, with the latest ``recent`` outcomes of each."""
    found = []
    for row in (
        _rows(user)
        .values("round__game", "round__size")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(is_winner=True)), average=Avg("score"))
    ):
        pool = hunt_pool(row["round__game"], row["round__size"])
        rules = RULES[pool]
        latest = (
            _rows(user)
            .filter(round__game=rules.game, round__size=rules.size)
            .order_by("-round__ended_at")
            .values_list("is_winner", "is_draw")[:recent]
        )
        outcomes = tuple("won" if won else "drew" if drew else "lost" for won, drew in latest)
        found.append(registry.Record(pool, row["games"], row["wins"], row["average"], outcomes))
    return found


def opponents(user) -> dict[int, tuple[int, int, int]]:
    """Rounds, wins and draws against each player ``user`` has met in a finished round."""
    mine = RoundPlayer.objects.filter(round=OuterRef("round"), user=user).values("placing")[:1]
    rows = (
        RoundPlayer.objects.filter(round__status=RoundStatus.FINISHED, round__players__user=user)
        .exclude(user=user)
        .annotate(mine=Subquery(mine))
        .values("user_id")
        .annotate(
            games=Count("pk"),
            wins=Count("pk", filter=Q(mine__lt=F("placing"))),
            draws=Count("pk", filter=Q(mine=F("placing"))),
        )
    )
    return {row["user_id"]: (row["games"], row["wins"], row["draws"]) for row in rows}


def _kept_words(user):
    return FoundWord.objects.filter(user=user, crossed_off=False, round__status=RoundStatus.FINISHED)


def _best_words(user, viewer) -> tuple[FoundWord | None, FoundWord | None]:
    words = _kept_words(user).exclude(round__table__daily__in=secret_challenges(viewer)).select_related("round")
    best = words.order_by("-points", "found_at").first()
    longest = words.annotate(letters=Length("word")).order_by("-letters", "-points", "found_at").first()
    return best, longest


def _for_a_stranger(user) -> tuple[tuple, list[int]]:
    """The best words a stranger may see, and the daily challenges still secret from a
    stranger in which ``user`` kept words."""
    secret = secret_challenges(None).filter(pk__in=_kept_words(user).values("round__table__daily"))
    return _best_words(user, None), list(secret.values_list("pk", flat=True))


def best_plays(user, viewer) -> registry.Card:
    """The highest-scoring and the longest word ``user`` kept, as ``viewer`` may see them.

    What a stranger may see is kept with the player's statistics for the day
    (``summaries.kept``: only a finished round of theirs changes it, and the day's end,
    which ends its dailies' secrecy), with the dailies of theirs still secret from a
    stranger. A viewer from whom those are all secret too sees the same; one who may see
    one of them (they have played it, or it is their own) has the words read for them.
    """
    stranger, secret = summaries.kept(user, f"hunt-best:1:{today()}", lambda: _for_a_stranger(user))
    best, longest = stranger
    if secret and secret_challenges(viewer).filter(pk__in=secret).count() < len(secret):
        best, longest = _best_words(user, viewer)
    return registry.Card("hunts/_best_plays.html", {"best_hunt_word": best, "longest_hunt_word": longest})


STATISTICS = registry.Statistics(records=records, opponents=opponents, best_plays=best_plays)
