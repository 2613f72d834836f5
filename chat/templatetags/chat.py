from django import template

from chat.models import Mute

register = template.Library()


@register.simple_tag
def has_muted(user, player) -> bool:
    """Whether ``user`` muted ``player`` in chat (for the profile's Mute / Unmute button)."""
    return bool(user.is_authenticated) and Mute.objects.filter(muter=user, muted=player).exists()
