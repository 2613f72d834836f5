from django import template
from django.contrib.humanize.templatetags.humanize import naturaltime
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from games.hunts import selectors
from games.ratings import summaries

register = template.Library()


@register.simple_tag
def recent_hunts(player) -> SafeString:
    """The "recent hunts" section of a profile.

    Its rounds and totals are kept with the player's statistics (``summaries.kept``): only
    a finished round of theirs changes them, and rating updates (their changes show
    here). They name nobody and show no word (a daily round's line shows its score, which
    the day's leaderboard shows everyone). The section is kept as HTML too, under how long
    ago each round ended, which is worked out at each view.
    """
    rounds, totals = summaries.kept(
        player, "recent-hunts:1", lambda: (selectors.recent_rounds(player), selectors.hunt_totals(player))
    )
    ago = [naturaltime(played.round.ended_at) for played in rounds]

    def render() -> str:
        rows = list(zip(rounds, ago, strict=True))
        return render_to_string("hunts/_profile_recent.html", {"player": player, "rows": rows, "totals": totals})

    return summaries.kept_html(player, "recent-hunts-html:1", ago, render)


@register.filter
def face(value: str) -> str:
    """A tile's face as shown: "Qu" for the Qu cube, otherwise the capital letter."""
    return "Qu" if value == "qu" else value.upper()
