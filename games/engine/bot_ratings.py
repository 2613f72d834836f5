"""The bots' ratings: what each bot level of each game is rated in its pool, and how that is worked out.

    rating("classic5", "easy")     # 1290, or None for a level never calibrated
    fit([("easy", "medium", 12.5, 80), ...], anchor="medium")

The ratings are on the players' scale (``games.ratings.scale``: 1500 for a new player,
200 points between two players when the stronger wins 76 % of their games, Elo's
logistic). Bots play only each other when they are calibrated, so one level of each
pool, its *anchor*, is set at 1500, where a new player starts, and every other level is
rated by how it fared against the levels it met in seeded selfplay: the
Bradley–Terry (Elo) ratings that make those results most likely, draws counting half.
Each pair of levels is given one drawn game on top of those played, so a level that
won every game is still rated a finite distance above the other.

The table (``data/bot_ratings.json``) is written by ``manage.py hunt_bot_ratings`` and
``manage.py crossword_bot_ratings``, which play the seeded games; each pool in it
records the games it was computed from. Pure: no Django.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from functools import cache
from pathlib import Path

TABLE_PATH = Path(__file__).parent / "data" / "bot_ratings.json"
ANCHOR_RATING = 1500
#: Elo points per factor of 10 in the odds of winning.
ELO = 400.0
ITERATIONS = 2000


def fit(
    results: Iterable[tuple[str, str, float, int]], anchor: str, anchor_rating: int = ANCHOR_RATING
) -> dict[str, int]:
    """Ratings of the levels from ``results``: (level a, level b, a's points, games), draws as half a point.

    ``anchor`` is rated ``anchor_rating``; the others by maximum likelihood (the
    minorisation–maximisation iteration of the Bradley–Terry model), with one extra
    drawn game per pair. Every level must be connected to the anchor by games.
    """
    points: dict[str, float] = {}
    games: dict[tuple[str, str], float] = {}
    for a, b, won, played in results:
        if a == b or played <= 0 or not 0 <= won <= played:
            raise ValueError(f"a result needs two levels and 0 <= points <= games: {(a, b, won, played)}")
        points[a] = points.get(a, 0.0) + won + 0.5
        points[b] = points.get(b, 0.0) + played - won + 0.5
        key = (a, b) if a < b else (b, a)
        games[key] = games.get(key, 0.0) + played + 1
    if anchor not in points:
        raise ValueError(f"the anchor {anchor!r} played no game")
    _check_connected(anchor, points, games)
    strength = dict.fromkeys(points, 1.0)
    for _ in range(ITERATIONS):
        updated = {}
        for level in strength:
            denominator = sum(
                played / (strength[a] + strength[b]) for (a, b), played in games.items() if level in (a, b)
            )
            updated[level] = points[level] / denominator
        scale = updated[anchor]
        strength = {level: value / scale for level, value in updated.items()}
    return {level: round(anchor_rating + ELO * math.log10(value)) for level, value in strength.items()}


def _check_connected(anchor: str, points: dict[str, float], games: dict[tuple[str, str], float]) -> None:
    reached, frontier = {anchor}, [anchor]
    while frontier:
        level = frontier.pop()
        for a, b in games:
            other = b if a == level else a if b == level else None
            if other is not None and other not in reached:
                reached.add(other)
                frontier.append(other)
    if reached != set(points):
        raise ValueError(f"no games link {sorted(set(points) - reached)} to the anchor {anchor!r}")


def expected(rating: float, other: float) -> float:
    """The share of the points a player rated ``rating`` expects against one rated ``other``."""
    return 1 / (1 + 10 ** ((other - rating) / ELO))


@cache
def table() -> dict:
    """The stored table: ``{"pools": {pool: {"levels": {level: {"rating": …, …}}, …}}}``."""
    try:
        return json.loads(TABLE_PATH.read_text())
    except FileNotFoundError:
        return {"pools": {}}


def rating(pool: str, level: str) -> int | None:
    """The rating of bot ``level`` in ``pool``; None if that level was never calibrated there."""
    entry = table()["pools"].get(pool, {}).get("levels", {}).get(level)
    return None if entry is None else entry["rating"]


def levels(pool: str) -> dict[str, dict]:
    """Every calibrated level of ``pool`` and what the table keeps of it (rating, share of words, …)."""
    return dict(table()["pools"].get(pool, {}).get("levels", {}))


def store(pool: str, entry: dict, path: Path = TABLE_PATH) -> None:
    """Write ``pool``'s entry into the table at ``path``, keeping the other pools'."""
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        data = {"pools": {}}
    data["pools"][pool] = entry
    data["pools"] = dict(sorted(data["pools"].items()))
    path.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    table.cache_clear()
