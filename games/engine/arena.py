"""Arenas for live hunts: points per round with a streak bonus, and who plays whom next.

Pure, like the rest of the engine: no Django, no clock, no global random.

**Points.** After each round a player scores by their placing at the table, scaled so a
table of any size gives the same points on average: beating everyone at the table is 2,
beating nobody 0, and in between 2 × (players beaten + ½ × players tied) ÷ (opponents),
rounded half up. At a table of two that is 2 for a win, 1 for a draw, 0 for a loss; at a
table of four, 2, 1, 1, 0 from first to last. A **win** is first place alone. Two wins in
a row set a player **on fire**: their rounds score double until a round that is not a win,
which is still doubled (two wins then a draw at a table of two: 2 + 2 + 2). This is the
arena scoring of Lichess, for tables of two to four. A player who left the table before
its round ended **forfeited** it: they score 0 and their streak ends, and the players who
stayed are placed among themselves, ahead of every one who left (``table_finishes``).

**Pairing.** Whoever is waiting is seated at tables of 2–4 by the ranked matcher's rule
(``games.engine.matching``: mutual windows, the longest waiters first, the fullest and
closest table), where a player's place on the matcher's scale is their rating plus
``points_weight`` for every arena point, so leaders meet leaders and newcomers meet
players of their rating. The opponents of a player's last round are kept apart from them
for the next one while either has waited less than ``apart_for`` seconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from games.engine import matching

__all__ = [
    "ARENA_MATCH_POLICY",
    "DEFAULT_ARENA_POLICY",
    "ArenaPolicy",
    "ArenaScore",
    "Finish",
    "Waiting",
    "arena_pass",
    "arena_score",
    "round_points",
    "table_finishes",
]


@dataclass(frozen=True)
class Finish:
    """A player's placing in one arena round: ``place`` from 1 at a table of ``table``
    players, ``shared`` of whom (the player included) finished on that place. A
    ``forfeited`` round (the player left before its end) scores nothing and is not won."""

    place: int
    table: int
    shared: int = 1
    forfeited: bool = False

    def __post_init__(self) -> None:
        if not 2 <= self.table <= 4:
            raise ValueError("an arena table seats two to four players")
        if not (1 <= self.shared and 1 <= self.place and self.place + self.shared - 1 <= self.table):
            raise ValueError("a place must lie within the table")

    @property
    def is_win(self) -> bool:
        return self.place == 1 and self.shared == 1 and not self.forfeited


def table_finishes(places: Sequence[int | None]) -> tuple[Finish, ...]:
    """Each player's finish at one table, from their ``places`` in its round (1 first,
    equal places tied) in seat order, None for a player who left before the end: those
    who stayed are placed among themselves ahead of everyone who left, who forfeited."""
    table = len(places)
    stayed = [place for place in places if place is not None]
    left = table - len(stayed)
    finishes = []
    for place in places:
        if place is None:
            finishes.append(Finish(len(stayed) + 1, table, left, forfeited=True))
        else:
            ahead = sum(1 for other in stayed if other < place)
            finishes.append(Finish(ahead + 1, table, stayed.count(place)))
    return tuple(finishes)


def round_points(finish: Finish) -> int:
    """The points of ``finish`` before any streak bonus."""
    if finish.forfeited:
        return 0
    beaten = finish.table - finish.place - (finish.shared - 1)
    tied = finish.shared - 1
    opponents = finish.table - 1
    # 2 * (beaten + tied / 2) / opponents, rounded half up, in integers.
    return (2 * (2 * beaten + tied) + opponents) // (2 * opponents)


@dataclass(frozen=True)
class ArenaScore:
    """A player's arena so far: total points, each round's points, and the streak."""

    points: int = 0
    rounds: tuple[int, ...] = ()
    wins: int = 0
    streak: int = 0  # wins in a row, up to now

    @property
    def on_fire(self) -> bool:
        """The next round scores double."""
        return self.streak >= 2

    def after(self, finish: Finish) -> ArenaScore:
        """The score once ``finish`` is added."""
        points = round_points(finish) * (2 if self.on_fire else 1)
        return ArenaScore(
            points=self.points + points,
            rounds=(*self.rounds, points),
            wins=self.wins + finish.is_win,
            streak=self.streak + 1 if finish.is_win else 0,
        )


def arena_score(finishes: Iterable[Finish]) -> ArenaScore:
    """The score of a player's ``finishes``, in the order the rounds ended."""
    score = ArenaScore()
    for finish in finishes:
        score = score.after(finish)
    return score


#: The matcher's settings in an arena: everyone waiting is to play soon, so windows widen
#: fast and without limit, no bot is offered, and a table of two forms after 5 s.
ARENA_MATCH_POLICY = matching.MatchPolicy(
    base_window=150,
    widen_per_second=60.0,
    max_window=1_000_000,
    fill_wait=5.0,
    bot_offer_after=float("inf"),
)


@dataclass(frozen=True)
class ArenaPolicy:
    """An arena's pairing settings, as data."""

    match: matching.MatchPolicy = ARENA_MATCH_POLICY
    points_weight: int = 40
    apart_for: float = 20.0


DEFAULT_ARENA_POLICY = ArenaPolicy()


@dataclass(frozen=True)
class Waiting:
    """A player waiting in the arena for their next table since ``since`` (seconds)."""

    player: int
    rating: int
    points: int
    since: float
    last_opponents: frozenset[int] = field(default_factory=frozenset)


def arena_pass(
    waiting: Iterable[Waiting], now: float, policy: ArenaPolicy = DEFAULT_ARENA_POLICY
) -> matching.MatchPass:
    """The tables to seat now among ``waiting``, by the matcher's rule (its tables carry
    each seeker's place on the matcher's scale as ``rating``)."""
    waiting = list(waiting)
    seekers = [
        matching.Seeker(player.player, player.rating + policy.points_weight * player.points, player.since)
        for player in waiting
    ]
    fresh = {player.player for player in waiting if now - player.since < policy.apart_for}
    apart = {
        frozenset((player.player, opponent))
        for player in waiting
        for opponent in player.last_opponents
        if opponent != player.player and (player.player in fresh or opponent in fresh)
    }
    return matching.match(seekers, now, policy.match, apart=apart)
