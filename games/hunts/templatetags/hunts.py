from django import template

from games.hunts import selectors

register = template.Library()


@register.inclusion_tag("hunts/_profile_recent.html")
def recent_hunts(player):
    """The "recent hunts" section of a profile."""
    return {"player": player, "rounds": selectors.recent_rounds(player), "totals": selectors.hunt_totals(player)}


@register.filter
def face(value: str) -> str:
    """A tile's face as shown: "Qu" for the Qu cube, otherwise the capital letter."""
    return "Qu" if value == "qu" else value.upper()
