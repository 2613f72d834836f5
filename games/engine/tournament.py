"""Swiss and round-robin events for two-player games: pairings, first moves and standings.

Pure, like the rest of the engine: no Django, no clock, no global random. An event is its
entrants (player id and rating) and the games of its rounds; every function here takes
those and returns new values, so pairings and standings can always be recomputed from the
stored results.

**Points and tie-breaks.** A win is 1 point, a draw ½, a loss 0; a bye is a win with no
spread. Standings order players by

1. points;
2. spread: the sum of (own score − opponent's score) over the games played;
3. Buchholz: the sum of the opponents' points (a bye has no opponent and adds nothing);
4. Sonneborn–Berger: the sum of the points of the opponents beaten, plus half those of the
   opponents drawn;
5. then the rating at entry, then the player id (so the order is total).

Players equal on points, spread, Buchholz and Sonneborn–Berger share a rank.

**Swiss pairing** is a maximum-weight matching (Edmonds' blossom algorithm, from
rustworkx) over the players of the round, plus a bye when their number is odd. The weight
of a pairing ranks what matters, each criterion outweighing everything below it together:

1. a bye goes to a player with the fewest byes so far;
2. no rematch (the fewest meetings with the same opponent);
3. no first-move excess above 2 (a player's first moves minus second moves) and no third
   first (or second) move in a row;
4. players of equal points meet; otherwise the closest in points;
5. an excess of 2 is avoided, and nobody moves first (or second) twice in a row;
6. within equal points the top half meets the bottom half (first meets the middle),
   a player moved to the next group meets its top, and the bye goes to the lowest ranked.

Who moves first in a pairing: the way round that meets criteria 3 and 5 best; then the
player with the lower excess; then the one who moved second in their last game; then
alternately down the boards, the higher-ranked player first on the top board in odd
rounds.

Each player's candidates are the players near them in the pairing order and near their
ideal opponent (so 1,000 players pair in well under a second); if those cannot pair
everyone without a second bye, a rematch or an excess of 3, every pair is considered, so
criteria 1–3 are always met when they can be.

**Round robin** is the circle method (Berger tables): one seat stays, the others turn one
place a round; with an odd number of players one seat is the bye. Over a cycle everyone
meets everyone once, and first moves differ by at most one for every player; a second
cycle repeats the first with the first moves swapped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "BYE_POINTS",
    "Entrant",
    "Game",
    "Pairing",
    "Standing",
    "first_move_excess",
    "round_robin",
    "round_robin_rounds",
    "standings",
    "swiss_pairings",
]

#: A bye scores as a win.
BYE_POINTS = Fraction(1)

# Players pairing within these bounds always consider every pair.
_EVERY_PAIR_UP_TO = 64
# Candidates per player in a large event: this many either side of them in the pairing
# order and either side of their ideal opponent.
_REACH = 10
# The matching's weights are 128-bit integers.
_HEAVIEST = 2**120


@dataclass(frozen=True)
class Entrant:
    """A player in the event: their id and their rating when they entered."""

    player: int
    rating: int


@dataclass(frozen=True)
class Pairing:
    """One board of a round: ``first`` moves first; ``second`` None is a bye for ``first``."""

    first: int
    second: int | None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True)
class Game:
    """A pairing of round ``round`` (from 1) and its result once played.

    ``result`` is the first player's points (1, ½ or 0; None while in play; a bye's is
    ``BYE_POINTS``); ``spread`` is the first player's score minus the second's.
    """

    round: int
    first: int
    second: int | None
    result: Fraction | None = None
    spread: int = 0

    @classmethod
    def bye(cls, round: int, player: int) -> Game:
        return cls(round, player, None, BYE_POINTS, 0)

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def pairing(self) -> Pairing:
        return Pairing(self.first, self.second)

    def points(self, player: int) -> Fraction:
        """``player``'s points from this game (0 while it is in play)."""
        if self.result is None:
            return Fraction(0)
        return Fraction(self.result) if player == self.first else 1 - Fraction(self.result)

    def spread_of(self, player: int) -> int:
        return self.spread if player == self.first else -self.spread

    def opponent(self, player: int) -> int | None:
        return self.second if player == self.first else self.first


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    player: int
    rank: int
    points: Fraction
    spread: int
    buchholz: Fraction
    sonneborn_berger: Fraction
    wins: int
    draws: int
    losses: int
    byes: int
    firsts: int
    seconds: int

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses


# --------------------------------------------------------------------------- standings


