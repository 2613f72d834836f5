"""Swiss and round-robin pairings and standings (games/engine/tournament.py)."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import tournament
from games.engine.tournament import (
    Entrant,
    Game,
    Pairing,
    first_move_excess,
    round_robin,
    round_robin_rounds,
    standings,
    swiss_pairings,
)

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


def play_round(pairings, round, rng: random.Random) -> list[Game]:
    games = []
    for pairing in pairings:
        if pairing.is_bye:
            games.append(Game.bye(round, pairing.first))
        else:
            result = rng.choice((WIN, LOSS, WIN, LOSS, DRAW))
            spread = rng.randint(1, 150) * (1 if result == WIN else -1 if result == LOSS else 0)
            games.append(Game(round, pairing.first, pairing.second, result, spread))
    return games


def swiss_event(entrants, rounds, rng) -> list[Game]:
    games: list[Game] = []
    for round in range(1, rounds + 1):
        games += play_round(swiss_pairings(entrants, games, round), round, rng)
    return games


# --------------------------------------------------------------------------- what a pairing costs, told independently


class History:
    """What the games so far say about each player, read straight from the games."""

    def __init__(self, games):
        self.byes = Counter(game.first for game in games if game.is_bye)
        self.met = Counter(frozenset(game.pairing.players) for game in games if not game.is_bye)
        self.moves: dict[int, list[str]] = {}
        for game in sorted(games, key=lambda game: game.round):
            if not game.is_bye:
                self.moves.setdefault(game.first, []).append("first")
                self.moves.setdefault(game.second, []).append("second")

    def faults(self, player: int, move: str) -> int:
        """1 for an excess above 2 after ``move``, and 1 for a third ``move`` in a row."""
        moves = self.moves.get(player, [])
        excess = moves.count("first") - moves.count("second") + (1 if move == "first" else -1)
        return int(abs(excess) > 2) + int(moves[-2:] == [move, move])

    def board(self, pairing: Pairing) -> tuple[int, int, int]:
        """(the bye taker's earlier byes, rematches, severe first-move faults) of one board."""
        if pairing.is_bye:
            return (self.byes[pairing.first], 0, 0)
        faults = self.faults(pairing.first, "first") + self.faults(pairing.second, "second")
        return (0, self.met[frozenset(pairing.players)], faults)


def add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def top_criteria(pairings, games) -> tuple[int, int, int]:
    """(byes the bye's taker already had, rematches, severe first-move faults)."""
    history = History(games)
    total = (0, 0, 0)
    for pairing in pairings:
        total = add(total, history.board(pairing))
    return total


def best_possible(players: list[int], games) -> tuple[int, int, int]:
    """The best ``top_criteria`` of any pairing, each board the better way round (boards
    add up independently, so a search over who meets whom finds it)."""
    history = History(games)
    best_board = {}
    for a, b in combinations(players, 2):
        best_board[a, b] = min(history.board(Pairing(a, b)), history.board(Pairing(b, a)))

    @cache
    def best(rest: tuple[int, ...]) -> tuple[int, int, int]:
        if not rest:
            return (0, 0, 0)
        if len(rest) % 2 == 1:
            return min(add(history.board(Pairing(p, None)), best(tuple(q for q in rest if q != p))) for p in rest)
        head, others = rest[0], rest[1:]
        return min(add(best_board[head, p], best(tuple(q for q in others if q != p))) for p in others)

    return best(tuple(sorted(players)))


def check_partition(pairings, entrants) -> None:
    seen = [player for pairing in pairings for player in pairing.players]
    assert sorted(seen) == sorted(entrant.player for entrant in entrants)
    assert sum(pairing.is_bye for pairing in pairings) == len(entrants) % 2


@st.composite
def small_events(draw, max_players=8):
    size = draw(st.integers(2, max_players))
    ratings = draw(st.lists(st.integers(1000, 2000), min_size=size, max_size=size))
    rounds = draw(st.integers(1, 2 * size))
    seed = draw(st.integers(0, 2**32))
    return [Entrant(i + 1, rating) for i, rating in enumerate(ratings)], rounds, seed


# --------------------------------------------------------------------------- Swiss


def test_round_one_top_half_meets_bottom_half():
    """In round one, seeded by rating, the first meets the middle and so on down."""
    entrants = [Entrant(player, 2000 - 10 * player) for player in range(1, 9)]
    pairings = swiss_pairings(entrants, [], 1)
    assert {frozenset(p.players) for p in pairings} == {
        frozenset((1, 5)),
        frozenset((2, 6)),
        frozenset((3, 7)),
        frozenset((4, 8)),
    }
    assert [p.first for p in pairings] == [1, 6, 3, 8]  # alternating first moves down the boards


def test_winners_meet_winners():
    """After round one the winners play each other, top half against bottom half, and so do
    the losers, each player moving first after moving second."""
    entrants = [Entrant(player, 2000 - 10 * player) for player in range(1, 9)]
    games = [Game(1, 1, 5, WIN, 30), Game(1, 2, 6, WIN, 20), Game(1, 7, 3, LOSS, -10), Game(1, 8, 4, LOSS, -5)]
    pairings = swiss_pairings(entrants, games, 2)
    winners = {1, 2, 3, 4}
    for pairing in pairings:
        assert (pairing.first in winners) == (pairing.second in winners)
    assert {frozenset(p.players) for p in pairings} == {
        frozenset((1, 3)),
        frozenset((2, 4)),
        frozenset((5, 7)),
        frozenset((6, 8)),
    }
    assert {p.first for p in pairings} == {3, 4, 5, 6}


def test_bye_goes_to_the_lowest_ranked_without_one():
    """With an odd number the lowest-ranked player takes the bye, and not a second time."""
    entrants = [Entrant(player, 2000 - 10 * player) for player in range(1, 6)]
    first = swiss_pairings(entrants, [], 1)
    assert first[-1] == Pairing(5, None)
    games = [Game(1, p.first, p.second, LOSS if p.second else tournament.BYE_POINTS, 0) for p in first]
    games = [Game.bye(1, 5) if g.is_bye else g for g in games]
    second = swiss_pairings(entrants, games, 2)
    bye = next(p for p in second if p.is_bye)
    assert bye.first != 5


def test_a_round_still_in_play_cannot_be_paired_past():
    """Pairing the next round while a game of an earlier one has no result is refused."""
    entrants = [Entrant(1, 1500), Entrant(2, 1500)]
    with pytest.raises(ValueError, match="still in play"):
        swiss_pairings(entrants, [Game(1, 1, 2, None)], 2)


def test_withdrawn_players_are_not_paired():
    """A player who played earlier rounds but is no longer entered is left out."""
    entrants = [Entrant(player, 1500) for player in (1, 2, 3, 4)]
    games = [Game(1, 1, 2, WIN, 10), Game(1, 3, 5, WIN, 10), Game(1, 4, 6, DRAW, 0)]
    pairings = swiss_pairings(entrants, games, 2)
    check_partition(pairings, entrants)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_events())
