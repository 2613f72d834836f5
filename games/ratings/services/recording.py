"""Recording finished ranked games as rated results, in the finishing transaction.

Which games are rated is decided here, once, for every kind of game: ranked, two or more
people and no bot seat, and not abandoned before anyone moved. A player who forfeited,
resigned or left early finishes last, below everyone who stayed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from ..models import PoolClock, RatedPlayer, RatedResult, ResultKind
from ..pools import POOL_INFO, crossword_pool, hunt_pool


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
) -> RatedResult:
    """Record one rated result and queue its rating update for after the commit.

    Called inside the transaction that finishes the game, so the result exists exactly
    when the game is finished. Recording the same game again returns the first record.
    Results of a pool are numbered under the pool's row lock, held to the commit, so
    ``seq`` order is commit order: when the worker applies result n, every result before
    it has committed.
    """
    if pool not in POOL_INFO:
        raise RatingError(f"No rating pool {pool!r}.")
    if kind not in ResultKind.values:
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
            from ..tasks import apply_ratings

            apply_ratings.delay(pool)

        transaction.on_commit(queue)
    return result


def hunt_round_finished(game_round, players, *, now: datetime | None = None) -> RatedResult | None:
    """Record a just-scored hunt round if it is rated; ``players`` are its RoundPlayers.

    Rated when the table is ranked, every seat is a person, and someone found a word (a
    round nobody played is abandoned). Leaving the table before the round ended is
    finishing last.
    """
    from games.hunts.models import HuntSeat

    table = game_round.table
    if not table.ranked or len(players) < 2:
        return None
    if any(player.bot_strength or player.user.is_bot for player in players):
        return None
    if not game_round.found_words.exists():
        return None
    now = now or timezone.now()
    user_ids = [player.user_id for player in players]
    # Early is before the deadline: a round scored late (its end task lost) must not rate
    # last someone who stood up after playing it to the end.
    left = set(
        HuntSeat.objects.filter(
            table_id=game_round.table_id,
            user_id__in=user_ids,
            left_at__gte=game_round.created_at,
            left_at__lt=game_round.deadline,
        ).values_list("user_id", flat=True)
    )
    finishes = [
        Finish(player.user_id, player.placing or len(players), player.score, player.user_id in left)
        for player in players
    ]
    return result_record(
        pool=hunt_pool(game_round.game, game_round.size),
        kind=ResultKind.HUNT,
        object_id=game_round.pk,
        finishes=finishes,
        url=game_round.get_absolute_url(),
        finished_at=now,
    )


def crossword_game_finished(game, seats) -> RatedResult | None:
    """Record a just-finished crossword game if it is rated; ``seats`` are its Seats."""
    from games.crosswords.models import MoveKind

    return _seated_game_finished(
        game,
        seats,
        pool=crossword_pool(game.variant),
        kind=ResultKind.CROSSWORD,
        moves=(MoveKind.PLACE, MoveKind.SWAP, MoveKind.PASS),
    )


def tow_game_finished(game, seats) -> RatedResult | None:
    """Record a just-finished TOW game if it is rated; ``seats`` are its Seats."""
    from games.tow.models import MoveKind

    return _seated_game_finished(
        game, seats, pool="tow", kind=ResultKind.TOW, moves=(MoveKind.PLACE, MoveKind.SWAP, MoveKind.PASS)
    )


def _seated_game_finished(game, seats, *, pool: str, kind: str, moves) -> RatedResult | None:
    """The rule of games played in turns at seats (crossword, TOW).

    Rated when the game is ranked between two people and someone made one of ``moves``
    (a play, swap or pass: a game forfeited or resigned before any move is abandoned,
    not rated). Forfeiting or resigning is finishing last.
    """
    if not getattr(game, "ranked", False) or len(seats) != 2:
        return None
    if any(seat.user is None or seat.user.is_bot for seat in seats):
        return None
    if not game.moves.filter(kind__in=moves).exists():
        return None
    finishes = [Finish(seat.user_id, seat.place or len(seats), seat.score, bool(seat.left)) for seat in seats]
    return result_record(
        pool=pool,
        kind=kind,
        object_id=game.pk,
        finishes=finishes,
        url=game.get_absolute_url(),
        finished_at=game.finished_at,
    )
