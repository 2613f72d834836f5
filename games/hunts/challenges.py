"""Challenging a friend to a hunt (``games.registry.Challenge``), and what friends see.

A challenge opens a table hosted by the challenger with a seat kept for the friend until
the invitation expires (friends keeps the invitation); the friend takes the seat or
gives it up. Friends see the table a player sits at, and may watch it.
"""

from __future__ import annotations

from django import forms

from games import registry

from . import services
from .forms import CLASSIC_SIZE_CHOICES, ROUND_CHOICES
from .models import Game, HuntLexicon, HuntSeat, TableStatus


def _fields() -> dict:
    return {
        "round_seconds": forms.TypedChoiceField(
            label="Rampage round", coerce=int, choices=ROUND_CHOICES, initial=ROUND_CHOICES[0][0]
        ),
        "lexicon_code": forms.ChoiceField(
            label="Rampage word list", choices=HuntLexicon.choices, initial=HuntLexicon.BOTH
        ),
        "size": forms.TypedChoiceField(label="Classic grid", coerce=int, choices=CLASSIC_SIZE_CHOICES, initial=4),
    }


def _send(*, by, other, game: str, settings: dict, expires_at) -> registry.Challenged:
    classic = game == Game.CLASSIC
    table = services.table_create(
        host=by,
        game=game,
        size=settings.get("size", 4) if classic else 4,
        lexicon_code=settings.get("lexicon_code", HuntLexicon.BOTH),
        round_seconds=None if classic else settings.get("round_seconds"),
        seat_count=2,
        kept_for=other,
        kept_until=expires_at,
    )
    return registry.Challenged(table.get_absolute_url(), seat=table.pk, what=f"a {table.get_game_display()} table")


CHALLENGE = registry.Challenge(
    games=tuple((game.value, f"{game.label} (live word hunt)") for game in Game),
    fields=_fields,
    send=_send,
    take_seat=lambda table_id, user: services.table_join(table_id=table_id, user=user),
    free_seat=lambda table_id, user: services.table_free_kept_seat(table_id=table_id, kept_for=user),
)


def playing(user_ids) -> dict[int, registry.Playing]:
    """The open table each player sits at (the one they sat at last)."""
    tables = {}
    for seat in (
        HuntSeat.objects.filter(user_id__in=list(user_ids), left_at__isnull=True)
        .exclude(table__status=TableStatus.CLOSED)
        .select_related("table")
        .order_by("-joined_at")
    ):
        tables.setdefault(seat.user_id, seat.table)
    return {
        user_id: registry.Playing(f"at a {table.get_game_display()} table", table.get_absolute_url())
        for user_id, table in tables.items()
    }