def test_swiss_meets_byes_rematches_and_first_moves_as_well_as_any_pairing(event):
    """Every round of a random Swiss is as good as the best pairing a brute-force search
    finds on what matters most: the bye to a player with the fewest byes, then the fewest
    rematches, then no first-move excess above 2 and no third first (or second) in a row."""
    entrants, rounds, seed = event
    rng = random.Random(seed)
    games: list[Game] = []
    players = [entrant.player for entrant in entrants]
    for round in range(1, rounds + 1):
        pairings = swiss_pairings(entrants, games, round)
        check_partition(pairings, entrants)
        assert top_criteria(pairings, games) == best_possible(players, games)
        games += play_round(pairings, round, rng)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 40), st.integers(0, 2**32))
def test_swiss_without_rematch_byes_once_and_first_moves_balanced(size, seed):
    """A Swiss of no more rounds than half its players (where a pairing without rematches
    always exists) has no rematch, nobody takes two byes, and every player's first and
    second moves differ by at most 2."""
    rng = random.Random(seed)
    entrants = [Entrant(player, rng.randint(1000, 2000)) for player in range(1, size + 1)]
    rounds = max(1, size // 2)
    games = swiss_event(entrants, rounds, rng)
    meetings = Counter(frozenset(game.pairing.players) for game in games if not game.is_bye)
    assert max(meetings.values(), default=1) == 1
    byes = Counter(game.first for game in games if game.is_bye)
    assert max(byes.values(), default=1) == 1
    for entrant in entrants:
        assert abs(first_move_excess(entrant.player, games)) <= 2


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(80, 130), st.integers(3, 9), st.integers(0, 2**32))
def test_large_swiss_pairs_as_well_as_when_every_pair_is_weighed(size, rounds, seed):
    """Past the size where every pair is weighed, the nearby candidates give a round as
    good on byes, rematches and severe first-move faults as weighing every pair."""
    rng = random.Random(seed)
    entrants = [Entrant(player, rng.randint(1000, 2000)) for player in range(1, size + 1)]
    games = swiss_event(entrants, rounds - 1, rng)
    nearby = swiss_pairings(entrants, games, rounds)
    check_partition(nearby, entrants)
    records = tournament._order(tournament._records(entrants, games))
    pairs, bye, _ = tournament._solve(records, rounds, every_pair=True)
    everything = [tournament._board(high, low, rounds) for high, low in pairs]
    if bye is not None:
        everything.append(Pairing(bye.player, None))
    assert top_criteria(nearby, games) == top_criteria(everything, games)


