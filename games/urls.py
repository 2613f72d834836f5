"""The addresses every turn-based game app has (its game page and the page's actions);
each app's ``urls`` adds its own."""

from __future__ import annotations

from django.urls import path

#: (address below the game, view name in the app's ``views``, URL name)
GAME_PATHS = (
    ("", "game", "game"),
    ("preview/", "preview", "preview"),
    ("play/", "play", "play"),
    ("swap/", "swap", "swap"),
    ("pass/", "pass_turn", "pass"),
    ("resign/", "resign", "resign"),
    ("accept/", "accept", "accept"),
    ("decline/", "decline", "decline"),
    ("cancel/", "cancel", "cancel"),
    ("rematch/", "rematch", "rematch"),
    ("replay/", "replay", "replay"),
)


def game_paths(views) -> list:
    """The game's paths (``<id>/...``) to the views of ``views`` named in GAME_PATHS."""
    return [path(f"<int:pk>/{tail}", getattr(views, view), name=name) for tail, view, name in GAME_PATHS]
