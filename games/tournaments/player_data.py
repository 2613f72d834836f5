"""A player's part in tournaments: what is theirs to download, and how deleting their
account takes them out of the events still to play (``accounts.player_data``)."""

from __future__ import annotations

from .models import IN_PLAY, PairingPlayer, Status
from .services import entry_withdraw


def _when(moment) -> str | None:
    return moment.isoformat() if moment else None


def export_player(user) -> dict:
    """``user``'s entries and the games they played in each event, as JSON-ready values."""
    games: dict[int, list] = {}
    rows = (
        PairingPlayer.objects.filter(entry__user=user)
        .select_related("pairing__round")
        .order_by("entry_id", "pairing_id")
    )
    for row in rows:
        games.setdefault(row.entry_id, []).append(
            {
                "round": row.pairing.round.number if row.pairing.round else None,
                "board": row.pairing.board,
                "seat": row.seat,
                "place": row.place,
                "score": row.score,
                "points": row.points,
                "game": row.pairing.game_url or None,
            }
        )
    return {
        "entries": [
            {
                "tournament": entry.tournament_id,
                "name": entry.tournament.name,
                "format": entry.tournament.format,
                "pool": entry.tournament.pool,
                "url": entry.tournament.get_absolute_url(),
                "joined_at": _when(entry.joined_at),
                "withdrawn_at": _when(entry.withdrawn_at),
                "points": entry.points,
                "games": games.get(entry.pk, []),
            }
            for entry in user.tournament_entries.select_related("tournament").order_by("joined_at", "pk")
        ]
    }


def forget_player(user) -> None:
    """Withdraw ``user`` from every event not over (their game in play given up, so the
    event goes on without them); their finished results stay, for the others' standings."""
    entries = user.tournament_entries.filter(
        withdrawn_at__isnull=True, tournament__status__in=(Status.UPCOMING, *IN_PLAY)
    ).values_list("tournament_id", flat=True)
    for tournament_id in list(entries):
        entry_withdraw(tournament_id=tournament_id, user=user)
