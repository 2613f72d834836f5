"""Ranked queue use cases: join, cancel, keep alive, take a bot instead, and matcher passes.

The queue is ``QueueEntry`` rows, so a restart loses or repeats nobody. Who sits with
whom is decided by the pure matcher (``games.engine.matching``); this module feeds it the
queue and turns its tables into ranked tables whose round starts at once, through the
table and round use cases.

Invariants, each held by the database:

- A player is in at most one queue: ``QueueEntry.user`` is unique.
- A queued player holds no seat at a ranked table, and a player holds at most one seat at
  an open ranked table. Every way into either (joining the queue, sitting at a ranked
  table) locks the player's user row first and checks (``ranked_seat_problem``; the
  players of an arranged table all at once, ``table_arrange``).
- A queue entry is deleted in the transaction that seats its player. A pass locks the
  entries it reads (``FOR UPDATE SKIP LOCKED``) and decides holding the pool's advisory
  lock (transaction-scoped), so two matchers running at once never seat one player twice:
  the second skips the pool, and even without the pool lock it could not read the locked
  entries.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from config import metrics
from games.engine import hunt, matching
from games.hunts import broadcasts
from games.hunts.models import HuntTable, QueueEntry
from games.ratings import selectors as ratings

from .. import pools
from ..selectors import queue_counts, queue_status
from .errors import Refused
from .rounds import round_start
from .tables import leave_ranked_tables_between_rounds, lock_user, table_arrange, table_create

logger = logging.getLogger(__name__)
User = get_user_model()

#: The hunt pools with a ranked queue, and the rules of their tables.
POOL_RULES: dict[str, hunt.HuntRules] = pools.RULES
POLICY = matching.DEFAULT_POLICY
# A queued player whose page has given no sign of life for this long is dropped; a
# reload or a short network drop stays well inside it.
GRACE = timedelta(seconds=15)
# A decided table's players are kept for it this long; if it is not seated by then (a
# lost task), they are matched afresh.
RESERVATION = timedelta(seconds=10)
# Class of the pools' advisory locks ("mtch"); the object is the pool's index.
MATCH_LOCK_CLASS = 0x6D746368


def pool_name(pool: str) -> str:
    return pools.name_of(pool)


def _check_pool(pool) -> str:
    if pool not in POOL_RULES:
        raise Refused("Unknown ranked pool.")
    return pool


# --------------------------------------------------------------------------- the player's side


@transaction.atomic
def queue_join(*, user, pool: str, now: datetime | None = None) -> QueueEntry:
    """Put ``user`` in ``pool``'s ranked queue at their current rating in that pool.

    Refused while already queued (another pool, or the same one from another tab) or
    seated at a ranked table whose round is in progress or not yet started. A seat at a
    ranked table between rounds is given up.
    """
    now = now or timezone.now()
    if user is None or not user.is_authenticated:
        raise Refused("Log in to play ranked.")
    if user.is_bot:
        raise Refused("Bots do not play ranked.")
    _check_pool(pool)
    lock_user(user)
    entry = QueueEntry.objects.filter(user_id=user.pk).first()
    if entry is not None:
        if entry.pool == pool:
            raise Refused(f"You are already waiting in the {pool_name(pool)} queue (in another tab?).")
        raise Refused(f"You are already waiting in the {pool_name(entry.pool)} queue; cancel it first.")
    leave_ranked_tables_between_rounds(user)
    rating = ratings.player_rating(user, pool).rating
    try:
        with transaction.atomic():
            entry = QueueEntry.objects.create(user=user, pool=pool, rating=rating, joined_at=now, seen_at=now)
    except IntegrityError:
        raise Refused("You are already waiting in a ranked queue.") from None
    broadcasts.queue_changed(pool, [user.pk])
    broadcasts.queue_joined(pool)
    return entry


@transaction.atomic
def queue_cancel(*, user) -> None:
    """Take ``user`` out of the queue they are waiting in."""
    if user is None or not user.is_authenticated:
        raise Refused("Log in to play ranked.")
    entry = QueueEntry.objects.select_for_update().filter(user_id=user.pk).first()
    if entry is None:
        raise Refused("You are not waiting in a ranked queue.")
    entry.delete()
    broadcasts.queue_changed(entry.pool, [user.pk])


def queue_touch(*, user, now: datetime | None = None) -> bool:
    """The player's page is still open: their place in the queue is kept."""
    if user is None or not user.is_authenticated:
        return False
    return bool(QueueEntry.objects.filter(user_id=user.pk).update(seen_at=now or timezone.now()))


