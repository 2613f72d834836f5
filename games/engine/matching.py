"""Matchmaking for live hunts: which waiting players sit down together, and when.

The ranked queue (``games.hunts.services.matchmaking``) and tournament arenas
(``games.engine.arena``) both seat players by this rule. Pure: no Django, no clock, no
global random. A pass takes the queue (each seeker's player id, rating and the second
they joined) and "now", and returns the tables to form and who keeps waiting; the same
queue and time always give the same pass.

The rules, in the game's words:

- A seeker accepts opponents within a rating *window* around their own rating. The
  window starts at ``base_window`` and widens by ``widen_per_second`` for every second
  waited, up to ``max_window``.
- A table holds 2 to 4 seekers, and every seeker's window covers every opponent at it
  (acceptance is mutual, so nobody is pulled down or up by someone else's patience).
- The longest-waiting seekers are seated first. Around each, the fullest table that
  fits is chosen, and among equally full ones the closest in rating.
- A full table (4) forms at once. A smaller one forms only when its longest waiter has
  waited ``fill_wait`` seconds: until then the seekers are held in the hope of a fuller
  table, but never longer.
- Seekers waiting ``bot_offer_after`` seconds with no table are offered a bot instead.
- Pairs named ``apart`` never share a table (an arena keeps a round's opponents apart
  for the next one).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from itertools import combinations

__all__ = ["DEFAULT_POLICY", "MatchPass", "MatchPolicy", "Seeker", "match"]


@dataclass(frozen=True)
class Seeker:
    """One queued player: ``joined_at`` is in seconds on the same clock as ``now``."""

    player: int
    rating: int
    joined_at: float


@dataclass(frozen=True)
class MatchPolicy:
    """The matcher's settings, as data."""

    base_window: int = 75
    widen_per_second: float = 10.0
    max_window: int = 500
    min_table: int = 2
    max_table: int = 4
    fill_wait: float = 8.0
    bot_offer_after: float = 45.0
    # How many of the nearest acceptable seekers are searched for the best table around
    # each seeker; the search is exhaustive whenever no more than this many fit.
    search_width: int = 12

    def __post_init__(self) -> None:
        if not 2 <= self.min_table <= self.max_table:
            raise ValueError("a table holds at least two seekers, and min_table <= max_table")
        if self.base_window < 0 or self.widen_per_second < 0 or self.max_window < self.base_window:
            raise ValueError("windows must be non-negative and max_window >= base_window")
        if self.search_width < self.max_table - 1:
            raise ValueError("search_width must cover a full table")

    def window(self, seeker: Seeker, now: float) -> float:
        """How far from their own rating ``seeker`` accepts opponents at ``now``."""
        waited = max(0.0, now - seeker.joined_at)
        return min(float(self.max_window), self.base_window + self.widen_per_second * waited)


DEFAULT_POLICY = MatchPolicy()


@dataclass(frozen=True)
class MatchPass:
    """The outcome of one pass.

    ``tables``: the tables to form, each its seekers longest-waiting first, in the order
    they were formed. ``waiting``: everyone else, longest-waiting first. ``lonely``: the
    players among ``waiting`` who have waited long enough to be offered a bot.
    """

    tables: tuple[tuple[Seeker, ...], ...]
    waiting: tuple[Seeker, ...]
    lonely: tuple[int, ...]


def _wait_order(seeker: Seeker) -> tuple[float, int]:
    return (seeker.joined_at, seeker.player)


def _rating_order(seeker: Seeker) -> tuple[int, float, int]:
    return (seeker.rating, seeker.joined_at, seeker.player)


