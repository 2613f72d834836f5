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
from django.http import HttpResponse, JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_response_headers
from django.views.decorators.cache import cache_page
from django.views.decorators.http import require_GET
from django_ratelimit.core import is_ratelimited

from games import registry
from games.ratings import selectors, stats
from games.ratings.pools import pool_codes
from games.tournaments import selectors as events

GAMES_PER_PAGE = 20
TOURNAMENTS_PER_PAGE = 20
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
    for pool in pool_codes():
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
    if pool not in pool_codes():
        return _error(f"No pool called {pool}; pools are {', '.join(pool_codes())}.", 404)
    _, standings = selectors.leaderboard(pool, page=1, per_page=LEADERBOARD_SIZE)
    return JsonResponse(
        {"pool": pool, "players": [{"username": s.username, "rating": s.rating, "games": s.games} for s in standings]}
    )


@public
def game_record(request, kind: str, game_id: int, extension: str):
    """A finished game's record file in one of its kind's formats (a GCG file)."""
    try:
        formats = {f.extension: f for f in registry.kind(kind).records}
    except registry.RegistryError:
        return _error(f"No game kind {kind!r}.", 404)
    if extension not in formats:
        return _error(f"{kind} games have no .{extension} records.", 404)
    found = formats[extension].write(game_id)
    if found is None:
        return _error(f"No finished {kind} game {game_id}.", 404)
    text, filename = found
    response = HttpResponse(text, content_type=formats[extension].content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@public
def game_clock(request, kind: str, game_id: int):
    """A game's clock as the server reads it now: ``{"id", "kind", "status", "at",
    "clock"}`` (``clock`` None for a game without one; the kind's ``game_clock``)."""
    try:
        read = registry.kind(kind).game_clock
    except registry.RegistryError:
        return _error(f"No game kind {kind!r}.", 404)
    if read is None:
        return _error(f"{kind} games have no clock.", 404)
    now = timezone.now()
    found = read(game_id, now)
    if found is None:
        return _error(f"No {kind} game {game_id}.", 404)
    return JsonResponse({"id": game_id, "kind": kind, **found, "at": now.isoformat()})


@public
def not_found(request):
    """Every address the API does not have: 404 with a JSON error."""
    return _error("No such address in the API; see the README for its addresses.", 404)


def _records(kind: str, game_id: int, request) -> dict:
    """Where the game's record files are, by format ({"gcg": url}), if its kind has any."""
    try:
        formats = registry.kind(kind).records
    except registry.RegistryError:
        return {}
    return {
        f.extension: request.build_absolute_uri(reverse("api:game_record", args=[kind, game_id, f.extension]))
        for f in formats
    }


def _game(result, request) -> dict:
    return {
        "id": result.pk,
        "kind": result.kind,
        "pool": result.pool,
        "finished_at": result.finished_at.isoformat(),
        "url": request.build_absolute_uri(result.url) if result.url else None,
        "records": _records(result.kind, result.object_id, request),
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
    if pool is not None and pool not in pool_codes():
        return _error(f"No pool called {pool}; pools are {', '.join(pool_codes())}.", 404)
    paginator = Paginator(stats.rated_games(user, pool), GAMES_PER_PAGE)
    # Django's paginator counts one (empty) page for no games; the answer says none.
    pages = paginator.num_pages if paginator.count else 0
    try:
        page = paginator.page(request.GET.get("page") or 1)
    except PageNotAnInteger:
        return _error("The page must be a whole number from 1.", 400)
    except EmptyPage:
        if (request.GET.get("page") or "1") != "1":
            return _error(f"No page {request.GET['page']}; there are {pages}.", 404)
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
            "pages": pages,
            "count": paginator.count,
            "next": link(page.next_page_number()) if page and page.has_next() else None,
            "previous": link(page.previous_page_number()) if page and page.has_previous() else None,
            "games": games,
        }
    )


def _paged(request, queryset, per_page: int):
    """(the page, its count of pages, link to a page number), or a JSON error."""
    paginator = Paginator(queryset, per_page)
    pages = paginator.num_pages if paginator.count else 0
    try:
        page = paginator.page(request.GET.get("page") or 1)
    except PageNotAnInteger:
        return None, pages, _error("The page must be a whole number from 1.", 400)
    except EmptyPage:
        if (request.GET.get("page") or "1") != "1":
            return None, pages, _error(f"No page {request.GET['page']}; there are {pages}.", 404)
        return None, pages, None
    return page, pages, None


def _link(request, number: int) -> str:
    query = request.GET.copy()
    query["page"] = number
    return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")


def _tournament_summary(t, request) -> dict:
    return {
        "id": t.pk,
        "name": t.name,
        "format": t.format,
        "pool": t.pool,
        "status": t.status,
        "rated": t.rated,
        "starts_at": t.starts_at.isoformat(),
        "ends_at": t.ends_at.isoformat() if t.ends_at else None,
        "rounds": t.rounds,
        "current_round": t.current_round,
        "url": request.build_absolute_uri(t.get_absolute_url()),
    }


@public
def tournaments(request):
    """Events by status (``?status=upcoming|running|finished``, default every one), newest
    start first, ``TOURNAMENTS_PER_PAGE`` a page: ``{"status", "page", "pages", "count",
    "next", "previous", "tournaments": [...]}``."""
    status = request.GET.get("status") or None
    statuses = events.API_STATUSES
    if status is not None and status not in statuses:
        return _error(f"No status called {status}; statuses are {', '.join(statuses)}.", 404)
    page, pages, error = _paged(request, events.listed(status), TOURNAMENTS_PER_PAGE)
    if error is not None:
        return error
    return JsonResponse(
        {
            "status": status,
            "page": page.number if page else 1,
            "pages": pages,
            "count": page.paginator.count if page else 0,
            "next": _link(request, page.next_page_number()) if page and page.has_next() else None,
            "previous": _link(request, page.previous_page_number()) if page and page.has_previous() else None,
            "tournaments": [_tournament_summary(t, request) for t in page.object_list] if page else [],
        }
    )


@public
def tournament(request, tournament_id: int):
    """One event: its summary, standings with tie-breaks, and games with links."""
    event = events.tournament(tournament_id)
    if event is None:
        return _error(f"No tournament {tournament_id}.", 404)
    standings = [
        {
            "rank": line.rank,
            "username": line.entry.user.username,
            "points": float(line.points),
            "tiebreaks": {name: float(value) for name, value in line.tiebreaks.items()},
            "withdrawn": line.withdrawn,
        }
        for line in events.standings(event)
    ]
    games = [
        {
            "round": pairing.round.number if pairing.round else None,
            "board": pairing.board,
            "status": pairing.status,
            "url": request.build_absolute_uri(pairing.game_url) if pairing.game_url else None,
            "players": [
                {
                    "username": row.entry.user.username,
                    "seat": row.seat,
                    "place": row.place,
                    "score": row.score,
                    "points": row.points,
                }
                for row in pairing.players.all()
            ],
        }
        for pairing in reversed(events.pairings(event))
    ]
    return JsonResponse({**_tournament_summary(event, request), "standings": standings, "games": games})
