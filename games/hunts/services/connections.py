"""Open table websockets: who is watching a table."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.hunts import broadcasts
from games.hunts.models import TableConnection

# A connection that has not pinged for this long belongs to a process that died.
STALE_AFTER = timedelta(seconds=90)


def connection_open(*, table_id: int, channel_name: str, user=None) -> None:
    with transaction.atomic():
        TableConnection.objects.update_or_create(
            channel_name=channel_name,
            defaults={
                "table_id": table_id,
                "seen_at": timezone.now(),
                "user": user if user is not None and user.is_authenticated else None,
            },
        )
        broadcasts.watchers_changed(table_id)


def connection_touch(*, channel_name: str) -> None:
    TableConnection.objects.filter(channel_name=channel_name).update(seen_at=timezone.now())


def connection_close(*, channel_name: str) -> None:
    with transaction.atomic():
        connection = TableConnection.objects.filter(channel_name=channel_name).first()
        if connection is None:
            return
        connection.delete()
        broadcasts.watchers_changed(connection.table_id)


def connection_sweep() -> int:
    """Forget connections of dead processes and update the watcher counts."""
    with transaction.atomic():
        stale = TableConnection.objects.filter(seen_at__lt=timezone.now() - STALE_AFTER)
        tables = set(stale.values_list("table_id", flat=True))
        deleted, _ = stale.delete()
        for table_id in tables:
            broadcasts.watchers_changed(table_id)
    return deleted
