"""The public read API: JSON, no log-in, cached, rate-limited per client address.

Each view reads through the ratings selectors and answers JSON; errors are JSON too
(``{"error": ...}`` with 400, 404 or 429). Answers are cached for ``API_CACHE_SECONDS``
in Django's cache (Redis in server mode), and each client address may make
``API_RATE_LIMIT`` requests (django-ratelimit, counting in the same cache); the limit
is checked before the cache, so cached answers count too.
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.http import JsonResponse
from django.utils.cache import patch_response_headers
from django.views.decorators.cache import cache_page
from django.views.decorators.http import require_GET
from django_ratelimit.core import is_ratelimited

from games.ratings import selectors, stats
from games.ratings.pools import POOLS

GAMES_PER_PAGE = 20
LEADERBOARD_SIZE = 100


def _error(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _rate(group, request) -> str:
    return settings.API_RATE_LIMIT


def public(view):
    """Rate-limit per address, then serve from the cache or run ``view``."""
    cached = cache_page(settings.API_CACHE_SECONDS, key_prefix="api")(view)

    @wraps(view)
    @require_GET
    def wrapped(request, *args, **kwargs):
        if is_ratelimited(request, group="api", key="ip", rate=_rate, increment=True):
            response = _error("Too many requests; slow down.", 429)
            response["Retry-After"] = "60"
            return response
        response = cached(request, *args, **kwargs)
        if response.status_code != 200:
            patch_response_headers(response, cache_timeout=0)
        return response

    return wrapped


def _player(username: str):
    return get_user_model().objects.filter(username=username, is_active=True).first()


def _ratings(user) -> dict:
    ratings = {}
    for pool in POOLS:
        rating = selectors.player_rating(user, pool)
        ratings[pool] = {"rating": rating.rating, "provisional": rating.provisional, "games": rating.games}
    return ratings


@public
def player(request, username: str):
    """``{"username", "bot", "ratings": {pool: {"rating", "provisional", "games"}}}``."""
    user = _player(username)
    if user is None:
        return _error(f"No player called {username}.", 404)
    return JsonResponse({"username": user.username, "bot": user.is_bot, "ratings": _ratings(user)})


@public
def leaderboard(request, pool: str):
    """``{"pool", "players": [{"username", "rating", "games"}, ...]}`` best first (top 100)."""
    if pool not in POOLS:
        return _error(f"No pool called {pool}; pools are {', '.join(POOLS)}.", 404)
    _, standings = selectors.leaderboard(pool, page=1, per_page=LEADERBOARD_SIZE)
    return JsonResponse(
        {"pool": pool, "players": [{"username": s.username, "rating": s.rating, "games": s.games} for s in standings]}
    )


@public
def not_found(request):
    """Every address the API does not have: 404 with a JSON error."""
    return _error("No such address in the API; see the README for its addresses.", 404)


def _game(result, request) -> dict:
    return {
        "id": result.pk,
        "kind": result.kind,
        "pool": result.pool,
        "finished_at": result.finished_at.isoformat(),
        "url": request.build_absolute_uri(result.url) if result.url else None,
        "rated": result.applied,
        "players": [
            {
                "username": p.user.username,
                "place": p.place,
                "score": p.score,
                "left": p.left,
                "rating_before": p.rating_before,
                "rating_after": p.rating_after,
                "change": p.change,
            }
            for p in sorted(result.players.all(), key=lambda p: (p.place, p.pk))
        ],
    }


@public
def player_games(request, username: str):
    """A player's rated games, newest first, ``GAMES_PER_PAGE`` a page (``?page=N``, ``?pool=P``)."""
    user = _player(username)
    if user is None:
        return _error(f"No player called {username}.", 404)
    pool = request.GET.get("pool") or None
    if pool is not None and pool not in POOLS:
        return _error(f"No pool called {pool}; pools are {', '.join(POOLS)}.", 404)
    paginator = Paginator(stats.rated_games(user, pool), GAMES_PER_PAGE)
    try:
        page = paginator.page(request.GET.get("page") or 1)
    except PageNotAnInteger:
        return _error("The page must be a whole number from 1.", 400)
    except EmptyPage:
        if (request.GET.get("page") or "1") != "1":
            return _error(f"No page {request.GET['page']}; there are {paginator.num_pages}.", 404)
        page = None
    games = [_game(result, request) for result in page.object_list] if page else []

    def link(number):
        query = request.GET.copy()
        query["page"] = number
        return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")

    return JsonResponse(
        {
            "username": user.username,
            "pool": pool,
            "page": page.number if page else 1,
            "pages": paginator.num_pages if paginator.count else 0,
            "count": paginator.count,
            "next": link(page.next_page_number()) if page and page.has_next() else None,
            "previous": link(page.previous_page_number()) if page and page.has_previous() else None,
            "games": games,
        }
    )