def standings(entrants: Iterable[Entrant], games: Iterable[Game]) -> tuple[Standing, ...]:
    """The standings of ``entrants`` after ``games`` (games in play count for nothing yet)."""
    entrants = list(entrants)
    rating = {entrant.player: entrant.rating for entrant in entrants}
    if len(rating) != len(entrants):
        raise ValueError("a player entered twice")
    played = [game for game in games if game.result is not None]
    points: dict[int, Fraction] = dict.fromkeys(rating, Fraction(0))
    spread = dict.fromkeys(rating, 0)
    tally = {player: Counter() for player in rating}
    for game in played:
        for player in game.pairing.players:
            if player not in rating:
                raise ValueError(f"player {player} played but did not enter")
            points[player] += game.points(player)
            spread[player] += game.spread_of(player)
            won = game.points(player)
            tally[player]["bye" if game.is_bye else "win" if won == 1 else "draw" if won else "loss"] += 1
            if not game.is_bye:
                tally[player]["first" if player == game.first else "second"] += 1
    buchholz = dict.fromkeys(rating, Fraction(0))
    sonneborn_berger = dict.fromkeys(rating, Fraction(0))
    for game in played:
        if game.is_bye:
            continue
        for player in game.pairing.players:
            opponent = game.opponent(player)
            buchholz[player] += points[opponent]
            sonneborn_berger[player] += game.points(player) * points[opponent]

    def tiebreaks(player: int) -> tuple:
        return (-points[player], -spread[player], -buchholz[player], -sonneborn_berger[player])

    order = sorted(rating, key=lambda player: (*tiebreaks(player), -rating[player], player))
    lines = []
    rank = 0
    for index, player in enumerate(order):
        if index == 0 or tiebreaks(player) != tiebreaks(order[index - 1]):
            rank = index + 1
        counts = tally[player]
        lines.append(
            Standing(
                player=player,
                rank=rank,
                points=points[player],
                spread=spread[player],
                buchholz=buchholz[player],
                sonneborn_berger=sonneborn_berger[player],
                wins=counts["win"],
                draws=counts["draw"],
                losses=counts["loss"],
                byes=counts["bye"],
                firsts=counts["first"],
                seconds=counts["second"],
            )
        )
    return tuple(lines)


def first_move_excess(player: int, games: Iterable[Game]) -> int:
    """How many more games ``player`` moved first in than second (byes aside)."""
    excess = 0
    for game in games:
        if game.is_bye:
            continue
        if game.first == player:
            excess += 1
        elif game.second == player:
            excess -= 1
    return excess


# --------------------------------------------------------------------------- Swiss


@dataclass(eq=False)
class _Record:
    """What the pairing needs to know of one player's past."""

    player: int
    rating: int
    halves: int = 0  # points, in half points
    byes: int = 0
    excess: int = 0
    colours: tuple[str, ...] = ()  # "first"/"second", oldest first
    met: Counter | None = None  # opponent -> meetings

    # Filled once the pairing order is known.
    order: int = 0  # place in the pairing order, 0 the top
    group_start: int = 0  # the first and last order of the player's points group
    group_end: int = 0
    # (severe, mild) first-move costs of moving first, and of moving second, next.
    if_first: tuple[int, int] = (0, 0)
    if_second: tuple[int, int] = (0, 0)


def _records(entrants: Sequence[Entrant], games: Iterable[Game]) -> dict[int, _Record]:
    records = {entrant.player: _Record(entrant.player, entrant.rating, met=Counter()) for entrant in entrants}
    if len(records) != len(entrants):
        raise ValueError("a player entered twice")
    for game in sorted(games, key=lambda game: game.round):
        if game.result is None:
            raise ValueError(f"round {game.round} is still in play")
        for player in game.pairing.players:
            record = records.get(player)
            if record is None:
                continue  # a player who withdrew
            record.halves += int(game.points(player) * 2)
            if game.is_bye:
                record.byes += 1
                continue
            record.met[game.opponent(player)] += 1
            moved_first = player == game.first
            record.excess += 1 if moved_first else -1
            record.colours += ("first" if moved_first else "second",)
    for record in records.values():
        record.if_first = _colour_costs(record, "first")
        record.if_second = _colour_costs(record, "second")
    return records


def _colour_costs(record: _Record, colour: str) -> tuple[int, int]:
    """(severe, mild) first-move costs of ``record`` taking ``colour`` next."""
    excess = record.excess + (1 if colour == "first" else -1)
    severe = int(abs(excess) > 2) + int(record.colours[-2:] == (colour, colour))
    mild = int(abs(excess) == 2) + int(record.colours[-1:] == (colour,))
    return severe, mild


