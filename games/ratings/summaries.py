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

The game kinds keep their own parts of the profile under the same version (``kept``):
the latest finished games, the best plays. A kind whose best plays count games still in
play keeps them under the player's plays too, which each move of theirs replaces
(``forget_plays``).
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from django.core.cache import cache
from django.db import transaction
from django.utils.safestring import SafeString, mark_safe

from . import stats

KEEP_SECONDS = 15 * 60
_EVERYONE = "profile-stats:generation"
_MISSING = object()
T = TypeVar("T")


def _version_key(user_id: int) -> str:
    return f"profile-stats:version:{user_id}"


def _plays_key(user_id: int) -> str:
    return f"profile-stats:plays:{user_id}"


def _versions(player) -> tuple[str, str, str]:
    """Everyone's generation, ``player``'s version and their plays' version: one round trip
    once they are set, and read once for the ``player`` object (one view)."""
    versions = player.__dict__.get("_kept_versions")
    if versions is None:
        keys = (_EVERYONE, _version_key(player.pk), _plays_key(player.pk))
        found = cache.get_many(keys)
        versions = tuple(found.get(key) or cache.get_or_set(key, uuid.uuid4().hex, None) for key in keys)
        player.__dict__["_kept_versions"] = versions
    return versions


def kept(player, part: str, read: Callable[[], T], *, plays: bool = False) -> T:
    """``read()``, something of ``player``'s games, from the cache while the player's
    version is current (and, with ``plays``, their plays: it counts games still in play);
    ``part`` names it and the shape it is kept in (a new shape, a new name).

    Keep only what those events change: what changes otherwise is read or said at each
    view (a name, how long ago, what a viewer may see). The versions are read once per
    ``player`` object, so a view's parts agree with one another.
    """
    generation, version, their_plays = _versions(player)
    key = ":".join(("profile-stats", part, str(player.pk), generation, version, *((their_plays,) if plays else ())))
    found = cache.get(key, _MISSING)
    if found is _MISSING:
        found = read()
        cache.set(key, found, KEEP_SECONDS)
    return found


def kept_html(player, part: str, shows, render: Callable[[], str], *, plays: bool = False) -> SafeString:
    """A section of ``player``'s profile as HTML (``render()``), kept as ``kept`` keeps
    the facts it shows, and also under what it shows that changes without those events:
    ``shows`` (names as they are now, how long ago) is part of the key, so a new name or
    another "3 minutes ago" renders it anew. Nothing in it may depend on the viewer.

    Rendering a section's rows costs more than reading what they show from the cache.
    """
    digest = hashlib.blake2b(repr(shows).encode(), digest_size=16).hexdigest()
    return mark_safe(kept(player, f"{part}:{digest}", render, plays=plays))


def pools(player, chart: Callable[[stats.PoolStats], str] | None = None) -> list[stats.PoolStats]:
    """``stats.pool_stats(player)`` from the cache when current.

    With ``chart``, each pool's history is kept drawn (``chart(pool)``, HTML) as the
    pool's ``chart`` in place of its history: a chart names nobody, and drawing a point
    per rated game cost most of a kept profile's time.
    """

    def read():
        found = stats.pool_stats(player)
        if chart is not None:
            found = [replace(pool, chart=chart(pool) if pool.history else "", history=[]) for pool in found]
        return found

    # 3: charts drawn; the start of each key names the shape of what it keeps.
    return kept(player, "pools:3" if chart else "pools:2", read)


def opponents(player) -> list[stats.Opponent]:
    """``stats.opponents(player)``: the counts from the cache when current, the
    opponents' names as they are now (a renamed or deleted opponent shows as they are)."""
    return stats.named(kept(player, "opponents:1", lambda: stats.opponent_records(player)))


def forget_players(user_ids) -> None:
    """The statistics of these players are out of date once the current transaction commits."""
    user_ids = [user_id for user_id in user_ids if user_id is not None]
    if user_ids:
        transaction.on_commit(lambda: cache.set_many({_version_key(pk): uuid.uuid4().hex for pk in user_ids}, None))


def forget_plays(user_ids) -> None:
    """What these players' moves change (best plays that count games still in play) is out
    of date once the current transaction commits."""
    user_ids = [user_id for user_id in user_ids if user_id is not None]
    if user_ids:
        transaction.on_commit(lambda: cache.set_many({_plays_key(pk): uuid.uuid4().hex for pk in user_ids}, None))


def forget_everyone() -> None:
    """Every player's statistics are out of date once the current transaction commits."""
    transaction.on_commit(lambda: cache.set(_EVERYONE, uuid.uuid4().hex, None))


def game_finished(outcome) -> None:
    """``registry.on_game_finished`` receiver: the finished game's players."""
    forget_players(player.user_id for player in outcome.players)
