"""Recording finished ranked games as rated results, in the finishing transaction.

Every game kind tells a finished game as a ``games.registry.Outcome``; which games are
rated is decided here, once, for every kind (``outcome_record``): ranked, two or more
people and no bot seat, and not abandoned before anyone moved. How much a rated game
counts is the fair-play rules' to say (``games.ratings.fairplay``): it is recorded with
the result, with the reason, even when it is nothing. A player who forfeited, resigned
or left early finishes last, below everyone who stayed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import registry

from .. import (
    fairplay,
    tasks,  # queued after commit; the task calls back into the services
)
from ..models import PoolClock, RatedPlayer, RatedResult
from ..pools import pool_codes


class RatingError(ValueError):
    """A result that cannot be rated as given (a programming error in the caller)."""


@dataclass(frozen=True)
class Finish:
    """One person's finish: ``place`` 1 is first, equal places tie; ``left`` ranks last."""

    user_id: int
    place: int
    score: int = 0
    left: bool = False


def ranks_of(finishes: Sequence[Finish]) -> list[int]:
    """Openskill ranks: stayers keep their order and ties, all leavers share last place."""
    staying = sorted({finish.place for finish in finishes if not finish.left})
    dense = {place: index + 1 for index, place in enumerate(staying)}
    last = len(staying) + 1
    return [last if finish.left else dense[finish.place] for finish in finishes]


def _locked_clock(pool: str) -> PoolClock:
    """The pool's clock row, locked until the transaction ends (made on first use)."""
    clock = PoolClock.objects.select_for_update().filter(pool=pool).first()
    if clock is None:
        PoolClock.objects.bulk_create([PoolClock(pool=pool)], ignore_conflicts=True)
        clock = PoolClock.objects.select_for_update().get(pool=pool)
    return clock


def result_record(
    *,
    pool: str,
    kind: str,
    object_id: int,
    finishes: Sequence[Finish],
    url: str = "",
    finished_at: datetime | None = None,
    verdict: fairplay.Verdict | None = None,
) -> RatedResult:
    """Record one rated result and queue its rating update for after the commit.

    Called inside the transaction that finishes the game, so the result exists exactly
    when the game is finished. Recording the same game again returns the first record.
    Results of a pool are numbered under the pool's row lock, held to the commit, so
    ``seq`` order is commit order: when the worker applies result n, every result before
    it has committed.
    """
    if pool not in pool_codes():
        raise RatingError(f"No rating pool {pool!r}.")
    if kind not in {registered.code for registered in registry.kinds()}:
        raise RatingError(f"No result kind {kind!r}.")
    users = [finish.user_id for finish in finishes]
    if len(users) < 2 or len(set(users)) != len(users):
        raise RatingError("A rated result needs two or more different players.")
    with transaction.atomic():
        existing = RatedResult.objects.filter(kind=kind, object_id=object_id).first()
        if existing is not None:
            return existing
        clock = _locked_clock(pool)
        clock.recorded += 1
        clock.save(update_fields=["recorded"])
        result = RatedResult.objects.create(
            pool=pool,
            seq=clock.recorded,
            kind=kind,
            object_id=object_id,
            url=url,
            finished_at=finished_at or timezone.now(),
            weight=verdict.weight if verdict else 1.0,
            reason=verdict.reason if verdict else "",
        )
        RatedPlayer.objects.bulk_create(
            RatedPlayer(
                result=result,
                user_id=finish.user_id,
                place=place,
                score=finish.score,
                left=finish.left,
                pool=pool,
                finished_at=result.finished_at,
            )
            for finish, place in zip(finishes, ranks_of(finishes), strict=True)
        )

        def queue(pool=pool):
            tasks.apply_ratings.delay(pool)

        transaction.on_commit(queue)
    return result


@transaction.atomic
def outcome_record(outcome: registry.Outcome) -> RatedResult | None:
    """Record a just-finished game as a rated result if it is rated (the finished-game
    hook, in the finishing transaction).

    Rated when the game is ranked, between two or more people and no bot, and was not
    abandoned (someone moved: a play, swap or pass; a hunter's word). Resigning,
    forfeiting or leaving early is finishing last.
    """
    if not outcome.ranked or len(outcome.players) < 2:
        return None
    if any(player.is_bot for player in outcome.players):
        return None
    if outcome.ending == registry.Ending.ABANDONED:
        return None
    finished_at = outcome.finished_at or timezone.now()
    # Counted under the pool's lock (held to the commit, as result_record's), so every
    # earlier result of the pool has committed: two games of one pair finishing at once
    # are counted one after the other.
    _locked_clock(outcome.pool)
    meetings = _meetings(outcome.pool, [player.user_id for player in outcome.players], finished_at)
    return result_record(
        pool=outcome.pool,
        kind=outcome.kind,
        object_id=outcome.object_id,
        finishes=[Finish(player.user_id, player.place, player.score, player.left) for player in outcome.players],
        url=outcome.url,
        finished_at=finished_at,
        verdict=fairplay.judge(outcome, meetings),
    )


def _meetings(pool: str, user_ids: list[int], finished_at: datetime) -> int:
    """How many results of ``pool`` in the day before ``finished_at`` had two of these
    players (the pair that met most). Voided ones count: the pair met, and a result's
    weight never depends on whether a void came before or after it was recorded."""
    since = finished_at - fairplay.PAIR_WINDOW
    recent = RatedPlayer.objects.filter(
        pool=pool, user_id__in=user_ids, finished_at__gte=since, finished_at__lte=finished_at
    )
    results: dict[int, set[int]] = {}
    for result_id, user_id in recent.values_list("result_id", "user_id"):
        results.setdefault(result_id, set()).add(user_id)
    pairs: dict[tuple[int, int], int] = {}
    for players in results.values():
        for first in players:
            for second in players:
                if first < second:
                    pairs[first, second] = pairs.get((first, second), 0) + 1
    return max(pairs.values(), default=0)