def _order(records: dict[int, _Record]) -> list[_Record]:
    """The pairing order: points, then rating, then id; each player's points group noted."""
    order = sorted(records.values(), key=lambda r: (-r.halves, -r.rating, r.player))
    start = 0
    for index, record in enumerate(order):
        record.order = index
        if index and record.halves != order[index - 1].halves:
            start = index
        record.group_start = start
    end = len(order) - 1
    for record in reversed(order):
        record.group_end = end
        if record.order == record.group_start:
            end = record.order - 1
    return order


def _first_mover(high: _Record, low: _Record, round: int) -> tuple[_Record, _Record]:
    """(who moves first, who moves second) when ``high`` meets ``low`` (ranked lower).

    The way round with the smaller first-move costs; on equal costs the player with the
    lower excess, then the one who moved second in their last game, then ``high`` in odd
    rounds (``low`` in even ones) on the top board, alternating down the boards.
    """
    straight = (high.if_first[0] + low.if_second[0], high.if_first[1] + low.if_second[1])
    swapped = (low.if_first[0] + high.if_second[0], low.if_first[1] + high.if_second[1])
    if straight != swapped:
        return (high, low) if straight < swapped else (low, high)
    if high.excess != low.excess:
        return (high, low) if high.excess < low.excess else (low, high)
    high_last = high.colours[-1] if high.colours else None
    low_last = low.colours[-1] if low.colours else None
    if high_last != low_last:
        return (high, low) if high_last == "second" or low_last == "first" else (low, high)
    return (high, low) if (high.order + round) % 2 == 1 else (low, high)


def _board(high: _Record, low: _Record, round: int) -> Pairing:
    first, second = _first_mover(high, low, round)
    return Pairing(first.player, second.player)


# Criteria of a pairing, most important first (see the module's docstring).
_BYE, _REMATCH, _SEVERE, _POINTS, _MILD, _PLACE = range(6)


def _pair_cost(high: _Record, low: _Record, round: int) -> tuple[int, ...]:
    """The costs of ``high`` (ranked higher) meeting ``low``, one per criterion."""
    first, second = _first_mover(high, low, round)
    severe = first.if_first[0] + second.if_second[0]
    mild = first.if_first[1] + second.if_second[1]
    points = (high.halves - low.halves) ** 2
    if high.group_start == low.group_start:
        # The ideal opponent is half the group below: the top half meets the bottom half.
        place = (low.order - high.order - (high.group_end - high.group_start + 1) // 2) ** 2
    else:
        # Moved down: the lowest of the upper group meets the top of the lower one.
        place = (high.group_end - high.order + low.order - low.group_start) ** 2
    return (0, high.met[low.player], severe, points, mild, place)


def _bye_cost(record: _Record, lowest: int, size: int) -> tuple[int, ...]:
    return (record.byes, 0, 0, (record.halves - lowest) ** 2, 0, (size - 1 - record.order) ** 2)


def _weights(costs: list[tuple[int, ...]], pairs: int) -> list[int]:
    """Turn cost vectors into matching weights, each criterion outweighing all below it
    summed over every pair of the round; higher weight is better."""
    scale = [1] * 6
    for criterion in range(4, -1, -1):
        below = max((cost[criterion + 1] for cost in costs), default=0)
        scale[criterion] = scale[criterion + 1] * (below * pairs + 1)
    s0, s1, s2, s3, s4, s5 = scale
    total = [c0 * s0 + c1 * s1 + c2 * s2 + c3 * s3 + c4 * s4 + c5 * s5 for c0, c1, c2, c3, c4, c5 in costs]
    top = max(total, default=0) + 1
    if top >= _HEAVIEST:
        raise ValueError("too many players or rounds to weigh the pairings")
    return [top - value for value in total]


def _candidates(order: list[_Record], every_pair: bool) -> list[tuple[int, int]]:
    """Index pairs (i < j) of the pairing order to consider, in order."""
    size = len(order)
    if every_pair:
        return [(i, j) for i in range(size) for j in range(i + 1, size)]
    pairs = set()
    for i, record in enumerate(order):
        group = record.group_end - record.group_start + 1
        ideal = i + group // 2 if i - record.group_start < group // 2 else i - group // 2
        for j in range(max(0, i - _REACH), min(size, i + _REACH + 1)):
            pairs.add((i, j))
        for j in range(max(0, ideal - _REACH), min(size, ideal + _REACH + 1)):
            pairs.add((i, j) if i < j else (j, i))
    return sorted(pair for pair in pairs if pair[0] < pair[1])


def _solve(order: list[_Record], round: int, every_pair: bool):
    """The best pairing among the candidates: (pairs of records, bye record or None,
    cost vectors of the chosen edges), or None if the candidates cannot pair everyone."""
    size = len(order)
    odd = size % 2 == 1
    edges = _candidates(order, every_pair)
    costs = [_pair_cost(order[i], order[j], round) for i, j in edges]
    if odd:
        lowest = min(record.halves for record in order)
        fewest = min(record.byes for record in order)
        takers = [i for i, record in enumerate(order) if every_pair or record.byes == fewest]
        for i in takers if every_pair else takers[-2 * _REACH :]:
            edges.append((i, size))
            costs.append(_bye_cost(order[i], lowest, size))
    weights = _weights(costs, (size + 1) // 2)
    # Loaded by a process that pairs a round (a worker; a web process when a director
    # starts an event), not by every web process that imports the tournament rules: the
    # library costs about 4 MB a process.
    import rustworkx

    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(size + odd))
    graph.add_edges_from([(i, j, index) for index, (i, j) in enumerate(edges)])
    matched = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=weights.__getitem__)
    if len(matched) * 2 != size + odd:
        return None
    cost_of = {edge: costs[index] for index, edge in enumerate(edges)}
    pairs, bye, chosen = [], None, []
    for i, j in sorted(tuple(sorted(edge)) for edge in matched):
        chosen.append(cost_of[(i, j)])
        if j == size:
            bye = order[i]
        else:
            pairs.append((order[i], order[j]))
    return pairs, bye, chosen