# --------------------------------------------------------------------------- round robin


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 24), st.integers(1, 3))
def test_round_robin_everyone_meets_everyone_once_a_cycle(size, cycles):
    """Every pair meets once a cycle, an odd field gives everyone one bye a cycle, and over
    each cycle every player's first and second moves differ by at most one."""
    players = list(range(100, 100 + size))
    rounds = round_robin(players, cycles)
    assert len(rounds) == round_robin_rounds(size, cycles)
    per_cycle = len(rounds) // cycles
    for cycle in range(cycles):
        block = rounds[cycle * per_cycle : (cycle + 1) * per_cycle]
        meetings = Counter(frozenset(p.players) for pairings in block for p in pairings if not p.is_bye)
        assert set(meetings.values()) == {1}
        assert len(meetings) == size * (size - 1) // 2
        byes = Counter(p.first for pairings in block for p in pairings if p.is_bye)
        assert byes == (Counter(players) if size % 2 else Counter())
        for pairings in block:
            assert sorted(x for p in pairings for x in p.players) == players
        games = [Game(1, p.first, p.second, WIN) for pairings in block for p in pairings]
        for player in players:
            assert abs(first_move_excess(player, games)) <= 1


def test_round_robin_second_cycle_swaps_first_moves():
    """A double round robin replays the first cycle with the other player moving first."""
    rounds = round_robin([1, 2, 3, 4], cycles=2)
    for first, second in zip(rounds[:3], rounds[3:]):
        assert [(p.second, p.first) for p in first] == [(p.first, p.second) for p in second]


def test_round_robin_refuses_a_player_twice():
    """A field with a player twice is refused."""
    with pytest.raises(ValueError):
        round_robin([1, 2, 2])


# --------------------------------------------------------------------------- standings


def test_standings_order_points_then_spread_then_buchholz_then_sonneborn_berger():
    """Points first; on equal points the spread; then Buchholz; then Sonneborn–Berger."""
    entrants = [Entrant(player, 1500) for player in (1, 2, 3, 4)]
    games = [
        Game(1, 1, 2, WIN, 50),
        Game(1, 3, 4, WIN, 50),
        Game(2, 1, 3, LOSS, -10),
        Game(2, 2, 4, WIN, 20),
    ]
    table = standings(entrants, games)
    # 3: 2 points; 1 and 2: 1 point each, spread +40 and -30; 4: 0.
    assert [line.player for line in table] == [3, 1, 2, 4]
    assert [line.rank for line in table] == [1, 2, 3, 4]
    by_player = {line.player: line for line in table}
    assert by_player[1].buchholz == 1 + 2  # met 2 (1 point) and 3 (2 points)
    assert by_player[1].sonneborn_berger == 1  # beat 2 (1 point)
    assert by_player[3].spread == 60


def test_equal_tiebreaks_share_a_rank():
    """Players equal on points, spread, Buchholz and Sonneborn–Berger share a rank."""
    entrants = [Entrant(player, 1500 + player) for player in (1, 2)]
    table = standings(entrants, [Game(1, 1, 2, DRAW, 0)])
    assert [line.rank for line in table] == [1, 1]
    assert [line.player for line in table] == [2, 1]  # listed by rating


def test_bye_scores_a_win_without_spread_or_buchholz():
    """A bye is a point with no spread and adds nothing to Buchholz."""
    entrants = [Entrant(1, 1500), Entrant(2, 1500), Entrant(3, 1500)]
    table = {line.player: line for line in standings(entrants, [Game.bye(1, 3), Game(1, 1, 2, WIN, 40)])}
    assert (table[3].points, table[3].spread, table[3].buchholz, table[3].byes) == (1, 0, 0, 1)
    assert table[2].buchholz == 1


def test_games_in_play_count_for_nothing():
    """A game without a result adds no points, spread or games played."""
    entrants = [Entrant(1, 1500), Entrant(2, 1500)]
    table = standings(entrants, [Game(1, 1, 2, None, 0)])
    assert all(line.points == 0 and line.played == 0 for line in table)
