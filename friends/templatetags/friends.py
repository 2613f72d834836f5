"""Friends on other parts' pages: whether the viewer follows a player (the profile's Follow button)."""

from __future__ import annotations

from django import template

from friends import selectors

register = template.Library()


@register.simple_tag
def is_following(user, other) -> bool:
    return selectors.is_following(user, other)
