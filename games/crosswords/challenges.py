"""Challenging a friend to a crossword game (``games.registry.Challenge``): an invitation
to a two-player game, which they accept or decline."""

from __future__ import annotations

from django import forms

from games import registry

from . import services
from .forms import TIME_CHOICES
from .models import Variant


def _fields() -> dict:
    return {
        "seconds_per_move": forms.TypedChoiceField(
            label="Time per move (crosswords)", coerce=int, choices=TIME_CHOICES, initial=3 * 86400
        ),
        "ranked": forms.BooleanField(
            label="Ranked (crosswords)", required=False, help_text="The result changes both ratings."
        ),
    }


def _send(*, by, other, game: str, settings: dict, expires_at) -> registry.Challenged:
    created = services.game_create(
        creator=by,
        variant=game,
        seconds_per_move=settings["seconds_per_move"],
        invitees=[other],
        ranked=settings.get("ranked", False),
    )
    return registry.Challenged(created.get_absolute_url())


CHALLENGE = registry.Challenge(
    games=tuple((variant.value, f"{variant.label} (crossword)") for variant in Variant),
    fields=_fields,
    send=_send,
)
