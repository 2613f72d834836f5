"""The header badge: how many crossword games await my move."""

from __future__ import annotations

from . import selectors


def my_games(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"crossword_games_awaiting": selectors.games_awaiting_move_count(user=user)}
