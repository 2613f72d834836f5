"""The profile's tournament history."""

from django import template

from .. import selectors

register = template.Library()


@register.inclusion_tag("tournaments/_profile_history.html")
def tournament_history(player):
    return {"history": selectors.history(player, limit=10), "player": player}


@register.filter
def half_points(points) -> str:
    """Stored half points (2 a win) as points: 1½."""
    if points is None:
        return "–"
    whole, half = divmod(int(points), 2)
    return f"{whole}½" if half and whole else "½" if half else str(whole)