@transaction.atomic
def queue_play_bot(*, user, strength: str = "medium") -> HuntTable:
    """Leave the queue for a casual table against a bot, its round starting at once.

    Offered to a player the matcher found nobody for; refused before the offer.
    """
    if user is None or not user.is_authenticated:
        raise Refused("Log in to play.")
    entry = QueueEntry.objects.select_for_update().filter(user_id=user.pk).first()
    if entry is None:
        raise Refused("You are not waiting in a ranked queue.")
    if entry.bot_offered_at is None:
        raise Refused("Keep waiting a little: a bot is offered when nobody can be found.")
    entry.delete()
    rules = POOL_RULES[entry.pool]
    table = table_create(host=user, game=rules.game, size=rules.size, seat_count=2, bots=(strength,), arranged=True)
    round_start(table_id=table.pk, by=user)
    broadcasts.queue_changed(entry.pool, [user.pk])
    return table


# --------------------------------------------------------------------------- the matcher's side


@dataclass(frozen=True)
class PassReport:
    """What one pass over a pool did (``skipped``: another matcher held the pool)."""

    pool: str
    skipped: bool = False
    tables: tuple[int, ...] = ()
    decided: int = 0
    dropped: tuple[int, ...] = ()
    offered: tuple[int, ...] = ()
    waiting: int = 0


def _pool_lock_taken(pool: str) -> bool:
    """Take ``pool``'s matcher lock until the current transaction ends, if it is free.

    Transaction-scoped, so it ends with the decision's transaction whatever happens, and
    behind PgBouncer in transaction mode it is taken and released on the one server
    connection that runs the transaction (a session lock would stay on a connection the
    pooler hands to others, and every later pass would skip the pool).
    """
    connection = transaction.get_connection()
    if connection.vendor != "postgresql":
        return True  # SQLite runs one writer at a time anyway
    key = (MATCH_LOCK_CLASS << 8) | list(POOL_RULES).index(pool)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [key])
        return cursor.fetchone()[0]


def match_pool(
    *, pool: str, now: datetime | None = None, policy: matching.MatchPolicy = POLICY, seat: bool = True
) -> PassReport:
    """One matcher pass over ``pool``: drop the departed, offer bots, decide tables.

    The decision is one short transaction under the pool's lock; a second matcher
    finding the lock taken returns at once (``skipped``). The players of each decided
    table are reserved for ``RESERVATION``, so no other pass decides them again, and the
    table is seated in a transaction of its own (``seat_decided``): here, one after
    another (``seat``), or by one ``seat_ranked`` task per table, so a burst of tables is
    seated by every worker at once. A table not seated in time (a lost task, a player who
    cancelled) is decided afresh once the reservation ends.
    """
    now = now or timezone.now()
    _check_pool(pool)
    if not QueueEntry.objects.filter(pool=pool).exists():
        return PassReport(pool=pool)  # the usual case: no lock, no transaction
    decision = _decide(pool, now, policy, in_tasks=not seat)
    if decision is None:
        return PassReport(pool=pool, skipped=True)
    decided, waiting, stale, offered = decision
    formed = []
    if seat:
        with broadcasts.lobby_batched():
            for players in decided:
                table = seat_decided(pool=pool, players=players, now=now)
                if table is not None:
                    formed.append(table)
        if formed:
            broadcasts.queue_changed(pool, [])  # the waiting counts, once per pass
    return PassReport(
        pool=pool,
        tables=tuple(table.pk for table in formed),
        decided=len(decided),
        dropped=tuple(stale),
        offered=tuple(offered),
        waiting=waiting,
    )