def swiss_pairings(entrants: Sequence[Entrant], games: Iterable[Game], round: int) -> tuple[Pairing, ...]:
    """Pair round ``round`` of a Swiss among ``entrants`` (the players still in the event),
    given every game of the earlier rounds, all finished.

    Returns the boards, first the one of the highest-ranked player, then a bye if any.
    Raises ValueError if a game of an earlier round is still in play, a player is entered
    twice, or fewer than two players are left.
    """
    entrants = list(entrants)
    if len(entrants) < 2:
        raise ValueError("a round needs at least two players")
    order = _order(_records(entrants, games))
    every_pair = len(order) <= _EVERY_PAIR_UP_TO
    solved = _solve(order, round, every_pair)
    if not every_pair and (solved is None or any(cost[_BYE] or cost[_REMATCH] or cost[_SEVERE] for cost in solved[2])):
        solved = _solve(order, round, True)
    pairs, bye, _ = solved
    boards = [_board(high, low, round) for high, low in pairs]
    if bye is not None:
        boards.append(Pairing(bye.player, None))
    return tuple(boards)


# --------------------------------------------------------------------------- round robin


def round_robin_rounds(players: int, cycles: int = 1) -> int:
    """How many rounds a round robin of ``players`` takes."""
    return (players - 1 + players % 2) * cycles


def round_robin(players: Sequence[int], cycles: int = 1) -> tuple[tuple[Pairing, ...], ...]:
    """Every round of a round robin among ``players`` (in seeding order), by the circle
    method: round ``r`` of the result is ``rounds[r - 1]``, its byes last."""
    players = list(players)
    if len(set(players)) != len(players):
        raise ValueError("a player entered twice")
    if len(players) < 2:
        raise ValueError("a round robin needs at least two players")
    if cycles < 1:
        raise ValueError("a round robin has at least one cycle")
    seats: list[int | None] = players + ([None] if len(players) % 2 else [])
    size = len(seats)
    fixed = seats[-1]
    ring = seats[:-1]
    cycle = []
    for number in range(size - 1):
        turned = ring[number:] + ring[:number]
        # The fixed seat alternates first moves; the ring's pairs take turns by round, so
        # every player's first and second moves differ by at most one over the cycle.
        boards = [(turned[0], fixed) if number % 2 == 0 else (fixed, turned[0])]
        for k in range(1, size // 2):
            a, b = turned[k], turned[size - 1 - k]
            boards.append((a, b) if k % 2 == 1 else (b, a))
        pairings = []
        byes = []
        for a, b in boards:
            if a is None or b is None:
                byes.append(Pairing(b if a is None else a, None))
            else:
                pairings.append(Pairing(a, b))
        cycle.append(tuple(pairings + byes))
    rounds = []
    for number in range(cycles):
        for pairings in cycle:
            if number % 2 == 0:
                rounds.append(pairings)
            else:
                rounds.append(tuple(p if p.second is None else Pairing(p.second, p.first) for p in pairings))
    return tuple(rounds)
