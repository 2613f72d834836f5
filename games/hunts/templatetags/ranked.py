"""``{% ranked_panel %}``: the lobby's ranked queue panel for the signed-in player."""

from django import template

from games.hunts.services import matchmaking

register = template.Library()


@register.inclusion_tag("hunts/_ranked.html", takes_context=True)
def ranked_panel(context):
    return matchmaking.ranked_panel(context["request"].user)
