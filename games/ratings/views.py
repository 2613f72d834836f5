"""Leaderboard pages and the small rating-change fragment that pending changes poll."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from config.throttle import heavy_page

from . import scale, selectors
from .pools import pool_codes, pool_info
from .templatetags.ratings import POLL_ATTEMPTS, change_of


@require_GET
@heavy_page()
def leaderboard(request, pool: str | None = None):
    pool = pool or pool_codes()[0]
    if pool not in pool_codes():
        raise Http404("No such leaderboard.")
    page, standings = selectors.leaderboard(pool, page=request.GET.get("page") or 1)
    mine = selectors.leaderboard_place(request.user, pool)
    mine_on_page = mine is not None and any(s.user_id == mine.user_id for s in standings)
    context = {
        "pool": pool_info(pool),
        "pools": [pool_info(code) for code in pool_codes()],
        "page": page,
        "standings": standings,
        "total": page.paginator.count,
        "mine": mine,
        "mine_on_page": mine_on_page,
        "mine_page": (mine.place - 1) // selectors.LEADERBOARD_PAGE + 1 if mine else None,
        "settled": scale.PROVISIONAL_GAMES,
        "active_days": selectors.ACTIVE_DAYS,
    }
    return render(request, "ratings/leaderboard.html", context)


@require_GET
def change(request, kind: str, object_id: int, user_id: int):
    """The rating change of one player in one game, as the badge fragment.

    ``?attempt=n`` is how many times a pending badge has asked: it waits longer each
    time and stops asking after a few minutes.
    """
    raw = request.GET.get("attempt", "")
    attempt = min(int(raw[:6]), POLL_ATTEMPTS) if raw.isdigit() else 0
    return render(request, "ratings/_change.html", change_of(kind, object_id, user_id, attempt=attempt))
