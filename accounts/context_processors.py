from django.conf import settings
from django.core.cache import cache
from django.utils.functional import SimpleLazyObject

from games import registry

from . import services
from .my_games import awaiting_count

# The header's count of players online is shared by every page for this long.
ONLINE_COUNT_SECONDS = 10


def site(request):
    """Site name, the game kinds' links in the header, the players online (counted at most
    every few seconds) and, for a signed-in player, the unread notification count (and
    whether any is about this page) and how many games wait for them.

    Each is counted only if a template shows it (the header): an htmx partial makes no
    query for it.
    """
    context = {
        "SITE_NAME": settings.SITE_NAME,
        "game_links": [link for kind in registry.kinds() for link in kind.lobby],
        "players_online": SimpleLazyObject(
            lambda: cache.get_or_set("presence:online-count", services.online_count, ONLINE_COUNT_SECONDS)
        ),
    }
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        unread = SimpleLazyObject(lambda: user.notifications.filter(read_at__isnull=True).count())
        context["unread_notifications"] = unread
        # Notifications about the page being shown: the page tells the site it is seen.
        context["unread_here"] = SimpleLazyObject(
            lambda: unread > 0 and user.notifications.filter(read_at__isnull=True, url=request.path).exists()
        )
        context["games_awaiting"] = SimpleLazyObject(lambda: awaiting_count(user))
    return context