@transaction.atomic
def _decide(pool: str, now: datetime, policy: matching.MatchPolicy, *, in_tasks: bool):
    """Under the pool's lock, read the pool's queue, drop the silent, run the matcher over
    those not reserved, reserve the decided tables' players and mark the bot offers;
    None if another matcher holds the lock."""
    if not _pool_lock_taken(pool):
        return None
    entries = list(QueueEntry.objects.select_for_update(skip_locked=True).filter(pool=pool).order_by("joined_at", "pk"))
    stale = [entry.user_id for entry in entries if entry.seen_at < now - GRACE]
    if stale:
        QueueEntry.objects.filter(pool=pool, user_id__in=stale).delete()
    free = [
        entry
        for entry in entries
        if entry.seen_at >= now - GRACE and (entry.reserved_until is None or entry.reserved_until <= now)
    ]
    result = matching.match(
        (matching.Seeker(entry.user_id, entry.rating, entry.joined_at.timestamp()) for entry in free),
        now.timestamp(),
        policy,
    )
    decided = [[seeker.player for seeker in seekers] for seekers in result.tables]
    if decided:
        QueueEntry.objects.filter(user_id__in=[p for players in decided for p in players]).update(
            reserved_until=now + RESERVATION
        )
        if in_tasks:
            broadcasts.tables_decided(pool, decided, kept=RESERVATION)
    offered_before = {entry.user_id for entry in free if entry.bot_offered_at is not None}
    offered = [player for player in result.lonely if player not in offered_before]
    if offered:
        QueueEntry.objects.filter(user_id__in=offered).update(bot_offered_at=now)
    if stale or offered:
        broadcasts.queue_changed(pool, stale + offered)
    return decided, len(result.waiting), stale, offered


def seat_decided(*, pool: str, players: list[int], now: datetime | None = None) -> HuntTable | None:
    """Seat a table the matcher decided, in one transaction, if all its players still wait.

    Otherwise (one cancelled or was dropped, or another seating holds them) nothing is
    seated, and the players still waiting are released for the next pass. Safe to run
    twice: the second run finds the entries gone.
    """
    now = max(now or timezone.now(), timezone.now())  # a late seating's 3-2-1 starts now
    try:
        with transaction.atomic():
            entries = {
                entry.user_id: entry
                for entry in QueueEntry.objects.select_for_update(skip_locked=True, of=("self",))
                .filter(pool=pool, user_id__in=players)
                .select_related("user")
            }
            if len(entries) == len(players):
                return _seat_table(pool, [entries[player] for player in players], now)
    except Refused as refused:
        logger.warning("Ranked table in %s not formed for %s: %s", pool, players, refused.reason)
    QueueEntry.objects.filter(pool=pool, user_id__in=players).update(reserved_until=None)
    return None


def _seat_table(pool: str, entries: list[QueueEntry], now: datetime) -> HuntTable:
    """A ranked table for ``entries`` (longest waiter hosting) with its round started."""
    QueueEntry.objects.filter(pk__in=[entry.pk for entry in entries]).delete()
    rules = POOL_RULES[pool]
    players = [entry.user for entry in entries]
    table = table_arrange(players=players, game=rules.game, size=rules.size, ranked=True, now=now).table
    broadcasts.queue_matched([entry.user_id for entry in entries], table.get_absolute_url())
    waits = [(now - entry.joined_at).total_seconds() for entry in entries]
    transaction.on_commit(lambda: [metrics.MATCH_WAIT.labels(pool).observe(wait) for wait in waits])
    return table


def match_all(*, now: datetime | None = None, seat: bool = True) -> list[PassReport]:
    """A pass over every pool."""
    return [match_pool(pool=pool, now=now, seat=seat) for pool in POOL_RULES]


# --------------------------------------------------------------------------- reads


def ranked_panel(user) -> dict:
    """The lobby's ranked panel for ``user``: their status and each pool with its queue."""
    counts = queue_counts()
    return {
        "status": queue_status(user),
        "pools": [{"code": pool, "name": pool_name(pool), "waiting": counts[pool]} for pool in POOL_RULES],
        "bot_offer_after": int(POLICY.bot_offer_after),
    }
