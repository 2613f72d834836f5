"""Rating badges, rating changes, the profile's statistics and its SVG rating charts."""

from __future__ import annotations

from django import template

from games.ratings import scale, selectors, stats
from games.ratings.models import RatedPlayer
from games.ratings.pools import crossword_pool

register = template.Library()

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 110, 6
CHART_MIN_SPAN = 100  # rating points: a flat history still reads as flat, not as a cliff


RECENT_CHANGES = 100  # a list of games looks up its player's latest changes in one query
#: A pending badge asks again after 1, 2, 4, 8, 16 s, then every 30 s, and gives up after
#: POLL_ATTEMPTS (about five minutes): a worker that is down gets no request a second
#: from every open page for ever.
POLL_FIRST_DELAY, POLL_LONGEST_DELAY, POLL_ATTEMPTS = 1, 30, 14


def poll_delay(attempt: int) -> int | None:
    """Seconds before a pending badge's request number ``attempt`` (0 first); None: give up."""
    if not 0 <= attempt < POLL_ATTEMPTS:
        return None
    return min(POLL_FIRST_DELAY * 2**attempt, POLL_LONGEST_DELAY)


def _changes(user_id: int, kind: str, object_ids=None) -> dict[int, tuple]:
    rows = RatedPlayer.objects.filter(user_id=user_id, result__kind=kind)
    if object_ids is not None:
        rows = rows.filter(result__object_id__in=object_ids)
    else:
        rows = rows.order_by("-result_id")[:RECENT_CHANGES]  # the latest recorded
    return {
        object_id: (before, after, applied)
        for object_id, before, after, applied in rows.values_list(
            "result__object_id", "rating_before", "rating_after", "result__applied"
        )
    }


def change_of(kind: str, object_id: int, user_id: int, known: dict | None = None, attempt: int = 0) -> dict:
    """The rating change of ``user_id`` in a game: {"state": "none"|"pending"|"done", ...}.

    ``known``: that player's latest changes already read (a list of games). A pending
    change says when to ask again (``delay``, None once it gave up) and the next
    ``attempt`` number to ask with.
    """
    row = known.get(object_id) if known is not None else None
    # ``known`` holds every change of the player when it is shorter than the limit.
    if row is None and (known is None or len(known) >= RECENT_CHANGES):
        row = _changes(user_id, kind, [object_id]).get(object_id)
    if row is None:
        return {"state": "none"}
    before, after, applied = row
    if not applied:
        return {
            "state": "pending",
            "kind": kind,
            "object_id": object_id,
            "user_id": user_id,
            "delay": poll_delay(attempt),
            "attempt": attempt + 1,
        }
    if after is None:  # applied without a change: the other players' accounts were deleted
        return {"state": "none"}
    return {"state": "done", "change": after - before, "after": after}


@register.inclusion_tag("ratings/_change.html", takes_context=True)
def rating_change(context, kind: str, object_id: int, user) -> dict:
    """ "+12" / "−8" beside a player in a rated game; a pending change fetches itself.

    In a list, the first row reads the player's latest changes for the rest.
    """
    user_id = getattr(user, "pk", user)
    key = ("ratings.changes", kind, user_id)
    if key not in context.render_context:
        context.render_context[key] = _changes(user_id, kind)
    return change_of(kind, object_id, user_id, context.render_context[key])


@register.inclusion_tag("ratings/_rating.html")
def pool_rating(user, pool: str) -> dict:
    """A player's rating in ``pool``, marked "?" while provisional."""
    return {"rating": selectors.player_rating(user, pool), "pool": pool, "settled": scale.PROVISIONAL_GAMES}


@register.inclusion_tag("ratings/_rating.html")
def seeker_rating(game) -> dict:
    """The rating of the player who opened a crossword seek, in the game's pool."""
    return pool_rating(game.created_by_id, crossword_pool(game.variant))


@register.inclusion_tag("ratings/_chart.html")
def rating_chart(history: list[tuple], label: str = "Rating") -> dict:
    """A server-drawn SVG line of ``history``: (when, rating) from the start, oldest first."""
    if not history:
        return {"points": ""}
    ratings = [after for _, after in history]
    low, high = min(ratings), max(ratings)
    if high - low < CHART_MIN_SPAN:
        middle = (high + low) / 2
        low, high = middle - CHART_MIN_SPAN / 2, middle + CHART_MIN_SPAN / 2
    inner_w, inner_h = CHART_WIDTH - 2 * CHART_PAD, CHART_HEIGHT - 2 * CHART_PAD
    step = inner_w / max(1, len(ratings) - 1)

    def y(value):
        return round(CHART_PAD + inner_h * (high - value) / (high - low), 1)

    points = " ".join(f"{round(CHART_PAD + index * step, 1)},{y(value)}" for index, value in enumerate(ratings))
    last_x, last_y = points.split()[-1].split(",")
    return {
        "points": points,
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "label": label,
        "low": round(low),
        "high": round(high),
        "first": ratings[0],
        "last": ratings[-1],
        "games": len(ratings) - 1,
        "peak": max(ratings),
        "last_x": last_x,
        "last_y": last_y,
        "first_at": history[0][0],
        "last_at": history[-1][0],
    }


@register.inclusion_tag("ratings/_profile_stats.html", takes_context=True)
def profile_statistics(context, player) -> dict:
    """The profile's ratings and statistics section for ``player``."""
    return {
        "player": player,
        "viewer": context.get("user"),
        "pools": stats.pool_stats(player),
        "opponents": stats.opponents(player),
        "best": stats.best_plays(player),
        "settled": scale.PROVISIONAL_GAMES,
    }


@register.simple_tag
def rating_range(rating_min, rating_max) -> str:
    """A seek's rating range in words: "1300–1700", "1500 or more", "1700 or less"."""
    from games.ratings.selectors import range_text

    return range_text(rating_min, rating_max)


@register.filter
def signed(value: int) -> str:
    """+12, −8 (a true minus sign), ±0."""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "±0"
