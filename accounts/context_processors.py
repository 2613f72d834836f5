from django.conf import settings


def site(request):
    """Site name and, for a signed-in player, the unread notification count."""
    context = {"SITE_NAME": settings.SITE_NAME}
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        context["unread_notifications"] = user.notifications.filter(read_at__isnull=True).count()
    return context
