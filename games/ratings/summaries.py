"""A player's profile statistics, kept in the cache until they change.

``stats.pool_stats`` and ``stats.opponents`` read every finished game of the player: tens
of milliseconds of the server's time for a player with a few hundred games, on every view
of their profile. They change only when a game of the player finishes or their ratings
move, so they are kept per player under a version that those events replace (after
their transaction commits):

- a game of any kind finished (``registry.on_game_finished``): its players;
- rated results applied (``forget_players``, from the ratings service): their players;
- ratings rebuilt from history, or anything that changes everyone's: ``forget_everyone``.

A reader that computed the statistics just before a change stores them under the old
version, which nobody reads again. Opponents are kept as ids and counts: their names are
read on every view, so a renamed (or deleted) opponent shows as they are now. The entries
expire (``KEEP_SECONDS``), so profiles nobody views leave the cache.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace

from django.core.cache import cache
from django.db import transaction

from . import stats

KEEP_SECONDS = 15 * 60
_EVERYONE = "profile-stats:generation"


def _version_key(user_id: int) -> str:
    return f"profile-stats:version:{user_id}"


def statistics(player, chart: Callable[[stats.PoolStats], str] | None = None) -> tuple[list, list]:
    """``(stats.pool_stats(player), stats.opponents(player))``, the counts from the cache
    when current, the opponents' names as they are now.

    ``chart(pool_stats)``, the drawn chart of a pool's rating history, is kept with them
    as each pool's ``chart`` in place of its history: a chart names nobody, and drawing
    a point per rated game cost most of a kept profile's time.
    """
    generation = cache.get_or_set(_EVERYONE, uuid.uuid4().hex, None)
    version = cache.get_or_set(_version_key(player.pk), uuid.uuid4().hex, None)
    # 3: charts drawn; the start of each key names the shape of what it keeps.
    key = f"profile-stats:{3 if chart else 2}:{player.pk}:{generation}:{version}"
    kept = cache.get(key)
    if kept is None:
        pools = stats.pool_stats(player)
        if chart is not None:
            pools = [replace(pool, chart=chart(pool) if pool.history else "", history=[]) for pool in pools]
        kept = (pools, stats.opponent_records(player))
        cache.set(key, kept, KEEP_SECONDS)
    pools, records = kept
    return pools, stats.named(records)


def forget_players(user_ids) -> None:
    """The statistics of these players are out of date once the current transaction commits."""
    user_ids = [user_id for user_id in user_ids if user_id is not None]
    if user_ids:
        transaction.on_commit(lambda: cache.set_many({_version_key(pk): uuid.uuid4().hex for pk in user_ids}, None))


def forget_everyone() -> None:
    """Every player's statistics are out of date once the current transaction commits."""
    transaction.on_commit(lambda: cache.set(_EVERYONE, uuid.uuid4().hex, None))


def game_finished(outcome) -> None:
    """``registry.on_game_finished`` receiver: the finished game's players."""
    forget_players(player.user_id for player in outcome.players)
