"""Rating badges, rating changes, the profile's statistics and its SVG rating charts."""

from __future__ import annotations

import math

from django import template
from django.contrib.humanize.templatetags.humanize import ordinal
from django.template.loader import render_to_string
from django.utils.formats import date_format
from django.utils.safestring import SafeString

from games.ratings import scale, selectors, stats, summaries
from games.ratings.models import RatedPlayer

register = template.Library()

CHART_WIDTH, CHART_HEIGHT = 320, 170
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 40, 10, 8, 22  # room for the labels
CHART_TICK_STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000)
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
        object_id: (before, after, applied, weight, reason)
        for object_id, before, after, applied, weight, reason in rows.values_list(
            "result__object_id", "rating_before", "rating_after", "result__applied", "result__weight", "result__reason"
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
    before, after, applied, weight, reason = row
    if weight == 0:  # not rated by the fair-play rules, or voided: the page says why
        return {"state": "unrated", "reason": reason}
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
    return {"state": "done", "change": after - before, "after": after, "reason": reason}


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


def _tick_step(span: float) -> int:
    """A round step giving at most five rating labels over ``span``."""
    for step in CHART_TICK_STEPS:
        if span / step <= 4:
            return step
    return CHART_TICK_STEPS[-1]


def _average(changes: list[int]) -> int | None:
    return round(sum(abs(c) for c in changes) / len(changes)) if changes else None


@register.inclusion_tag("ratings/_chart.html")
def rating_chart(history: list[stats.ChartPoint], label: str = "Rating") -> dict:
    """A server-drawn SVG chart of ``history`` (the start, then each rated game, oldest
    first): rating labels and lines on the left, the dates of the first, middle and last
    games below, and a point per game that names its date, rating, change and game."""
    if not history:
        return {"points": []}
    ratings = [point.rating for point in history]
    low, high = min(ratings), max(ratings)
    if high - low < CHART_MIN_SPAN:
        middle = (high + low) / 2
        low, high = middle - CHART_MIN_SPAN / 2, middle + CHART_MIN_SPAN / 2
    step = _tick_step(high - low)
    low, high = step * math.floor(low / step), step * math.ceil(high / step)
    left, right, top, bottom = CHART_LEFT, CHART_WIDTH - CHART_RIGHT, CHART_TOP, CHART_HEIGHT - CHART_BOTTOM
    gap = (right - left) / max(1, len(history) - 1)

    def y(value) -> float:
        return round(bottom - (bottom - top) * (value - low) / (high - low), 1)

    points = []
    for index, point in enumerate(history):
        x = round(left + index * gap, 1) if len(history) > 1 else (left + right) / 2
        if point.change is None:
            text = f"Start: {point.rating}"
        else:
            text = (
                f"Game {point.game}, {date_format(point.when, 'j M Y')}: {point.rating} "
                f"({signed(point.change)}){', provisional' if point.provisional else ''}"
                f"{f', {ordinal(point.place)} place' if point.place else ''}"
            )
        points.append({"x": x, "y": y(point.rating), "point": point, "text": text})
    # The dates of the first, middle and last games (the start shares the first's date).
    first = 1 if len(points) > 1 else 0
    last = len(points) - 1
    shown = sorted({first, (first + last) // 2, last}) if last - first > 1 else sorted({first, last})
    dates = [
        {
            "x": points[i]["x"],
            "text": date_format(history[i].when, "j M Y"),
            "anchor": "end" if i == last else "start" if i == first else "middle",
        }
        for i in shown
    ]
    provisional = [p.change for p in history if p.change is not None and p.game <= scale.PROVISIONAL_GAMES]
    settled = [p.change for p in history if p.change is not None and p.game > scale.PROVISIONAL_GAMES]
    return {
        "points": points,
        "line": " ".join(f"{p['x']},{p['y']}" for p in points),
        "ticks": [{"y": y(value), "value": value} for value in range(int(low), int(high) + 1, step)],
        "dates": dates,
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "left": left,
        "right": right,
        "top": top,
        "bottom": bottom,
        "label": label,
        "first": ratings[0],
        "last": ratings[-1],
        "games": len(ratings) - 1,
        "peak": max(ratings),
        "lowest": min(ratings),
        "first_at": history[0].when,
        "last_at": history[-1].when,
        "settled_after": scale.PROVISIONAL_GAMES,
        "provisional_average": _average(provisional),
        "settled_average": _average(settled),
    }


def _drawn_chart(pool: stats.PoolStats) -> SafeString:
    return render_to_string("ratings/_chart.html", rating_chart(pool.history, pool.name))


@register.inclusion_tag("ratings/_profile_stats.html", takes_context=True)
def profile_statistics(context, player) -> dict:
    """The profile's ratings and statistics section for ``player``: its tables and charts
    kept as HTML under the opponents' names of now, the best plays as the viewer may see
    them."""
    opponents = summaries.opponents(player)

    def tables() -> str:
        pools = summaries.pools(player, chart=_drawn_chart)
        return render_to_string(
            "ratings/_profile_tables.html",
            {"pools": pools, "opponents": opponents, "settled": scale.PROVISIONAL_GAMES},
        )

    shows = [(opponent.username, opponent.name) for opponent in opponents]
    return {
        "player": player,
        "tables": summaries.kept_html(player, "statistics-html:1", shows, tables),
        "best": stats.best_plays(player, viewer=context.get("user")),
    }


@register.simple_tag
def rating_range(rating_min, rating_max) -> str:
    """A seek's rating range in words: "1300–1700", "1500 or more", "1700 or less"."""
    return selectors.range_text(rating_min, rating_max)


@register.filter
def signed(value: int) -> str:
    """+12, −8 (a true minus sign), ±0."""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "±0"
