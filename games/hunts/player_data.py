"""A player's part in the hunts: what is theirs to export, and how forgetting them
stands them up from their tables and takes them out of the ranked queue."""

from __future__ import annotations

from . import services
from .models import FoundWord, HuntSeat, QueueEntry, RoundPlayer, SubmissionCount


def _when(moment) -> str | None:
    return moment.isoformat() if moment else None


def export_player(user) -> dict:
    """``user``'s seats at tables, the rounds they played with the words they found, and
    their place in a ranked queue, as JSON-ready values."""
    words: dict[int, list] = {}
    for found in FoundWord.objects.filter(user=user).order_by("round_id", "found_at"):
        words.setdefault(found.round_id, []).append(
            {"word": found.word, "points": found.points, "crossed_off": found.crossed_off, "at": _when(found.found_at)}
        )
    entry = QueueEntry.objects.filter(user=user).first()
    return {
        "seats": [
            {
                "table": seat.table_id,
                "url": seat.table.get_absolute_url(),
                "game": seat.table.game,
                "size": seat.table.size,
                "ranked": seat.table.ranked,
                "joined_at": _when(seat.joined_at),
                "left_at": _when(seat.left_at),
            }
            for seat in HuntSeat.objects.filter(user=user).select_related("table").order_by("joined_at", "pk")
        ],
        "rounds": [
            {
                "round": player.round_id,
                "url": player.round.get_absolute_url(),
                "game": player.round.game,
                "size": player.round.size,
                "status": player.round.status,
                "score": player.score,
                "placing": player.placing,
                "won": player.is_winner,
                "words": words.get(player.round_id, []),
            }
            for player in RoundPlayer.objects.filter(user=user).select_related("round").order_by("round_id")
        ],
        "queue": {"pool": entry.pool, "joined_at": _when(entry.joined_at)} if entry else None,
    }


def forget_player(user) -> None:
    """Stand ``user`` up from every table they sit at (a host hands the table on) and take
    them out of the ranked queue, and drop their count of tries; the rounds they played
    stay, for the others' results."""
    SubmissionCount.objects.filter(user=user).delete()
    if QueueEntry.objects.filter(user=user).exists():
        services.queue_cancel(user=user)
    for table_id in HuntSeat.objects.filter(user=user, left_at__isnull=True).values_list("table_id", flat=True):
        services.table_leave(table_id=table_id, user=user)
