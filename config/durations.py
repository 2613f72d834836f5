"""How the site writes a length of time, in one place for pages, notifications and emails.

The pages' live countdowns redraw the short form in the browser (the crossword board's
script); everything written on the server comes from here.
"""

from __future__ import annotations

from datetime import timedelta

_UNITS = ((86400, "day"), (3600, "hour"), (60, "minute"), (1, "second"))


def _seconds(length: int | float | timedelta) -> int:
    if isinstance(length, timedelta):
        length = length.total_seconds()
    return max(0, int(length))


def spoken(length: int | float | timedelta) -> str:
    """As people say it: "1 minute", "3 days", "5 hours", "12 minutes", "40 seconds".

    A whole number of a unit is said in that unit; otherwise the largest unit that
    gives at least two of it, rounded down.
    """
    seconds = _seconds(length)
    for size, name in _UNITS:
        if seconds and seconds % size == 0 or seconds >= 2 * size or size == 1:
            count = seconds // size
            return f"{count} {name}{'' if count == 1 else 's'}"
    raise AssertionError("unreachable")


def short(length: int | float | timedelta) -> str:
    """Two units at most, for a line of a page: "2 d 5 h", "3 h 10 min", "4 min 5 s"."""
    seconds = _seconds(length)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min {secs} s"
    return f"{secs} s"
