"""Which ranked results mean something: the fair-play rules, as one pure function.

A ranked result is a claim that the players tried. ``judge`` reads a finished game's
``games.registry.Outcome`` and how often its players have met in the pool in the day
before, and says how much the result counts (``Verdict.weight``: 1 in full, less for a
pair that keeps meeting, 0 not at all) and why, in words the game's page shows. The
rules follow Lichess and Woogles (docs/ratings.md says how):

- A game ended by a resignation, a forfeit or a player leaving before every player has
  made ``MIN_MOVES`` moves is not rated (Lichess lets a game be aborted, unrated, until
  both sides have moved; Woogles counts a resignation within its first moves as
  sandbagging). In a hunt round, which runs on its clock whoever leaves, that is a
  player leaving before ``HUNT_MIN_SHARE`` of the round has passed.
- The same players meeting again in a pool within ``PAIR_WINDOW`` count less each time:
  in full for the first ``FULL_MEETINGS`` games of the day, then half, then a quarter,
  and not at all from game ``PAIR_LIMIT`` on (Lichess stops rating repeated quick games
  between related accounts; here every pair is treated alike).
- One opponent never makes a rating: a result's change to a player is split among their
  opponents (``opponent_shares``), and the net a player takes from one opponent stays
  within ``PAIR_POINTS`` (``pair_weight``).

It imports no Django and reads no clock: the caller counts the meetings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from games import registry

MIN_MOVES = 2
HUNT_MIN_SHARE = 0.5
PAIR_WINDOW = timedelta(days=1)
FULL_MEETINGS = 2
PAIR_LIMIT = 5
#: How much of a player's rating one opponent's results may make, in shown points: the
#: net change a player takes from results against one opponent in a pool stays within
#: this (``pair_weight``).
PAIR_POINTS = 150

_ENDED_EARLY = (registry.Ending.RESIGNED, registry.Ending.FORFEITED, registry.Ending.LEFT)


@dataclass(frozen=True)
class Verdict:
    """How much a result counts (1 in full, 0 not at all) and why, when not in full."""

    weight: float = 1.0
    reason: str = ""

    @property
    def rated(self) -> bool:
        return self.weight > 0


def judge(outcome: registry.Outcome, meetings: int = 0) -> Verdict:
    """The verdict on a ranked ``outcome`` between people; ``meetings`` is how many results
    of the pool in the ``PAIR_WINDOW`` before it had the same two players (for three or
    four players, the pair that met most)."""
    short = _ended_too_soon(outcome)
    if short:
        return Verdict(0.0, short)
    game = meetings + 1
    if game >= PAIR_LIMIT:
        return Verdict(0.0, f"Not rated: game {game} of the same players in this pool within a day.")
    if game > FULL_MEETINGS:
        weight = 0.5 ** (game - FULL_MEETINGS)
        return Verdict(weight, f"Counts {_share(weight)}: game {game} of the same players in this pool within a day.")
    return Verdict()


def _ended_too_soon(outcome: registry.Outcome) -> str:
    if any(player.share_played is not None for player in outcome.players):
        early = [p for p in outcome.players if p.share_played is not None and p.share_played < HUNT_MIN_SHARE]
        if early:
            return f"Not rated: a player left before {_share(HUNT_MIN_SHARE)} of the round had passed."
        return ""
    ended_early = outcome.ending in _ENDED_EARLY or any(player.left for player in outcome.players)
    if ended_early and any(player.moves < MIN_MOVES for player in outcome.players):
        return f"Not rated: the game ended by {_how(outcome)} before each player had made {MIN_MOVES} moves."
    return ""


def _how(outcome: registry.Outcome) -> str:
    ends = {player.ended for player in outcome.players if player.left}
    if registry.Ended.FORFEITED in ends or outcome.ending == registry.Ending.FORFEITED:
        return "a forfeit"
    if registry.Ended.LEFT in ends or outcome.ending == registry.Ending.LEFT:
        return "a player leaving"
    return "a resignation"


def opponent_shares(change: float, pairwise: Sequence[float]) -> tuple[float, ...]:
    """How a player's ``change`` from one result splits among their opponents, in order.

    ``pairwise`` holds, per opponent, the change a two-player result between the two
    (with the same order between them) would make. A result of n players counts as a
    two-player result against each opponent at 1/(n-1) of a game, and what the
    free-for-all gives beyond or short of their sum is shared evenly, so the shares add
    up to ``change``; with one opponent, it is all theirs.
    """
    opponents = len(pairwise)
    base = [points / opponents for points in pairwise]
    rest = (change - sum(base)) / opponents
    return tuple(points + rest for points in base)


def pair_weight(weight: float, change: float, taken: float) -> float:
    """``weight`` lowered so that a player who has taken ``taken`` shown points from one
    opponent, and would take ``change`` more at full weight, stays within ``PAIR_POINTS``
    of them either way (0 when the limit is reached)."""
    if change == 0:
        return weight
    room = PAIR_POINTS - taken if change > 0 else PAIR_POINTS + taken
    return max(0.0, min(weight, room / abs(change)))


def _share(value: float) -> str:
    return {1.0: "in full", 0.5: "half", 0.25: "a quarter"}.get(value, f"{value:.0%}")
