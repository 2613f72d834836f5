from django import template

from games.hunts import selectors
from games.ratings import summaries

register = template.Library()


@register.inclusion_tag("hunts/_profile_recent.html")
def recent_hunts(player):
    """The "recent hunts" section of a profile.

    Its rounds and totals are kept with the player's statistics (``summaries.kept``): only
    a finished round of theirs changes them. They name nobody and show no word (a daily
    round's line shows its score, which the day's leaderboard shows everyone); how long
    ago each round ended, and its rating change, are said at each view.
    """
    rounds, totals = summaries.kept(
        player, "recent-hunts:1", lambda: (selectors.recent_rounds(player), selectors.hunt_totals(player))
    )
    return {"player": player, "rounds": rounds, "totals": totals}


@register.filter
def face(value: str) -> str:
    """A tile's face as shown: "Qu" for the Qu cube, otherwise the capital letter."""
    return "Qu" if value == "qu" else value.upper()