def match(
    seekers: Iterable[Seeker],
    now: float,
    policy: MatchPolicy = DEFAULT_POLICY,
    apart: Collection[frozenset[int]] = frozenset(),
) -> MatchPass:
    """One matchmaking pass over the queue ``seekers`` at time ``now``.

    ``apart``: pairs of players (each a frozenset of two ids) who must not share a table.
    Raises ValueError if a player is queued twice.
    """
    queue = sorted(seekers, key=_wait_order)
    if len({seeker.player for seeker in queue}) != len(queue):
        raise ValueError("a player is queued twice")
    window = {seeker.player: policy.window(seeker, now) for seeker in queue}
    accepts = _acceptance(window, frozenset(apart))
    # Seekers still free, in rating order, for nearest-first searches.
    free = sorted(queue, key=_rating_order)
    free_keys = [_rating_order(seeker) for seeker in free]
    seated: set[int] = set()
    tables = []
    for anchor in queue:
        if anchor.player in seated:
            continue
        group = _best_group(anchor, free, free_keys, window, accepts, policy)
        full = len(group) == policy.max_table
        patient_enough = now - anchor.joined_at >= policy.fill_wait
        if not (full or (len(group) >= policy.min_table and patient_enough)):
            continue
        table = tuple(sorted(group, key=_wait_order))
        tables.append(table)
        for seeker in table:
            seated.add(seeker.player)
            index = bisect_left(free_keys, _rating_order(seeker))
            del free[index], free_keys[index]
    waiting = tuple(seeker for seeker in queue if seeker.player not in seated)
    lonely = tuple(seeker.player for seeker in waiting if now - seeker.joined_at >= policy.bot_offer_after)
    return MatchPass(tables=tuple(tables), waiting=waiting, lonely=lonely)


def _acceptance(window: dict[int, float], apart: frozenset[frozenset[int]]):
    """Mutual acceptance: each one's window covers the other, and they are not kept apart."""

    def mutual(a: Seeker, b: Seeker) -> bool:
        gap = abs(a.rating - b.rating)
        return gap <= window[a.player] and gap <= window[b.player]

    if not apart:
        return mutual
    return lambda a, b: mutual(a, b) and frozenset((a.player, b.player)) not in apart


def _nearest(anchor: Seeker, free: list[Seeker], free_keys: list, window: dict[int, float], accepts, limit: int):
    """Up to ``limit`` free seekers the anchor and they accept, nearest rating first.

    Ties in distance go to the longer waiter, then the lower player id, so the choice
    does not depend on the order the queue was given in.
    """
    reach = window[anchor.player]
    at = bisect_left(free_keys, _rating_order(anchor))
    below, above = at - 1, at + 1
    found = []
    while len(found) < limit:
        left = free[below] if below >= 0 else None
        right = free[above] if above < len(free) else None
        left_gap = anchor.rating - left.rating if left is not None else None
        right_gap = right.rating - anchor.rating if right is not None else None
        if left_gap is not None and left_gap > reach:
            left = left_gap = None
        if right_gap is not None and right_gap > reach:
            right = right_gap = None
        if left is None and right is None:
            break
        take_left = right is None or (
            left is not None and (left_gap, *_wait_order(left)) < (right_gap, *_wait_order(right))
        )
        if take_left:
            candidate, below = left, below - 1
        else:
            candidate, above = right, above + 1
        if accepts(anchor, candidate):
            found.append(candidate)
    return found


def _best_group(anchor: Seeker, free, free_keys, window, accepts, policy: MatchPolicy) -> tuple[Seeker, ...]:
    """The fullest table around ``anchor`` whose seekers all accept each other.

    Among equally full tables: the smallest rating spread, then the closest to the
    anchor, then the longest waiters. A lone anchor is returned when nobody fits.
    """
    candidates = _nearest(anchor, free, free_keys, window, accepts, policy.search_width)
    for others in range(min(policy.max_table - 1, len(candidates)), 0, -1):
        best = None
        best_key = None
        # Each combination is visited once, under its farthest seeker; a seeker farther
        # from the anchor than the best spread so far cannot be in a closer table.
        for far_index in range(others - 1, len(candidates)):
            far = candidates[far_index]
            if best_key is not None and abs(far.rating - anchor.rating) > best_key[0]:
                break
            for rest in combinations(candidates[:far_index], others - 1):
                chosen = (*rest, far)
                if not all(accepts(a, b) for a, b in combinations(chosen, 2)):
                    continue
                ratings = [anchor.rating] + [seeker.rating for seeker in chosen]
                key = (
                    max(ratings) - min(ratings),
                    sum(abs(seeker.rating - anchor.rating) for seeker in chosen),
                    sorted(_wait_order(seeker) for seeker in chosen),
                )
                if best_key is None or key < best_key:
                    best, best_key = chosen, key
        if best is not None:
            return (anchor, *best)
    return (anchor,)
