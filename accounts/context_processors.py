from django.conf import settings
from django.utils.functional import SimpleLazyObject

from .my_games import awaiting_count


def site(request):
    """Site name and, for a signed-in player, the unread notification count and how many
    games wait for them.

    Each is counted only if a template shows it (the header): an htmx partial makes no
    query for it.
    """
    context = {"SITE_NAME": settings.SITE_NAME}
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        context["unread_notifications"] = SimpleLazyObject(
            lambda: user.notifications.filter(read_at__isnull=True).count()
        )
        context["games_awaiting"] = SimpleLazyObject(lambda: awaiting_count(user))
    return context
