"""The header badge: how many crossword games await my move."""

from __future__ import annotations

from django.utils.functional import SimpleLazyObject

from . import selectors


def my_games(request):
    """Counted only if a template shows it (the header): an htmx partial makes no query."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"crossword_games_awaiting": SimpleLazyObject(lambda: selectors.games_awaiting_move_count(user=user))}
