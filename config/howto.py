"""How to play: one page per game, as the game kinds register them (``games.registry``).

Each kind names its pages and what each draws (an example board, asked of the engine, so
a page cannot drift from the rules the games play by); this module only serves them.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render

from games import registry


def _pages() -> dict[str, registry.HowTo]:
    return {page.slug: page for kind in registry.kinds() for page in kind.how_to_play}


def _titles() -> dict[str, str]:
    return {slug: page.title for slug, page in _pages().items()}


def index(request):
    return render(request, "howto/index.html", {"games": _titles()})


def game(request, game: str):
    """How to play ``game``: the rules in short, and the example its kind draws."""
    page = _pages().get(game)
    if page is None:
        raise Http404("No such game.")
    context = {"game": game, "title": page.title, "games": _titles()}
    if page.example is not None:
        context.update(page.example())
    return render(request, page.template, context)
