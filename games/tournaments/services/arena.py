"""Arenas: seating whoever waits (``arena_seat``), scoring a finished table
(``arena_scored``), and the end.

The rules are the engine's (``games.engine.arena``): points by placing with the streak
bonus, and tables of 2–4 by the ranked matcher's rule. A player some game kind keeps busy
(its ranked queue, a ranked round elsewhere) waits on, unseated, until free. A pass holds the event's row
(``FOR UPDATE SKIP LOCKED``: a second pass at the same moment skips the arena), takes
the waiting players off the waiting list and makes their tables' pairings in one
transaction; the games start after the commit, one task per table, and a lost start is
redone by the sweep. When the time is up no table starts; tables in play finish and
count, and the arena is finished once the last has.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from games.engine import arena as rules

from .. import tasks
from ..models import IN_PLAY, Entry, Pairing, PairingPlayer, PairingStatus, Status, Tournament
from . import rounds  # the module: rounds imports this one
from .common import after_commit, busy, changed, locked


def _last_opponents(tournament: Tournament, entry_ids: list[int]) -> dict[int, frozenset[int]]:
    """Each entry's opponents at their latest finished table in the arena."""
    rows = (
        PairingPlayer.objects.filter(pairing__tournament=tournament, pairing__status=PairingStatus.FINISHED)
        .filter(pairing__players__entry_id__in=entry_ids)
        .values_list("pairing__players__entry_id", "pairing_id", "entry_id")
    )
    latest: dict[int, int] = {}
    at: dict[int, set[int]] = {}
    for entry_id, pairing_id, other in rows:
        at.setdefault(pairing_id, set()).add(other)
        if pairing_id > latest.get(entry_id, 0):
            latest[entry_id] = pairing_id
    return {entry_id: frozenset(at[pairing_id] - {entry_id}) for entry_id, pairing_id in latest.items()}


def arena_seat(
    *, tournament_id: int, now: datetime | None = None, policy: rules.ArenaPolicy = rules.DEFAULT_ARENA_POLICY
):
    """One pass over an arena's waiting players: the tables it made (their pairing ids),
    or None if another pass held the arena. Past the end it ends the arena instead."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked(tournament_id, skip_locked=True)
        if tournament is None:
            return None
        if not tournament.is_arena or tournament.status not in IN_PLAY:
            return []
        if now >= tournament.ends_at:
            arena_end(tournament, now)  # paused or not: an arena ends on time
            return []
        if tournament.status != Status.RUNNING:
            return []
        entries = list(
            Entry.objects.select_for_update()
            .filter(tournament=tournament, waiting_since__isnull=False, withdrawn_at__isnull=True)
            .order_by("waiting_since", "pk")
        )
        occupied = busy([entry.user_id for entry in entries])
        entries = [entry for entry in entries if entry.user_id not in occupied]  # seated once free
        if len(entries) < 2:
            return []
        by_id = {entry.pk: entry for entry in entries}
        opponents = _last_opponents(tournament, list(by_id))
        passed = rules.arena_pass(
            (
                rules.Waiting(
                    entry.pk,
                    entry.rating,
                    entry.points,
                    entry.waiting_since.timestamp(),
                    opponents.get(entry.pk, frozenset()),
                )
                for entry in entries
            ),
            now.timestamp(),
            policy,
        )
        made = []
        # After the highest board, not the count: an undone table leaves a gap, never a free number.
        board = tournament.pairings.aggregate(last=Max("board"))["last"] or 0
        for table in passed.tables:
            board += 1
            pairing = Pairing.objects.create(tournament=tournament, board=board, created_at=now)
            for seat, seeker in enumerate(table):
                PairingPlayer.objects.create(pairing=pairing, entry_id=seeker.player, seat=seat)
            Entry.objects.filter(pk__in=[seeker.player for seeker in table]).update(waiting_since=None)
            made.append(pairing.pk)
            after_commit(tasks.start_pairing, pairing.pk)
        if made:
            changed(tournament)
        return made


def arena_scored(tournament: Tournament, rows: list[PairingPlayer], finishes, now) -> None:
    """Score a finished arena table from its game's ``finishes`` (by user id): each
    player's points with their streak, a player who left before the end forfeiting
    (``rules.table_finishes``); those still in the arena wait for their next table,
    unless its time is up."""
    entries = {
        entry.pk: entry for entry in Entry.objects.select_for_update().filter(pk__in=[row.entry_id for row in rows])
    }
    results = [finishes.get(entries[row.entry_id].user_id) for row in rows]
    places = [None if result is None or result.left else result.place for result in results]
    table = rules.table_finishes(places) if len(rows) >= 2 else ()
    in_play = tournament.status in IN_PLAY and now < tournament.ends_at
    for row, result, finish in zip(rows, results, table or (None,) * len(rows), strict=True):
        entry = entries[row.entry_id]
        if finish is not None:
            before = rules.ArenaScore(points=entry.points, streak=entry.streak)
            after = before.after(finish)
            row.place = finish.place
            row.score = result.score if result is not None else 0
            row.ended = str(result.ended) if result is not None else "left"
            row.points = after.points - before.points
            row.save(update_fields=["place", "score", "ended", "points"])
            entry.points = after.points
            entry.streak = after.streak
            entry.tables += 1
        entry.waiting_since = now if in_play and entry.withdrawn_at is None else None
        entry.save(update_fields=["points", "streak", "tables", "waiting_since"])


def arena_end(tournament: Tournament, now: datetime) -> None:
    """Past its end an arena seats nobody; once no table is in play it is finished."""
    Entry.objects.filter(tournament=tournament, waiting_since__isnull=False).update(waiting_since=None)
    if tournament.pairings.filter(status__in=(PairingStatus.PENDING, PairingStatus.PLAYING)).exists():
        return
    rounds.tournament_finish(tournament, now)


def arenas_sweep(*, now: datetime | None = None) -> int:
    """A pass over every running arena, and the end of those whose time is up (paused
    ones too)."""
    now = now or timezone.now()
    ids = list(
        Tournament.objects.filter(format="arena")
        .filter(Q(status=Status.RUNNING) | Q(status=Status.PAUSED, ends_at__lte=now))
        .values_list("pk", flat=True)
    )
    for tournament_id in ids:
        arena_seat(tournament_id=tournament_id, now=now)
    return len(ids)
