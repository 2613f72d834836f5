"""Per-player and per-address limits on the pages that cost the most to serve.

A profile (statistics over every game), a leaderboard page and a game's replay each read
far more than an ordinary page. A script asking for them in a loop would take the
database from everyone, so each signed-in player may open ``HEAVY_PAGES_PER_USER`` of
them, and each client address ``HEAVY_PAGES_PER_ADDRESS``, in a minute (django-ratelimit,
counting in the cache; the address is the one ``config.proxies`` settled). Past either,
the answer is 429 with a page that says to wait, or JSON for a script.
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django_ratelimit.core import is_ratelimited

from .errors import wants_json

RETRY_AFTER_SECONDS = 60
TOO_MANY = "You are opening these pages faster than the site serves them to everyone; wait a minute and try again."


def _per_user(group, request) -> str:
    return settings.HEAVY_PAGES_PER_USER


def _per_address(group, request) -> str:
    return settings.HEAVY_PAGES_PER_ADDRESS


def heavy_page(*, json: bool = False):
    """Count the view against the heavy-page limits of the player and of the address;
    ``json``: the view answers scripts (a replay's frames), so its refusal is JSON too."""

    def decorate(view):
        @wraps(view)
        def limited(request, *args, **kwargs):
            over = is_ratelimited(request, group="heavy-pages", key="ip", rate=_per_address, increment=True)
            if request.user.is_authenticated:
                over = is_ratelimited(request, group="heavy-pages", key="user", rate=_per_user, increment=True) or over
            if over:
                return too_many_requests(request, json=json)
            return view(request, *args, **kwargs)

        return limited

    return decorate


def too_many_requests(request, *, json: bool = False):
    """429: a page that says to wait for a person, JSON for a script, with ``Retry-After``."""
    if json or wants_json(request):
        response = JsonResponse({"ok": False, "reason": TOO_MANY}, status=429)
    else:
        response = render(request, "429.html", {"reason": TOO_MANY}, status=429)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
